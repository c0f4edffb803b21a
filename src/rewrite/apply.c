/* apply.c - the --apply rewrites: shapes located by small text scanners
 * (IR shapes have no spans), S(n) propagated over the (instruction, leaf)
 * positions of one buffer, each finding's edits recorded all or none.  It
 * does not choose which findings to apply and never re-parses. */
#include "apply.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "attr.h"
#include "lex.h"
#include "mem.h"
#include "sharding.h"

#define NONE UINT64_MAX

/* ---- Source text: blanks, comments, shapes, layouts ---- */

struct apply_text {
	const char *b;
	uint64_t len;
};

/* Skips blanks and comments (lex.h). */
static uint64_t apply_skip(const struct apply_text *t, uint64_t p)
{
	return lex_skip_blank(t->b, t->len, p, NULL);
}

/* p at an opening '{' or '(': the offset after its match (comments
 * skipped), or 0. */
static uint64_t apply_balanced(const struct apply_text *t, uint64_t p)
{
	int depth = 0;
	while (p < t->len) {
		uint64_t q = apply_skip(t, p);
		if (q != p) {
			p = q;
			continue;
		}
		char c = t->b[p++];
		if (c == '{' || c == '(')
			depth++;
		else if ((c == '}' || c == ')') && --depth == 0)
			return p;
	}
	return 0;
}

/* One non-tuple subshape as written: "f32[2,8]{1,0:T(8,128)}". */
struct apply_leaf {
	uint64_t start;     /* element type */
	uint64_t dims_end;  /* after ']' */
	uint64_t lay;       /* '{' of the layout, or NONE */
	uint64_t end;       /* after the layout, else after ']' */
	bool array;         /* not a token, opaque or buffer */
};

struct apply_leaves {
	struct apply_leaf *v;
	uint32_t n, cap;
};

static void apply_leaves_push(struct apply_leaves *ls, const struct apply_leaf *l)
{
	if (ls->n == ls->cap) {
		ls->cap = ls->cap ? ls->cap * 2 : 8;
		ls->v = xreallocarray(ls->v, ls->cap, sizeof *ls->v);
	}
	ls->v[ls->n++] = *l;
}

static bool apply_is_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* A '{' after a shape opens a layout when a digit or ':' follows (else it
 * is a computation body, as the scanner decides). */
static bool apply_is_layout(const struct apply_text *t, uint64_t p)
{
	uint64_t q = apply_skip(t, p + 1);
	return q < t->len && ((t->b[q] >= '0' && t->b[q] <= '9') || t->b[q] == ':');
}

/* Walks the shape written at *pp, appending its leaves in order (the order
 * of mem_leaf_count); *pp gets the offset after it.  False when the text is
 * not a shape. */
