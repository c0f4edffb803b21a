/* fuzz_annotate.c - fuzz target: any bytes through `hlolint annotate
 * --apply` for a TPU (written with -o to /dev/null, a device) and as a
 * --diff for a GPU, every rule at low thresholds, and through --strip.
 * annotate re-parses and re-checks what it applied, so this also fuzzes
 * the rewriter's output. */
#include "cmd.h"
#include "fuzz.h"
#include "fuzz_cmd.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const tpu[] = { "annotate", "--no-config", "--apply", "--target", "tpu-v5e", "-o",
					   "/dev/null", FUZZ_LOW_THRESHOLDS, NULL };
	static const char *const gpu[] = { "annotate", "--no-config", "--apply", "--diff", "--target", "h100",
					   FUZZ_LOW_THRESHOLDS, NULL };
	static const char *const strip[] = { "annotate", "--no-config", "--strip", "-o", "/dev/null", NULL };
	if (fuzz_cmd_run(cmd_annotate, tpu, data, size) < 2) {
		fuzz_cmd_run(cmd_annotate, gpu, data, size);
		fuzz_cmd_run(cmd_annotate, strip, data, size);
	}
	return 0;
}
