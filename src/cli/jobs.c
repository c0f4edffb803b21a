/* jobs.c - runs a command's per-input work on a pool of POSIX threads and
 * delivers the results in input order (jobs.h).  A worker may run ahead of
 * the delivery by at most `threads` inputs, so at most that many parsed
 * files are held at once.  It does not print; deliveries do. */
#include "jobs.h"
#include <stdio.h>
#include <stdlib.h>
#include <pthread.h>
#include <unistd.h>
#include "arena.h"
#include "threads.h"

#define JOBS_MAX THREADS_MAX

/* HLOLINT_THREADS as a number of threads, 0 when unset or empty, -1 when
 * it is not a number from 1 to JOBS_MAX. */
static long jobs_env(void)
{
	const char *e = getenv("HLOLINT_THREADS");
	if (!e || !*e)
		return 0;
	char *end;
	long v = strtol(e, &end, 10);
	return *end || e[0] == '-' || e[0] == '+' || e[0] == ' ' || v < 1 || v > JOBS_MAX ? -1 : v;
}

bool jobs_env_ok(void)
{
	if (jobs_env() >= 0)
		return true;
	fprintf(stderr, "hlolint: error: HLOLINT_THREADS must be a number of threads from 1 to %d, not '%s'\n",
		JOBS_MAX, getenv("HLOLINT_THREADS"));
	return false;
}

unsigned jobs_default(void)
{
	long n = jobs_env();
	if (n > 0)
		return (unsigned)n;
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > JOBS_MAX ? JOBS_MAX : (unsigned)n;
}

struct jobs_pool {
	const struct jobs *j;
	unsigned threads;
	pthread_mutex_t mu;
	pthread_cond_t cv;                  /* a result is ready, or the window moved */
	int next;                   /* the next input to start */
	int delivered;              /* inputs delivered (or dropped) so far */
	bool stop;
	void **results;
	bool *ready;
};

/* Takes the next input when the window allows; -1 when there is none. */
static int jobs_claim(struct jobs_pool *p)
{
	pthread_mutex_lock(&p->mu);
	while (!p->stop && p->next < p->j->n && p->next >= p->delivered + (int)p->threads)
		pthread_cond_wait(&p->cv, &p->mu);
	int k = p->stop || p->next >= p->j->n ? -1 : p->next++;
	pthread_mutex_unlock(&p->mu);
	return k;
}

static void *jobs_worker(void *arg)
{
	struct jobs_pool *p = arg;
	for (int k; (k = jobs_claim(p)) >= 0;) {
		void *r = p->j->work(p->j->ctx, k);
		pthread_mutex_lock(&p->mu);
		p->results[k] = r;
		p->ready[k] = true;
		pthread_cond_broadcast(&p->cv);
		pthread_mutex_unlock(&p->mu);
	}
	return NULL;
}

/* Waits for input k; false when it never will be: the run stopped before
 * a worker took it. */
static bool jobs_wait(struct jobs_pool *p, int k)
{
	pthread_mutex_lock(&p->mu);
	while (!p->ready[k] && (k < p->next || !p->stop))
		pthread_cond_wait(&p->cv, &p->mu);
	bool ready = p->ready[k];
	pthread_mutex_unlock(&p->mu);
	return ready;
}

/* The calling thread: delivers in order, then lets the window move on. */
static void jobs_deliver_all(struct jobs_pool *p)
{
	const struct jobs *j = p->j;
	for (int k = 0; k < j->n; k++) {
		if (!jobs_wait(p, k))
			break;
		bool go = !p->stop && j->deliver(j->ctx, k, p->results[k]);
		if (p->stop)
			j->drop(j->ctx, k, p->results[k]);
		pthread_mutex_lock(&p->mu);
		p->stop = p->stop || !go;
		p->delivered = k + 1;
		pthread_cond_broadcast(&p->cv);
		pthread_mutex_unlock(&p->mu);
	}
}

static bool jobs_inline(const struct jobs *j)
{
	for (int k = 0; k < j->n; k++)
		if (!j->deliver(j->ctx, k, j->work(j->ctx, k)))
			return false;
	return true;
}

bool jobs_run(const struct jobs *j)
{
	unsigned threads = j->threads ? j->threads : jobs_default();
	if (threads > JOBS_MAX)
		threads = JOBS_MAX;
	if (threads > (unsigned)j->n)
		threads = (unsigned)j->n;
	/* The threads go to the files, or all to the one file's pieces. */
	threads_set(threads <= 1 ? (j->threads ? j->threads : jobs_default()) : 1);
	if (threads <= 1)
		return jobs_inline(j);
	struct jobs_pool p = { .j = j, .threads = threads };
	p.results = xcalloc((size_t)j->n, sizeof *p.results);
	p.ready = xcalloc((size_t)j->n, sizeof *p.ready);
	pthread_t *t = xcalloc(threads, sizeof *t);
	if (pthread_mutex_init(&p.mu, NULL) || pthread_cond_init(&p.cv, NULL))
		fatal_out_of_memory();
	unsigned started = 0;
	for (; started < threads; started++)
		if (pthread_create(&t[started], NULL, jobs_worker, &p))
			break;
	if (!started) {                   /* no thread to be had: do it here */
		free(t);
		free(p.ready);
		free(p.results);
		pthread_mutex_destroy(&p.mu);
		pthread_cond_destroy(&p.cv);
		return jobs_inline(j);
	}
	jobs_deliver_all(&p);
	for (unsigned k = 0; k < started; k++)
		pthread_join(t[k], NULL);
	bool ok = !p.stop;
	free(t);
	free(p.ready);
	free(p.results);
	pthread_mutex_destroy(&p.mu);
	pthread_cond_destroy(&p.cv);
	return ok;
}
