/* alloc.c - XLA's total allocation from the memory model's values (each
 * buffer's own stretch, in-place merges undone).  XLA's buffer assigner
 * gives arguments, constants and outputs allocations of their own, tries
 * each temporary (largest first) in an output or donated-argument
 * allocation that is free for its whole live range, and packs the rest
 * into one heap, where a result may take over the operand dying at it.
 * The heap is sized by its liveness peak with aligned sizes: XLA's
 * best-fit offsets and their fragmentation are not simulated
 * (docs/memory-model.md "Total allocation"). */
#include "alloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "flow.h"
#include "prefault.h"

/* A stretch of steps [from, to] in which value b, written by def, holds
 * an allocation. */
struct alloc_run {
	uint32_t from, to;
	const struct mem_buffer *b;
	const struct hlo_instr *def;
};

/* Outputs and donated arguments a temporary may borrow: its occupied
 * steps are disjoint runs, sorted. */
struct alloc_host {
	uint64_t bytes;
	uint32_t order;           /* creation order: XLA tries the newest first */
	struct alloc_run *run;
	uint32_t nrun, caprun;
};

/* Hosts tried per temporary, and how far before a host's last stretch a
 * new one may go: bound the time on modules with thousands of outputs or
 * temporaries (XLA tries them all; the heap takes what is left). */
#define ALLOC_TRIES 64
#define ALLOC_DEPTH 64

/* How many buffers ahead the heap's pass starts loading a definer. */
#define ALLOC_AHEAD 8

struct alloc_parts {
	uint64_t arguments, outputs, constants, heap, heap_live, reused;
};

static uint64_t alloc_size(const struct mem_buffer *b, bool max)
{
	return max && b->bytes_max > b->bytes ? b->bytes_max : b->bytes;
}

static bool alloc_is_device(const struct mem_buffer *b)
{
	return mem_space_class(b->memory_space) == MEM_SPACE_DEVICE;
}

static bool alloc_is_output(const struct mem_buffer *b)
{
	return b->param < 0 && (b->flags & MEM_BUF_ROOT);
}

/* Whether user's result may be written over value o as o dies at user:
 * user reads o (through any alias) and shares operands in place. */
static bool alloc_in_place(const struct mem_model *mm, const uint32_t *root, const struct hlo_instr *user,
			   const struct mem_buffer *o)
{
	if (!o || !user || !mm->shares_in_place || user->op == OP_COPY || !flow_writes_in_place(user))
		return false;
	const struct mem_buffer *r = &mm->buffers[root[mem_buffer_id(mm, o)]];
	for (uint32_t k = 0; k < user->noperands; k++) {
		const struct hlo_instr *op = ir_operands(user)[k].instr;
		if (op && mem_buffer_at(mm, op, 0) == r)
			return true;
	}
	return false;
}

/* A temporary that may borrow a host: its sort key, so that the sort
 * reads no buffer (the table is far larger than the caches on a large
 * module).  16 bytes: the walk makes room for one per buffer (alloc.h). */
struct alloc_temp {
	uint64_t bytes;
	uint32_t pos, id;           /* pos: alloc_order_of its definer */
};

/* True when no run of h meets temporary b's live range, but for runs
 * that touch it at one end where one is written over the other in place
 * (XLA lets such live ranges touch).  Runs are disjoint and sorted, so the
 * ones meeting b are those before the first starting after its end, back
 * to the first ending before its start. */
static bool alloc_host_free(const struct mem_model *mm, const uint32_t *root, const struct alloc_host *h,
			    const struct mem_buffer *b)
{
	/* More than ALLOC_DEPTH runs after t's end: the one that many from
	 * the end starts after it.  Else only the last ones need a search. */
	uint32_t lo = h->nrun > ALLOC_DEPTH ? h->nrun - ALLOC_DEPTH : 0, hi = h->nrun;
	if (lo && h->run[lo - 1].from > b->gown)
		return false;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (h->run[mid].from <= b->gown)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (uint32_t k = lo; k > 0 && h->run[k - 1].to >= b->gdef; k--) {
		const struct alloc_run *r = &h->run[k - 1];
		bool before = r->to == b->gdef && r->from < b->gdef && alloc_in_place(mm, root, b->def, r->b);
		bool after = r->from == b->gown && b->gdef < b->gown && alloc_in_place(mm, root, r->def, b);
		if (!before && !after)
			return false;
	}
	return true;
}

