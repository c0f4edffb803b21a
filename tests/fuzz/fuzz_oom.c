/* fuzz_oom.c - fuzz target: any byte string read as a log of XLA
 * out-of-memory reports (oomlog.c), each report classified and its
 * allocations' fixes chosen (triage.c).  Finds crashes, leaks and UB only. */
#include "fuzz.h"
#include "arena.h"
#include "oomlog.h"
#include "source.h"
#include "triage.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct source *src = source_from_memory("fuzz.log", (const char *)data, size);
	struct arena a;
	arena_init(&a);
	struct oom_log ol;
	uint32_t n = oomlog_read(src, &a, &ol);
	for (uint32_t k = 0; k < n; k++) {
		struct triage t;
		triage_classify(&ol.reports[k], &t);
		triage_map(&t, NULL, &a);
		for (const char *const *f = triage_fixes(t.cls, ol.reports[k].kind); *f; f++)
			(void)*f;
		for (uint32_t j = 0; j < t.nallocs; j++)
			(void)triage_is_callback(t.allocs[j].al);
	}
	arena_free(&a);
	source_free(src);
	return 0;
}
