/* jobs.h - -j: a command's work on each input runs on up to N threads and
 * its results come back to the calling thread in input order, so what is
 * printed does not depend on N (jobs.c).
 * It knows nothing of HLO: the command says what the work is (load,
 * parse, model, rules: nothing printed) and what delivery prints. */
#ifndef HLO_JOBS_H
#define HLO_JOBS_H
#include <stdbool.h>

struct jobs {
	int n;                      /* inputs */
	unsigned threads;           /* at most this many at once; 0 = jobs_default() */
	void *ctx;
	/* On a worker thread: input k's result.  It must not print (diagnostics
	 * go to a diag_init_deferred sink inside the result). */
	void *(*work)(void *ctx, int k);
	/* On the calling thread, k = 0, 1, ... in order: prints and frees the
	 * result.  false stops the run: no later input is started. */
	bool (*deliver)(void *ctx, int k, void *result);
	/* Frees a result finished after a stop, never delivered. */
	void (*drop)(void *ctx, int k, void *result);
};

/* Runs every input (in the calling thread alone when one thread or one
 * input); false when a delivery stopped the run. */
bool jobs_run(const struct jobs *j);
/* The default of -j: HLOLINT_THREADS when set, else the number of online
 * cores (at least 1, at most 64). */
unsigned jobs_default(void);
/* False, and why on stderr, when HLOLINT_THREADS is set to anything but a
 * number from 1 to 64 (the driver then exits 2). */
bool jobs_env_ok(void);
#endif
