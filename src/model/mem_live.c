/* mem_live.c - the memory model's liveness: the entry's parameters,
 * donation and outputs, in-place merges, one linear sweep per analysed
 * computation with callee peaks added at call sites, the flattened
 * timeline and the totals.  Buffers and aliasing are mem.c's. */
#include "mem_int.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "alloc.h"
#include "sharding.h"

/* ---- Entry: parameters, donation, outputs ---- */

static const struct hlo_shape *mem_ecl_param(struct mem_ctx *x, int64_t n, uint32_t j)
{
	if (!x->has_ecl || n < 0 || (uint64_t)n >= x->ecl.nparams || !x->ecl.params[n])
		return NULL;
	return alias_leaf_shape(&x->al, x->ecl.params[n], j);
}

void mem_entry_params(struct mem_ctx *x, struct hlo_comp *c)
{
	for (uint32_t n = 0; n < c->nparams; n++) {
		struct hlo_instr *p = c->params[n];
		if (!p)
			continue;
		uint32_t base = mem_leaf_id(x, p, 0), nl = mem_nleaves_of(x, p);
		const int64_t **splits = xcalloc(nl ? nl : 1, sizeof *splits);
		if (x->leaf_split)
			mem_splits_for(x, p, nl, splits);
		for (uint32_t j = 0; j < nl; j++) {
			const struct hlo_shape *s = alias_leaf_shape(&x->al, p->shape, j);
			if (!mem_is_data(s))
				continue;
			uint32_t b = mem_new_buffer(x, p, 0, j, s, splits[j]);
			if (x->leaf_split)
				x->leaf_split[base + j] = splits[j];
			x->bufs[b].param = (int32_t)n;
			mem_make_global(x, b);
			/* entry_computation_layout is what the runtime allocates:
			 * its memory space wins (host-offloaded arguments). */
			const struct hlo_shape *e = mem_ecl_param(x, (int64_t)n, j);
			if (e && e->layout)
				mem_set_space(x->in, &x->bufs[b], e->layout->memory_space);
			x->leaf_buf[base + j] = b;
		}
		free(splits);
	}
}

/* Output leaf j of the entry is written into parameter buffer b: the
 * instruction that defines it marks where the parameter's value ends. */
static void mem_alias_output(struct mem_ctx *x, struct hlo_comp *c, uint32_t j, uint32_t b)
{
	const struct hlo_instr *d;
	uint32_t dj;
	mem_colocate(x, c, j, b);
	if (c->root && mem_definer(x, c->root, j, &d, &dj) && d->comp == c && d->op != OP_PARAMETER) {
		x->bufs[b].hole_to = d->index;
		x->bufs[b].writer = d;
	}
}

/* Donated parameter leaves [pf, pf+n) of parameter `param` share output
 * leaves [of, of+n): the outputs are written into the parameters' buffers. */
static void mem_donate(struct mem_ctx *x, struct hlo_comp *c, int64_t param, uint32_t pf, uint32_t of, uint32_t n)
{
	struct hlo_instr *p = c->params[param];
	uint32_t pl = mem_leaf_id(x, p, 0);
	for (uint32_t j = 0; j < n; j++) {
		uint32_t b = x->leaf_buf[pl + pf + j];
		if (b == NONE)
			continue;
		x->bufs[b].flags |= MEM_BUF_DONATED | MEM_BUF_ALIASED;
		mem_alias_output(x, c, of + j, b);
	}
}

