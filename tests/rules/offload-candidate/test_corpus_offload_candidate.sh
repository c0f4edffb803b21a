#!/bin/sh
# test_corpus_offload_candidate.sh - offload-candidate on ../shared/corpora/real.
# The train steps read their parameters up to the optimizer update at the
# end and donate their state: silent.  EfficientNet's before-optimizations
# module reads its 10.87G image batch only in the first convolution: with
# any TPU target it is reported (a warning: the 32.65G total exceeds a
# v5e) with the 10.87G saving; the sharded-computation test's 96 MiB
# argument is read at the start only: under the 1% share of a v5e's
# memory by default, reported with --offload-min-fraction 0.  No TPU
# target: silent (XLA:GPU keeps the copy for the whole program).
. tests/lib.sh
corpus_real
EXPECT_OPTS="--select offload-candidate"
R='"rule": "offload-candidate"'
for f in llama31_405b_bf16_64x8_train_step llama31_70b_fp8_32x8_train_step llama31_8b_bf16_1x8_train_step \
	mixtral_8x7b_bf16_2x8_train_step llama3_8b_bf16_activation_offloading_1x8 dlrm_keras_jax_f32_train_step; do
	expect_rule "openxla_benchmarks/$f.hlo" "$R" 0 --target tpu-v5e
done
e=hloenv/efficientnet_jit_lambda_256_before_opt.hlo
expect_rule $e "$R" 0 --target h100
expect_rule $e '"bytes_saved": 11673600000' 1 --target tpu-v5e
expect_rule $e '"severity": "warning"' 1 --target tpu-v5e
m=openxla_testdata/pjit_ref_func_sharded_computation.hlo
expect_rule $m "$R" 0 --target tpu-v5e
expect_rule $m '"offload_parameter": 0' 1 --target tpu-v5e --offload-min-fraction 0
exit $st