static void alloc_host_take(struct alloc_host *h, uint32_t from, uint32_t to, const struct mem_buffer *b,
			    const struct hlo_instr *def)
{
	if (h->nrun == h->caprun) {
		h->caprun = h->caprun ? h->caprun * 2 : 2;
		h->run = xreallocarray(h->run, h->caprun, sizeof *h->run);
	}
	uint32_t k = h->nrun++;
	while (k && h->run[k - 1].from > from) {
		h->run[k] = h->run[k - 1];
		k--;
	}
	h->run[k] = (struct alloc_run){ from, to, b, def };
}

/* Smallest first; equal sizes newest first, as XLA walks its list of
 * allocations from the end. */
static int alloc_host_cmp(const void *pa, const void *pb)
{
	const struct alloc_host *a = pa, *b = pb;
	if (a->bytes != b->bytes)
		return a->bytes < b->bytes ? -1 : 1;
	return a->order > b->order ? -1 : a->order < b->order;
}

/* XLA's buffer assigner takes buffers of one size in the post order of
 * their definers, computations callees first (source order), and an
 * allocation made later is tried first: the position of each instruction
 * in that order, by computation then instruction index.  Only the
 * computations the model analysed define buffers, so only theirs are
 * numbered (skipping fusion bodies, most of a large module's
 * instructions, keeps the others' order and spares a post order each and
 * 4 bytes an instruction at the module's memory peak). */
struct alloc_order {
	uint32_t *base;             /* by computation index; ALLOC_UNNUMBERED: not analysed */
	uint32_t *pos;              /* base[c] + instruction index */
};
#define ALLOC_UNNUMBERED UINT32_MAX

static void alloc_order_init(struct alloc_order *o, const struct mem_model *mm)
{
	const struct hlo_module *m = mm->module;
	uint32_t total = 0;
	o->base = xmalloc(((size_t)m->ncomps + 1) * sizeof *o->base);
	for (uint32_t c = 0; c < m->ncomps; c++) {
		bool numbered = mem_analysed(mm, m->comps[c]);
		o->base[c] = numbered ? total : ALLOC_UNNUMBERED;
		total += numbered ? m->comps[c]->ninstrs : 0;
	}
	o->pos = xmalloc(((size_t)total + 1) * sizeof *o->pos);
	struct hlo_instr **order = NULL;
	uint32_t cap = 0, at = 0;
	for (uint32_t c = 0; c < m->ncomps; c++) {
		const struct hlo_comp *comp = m->comps[c];
		if (o->base[c] == ALLOC_UNNUMBERED)
			continue;
		if (comp->ninstrs > cap) {
			cap = comp->ninstrs;
			order = xreallocarray(order, cap, sizeof *order);
		}
		ir_post_order(comp, true, order);
		for (uint32_t k = 0; k < comp->ninstrs; k++)
			o->pos[o->base[c] + order[k]->index] = at++;
	}
	free(order);
}

static void alloc_order_free(struct alloc_order *o)
{
	free(o->base);
	free(o->pos);
}

static uint32_t alloc_order_of(const struct alloc_order *o, const struct hlo_instr *i)
{
	uint32_t b = i ? o->base[i->comp->index] : ALLOC_UNNUMBERED;
	return b == ALLOC_UNNUMBERED ? 0 : o->pos[b + i->index];
}

