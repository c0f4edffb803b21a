/* fuzz_diff.c - fuzz target: any bytes as the NEW side of `hlolint diff`
 * against the bundled example (OLD), in text and JSON with a growth limit.
 * Finds crashes, UB and leaks in the matching and the output. */
#include "cmd.h"
#include "fuzz.h"
#include "fuzz_cmd.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const text[] = { "diff", "--no-config", "--fail-on-growth", "1%", "--top", "5",
					    FUZZ_LOW_THRESHOLDS, "corpora/examples/train_step.hlo", NULL };
	static const char *const json[] = { "diff", "--no-config", "--format", "json",
					    "corpora/examples/train_step.hlo", NULL };
	if (fuzz_cmd_run(cmd_diff, text, data, size) < 2)
		fuzz_cmd_run(cmd_diff, json, data, size);
	return 0;
}
