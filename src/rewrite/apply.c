/* apply.c - the --apply rewrites: S(n) propagated over the (instruction,
 * leaf) positions of one buffer (XLA's aliasing from flow.h), written
 * where the front end says each leaf's layout is (value_shape_text); each
 * finding's edits recorded all or none.  It does not choose which findings
 * to apply and reads no text itself. */
#include "apply.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "attr.h"
#include "flow.h"
#include "lex.h"
#include "mem.h"
#include "value.h"
#include "sharding.h"

#define NONE UINT64_MAX

/* ---- Where shapes are written (value_shape_text) ---- */

/* The leaves of one written shape: [first, first + n) of st.leaves. */
struct apply_written {
	struct shape_text st;
	uint32_t first, n;
};

/* The leaves of the shape written at sp: a shape or "= shape", or with sig
 * parameter `param` of a signature (its result when param < 0).  False
 * when there is no such text or its leaf count is not s's. */
static bool apply_written_at(struct hlo_module *m, struct span sp, bool sig, int64_t param,
			     const struct hlo_shape *s, struct apply_written *w)
{
	memset(w, 0, sizeof *w);
	if (span_is_none(sp) || !value_shape_text(m->file, sp, sig, &w->st) || !w->st.ntops)
		return false;
	uint32_t k = w->st.ntops - 1;   /* the shape itself, or a signature's result */
	if (sig && param >= 0) {
		if ((uint64_t)param >= k)
			return false;
		k = (uint32_t)param;
	}
	w->first = k ? w->st.tops[k - 1] : 0;
	w->n = w->st.tops[k] - w->first;
	return w->n == ir_leaf_count(s);
}

/* The end of a written leaf: after its layout, else after its dims. */
static uint64_t apply_leaf_end(const struct shape_leaf_text *lf)
{
	return span_is_none(lf->layout) ? lf->dims_end : lf->layout.end;
}

/* One edit of a finding, collected before any is recorded. */
struct apply_edit {
	uint64_t start, end;        /* end == start: insertion */
	char *text;                 /* xmalloc'd */
	uint64_t key;               /* text offset identifying a layout (dedupe), or NONE */
	const struct hlo_instr *instr;  /* note target (NULL = header) */
	char *note;                 /* xmalloc'd, or NULL: no note */
};

struct apply_edits {
	struct apply_edit *v;
	uint32_t n, cap;
};

static void apply_edits_free(struct apply_edits *e)
{
	for (uint32_t k = 0; k < e->n; k++) {
		free(e->v[k].text);
		free(e->v[k].note);
	}
	free(e->v);
	memset(e, 0, sizeof *e);
}

static char *apply_strndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

static void apply_edits_add(struct apply_edits *e, uint64_t start, uint64_t end, const char *text, uint64_t key,
			    const struct hlo_instr *instr, const char *note)
{
	if (e->n == e->cap) {
		e->cap = e->cap ? e->cap * 2 : 16;
		e->v = xreallocarray(e->v, e->cap, sizeof *e->v);
	}
	struct apply_edit *x = &e->v[e->n++];
	x->start = start;
	x->end = end;
	x->text = apply_strndup(text, strlen(text));
	x->key = key;
	x->instr = instr;
	x->note = note ? apply_strndup(note, strlen(note)) : NULL;
}

/* The edit giving leaf lf memory space `space`: replaces an S(n), inserts
 * S(space) in XLA's attribute order (D T L # * E S SC P M), or writes a
 * default layout for the leaf's IR shape s.  *noop when it already has it. */
static void apply_space_text(const struct shape_leaf_text *lf, const struct hlo_shape *s, int64_t space,
			     uint64_t *start, uint64_t *end, char *buf, size_t cap, bool *noop)
{
	*noop = false;
	if (span_is_none(lf->layout)) {
		/* No layout written: the default one, major to minor. */
		size_t n = 0;
		n += (size_t)snprintf(buf + n, cap - n, "{");
		for (uint32_t d = s->rank; d-- > 0 && n < cap;)
			n += (size_t)snprintf(buf + n, cap - n, "%u%s", d, d ? "," : "");
		if (n < cap)
			snprintf(buf + n, cap - n, ":S(%lld)}", (long long)space);
		*start = *end = lf->dims_end;
		return;
	}
	uint64_t close = lf->layout.end - 1;
	snprintf(buf, cap, "%sS(%lld)", lf->colon == UINT64_MAX ? ":" : "", (long long)space);
	if (!span_is_none(lf->space)) {
		*noop = lf->space_n == space;
		*start = lf->space.start;
		*end = lf->space.end;
	} else {
		*start = *end = lf->colon != UINT64_MAX && lf->tail != UINT64_MAX ? lf->tail : close;
	}
}

/* ---- Shapes in the IR: leaves and tuple paths ---- */

/* Leaf number of the first leaf of tuple element k of s (0 when none). */
static uint32_t apply_leaf_offset(struct alias_state *al, const struct hlo_shape *s, int64_t k)
{
	uint32_t first, count;
	return k >= 0 && alias_elem_range(al, s, (uint32_t)k, &first, &count) ? first : 0;
}

/* ---- Memory space: the positions sharing one buffer ---- */

struct apply_pos {
	const struct hlo_instr *i;
	uint32_t leaf;
};

struct apply_flow {
	struct hlo_module *m;
	struct alias_state *al;
	struct apply_pos *v;        /* visited, in discovery order (the queue too) */
	uint32_t n, cap;
	uint32_t *slots;            /* open-addressed index into v (+1), cap 2^k */
	uint32_t nslots;
	uint32_t *ecl_params;       /* escapes: (entry parameter, leaf) pairs */
	uint32_t necl_params;
	uint32_t *ecl_results;      /* escapes: entry result leaves */
	uint32_t necl_results;
	char why[300];
	bool refused;
};

static uint32_t apply_hash(const struct hlo_instr *i, uint32_t leaf)
{
	uint64_t h = (uint64_t)(uintptr_t)i * 0x9e3779b97f4a7c15ull ^ (uint64_t)leaf * 0xc2b2ae3d27d4eb4full;
	return (uint32_t)(h ^ (h >> 29));
}

