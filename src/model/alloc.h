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
#endif