static bool apply_walk(const struct apply_text *t, uint64_t *pp, struct apply_leaves *out, int depth)
{
	const char *b = t->b;
	uint64_t p = apply_skip(t, *pp);
	if (p >= t->len || depth > 64)
		return false;
	if (b[p] == '(') {
		p = apply_skip(t, p + 1);
		if (p < t->len && b[p] == ')') {
			*pp = p + 1;
			return true;
		}
		for (;;) {
			if (!apply_walk(t, &p, out, depth + 1))
				return false;
			p = apply_skip(t, p);
			if (p >= t->len)
				return false;
			if (b[p] == ',') {
				p++;
				continue;
			}
			if (b[p] != ')')
				return false;
			*pp = p + 1;
			return true;
		}
	}
	struct apply_leaf lf = { .start = p, .lay = NONE, .array = true };
	while (p < t->len && apply_is_alnum(b[p]))
		p++;
	if (p == lf.start)
		return false;
	size_t tn = (size_t)(p - lf.start);
	const char *ty = b + lf.start;
	uint64_t q = apply_skip(t, p);
	if (tn == 1 && ty[0] == 'b' && q < t->len && b[q] == '(') {
		/* b(shape): a buffer, one leaf that --apply does not edit. */
		uint64_t e = apply_balanced(t, q);
		if (!e)
			return false;
		lf.dims_end = lf.end = e;
		lf.array = false;
		apply_leaves_push(out, &lf);
		*pp = e;
		return true;
	}
	if (q >= t->len || b[q] != '[')
		return false;
	while (q < t->len && b[q] != ']')
		q++;
	if (q >= t->len)
		return false;
	lf.dims_end = lf.end = q + 1;
	uint64_t r = apply_skip(t, q + 1);
	if (r < t->len && b[r] == '{' && apply_is_layout(t, r)) {
		uint64_t e = apply_balanced(t, r);
		if (!e)
			return false;
		lf.lay = r;
		lf.end = e;
	}
	if ((tn == 5 && !memcmp(ty, "token", 5)) || (tn == 6 && !memcmp(ty, "opaque", 6)))
		lf.array = false;
	apply_leaves_push(out, &lf);
	*pp = lf.end;
	return true;
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

/* The memory space written in a layout {...} at [lay, end): sets *space
 * (0 when none).  False when the layout does not scan. */
static bool apply_layout_items(const struct apply_text *t, uint64_t lay, uint64_t end, uint64_t *colon)
{
	/* ':' at the layout's own level. */
	*colon = NONE;
	uint64_t p = lay + 1;
	while (p < end - 1) {
		uint64_t q = apply_skip(t, p);
		if (q != p) {
			p = q;
			continue;
		}
		char c = t->b[p];
		if (c == ':') {
			*colon = p;
			return true;
		}
		if (c == '{' || c == '(') {
			uint64_t e = apply_balanced(t, p);
			if (!e)
				return false;
			p = e;
			continue;
		}
		p++;
	}
	return true;
}

/* The edit giving leaf lf (whose IR shape is s) memory space `space`:
 * replaces an S(n), inserts S(space) in XLA's attribute order (D T L # * E
 * S SC P M), or writes a default layout.  *noop when it already has it. */
static bool apply_space_text(const struct apply_text *t, const struct apply_leaf *lf, const struct hlo_shape *s,
			     int64_t space, uint64_t *start, uint64_t *end, char *buf, size_t cap, bool *noop)
{
	*noop = false;
	if (lf->lay == NONE) {
		/* No layout written: the default one, major to minor. */
		size_t n = 0;
		n += (size_t)snprintf(buf + n, cap - n, "{");
		for (uint32_t d = s->rank; d-- > 0 && n < cap;)
			n += (size_t)snprintf(buf + n, cap - n, "%u%s", d, d ? "," : "");
		if (n < cap)
			snprintf(buf + n, cap - n, ":S(%lld)}", (long long)space);
		*start = *end = lf->dims_end;
		return true;
	}
	uint64_t colon;
	if (!apply_layout_items(t, lf->lay, lf->end, &colon))
		return false;
	uint64_t close = lf->end - 1;
	if (colon == NONE) {
		snprintf(buf, cap, ":S(%lld)", (long long)space);
		*start = *end = close;
		return true;
	}
	const char *b = t->b;
	uint64_t p = colon + 1;
	for (;;) {
		p = apply_skip(t, p);
		if (p >= close) {
			snprintf(buf, cap, "S(%lld)", (long long)space);
			*start = *end = close;
			return true;
		}
		uint64_t ns = p;
		while (p < close && ((b[p] >= 'A' && b[p] <= 'Z') || b[p] == '#' || b[p] == '*'))
			p++;
		if (p == ns)
			return false;
		size_t nl = (size_t)(p - ns);
		if (nl == 1 && b[ns] == 'S') {
			uint64_t q = apply_skip(t, p);
			if (q >= close || b[q] != '(')
				return false;
			uint64_t e = apply_balanced(t, q);
			if (!e || e > close)
				return false;
			char *endp;
			long long v = strtoll(b + q + 1, &endp, 10);
			uint64_t after = apply_skip(t, (uint64_t)(endp - b));
			if (v == space && after < close && b[after] == ')')
				*noop = true;
			snprintf(buf, cap, "S(%lld)", (long long)space);
			*start = ns;
			*end = e;
			return true;
		}
		if ((nl == 2 && !memcmp(b + ns, "SC", 2)) || (nl == 1 && (b[ns] == 'P' || b[ns] == 'M'))) {
			snprintf(buf, cap, "S(%lld)", (long long)space);
			*start = *end = ns;
			return true;
		}
		/* Skip the item's argument groups: T(8,128)(2,1), E(4), ... */
		for (;;) {
			uint64_t q = apply_skip(t, p);
			if (q >= close || b[q] != '(')
				break;
			uint64_t e = apply_balanced(t, q);
			if (!e || e > close)
				return false;
			p = e;
		}
	}
}

/* ---- Locating shapes in the text ---- */

/* The result shape of i as written after "name =", or NONE. */
static uint64_t apply_instr_shape_at(const struct apply_text *t, const struct hlo_instr *i)
{
	if (!(i->flags & IR_SHAPE_WRITTEN) || ir_is_anonymous(i))
		return NONE;
	uint64_t p = apply_skip(t, ir_instr_name_span(i).end);
	if (p >= t->len || t->b[p] != '=')
		return NONE;
	return apply_skip(t, p + 1);
}

/* The leaves of the shape written at p, checked against the IR shape s
 * (same leaf count).  False when it does not match. */
static bool apply_leaves_at(const struct apply_text *t, uint64_t p, const struct hlo_shape *s,
			    struct apply_leaves *out)
{
	out->n = 0;
	if (p == NONE)
		return false;
	uint64_t q = p;
	return apply_walk(t, &q, out, 0) && (!s || out->n == ir_leaf_count(s));
}

/* Start offsets of the parameter shapes (params[0..n)) and of the result
 * shape of a "(name: shape, ...) -> shape" signature (names may be absent,
 * as in entry_computation_layout) starting at p.  False when it does not
 * scan. */
static bool apply_signature(const struct apply_text *t, uint64_t p, bool names, uint64_t *params, uint32_t cap,
			    uint32_t *n, uint64_t *result)
{
	const char *b = t->b;
	*n = 0;
	p = apply_skip(t, p);
	if (p >= t->len || b[p] != '(')
		return false;
	p = apply_skip(t, p + 1);
	if (p < t->len && b[p] == ')') {
		p++;
	} else {
		for (;;) {
			p = apply_skip(t, p);
			if (names) {
				while (p < t->len && b[p] != ':' && b[p] != ',' && b[p] != ')' && b[p] != '\n')
					p++;
				if (p >= t->len || b[p] != ':')
					return false;
				p = apply_skip(t, p + 1);
			}
			if (*n < cap)
				params[*n] = p;
			(*n)++;
			struct apply_leaves tmp = { 0 };
			bool ok = apply_walk(t, &p, &tmp, 0);
			free(tmp.v);
			if (!ok)
				return false;
			p = apply_skip(t, p);
			if (p < t->len && b[p] == ',') {
				p++;
				continue;
			}
			if (p >= t->len || b[p] != ')')
				return false;
			p++;
			break;
		}
	}
	p = apply_skip(t, p);
	if (p + 1 >= t->len || b[p] != '-' || b[p + 1] != '>')
		return false;
	*result = apply_skip(t, p + 2);
	return true;
}

/* Shape text of parameter `param` (or of the result when param < 0) of
 * the signature at p (names: "name: shape" entries); NONE when it does not
 * scan or has no such parameter. */
static uint64_t apply_sig_at(const struct apply_text *t, uint64_t p, bool names, int64_t param)
{
	uint32_t cap = param >= 0 ? (uint32_t)param + 1 : 1, n;
	uint64_t *all = xreallocarray(NULL, cap, sizeof *all), result;
	bool ok = apply_signature(t, p, names, all, cap, &n, &result);
	uint64_t r = !ok ? NONE : param < 0 ? result : (uint64_t)param < n ? all[param] : NONE;
	free(all);
	return r;
}

/* ... in computation c's signature; NONE when it has none. */
static uint64_t apply_sig_shape_at(const struct apply_text *t, const struct hlo_comp *c, int64_t param)
{
	if (!c->has_signature || c->inline_body)
		return NONE;
	return apply_sig_at(t, c->name_span.end, true, param);
}

/* ... in the module's entry_computation_layout={(...)->...}. */
static uint64_t apply_ecl_shape_at(const struct apply_text *t, const struct hlo_module *m, int64_t param)
{
	const struct hlo_attr *at = ir_module_attr(m, ATTR_ENTRY_COMPUTATION_LAYOUT);
	if (!at)
		return NONE;
	uint64_t p = apply_skip(t, at->value_off);
	if (p >= t->len || t->b[p] != '{')
		return NONE;
	return apply_sig_at(t, p + 1, false, param);
}

/* The declared shape of operand n of u (the long "f32[8]{0} %x" form), or NONE. */
static uint64_t apply_operand_shape_at(const struct apply_text *t, const struct hlo_instr *u, uint32_t n)
{
	if (!u->extra || !u->extra->operands || !u->extra->operands[n].declared)
		return NONE;
	const char *b = t->b;
	uint64_t p;
	if (n == 0) {
		p = apply_skip(t, ir_instr_opcode_span(u).end);
		if (p >= t->len || b[p] != '(')
			return NONE;
		p++;
	} else {
		const struct hlo_operand *o = &u->operands[n - 1];
		p = apply_skip(t, o->off + o->len);
		while (p < t->len && (b[p] == '#' || (b[p] >= '0' && b[p] <= '9')))
			p++;
		p = apply_skip(t, p);
		if (p >= t->len || b[p] != ',')
			return NONE;
		p++;
	}
	return apply_skip(t, p);
}

/* ---- Shapes in the IR: leaves and tuple paths ---- */

/* Leaf number of the first leaf of tuple element k of s. */
static uint32_t apply_leaf_offset(const struct hlo_shape *s, int64_t k)
{
	uint32_t off = 0;
	for (int64_t j = 0; j < k && j < (int64_t)s->rank; j++)
		off += ir_leaf_count(s->elems[j]);
	return off;
}

/* The leaf-th leaf of s; its tuple index path written as "{1,0}" into path
 * (when not NULL). */
static const struct hlo_shape *apply_leaf_shape(const struct hlo_shape *s, uint32_t leaf, char *path, size_t cap)
{
	size_t n = 0;
	if (path && cap)
		n += (size_t)snprintf(path, cap, "{");
	bool first = true;
	while (s && s->type == PT_TUPLE) {
		uint32_t k = 0;
		for (; k < s->rank; k++) {
			uint32_t c = ir_leaf_count(s->elems[k]);
			if (leaf < c)
				break;
			leaf -= c;
		}
		if (k == s->rank)
			return NULL;
		if (path && n < cap)
			n += (size_t)snprintf(path + n, cap - n, "%s%u", first ? "" : ",", k);
		first = false;
		s = s->elems[k];
	}
	if (path && n < cap)
		snprintf(path + n, cap - n, "}");
	return s;
}

/* The computation named by attribute key of i (mem.c's rule). */
/* ---- Memory space: the positions sharing one buffer ---- */

struct apply_pos {
	struct hlo_instr *i;
	uint32_t leaf;
};

struct apply_flow {
	struct hlo_module *m;
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

static void apply_flow_add(struct apply_flow *fl, struct hlo_instr *i, uint32_t leaf)
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
	snprintf(fl->why, sizeof fl->why, "%%%.*s (%s) %s", (int)i->name_len, i->name,
		 i->op < OP_COUNT ? ir_opcode_name((enum opcode)i->op) : "?", what);
}

static void apply_pair_push(uint32_t **v, uint32_t *n, uint32_t a, uint32_t b)
{
	*v = xreallocarray(*v, (size_t)*n * 2 + 2, sizeof **v);
	(*v)[*n * 2] = a;
	(*v)[*n * 2 + 1] = b;
	(*n)++;
}

/* The leaf of entry parameter number p given by a tuple index path. */
static bool apply_index_leaf(const struct hlo_shape *s, const struct attr_ints *idx, uint32_t *leaf)
{
	uint32_t off = 0;
	for (uint32_t k = 0; k < idx->n; k++) {
		if (!s || s->type != PT_TUPLE || idx->v[k] < 0 || idx->v[k] >= (int64_t)s->rank)
			return false;
		off += apply_leaf_offset(s, idx->v[k]);
		s = s->elems[idx->v[k]];
	}
	*leaf = off;
	return s && s->type != PT_TUPLE;
}

/* The entry's output leaf `leaf` escapes: parameters aliased to it
 * (input_output_alias) share its buffer. */
static void apply_flow_alias(struct apply_flow *fl, uint32_t leaf)
{
	struct hlo_module *m = fl->m;
	const struct hlo_attr *at = ir_module_attr(m, ATTR_INPUT_OUTPUT_ALIAS);
	struct hlo_comp *e = m->entry;
	if (!at || !e || !e->root)
		return;
	struct arena *a = &m->file->arena;
	struct arena_mark mk = arena_mark(a);
	struct attr_error err;
	struct hlo_value *v = attr_parse(m->file, at, a, &err);
	struct hlo_aliases al;
	if (v && attr_aliases(v, a, true, &al, &err))
		for (uint32_t k = 0; k < al.n; k++) {
			uint32_t ol, pl;
			if (!apply_index_leaf(e->root->shape, &al.items[k].output_index, &ol) || ol != leaf)
				continue;
			int64_t p = al.items[k].number;
			if (p < 0 || p >= (int64_t)e->nparams || !e->params[p])
				continue;
			if (apply_index_leaf(e->params[p]->shape, &al.items[k].index, &pl))
				apply_flow_add(fl, e->params[p], pl);
		}
	arena_release(a, mk);
}

/* Where the buffer at (i, leaf) also lives: its definition side. */
static void apply_flow_up(struct apply_flow *fl, struct hlo_instr *i, uint32_t leaf)
{
	struct hlo_comp *c = i->comp;
	struct hlo_instr *op0 = i->noperands ? i->operands[0].instr : NULL;
	switch (i->op) {
	case OP_GET_TUPLE_ELEMENT:
		if (op0 && op0->shape && op0->shape->type == PT_TUPLE)
			apply_flow_add(fl, op0, apply_leaf_offset(op0->shape, i->number) + leaf);
		break;
	case OP_TUPLE: {
		uint32_t off = 0;
		for (uint32_t k = 0; k < i->noperands; k++) {
			struct hlo_instr *o = i->operands[k].instr;
			uint32_t cnt = o ? ir_leaf_count(o->shape) : 0;
			if (leaf >= off && leaf < off + cnt)
				apply_flow_add(fl, o, leaf - off);
			off += cnt;
		}
		break;
	}
	case OP_WHILE: {
		struct hlo_comp *body = ir_callee(i, ATTR_BODY), *cond = ir_callee(i, ATTR_CONDITION);
		if (!body || !cond || !body->nparams || !cond->nparams) {
			apply_flow_refuse(fl, i, "has no body or condition to follow");
			return;
		}
		apply_flow_add(fl, op0, leaf);
		apply_flow_add(fl, body->params[0], leaf);
		apply_flow_add(fl, cond->params[0], leaf);
		apply_flow_add(fl, body->root, leaf);
		break;
	}
	case OP_DYNAMIC_UPDATE_SLICE:
	case OP_BITCAST:
	case OP_OPT_BARRIER:
		apply_flow_add(fl, op0, i->op == OP_OPT_BARRIER ? leaf : 0);
		break;
	case OP_CALL:
	case OP_FUSION:
		if (i->ncallees != 1 || !i->callees[0]->root) {
			apply_flow_refuse(fl, i, "has no single computation to follow");
			return;
		}
		apply_flow_add(fl, i->callees[0]->root, leaf);
		break;
	case OP_PARAMETER:
		if (c == fl->m->entry) {
			apply_pair_push(&fl->ecl_params, &fl->necl_params, (uint32_t)i->number, leaf);
			break;
		}
		for (uint32_t k = 0; k < c->ncallers; k++) {
			struct hlo_instr *u = c->callers[k];
			if (u->op == OP_WHILE)
				apply_flow_add(fl, u, leaf);
			else if ((u->op == OP_CALL || u->op == OP_FUSION) && u->ncallees == 1 && i->number >= 0 &&
				 (uint64_t)i->number < u->noperands)
				apply_flow_add(fl, u->operands[i->number].instr, leaf);
			else
				apply_flow_refuse(fl, u, "passes the buffer to a computation --apply does not follow");
		}
		break;
	default:
		break;  /* i defines the buffer (broadcast, custom-call, copy, ...) */
	}
	if (i == c->root) {
		if (c == fl->m->entry) {
			apply_pair_push(&fl->ecl_results, &fl->necl_results, leaf, 0);
			apply_flow_alias(fl, leaf);
			return;
		}
		for (uint32_t k = 0; k < c->ncallers; k++) {
			struct hlo_instr *u = c->callers[k];
			if (u->op == OP_WHILE || ((u->op == OP_CALL || u->op == OP_FUSION) && u->ncallees == 1))
				apply_flow_add(fl, u, leaf);
			else
				apply_flow_refuse(fl, u, "returns the buffer from a computation --apply does not follow");
		}
	}
}

/* ... and its users: structural ones carry it on, readers that copy out of
 * it (dynamic-slice, copy) are fine, anything computing on it is not. */
static void apply_flow_down(struct apply_flow *fl, struct hlo_instr *i, uint32_t leaf)
{
	for (uint32_t k = 0; k < i->nusers; k++) {
		struct hlo_instr *u = i->users[k];
		if (k && u == i->users[k - 1])
			continue;
		for (uint32_t n = 0; n < u->noperands; n++) {
			if (u->operands[n].instr != i)
				continue;
			switch (u->op) {
			case OP_GET_TUPLE_ELEMENT: {
				if (!i->shape || i->shape->type != PT_TUPLE)
					break;
				uint32_t off = apply_leaf_offset(i->shape, u->number);
				uint32_t cnt = ir_leaf_count(u->shape);
				if (leaf >= off && leaf < off + cnt)
					apply_flow_add(fl, u, leaf - off);
				break;
			}
			case OP_TUPLE:
				apply_flow_add(fl, u, apply_leaf_offset(u->shape, n) + leaf);
				break;
			case OP_WHILE:
			case OP_OPT_BARRIER:
				apply_flow_add(fl, u, leaf);
				break;
			case OP_DYNAMIC_UPDATE_SLICE:
				if (n == 0)
					apply_flow_add(fl, u, 0);
				else
					apply_flow_refuse(fl, u, "copies the buffer into another array");
				break;
			case OP_BITCAST:
				apply_flow_add(fl, u, 0);
				break;
			case OP_DYNAMIC_SLICE:
				if (n != 0)
					apply_flow_refuse(fl, u, "uses the buffer as an index");
				break;
			case OP_COPY:
			case OP_COPY_START:
				break;
			case OP_CALL:
			case OP_FUSION:
				if (u->ncallees == 1 && n < u->callees[0]->nparams && u->callees[0]->params[n])
					apply_flow_add(fl, u->callees[0]->params[n], leaf);
				else
					apply_flow_refuse(fl, u, "passes the buffer to a computation --apply does not follow");
				break;
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
	}
}

static void apply_flow_free(struct apply_flow *fl)
{
	free(fl->v);
	free(fl->slots);
	free(fl->ecl_params);
	free(fl->ecl_results);
}

/* Adds the memory-space edit of the leaf-th leaf of the shape written at p
 * (IR shape s).  With note, it is noted on instr, or in the header as
 * "<what> was ..." when instr is NULL.  Without need_layout a leaf written
 * without a layout is left alone. */
static bool apply_space_leaf(const struct apply_text *t, uint64_t p, const struct hlo_shape *s, uint32_t leaf,
			     int64_t space, const struct hlo_instr *instr, const char *what, bool note,
			     bool need_layout, struct apply_edits *ed, char *why, size_t whylen)
{
	struct apply_leaves ls = { 0 };
	char path[128];
	const struct hlo_shape *ls_shape = apply_leaf_shape(s, leaf, path, sizeof path);
	bool ok = ls_shape && apply_leaves_at(t, p, s, &ls) && leaf < ls.n && ls.v[leaf].array;
	if (!ok) {
		free(ls.v);
		snprintf(why, whylen, "cannot find the layout of %s in the text", what);
		return false;
	}
	const struct apply_leaf *lf = &ls.v[leaf];
	if (!need_layout && lf->lay == NONE) {
		free(ls.v);
		return true;   /* a signature without layouts stays compatible */
	}
	char text[160];
	uint64_t st, en;
	bool noop;
	if (!apply_space_text(t, lf, ls_shape, space, &st, &en, text, sizeof text, &noop)) {
		free(ls.v);
		snprintf(why, whylen, "cannot read the layout of %s", what);
		return false;
	}
	if (!noop) {
		char nt[400];
		int wn = (int)(lf->end - lf->start > 200 ? 200 : lf->end - lf->start);
		bool tuple = s->type == PT_TUPLE;
		if (instr)
			snprintf(nt, sizeof nt, "was %.*s%s%s", wn, t->b + lf->start, tuple ? " at index " : "",
				 tuple ? path : "");
		else
			snprintf(nt, sizeof nt, "%s%s%s was %.*s", what, tuple ? " " : "", tuple ? path : "", wn,
				 t->b + lf->start);
		apply_edits_add(ed, st, en, text, lf->start, instr, note ? nt : NULL);
	}
	free(ls.v);
	return true;
}

/* Sets memory space `space` on the buffer at (seed, leaf) wherever it flows. */
static bool apply_space(struct hlo_module *m, struct hlo_instr *seed, uint32_t leaf, int64_t space,
			struct apply_edits *ed, char *why, size_t whylen)
{
	struct apply_text t = { m->file->src->buf, m->file->src->len };
	struct apply_flow fl = { .m = m };
	apply_flow_add(&fl, seed, leaf);
	for (uint32_t q = 0; q < fl.n && !fl.refused; q++) {
		struct apply_pos p = fl.v[q];
		apply_flow_up(&fl, p.i, p.leaf);
		apply_flow_down(&fl, p.i, p.leaf);
	}
	bool ok = !fl.refused;
	if (!ok)
		snprintf(why, whylen, "%s", fl.why);
	for (uint32_t q = 0; ok && q < fl.n; q++) {
		struct hlo_instr *i = fl.v[q].i;
		uint32_t l = fl.v[q].leaf;
		char what[160];
		snprintf(what, sizeof what, "%%%.*s", (int)(i->name_len > 120 ? 120 : i->name_len), i->name);
		uint64_t at = apply_instr_shape_at(&t, i);
		if (at == NONE) {
			snprintf(why, whylen, "the shape of %s is not written in the text", what);
			ok = false;
			break;
		}
		ok = apply_space_leaf(&t, at, i->shape, l, space, i, what, true, true, ed, why, whylen);
		/* Signatures: the parameter's and the root's shape, when written
		 * with layouts. */
		if (ok && i->op == OP_PARAMETER && i->number >= 0) {
			uint64_t sp = apply_sig_shape_at(&t, i->comp, i->number);
			if (sp != NONE)
				ok = apply_space_leaf(&t, sp, i->shape, l, space, i, "a signature", false, false, ed, why,
						      whylen);
		}
		if (ok && i == i->comp->root) {
			uint64_t sp = apply_sig_shape_at(&t, i->comp, -1);
			if (sp != NONE)
				ok = apply_space_leaf(&t, sp, i->shape, l, space, i, "a signature", false, false, ed, why,
						      whylen);
		}
		/* Operands written with their shape (long form). */
		for (uint32_t k = 0; ok && k < i->nusers; k++) {
			struct hlo_instr *u = i->users[k];
			if (k && u == i->users[k - 1])
				continue;
			for (uint32_t n = 0; ok && n < u->noperands; n++) {
				if (u->operands[n].instr != i)
					continue;
				uint64_t op = apply_operand_shape_at(&t, u, n);
				if (op != NONE)
					ok = apply_space_leaf(&t, op, i->shape, l, space, u, "an operand", false, true, ed,
							      why, whylen);
			}
		}
	}
	/* Escapes: the entry's parameters and results in entry_computation_layout. */
	struct hlo_comp *e = m->entry;
	for (uint32_t k = 0; ok && k < fl.necl_params; k++) {
		uint32_t p = fl.ecl_params[2 * k], l = fl.ecl_params[2 * k + 1];
		uint64_t at = apply_ecl_shape_at(&t, m, p);
		if (at == NONE || p >= e->nparams || !e->params[p])
			continue;
		char what[96];
		snprintf(what, sizeof what, "entry_computation_layout parameter %u", p);
		ok = apply_space_leaf(&t, at, e->params[p]->shape, l, space, NULL, what, true, true, ed, why,
				      whylen);
	}
	for (uint32_t k = 0; ok && k < fl.necl_results; k++) {
		uint64_t at = apply_ecl_shape_at(&t, m, -1);
		if (at == NONE || !e->root)
			continue;
		ok = apply_space_leaf(&t, at, e->root->shape, fl.ecl_results[2 * k], space, NULL,
				      "entry_computation_layout result", true, true, ed, why, whylen);
	}
	apply_flow_free(&fl);
	return ok;
}

/* ---- Sharding ---- */

/* The text of span sp, at most max bytes. */
static void apply_span_text(const struct apply_text *t, struct span sp, char *buf, size_t cap, size_t max)
{
	size_t n = (size_t)span_len(sp);
	if (n > max)
		n = max;
	snprintf(buf, cap, "%.*s%s", (int)n, t->b + sp.start, n < span_len(sp) ? "..." : "");
}

/* Adds ", sharding=<value>" after the last attribute of i.  Written as a
 * replacement of the instruction's last byte, so that a second, different
 * sharding added to the same instruction conflicts instead of piling up. */
static void apply_add_attr(struct apply_edits *ed, const struct apply_text *t, const struct hlo_instr *i,
			   const char *value, const char *note)
{
	uint64_t end = ir_instr_span(i).end;
	size_t n = strlen(value) + 16;
	char *text = xmalloc(n);
	snprintf(text, n, "%c, sharding=%s", t->b[end - 1], value);
	apply_edits_add(ed, end - 1, end, text, NONE, i, note);
	free(text);
}

/* Sets element `leaf` of the (tuple) sharding of i to s, or the whole
 * sharding when i's shape is an array.  whole_default: the text for the
 * other elements when i has no sharding (NULL: refuse). */
static bool apply_sharding_at(struct hlo_module *m, const struct apply_text *t, struct hlo_instr *i, uint32_t leaf,
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
			if (span_len(v) == strlen(s) && !memcmp(t->b + v.start, s, strlen(s)))
				return true;
			apply_span_text(t, v, old, sizeof old, 200);
			snprintf(note, sizeof note, "%swas sharding=%s", note_prefix, old);
			apply_edits_add(ed, v.start, v.end, s, NONE, i, note);
		} else {
			snprintf(note, sizeof note, "%swas no sharding", note_prefix);
			apply_add_attr(ed, t, i, s, note);
		}
		return true;
	}
	if (leaf >= nleaves) {
		snprintf(why, whylen, "leaf %u is out of range for the shape of %%%.*s", leaf, (int)i->name_len, i->name);
		return false;
	}
	struct arena *a = &m->file->arena;
	struct arena_mark mk = arena_mark(a);
	struct hlo_sharding sh;
	struct attr_error err;
	bool have = at && sharding_of(m->file, i, a, &sh, &err);
	if (at && !have) {
		arena_release(a, mk);
		snprintf(why, whylen, "the sharding of %%%.*s does not decode", (int)i->name_len, i->name);
		return false;
	}
	bool ok = true;
	if (have && sh.kind == SHARDING_TUPLE) {
		if (sh.nelems != nleaves) {
			snprintf(why, whylen, "the tuple sharding of %%%.*s has %u elements for %u leaves", (int)i->name_len,
				 i->name, sh.nelems, nleaves);
			ok = false;
		} else {
			struct span v = sh.elems[leaf].span;
			if (!(span_len(v) == strlen(s) && !memcmp(t->b + v.start, s, strlen(s)))) {
				char path[128];
				apply_leaf_shape(i->shape, leaf, path, sizeof path);
				apply_span_text(t, v, old, sizeof old, 200);
				snprintf(note, sizeof note, "%swas %s at index %s", note_prefix, old, path);
				apply_edits_add(ed, v.start, v.end, s, NONE, i, note);
			}
		}
	} else if (have || whole_default) {
		/* One sharding for every leaf, or none: write the tuple out. */
		char one[256];
		if (have)
			apply_span_text(t, ir_attr_value(at), one, sizeof one, 200);
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
			apply_add_attr(ed, t, i, text, note);
		}
		free(text);
	} else {
		snprintf(why, whylen, "%%%.*s is a tuple without a sharding", (int)i->name_len, i->name);
		ok = false;
	}
	arena_release(a, mk);
	return ok;
}