static void apply_flow_grow(struct apply_flow *fl)
{
	uint32_t ns = fl->nslots ? fl->nslots * 2 : 64;
	uint32_t *s = xcalloc(ns, sizeof *s);
	for (uint32_t k = 0; k < fl->n; k++) {
		uint32_t h = apply_hash(fl->v[k].i, fl->v[k].leaf) & (ns - 1);
		while (s[h])
			h = (h + 1) & (ns - 1);
		s[h] = k + 1;
	}
	free(fl->slots);
	fl->slots = s;
	fl->nslots = ns;
}

static void apply_flow_add(struct apply_flow *fl, const struct hlo_instr *i, uint32_t leaf)
{
	if (!i || fl->refused)
		return;
	if ((fl->n + 1) * 2 > fl->nslots)
		apply_flow_grow(fl);
	uint32_t h = apply_hash(i, leaf) & (fl->nslots - 1);
	while (fl->slots[h]) {
		const struct apply_pos *p = &fl->v[fl->slots[h] - 1];
		if (p->i == i && p->leaf == leaf)
			return;
		h = (h + 1) & (fl->nslots - 1);
	}
	if (fl->n == fl->cap) {
		fl->cap = fl->cap ? fl->cap * 2 : 32;
		fl->v = xreallocarray(fl->v, fl->cap, sizeof *fl->v);
	}
	fl->v[fl->n] = (struct apply_pos){ i, leaf };
	fl->slots[h] = ++fl->n;
}

static void apply_flow_refuse(struct apply_flow *fl, const struct hlo_instr *i, const char *what)
{
	if (fl->refused)
		return;
	fl->refused = true;
	snprintf(fl->why, sizeof fl->why, "%%%.*s (%s) %s", IR_NM(i),
		 i->op < OP_COUNT ? ir_opcode_name((enum opcode)i->op) : "?", what);
}

static void apply_pair_push(uint32_t **v, uint32_t *n, uint32_t a, uint32_t b)
{
	*v = xreallocarray(*v, (size_t)*n * 2 + 2, sizeof **v);
	(*v)[*n * 2] = a;
	(*v)[*n * 2 + 1] = b;
	(*n)++;
}

/* The entry's output leaf `leaf` escapes: parameters aliased to it
 * (input_output_alias) share its buffer. */
static void apply_flow_alias(struct apply_flow *fl, uint32_t leaf)
{
	struct hlo_module *m = fl->m;
	struct arena *a = &m->file->arena;
	struct arena_mark mk = arena_mark(a);
	struct flow_io *io;
	uint32_t n = flow_io_pairs(fl->al, m, a, &io);
	for (uint32_t k = 0; k < n; k++)
		if (io[k].n == 1 && io[k].output == leaf)
			apply_flow_add(fl, m->entry->params[io[k].param], io[k].param_leaf);
	arena_release(a, mk);
}

/* The structural instructions --apply carries a buffer through: XLA's
 * aliasing (alias.h) decides which of their leaves is which operand leaf. */
static bool apply_follows(const struct hlo_instr *i)
{
	return i->op == OP_GET_TUPLE_ELEMENT || i->op == OP_TUPLE || i->op == OP_BITCAST ||
	       i->op == OP_OPT_BARRIER || i->op == OP_WHILE;
}

/* Callee k of u (flow_callees_of, fusions included) as c, with the
 * operand bound to its parameter 0 (-1: parameter n is operand n) and
 * whether its root is u's result; false when c is none of u's. */
static bool apply_callee(const struct hlo_instr *u, const struct hlo_comp *c, int32_t *operand, bool *colocate)
{
	struct flow_callees cl;
	flow_callees_of(u, true, &cl);
	for (uint32_t k = 0; k < flow_callee_count(u, &cl); k++) {
		struct hlo_comp *callee;
		flow_callee_at(&cl, k, &callee, operand, colocate);
		if (callee == c)
			return true;
	}
	return false;
}

/* The operand of u bound to parameter p of its callee (apply_callee's
 * operand), or NULL. */
static const struct hlo_instr *apply_bound_operand(const struct hlo_instr *u, int32_t operand,
						   const struct hlo_instr *p)
{
	int64_t n = operand >= 0 ? (p->number == 0 ? operand : -1) : p->number;
	return n >= 0 && (uint64_t)n < u->noperands ? ir_operands(u)[n].instr : NULL;
}

/* The buffer at (i, leaf) enters i's computation as parameter i (param)
 * or leaves it as its root: where the callers hold it.  A while's carry
 * is also the loop's result (flow_source), so a body parameter reaches
 * the while itself.  Conditionals are not followed. */
static void apply_flow_callers(struct apply_flow *fl, const struct hlo_instr *i, uint32_t leaf, bool param)
{
	const struct hlo_comp *c = i->comp;
	for (uint32_t k = 0; k < ir_comp_ncallers(c); k++) {
		struct hlo_instr *u = ir_comp_caller(c, k);
		int32_t operand;
		bool colocate;
		bool known = u->op != OP_CONDITIONAL && apply_callee(u, c, &operand, &colocate);
		if (param) {
			const struct hlo_instr *o = known ? apply_bound_operand(u, operand, i) : NULL;
			if (u->op == OP_WHILE && known)
				apply_flow_add(fl, u, leaf);
			else if (o)
				apply_flow_add(fl, o, leaf);
			else
				apply_flow_refuse(fl, u, "passes the buffer to a computation --apply does not follow");
		} else if (known && colocate) {
			apply_flow_add(fl, u, leaf);
		} else {
			apply_flow_refuse(fl, u, "returns the buffer from a computation --apply does not follow");
		}
	}
}

