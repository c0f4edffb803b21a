#!/bin/sh
# test_sidecar_sums.sh - sizes read from a dump's sidecars are summed with
# saturation, as the model's are (issue 45): a crafted buffer assignment
# whose allocations add up past 2^64 must not wrap into "XLA said: 1B"
# (which kept hbm-over-budget silent), and a finding's byte fields are
# never written as negative numbers.
. tests/lib.sh
d=$tmp/dump
mkdir -p "$d"
m=$d/module_0001.jit_f.tpu_after_optimizations.txt
cat >"$m" <<'HLO'
HloModule jit_f, is_scheduled=true

ENTRY %main (p: f32[1024]) -> f32[1024] {
  %p = f32[1024]{0:T(1024)} parameter(0)
  ROOT %n = f32[1024]{0:T(1024)} negate(%p)
}
HLO
# 2 x 2^63 + 1 = 2^64 + 1: wraps to 1 without saturation.
cat >"$d/module_0001.jit_f.tpu_after_optimizations-buffer-assignment.txt" <<'BA'
BufferAssignment:
allocation 0: size 9223372036854775808, parameter 0, shape |f32[1024]| at ShapeIndex {}:
 value: <0 p @0> (size=4096,offset=0): f32[1024]{0:T(1024)}
allocation 1: size 9223372036854775808, output shape is |f32[1024]|, maybe-live-out:
 value: <1 n @0> (size=4096,offset=0): f32[1024]{0:T(1024)}
allocation 2: size 1, preallocated-temp:
BA
"$HLOLINT" mem --no-config --target tpu-v5e "$m" >"$tmp/out" 2>"$tmp/err" ||
	fail "mem exited $? on the crafted sidecar: $(head -n 1 "$tmp/err")"
grep -q 'XLA said: 1B' "$tmp/out" && fail "XLA's figure wrapped: $(grep 'XLA said' "$tmp/out")"
grep -q 'XLA said: 16.00E' "$tmp/out" ||
	fail "XLA's figure is not the saturated 16E: $(grep 'XLA said' "$tmp/out")"
"$HLOLINT" mem --no-config --format json --target tpu-v5e "$m" >"$tmp/j" 2>/dev/null
grep -q '"xla_total_bytes": 18446744073709551615' "$tmp/j" ||
	fail "xla_total_bytes is not saturated: $(grep xla_total "$tmp/j")"
"$HLOLINT" check --no-config --format json --target tpu-v5e "$m" >"$tmp/c" 2>/dev/null
[ $? = 1 ] || fail "check on 16E of XLA's allocations on a 15.48G device: no finding"
grep -q '"rule": "hbm-over-budget"' "$tmp/c" || fail "hbm-over-budget stayed silent"
grep -q '"[a-z_]*bytes[a-z_]*": -' "$tmp/c" && fail "a negative byte field: $(grep '"[a-z_]*bytes[a-z_]*": -' "$tmp/c")"
exit $st