/* b's loop-carry gaps (mem_model.gaps, sorted by buffer), count in *n. */
static const struct mem_gap *alloc_gaps_of(const struct mem_model *mm, const struct mem_buffer *b, uint32_t *n)
{
	uint32_t id = mem_buffer_id(mm, b), lo = 0, hi = mm->ngaps;
	*n = 0;
	if (!mm->ngaps)
		return NULL; /* mm->gaps is NULL then: NULL + 0 is undefined in C */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (mm->gaps[mid].buf < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	uint32_t k = lo;
	while (k < mm->ngaps && mm->gaps[k].buf == id)
		k++;
	*n = k - lo;
	return mm->gaps + lo;
}

/* Host h holds b (written by def) over [from, to] but for b's loop-carry
 * gaps, after each of which the gap's writer writes it. */
static void alloc_host_hold(const struct mem_model *mm, struct alloc_host *h, uint32_t from, uint32_t to,
			    const struct mem_buffer *b, const struct hlo_instr *def)
{
	uint32_t ng;
	const struct mem_gap *g = alloc_gaps_of(mm, b, &ng);
	for (uint32_t k = 0; k < ng && from <= to; k++) {
		if (g[k].to < from || g[k].from > to)
			continue;
		if (g[k].from > from)
			alloc_host_take(h, from, g[k].from - 1, b, def);
		from = g[k].to + 1;
		def = g[k].writer;
	}
	if (from <= to)
		alloc_host_take(h, from, to, b, def);
}

/* Output allocations are taken from their definition on; a donated
 * argument's everywhere but its hole; either but for its loop-carry gaps. */
static void alloc_host_init(const struct mem_model *mm, const struct alloc_order *order, const struct mem_buffer *b, bool max,
			    struct alloc_host *h)
{
	uint32_t end = mm->nsteps ? mm->nsteps - 1 : 0;
	memset(h, 0, sizeof *h);
	h->bytes = alloc_size(b, max);
	h->order = alloc_order_of(order, b->def);
	if (alloc_is_output(b)) {
		alloc_host_hold(mm, h, b->gdef, end, b, b->def);
	} else if (b->hole_from <= b->hole_to) {
		if (b->hole_from)
			alloc_host_hold(mm, h, 0, b->hole_from - 1, b, b->def);
		alloc_host_hold(mm, h, b->hole_to + 1, end, b, b->writer);
	} else {
		alloc_host_hold(mm, h, 0, end, b, b->def);
	}
}

/* Largest first; ties in definition order, as XLA sorts by position. */
static bool alloc_temp_before(const struct alloc_temp *a, const struct alloc_temp *b)
{
	if (a->bytes != b->bytes)
		return a->bytes > b->bytes;
	return a->pos != b->pos ? a->pos < b->pos : a->id < b->id;
}

static void alloc_temp_swap(struct alloc_temp *a, struct alloc_temp *b)
{
	struct alloc_temp x = *a;
	*a = *b;
	*b = x;
}

/* A quicksort in place (median of three; the smaller side recursed, the
 * larger looped, so the stack stays logarithmic): qsort would malloc a
 * copy of the array at the memory model's peak, and a heap sort misses
 * the caches on a large module.  The keys are distinct (ids), so any
 * correct sort gives the one order. */
static void alloc_temp_sort(struct alloc_temp *t, uint32_t n)
{
	while (n > 16) {
		uint32_t m = n / 2;
		if (alloc_temp_before(&t[m], &t[0]))
			alloc_temp_swap(&t[m], &t[0]);
		if (alloc_temp_before(&t[n - 1], &t[m]))
			alloc_temp_swap(&t[n - 1], &t[m]);
		if (alloc_temp_before(&t[m], &t[0]))
			alloc_temp_swap(&t[m], &t[0]);
		struct alloc_temp pivot = t[m];
		uint32_t i = 0, j = n - 1;
		for (;;) {   /* Hoare: t[0] <= pivot <= t[n - 1] stop both scans */
			while (alloc_temp_before(&t[i], &pivot))
				i++;
			while (alloc_temp_before(&pivot, &t[j]))
				j--;
			if (i >= j)
				break;
			alloc_temp_swap(&t[i++], &t[j--]);
		}
		uint32_t left = j + 1;   /* t[0..j] <= pivot <= t[j+1..n) */
		if (left < n - left) {
			alloc_temp_sort(t, left);
			t += left;
			n -= left;
		} else {
			alloc_temp_sort(t + left, n - left);
			n = left;
		}
	}
	for (uint32_t k = 1; k < n; k++)
		for (uint32_t j = k; j > 0 && alloc_temp_before(&t[j], &t[j - 1]); j--)
			alloc_temp_swap(&t[j], &t[j - 1]);
}

/* How many sizes the temporaries may have for the few-sizes order. */
#define ALLOC_SIZES 8

/* The temporaries' distinct sizes, largest first, when there are at most
 * ALLOC_SIZES and each size's temporaries are already in the order
 * alloc_temp_before puts them (they are made in id order, and a module's
 * definition steps mostly grow with the ids); else 0 and they need
 * sorting.  Visiting them a size at a time in the table's order then is
 * the sorted order, without the sort (on the bench module at 1 GB, a
 * sort of 564,231 temporaries of 5 sizes: docs/bench.md). */
static uint32_t alloc_few_sizes(const struct alloc_temp *t, uint32_t n, uint64_t *size)
{
	uint32_t ns = 0, last[ALLOC_SIZES];
	for (uint32_t k = 0; k < n; k++) {
		uint32_t s = 0;
		while (s < ns && size[s] != t[k].bytes)
			s++;
		if (s == ns) {
			if (ns == ALLOC_SIZES)
				return 0;
			size[ns++] = t[k].bytes;
		} else if (!alloc_temp_before(&t[last[s]], &t[k])) {
			return 0;
		}
		last[s] = k;
	}
	for (uint32_t k = 1; k < ns; k++)
		for (uint32_t j = k; j > 0 && size[j] > size[j - 1]; j--) {
			uint64_t v = size[j];
			size[j] = size[j - 1];
			size[j - 1] = v;
		}
	return ns;
}

/* The first host (smallest, newest) that fits t and is free over its live
 * range takes it. */
static bool alloc_borrow(const struct mem_model *mm, const uint32_t *root, struct alloc_host *hosts, uint32_t nh,
			 const struct alloc_temp *t)
{
	uint32_t lo = 0, hi = nh;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (hosts[mid].bytes < t->bytes)
			lo = mid + 1;
		else
			hi = mid;
	}
	const struct mem_buffer *b = &mm->buffers[t->id];
	for (uint32_t k = lo, tries = 0; k < nh && tries < ALLOC_TRIES; k++, tries++) {
		if (alloc_host_free(mm, root, &hosts[k], b)) {
			alloc_host_take(&hosts[k], b->gdef, b->gown, b, b->def);
			return true;
		}
	}
	return false;
}