/* Where the buffer at (i, leaf) also lives: its definition side. */
static void apply_flow_up(struct apply_flow *fl, const struct hlo_instr *i, uint32_t leaf)
{
	const struct hlo_comp *c = i->comp;
	const struct hlo_instr *src;
	uint32_t sj;
	if (apply_follows(i) && flow_source(fl->al, i, leaf, &src, &sj))
		apply_flow_add(fl, src, sj);
	switch (i->op) {
	case OP_WHILE:
	case OP_CALL:
	case OP_FUSION: {
		/* The carry is one buffer: operand, both parameters, body root;
		 * a call's or fusion's result is its computation's root. */
		struct flow_callees cl;
		flow_callees_of(i, true, &cl);
		uint32_t n = flow_callee_count(i, &cl), roots = 0;
		for (uint32_t k = 0; k < n; k++) {
			struct hlo_comp *callee;
			int32_t operand;
			bool colocate;
			flow_callee_at(&cl, k, &callee, &operand, &colocate);
			if (i->op == OP_WHILE && callee->nparams)
				apply_flow_add(fl, callee->params[0], leaf);
			if (colocate && callee->root) {
				apply_flow_add(fl, callee->root, leaf);
				roots++;
			}
		}
		if (!roots)
			apply_flow_refuse(fl, i, i->op == OP_WHILE ? "has no body or condition to follow"
								  : "has no single computation to follow");
		break;
	}
	case OP_DYNAMIC_UPDATE_SLICE: {
		/* Updated in place: the updated operand's buffer. */
		int64_t k = flow_updated_operand(i, 1, 0);
		apply_flow_add(fl, k >= 0 ? ir_operands(i)[k].instr : NULL, 0);
		break;
	}
	case OP_PARAMETER:
		if (c == fl->m->entry)
			apply_pair_push(&fl->ecl_params, &fl->necl_params, (uint32_t)i->number, leaf);
		else
			apply_flow_callers(fl, i, leaf, true);
		break;
	default:
		break;  /* i defines the buffer (broadcast, custom-call, copy, ...) */
	}
	if (i != c->root)
		return;
	if (c == fl->m->entry) {
		apply_pair_push(&fl->ecl_results, &fl->necl_results, leaf, 0);
		apply_flow_alias(fl, leaf);
	} else {
		apply_flow_callers(fl, i, leaf, false);
	}
}

/* The leaves of u that alias (i, leaf): u carries the buffer on. */
static void apply_flow_through(struct apply_flow *fl, const struct hlo_instr *u, const struct hlo_instr *i,
			       uint32_t leaf)
{
	uint32_t n = alias_leaves(fl->al, u->shape);
	for (uint32_t j = 0; j < n; j++) {
		const struct hlo_instr *src;
		uint32_t sj;
		if (flow_source(fl->al, u, j, &src, &sj) && src == i && sj == leaf)
			apply_flow_add(fl, u, j);
	}
}

/* What user u does with operand n, the buffer: carry it on (structural
 * users, in-place updates, calls), copy out of it (fine), or anything
 * else, which --apply refuses. */
static void apply_flow_user(struct apply_flow *fl, const struct hlo_instr *u, uint32_t n,
			    const struct hlo_instr *i, uint32_t leaf)
{
	if (apply_follows(u)) {
		apply_flow_through(fl, u, i, leaf);
		return;
	}
	switch (u->op) {
	case OP_DYNAMIC_UPDATE_SLICE:
		if (flow_updated_operand(u, 1, 0) == (int64_t)n)
			apply_flow_add(fl, u, 0);
		else
			apply_flow_refuse(fl, u, "copies the buffer into another array");
		break;
	case OP_DYNAMIC_SLICE:
		if (n != 0)
			apply_flow_refuse(fl, u, "uses the buffer as an index");
		break;
	case OP_COPY:
	case OP_COPY_START:
		break;
	case OP_CALL:
	case OP_FUSION: {
		/* Operand n is the callee's parameter n. */
		struct flow_callees cl;
		flow_callees_of(u, true, &cl);
		struct hlo_comp *callee = NULL;
		int32_t operand;
		bool colocate;
		if (flow_callee_count(u, &cl) == 1)
			flow_callee_at(&cl, 0, &callee, &operand, &colocate);
		if (callee && operand < 0 && n < callee->nparams && callee->params[n])
			apply_flow_add(fl, callee->params[n], leaf);
		else
			apply_flow_refuse(fl, u, "passes the buffer to a computation --apply does not follow");
		break;
	}
	case OP_CONDITIONAL:
	case OP_ASYNC_START:
	case OP_CUSTOM_CALL:
		apply_flow_refuse(fl, u, "takes the buffer in a way --apply does not follow");
		break;
	default:
		apply_flow_refuse(fl, u, "computes on the buffer, which would then be in host memory");
		break;
	}
}

/* ... and its users. */
static void apply_flow_down(struct apply_flow *fl, const struct hlo_instr *i, uint32_t leaf)
{
	for (uint32_t k = 0; k < i->nusers; k++) {
		const struct hlo_instr *u = ir_user(i, k);
		if (k && u == ir_user(i, k - 1))
			continue;
		for (uint32_t n = 0; n < u->noperands; n++)
			if (ir_operands(u)[n].instr == i)
				apply_flow_user(fl, u, n, i, leaf);
	}
}

static void apply_flow_free(struct apply_flow *fl)
{
	free(fl->v);
	free(fl->slots);
	free(fl->ecl_params);
	free(fl->ecl_results);
}

/* How one memory-space change is described and where it goes. */
struct apply_space_req {
	struct hlo_module *m;
	struct alias_state *al;
	int64_t space;
	struct apply_edits *ed;
	char *why;
	size_t whylen;
};

/* Adds the memory-space edit of the leaf-th leaf of the written shape w
 * (IR shape s).  With note, it is noted on instr, or in the header as
 * "<what> was ..." when instr is NULL.  Without need_layout a leaf written
 * without a layout is left alone. */
