/* fuzz_mem.c - fuzz target: any bytes through `hlolint mem`, text with the
 * target inferred and every allocation listed, then JSON for a TPU with
 * global shapes.  Finds crashes, UB and leaks in the memory model. */
#include "cmd.h"
#include "fuzz.h"
#include "fuzz_cmd.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const text[] = { "mem", "--top", "0", NULL };
	static const char *const json[] = { "mem", "--format", "json", "--target", "tpu-v5e", "--partitioned=no",
					    NULL };
	if (fuzz_cmd_run(cmd_mem, text, data, size) == 0)
		fuzz_cmd_run(cmd_mem, json, data, size);
	return 0;
}
