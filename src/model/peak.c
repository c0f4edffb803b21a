/* peak.c - the buffers live at the estimated peak, rebuilt from what mem.h
 * exposes: peak_at, each buffer's owner and live range, the callers of a
 * computation.  It follows one call chain (the first analysed caller of
 * each computation), as mem.c analyses a computation once. */
#include "peak.h"
#include "size.h"
#include <stdlib.h>
#include <string.h>

/* One program point of the chain: position pos of computation c. */
struct peak_point {
	const struct hlo_comp *c;
	uint32_t pos;
};

static bool peak_calls_into(const struct hlo_instr *i)
{
	return i->op == OP_WHILE || i->op == OP_CONDITIONAL || i->op == OP_CALL;
}

void peak_build(struct mem_model *mm, struct arena *a)
{
	struct peak_set *p = arena_alloc(a, sizeof *p);
	p->mm = mm;
	p->live = arena_array(a, mm->nbuffers ? mm->nbuffers : 1, 1);
	mm->peak = p;
	const struct hlo_module *m = mm->module;
	if (!mm->peak_at || !m->ncomps)
		return;
	/* Computations the model analysed: the entry and what it reaches
	 * through while, conditional and call. */
	uint8_t *analysed = xcalloc(m->ncomps, 1);
	uint32_t *queue = xmalloc(m->ncomps * sizeof *queue);
	uint32_t head = 0, tail = 0;
	if (m->entry) {
		analysed[m->entry->index] = 1;
		queue[tail++] = m->entry->index;
	}
	while (head < tail) {
		const struct hlo_comp *c = m->comps[queue[head++]];
		for (uint32_t k = 0; k < c->ninstrs; k++) {
			const struct hlo_instr *i = c->instrs[k];
			if (!peak_calls_into(i))
				continue;
			for (uint32_t j = 0; j < i->ncallees; j++) {
				uint32_t d = ir_callees(i)[j]->index;
				if (d < m->ncomps && !analysed[d]) {
					analysed[d] = 1;
					queue[tail++] = d;
				}
			}
		}
	}
	free(queue);
	uint32_t cap = 8, n = 0;
	struct peak_point *chain = xmalloc(cap * sizeof *chain);
	const struct hlo_instr *at = mm->peak_at;
	while (at && n <= m->ncomps) {
		if (n == cap) {
			cap *= 2;
			chain = xreallocarray(chain, cap, sizeof *chain);
		}
		const struct hlo_comp *c = at->comp;
		chain[n].c = c;
		chain[n++].pos = at->index;
		if (c == m->entry)
			break;
		const struct hlo_instr *up = NULL;
		for (uint32_t k = 0; k < c->ncallers && !up; k++) {
			const struct hlo_instr *x = ir_comp_caller(c, k);
			if (peak_calls_into(x) && x->comp && analysed[x->comp->index])
				up = x;
		}
		at = up;
	}
	for (uint32_t b = 0; b < mm->nbuffers; b++) {
		const struct mem_buffer *bf = &mm->buffers[b];
		if ((bf->flags & MEM_BUF_MERGED) || mem_space_class(bf->memory_space) != MEM_SPACE_DEVICE)
			continue;
		for (uint32_t k = 0; k < n; k++) {
			if (chain[k].c != mem_buffer_owner(bf))
				continue;
			uint32_t len = mem_buffer_owner(bf)->ninstrs;
			uint32_t to = bf->last_pos < len ? bf->last_pos : (len ? len - 1 : 0);
			if (bf->def_pos > to)
				to = bf->def_pos;
			if (bf->def_pos <= chain[k].pos && chain[k].pos <= to) {
				p->live[b] = 1;
				p->live_bytes = size_add(p->live_bytes, bf->bytes);
				p->nlive++;
			}
			break;
		}
	}
	free(chain);
	free(analysed);
}

void peak_init(struct peak_set *p, const struct mem_model *mm)
{
	*p = *mm->peak;
}

void peak_free(struct peak_set *p)
{
	memset(p, 0, sizeof *p);
}

bool peak_live(const struct peak_set *p, const struct mem_buffer *b)
{
	return b && p->live && b >= p->mm->buffers && b < p->mm->buffers + p->mm->nbuffers &&
	       p->live[b - p->mm->buffers];
}

static int peak_cmp(const void *pa, const void *pb)
{
	const struct mem_buffer *a = *(const struct mem_buffer *const *)pa, *b = *(const struct mem_buffer *const *)pb;
	if (a->bytes != b->bytes)
		return a->bytes > b->bytes ? -1 : 1;
	return a < b ? -1 : a > b;   /* one array: definition order */
}

uint32_t peak_top(const struct peak_set *p, const struct mem_buffer **out, uint32_t n)
{
	const struct mem_model *mm = p->mm;
	uint32_t k = 0;
	if (!n || n >= p->nlive) {
		for (uint32_t b = 0; b < mm->nbuffers; b++)
			if (p->live[b])
				out[k++] = &mm->buffers[b];
		qsort(out, k, sizeof *out, peak_cmp);
		return k;
	}
	/* Top n by insertion: most buffers fail the first comparison. */
	for (uint32_t b = 0; b < mm->nbuffers; b++) {
		if (!p->live[b])
			continue;
		const struct mem_buffer *bf = &mm->buffers[b];
		if (k == n && peak_cmp(&bf, &out[k - 1]) >= 0)
			continue;
		uint32_t at = k < n ? k++ : n - 1;
		while (at > 0 && peak_cmp(&bf, &out[at - 1]) < 0) {
			out[at] = out[at - 1];
			at--;
		}
		out[at] = bf;
	}
	return k;
}
