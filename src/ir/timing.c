/* timing.c - per-stage wall-clock totals behind HLO_TIMING (timing.h), and
 * the process's CPU time over the same spans (all threads: how many cores a
 * stage kept busy).  Marks may come from several threads (files checked in
 * parallel, -j): each thread times its own stages, the totals are summed
 * under a lock, and the CPU column then overlaps.  It decides nothing. */
#include "timing.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#define TIMING_MAX 64

static struct {
	const char *stage;
	double ms;
	double cpu_ms;
	unsigned n;
} timing_rows[TIMING_MAX];
static unsigned timing_nrows;
static pthread_mutex_t timing_lock = PTHREAD_MUTEX_INITIALIZER;
static _Thread_local double timing_last;   /* this thread's previous mark, ms; 0: none */
static _Thread_local double timing_last_cpu;   /* the process's CPU time then, ms */

static int timing_on(void)
{
	static _Atomic int on = -1;   /* decided by the first caller (the driver's timing_start) */
	int v = atomic_load_explicit(&on, memory_order_relaxed);
	if (v < 0) {
		const char *e = getenv("HLO_TIMING");
		v = e && *e && strcmp(e, "0");
		atomic_store_explicit(&on, v, memory_order_relaxed);
	}
	return v;
}

/* Clock c in ms: CLOCK_MONOTONIC for wall time, CLOCK_PROCESS_CPUTIME_ID
 * for the user and system time of every thread so far. */
static double timing_clock(clockid_t c)
{
	struct timespec ts;
	clock_gettime(c, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

void timing_start(void)
{
	if (timing_on()) {
		timing_last = timing_clock(CLOCK_MONOTONIC);
		timing_last_cpu = timing_clock(CLOCK_PROCESS_CPUTIME_ID);
	}
}

void timing_mark(const char *stage)
{
	if (!timing_on())
		return;
	double now = timing_clock(CLOCK_MONOTONIC), was = timing_last;
	double cpu = timing_clock(CLOCK_PROCESS_CPUTIME_ID), cpu_was = timing_last_cpu;
	timing_last = now;
	timing_last_cpu = cpu;
	if (was == 0)
		return;   /* a thread's first mark starts its clock */
	pthread_mutex_lock(&timing_lock);
	unsigned k = 0;
	while (k < timing_nrows && strcmp(timing_rows[k].stage, stage))
		k++;
	if (k < TIMING_MAX) {
		if (k == timing_nrows)
			timing_rows[timing_nrows++].stage = stage;
		timing_rows[k].ms += now - was;
		timing_rows[k].cpu_ms += cpu - cpu_was;
		timing_rows[k].n++;
	}
	pthread_mutex_unlock(&timing_lock);
}

void timing_report(void)
{
	if (!timing_on())
		return;
	double total = 0;
	pthread_mutex_lock(&timing_lock);
	for (unsigned k = 0; k < timing_nrows; k++) {
		fprintf(stderr, "hlolint: timing: %-24s %10.1f ms %6u %10.1f ms cpu\n", timing_rows[k].stage,
			timing_rows[k].ms, timing_rows[k].n, timing_rows[k].cpu_ms);
		total += timing_rows[k].ms;
	}
	pthread_mutex_unlock(&timing_lock);
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	double user = (double)ru.ru_utime.tv_sec * 1e3 + (double)ru.ru_utime.tv_usec / 1e3;
	double sys = (double)ru.ru_stime.tv_sec * 1e3 + (double)ru.ru_stime.tv_usec / 1e3;
	fprintf(stderr, "hlolint: timing: %-24s %10.1f ms\n", "(marked)", total);
	fprintf(stderr, "hlolint: timing: %-24s %10.1f ms\n", "(cpu user)", user);
	fprintf(stderr, "hlolint: timing: %-24s %10.1f ms\n", "(cpu system)", sys);
}
