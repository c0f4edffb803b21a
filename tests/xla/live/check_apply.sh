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
X=corpora/xla/out/scan_offload
n=0
for t in tpu-v4 tpu-v5e tpu-v5p tpu-v6e tpu-v7; do
	[ -f "$X/device/$t/compiled.hlo.gz" ] || continue
	"$HLOLINT" annotate --no-config --apply --target "$t" -o "$tmp/applied.hlo" "$X/device/$t/compiled.hlo.gz" \
		2>"$tmp/err"
	rc=$?
	[ "$rc" -le 1 ] || { echo "FAIL: $t: annotate --apply exited $rc: $(head -n 1 "$tmp/err")"; st=1; continue; }
	applied=$(sed -n 's|^// hlolint: --apply made \([0-9]*\) of.*|\1|p' "$tmp/applied.hlo")
	if [ "${applied:-0}" -eq 0 ]; then
		echo "note: $t: nothing applied (the rule did not fire): no comparison"
		continue
	fi
	n=$((n + 1))
	"$XLA_PY" corpora/xla/xla_check.py parse "$tmp/applied.hlo" >"$tmp/p" 2>/dev/null
	grep -q '^ok ' "$tmp/p" || { echo "FAIL: $t: XLA rejects the applied module: $(cat "$tmp/p")"; st=1; }
	"$XLA_PY" corpora/xla/xla_check.py recompile "$tmp/applied.hlo" "$t" 2>/dev/null | cut -c1-160 |
		sed "s/^/  $t recompile: /"
	"$HLOLINT" mem --format json --target "$t" "$X/device/$t/compiled.hlo.gz" >"$tmp/before"
	"$HLOLINT" mem --format json --target "$t" "$tmp/applied.hlo" >"$tmp/after"
	ours=$(( $(jnum peak_bytes "$tmp/before") - $(jnum peak_bytes "$tmp/after") ))
	xd=$(( $(jnum temp_size_in_bytes "$X/device/$t/memory_analysis.json") + \
		$(jnum argument_size_in_bytes "$X/device/$t/memory_analysis.json") ))
	xo=$(( $(jnum temp_size_in_bytes "$X/offloaded/$t/memory_analysis.json") + \
		$(jnum argument_size_in_bytes "$X/offloaded/$t/memory_analysis.json") ))
	xla=$((xd - xo))
	pct=$(awk -v a="$ours" -v b="$xla" 'BEGIN { printf "%+.1f", b ? 100 * (a - b) / b : 0 }')
	echo "$t: hlolint predicts -$ours bytes of device memory; XLA's offloaded twin has -$xla ($pct%)"
	awk -v p="${pct#[+-]}" 'BEGIN { exit !(p <= 25) }' || { echo "FAIL: $t: prediction off by $pct%"; st=1; }
done
[ "$n" -ge 3 ] || { echo "FAIL: only $n applied modules compared"; st=1; }
exit $st