/* The step from which heap value b needs memory of its own.  XLA's heap
 * writes a result over an operand that dies at it when the operand is a
 * heap value defined by that very operand instruction, or, for an update
 * in place, the operand it updates (flow_updated_operand: a
 * dynamic-update-slice, scatter, sort or a fusion rooted in one), through
 * any alias; of the same size and not taken by another result: they share
 * that step.  taken marks operands already shared. */
static uint32_t alloc_heap_from(const struct mem_model *mm, const struct mem_buffer *b, const uint8_t *in_heap,
				uint8_t *taken, uint32_t *over)
{
	*over = UINT32_MAX;
	if (!(b->flags & MEM_BUF_OVERWRITES))
		return b->gdef;
	const struct hlo_instr *d = b->def;
	int64_t upd = flow_updated_operand(d, mem_leaf_count(mm, d), b->leaf);
	if (!mm->shares_in_place && upd < 0)
		return b->gdef;
	for (uint32_t k = 0; k < d->noperands; k++) {
		const struct hlo_instr *op = ir_operands(d)[k].instr;
		const struct mem_buffer *o = op && (upd < 0 || k == upd) ? mem_value_at(mm, op, 0) : NULL;
		if (!o || !in_heap[mem_buffer_id(mm, o)] || taken[mem_buffer_id(mm, o)] || o->gown != b->gdef || o->bytes != b->bytes ||
		    o->memory_space != b->memory_space || (upd < 0 && o->def != op))
			continue;
		taken[mem_buffer_id(mm, o)] = 1;
		*over = mem_buffer_id(mm, o);
		return b->gdef + 1;
	}
	return b->gdef;
}


/* A heap value as XLA:TPU's heap places it: steps [def, to], its rounded
 * size, and the value whose place it takes over in place (NONE: a place
 * of its own).  id NONE: the what-if's device copy. */
struct alloc_seg {
	uint32_t def, to, id, over;
	uint64_t size;
};

/* A placed value: [off, off + size) until step to. */
struct alloc_block {
	uint64_t off, size;
	uint32_t to;
};

/* Placing stops (the heap is then its liveness peak) past this many
 * blocks looked at per value on average: a module with tens of thousands
 * of values live at once (docs/memory-model.md "Total allocation"). */
#define ALLOC_PLACE_WORK 256
#define ALLOC_NONE UINT32_MAX

/* sg (collected in id order, the what-if's last) into program order,
 * ids in order within a step: a counting sort by step, stable. */
static struct alloc_seg *alloc_seg_sort(struct alloc_seg *sg, uint32_t n, uint32_t steps)
{
	uint32_t *at = xcalloc((size_t)steps + 1, sizeof *at);
	for (uint32_t k = 0; k < n; k++)
		at[(sg[k].def < steps ? sg[k].def : steps - 1) + 1]++;
	for (uint32_t t = 1; t <= steps; t++)
		at[t] += at[t - 1];
	struct alloc_seg *out = xmalloc(((size_t)n + 1) * sizeof *out);
	for (uint32_t k = 0; k < n; k++)
		out[at[sg[k].def < steps ? sg[k].def : steps - 1]++] = sg[k];
	free(at);
	free(sg);
	return out;
}

