/* threads.c - the one setting of how many threads one input's read and
 * parse may use (threads.h); 1 until the driver says otherwise, so library
 * users (tests, fuzz targets) get the serial code unless they ask. */
#include "threads.h"

static unsigned threads_n = 1;

void threads_set(unsigned n)
{
	threads_n = n ? n : 1;
}

unsigned threads_get(void)
{
	return threads_n;
}
