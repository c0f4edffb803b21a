/* alloc.h - XLA's total allocation for a memory model: what the compiler's
 * buffer assignment adds up and an out-of-memory report calls "used".
 * Fills mem_model.total_bytes and its parts; the liveness peak stays
 * mem.c's.  See docs/memory-model.md "Total allocation". */
#ifndef HLO_ALLOC_H
#define HLO_ALLOC_H
#include "mem.h"

struct alloc_temp;
struct prefault;

/* The first packing's tables by buffer id, made before the buffers are
 * all known: the memory model's walk grows them with its own and has its
 * prefault helper fault their pages in on the core the walk leaves idle,
 * which on a large module the packer's thread paid for itself after the
 * walk (docs/bench.md).  cap 0: none made; alloc_pack makes its own. */
struct alloc_tables {
	struct alloc_temp *cand;   /* temporaries that may borrow a host */
	uint8_t *in_heap;          /* a temporary in the heap */
	uint32_t *root;            /* the buffer its memory value ends up in */
	size_t cap;
};

/* Makes cand and in_heap room for cap buffers (any contents may go) and
 * tells pf where they are: tables k0 and k0 + 1 of group g.  Call with pf
 * held (prefault_hold).  root is the caller's to give, a table it is done
 * with. */
void alloc_tables_grow(struct alloc_tables *t, size_t cap, struct prefault *pf, unsigned k0, unsigned g);

/* Packs mm's device-memory buffers into allocations as XLA does:
 * arguments, constants and outputs own theirs for the whole program; a
 * temporary takes a free stretch of an output's or a donated argument's
 * allocation when it fits there, and the other temporaries share one heap.
 * O(b log b) in the number of buffers; on a module with few sizes of
 * temporaries, O(b) and a pass over them per size.  Takes given's tables
 * (all freed, *given emptied) and uses them when they have room for mm's
 * buffers. */
void alloc_pack(struct mem_model *mm, struct alloc_tables *given);

/* Buffer b moved to host memory but for steps [from, to] of the flattened
 * timeline, in which a copy of it is on the device (host offload with a
 * copy in for its reads). */
struct alloc_whatif {
	const struct mem_buffer *b;
	uint32_t from, to;
};

/* The total allocation with w applied: b's own allocation (argument,
 * output or temporary) gone, its device copy a temporary of the heap, the
 * heap at its liveness peak (compare with mem_model.total_live_bytes): a
 * lever is judged by what it frees at the peak.  Where XLA:TPU places the
 * copy can lift later values by its size (corpora/xla offload_levers:
 * param_offloaded needs what param_device does), so total_bytes may fall
 * by less.  As costly as alloc_pack. */
uint64_t alloc_total_whatif(const struct mem_model *mm, const struct alloc_whatif *w);
#endif