/* Drops the blocks of lv (sorted by offset) whose values died before step
 * t; returns how many are left. */
static uint32_t alloc_expire(struct alloc_block *lv, uint32_t n, uint32_t t)
{
	uint32_t w = 0;
	for (uint32_t j = 0; j < n; j++)
		if (lv[j].to >= t)
			lv[w++] = lv[j];
	return w;
}

/* Where in lv (sorted, n blocks) a value of size goes: the smallest gap
 * that holds it, else above the highest block.  *at: the index it takes. */
static uint64_t alloc_best_fit(const struct alloc_block *lv, uint32_t n, uint64_t size, uint32_t *at)
{
	uint64_t end = 0, best = UINT64_MAX, gap_best = UINT64_MAX;
	*at = n;
	for (uint32_t j = 0; j < n; j++) {
		uint64_t gap = lv[j].off - end;
		if (gap >= size && gap < gap_best) {
			gap_best = gap;
			best = end;
			*at = j;
		}
		end = size_add(lv[j].off, lv[j].size);
	}
	return best != UINT64_MAX ? best : end;
}

/* Takes over the block at offset off for a value written in place over
 * the one there, to step to; false when that block is gone. */
static bool alloc_take_over(struct alloc_block *lv, uint32_t n, uint64_t off, uint64_t size, uint32_t to)
{
	for (uint32_t j = 0; j < n; j++)
		if (lv[j].off == off && lv[j].size >= size) {
			lv[j].to = to > lv[j].to ? to : lv[j].to;
			return true;
		}
	return false;
}

/* XLA:TPU's heap: the buffer assignments in corpora/xla place values in
 * program order, each at the smallest gap between the values live at its
 * definition, else on top, never moved; a value written in place takes
 * its operand's place.  Its size can pass the liveness peak by the gaps
 * too small for what comes later (convnet: 444M for a 401M peak).
 * *placed false when placing would take too long (ALLOC_PLACE_WORK). */
static uint64_t alloc_place(struct alloc_seg *sg, uint32_t n, uint32_t nbuf, bool *placed)
{
	uint64_t *off_of = xmalloc(((size_t)nbuf + 1) * sizeof *off_of);
	uint32_t nl = 0, cap = 64;
	struct alloc_block *lv = xmalloc(cap * sizeof *lv);
	uint64_t top = 0, work = 0, budget = (uint64_t)n * ALLOC_PLACE_WORK + 1000000;
	*placed = true;
	for (uint32_t k = 0; k < n && *placed; k++) {
		const struct alloc_seg *g = &sg[k];
		work += nl;
		*placed = work <= budget;
		nl = alloc_expire(lv, nl, g->def);
		if (g->over != ALLOC_NONE && alloc_take_over(lv, nl, off_of[g->over], g->size, g->to)) {
			off_of[g->id] = off_of[g->over];
			continue;
		}
		if (nl == cap) {
			cap *= 2;
			lv = xreallocarray(lv, cap, sizeof *lv);
		}
		uint32_t at;
		uint64_t off = alloc_best_fit(lv, nl, g->size, &at);
		memmove(&lv[at + 1], &lv[at], (nl - at) * sizeof *lv);
		lv[at] = (struct alloc_block){ off, g->size, g->to };
		nl++;
		if (g->id != ALLOC_NONE)
			off_of[g->id] = off;
		top = size_add(off, g->size) > top ? size_add(off, g->size) : top;
	}
	free(off_of);
	free(lv);
	return top;
}

/* The heap's two sizes: its values' liveness peak, each value rounded up
 * to the heap's alignment (what XLA:TPU's early out-of-memory check calls
 * "required for HLO temporaries", and a lower bound of any heap), and the
 * heap as XLA places them: on TPU alloc_place, elsewhere the peak (XLA:GPU
 * and XLA:CPU try global best-fit orders, which in corpora/xla reach it).
 * max bounds a value's rounded size (units of size_unit_shift keep the sum
 * in int64).  Values in id order: only values defined at one step compete
 * for an operand dying there (alloc_heap_from), and those XLA takes in
 * position order too. */
