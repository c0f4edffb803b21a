/* threads.h - how many threads the work on one input may use (threads.c):
 * the pieces of its parse (parse.c), its verification (verify_run.c),
 * the total allocation beside the rules (mem.c).  The driver sets it from
 * -j; it does not start threads. */
#ifndef HLO_THREADS_H
#define HLO_THREADS_H
#include <stdint.h>

/* 0 means 1.  Set before any thread is started (it is not synchronized). */
void threads_set(unsigned n);
unsigned threads_get(void);
/* Inputs (and modules) of at least this many bytes are worked on in
 * pieces: 16 MB; HLO_PARSE_PIECES_MIN lets tests split small ones. */
uint64_t threads_min_bytes(void);
#endif
