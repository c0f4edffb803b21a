#!/bin/sh
# test_corpus_loop_carry_offload.sh - loop-carry-offload on the offloading
# modules of ../shared/corpora/real.  The llama3 activation-offloading step
# offloads two MLP residuals with MoveToHost (silent) but stacks seven
# others in device memory (six without a TPU target, where the padded
# f32[...,1] one is only 32 MiB); the backward scan's stacked gradients are
# not residuals (silent).  maxtext DeepSeek offloads its residuals with
# device_put inside called layers (followed through the calls: silent)
# except the 7168-wide decoder inputs, twice in each scan (maxtext#4990).
# Without intent, the 405B and 70B residuals (31.5G, 20G) are >= 25% of a
# device.  The XLA host-offloader tests annotate everything they stack.
. tests/lib.sh
corpus_real
EXPECT_OPTS="--select loop-carry-offload"
R='"rule": "loop-carry-offload"'
V5E='--target tpu-v5e'
m=openxla_benchmarks/llama3_8b_bf16_activation_offloading_1x8.hlo
expect_rule $m "$R" 7 $V5E
expect_rule $m "$R" 6
expect_rule $m '"memory_space": 5' 7 $V5E
expect_rule $m '"offload_intent": true' 7 $V5E
expect_rule $m '"trip_count": 32' 7 $V5E
expect_rule $m '"computation": "region_3.6_spmd"' 7 $V5E
expect_rule $m 'read back slice by slice by %dynamic-slice' 7 $V5E
m=openxla_benchmarks/nv_maxtext_deepseek_1n4g_train_step_before_opt.hlo
expect_rule $m "$R" 4 $V5E
expect_rule $m '"shape": "bf16\[[12],32,4096,7168\]{3,2,1,0}"' 4 $V5E
m=openxla_benchmarks/llama31_405b_bf16_64x8_train_step.hlo
expect_rule $m "$R" 1 $V5E
expect_rule $m '"offload_intent": false' 1 $V5E
expect_rule $m '"trip_count": 126' 1 $V5E
expect_rule openxla_benchmarks/llama31_70b_fp8_32x8_train_step.hlo "$R" 1 $V5E
expect_rule openxla_benchmarks/llama31_70b_fp8_32x8_train_step.hlo "$R" 0 --target tpu-v5p
expect_rule openxla_benchmarks/nv_maxtext_1n1g_train_step_before_opt.hlo "$R" 2 $V5E
for f in openxla_cctests/host_offloader_LlmActivation.hlo openxla_cctests/host_offloader_OutputStreamingInScanLoop.hlo \
	openxla_cctests/host_offloader_OutputStreamingInUnrolledScanLoop.hlo openxla_cctests/host_offloader_ParameterStreamingInScanLoop.hlo \
	openxla_cctests/host_offloader_PreExistingAllocateBufferMultipleUsers.hlo \
	openxla_cctests/host_offload_legalize_LlmActivationHostMemoryMultipleCopies.hlo \
	openxla_cctests/convert_memory_placement_ConvertPinnedHostTest.hlo openxla_testdata/offload_scan_output_pinned_host.hlo \
	openxla_cctests/stream_attribute_CopyStartIsAnnotated.hlo openxla_benchmarks/gemma2_2b_keras_jax_generate.hlo \
	openxla_benchmarks/llama3_8b_cp_bf16_1x4_ring_attention.hlo openxla_benchmarks/torax_iterhybrid_predictor_corrector_f64.hlo; do
	expect_rule "$f" "$R" 0 $V5E
done
exit $st