void mem_entry_aliasing(struct mem_ctx *x, struct hlo_comp *c)
{
	if (!c->root)
		return;
	uint32_t nout = mem_nleaves_of(x, c->root);
	uint8_t *taken = xcalloc(nout ? nout : 1, 1);
	struct arena_mark mk = arena_mark(&x->scratch);
	struct flow_io *io;
	uint32_t nio = flow_io_pairs(&x->al, x->m, &x->scratch, &io);
	for (uint32_t k = 0; k < nio; k++) {
		mem_donate(x, c, io[k].param, io[k].param_leaf, io[k].output, io[k].n);
		for (uint32_t j = 0; j < io[k].n; j++)
			taken[io[k].output + j] = 1;
	}
	/* buffer_donor={(p, {i})}: the compiler may write any output of the
	 * same shape into it; pair each donor with the first free such output. */
	const struct hlo_attr *at = ir_module_attr(x->m, ATTR_BUFFER_DONOR);
	struct hlo_value *v = at ? attr_parse(x->f, at, &x->scratch, NULL) : NULL;
	struct hlo_aliases al;
	if (v && attr_buffer_donors(v, &x->scratch, &al, NULL)) {
		for (uint32_t k = 0; k < al.n; k++) {
			const struct hlo_alias *e = &al.items[k];
			uint32_t pf, pn;
			if (e->number < 0 || (uint64_t)e->number >= c->nparams || !c->params[e->number])
				continue;
			struct hlo_instr *p = c->params[e->number];
			if (!alias_path_leaves(&x->al, p->shape, &e->index, &pf, &pn))
				continue;
			uint32_t pl = mem_leaf_id(x, p, 0);
			for (uint32_t j = 0; j < pn; j++) {
				uint32_t b = x->leaf_buf[pl + pf + j];
				if (b == NONE)
					continue;
				x->bufs[b].flags |= MEM_BUF_DONATED;
				const struct hlo_shape *ps = alias_leaf_shape(&x->al, p->shape, pf + j);
				for (uint32_t o = 0; o < nout; o++) {
					if (taken[o])
						continue;
					const struct hlo_shape *os = alias_leaf_shape(&x->al, c->root->shape, o);
					if (os && ps && ir_shape_equal(os, ps, false) &&
					    (!os->layout || !ps->layout ||
					     os->layout->memory_space == ps->layout->memory_space)) {
						taken[o] = 1;
						x->bufs[b].flags |= MEM_BUF_ALIASED;
						mem_alias_output(x, c, o, b);
						break;
					}
				}
			}
		}
	}
	arena_release(&x->scratch, mk);
	free(taken);
}

/* ---- Finishing a computation: outputs, in-place updates, the sweep ---- */

static void mem_finish_entry(struct mem_ctx *x, struct hlo_comp *c)
{
	uint32_t last = c->ninstrs ? c->ninstrs - 1 : 0;
	if (c->root) {
		uint32_t l = mem_leaf_id(x, c->root, 0), n = mem_nleaves_of(x, c->root);
		const struct hlo_shape *res = x->has_ecl ? x->ecl.result : NULL;
		for (uint32_t j = 0; j < n; j++) {
			uint32_t b = x->leaf_buf[l + j];
			if (b == NONE)
				continue;
			struct mem_buffer *bf = &x->bufs[b];
			bf->flags |= MEM_BUF_OUTPUT | MEM_BUF_ROOT;
			if (mem_buffer_owner(bf) == c)
				bf->last_pos = last;
			/* The runtime allocates outputs where entry_computation_layout
			 * says; only a non-default space is taken, so an output leaf
			 * sharing a buffer with a device one (before copy insertion)
			 * is not moved back. */
			const struct hlo_shape *e = res ? alias_leaf_shape(&x->al, res, j) : NULL;
			if (e && e->layout && e->layout->memory_space && bf->param < 0)
				mem_set_space(x->in, bf, e->layout->memory_space);
		}
	}
	/* Arguments (unless donated and not returned) and constants live for
	 * the whole program. */
	for (uint32_t k = 0; k < x->nglobals; k++) {
		struct mem_buffer *bf = &x->bufs[x->globals[k]];
		bf->def_pos = 0;
		if (bf->param >= 0 && (bf->flags & MEM_BUF_DONATED) && !(bf->flags & (MEM_BUF_ALIASED | MEM_BUF_OUTPUT)))
			bf->flags &= (uint16_t)~MEM_BUF_GLOBAL;
		else
			bf->last_pos = last;
	}
}

/* In-place updates (dynamic-update-slice, scatter, fusions rooted in
 * them): the result takes over the operand's buffer when the update is the
 * operand's last use, as XLA's buffer assignment shares them. */
static void mem_merge(struct mem_ctx *x, struct hlo_comp *c, const struct mem_frame *fr)
{
	for (uint32_t k = fr->cand_start; k < x->ncands; k++) {
		const struct mem_cand *cd = &x->cands[k];
		/* The operand's one leaf is op_leaf: it defined the buffer when
		 * the buffer's own leaf is that one.  XLA's heap shares only
		 * such an operand; an entry output may be written over one
		 * reached through an alias (an async -done, get-tuple-element),
		 * as the total lets an output's allocation touch it (alloc.c,
		 * alloc_in_place; corpora/xla donation/no_donation/h100). */
		uint32_t ob = x->leaf_buf[cd->op_leaf];
		uint32_t bo = x->leaf_buf[cd->out_leaf], bi = ob;
		if (bo == NONE || bi == NONE)
			continue;
		if (cd->direct && mem_leaf_id(x, x->bufs[ob].def, x->bufs[ob].leaf) != cd->op_leaf &&
		    !(x->bufs[bo].flags & MEM_BUF_ROOT))
			continue;
		bi = mem_find(x, bi);
		struct mem_buffer *out = &x->bufs[bo], *in = &x->bufs[bi];
		if (bo == bi || mem_buffer_owner(out) != c || mem_buffer_owner(in) != c || out->def_pos != cd->pos ||
		    out->def != c->instrs[cd->pos] || (out->flags & MEM_BUF_MERGED))
			continue;
		if (in->last_pos != cd->pos || in->param >= 0 || (in->flags & MEM_BUF_GLOBAL) ||
		    in->bytes != out->bytes || in->memory_space != out->memory_space)
			continue;
		if (in->hole_to == NONE && !(in->flags & MEM_BUF_ALIASED))
			in->hole_to = in->last_pos;   /* its own value ends here (mem_globalize) */
		in->last_pos = out->last_pos;
		in->flags |= out->flags & (MEM_BUF_OUTPUT | MEM_BUF_CARRIED);
		out->flags |= MEM_BUF_MERGED;
		out->shares = x->leaf_buf[cd->op_leaf];
		x->fwd[bo] = bi;
	}
	x->ncands = fr->cand_start;
}

