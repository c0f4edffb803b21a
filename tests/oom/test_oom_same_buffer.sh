#!/bin/sh
# test_oom_same_buffer.sh - one buffer, one fix: a report that names the
# scan's stack by the pad that makes it (a log hand-written in XLA:TPU's
# format about corpora/xla's scan_offload/oom module) gets the rule finding
# that sits on the dynamic-update-slice fusion writing the same buffer, and
# the class loop-carry with the offload fix first.
. tests/lib.sh
d=corpora/xla/out/scan_offload/oom/tpu-v5e
cat >"$tmp/log" <<'LOG'
RESOURCE_EXHAUSTED: XLA:TPU compile permanent error. Ran out of memory in memory space hbm. Used 17.25G of 15.75G hbm. Exceeded hbm capacity by 1.50G.

  Largest program allocations in hbm:

  1. Size: 16.00G
     Shape: bf16[64,131072,1024]{2,1,0:T(8,128)(2,1)}
     Unpadded size: 16.00G
     XLA label: %pad = bf16[64,131072,1024]{2,1,0:T(8,128)(2,1)} pad(%get-tuple-element.172, %constant.70.clone), padding=0_63x0_0x0_0, metadata={op_name="jit(model)/jvp()/while/body/jit(dynamic_update_index_in...
     Allocation type: HLO temp
     ==========================
LOG
"$HLOLINT" oom --no-config "$tmp/log" "$d" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" = 1 ] || { fail "exit $rc"; cat "$tmp/err"; }
grep -q "^note: loop-carry: a while loop carries allocation 1 (bf16\[64,131072,1024\])" "$tmp/out" || fail "class is not loop-carry"
grep -q "found by its XLA label" "$tmp/out" || fail "%pad not found by its label"
grep -q "\[loop-carry-offload\] on %bitcast_dynamic-update-slice_fusion.2, the same buffer:" "$tmp/out" ||
	fail "the finding on the fusion that writes the same buffer is not attached"
grep -m 1 "^note: fix:" "$tmp/out" | grep -q "offload the saved residuals" || fail "the offload fix is not first"
exit $st