struct alloc_heap_size {
	uint64_t live, placed;
};

static struct alloc_heap_size alloc_heap(const struct mem_model *mm, uint8_t *in_heap, uint32_t n, uint64_t max,
					 bool max_size, const struct alloc_whatif *w)
{
	uint32_t steps = mm->nsteps;
	if ((!n && !w) || !steps)
		return (struct alloc_heap_size){ 0, 0 };
	uint8_t *taken = xcalloc(mm->nbuffers ? mm->nbuffers : 1, 1);
	uint64_t align = target_heap_align(mm->target);
	if (w && size_round_up(w->b->bytes, align) > max)
		max = size_round_up(w->b->bytes, align);
	uint32_t shift = size_unit_shift(max, (uint64_t)n + 2);
	int64_t *d = xcalloc((size_t)steps + 1, sizeof *d);
	struct alloc_seg *sg = mm->target->kind == TARGET_TPU ? xmalloc(((size_t)n + 1) * sizeof *sg) : NULL;
	uint32_t nsg = 0;
	uint32_t wto = w && w->to < steps ? w->to : steps - 1;
	for (uint32_t k = 0; k <= mm->nbuffers; k++) {
		/* k == nbuffers: the what-if's device copy, a temporary of the heap */
		const struct mem_buffer *b = k < mm->nbuffers ? &mm->buffers[k] : NULL;
		/* The definers alloc_heap_from reads are out of the caches on a
		 * large module: start loading one a few buffers ahead. */
		if (k + ALLOC_AHEAD < mm->nbuffers && (b[ALLOC_AHEAD].flags & MEM_BUF_OVERWRITES))
			__builtin_prefetch(b[ALLOC_AHEAD].def);
		uint32_t over = ALLOC_NONE, from, to;
		uint64_t size;
		if (b && in_heap[k]) {
			from = alloc_heap_from(mm, b, in_heap, taken, &over);
			to = b->gown < steps ? b->gown : steps - 1;
			size = size_round_up(alloc_size(b, max_size), align);
		} else if (!b && w) {
			from = w->from;
			to = wto;
			size = size_round_up(w->b->bytes, align);
		} else {
			continue;
		}
		if (from > to)
			continue;
		int64_t u = (int64_t)size_units(size, shift);
		d[from] += u;
		d[to + 1] -= u;
		/* A loop carry holds nothing over its gaps (mem_carry_gaps):
		 * XLA:GPU's heap puts the body's values there. */
		uint32_t ng;
		const struct mem_gap *g = b ? alloc_gaps_of(mm, b, &ng) : NULL;
		for (uint32_t e = 0; g && e < ng; e++)
			if (g[e].from > from && g[e].to < to) {
				d[g[e].from] -= u;
				d[g[e].to + 1] += u;
			}
		if (sg)
			sg[nsg++] = (struct alloc_seg){ b ? b->gdef : from, to, b ? k : ALLOC_NONE, over, size };
	}
	int64_t cur = 0, peak = 0;
	for (uint32_t s = 0; s < steps; s++) {
		cur += d[s];
		peak = cur > peak ? cur : peak;
	}
	struct alloc_heap_size h = { size_mul((uint64_t)peak, UINT64_C(1) << shift), 0 };
	free(d);
	free(taken);
	bool placed = false;
	if (sg) {
		sg = alloc_seg_sort(sg, nsg, steps);
		h.placed = alloc_place(sg, nsg, mm->nbuffers, &placed);
	}
	/* Never below the peak: rounding the peak's units up can pass a
	 * placing that fits the values exactly. */
	if (!placed || h.placed < h.live)
		h.placed = h.live;
	free(sg);
	return h;
}

/* One allocation's working tables, each indexed as its comment says. */
struct alloc_work {
	struct alloc_host *hosts;   /* outputs and donated arguments: nh */
	struct alloc_temp *cand;    /* temporaries that may borrow one: nc */
	uint8_t *in_heap;           /* by buffer id: a temporary in the heap (nt of them) */
	uint32_t *root;             /* by buffer id: the buffer its memory value ends up in */
	struct alloc_order order;
	uint32_t nh, nc, nt;
	uint64_t max;               /* largest heap value, rounded to the heap's alignment */
};

