/* prefault.c - the helper thread behind prefault.h.  It asks the kernel to
 * populate (MADV_POPULATE_WRITE) each table's pages from where it got to
 * up to PREFAULT_AHEAD bytes past what the filler uses, a step at a time,
 * and sleeps when it is there.  It does not allocate, move or free tables:
 * the filler does, holding the helper between steps (prefault_hold). */
#include "prefault.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include "arena.h"

/* On the bench VM a fresh page costs the faulting thread 4 to 6 us at
 * 1 GB (docs/bench.md, "A helper that faults pages in"): the helper
 * populates about 0.6 MiB a millisecond, and the memory model's walk
 * fills its buffer table at about 0.3 MiB a millisecond on the other
 * core.  2 MiB ahead is several milliseconds of the walk, and all a
 * table can hold that the filler never used. */
#define PREFAULT_AHEAD ((size_t)2 << 20)
#define PREFAULT_STEP ((size_t)256 << 10)
#define PREFAULT_GROUPS 4

struct prefault_table {
	char *base;           /* NULL: no table k */
	size_t elem, cap;
	size_t done;          /* bytes from base populated (or left to the filler) */
	unsigned group;
};

struct prefault {
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t wake;  /* to the helper: work, release or stop */
	pthread_cond_t idle;  /* to a holder: the step in flight ended */
	struct prefault_table t[PREFAULT_TABLES];
	size_t ahead[PREFAULT_GROUPS];   /* elements: PREFAULT_AHEAD of the group's largest */
	_Atomic size_t used[PREFAULT_GROUPS];
	atomic_bool sleeping, stop;
	bool held, busy;      /* under mu */
	uintptr_t page;
	size_t pages, calls;  /* populated, for HLO_PREFAULT_TRACE (tests) */
};

/* Table k's next range to populate, [*from, *to), page-aligned and at most
 * a step; false when it is where it should be. */
static bool prefault_range(struct prefault *p, unsigned k, uintptr_t *from, uintptr_t *to)
{
	const struct prefault_table *t = &p->t[k];
	if (!t->base)
		return false;
	size_t want = atomic_load(&p->used[t->group]) + p->ahead[t->group];
	if (want > t->cap)
		want = t->cap;
	uintptr_t pg = p->page, base = (uintptr_t)t->base;
	uintptr_t a = (base + t->done + pg - 1) & ~(pg - 1), b = (base + want * t->elem) & ~(pg - 1);
	if (a >= b)
		return false;
	*from = a;
	*to = b - a > PREFAULT_STEP ? a + PREFAULT_STEP : b;
	return true;
}

/* One step of work, the lock dropped around the system call; false when
 * there was none. */
static bool prefault_step(struct prefault *p)
{
	for (unsigned k = 0; k < PREFAULT_TABLES; k++) {
		uintptr_t from, to;
		if (!prefault_range(p, k, &from, &to))
			continue;
		p->busy = true;
		pthread_mutex_unlock(&p->mu);
		int rc = madvise((void *)from, to - from, MADV_POPULATE_WRITE);
		pthread_mutex_lock(&p->mu);
		p->busy = false;
		if (p->held)
			pthread_cond_signal(&p->idle);
		if (rc != 0)
			atomic_store(&p->stop, true);   /* unsupported, or out of memory: the filler faults */
		else if (p->t[k].base)
			p->t[k].done = to - (uintptr_t)p->t[k].base;
		p->pages += rc == 0 ? (to - from) / p->page : 0;
		p->calls++;
		return true;
	}
	return false;
}

static bool prefault_pending(struct prefault *p)
{
	uintptr_t from, to;
	for (unsigned k = 0; k < PREFAULT_TABLES; k++)
		if (prefault_range(p, k, &from, &to))
			return true;
	return false;
}

static void *prefault_run(void *arg)
{
	struct prefault *p = arg;
	pthread_mutex_lock(&p->mu);
	while (!atomic_load(&p->stop)) {
		if (!p->held && prefault_step(p))
			continue;
		/* sleeping is set before looking again, and prefault_used stores
		 * before it reads sleeping: one of the two sees the other. */
		atomic_store(&p->sleeping, true);
		if ((p->held || !prefault_pending(p)) && !atomic_load(&p->stop))
			pthread_cond_wait(&p->wake, &p->mu);
		atomic_store(&p->sleeping, false);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

struct prefault *prefault_start(void)
{
#ifdef MADV_POPULATE_WRITE
	if (getenv("HLO_NO_PREFAULT"))
		return NULL;
	long page = sysconf(_SC_PAGESIZE);
	if (page <= 0 || (page & (page - 1)))
		return NULL;
	struct prefault *p = xcalloc(1, sizeof *p);
	p->page = (uintptr_t)page;
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->wake, NULL);
	pthread_cond_init(&p->idle, NULL);
	if (pthread_create(&p->thread, NULL, prefault_run, p) == 0)
		return p;
	pthread_cond_destroy(&p->idle);
	pthread_cond_destroy(&p->wake);
	pthread_mutex_destroy(&p->mu);
	free(p);
#endif
	return NULL;
}

void prefault_hold(struct prefault *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->mu);
	p->held = true;
	while (p->busy)
		pthread_cond_wait(&p->idle, &p->mu);
	pthread_mutex_unlock(&p->mu);
}

void prefault_set(struct prefault *p, unsigned k, unsigned g, void *base, size_t elem, size_t cap)
{
	if (!p || k >= PREFAULT_TABLES || g >= PREFAULT_GROUPS || !elem)
		return;
	pthread_mutex_lock(&p->mu);
	struct prefault_table *t = &p->t[k];
	if (!t->base)
		t->done = 0;   /* new; a moved table keeps its pages (the move took them along) */
	t->base = base;
	t->elem = elem;
	t->cap = cap;
	t->group = g;
	size_t a = PREFAULT_AHEAD / elem;
	if (!p->ahead[g] || a < p->ahead[g])
		p->ahead[g] = a ? a : 1;
	pthread_mutex_unlock(&p->mu);
}

void prefault_release(struct prefault *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->mu);
	p->held = false;
	pthread_cond_signal(&p->wake);
	pthread_mutex_unlock(&p->mu);
}

void prefault_used(struct prefault *p, unsigned g, size_t n)
{
	if (!p || g >= PREFAULT_GROUPS)
		return;
	atomic_store(&p->used[g], n);
	if (atomic_load(&p->sleeping)) {
		pthread_mutex_lock(&p->mu);
		pthread_cond_signal(&p->wake);
		pthread_mutex_unlock(&p->mu);
	}
}

void prefault_stop(struct prefault *p)
{
	if (!p)
		return;
	atomic_store(&p->stop, true);
	pthread_mutex_lock(&p->mu);
	pthread_cond_signal(&p->wake);
	pthread_mutex_unlock(&p->mu);
	pthread_join(p->thread, NULL);
	if (getenv("HLO_PREFAULT_TRACE"))
		fprintf(stderr, "hlolint: prefault: %zu pages in %zu calls\n", p->pages, p->calls);
	pthread_cond_destroy(&p->idle);
	pthread_cond_destroy(&p->wake);
	pthread_mutex_destroy(&p->mu);
	free(p);
}
