#!/bin/sh
# test_corpus_missed_donation.sh - missed-donation on ../shared/corpora/real.
# The train steps donate their state (input_output_alias): silent.  The
# small XLA/JAX examples have candidates under the 64 MiB default (an RMS
# norm returning its input's shape, a loss returning gradients shaped like
# the parameters): reported with --donation-min-bytes 1M.  The sharded
# attention test's gradient has the shape of its f16 input: 48 MiB dense
# (silent), 96 MiB under v5e's default tiling (reported).
. tests/lib.sh
corpus_real
EXPECT_OPTS="--select missed-donation"
R='"rule": "missed-donation"'
for f in llama31_405b_bf16_64x8_train_step llama31_70b_fp8_32x8_train_step llama31_8b_bf16_1x8_train_step \
	mixtral_8x7b_bf16_2x8_train_step llama3_8b_bf16_activation_offloading_1x8 nv_maxtext_1n1g_train_step_before_opt \
	nv_maxtext_deepseek_1n4g_train_step_before_opt dlrm_keras_jax_f32_train_step; do
	expect_rule "openxla_benchmarks/$f.hlo" "$R" 0 --target tpu-v5e
done
expect_rule jax_docs/pjit_rms_norm_compiled_gpu.hlo "$R" 0
expect_rule jax_docs/pjit_rms_norm_compiled_gpu.hlo '"donate_parameter": 0' 1 --donation-min-bytes 1M
expect_rule jax_docs/pjit_custom_p_loss_compiled_gpu.hlo "$R" 2 --donation-min-bytes 1M
m=openxla_testdata/pjit_ref_func_sharded_computation.hlo
expect_rule $m "$R" 0
expect_rule $m '"output_index": "{1}"' 1 --target tpu-v5e
exit $st
