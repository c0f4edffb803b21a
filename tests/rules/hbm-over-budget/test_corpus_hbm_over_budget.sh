#!/bin/sh
# test_corpus_hbm_over_budget.sh - hbm-over-budget on ../shared/corpora/real.
# Silent without a capacity (no --target, no --hbm).  The unfused llama3.1
# 8B step (every op materialized, docs/memory-model.md §6) is over every
# device; the llama3 activation-offloading step fits a v5p but not a v5e,
# where the residuals loop-carry-offload reports are listed as fixes and
# the pending MoveToHost offloads are noted; gemma3 1B fits.
LC_ALL=C
export LC_ALL
HLOLINT=${HLOLINT:-build/hlolint}
c=../shared/corpora/real
if [ ! -d "$c" ]; then
	echo "skip: $c is absent (third-party corpus, read-only, not in the project)"
	exit 77
fi
st=0
# expect FILE PATTERN COUNT [OPTIONS...]: COUNT lines of the JSON match PATTERN
expect() {
	f=$1 pat=$2 want=$3
	shift 3
	n=$("$HLOLINT" check --no-config --format json "$@" "$c/$f" 2>/dev/null | grep -c -e "$pat")
	if [ "$n" -ne "$want" ]; then
		echo "FAIL: $f $*: $n lines match '$pat', expected $want"
		st=1
	fi
}
R='"rule": "hbm-over-budget"'
for f in "$c"/openxla_benchmarks/*.hlo; do
	expect "openxla_benchmarks/${f##*/}" "$R" 0 --select hbm-over-budget
done
m=openxla_benchmarks/llama31_8b_bf16_1x8_train_step.hlo
for t in tpu-v5e tpu-v5p h100 b200; do
	expect $m "$R" 1 --select hbm-over-budget --target $t
done
m=openxla_benchmarks/llama3_8b_bf16_activation_offloading_1x8.hlo
expect $m "$R" 0 --select hbm-over-budget --target tpu-v5p
expect $m "$R" 1 --target tpu-v5e
expect $m 'loop-carry-offload at %dynamic-update-slice' 7 --target tpu-v5e
expect $m 'padding-waste at %broadcast_in_dim.164' 1 --target tpu-v5e
expect $m '2 offloads to host (MoveToHost, annotate_device_placement) are not applied yet' 1 --target tpu-v5e
expect $m '"fixable": false' 1 --target tpu-v5e
expect openxla_benchmarks/gemma3_1b_flax_call.hlo "$R" 0 --target tpu-v5e
exit $st