/* The entry output leaves that are i itself (ROOT operands) or share its
 * buffer through input_output_alias; out gets up to cap leaves. */
static uint32_t apply_outputs_of(struct hlo_module *m, const struct hlo_instr *i, uint32_t *out, uint32_t cap)
{
	struct hlo_comp *e = m->entry;
	uint32_t n = 0;
	if (!e || !e->root || i->comp != e)
		return 0;
	struct hlo_instr *r = e->root;
	if (r->op == OP_TUPLE) {
		uint32_t off = 0;
		for (uint32_t k = 0; k < r->noperands; k++) {
			struct hlo_instr *o = r->operands[k].instr;
			if (o == i && n < cap)
				out[n++] = off;
			off += o ? ir_leaf_count(o->shape) : 0;
		}
	}
	const struct hlo_attr *at = ir_module_attr(m, ATTR_INPUT_OUTPUT_ALIAS);
	if (at && i->op == OP_PARAMETER) {
		struct arena *a = &m->file->arena;
		struct arena_mark mk = arena_mark(a);
		struct attr_error err;
		struct hlo_value *v = attr_parse(m->file, at, a, &err);
		struct hlo_aliases al;
		if (v && attr_aliases(v, a, true, &al, &err))
			for (uint32_t k = 0; k < al.n; k++) {
				uint32_t ol;
				if (al.items[k].number == i->number && al.items[k].index.n == 0 &&
				    apply_index_leaf(r->shape, &al.items[k].output_index, &ol) && n < cap) {
					bool dup = false;
					for (uint32_t j = 0; j < n; j++)
						dup |= out[j] == ol;
					if (!dup)
						out[n++] = ol;
				}
			}
		arena_release(a, mk);
	}
	return n;
}