static bool apply_space_leaf(const struct apply_space_req *rq, const struct apply_written *w,
			     const struct hlo_shape *s, uint32_t leaf, const struct hlo_instr *instr, const char *what,
			     bool note, bool need_layout)
{
	char path[128];
	const struct hlo_shape *ls_shape = alias_leaf_path(rq->al, s, leaf, path, sizeof path);
	if (!ls_shape || leaf >= w->n || !w->st.leaves[w->first + leaf].array) {
		snprintf(rq->why, rq->whylen, "cannot find the layout of %s in the text", what);
		return false;
	}
	const struct shape_leaf_text *lf = &w->st.leaves[w->first + leaf];
	if (!need_layout && span_is_none(lf->layout))
		return true;   /* a signature without layouts stays compatible */
	char text[160];
	uint64_t st, en;
	bool noop;
	apply_space_text(lf, ls_shape, rq->space, &st, &en, text, sizeof text, &noop);
	if (noop)
		return true;
	char nt[400];
	uint64_t end = apply_leaf_end(lf);
	int wn = (int)(end - lf->start > 200 ? 200 : end - lf->start);
	const char *was = ir_text(rq->m->file, span_make(lf->start, end));
	bool tuple = s->type == PT_TUPLE;
	if (instr)
		snprintf(nt, sizeof nt, "was %.*s%s%s", wn, was, tuple ? " at index " : "", tuple ? path : "");
	else
		snprintf(nt, sizeof nt, "%s%s%s was %.*s", what, tuple ? " " : "", tuple ? path : "", wn, was);
	apply_edits_add(rq->ed, st, en, text, lf->start, instr, note ? nt : NULL);
	return true;
}

/* The same for the shape written at sp (see apply_written_at). */
static bool apply_space_at(const struct apply_space_req *rq, struct span sp, bool sig, int64_t param,
			   const struct hlo_shape *s, uint32_t leaf, const struct hlo_instr *instr, const char *what,
			   bool note, bool need_layout)
{
	struct apply_written w;
	bool ok = apply_written_at(rq->m, sp, sig, param, s, &w) &&
		  apply_space_leaf(rq, &w, s, leaf, instr, what, note, need_layout);
	if (!ok && !rq->why[0])
		snprintf(rq->why, rq->whylen, "cannot find the layout of %s in the text", what);
	value_shape_text_free(&w.st);
	return ok;
}

/* Every place position (i, l) is written: its result shape, the signature
 * of its computation (parameter or root), operands written with shapes. */
static bool apply_space_pos(const struct apply_space_req *rq, const struct hlo_instr *i, uint32_t l)
{
	char what[160];
	snprintf(what, sizeof what, "%%%.*s", (int)(ir_name_len(i) > 120 ? 120 : ir_name_len(i)), ir_name(i));
	struct span sp = ir_is_anonymous(i) ? span_none() : ir_instr_shape_text(i);
	if (span_is_none(sp)) {
		snprintf(rq->why, rq->whylen, "the shape of %s is not written in the text", what);
		return false;
	}
	bool ok = apply_space_at(rq, sp, false, 0, i->shape, l, i, what, true, true);
	/* Signatures: the parameter's and the root's shape, when written
	 * with layouts. */
	struct span sig = i->comp->inline_body ? span_none() : ir_comp_sig(i->comp);
	if (ok && !span_is_none(sig) && i->op == OP_PARAMETER && i->number >= 0)
		ok = apply_space_at(rq, sig, true, i->number, i->shape, l, i, "a signature", false, false);
	if (ok && !span_is_none(sig) && i == i->comp->root)
		ok = apply_space_at(rq, sig, true, -1, i->shape, l, i, "a signature", false, false);
	/* Operands written with their shape (long form). */
	for (uint32_t k = 0; ok && k < i->nusers; k++) {
		const struct hlo_instr *u = ir_user(i, k);
		if (k && u == ir_user(i, k - 1))
			continue;
		for (uint32_t n = 0; ok && n < u->noperands; n++) {
			if (ir_operands(u)[n].instr != i || !ir_extra(u) || !ir_extra(u)->operands ||
			    !ir_extra(u)->operands[n].declared)
				continue;
			ok = apply_space_at(rq, ir_extra(u)->operands[n].declared_span, false, 0, i->shape, l, u,
					    "an operand", false, true);
		}
	}
	return ok;
}

/* The escapes: the entry's parameters and results in entry_computation_layout. */
static bool apply_space_ecl(const struct apply_space_req *rq, const struct apply_flow *fl)
{
	struct hlo_module *m = rq->m;
	struct hlo_comp *e = m->entry;
	const struct hlo_attr *at = ir_module_attr(m, ATTR_ENTRY_COMPUTATION_LAYOUT);
	if (!at || !e || (!fl->necl_params && !fl->necl_results))
		return true;
	struct arena *a = &m->file->arena;
	struct arena_mark mk = arena_mark(a);
	struct hlo_value *v = attr_parse(m->file, at, a, NULL);
	struct hlo_program_shape ps;
	bool ok = true;
	if (v && attr_program_shape(v, a, &ps, NULL)) {
		for (uint32_t k = 0; ok && k < fl->necl_params; k++) {
			uint32_t p = fl->ecl_params[2 * k], l = fl->ecl_params[2 * k + 1];
			if (p >= e->nparams || p >= ps.nparams || !e->params[p])
				continue;
			char what[96];
			snprintf(what, sizeof what, "entry_computation_layout parameter %u", p);
			ok = apply_space_at(rq, ps.param_spans[p], false, 0, e->params[p]->shape, l, NULL, what, true,
					    true);
		}
		for (uint32_t k = 0; ok && e->root && k < fl->necl_results; k++)
			ok = apply_space_at(rq, ps.result_span, false, 0, e->root->shape, fl->ecl_results[2 * k], NULL,
					    "entry_computation_layout result", true, true);
	}
	arena_release(a, mk);
	return ok;
}

/* Sets memory space `space` on the buffer at (seed, leaf) wherever it flows. */
static bool apply_space(struct apply_space_req *rq, const struct hlo_instr *seed, uint32_t leaf)
{
	struct apply_flow fl = { .m = rq->m, .al = rq->al };
	apply_flow_add(&fl, seed, leaf);
	for (uint32_t q = 0; q < fl.n && !fl.refused; q++) {
		struct apply_pos p = fl.v[q];
		apply_flow_up(&fl, p.i, p.leaf);
		apply_flow_down(&fl, p.i, p.leaf);
	}
	bool ok = !fl.refused;
	if (!ok)
		snprintf(rq->why, rq->whylen, "%s", fl.why);
	for (uint32_t q = 0; ok && q < fl.n; q++)
		ok = apply_space_pos(rq, fl.v[q].i, fl.v[q].leaf);
	ok = ok && apply_space_ecl(rq, &fl);
	apply_flow_free(&fl);
	return ok;
}

