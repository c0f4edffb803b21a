#!/bin/sh
# check_apply.sh - `hlolint annotate --apply` on the compiled TPU modules of
# the scan-offload scenario (the residual stack left in HBM): XLA's parser
# must accept the applied module; its recompile is tried and its result (or
# XLA's reason it cannot be done) printed; and hlolint's predicted fall of
# device memory is compared with what XLA itself gives the offloaded twin
# (memory_analysis of scan_offload/device minus scan_offload/offloaded):
# both numbers printed, within 25% (v4 and v5p are at about -19% today: XLA
# also shrinks other buffers of the offloaded twin; see docs/fidelity.md).
. tests/lib.sh
. tests/xla/live/apply.sh
X=corpora/xla/out/scan_offload
n=0
for t in tpu-v4 tpu-v5e tpu-v5p tpu-v6e tpu-v7; do
	[ -f "$X/device/$t/compiled.hlo.gz" ] || continue
	apply_on "$t" "$X/device/$t/compiled.hlo.gz"
	if [ "$applied" -eq 0 ]; then
		echo "note: $t: nothing applied (the rule did not fire): no comparison"
		continue
	fi
	n=$((n + 1))
	xla_takes "$t"
	"$HLOLINT" mem --format json --target "$t" "$X/device/$t/compiled.hlo.gz" >"$tmp/before"
	"$HLOLINT" mem --format json --target "$t" "$tmp/applied.hlo" >"$tmp/after"
	ours=$(( $(jnum peak_bytes "$tmp/before") - $(jnum peak_bytes "$tmp/after") ))
	xd=$(( $(jnum temp_size_in_bytes "$X/device/$t/memory_analysis.json") + \
		$(jnum argument_size_in_bytes "$X/device/$t/memory_analysis.json") ))
	xo=$(( $(jnum temp_size_in_bytes "$X/offloaded/$t/memory_analysis.json") + \
		$(jnum argument_size_in_bytes "$X/offloaded/$t/memory_analysis.json") ))
	within "$t" "$ours" "$((xd - xo))" 25 "device memory"
done
[ "$n" -ge 3 ] || fail "only $n applied modules compared"
exit $st