/* The one leaf of tuple shape s whose shape without layout is key (the
 * rule's fingerprint key for replicated-oversized), or -1. */
static int64_t apply_leaf_by_key(const struct hlo_shape *s, const char *key)
{
	if (!key)
		return -1;
	int64_t found = -1;
	uint32_t n = ir_leaf_count(s);
	char buf[512];
	for (uint32_t k = 0; k < n; k++) {
		const struct hlo_shape *l = apply_leaf_shape(s, k, NULL, 0);
		if (!l || ir_shape_format(l, false, buf, sizeof buf) >= sizeof buf || strcmp(buf, key))
			continue;
		if (found >= 0)
			return -1;   /* ambiguous */
		found = k;
	}
	return found;
}

static bool apply_sharding(struct hlo_module *m, const struct mem_model *mm, const struct finding *f,
			   struct hlo_instr *at, struct apply_edits *ed, char *why, size_t whylen)
{
	struct apply_text t = { m->file->src->buf, m->file->src->len };
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
	if (at->shape && at->shape->type == PT_TUPLE && (leaf = f->leaf) < 0 &&
	    (leaf = apply_leaf_by_key(at->shape, f->key)) < 0) {
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
		return apply_sharding_at(m, &t, root, (uint32_t)out_idx, f->suggest_text, NULL, "", ed, why, whylen);
	const char *dflt = at->op == OP_PARAMETER && at->comp == m->entry ? "{replicated}" : NULL;
	if (!apply_sharding_at(m, &t, at, (uint32_t)leaf, f->suggest_text, dflt, "", ed, why, whylen))
		return false;
	/* Keep the entry ROOT's sharding in step for outputs that are this
	 * array or share its buffer (donation needs equal per-device shapes). */
	uint32_t outs[16];
	uint32_t n = at->shape && at->shape->type != PT_TUPLE ? apply_outputs_of(m, at, outs, 16) : 0;
	for (uint32_t k = 0; k < n && root != at; k++) {
		if (!ir_attr(root, ATTR_SHARDING))
			break;  /* no output sharding to keep in step */
		if (!apply_sharding_at(m, &t, root, outs[k], f->suggest_text, NULL, "", ed, why, whylen))
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

bool apply_supported(const struct finding *f)
{
	return f->suggest == SUGGEST_SHARDING || f->suggest == SUGGEST_MEMORY_SPACE;
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
	if (f->suggest == SUGGEST_SHARDING) {
		ok = apply_sharding(m, mm, f, at, &ed, why, whylen);
	} else {
		int64_t leaf = 0;
		if (at->shape && at->shape->type == PT_TUPLE) {
			int64_t k = f->tuple_index;
			if (f->leaf >= 0)
				leaf = f->leaf;
			else if (k >= 0)
				leaf = k < (int64_t)at->shape->rank ? (int64_t)apply_leaf_offset(at->shape, k) : -1;
			else
				leaf = -1;
		}
		const struct hlo_shape *ls = leaf >= 0 ? apply_leaf_shape(at->shape, (uint32_t)leaf, NULL, 0) : NULL;
		if (!ls || !ir_shape_is_array(ls)) {
			snprintf(why, whylen, "cannot tell which array of %%%.*s to move", (int)at->name_len, at->name);
			ok = false;
		} else if (f->suggest_int < 0 || f->suggest_int > 1000000) {
			snprintf(why, whylen, "bad memory space %lld", (long long)f->suggest_int);
			ok = false;
		} else {
			ok = apply_space(m, at, (uint32_t)leaf, f->suggest_int, &ed, why, whylen);
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
			const struct hlo_instr *op0 = i->noperands ? i->operands[0].instr : NULL;
			switch (i->op) {
			case OP_GET_TUPLE_ELEMENT:
				if (op0 && op0->shape && op0->shape->type == PT_TUPLE)
					n += apply_space_diff(i->shape, ir_shape_tuple_elem(op0->shape, i->number));
				break;
			case OP_TUPLE:
				for (uint32_t j = 0; j < i->noperands && i->shape && j < i->shape->rank; j++)
					if (i->operands[j].instr)
						n += apply_space_diff(i->shape->elems[j], i->operands[j].instr->shape);
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
				for (uint32_t j = 0; j < i->noperands && j < i->callees[0]->nparams; j++)
					if (i->operands[j].instr && i->callees[0]->params[j])
						n += apply_space_diff(i->operands[j].instr->shape,
								      i->callees[0]->params[j]->shape);
				if (i->callees[0]->root)
					n += apply_space_diff(i->shape, i->callees[0]->root->shape);
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