/* ---- Sharding ---- */

/* The text of span sp, at most max bytes. */
static void apply_span_text(const struct hlo_file *f, struct span sp, char *buf, size_t cap, size_t max)
{
	size_t n = (size_t)span_len(sp);
	if (n > max)
		n = max;
	snprintf(buf, cap, "%.*s%s", (int)n, ir_text(f, sp), n < span_len(sp) ? "..." : "");
}

/* Whether span sp holds exactly s. */
static bool apply_span_is(const struct hlo_file *f, struct span sp, const char *s)
{
	return span_len(sp) == strlen(s) && !memcmp(ir_text(f, sp), s, strlen(s));
}

/* Adds ", sharding=<value>" after the last attribute of i.  Written as a
 * replacement of the instruction's last byte, so that a second, different
 * sharding added to the same instruction conflicts instead of piling up. */
static void apply_add_attr(struct apply_edits *ed, const struct hlo_file *f, const struct hlo_instr *i,
			   const char *value, const char *note)
{
	uint64_t end = ir_instr_span(i).end;
	size_t n = strlen(value) + 16;
	char *text = xmalloc(n);
	snprintf(text, n, "%c, sharding=%s", *ir_text(f, span_make(end - 1, end)), value);
	apply_edits_add(ed, end - 1, end, text, NONE, i, note);
	free(text);
}

/* Sets element `leaf` of the (tuple) sharding of i to s, or the whole
 * sharding when i's shape is an array.  whole_default: the text for the
 * other elements when i has no sharding (NULL: refuse). */
static bool apply_sharding_at(struct hlo_module *m, struct alias_state *al, struct hlo_instr *i, uint32_t leaf,
			      const char *s, const char *whole_default, const char *note_prefix,
			      struct apply_edits *ed, char *why, size_t whylen)
{
	const struct hlo_attr *at = ir_attr(i, ATTR_SHARDING);
	bool tuple = i->shape && i->shape->type == PT_TUPLE;
	uint32_t nleaves = i->shape ? ir_leaf_count(i->shape) : 1;
	char old[256], note[400];
	if (!tuple) {
		if (at) {
			struct span v = ir_attr_value(at);
			if (apply_span_is(m->file, v, s))
				return true;
			apply_span_text(m->file, v, old, sizeof old, 200);
			snprintf(note, sizeof note, "%swas sharding=%s", note_prefix, old);
			apply_edits_add(ed, v.start, v.end, s, NONE, i, note);
		} else {
			snprintf(note, sizeof note, "%swas no sharding", note_prefix);
			apply_add_attr(ed, m->file, i, s, note);
		}
		return true;
	}
	if (leaf >= nleaves) {
		snprintf(why, whylen, "leaf %u is out of range for the shape of %%%.*s", leaf, IR_NM(i));
		return false;
	}
	struct arena *a = &m->file->arena;
	struct arena_mark mk = arena_mark(a);
	struct hlo_sharding sh;
	struct attr_error err;
	bool have = at && sharding_of(m->file, i, a, &sh, &err);
	if (at && !have) {
		arena_release(a, mk);
		snprintf(why, whylen, "the sharding of %%%.*s does not decode", IR_NM(i));
		return false;
	}
	bool ok = true;
	if (have && sh.kind == SHARDING_TUPLE) {
		if (sh.nelems != nleaves) {
			snprintf(why, whylen, "the tuple sharding of %%%.*s has %u elements for %u leaves", IR_NM(i), sh.nelems, nleaves);
			ok = false;
		} else {
			struct span v = sh.elems[leaf].span;
			if (!apply_span_is(m->file, v, s)) {
				char path[128];
				alias_leaf_path(al, i->shape, leaf, path, sizeof path);
				apply_span_text(m->file, v, old, sizeof old, 200);
				snprintf(note, sizeof note, "%swas %s at index %s", note_prefix, old, path);
				apply_edits_add(ed, v.start, v.end, s, NONE, i, note);
			}
		}
	} else if (have || whole_default) {
		/* One sharding for every leaf, or none: write the tuple out. */
		char one[256];
		if (have)
			apply_span_text(m->file, ir_attr_value(at), one, sizeof one, 200);
		else
			snprintf(one, sizeof one, "%s", whole_default);
		size_t cap = (size_t)nleaves * (strlen(one) + 2) + strlen(s) + 32;
		char *text = xmalloc(cap), *p = text;
		p += sprintf(p, "{");
		for (uint32_t k = 0; k < nleaves; k++)
			p += sprintf(p, "%s%s", k ? ", " : "", k == leaf ? s : one);
		sprintf(p, "}");
		if (have) {
			snprintf(note, sizeof note, "%swas sharding=%s", note_prefix, one);
			apply_edits_add(ed, at->value_off, at->value_off + at->value_len, text, NONE, i, note);
		} else {
			snprintf(note, sizeof note, "%swas no sharding", note_prefix);
			apply_add_attr(ed, m->file, i, text, note);
		}
		free(text);
	} else {
		snprintf(why, whylen, "%%%.*s is a tuple without a sharding", IR_NM(i));
		ok = false;
	}
	arena_release(a, mk);
	return ok;
}

/* The entry output leaves that are i itself (ROOT operands) or share its
 * buffer through input_output_alias; out gets up to cap leaves. */
