/* verify_run.c - a large module's computations checked on threads, each
 * with a context and file of its own, begun beside resolve when the parse's
 * pieces bound their own names.  It only says whether any thread found
 * something: the diagnostics are always those of the serial check. */
#include "verify_int.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "intern.h"
#include "literal.h"
#include "threads.h"

/* One thread's share of a large module's computations.  Decoding a value
 * interns its names and hash-conses its shapes in the file it is given,
 * so each has a file of its own (the input's text, its own arena and
 * names), as each piece of a parse has. */
struct verify_side {
	struct verify_ctx v;
	struct hlo_file file;
	struct diag_sink d;         /* counts only */
};

/* A lane: computations [front, back) not yet claimed, which its thread
 * checks from the front and the caller, once resolve is done, from the
 * back, so the two meet wherever the work splits evenly.  Each end's
 * claims are contiguous: each drops the text behind it, the thread
 * forward (its verify_ctx's mark), the caller backward (`below`). */
struct verify_lane {
	struct verify_run *run;
	_Atomic uint64_t ends;      /* front << 32 | back */
	struct verify_side side;    /* the lane's thread's */
	uint64_t below;             /* the caller's drops, walking back; UINT64_MAX before */
	uint64_t resume;            /* the thread's drop mark when it first passed a computation */
	uint32_t held, upto;        /* the first computation the thread passed for resolve
				     * (UINT32_MAX: none), and the end of its claims while resolve ran */
	pthread_t thread;
	bool started;
};

enum verify_stage { VERIFY_RESOLVING, VERIFY_RESOLVED, VERIFY_CANCELLED };

/* A large module's computations checked on threads_get() threads: one per
 * lane, and the caller.  Begun before resolve (verify_begin), the lanes'
 * threads check only what resolve leaves alone until it is done. */
struct verify_run {
	struct hlo_module *m;
	uint8_t *later;             /* begun before resolve: later[c], resolve has work on c
				     * (IR_CONTAINS_UNRESOLVED, copied: resolve writes the module's) */
	pthread_mutex_t lock;
	pthread_cond_t moved;
	_Atomic int stage;          /* enum verify_stage, changed under lock */
	_Atomic bool noisy;         /* a side found something to say: all stop, the serial check follows */
	_Atomic uint32_t comps_left;    /* computations not yet checked */
	/* Large literals shared out (verify_run_share), under lock: a side out
	 * of computations checks them until none is left to come. */
	const struct hlo_instr **lits;
	uint32_t nlits, caplits, nextlit;
	struct verify_side caller;
	struct verify_lane *lanes;
	unsigned nlanes;
};

/* Computations claimed at a time: small next to the work of a lane. */
#define VERIFY_CLAIM 16

static void verify_side_init(struct verify_side *s, struct verify_run *r)
{
	struct hlo_module *m = r->m;
	s->file.src = m->file->src;
	s->file.names = intern_new();
	diag_init(&s->d, NULL, 1);
	s->v = (struct verify_ctx){ .m = m, .f = &s->file, .d = &s->d, .drop_mark = UINT64_MAX, .run = r };
	arena_init(&s->v.scratch);
}

static void verify_side_free(struct verify_side *s)
{
	verify_ctx_free(&s->v);
	arena_free(&s->file.arena);
	intern_free(s->file.names);
	diag_free(&s->d);
}

/* Claims up to VERIFY_CLAIM computations of lane l from its front (or its
 * back): [*from, *to); false when none is left. */
static bool verify_claim(struct verify_lane *l, bool back, uint32_t *from, uint32_t *to)
{
	uint64_t e = atomic_load(&l->ends);
	for (;;) {
		uint32_t f = (uint32_t)(e >> 32), b = (uint32_t)e;
		if (f >= b)
			return false;
		uint32_t n = b - f < VERIFY_CLAIM ? b - f : VERIFY_CLAIM;
		*from = back ? b - n : f;
		*to = *from + n;
		uint64_t want = back ? (uint64_t)f << 32 | *from : (uint64_t)*to << 32 | b;
		if (atomic_compare_exchange_weak(&l->ends, &e, want))
			return true;
	}
}