static bool mem_is_temp(const struct mem_buffer *b)
{
	return b->param < 0 && !(b->flags & MEM_BUF_OUTPUT);
}

/* Peak of the callees at a call site: the loop body or condition, the
 * largest branch. */
static void mem_site_peak(struct mem_ctx *x, const struct hlo_instr *i, struct mem_peak *out)
{
	struct flow_callees cl;
	flow_callees_of(i, false, &cl);
	memset(out, 0, sizeof *out);
	uint32_t nc = flow_callee_count(i, &cl);
	for (uint32_t k = 0; k < nc; k++) {
		struct hlo_comp *callee;
		int32_t operand;
		bool colocate;
		flow_callee_at(&cl, k, &callee, &operand, &colocate);
		const struct mem_comp *cs = mem_comp_of(x->in, callee);
		if (cs->state != MEM_DONE)
			continue;
		const struct mem_peak *p = &cs->peak;
		if (p->dev > out->dev || !out->at) {
			out->dev = p->dev;
			out->unpadded = p->unpadded;
			out->at = p->at;
		}
		if (p->dev_max > out->dev_max)
			out->dev_max = p->dev_max;
		if (p->temp > out->temp)
			out->temp = p->temp;
		if (p->host > out->host)
			out->host = p->host;
		if (p->uhost > out->uhost)
			out->uhost = p->uhost;
		if (p->other > out->other)
			out->other = p->other;
	}
}

/* The figures of a computation's peak, swept one at a time so that the
 * difference array is one int64 per step (a large entry has ~10^5 steps). */
enum mem_figure { D_DEV, D_MAX, D_UNP, D_TEMP, D_HOST, D_UHOST, D_OTHER, D_N };

static uint64_t *mem_peak_figure(struct mem_peak *p, enum mem_figure k)
{
	uint64_t *f[D_N] = { &p->dev, &p->dev_max, &p->unpadded, &p->temp, &p->host, &p->uhost, &p->other };
	return f[k];
}

/* What buffer bf adds to figure k while it lives. */
static uint64_t mem_figure_of(const struct mem_buffer *bf, enum mem_figure k)
{
	switch (mem_space_class(bf->memory_space)) {
	case MEM_SPACE_DEVICE:
		if (k == D_TEMP)
			return mem_is_temp(bf) ? bf->bytes : 0;
		return k == D_DEV ? bf->bytes : k == D_MAX ? bf->bytes_max : k == D_UNP ? bf->unpadded : 0;
	case MEM_SPACE_HOST:
		/* XLA's memory_analysis() counts S(5) alone as host; S(6) apart. */
		return k == (bf->memory_space == IR_SPACE_PINNED_HOST ? D_HOST : D_UHOST) ? bf->bytes : 0;
	default:
		return k == D_OTHER ? bf->bytes : 0;
	}
}

/* The sweep adds buffer sizes into an int64 difference array, in the
 * units of size_unit_shift (a target's default tiling can pad a buffer
 * past int64 on its own), from the bound and count mem_new_buffer kept:
 * no walk over the buffers for them. */
static uint32_t mem_sweep_shift(const struct mem_comp *cs)
{
	return size_unit_shift(cs->owned_max, (uint64_t)cs->nowned + 1);
}

/* One computation's sweep.  The walks over its buffers miss the caches
 * on a large module, so they are spared where they would add nothing:
 * own and sites say which figures the computation's buffers and its call
 * sites add to (most modules have no host or other memory), and the
 * device-bound curve is the device curve when no buffer's bound differs
 * (MEM_MAX_DIFFERS).  The unpadded figure is wanted at the device peak's
 * step only: its units there are summed during a later walk. */
#define MEM_MAX_DIFFERS (1u << D_N)

