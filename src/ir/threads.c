/* threads.c - the one setting of how many threads one input's parse and
 * verify may use, and from what size (threads.h); 1 until the driver says
 * otherwise, so library users (tests, fuzz targets) get the serial code
 * unless they ask. */
#include "threads.h"
#include <stdlib.h>

static unsigned threads_n = 1;

void threads_set(unsigned n)
{
	threads_n = !n ? 1 : n > THREADS_MAX ? THREADS_MAX : n;
}

unsigned threads_get(void)
{
	return threads_n;
}

uint64_t threads_min_bytes(void)
{
	const char *e = getenv("HLO_PARSE_PIECES_MIN");
	return e && *e ? strtoull(e, NULL, 10) : 16ull << 20;
}

unsigned threads_for(uint64_t bytes)
{
	uint64_t piece = threads_min_bytes() / 2, most = bytes / (piece ? piece : 1);
	return most < 1 ? 1 : most < threads_n ? (unsigned)most : threads_n;
}