static bool verify_run_going(struct verify_run *r)
{
	return !atomic_load_explicit(&r->noisy, memory_order_relaxed) &&
	       atomic_load_explicit(&r->stage, memory_order_acquire) != VERIFY_CANCELLED;
}

static void verify_run_stage(struct verify_run *r, enum verify_stage stage)
{
	pthread_mutex_lock(&r->lock);
	atomic_store(&r->stage, stage);
	pthread_cond_broadcast(&r->moved);
	pthread_mutex_unlock(&r->lock);
}

/* Wakes every side waiting for literals: one found something (all stop),
 * or the last computation was checked (no more literals will come). */
static void verify_run_wake(struct verify_run *r, bool noisy)
{
	pthread_mutex_lock(&r->lock);
	if (noisy)
		atomic_store(&r->noisy, true);
	pthread_cond_broadcast(&r->moved);
	pthread_mutex_unlock(&r->lock);
}

static void verify_side_comp(struct verify_run *r, struct verify_side *s, uint32_t c)
{
	verify_comp(&s->v, r->m->comps[c]);
	bool noisy = s->v.errors || s->v.warnings;
	if (atomic_fetch_sub(&r->comps_left, 1) == 1 || noisy)
		verify_run_wake(r, noisy);
}

bool verify_run_share(struct verify_run *r, const struct hlo_instr *i)
{
	pthread_mutex_lock(&r->lock);
	if (r->nlits == r->caplits) {
		r->caplits = r->caplits ? 2 * r->caplits : 64;
		r->lits = xreallocarray(r->lits, r->caplits, sizeof *r->lits);
	}
	r->lits[r->nlits++] = i;
	pthread_cond_signal(&r->moved);
	pthread_mutex_unlock(&r->lock);
	return true;
}

/* A side out of computations: checks shared literals until every
 * computation is checked and no literal is left (or the run stops). */
static void verify_run_literals(struct verify_run *r, struct verify_side *s)
{
	pthread_mutex_lock(&r->lock);
	while (verify_run_going(r)) {
		if (r->nextlit < r->nlits) {
			const struct hlo_instr *i = r->lits[r->nextlit++];
			pthread_mutex_unlock(&r->lock);
			bool ok = literal_check(s->v.f, ir_instr_literal(i), i->shape, NULL);
			if (!ok)
				verify_run_wake(r, true);
			pthread_mutex_lock(&r->lock);
		} else if (atomic_load(&r->comps_left) == 0) {
			break;
		} else {
			pthread_cond_wait(&r->moved, &r->lock);
		}
	}
	pthread_mutex_unlock(&r->lock);
}

/* True once resolve is done, false when the run was cancelled. */
static bool verify_run_resolved(struct verify_run *r)
{
	pthread_mutex_lock(&r->lock);
	while (atomic_load(&r->stage) == VERIFY_RESOLVING)
		pthread_cond_wait(&r->moved, &r->lock);
	bool ok = atomic_load(&r->stage) == VERIFY_RESOLVED;
	pthread_mutex_unlock(&r->lock);
	return ok;
}

/* The lane's thread on computation c while resolve may still run: what
 * resolve will change is passed (verify_lane_held checks it later).  The
 * text behind the thread is dropped all the same: a passed computation's
 * pages are mapped again when it is checked (about 1% of verify's time at
 * 1 GB), where keeping them resident until then cost 0.19x the file. */
static void verify_lane_early(struct verify_lane *l, uint32_t c)
{
	struct verify_ctx *v = &l->side.v;
	if (l->run->later[c]) {
		if (l->held == UINT32_MAX) {
			l->held = c;
			l->resume = v->drop_mark;
		}
		return;
	}
	if (v->drop_mark == UINT64_MAX)
		v->drop_mark = ir_comp_span(l->run->m->comps[c]).start;
	verify_side_comp(l->run, &l->side, c);
}