static uint32_t apply_outputs_of(struct hlo_module *m, struct alias_state *as, const struct hlo_instr *i,
				 uint32_t *out, uint32_t cap)
{
	struct hlo_comp *e = m->entry;
	uint32_t n = 0;
	if (!e || !e->root || i->comp != e)
		return 0;
	struct hlo_instr *r = e->root;
	if (r->op == OP_TUPLE) {
		uint32_t off = 0;
		for (uint32_t k = 0; k < r->noperands; k++) {
			struct hlo_instr *o = ir_operands(r)[k].instr;
			if (o == i && n < cap)
				out[n++] = off;
			off += o ? ir_leaf_count(o->shape) : 0;
		}
	}
	if (i->op == OP_PARAMETER) {
		struct arena *a = &m->file->arena;
		struct arena_mark mk = arena_mark(a);
		struct flow_io *io;
		uint32_t nio = flow_io_pairs(as, m, a, &io);
		for (uint32_t k = 0; k < nio; k++) {
			if (io[k].param != (uint32_t)i->number || io[k].param_leaf || io[k].n != 1 || n == cap)
				continue;
			bool dup = false;
			for (uint32_t j = 0; j < n; j++)
				dup |= out[j] == io[k].output;
			if (!dup)
				out[n++] = io[k].output;
		}
		arena_release(a, mk);
	}
	return n;
}

static bool apply_sharding(struct hlo_module *m, struct alias_state *al, const struct mem_model *mm,
			   const struct finding *f, struct hlo_instr *at, struct apply_edits *ed, char *why, size_t whylen)
{
	if (!f->suggest_text || !f->suggest_text[0] || f->suggest_text[0] != '{') {
		snprintf(why, whylen, "the suggested sharding is not a {...} value");
		return false;
	}
	/* Per-device shapes would have to shrink with the sharding; a module
	 * taken as partitioned only because no sharding splits anything reads
	 * the same either way. */
	if (mm && mm->partitioned && strcmp(mm->partition_reason, "no sharding splits an array")) {
		snprintf(why, whylen, "the module is already partitioned (per-device shapes); change the sharding in "
				      "the program that produced it");
		return false;
	}
	int64_t leaf = 0;
	if (at->shape && at->shape->type == PT_TUPLE && (leaf = f->leaf) < 0) {
		snprintf(why, whylen, "the finding does not say which element of the tuple to shard");
		return false;
	}
	if (leaf < 0) {
		snprintf(why, whylen, "bad tuple element %lld", (long long)leaf);
		return false;
	}
	/* An output reported at the instruction computing it: the replicated
	 * sharding is the entry ROOT's element for that output. */
	struct hlo_instr *root = m->entry ? m->entry->root : NULL;
	int64_t out_idx = f->output_index;
	if (root && at != root && at->comp == m->entry && out_idx >= 0 && ir_attr(root, ATTR_SHARDING))
		return apply_sharding_at(m, al, root, (uint32_t)out_idx, f->suggest_text, NULL, "", ed, why, whylen);
	const char *dflt = at->op == OP_PARAMETER && at->comp == m->entry ? "{replicated}" : NULL;
	if (!apply_sharding_at(m, al, at, (uint32_t)leaf, f->suggest_text, dflt, "", ed, why, whylen))
		return false;
	/* Keep the entry ROOT's sharding in step for outputs that are this
	 * array or share its buffer (donation needs equal per-device shapes). */
	uint32_t outs[16];
	uint32_t n = at->shape && at->shape->type != PT_TUPLE ? apply_outputs_of(m, al, at, outs, 16) : 0;
	for (uint32_t k = 0; k < n && root != at; k++) {
		if (!ir_attr(root, ATTR_SHARDING))
			break;  /* no output sharding to keep in step */
		if (!apply_sharding_at(m, al, root, outs[k], f->suggest_text, NULL, "", ed, why, whylen))
			return false;
	}
	return true;
}

/* ---- Driver-facing ---- */

void apply_init(struct apply_state *st, struct rewrite *rw)
{
	memset(st, 0, sizeof *st);
	st->rw = rw;
	arena_init(&st->arena);
}

void apply_free(struct apply_state *st)
{
	free(st->done);
	alias_free(&st->al);
	arena_free(&st->arena);
	memset(st, 0, sizeof *st);
}

static bool apply_done_has(const struct apply_state *st, uint64_t key)
{
	if (!st->done_cap)
		return false;
	uint32_t h = (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> 32) & (st->done_cap - 1);
	while (st->done[h]) {
		if (st->done[h] == key + 1)
			return true;
		h = (h + 1) & (st->done_cap - 1);
	}
	return false;
}

static void apply_done_add(struct apply_state *st, uint64_t key)
{
	if ((st->done_n + 1) * 2 > st->done_cap) {
		uint32_t nc = st->done_cap ? st->done_cap * 2 : 64;
		uint64_t *d = xcalloc(nc, sizeof *d);
		for (uint32_t k = 0; k < st->done_cap; k++)
			if (st->done[k]) {
				uint32_t h = (uint32_t)(((st->done[k] - 1) * 0x9e3779b97f4a7c15ull) >> 32) & (nc - 1);
				while (d[h])
					h = (h + 1) & (nc - 1);
				d[h] = st->done[k];
			}
		free(st->done);
		st->done = d;
		st->done_cap = nc;
	}
	uint32_t h = (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> 32) & (st->done_cap - 1);
	while (st->done[h]) {
		if (st->done[h] == key + 1)
			return;
		h = (h + 1) & (st->done_cap - 1);
	}
	st->done[h] = key + 1;
	st->done_n++;
}

/* ---- A parameter in host memory, copied in for its reads ---- */

/* Why parameter p cannot be moved to the host with a copy in front of its
 * readers, or NULL.  Only what the copy can stand in for: an array read
 * by instructions of the entry that compute with it. */
static const char *apply_offload_refusal(const struct hlo_module *m, const struct mem_model *mm,
					 const struct hlo_instr *p)
{
	const struct mem_buffer *b = mm ? mem_buffer_at(mm, p, 0) : NULL;
	if (p->op != OP_PARAMETER || p->comp != m->entry)
		return "the finding is not at a parameter of the entry computation";
	if (!p->shape || !ir_shape_is_array(p->shape))
		return "the parameter is not an array";
	if (p->shape->layout && p->shape->layout->memory_space)
		return "the parameter already has a memory space";
	if (!b || (b->flags & (MEM_BUF_ALIASED | MEM_BUF_DONATED)))
		return "the parameter is donated (input_output_alias, buffer_donor): left to JAX";
	for (uint32_t k = 0; k < p->nusers; k++) {
		const struct hlo_instr *u = ir_user(p, k);
		if (ir_is_root(u) || u->op == OP_TUPLE || u->op == OP_GET_TUPLE_ELEMENT || u->op == OP_BITCAST ||
		    u->op == OP_WHILE || u->op == OP_CALL || u->op == OP_CONDITIONAL || u->comp != m->entry)
			return "the parameter is returned or passed on as it is: left to JAX";
	}
	return NULL;
}

