/* peak.h - the buffers of a module's memory model live at its estimated
 * peak (the program points from peak_at up through the call sites), so a
 * rule can say how much a fix takes off the peak.  Built once with the
 * model (mem_analyze calls peak_build), which it reads but does not change;
 * each rule borrows the one set. */
#ifndef HLO_PEAK_H
#define HLO_PEAK_H
#include <stdbool.h>
#include <stdint.h>
#include "mem.h"

struct peak_set {
	const struct mem_model *mm;
	uint8_t *live;          /* per buffer id: 1 when live in device memory at the peak */
	uint64_t live_bytes;    /* their padded bytes (== mm->peak_bytes when the chain is exact) */
	uint32_t nlive;
};

/* Computes the set into mm->peak, allocated in a (mem_analyze, once:
 * linear in the buffers times the nesting depth of the peak). */
void peak_build(struct mem_model *mm, struct arena *a);
/* The model's set into p (borrowed from mm: peak_free only clears p). */
void peak_init(struct peak_set *p, const struct mem_model *mm);
void peak_free(struct peak_set *p);

/* Whether buffer b (NULL: false) is live in device memory at the peak. */
bool peak_live(const struct peak_set *p, const struct mem_buffer *b);

/* The live buffers, largest first (ties in definition order), at most n
 * (n == 0: all) into out, which must hold n entries (p->nlive when 0).
 * Returns the count. */
uint32_t peak_top(const struct peak_set *p, const struct mem_buffer **out, uint32_t n);
#endif
