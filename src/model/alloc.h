/* alloc.h - XLA's total allocation for a memory model: what the compiler's
 * buffer assignment adds up and an out-of-memory report calls "used".
 * Fills mem_model.total_bytes and its parts; the liveness peak stays
 * mem.c's.  See docs/memory-model.md "Total allocation". */
#ifndef HLO_ALLOC_H
#define HLO_ALLOC_H
#include "mem.h"

/* Packs mm's device-memory buffers into allocations as XLA does:
 * arguments, constants and outputs own theirs for the whole program; a
 * temporary takes a free stretch of an output's or a donated argument's
 * allocation when it fits there, and the other temporaries share one heap.
 * O(b log b) in the number of buffers. */
void alloc_pack(struct mem_model *mm);

/* Buffer b moved to host memory but for steps [from, to] of the flattened
 * timeline, in which a copy of it is on the device (host offload with a
 * copy in for its reads). */
struct alloc_whatif {
	const struct mem_buffer *b;
	uint32_t from, to;
};

/* The total allocation (mem_model.total_bytes) with w applied: b's own
 * allocation (argument, output or temporary) gone, its device copy a
 * temporary of the heap.  As costly as alloc_pack. */
uint64_t alloc_total_whatif(const struct mem_model *mm, const struct alloc_whatif *w);
#endif