struct mem_sweep {
	uint32_t sh;             /* size_unit_shift of the buffers */
	uint32_t top;            /* step of the device peak, NONE until known */
	uint32_t top_site;       /* index of its call site, NONE when it is none */
	unsigned own, sites;     /* 1 << figure: what the buffers, the call sites add to */
	bool unp_done;           /* unp_top is summed */
	int64_t unp_top;         /* unpadded units of the buffers live at top */
	const uint32_t *site;    /* call-site steps, ascending, nsite of them */
	struct mem_peak *peak;   /* the callees' peak at each */
	uint32_t nsite;
};

/* Whether instruction i writes its result over a value of bytes that
 * dies at it (XLA's in-place sharing, which the total lets touch at that
 * step): the last read of a donated parameter, or the output's writer over
 * a temporary. */
static bool mem_touches(struct mem_ctx *x, const struct hlo_instr *i, const struct mem_buffer *bf, bool writer)
{
	if (!i || !x->mm->shares_in_place || !flow_shares_operand(i) || mem_nleaves_of(x, i) != 1)
		return false;
	if (!writer) {
		uint32_t r = x->leaf_buf[mem_leaf_id(x, i, 0)];
		return r != NONE && x->bufs[r].bytes == bf->bytes && x->bufs[r].memory_space == bf->memory_space;
	}
	for (uint32_t k = 0; k < i->noperands; k++) {
		const struct hlo_instr *op = ir_operands(i)[k].instr;
		if (!op || mem_nleaves_of(x, op) != 1 || x->leaf_buf[mem_leaf_id(x, op, 0)] == NONE)
			continue;
		const struct mem_buffer *o = &x->bufs[mem_find(x, x->leaf_buf[mem_leaf_id(x, op, 0)])];
		if (o != bf && o->last_pos == i->index && o->bytes == bf->bytes && o->memory_space == bf->memory_space)
			return true;
	}
	return false;
}

/* The loop carries of c, when c is the body of its one while, whose
 * buffer holds nothing for a stretch of c: after the carry's last read
 * and before the instruction writing the body's new value (not a call or
 * a loop: those write inside their callees), on positions of c.  XLA's
 * buffer assignment gives that stretch to other values (corpora/xla
 * debug_print/tpu-v5p: the body's convert.5 in the output's allocation).
 * Into x->cgaps (x->ncgaps of them, writer set); one pass over c. */
static void mem_carry_gaps(struct mem_ctx *x, const struct hlo_comp *c)
{
	x->ncgaps = 0;
	if (ir_comp_ncallers(c) != 1 || c->nparams < 1 || !c->params[0] || !c->root)
		return;
	const struct hlo_instr *w = ir_comp_caller(c, 0);
	if (w->op != OP_WHILE || ir_callee(w, ATTR_BODY) != c)
		return;
	const struct hlo_instr *p = c->params[0];
	uint32_t nl = mem_nleaves_of(x, p);
	if (nl != mem_nleaves_of(x, c->root))
		return;
	if (x->capmark < x->capbufs) {
		x->carry_mark = xreallocarray(x->carry_mark, x->capbufs, sizeof *x->carry_mark);
		memset(x->carry_mark + x->capmark, 0xff, (size_t)(x->capbufs - x->capmark) * sizeof *x->carry_mark);
		x->capmark = x->capbufs;
	}
	uint32_t pl = mem_leaf_id(x, p, 0);
	for (uint32_t j = 0; j < nl; j++) {
		const struct hlo_instr *d;
		uint32_t dj, b = x->leaf_buf[pl + j];
		if (b == NONE || b >= x->capmark || x->carry_mark[b] != NONE || !mem_definer(x, c->root, j, &d, &dj) ||
		    d->comp != c || x->leaf_buf[mem_leaf_id(x, d, dj)] != b)
			continue;
		struct flow_callees cl;
		flow_callees_of(d, false, &cl);
		if (flow_callee_count(d, &cl))
			continue;
		MEM_GROW(x->cgaps, x->ncgaps, x->capcgaps, 8);
		x->carry_mark[b] = x->ncgaps;
		x->cgaps[x->ncgaps++] = (struct mem_gap){ b, 0, d->index, d };
	}
	/* from: one past the last read so far; a read at or after the writer
	 * leaves no gap.  A get-tuple-element, tuple or bitcast reads nothing:
	 * its users read what it forwards (flow_pure). */
	for (uint32_t k = 0; k < c->ninstrs && x->ncgaps; k++) {
		const struct hlo_instr *i = c->instrs[k];
		if (flow_pure(&x->al, i))
			continue;
		for (uint32_t o = 0; o < i->noperands; o++) {
			const struct hlo_instr *op = ir_operands(i)[o].instr;
			if (!op)
				continue;
			uint32_t l = mem_leaf_id(x, op, 0), n = mem_nleaves_of(x, op);
			for (uint32_t j = 0; j < n; j++) {
				uint32_t b = x->leaf_buf[l + j];
				if (b != NONE && b < x->capmark && x->carry_mark[b] != NONE &&
				    k + 1 > x->cgaps[x->carry_mark[b]].from)
					x->cgaps[x->carry_mark[b]].from = k + 1;
			}
		}
	}
	uint32_t kept = 0;
	for (uint32_t g = 0; g < x->ncgaps; g++) {
		struct mem_gap gp = x->cgaps[g];
		x->carry_mark[gp.buf] = NONE;
		if (gp.from > 0 && gp.from < gp.to)
			x->cgaps[kept++] = (struct mem_gap){ gp.buf, gp.from, gp.to - 1, gp.writer };
	}
	x->ncgaps = kept;
}

