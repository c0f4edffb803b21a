/* threads.h - how many threads the work on one input may use (threads.c):
 * the split read of a large file (source.c) and the pieces of its parse
 * (parse.c).  The driver sets it from -j; it does not start threads. */
#ifndef HLO_THREADS_H
#define HLO_THREADS_H

/* 0 means 1.  Set before any thread is started (it is not synchronized). */
void threads_set(unsigned n);
unsigned threads_get(void);
#endif
