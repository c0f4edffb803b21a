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
		for (uint32_t k = 0; k < ir_comp_ncallers(c) && !up; k++) {
			const struct hlo_instr *x = ir_comp_caller(c, k);
			if (peak_calls_into(x) && mem_analysed(mm, x->comp))
				up = x;
		}
		at = up;
	}
	for (uint32_t b = 0; b < mm->nbuffers; b++) {
		const struct mem_buffer *bf = &mm->buffers[b];
		if ((bf->flags & MEM_BUF_MERGED) || mem_space_class(bf->memory_space) != MEM_SPACE_DEVICE)
			continue;
		/* Live at a chain point of its owner (a position in it, so the
		 * range needs no clamping to the owner's length); the owner (its
		 * definer, out of the caches on a large module) only asked of the
		 * few buffers whose range holds some point. */
		for (uint32_t k = 0; k < n; k++) {
			uint32_t pos = chain[k].pos;
			if (bf->def_pos <= pos && (pos <= bf->last_pos || pos == bf->def_pos) &&
			    chain[k].c == mem_buffer_owner(bf)) {
				p->live[b] = 1;
				p->live_bytes = size_add(p->live_bytes, bf->bytes);
				p->nlive++;
				break;
			}
		}
	}
	free(chain);
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
