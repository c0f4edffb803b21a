/* span.h - byte-offset ranges into a source buffer.  64-bit so that inputs
 * over 4 GiB keep exact locations; line:col is computed only on demand. */
#ifndef HLO_SPAN_H
#define HLO_SPAN_H
#include <stdint.h>

struct span {
	uint64_t start, end;  /* [start, end) */
};
#define SPAN_NONE_OFF UINT64_MAX
static inline struct span span_make(uint64_t s, uint64_t e)
{
	struct span r = { s, e };
	return r;
}
static inline struct span span_none(void) { return span_make(SPAN_NONE_OFF, SPAN_NONE_OFF); }
static inline int span_is_none(struct span s) { return s.start == SPAN_NONE_OFF; }
static inline uint64_t span_len(struct span s) { return s.end - s.start; }
#endif