/* What the lane's thread passed, checked in order once resolve is done,
 * dropping behind it again from where it first passed one. */
static void verify_lane_held(struct verify_lane *l)
{
	struct verify_run *r = l->run;
	struct verify_ctx *v = &l->side.v;
	v->drop_mark = l->resume != UINT64_MAX ? l->resume : ir_comp_span(r->m->comps[l->held]).start;
	for (uint32_t c = l->held; c < l->upto && verify_run_going(r); c++)
		if (r->later[c])
			verify_side_comp(r, &l->side, c);
}

static void *verify_lane_run(void *arg)
{
	struct verify_lane *l = arg;
	struct verify_run *r = l->run;
	uint32_t from, to;
	while (r->later && atomic_load_explicit(&r->stage, memory_order_acquire) == VERIFY_RESOLVING &&
	       verify_run_going(r) && verify_claim(l, false, &from, &to)) {
		for (uint32_t c = from; c < to; c++)
			verify_lane_early(l, c);
		l->upto = to;
	}
	if (l->held != UINT32_MAX) {
		if (!verify_run_resolved(r))
			return NULL;
		verify_lane_held(l);
	}
	while (verify_run_going(r) && verify_claim(l, false, &from, &to))
		for (uint32_t c = from; c < to; c++) {
			if (l->side.v.drop_mark == UINT64_MAX)
				l->side.v.drop_mark = ir_comp_span(r->m->comps[c]).start;
			verify_side_comp(r, &l->side, c);
		}
	verify_run_literals(r, &l->side);
	return NULL;
}

/* The lane with the most left to claim, or NULL. */
static struct verify_lane *verify_run_fullest(struct verify_run *r)
{
	struct verify_lane *best = NULL;
	uint32_t most = 0;
	for (unsigned k = 0; k < r->nlanes; k++) {
		uint64_t e = atomic_load(&r->lanes[k].ends);
		uint32_t f = (uint32_t)(e >> 32), b = (uint32_t)e;
		if (b > f && b - f > most) {
			most = b - f;
			best = &r->lanes[k];
		}
	}
	return best;
}

/* The caller's part, once resolve is done: claims from the lanes' backs,
 * each claim checked in order and its text dropped walking back. */
static void verify_run_back(struct verify_run *r)
{
	struct verify_ctx *v = &r->caller.v;
	struct verify_lane *l;
	uint32_t from, to;
	while (verify_run_going(r) && (l = verify_run_fullest(r)) && verify_claim(l, true, &from, &to)) {
		uint64_t start = ir_comp_span(r->m->comps[from]).start;
		if (l->below == UINT64_MAX)
			l->below = ir_comp_span(r->m->comps[to - 1]).end;
		v->drop_mark = start;
		for (uint32_t c = from; c < to && verify_run_going(r); c++)
			verify_side_comp(r, &r->caller, c);
		source_drop_below(r->m->file->src, &l->below, start);
	}
}

/* Starts checking m's computations on threads when m is large (resolve
 * still to run when later is set); NULL when m is small, and the caller
 * checks them serially.  A lane whose thread did not start is the
 * caller's, from its back. */
