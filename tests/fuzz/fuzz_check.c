/* fuzz_check.c - fuzz target: any bytes through `hlolint check` with every
 * rule at thresholds low enough to fire, for a TPU (SARIF) and a GPU (text)
 * target, and twice in a dump folder for the folder rules (recompilation).
 * Finds crashes, UB and leaks in the rules and the reports. */
#include "cmd.h"
#include "fuzz.h"
#include "fuzz_cmd.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const tpu[] = { "check", "--no-config", "--select", "all", "--target", "tpu-v5e",
					   "--format", "sarif", FUZZ_LOW_THRESHOLDS, NULL };
	static const char *const gpu[] = { "check", "--no-config", "--select", "all", "--target", "h100",
					   FUZZ_LOW_THRESHOLDS, NULL };
	static const char *const folder[] = { "check", "--no-config", "--select", "recompilation", "--format", "json",
					      NULL };
	if (fuzz_cmd_run(cmd_check, tpu, data, size) < 2) {
		fuzz_cmd_run(cmd_check, gpu, data, size);
		fuzz_cmd_run_folder(cmd_check, folder, data, size);
	}
	return 0;
}
