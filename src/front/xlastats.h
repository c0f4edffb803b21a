/* xlastats.h - what XLA itself said about a module's memory, read from the
 * sidecars it writes beside a dump (xlastats.c): the buffer assignment's
 * device total and largest allocations, and the memory-usage report's
 * total.  XLA writes them even when the compile runs out of memory.
 * Reading only: the model's figures are mem.h's. */
#ifndef HLO_XLASTATS_H
#define HLO_XLASTATS_H
#include <stdbool.h>
#include <stdint.h>
#include "arena.h"

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

/* One device allocation of XLA's buffer assignment ("allocation N: size S,
 * ..." and its "value: <id name @pos> (size=..): shape" lines). */
struct xla_allocation {
	uint32_t index;             /* N */
	uint64_t size;
	int64_t parameter;          /* entry parameter number, -1 none */
	bool live_out;              /* maybe-live-out */
	bool constant;
	bool thread_local;          /* scratch of one thread, not a device allocation */
	bool colored;               /* "color N": another memory space */
	const char *value;          /* the largest value's instruction (its name, no '{index}'), or NULL */
	const char *shape;          /* that value's shape as printed, or NULL */
	uint32_t nvalues;
};

struct xla_assignment {
	struct xla_allocation *allocs;   /* device allocations (no thread-local, no other color),
					  * largest first (ties: XLA's order) */
	uint32_t n;
	const char *from;                /* the sidecar read */
};

/* The max largest device allocations of the buffer assignment beside
 * module file path; false when there is none.  Everything in a. */
bool xlastats_assignment_read(const char *path, uint32_t max, struct arena *a, struct xla_assignment *out);
#endif