/* Whether bf, live over [from, to] of the entry, is a donated parameter
 * whose allocation is empty over some steps: between its last read
 * (hole_from, before mem_globalize) and the output's writer (hole_to),
 * and at either end where a result is written over a value dying there.
 * The empty steps in [*lo, *hi]. */
static bool mem_aliased_hole(struct mem_ctx *x, const struct mem_buffer *bf, uint32_t from, uint32_t to,
			     uint32_t *lo, uint32_t *hi)
{
	if (!(bf->flags & MEM_BUF_ALIASED) || bf->hole_to == NONE || from > bf->hole_from || bf->hole_to > to ||
	    bf->hole_from >= bf->hole_to)
		return false;
	const struct hlo_comp *c = bf->def->comp;
	*lo = bf->hole_from + 1;
	*hi = bf->hole_to - 1;
	if (bf->hole_from > from && mem_touches(x, c->instrs[bf->hole_from], bf, false))
		*lo = bf->hole_from;
	if (mem_touches(x, bf->writer, bf, true))
		*hi = bf->hole_to;
	return *lo <= *hi;
}

/* Figure k of c's buffers at every step into x->delta[0..n), their live
 * ranges summed with a difference array (the first walk also learns
 * sw->own; a walk after the device peak is known sums sw->unp_top). */
static void mem_curve(struct mem_ctx *x, const struct hlo_comp *c, const struct mem_comp *cs,
	enum mem_figure k, struct mem_sweep *sw)
{
	uint32_t n = c->ninstrs, top = sw->unp_done ? NONE : sw->top;
	int64_t *d = x->delta, unp = 0;
	memset(d, 0, ((size_t)n + 1) * sizeof *d);
	struct mem_owned_walk w;
	for (uint32_t b = mem_owned_first(x, cs->owned, &w); b != NONE; b = mem_owned_next(x, &w)) {
		const struct mem_buffer *bf = &x->bufs[b];
		if (bf->flags & MEM_BUF_MERGED)
			continue;
		uint32_t from = bf->def_pos, to = bf->last_pos < n ? bf->last_pos : n - 1;
		if (from > to)
			to = from;
		for (enum mem_figure j = D_DEV; j < D_N && k == D_DEV; j++)
			sw->own |= (unsigned)(mem_figure_of(bf, j) != 0) << j;
		if (k == D_DEV && bf->bytes_max != bf->bytes &&
		    mem_space_class(bf->memory_space) == MEM_SPACE_DEVICE)
			sw->own |= MEM_MAX_DIFFERS;
		uint32_t lo, hi;
		bool hole = mem_aliased_hole(x, bf, from, to, &lo, &hi);
		if (from <= top && top <= to && !(hole && lo <= top && top <= hi))
			unp += (int64_t)size_units(mem_figure_of(bf, D_UNP), sw->sh);
		uint64_t v = mem_figure_of(bf, k);
		if (!v)
			continue;
		int64_t units = (int64_t)size_units(v, sw->sh);
		d[from] += units;
		d[to + 1] -= units;
		/* A donated parameter's allocation holds nothing between its last
		 * read and the instruction that writes the output into it: the
		 * total lets temporaries live there (alloc.c), so the peak does
		 * not count it there either, and peak <= total. */
		if (hole) {
			d[lo] -= units;
			d[hi + 1] += units;
		}
	}
	/* A loop carry is counted by the while's caller over the whole call
	 * site; where its allocation holds nothing (mem_carry_gaps, found by
	 * mem_sweep), the body's own figure gives it back, as the total lets
	 * other values live there: peak <= total. */
	for (uint32_t g = 0; g < x->ncgaps; g++) {
		const struct mem_buffer *bf = &x->bufs[x->cgaps[g].buf];
		uint64_t v = mem_figure_of(bf, k), units = size_units(v, sw->sh);
		if (!v || (bf->flags & MEM_BUF_MERGED) || units > (uint64_t)INT64_MAX / 4 || x->cgaps[g].to >= n)
			continue;
		if (top != NONE && x->cgaps[g].from <= top && top <= x->cgaps[g].to)
			unp -= (int64_t)size_units(mem_figure_of(bf, D_UNP), sw->sh);
		d[x->cgaps[g].from] -= (int64_t)units;
		d[x->cgaps[g].to + 1] += (int64_t)units;
	}
	int64_t cur = 0;
	for (uint32_t p = 0; p < n; p++) {
		cur += d[p];
		d[p] = cur;
	}
	if (top != NONE) {
		sw->unp_top = unp;
		sw->unp_done = true;
	}
}

