#!/bin/sh
# test_corpus_host_transfer.sh - host-transfer on the matching real modules
# of ../shared/corpora/real: the FFI CPU callback (Shardy test), the
# infeed/outfeed parser test, manual-sharded outfeeds (SPMD test), a
# multislice send inside a loop (collective pipeliner: a note with the trip
# count), TF host compute (liveness test: notes), and silence on the host
# offloader modules and a large train step that have no transfers.
. tests/lib.sh
corpus_real
EXPECT_OPTS="--select host-transfer"
expect_rule openxla_cctests/shardy_TestMaximalShardingNoResults_ffi_cpu_callback.hlo '"rule": "host-transfer"' 1
expect_rule openxla_cctests/shardy_TestMaximalShardingNoResults_ffi_cpu_callback.hlo '"mechanism": "python_callback"' 1
expect_rule openxla_cctests/parser_InfeedOutfeed.hlo '"mechanism": "infeed"' 2
expect_rule openxla_cctests/parser_InfeedOutfeed.hlo '"mechanism": "outfeed"' 2
expect_rule openxla_cctests/spmd_OutfeedChainedManualPartitioned.hlo 'every device sends its own shard' 2
expect_rule openxla_cctests/collective_pipeliner_TransformBackwardThenForward.hlo '"severity": "note"' 1
expect_rule openxla_cctests/collective_pipeliner_TransformBackwardThenForward.hlo '"mechanism": "multislice"' 1
expect_rule openxla_cctests/collective_pipeliner_TransformBackwardThenForward.hlo '"trip_count": 3' 1
expect_rule openxla_cctests/liveness_PropagateLivenessFromConditionalComputation.hlo '"mechanism": "tf_host_compute"' 2
expect_rule openxla_cctests/liveness_PropagateLivenessFromConditionalComputation.hlo '"severity": "warning"' 0
for f in openxla_cctests/host_offloader_LlmActivation.hlo openxla_cctests/host_offloader_OutputStreamingInScanLoop.hlo \
	openxla_testdata/offload_scan_output_pinned_host.hlo openxla_benchmarks/llama31_8b_bf16_1x8_train_step.hlo; do
	expect_rule "$f" '"rule": "host-transfer"' 0
done
# Exit status: notes alone do not fail (fail-on warning), warnings do.
"$HLOLINT" check --no-config "$c/openxla_cctests/liveness_PropagateLivenessFromConditionalComputation.hlo" >/dev/null 2>&1
[ $? -eq 0 ] || { echo "FAIL: notes only should exit 0"; st=1; }
"$HLOLINT" check --no-config "$c/openxla_cctests/parser_InfeedOutfeed.hlo" >/dev/null 2>&1
[ $? -eq 1 ] || { echo "FAIL: warnings should exit 1"; st=1; }
exit $st
