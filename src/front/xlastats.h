/* xlastats.h - what XLA itself said about a module's memory, read from the
 * sidecars it writes beside a dump (xlastats.c): the buffer assignment's
 * device total and the memory-usage report's total.  Reading only: the
 * model's figures are mem.h's. */
#ifndef HLO_XLASTATS_H
#define HLO_XLASTATS_H
#include <stdbool.h>
#include <stdint.h>

struct xla_stats {
	uint64_t total_bytes;       /* device allocations of the buffer assignment, 0 unknown */
	uint64_t usage_bytes;       /* memory-usage report's "Total bytes" of the default space, 0 unknown */
	char *from;                 /* the sidecar read (malloc'd), NULL when none */
};

/* Reads the sidecars of module file path (dumpdir_sidecar); false when
 * there are none or they say nothing usable.  Free with xlastats_free. */
bool xlastats_read(const char *path, struct xla_stats *out);
void xlastats_free(struct xla_stats *s);
/* XLA's figure for the module: the buffer assignment's total, else the
 * memory-usage report's; 0 when unknown. */
uint64_t xlastats_total(const struct xla_stats *s);
#endif
