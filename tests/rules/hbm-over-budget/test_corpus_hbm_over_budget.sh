#!/bin/sh
# test_corpus_hbm_over_budget.sh - hbm-over-budget on ../shared/corpora/real.
# Silent without a capacity (no --target, no --hbm).  The unfused llama3.1
# 8B step (every op materialized, docs/memory-model.md §6) is over every
# device; the llama3 activation-offloading step fits a v5p but not a v5e,
# where the residuals loop-carry-offload reports are listed as fixes and
# the pending MoveToHost offloads are noted; gemma3 1B fits.
. tests/lib.sh
corpus_real
R='"rule": "hbm-over-budget"'
for f in "$c"/openxla_benchmarks/*.hlo; do
	expect_rule "openxla_benchmarks/${f##*/}" "$R" 0 --select hbm-over-budget
done
m=openxla_benchmarks/llama31_8b_bf16_1x8_train_step.hlo
for t in tpu-v5e tpu-v5p h100 b200; do
	expect_rule $m "$R" 1 --select hbm-over-budget --target $t
done
m=openxla_benchmarks/llama3_8b_bf16_activation_offloading_1x8.hlo
expect_rule $m "$R" 0 --select hbm-over-budget --target tpu-v5p
expect_rule $m "$R" 1 --target tpu-v5e
expect_rule $m 'loop-carry-offload at %dynamic-update-slice' 7 --target tpu-v5e
expect_rule $m 'padding-waste at %broadcast_in_dim.164' 1 --target tpu-v5e
expect_rule $m '2 offloads to host (MoveToHost, annotate_device_placement) are not applied yet' 1 --target tpu-v5e
expect_rule $m '"fixable": false' 1 --target tpu-v5e
expect_rule openxla_benchmarks/gemma3_1b_flax_call.hlo "$R" 0 --target tpu-v5e
exit $st