void alloc_tables_grow(struct alloc_tables *t, size_t cap, struct prefault *pf, unsigned k0, unsigned g)
{
	t->cand = xreallocarray(t->cand, cap, sizeof *t->cand);
	t->in_heap = xreallocarray(t->in_heap, cap, 1);
	t->cap = cap;
	prefault_set(pf, k0, g, t->cand, sizeof *t->cand, cap);
	prefault_set(pf, k0 + 1, g, t->in_heap, 1, cap);
}

/* A run's tables for n buffers: t's when it has them all and room for n
 * (t is emptied either way), else new ones. */
static void alloc_work_init(struct alloc_work *x, uint32_t n, struct alloc_tables *t)
{
	bool given = t && t->cap >= n && t->cand && t->in_heap && t->root;
	*x = (struct alloc_work){ .hosts = xcalloc(n, sizeof *x->hosts) };
	if (given) {
		x->cand = t->cand;
		x->in_heap = memset(t->in_heap, 0, n);
		x->root = t->root;
	} else {
		if (t) {
			free(t->cand);
			free(t->in_heap);
			free(t->root);
		}
		x->cand = xmalloc(n * sizeof *x->cand);
		x->in_heap = xcalloc(n, 1);
		x->root = xmalloc(n * sizeof *x->root);
	}
	if (t)
		*t = (struct alloc_tables){ 0 };
}

/* The parts a device value belongs to, in one pass over the buffers (the
 * table is far larger than the caches on a large module): arguments,
 * outputs and constants summed, outputs and donated arguments made hosts,
 * the rest in the heap and, but for a value written by another execution
 * thread, candidates to borrow a host.  Such a value (an async start with
 * async_execution_thread other than "main", TPU7x's SparseCore
 * collectives) stays in the heap: no buffer assignment in corpora/xla puts
 * one in an output or donated allocation.  A root is id unless merged; an
 * operand's buffer is made before its user's, so one pass in id order
 * resolves every chain. */
static void alloc_sort_out(const struct mem_model *mm, bool max_size, const struct alloc_whatif *w,
			   struct alloc_parts *p, struct alloc_work *x)
{
	uint64_t align = target_heap_align(mm->target);
	for (uint32_t k = 0; k < mm->nbuffers; k++) {
		const struct mem_buffer *b = &mm->buffers[k];
		x->root[k] = b->shares < k ? x->root[b->shares] : k;
		if (!alloc_is_device(b) || (w && w->b == b))
			continue;
		uint64_t v = alloc_size(b, max_size);
		bool output = alloc_is_output(b);
		if (output || (b->param >= 0 && (b->flags & MEM_BUF_ALIASED)))
			alloc_host_init(mm, &x->order, b, max_size, &x->hosts[x->nh++]);
		if (b->param >= 0) {
			p->arguments = size_add(p->arguments, v);
		} else if (output) {
			p->outputs = size_add(p->outputs, v);
		} else if (b->flags & MEM_BUF_CONSTANT) {
			p->constants = size_add(p->constants, v);
		} else if (v) {
			uint64_t rounded = size_round_up(v, align);
			x->in_heap[k] = 1;
			x->nt++;
			x->max = rounded > x->max ? rounded : x->max;
			if (!(b->flags & MEM_BUF_SIDE_THREAD))
				x->cand[x->nc++] = (struct alloc_temp){ v, alloc_order_of(&x->order, b->def), k };
		}
	}
}

/* The temporaries x->cand[0..n) in order, largest first, each borrowing
 * a host if one is free: a size at a time when there are few, else after
 * a sort (size 0: any). */
static void alloc_borrow_all(const struct mem_model *mm, struct alloc_work *x, uint32_t n, struct alloc_parts *p)
{
	uint64_t size[ALLOC_SIZES];
	/* Tests: HLO_ALLOC_SORT=1 always sorts (the two orders must agree),
	 * HLO_ALLOC_TRACE=1 says which one each packing took. */
	uint32_t ns = getenv("HLO_ALLOC_SORT") ? 0 : alloc_few_sizes(x->cand, n, size);
	if (getenv("HLO_ALLOC_TRACE"))
		fprintf(stderr, "hlolint: alloc: %u temporaries, %s\n", n, ns ? "a size at a time" : "sorted");
	if (!ns) {
		alloc_temp_sort(x->cand, n);
		size[ns++] = 0;
	}
	for (uint32_t s = 0; s < ns; s++)
		for (uint32_t k = 0; k < n; k++) {
			const struct alloc_temp *t = &x->cand[k];
			/* Trying hosts reads the temporary's live range from its
			 * buffer: sorted, the temporaries go by size, their buffers
			 * all over the table. */
			if (k + ALLOC_AHEAD < n && (!size[s] || t[ALLOC_AHEAD].bytes == size[s]))
				__builtin_prefetch(&mm->buffers[t[ALLOC_AHEAD].id]);
			if (size[s] && t->bytes != size[s])
				continue;
			if (alloc_borrow(mm, x->root, x->hosts, x->nh, t)) {
				p->reused = size_add(p->reused, t->bytes);
				x->in_heap[t->id] = 0;
			}
		}
}