/* The callees' peak at each call site of the swept computation, once. */
static void mem_sweep_sites(struct mem_ctx *x, const struct hlo_comp *c, const struct mem_frame *fr,
	struct mem_sweep *sw)
{
	sw->nsite = x->nsites - fr->site_start;
	sw->site = sw->nsite ? x->sites + fr->site_start : NULL;   /* x->sites is NULL before a site */
	if (sw->nsite > x->capsite_peaks) {
		free(x->site_peaks);
		x->capsite_peaks = x->capsites;
		x->site_peaks = xmalloc(x->capsite_peaks * sizeof *x->site_peaks);
	}
	sw->peak = x->site_peaks;
	for (uint32_t s = 0; s < sw->nsite; s++) {
		mem_site_peak(x, c->instrs[sw->site[s]], &sw->peak[s]);
		for (enum mem_figure k = D_DEV; k < D_N; k++)
			sw->sites |= (unsigned)(*mem_peak_figure(&sw->peak[s], k) != 0) << k;
	}
}

/* Figure k's peak over c's steps from the curve in x->delta (zero when
 * own is false), the callees' peak added at call sites.  The device
 * figure also finds the peak's step (the first to reach it) and what
 * is there. */
static void mem_sweep_figure(struct mem_ctx *x, const struct hlo_comp *c, struct mem_sweep *sw,
	enum mem_figure k, bool own, struct mem_peak *pk)
{
	uint64_t *out = mem_peak_figure(pk, k);
	for (uint32_t p = 0, s = 0; p < c->ninstrs; p++) {
		int64_t cur = own ? x->delta[p] : 0;
		uint64_t v = cur > 0 ? size_mul((uint64_t)cur, UINT64_C(1) << sw->sh) : 0;
		struct mem_peak *sp = s < sw->nsite && sw->site[s] == p ? &sw->peak[s++] : NULL;
		if (sp)
			v = size_add(v, *mem_peak_figure(sp, k));
		if (k != D_DEV ? v > *out : !p || v > *out) {
			*out = v;
			if (k == D_DEV) {
				sw->top = p;
				sw->top_site = sp ? s - 1 : NONE;
				pk->at = !v ? NULL : sp && sp->dev && sp->at ? sp->at : c->instrs[p];
			}
		}
	}
}

/* The unpadded figure at the device peak's step. */
static void mem_sweep_unpadded(struct mem_ctx *x, const struct hlo_comp *c, const struct mem_comp *cs,
	struct mem_sweep *sw, struct mem_peak *pk)
{
	if (!sw->unp_done)
		mem_curve(x, c, cs, D_UNP, sw);
	uint64_t v = sw->unp_top > 0 ? size_mul((uint64_t)sw->unp_top, UINT64_C(1) << sw->sh) : 0;
	if (sw->top_site != NONE)
		v = size_add(v, sw->peak[sw->top_site].unpadded);
	pk->unpadded = v;
}

static void mem_sweep(struct mem_ctx *x, struct hlo_comp *c, const struct mem_frame *fr)
{
	uint32_t n = c->ninstrs;
	struct mem_comp *cs = mem_cs(x, c);
	struct mem_peak *pk = &cs->peak;
	memset(pk, 0, sizeof *pk);
	if (!n) {
		x->nsites = fr->site_start;
		return;
	}
	if ((size_t)n + 1 > x->capdelta) {
		free(x->delta);
		x->capdelta = n + 1;
		x->delta = xmalloc(((size_t)n + 1) * sizeof *x->delta);
	}
	struct mem_sweep sw = { .sh = mem_sweep_shift(cs), .top = NONE, .top_site = NONE };
	mem_carry_gaps(x, c);
	mem_sweep_sites(x, c, fr, &sw);
	mem_curve(x, c, cs, D_DEV, &sw);
	mem_sweep_figure(x, c, &sw, D_DEV, true, pk);
	if (sw.own & MEM_MAX_DIFFERS)
		mem_curve(x, c, cs, D_MAX, &sw);
	mem_sweep_figure(x, c, &sw, D_MAX, true, pk);   /* x->delta: the device curve otherwise */
	for (enum mem_figure k = D_TEMP; k < D_N; k++) {
		bool own = sw.own >> k & 1;
		if (own)
			mem_curve(x, c, cs, k, &sw);
		if (own || (sw.sites >> k & 1))
			mem_sweep_figure(x, c, &sw, k, own, pk);
	}
	mem_sweep_unpadded(x, c, cs, &sw, pk);
	x->nsites = fr->site_start;
}

