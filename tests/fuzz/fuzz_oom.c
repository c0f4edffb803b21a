/* fuzz_oom.c - fuzz target: any byte string read as a paste of out-of-memory
 * reports (oomlog.c: wrapping, cleaning, cutting, every form), each report
 * triaged without a module under three limits (its own, none, a small
 * one) with its deciding fact, fixes and allocations' fixes (triage.c).
 * Finds crashes, leaks and UB only.  Dictionary: oom.dict. */
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
	const struct triage_module none = { NULL, NULL, NULL, NULL };
	for (uint32_t k = 0; k < n; k++) {
		uint64_t limits[3] = { ol.reports[k].capacity, OOM_UNKNOWN, 1024 };
		for (int l = 0; l < 3; l++) {
			struct triage t;
			char fact[500];
			triage_run(&t, &ol.reports[k], &none, limits[l], 10, &a);
			triage_fact(&t, fact, sizeof fact);
			for (const char *const *f = triage_fixes(&t); *f; f++)
				(void)*f;
			for (uint32_t j = 0; j < t.nallocs; j++)
				(void)triage_alloc_fix(&t, &t.allocs[j]);
			(void)oomlog_kind_name(ol.reports[k].kind);
		}
	}
	arena_free(&a);
	source_free(src);
	return 0;
}