static struct verify_run *verify_run_start(struct hlo_module *m, uint8_t *later)
{
	unsigned n = threads_get();
	if (n < 2 || m->ncomps < 2 || span_len(m->span) < threads_min_bytes()) {
		free(later);
		return NULL;
	}
	verify_attrs_init();   /* before any thread reads its table */
	struct verify_run *r = xcalloc(1, sizeof *r);
	r->m = m;
	r->later = later;
	r->stage = later ? VERIFY_RESOLVING : VERIFY_RESOLVED;
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->moved, NULL);
	r->comps_left = m->ncomps;
	verify_side_init(&r->caller, r);
	r->nlanes = n - 1;
	r->lanes = xcalloc(r->nlanes, sizeof *r->lanes);
	for (unsigned k = 0; k < r->nlanes; k++) {
		struct verify_lane *l = &r->lanes[k];
		uint64_t f = (uint64_t)m->ncomps * k / r->nlanes, b = (uint64_t)m->ncomps * (k + 1) / r->nlanes;
		l->run = r;
		l->ends = f << 32 | b;
		l->below = UINT64_MAX;
		l->held = UINT32_MAX;
		verify_side_init(&l->side, r);
		l->started = pthread_create(&l->thread, NULL, verify_lane_run, l) == 0;
	}
	return r;
}

/* Waits for the lanes' threads and frees r; true when no side found
 * anything to say. */
static bool verify_run_end(struct verify_run *r)
{
	for (unsigned k = 0; k < r->nlanes; k++) {
		if (r->lanes[k].started)
			pthread_join(r->lanes[k].thread, NULL);
		verify_side_free(&r->lanes[k].side);
	}
	bool quiet = !atomic_load(&r->noisy);
	verify_side_free(&r->caller);
	pthread_cond_destroy(&r->moved);
	pthread_mutex_destroy(&r->lock);
	free(r->lanes);
	free(r->lits);
	free(r->later);
	free(r);
	return quiet;
}

/* Tests (HLO_VERIFY_EARLY_WAIT): waits until the lanes' threads have
 * claimed all they can before resolve starts, so that what they pass for
 * resolve is always held, whatever the machine's speed. */
static void verify_run_drain(struct verify_run *r)
{
	for (unsigned k = 0; k < r->nlanes && !atomic_load(&r->noisy); k++) {
		for (;;) {
			uint64_t e = atomic_load(&r->lanes[k].ends);
			if (!r->lanes[k].started || atomic_load(&r->noisy) || e >> 32 >= (uint32_t)e)
				break;
			nanosleep(&(struct timespec){ .tv_nsec = 1000000 }, NULL);
		}
	}
}

struct verify_run *verify_begin(struct hlo_module *m)
{
	if (!m->names_resolved || !m->contains || m->ncomps < 2)
		return NULL;
	uint8_t *later = xmalloc(m->ncomps);
	for (uint32_t c = 0; c < m->ncomps; c++)
		later[c] = (m->contains[c] & IR_CONTAINS_UNRESOLVED) != 0;
	/* resolve makes the last one the entry when none is marked ENTRY */
	later[m->ncomps - 1] = 1;
	struct verify_run *r = verify_run_start(m, later);
	if (r && getenv("HLO_VERIFY_EARLY_WAIT"))
		verify_run_drain(r);
	return r;
}

void verify_cancel(struct verify_run *r)
{
	if (!r)
		return;
	verify_run_stage(r, VERIFY_CANCELLED);
	verify_run_end(r);
}

/* Finishes r (or starts and finishes a run on m, resolved, when r is
 * NULL): true when the computations were all checked on threads and none
 * had anything to say; otherwise (or when m is small) the caller checks
 * them serially, so what is reported, and in what order, never depends on
 * the threads. */
bool verify_run_finish(struct hlo_module *m, struct verify_run *r)
{
	bool begun = r != NULL;
	if (!r && !(r = verify_run_start(m, NULL)))
		return false;
	unsigned n = r->nlanes + 1;
	verify_run_stage(r, VERIFY_RESOLVED);
	verify_run_back(r);
	verify_run_literals(r, &r->caller);
	bool quiet = verify_run_end(r);
	if (getenv("HLO_PARSE_PIECES_TRACE"))   /* tests: was the module verified on threads? */
		fprintf(stderr, "hlolint: %s: verified in %u parts%s%s\n", m->file->src->path, n,
			begun ? ", begun beside resolve" : "", quiet ? "" : ", again serially");
	return quiet;
}
