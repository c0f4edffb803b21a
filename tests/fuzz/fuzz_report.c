/* fuzz_report.c - fuzz target: any bytes through `hlolint report` for a TPU
 * with every rule firing, the page written to /dev/null (a device: written
 * into, never renamed over).  Finds crashes, UB and leaks in the drawing. */
#include "cmd.h"
#include "fuzz.h"
#include "fuzz_cmd.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const args[] = { "report", "--no-config", "--target", "tpu-v5e", "-o", "/dev/null",
					    FUZZ_LOW_THRESHOLDS, NULL };
	fuzz_cmd_run(cmd_report, args, data, size);
	return 0;
}
