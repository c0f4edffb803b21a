#!/bin/sh
# check_apply_offload.sh - `hlolint annotate --apply` of offload-candidate
# on the compiled TPU modules of offload_levers/early_device (a weight read
# only at the start): XLA's parser must accept the applied module (the
# weight in S(5), a copy-start/copy-done pair before its reads); its
# recompile is tried and XLA's memory for it printed next to the offloaded
# twin's; and hlolint's predicted fall of the total is compared with XLA's
# own difference between the twins (within 10%).
. tests/lib.sh
X=corpora/xla/out/offload_levers
n=0
dev() { echo $(( $(jnum argument_size_in_bytes "$1") + $(jnum output_size_in_bytes "$1") - \
	$(jnum alias_size_in_bytes "$1") + $(jnum temp_size_in_bytes "$1") )); }
for t in tpu-v4 tpu-v5e tpu-v5p tpu-v6e tpu-v7; do
	[ -f "$X/early_device/$t/compiled.hlo.gz" ] || continue
	"$HLOLINT" annotate --no-config --apply --select offload-candidate --offload-min-fraction 0 --target "$t" \
		-o "$tmp/applied.hlo" \
		"$X/early_device/$t/compiled.hlo.gz" 2>"$tmp/err"
	rc=$?
	[ "$rc" -le 1 ] || { echo "FAIL: $t: annotate --apply exited $rc: $(head -n 1 "$tmp/err")"; st=1; continue; }
	applied=$(sed -n 's|^// hlolint: --apply made \([0-9]*\) of.*|\1|p' "$tmp/applied.hlo")
	if [ "${applied:-0}" -eq 0 ]; then
		echo "FAIL: $t: nothing applied"
		st=1
		continue
	fi
	n=$((n + 1))
	"$XLA_PY" corpora/xla/xla_check.py parse "$tmp/applied.hlo" >"$tmp/p" 2>/dev/null
	grep -q '^ok ' "$tmp/p" || { echo "FAIL: $t: XLA rejects the applied module: $(cat "$tmp/p")"; st=1; }
	"$XLA_PY" corpora/xla/xla_check.py recompile "$tmp/applied.hlo" "$t" 2>/dev/null >"$tmp/rc"
	cut -c1-160 "$tmp/rc" | sed "s/^/  $t recompile: /"
	"$HLOLINT" mem --format json --target "$t" "$X/early_device/$t/compiled.hlo.gz" >"$tmp/before"
	"$HLOLINT" mem --format json --target "$t" "$tmp/applied.hlo" >"$tmp/after"
	ours=$(( $(jnum total_bytes "$tmp/before") - $(jnum total_bytes "$tmp/after") ))
	xla=$(( $(dev "$X/early_device/$t/memory_analysis.json") - $(dev "$X/early_offloaded/$t/memory_analysis.json") ))
	pct=$(awk -v a="$ours" -v b="$xla" 'BEGIN { printf "%+.1f", b ? 100 * (a - b) / b : 0 }')
	echo "$t: hlolint's applied module: -$ours bytes; XLA's offloaded twin: -$xla ($pct%)"
	awk -v p="${pct#[+-]}" 'BEGIN { exit !(p <= 10) }' || { echo "FAIL: $t: prediction off by $pct%"; st=1; }
done
[ "$n" -ge 2 ] || { echo "FAIL: only $n applied modules compared"; st=1; }
exit $st
