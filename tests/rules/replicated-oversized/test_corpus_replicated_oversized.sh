#!/bin/sh
# test_corpus_replicated_oversized.sh - replicated-oversized on the sharded
# modules of ../shared/corpora/real.  With the defaults it stays silent on
# every one of them: their replicated arrays are scalars, norms and small
# tables, or the module names no device count (gemma3: replicated only).
# The data-parallel maxtext step replicates 640 MiB weights and optimizer
# moments on 8 devices: under the 792 MiB (5% of a v5e) default, reported
# with --replicated-min-bytes 512M and a suggested 8-way sharding.
. tests/lib.sh
corpus_real
EXPECT_OPTS="--target tpu-v5e --select replicated-oversized"
R='"rule": "replicated-oversized"'
for f in llama31_405b_bf16_64x8_train_step llama31_70b_fp8_32x8_train_step llama31_8b_bf16_1x8_train_step \
	mixtral_8x7b_bf16_2x8_train_step llama3_8b_bf16_activation_offloading_1x8 llama3_8b_cp_bf16_1x4_ring_attention \
	nv_maxtext_1n1g_train_step_before_opt nv_maxtext_deepseek_1n4g_train_step_before_opt gemma3_1b_flax_call; do
	expect_rule "openxla_benchmarks/$f.hlo" "$R" 0
done
for f in openxla_testdata/pjit_ref_func_sharded_computation.hlo openxla_cctests/sharding_propagation_PropagateShardAsBetweenInputOutput.hlo \
	openxla_cctests/spmd_TupleReduceSubgroupManual.hlo openxla_cctests/shardy_WhileShardingOnlyOnFreeVariables.hlo; do
	expect_rule "$f" "$R" 0
done
m=openxla_benchmarks/nv_maxtext_1n1g_train_step_before_opt.hlo
expect_rule $m "$R" 9 --replicated-min-bytes 512M
expect_rule $m '"sharding": "{devices=\[1,1,8\]<=\[8\]}"' 6 --replicated-min-bytes 512M
expect_rule $m '"sharding": "{devices=\[8,1,1\]<=\[8\]}"' 3 --replicated-min-bytes 512M
expect_rule $m '"devices": 8' 9 --replicated-min-bytes 512M
exit $st
