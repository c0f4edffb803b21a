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
# expect FILE PATTERN COUNT [OPTIONS...]: COUNT lines of the JSON match PATTERN (tests/lib.sh)
expect() {
	f=$1 pat=$2 want=$3
	shift 3
	expect_rule "$f" "$pat" "$want" --select missed-donation "$@"
}
R='"rule": "missed-donation"'
for f in llama31_405b_bf16_64x8_train_step llama31_70b_fp8_32x8_train_step llama31_8b_bf16_1x8_train_step \
	mixtral_8x7b_bf16_2x8_train_step llama3_8b_bf16_activation_offloading_1x8 nv_maxtext_1n1g_train_step_before_opt \
	nv_maxtext_deepseek_1n4g_train_step_before_opt dlrm_keras_jax_f32_train_step; do
	expect "openxla_benchmarks/$f.hlo" "$R" 0 --target tpu-v5e
done
expect jax_docs/pjit_rms_norm_compiled_gpu.hlo "$R" 0
expect jax_docs/pjit_rms_norm_compiled_gpu.hlo '"donate_parameter": 0' 1 --donation-min-bytes 1M
expect jax_docs/pjit_custom_p_loss_compiled_gpu.hlo "$R" 2 --donation-min-bytes 1M
m=openxla_testdata/pjit_ref_func_sharded_computation.hlo
expect $m "$R" 0
expect $m '"output_index": "{1}"' 1 --target tpu-v5e
exit $st