void mem_finish(struct mem_ctx *x, struct mem_frame *fr)
{
	struct hlo_comp *c = fr->c;
	if (c == x->entry) {
		mem_finish_entry(x, c);
	} else if (c->root && c->ninstrs) {
		/* The root's own buffers live to the end of the computation. */
		uint32_t l = mem_leaf_id(x, c->root, 0), n = mem_nleaves_of(x, c->root);
		for (uint32_t j = 0; j < n; j++) {
			uint32_t b = x->leaf_buf[l + j];
			if (b != NONE && mem_buffer_owner(&x->bufs[b]) == c)
				x->bufs[b].last_pos = c->ninstrs - 1;
		}
	}
	mem_merge(x, c, fr);
	mem_sweep(x, c, fr);
	mem_cs(x, c)->state = MEM_DONE;
}

/* ---- The flattened timeline and the totals ---- */

/* Buffer bf of owner (whose entry is cs) on the flattened timeline. */
static void mem_globalize_one(struct mem_ctx *x, const struct hlo_comp *owner, const struct mem_comp *cs,
			      struct mem_buffer *bf, uint32_t end)
{
	uint32_t n = owner->ninstrs;
	uint32_t pre = bf->hole_from, split = bf->hole_to;
	bf->hole_from = 1;
	bf->hole_to = 0;
	if (!cs->gtime || !n) {
		bf->gdef = 0;
		bf->glast = end;
		return;
	}
	bf->gdef = cs->gtime[bf->def_pos < n ? bf->def_pos : n - 1];
	bf->glast = cs->gtime[bf->last_pos < n ? bf->last_pos : n - 1];
	if (bf->param < 0 && bf->writer && bf->writer->comp) {
		const struct mem_comp *ws = mem_cs(x, bf->writer->comp);
		if (ws->gtime && bf->writer->index < bf->writer->comp->ninstrs &&
		    ws->gtime[bf->writer->index] < bf->gdef)
			bf->gdef = ws->gtime[bf->writer->index];
	}
	if (bf->flags & (MEM_BUF_GLOBAL | MEM_BUF_OUTPUT)) {
		bf->glast = end;
		if (bf->flags & MEM_BUF_GLOBAL)
			bf->gdef = 0;
	}
	if (bf->glast < bf->gdef)
		bf->glast = bf->gdef;
	bf->gown = bf->glast;
	if (!(bf->flags & (MEM_BUF_ALIASED | MEM_BUF_ROOT | MEM_BUF_GLOBAL)) && split != NONE && split < n) {
		bf->gown = cs->gtime[split];
		if (bf->gown < bf->gdef)
			bf->gown = bf->gdef;
	}
	if ((bf->flags & MEM_BUF_ALIASED) && split != NONE && pre < split && split < n) {
		bf->hole_from = cs->gtime[pre] + 1;
		bf->hole_to = cs->gtime[split] - 1;
	}
}

/* b's kind, the arguments' bytes and what the rules ask of all buffers
 * (has_s5_buffer, has_donated_argument), taken in the walk over them that
 * mem_globalize makes anyway. */
static void mem_classify(struct mem_model *mm, struct mem_buffer *bf)
{
	if (bf->param >= 0 && (bf->flags & MEM_BUF_DONATED))
		mm->has_donated_argument = true;
	if (bf->flags & MEM_BUF_MERGED)
		return;
	if (bf->memory_space == IR_SPACE_PINNED_HOST)
		mm->has_s5_buffer = true;
	enum mem_space_class sc = mem_space_class(bf->memory_space);
	if (sc == MEM_SPACE_HOST)
		bf->kind = MEM_HOST;
	else if (bf->param >= 0)
		bf->kind = MEM_ARGUMENT;
	else if (bf->flags & MEM_BUF_OUTPUT)
		bf->kind = MEM_OUTPUT;
	else if (bf->flags & MEM_BUF_CONSTANT)
		bf->kind = MEM_CONSTANT;
	else if (bf->flags & MEM_BUF_CARRIED)
		bf->kind = MEM_WHILE_CARRIED;
	else
		bf->kind = MEM_TEMP;
	if (sc == MEM_SPACE_DEVICE && bf->param >= 0)
		mm->argument_bytes = size_add(mm->argument_bytes, bf->bytes);
}