/* The temporaries that fit in a host, largest first, borrow one (those
 * that do leave the heap); the rest are the heap. */
static void alloc_run(const struct mem_model *mm, bool max_size, const struct alloc_whatif *w,
		      struct alloc_tables *t, struct alloc_parts *p)
{
	memset(p, 0, sizeof *p);
	uint32_t n = mm->nbuffers ? mm->nbuffers : 1, fit = 0;
	struct alloc_work x;
	alloc_work_init(&x, n, t);
	alloc_order_init(&x.order, mm);
	alloc_sort_out(mm, max_size, w, p, &x);
	qsort(x.hosts, x.nh, sizeof *x.hosts, alloc_host_cmp);
	uint64_t roomiest = x.nh ? x.hosts[x.nh - 1].bytes : 0;   /* hosts are sorted smallest first */
	for (uint32_t k = 0; k < x.nc; k++)
		if (x.cand[k].bytes <= roomiest)
			x.cand[fit++] = x.cand[k];
	alloc_borrow_all(mm, &x, fit, p);
	free(x.cand);
	free(x.root);
	struct alloc_heap_size h = alloc_heap(mm, x.in_heap, x.nt, x.max, max_size, w);
	p->heap = h.placed;
	p->heap_live = h.live;
	for (uint32_t k = 0; k < x.nh; k++)
		free(x.hosts[k].run);
	free(x.hosts);
	free(x.in_heap);
	alloc_order_free(&x.order);
}

static uint64_t alloc_total(const struct alloc_parts *p, uint64_t extra)
{
	return size_add(size_add(size_add(p->arguments, p->outputs), size_add(p->constants, p->heap)), extra);
}

void alloc_pack(struct mem_model *mm, struct alloc_tables *given)
{
	struct alloc_parts p, q;
	alloc_run(mm, false, NULL, given, &p);
	/* Output leaves that are not values of their own here (the same value
	 * twice, an argument returned undonated, the ROOT's index table) are
	 * allocations all the same: mem.c counted them in output_bytes. */
	uint64_t extra = size_sub(size_sub(mm->output_bytes, mm->alias_bytes), p.outputs);
	mm->heap_bytes = p.heap;
	mm->heap_live_bytes = p.heap_live;
	mm->total_live_bytes = size_add(size_sub(alloc_total(&p, extra), p.heap), p.heap_live);
	mm->reused_bytes = p.reused;
	mm->constant_bytes = p.constants;
	mm->total_bytes = mm->total_bytes_max = alloc_total(&p, extra);
	if (mm->peak_bytes_max > mm->peak_bytes || mm->output_bytes_max > mm->output_bytes) {
		alloc_run(mm, true, NULL, NULL, &q);
		uint64_t t = alloc_total(&q, size_sub(size_sub(mm->output_bytes_max, mm->alias_bytes_max), q.outputs));
		mm->total_bytes_max = t > mm->total_bytes ? t : mm->total_bytes;
	}
}

uint64_t alloc_total_whatif(const struct mem_model *mm, const struct alloc_whatif *w)
{
	struct alloc_parts p;
	alloc_run(mm, false, w, NULL, &p);
	/* An output leaf held by w->b leaves the device's outputs (a donated
	 * argument's leaf is in alias_bytes as well: no change there). */
	uint64_t out = mm->output_bytes, alias = mm->alias_bytes;
	if (alloc_is_device(w->b) && (w->b->flags & MEM_BUF_OUTPUT)) {
		out = size_sub(out, w->b->bytes);
		if (w->b->param >= 0 && (w->b->flags & MEM_BUF_ALIASED))
			alias = size_sub(alias, w->b->bytes);
	}
	uint64_t t = alloc_total(&p, size_sub(size_sub(out, alias), p.outputs));
	return size_add(size_sub(t, p.heap), p.heap_live);
}
