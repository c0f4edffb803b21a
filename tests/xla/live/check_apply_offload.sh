#!/bin/sh
# check_apply_offload.sh - `hlolint annotate --apply` of offload-candidate
# on the compiled TPU modules of offload_levers/early_device (a weight read
# only at the start): XLA's parser must accept the applied module (the
# weight in S(5), a copy-start/copy-done pair before its reads); its
# recompile is tried and XLA's memory for it printed next to the offloaded
# twin's; and hlolint's predicted fall of the total is compared with XLA's
# own difference between the twins (within 10%).
. tests/lib.sh
. tests/xla/live/apply.sh
X=corpora/xla/out/offload_levers
n=0
dev() { echo $(( $(jnum argument_size_in_bytes "$1") + $(jnum output_size_in_bytes "$1") - \
	$(jnum alias_size_in_bytes "$1") + $(jnum temp_size_in_bytes "$1") )); }
for t in tpu-v4 tpu-v5e tpu-v5p tpu-v6e tpu-v7; do
	[ -f "$X/early_device/$t/compiled.hlo.gz" ] || continue
	apply_on "$t" "$X/early_device/$t/compiled.hlo.gz" --select offload-candidate --offload-min-fraction 0
	if [ "$applied" -eq 0 ]; then
		fail "$t: nothing applied"
		continue
	fi
	n=$((n + 1))
	xla_takes "$t"
	"$HLOLINT" mem --format json --target "$t" "$X/early_device/$t/compiled.hlo.gz" >"$tmp/before"
	"$HLOLINT" mem --format json --target "$t" "$tmp/applied.hlo" >"$tmp/after"
	ours=$(( $(jnum total_bytes "$tmp/before") - $(jnum total_bytes "$tmp/after") ))
	xla=$(( $(dev "$X/early_device/$t/memory_analysis.json") - $(dev "$X/early_offloaded/$t/memory_analysis.json") ))
	within "$t" "$ours" "$xla" 10 "the applied module's total"
done
[ "$n" -ge 2 ] || fail "only $n applied modules compared"
exit $st