/* Live ranges on the flattened timeline, for alloc.c, and each buffer's
 * kind.  Arguments, constants and outputs span it to the end, as XLA
 * reserves them.  Each computation's buffers through its list of them
 * (mem_new_buffer): the owner is then known without reading each
 * buffer's definer, which is out of the caches on a large module. */
static int mem_gap_cmp(const void *pa, const void *pb)
{
	const struct mem_gap *a = pa, *b = pb;
	if (a->buf != b->buf)
		return a->buf < b->buf ? -1 : 1;
	return a->from < b->from ? -1 : a->from > b->from;
}

/* Every loop carry's gap (mem_carry_gaps) on the flattened timeline:
 * from the step after its last read to the step before its writer. */
static void mem_globalize_gaps(struct mem_ctx *x)
{
	struct mem_gap *all = NULL;
	uint32_t n = 0, cap = 0;
	for (uint32_t ci = 0; ci < x->m->ncomps; ci++) {
		const struct mem_comp *cs = x->in->comps[ci];
		if (!cs || !cs->gtime || cs->state != MEM_DONE)
			continue;
		mem_carry_gaps(x, x->m->comps[ci]);
		for (uint32_t g = 0; g < x->ncgaps; g++) {
			const struct mem_gap *gp = &x->cgaps[g];
			uint32_t from = cs->gtime[gp->from - 1] + 1, to = cs->gtime[gp->to + 1] - 1;
			if (from > to)
				continue;
			MEM_GROW(all, n, cap, 8);
			all[n++] = (struct mem_gap){ gp->buf, from, to, gp->writer };
		}
	}
	if (n) {
		qsort(all, n, sizeof *all, mem_gap_cmp);
		x->mm->gaps = arena_array(x->a, n, sizeof *all);
		memcpy(x->mm->gaps, all, n * sizeof *all);
	}
	x->mm->ngaps = n;
	free(all);
}

void mem_globalize(struct mem_ctx *x)
{
	uint32_t end = x->clock ? x->clock - 1 : 0;
	x->mm->nsteps = x->clock;
	mem_globalize_gaps(x);
	for (uint32_t ci = 0; ci < x->m->ncomps; ci++) {
		const struct mem_comp *cs = x->in->comps[ci];
		struct mem_owned_walk w;
		for (uint32_t b = mem_owned_first(x, cs ? cs->owned : NONE, &w); b != NONE; b = mem_owned_next(x, &w)) {
			mem_globalize_one(x, x->m->comps[ci], cs, &x->bufs[b], end);
			mem_classify(x->mm, &x->bufs[b]);
		}
	}
}

/* The outputs' and aliased bytes (the arguments' are mem_globalize's). */
void mem_totals(struct mem_ctx *x)
{
	struct mem_model *mm = x->mm;
	const struct hlo_instr *root = x->entry ? x->entry->root : NULL;
	if (!root)
		return;
	/* Every leaf of the ROOT is an output allocation of its own, even the
	 * same value twice or an argument returned without donation (XLA
	 * copies them); a donated argument's buffer serves one leaf. */
	uint32_t l = mem_leaf_id(x, root, 0), n = mem_nleaves_of(x, root);
	uint8_t *aliased = xcalloc(x->nbufs ? x->nbufs : 1, 1);
	for (uint32_t j = 0; j < n; j++) {
		uint32_t b = x->leaf_buf[l + j];
		if (b == NONE)
			continue;
		b = mem_find(x, b);
		const struct mem_buffer *bf = &x->bufs[b];
		if (mem_space_class(bf->memory_space) != MEM_SPACE_DEVICE)
			continue;
		uint64_t hi = bf->bytes_max > bf->bytes ? bf->bytes_max : bf->bytes;
		mm->output_bytes = size_add(mm->output_bytes, bf->bytes);
		mm->output_bytes_max = size_add(mm->output_bytes_max, hi);
		if (bf->param >= 0 && (bf->flags & MEM_BUF_ALIASED) && !aliased[b]) {
			aliased[b] = 1;
			mm->alias_bytes = size_add(mm->alias_bytes, bf->bytes);
			mm->alias_bytes_max = size_add(mm->alias_bytes_max, hi);
		}
	}
	free(aliased);
	/* A ROOT tuple's index table is an output allocation of its own, as
	 * XLA's memory_analysis counts it (output_size_in_bytes). */
	if (root->shape && root->shape->type == PT_TUPLE) {
		uint64_t t = target_tuple_table_bytes(mm->target, root->shape->rank);
		mm->output_bytes = size_add(mm->output_bytes, t);
		mm->output_bytes_max = size_add(mm->output_bytes_max, t);
	}
}
