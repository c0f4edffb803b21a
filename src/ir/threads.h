/* threads.h - how many threads the work on one input may use (threads.c):
 * the pieces of its parse (parse.c), its verification (verify_run.c),
 * the total allocation beside the rules (mem.c).  The driver sets it from
 * -j; it does not start threads. */
#ifndef HLO_THREADS_H
#define HLO_THREADS_H
#include <stdint.h>

/* The most threads a run uses (-j and HLOLINT_THREADS; README "Limits"):
 * past the cores of any machine this runs on, each thread only adds its
 * stack and its piece's tables. */
#define THREADS_MAX 64

/* 0 means 1, above THREADS_MAX THREADS_MAX.  Set before any thread is
 * started (it is not synchronized). */
void threads_set(unsigned n);
unsigned threads_get(void);
/* The threads worth using on an input of this many bytes: threads_get(),
 * but no piece under half of threads_min_bytes(). */
unsigned threads_for(uint64_t bytes);
/* Inputs (and modules) of at least this many bytes are worked on in
 * pieces: 16 MB; HLO_PARSE_PIECES_MIN lets tests split small ones. */
uint64_t threads_min_bytes(void);
#endif