/* "%name<suffix>" into buf; false when the entry already has that name. */
static bool apply_offload_name(const struct hlo_instr *p, const char *suffix, char *buf, size_t cap)
{
	snprintf(buf, cap, "%.*s%s", (int)(ir_name_len(p) > 200 ? 200 : ir_name_len(p)), ir_name(p), suffix);
	return !ir_find_instr(p->comp, buf);
}

/* The parameter's shape (result, signature, entry_computation_layout) in
 * S(5), a copy-start/copy-done pair after it as XLA's host offloader
 * writes them, and its readers reading the copy. */
static bool apply_offload(struct apply_space_req *rq, const struct mem_model *mm, struct hlo_instr *p)
{
	const char *no = apply_offload_refusal(rq->m, mm, p);
	char start[256], done[256], dev[512], host[512], text[2400];
	if (!no && (!apply_offload_name(p, ".host_copy_start", start, sizeof start) ||
		    !apply_offload_name(p, ".host_copy_done", done, sizeof done)))
		no = "the names of the copies are taken";
	if (no) {
		snprintf(rq->why, rq->whylen, "%s", no);
		return false;
	}
	struct hlo_layout hl = p->shape->layout ? *p->shape->layout : (struct hlo_layout){ .tail_padding = 1 };
	struct hlo_shape hs = *p->shape;
	hl.memory_space = IR_SPACE_PINNED_HOST;
	hs.layout = &hl;
	ir_shape_format(p->shape, true, dev, sizeof dev);
	ir_shape_format(&hs, true, host, sizeof host);
	bool tiled = p->shape->layout && p->shape->layout->ntiles;
	snprintf(text, sizeof text, "\n  %%%s = (%s, %s, u32[]%s) copy-start(%%%.*s)\n  %%%s = %s copy-done(%%%s)", start,
		 dev, host, tiled ? "{:S(2)}" : "", IR_NM(p), done, dev, start);
	char what[160];
	snprintf(what, sizeof what, "%%%.*s", (int)(ir_name_len(p) > 120 ? 120 : ir_name_len(p)), ir_name(p));
	bool ok = apply_space_at(rq, ir_instr_shape_text(p), false, 0, p->shape, 0, p, what, true, true);
	struct span sig = ir_comp_sig(p->comp);
	if (ok && !span_is_none(sig) && p->number >= 0)
		ok = apply_space_at(rq, sig, true, p->number, p->shape, 0, p, "a signature", false, false);
	/* Its entry_computation_layout entry, as apply_space writes an escape. */
	uint32_t escape[2] = { (uint32_t)p->number, 0 };
	struct apply_flow fl = { .m = rq->m, .al = rq->al, .ecl_params = escape, .necl_params = 1 };
	if (!ok || p->number < 0 || !apply_space_ecl(rq, &fl))
		return false;
	uint64_t end = p->start + p->len;
	apply_edits_add(rq->ed, end, end, text, NONE, p, "copied to the device for its reads (copy-start/copy-done)");
	for (uint32_t k = 0; k < p->nusers; k++) {
		const struct hlo_instr *u = ir_user(p, k);
		if (k && u == ir_user(p, k - 1))
			continue;
		for (uint32_t n = 0; n < u->noperands; n++)
			if (ir_operands(u)[n].instr == p)
				apply_edits_add(rq->ed, ir_operands(u)[n].off, (uint64_t)ir_operands(u)[n].off + ir_operands(u)[n].len,
						done, NONE, NULL, NULL);
	}
	return true;
}

bool apply_supported(const struct finding *f)
{
	return f->suggest == SUGGEST_SHARDING || f->suggest == SUGGEST_MEMORY_SPACE ||
	       f->suggest == SUGGEST_OFFLOAD_PARAMETER;
}

static int apply_edit_cmp(const void *pa, const void *pb)
{
	const struct apply_edit *a = pa, *b = pb;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return a->key < b->key ? -1 : a->key > b->key;
}

