#!/bin/sh
# test_corpus_padding_waste.sh - padding-waste on ../shared/corpora/real.
# None of these dumps carries TPU tiles; with --target tpu-v5e they are
# sized with the default tiling: the softmax statistics f32[...,8192,1]
# carried by the offloading llama3 scan pad 128x (merge the trailing 1),
# the host-offloader test's f32[96,8,6,2048,1] residual too, and the
# 405B step's f32[...,32] arrays 4x (three of one shape reported once).
# Without a TPU target nothing pads (GPU/none sizes are dense), and the
# unfused mobilenet/efficientnet dumps only report their parameters.
. tests/lib.sh
corpus_real
EXPECT_OPTS="--select padding-waste"
R='"rule": "padding-waste"'
V5E='--target tpu-v5e'
m=openxla_benchmarks/llama3_8b_bf16_activation_offloading_1x8.hlo
expect_rule $m "$R" 1 $V5E
expect_rule $m '"shape": "f32\[32,1,32,8192\]{3,2,1,0}"' 1 $V5E
expect_rule $m '"expansion": "128.0x"' 1 $V5E
expect_rule $m "$R" 0
expect_rule $m "$R" 0 --target h100
expect_rule openxla_cctests/host_offloader_LlmActivation.hlo '"shape": "f32\[96,8,6,2048,1\]{3,4,2,1,0}"' 1 $V5E
m=openxla_benchmarks/llama31_405b_bf16_64x8_train_step.hlo
expect_rule $m "$R" 6 $V5E
expect_rule $m '"buffers": 3' 2 $V5E
expect_rule $m '"expansion": "4.0x"' 4 $V5E
expect_rule openxla_benchmarks/torch_xla_mobilenet_v2_irtohlo.hlo '"opcode": "parameter"' 4 $V5E
expect_rule hloenv/efficientnet_jit_lambda_256_before_opt.hlo '"shape": "f32\[250,300,300,3\]{3,2,1,0}"' 1 $V5E
for f in openxla_benchmarks/gemma3_1b_flax_call.hlo openxla_benchmarks/mixtral_8x7b_bf16_2x8_train_step.hlo \
	openxla_cctests/host_offloader_OutputStreamingInScanLoop.hlo openxla_testdata/offload_scan_output_pinned_host.hlo; do
	expect_rule "$f" "$R" 0 $V5E
done
exit $st