bool apply_finding(struct apply_state *st, struct hlo_module *m, const struct mem_model *mm,
		   const struct finding *f, struct hlo_instr *at, struct apply_note **notes, char *why,
		   size_t whylen)
{
	*notes = NULL;
	why[0] = 0;
	if (!apply_supported(f)) {
		snprintf(why, whylen, "no suggestion --apply can make");
		return false;
	}
	if (!at) {
		snprintf(why, whylen, "the finding is not located at an instruction");
		return false;
	}
	struct apply_edits ed = { 0 };
	bool ok;
	if (st->al.f != m->file) {
		alias_free(&st->al);
		alias_init(&st->al, m->file, &st->arena);
	}
	if (f->suggest == SUGGEST_SHARDING) {
		ok = apply_sharding(m, &st->al, mm, f, at, &ed, why, whylen);
	} else if (f->suggest == SUGGEST_OFFLOAD_PARAMETER) {
		struct apply_space_req rq = { m, &st->al, 5, &ed, why, whylen };
		ok = apply_offload(&rq, mm, at);
	} else {
		int64_t leaf = 0;
		if (at->shape && at->shape->type == PT_TUPLE) {
			int64_t k = f->tuple_index;
			if (f->leaf >= 0)
				leaf = f->leaf;
			else if (k >= 0)
				leaf = k < (int64_t)at->shape->rank ? (int64_t)apply_leaf_offset(&st->al, at->shape, k) : -1;
			else
				leaf = -1;
		}
		const struct hlo_shape *ls = leaf >= 0 ? alias_leaf_shape(&st->al, at->shape, (uint32_t)leaf) : NULL;
		if (!ls || !ir_shape_is_array(ls)) {
			snprintf(why, whylen, "cannot tell which array of %%%.*s to move", IR_NM(at));
			ok = false;
		} else if (f->suggest_int < 0 || f->suggest_int > 1000000) {
			snprintf(why, whylen, "bad memory space %lld", (long long)f->suggest_int);
			ok = false;
		} else {
			struct apply_space_req rq = { m, &st->al, f->suggest_int, &ed, why, whylen };
			ok = apply_space(&rq, at, (uint32_t)leaf);
		}
	}
	if (ok) {
		/* Text order; one edit per layout (a buffer reached twice, an
		 * operand used twice), none for layouts an earlier finding set. */
		if (ed.n)
			qsort(ed.v, ed.n, sizeof *ed.v, apply_edit_cmp);
		uint32_t w = 0;
		for (uint32_t k = 0; k < ed.n; k++) {
			struct apply_edit *x = &ed.v[k];
			bool dup = x->key != NONE && (apply_done_has(st, x->key) || (w && ed.v[w - 1].key == x->key));
			if (dup) {
				free(x->text);
				free(x->note);
				continue;
			}
			ed.v[w++] = *x;
		}
		ed.n = w;
		/* Record all or nothing. */
		uint32_t mark = rewrite_mark(st->rw);
		for (uint32_t k = 0; ok && k < ed.n; k++) {
			struct apply_edit *x = &ed.v[k];
			ok = x->end == x->start ? rewrite_insert(st->rw, x->start, x->text, strlen(x->text))
						: rewrite_replace(st->rw, span_make(x->start, x->end), x->text,
								  strlen(x->text));
		}
		if (!ok) {
			rewrite_rollback(st->rw, mark);
			snprintf(why, whylen, "conflicts with a change made for an earlier finding");
		} else {
			struct apply_note **tail = notes;
			for (uint32_t k = 0; k < ed.n; k++) {
				struct apply_edit *x = &ed.v[k];
				if (x->key != NONE)
					apply_done_add(st, x->key);
				if (!x->note)
					continue;
				struct apply_note *n = arena_alloc(&st->arena, sizeof *n);
				n->instr = x->instr;
				n->text = arena_strndup(&st->arena, x->note, strlen(x->note));
				*tail = n;
				tail = &n->next;
			}
		}
	}
	apply_edits_free(&ed);
	return ok;
}

/* ---- Self-check ---- */

/* Leaves of a and b whose memory spaces differ (shapes of one structure). */
static uint64_t apply_space_diff(const struct hlo_shape *a, const struct hlo_shape *b)
{
	if (!a || !b)
		return 0;
	if (a->type == PT_TUPLE || b->type == PT_TUPLE) {
		if (a->type != b->type || a->rank != b->rank)
			return 0;
		uint64_t n = 0;
		for (uint32_t k = 0; k < a->rank; k++)
			n += apply_space_diff(a->elems[k], b->elems[k]);
		return n;
	}
	int64_t sa = a->layout ? a->layout->memory_space : 0, sb = b->layout ? b->layout->memory_space : 0;
	return sa != sb;
}

uint64_t apply_space_mismatches(struct hlo_module *m)
{
	uint64_t n = 0;
	for (uint32_t c = 0; c < m->ncomps; c++) {
		const struct hlo_comp *cp = m->comps[c];
		for (uint32_t k = 0; k < cp->ninstrs; k++) {
			const struct hlo_instr *i = cp->instrs[k];
			const struct hlo_instr *op0 = i->noperands ? ir_operands(i)[0].instr : NULL;
			switch (i->op) {
			case OP_GET_TUPLE_ELEMENT:
				if (op0 && op0->shape && op0->shape->type == PT_TUPLE)
					n += apply_space_diff(i->shape, ir_shape_tuple_elem(op0->shape, i->number));
				break;
			case OP_TUPLE:
				for (uint32_t j = 0; j < i->noperands && i->shape && j < i->shape->rank; j++)
					if (ir_operands(i)[j].instr)
						n += apply_space_diff(i->shape->elems[j], ir_operands(i)[j].instr->shape);
				break;
			case OP_WHILE: {
				struct hlo_comp *body = ir_callee(i, ATTR_BODY), *cond = ir_callee(i, ATTR_CONDITION);
				if (op0)
					n += apply_space_diff(i->shape, op0->shape);
				if (body && body->nparams && body->params[0])
					n += apply_space_diff(i->shape, body->params[0]->shape);
				if (cond && cond->nparams && cond->params[0])
					n += apply_space_diff(i->shape, cond->params[0]->shape);
				if (body && body->root)
					n += apply_space_diff(i->shape, body->root->shape);
				break;
			}
			case OP_DYNAMIC_UPDATE_SLICE:
				if (op0)
					n += apply_space_diff(i->shape, op0->shape);
				break;
			case OP_CALL:
			case OP_FUSION:
				if (i->ncallees != 1)
					break;
				for (uint32_t j = 0; j < i->noperands && j < ir_callees(i)[0]->nparams; j++)
					if (ir_operands(i)[j].instr && ir_callees(i)[0]->params[j])
						n += apply_space_diff(ir_operands(i)[j].instr->shape,
								      ir_callees(i)[0]->params[j]->shape);
				if (ir_callees(i)[0]->root)
					n += apply_space_diff(i->shape, ir_callees(i)[0]->root->shape);
				break;
			default:
				break;
			}
		}
	}
	/* The entry against entry_computation_layout. */
	const struct hlo_attr *at = ir_module_attr(m, ATTR_ENTRY_COMPUTATION_LAYOUT);
	struct hlo_comp *e = m->entry;
	if (at && e) {
		struct arena *a = &m->file->arena;
		struct arena_mark mk = arena_mark(a);
		struct attr_error err;
		struct hlo_value *v = attr_parse(m->file, at, a, &err);
		struct hlo_program_shape ps;
		if (v && attr_program_shape(v, a, &ps, &err)) {
			for (uint32_t p = 0; p < ps.nparams && p < e->nparams; p++)
				if (e->params[p])
					n += apply_space_diff(ps.params[p], e->params[p]->shape);
			if (e->root)
				n += apply_space_diff(ps.result, e->root->shape);
		}
		arena_release(a, mk);
	}
	return n;
}
