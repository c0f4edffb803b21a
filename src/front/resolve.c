/* resolve.c - name resolution for a parsed module.  Computation names live
 * in the interned entry's data slot for the module's lifetime, instruction
 * names in its binding slot for one computation at a time (sparse-style
 * scopes, no extra hash tables).  Also synthesises compact-GTE instructions
 * and infers the result shape of shape-less elementwise instructions.
 * Deliberately does not judge attributes: that is verify.c. */
#include "resolve.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "attr.h"
#include "build.h"
#include "compname.h"
#include "nameidx.h"
#include "value.h"

struct resolve_ctx {
	struct hlo_module *m;
	struct hlo_comp **inline_comps;  /* inline bodies sorted by span start */
	uint32_t ninline, capinline;
	struct hlo_file *f;
	struct diag_sink *d;
	struct arena scratch;       /* decoded attribute values, dropped per use */
	unsigned errors;
	uint64_t drop_mark;         /* source_drop: the text of instructions resolved */
	uint32_t ncallees, capcallees;  /* m->callees, grown (arena_vec_grow) as callees are found */
	struct hlo_instr **caller;  /* caller[e]: the instruction whose callee m->callees[e] is */
	uint32_t *comp_calls;       /* comp_calls[c->index]: where c's instructions' callees start */
	uint32_t *callee_ix;        /* callee_ix[e]: m->callees[e]'s index (resolve_callers) */
	struct nameidx comps;       /* the module's computations by name, while resolving */
	uint32_t near;              /* the last callee found there (nameidx_get_near) */
	const struct compnames *cn; /* the names the builder copied (NULL: none) */
	struct compname_cursor head_at, callee_at;
};

static void resolve_error(struct resolve_ctx *r, struct span sp, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void resolve_error(struct resolve_ctx *r, struct span sp, const char *fmt, ...)
{
	va_list ap;
	r->errors++;
	va_start(ap, fmt);
	diag_vreport(r->d, r->f->src, sp, DIAG_ERROR, fmt, ap);
	va_end(ap);
}

/* How many instructions (or computations) ahead the names an index will be
 * asked for are prefetched (nameidx_prefetch): a large module's indexes
 * are out of the caches. */
#define RESOLVE_AHEAD 24

/* How many computations ahead the module-wide passes start loading one:
 * on a large module each computation is a cache miss (its struct sits
 * among its instructions in the arena). */
#define RESOLVE_COMP_AHEAD 8

/* How many pending instructions ahead resolve_comp starts loading one. */
#define RESOLVE_INSTR_AHEAD 8

/* ---- computations ---- */

/* Starts loading i and what follows it in the same allocation, where
 * resolve_instr reads its operands and attributes (ir.h). */
static void resolve_prefetch_instr(const struct hlo_instr *i)
{
	__builtin_prefetch(i);
	__builtin_prefetch((const char *)i + 64);
	__builtin_prefetch((const char *)i + 128);
}

/* Starts loading c's struct, which may straddle three cache lines: the
 * passes over the computations read its name and flags at the front and
 * its pending list at the end. */
static void resolve_prefetch_comp(const struct hlo_comp *c)
{
	__builtin_prefetch(c);
	__builtin_prefetch((const char *)c + 64);
	__builtin_prefetch((const char *)c + sizeof *c - 1);
}

struct resolve_vec {
	void **p;
	uint32_t n, cap;
};

static void resolve_push(struct resolve_vec *v, void *x)
{
	if (v->n == v->cap) {
		v->cap = v->cap ? v->cap * 2 : 8;
		v->p = xreallocarray(v->p, v->cap, sizeof *v->p);
	}
	v->p[v->n++] = x;
}

/* c's name into r->comps, unindexed (nameidx_append): the builder's copy
 * (compname.h), or a copy of the text, one slice per header all over the
 * file, so that lookups leave the pages dropped behind. */
static void resolve_bind_comp(struct resolve_ctx *r, struct hlo_comp *c, uint64_t *mark)
{
	const char *text;
	const struct compname *n = compname_find(r->cn, false, c->name_off, ir_comp_name_len(c), &r->head_at, &text);
	if (n) {
		nameidx_append_hashed(&r->comps, text, n->n, n->hash, c, false);
		return;
	}
	source_drop(r->f->src, mark, ir_comp_span(c).start);
	nameidx_append(&r->comps, ir_comp_name(c), ir_comp_name_len(c), c, true);
}

/* The errors of the computations' names, in file order: each duplicate,
 * and each ENTRY after the first (a duplicate is neither); returns the
 * entry. */
static struct hlo_comp *resolve_entry_of(struct resolve_ctx *r, const struct resolve_vec *entries)
{
	void **dups;
	uint32_t ndup = nameidx_index(&r->comps, &dups), d = 0;
	struct hlo_comp *entry = NULL;
	for (uint32_t k = 0; k <= entries->n; k++) {
		struct hlo_comp *c = k < entries->n ? entries->p[k] : NULL;
		for (; d < ndup && (!c || ((struct hlo_comp *)dups[d])->index <= c->index); d++)
			resolve_error(r, ir_comp_name_span(dups[d]), "duplicate computation name '%.*s'",
				      IR_CNM((struct hlo_comp *)dups[d]));
		if (!c || (d && dups[d - 1] == c))
			continue;
		if (entry)
			resolve_error(r, ir_comp_name_span(c), "more than one ENTRY computation (the first is '%.*s')",
				      IR_CNM(entry));
		else
			entry = c;
	}
	free(dups);
	return entry;
}

/* Computation names into r->comps, the entry found, and the inline
 * bodies (r->inline_comps) listed in the same pass over the computations
 * (each a cache miss on a large module). */
static void resolve_bind_comps(struct resolve_ctx *r)
{
	struct hlo_module *m = r->m;
	struct hlo_comp *last = NULL;
	struct resolve_vec entries = { 0 };
	uint64_t mark = 0;
	bool fill = !m->contains;   /* the join of a parse in pieces made it */
	if (fill)
		m->contains = arena_array(&r->f->arena, m->ncomps ? m->ncomps : 1, 1);
	for (uint32_t i = 0; i < m->ncomps; i++) {
		struct hlo_comp *c = m->comps[i];
		if (i + RESOLVE_COMP_AHEAD < m->ncomps)
			resolve_prefetch_comp(m->comps[i + RESOLVE_COMP_AHEAD]);
		if (fill)
			m->contains[i] = (uint8_t)c->contains;
		if (c->inline_body) {
			if (r->ninline == r->capinline) {
				r->capinline = r->capinline ? 2 * r->capinline : 16;
				r->inline_comps = xreallocarray(r->inline_comps, r->capinline, sizeof *r->inline_comps);
			}
			r->inline_comps[r->ninline++] = c;
			continue;
		}
		last = c;
		resolve_bind_comp(r, c, &mark);
		if (c->is_entry)
			resolve_push(&entries, c);
	}
	struct hlo_comp *entry = resolve_entry_of(r, &entries);
	free(entries.p);
	if (!entry && last) {
		entry = last;
		entry->is_entry = true;
	}
	m->entry = entry;
	if (!entry)
		resolve_error(r, m->span, "module has no computations");
}


/* Adds the computations named by one value (a name, an inline body, or a
 * brace list / comma sequence of them) to out. */
static void resolve_callee_value(struct resolve_ctx *r, const struct hlo_value *v, struct resolve_vec *out)
{
	switch (v->kind) {
	case V_NAME:
	case V_IDENT: {
		struct hlo_comp *c = v->key ? nameidx_get(&r->comps, v->key->str, v->key->len) : NULL;
		/* Excerpts of real dumps sometimes drop callee bodies: say so, and
		 * treat the call as opaque rather than rejecting the module. */
		if (!c)
			diag_report(r->d, r->f->src, v->span, DIAG_WARNING,
				    "computation '%s' is not defined in this module; treating the call as opaque",
				    v->key ? v->key->str : "?");
		else
			resolve_push(out, c);
		break;
	}
	case V_BODY:
		if (v->u.comp)
			resolve_push(out, v->u.comp);
		break;
	case V_BRACE:
	case V_SEQ:
		for (const struct hlo_value *c = v->child; c; c = c->next)
			resolve_callee_value(r, c, out);
		break;
	default:
		resolve_error(r, v->span, "expected a computation name");
	}
}

/* The inline computation whose body starts at off, or NULL (binary search
 * over the module's inline bodies, sorted by position once). */
static struct hlo_comp *resolve_inline_at(struct resolve_ctx *r, uint64_t off)
{
	uint32_t lo = 0, hi = r->ninline;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		uint64_t s = ir_comp_span(r->inline_comps[mid]).start;
		if (s == off)
			return r->inline_comps[mid];
		if (s < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* The common case of a callee attribute, one name
 * (calls=%fused_computation.12), found without running the value grammar:
 * the builder's copy of the name (compname.h) when there is one, else the
 * text. */
static struct hlo_comp *resolve_callee_named(struct resolve_ctx *r, const struct hlo_attr *a)
{
	const char *text;
	const struct compname *n = compname_find(r->cn, true, a->value_off, a->value_len, &r->callee_at, &text);
	if (n)
		return nameidx_get_near(&r->comps, text, n->n, n->hash, &r->near);
	const char *name;
	size_t len;
	return compname_of_value(r->f->src->buf + a->value_off, a->value_len, &name, &len)
		       ? nameidx_get(&r->comps, name, len) : NULL;
}

static void resolve_callees(struct resolve_ctx *r, struct hlo_instr *i)
{
	if (!ir_names_comps(i))   /* a constant calls nothing (verify says so) */
		return;
	struct resolve_vec out = { 0 };
	uint32_t seen = 0;      /* callee attributes so far */
	bool one_each = true;   /* each of them named one computation */
	for (uint32_t k = 0; k < i->nattrs; k++) {
		struct hlo_attr *a = &ir_attrs(i)[k];
		if (!ir_attr_is_callee(a->key))
			continue;
		one_each &= out.n == seen++;
		/* to_apply={...}: the body was built by the module parse; decoding
		 * the value again would re-parse every nested body (quadratic). */
		struct hlo_comp *body = resolve_inline_at(r, a->value_off);
		if (body) {
			resolve_push(&out, body);
			continue;
		}
		struct hlo_comp *c = resolve_callee_named(r, a);
		if (c) {
			resolve_push(&out, c);
			continue;
		}
		struct arena_mark mk = arena_mark(&r->scratch);
		struct hlo_value *v = value_parse(r->f, ir_attr_value(a), &r->scratch, r->d);
		if (!v)
			r->errors++;
		else
			resolve_callee_value(r, v, &out);
		arena_release(&r->scratch, mk);
	}
	if (out.n > UINT16_MAX) {
		resolve_error(r, ir_instr_span(i), "more than %u called computations", UINT16_MAX);
		out.n = UINT16_MAX;
	}
	if (out.n) {
		struct hlo_module *m = r->m;
		if (r->ncallees + (uint64_t)out.n > UINT32_MAX)
			fatal_out_of_memory();
		if (r->ncallees + out.n > r->capcallees) {
			while (r->ncallees + out.n > r->capcallees)
				r->capcallees = r->capcallees ? 2 * r->capcallees : 256;
			m->callees = arena_vec_grow(m->callees, r->capcallees, sizeof *m->callees);
			r->caller = xreallocarray(r->caller, r->capcallees, sizeof *r->caller);
		}
		memcpy(m->callees + r->ncallees, out.p, out.n * sizeof *m->callees);
		for (uint32_t k = 0; k < out.n; k++)
			r->caller[r->ncallees + k] = i;
		i->callees_at = r->ncallees;
		i->ncallees = (uint16_t)out.n;
		r->ncallees += out.n;
		if (one_each && out.n == seen)
			i->flags |= IR_ONE_CALLEE_PER_ATTR;
	}
	free(out.p);
}

/* ---- instructions ---- */

/* Instruction names are slices, unique per computation.  Small
 * computations (most fused ones) are searched linearly; larger ones get a
 * name index (nameidx.h) for the duration of their resolution, with copies
 * of the names: a probe then reads neither the instruction nor the source,
 * whose pages are dropped behind (source_drop).  The index of the largest
 * computation is resolve's peak memory. */
#define RESOLVE_LINEAR_MAX 32

struct resolve_scope {
	struct hlo_comp *c;
	const char *src;             /* source buffer: operand names are offsets into it */
	struct nameidx names;        /* slots NULL for small computations */
};

/* i is named name[0..len): names in one computation mostly differ in
 * their last characters (param_0.62, param_1.63), so those go first. */
static inline bool resolve_same_name(const struct hlo_instr *i, const char *name, size_t len)
{
	if (ir_name_len(i) != len)
		return false;
	const char *n = ir_name(i);
	return !len || (n[len - 1] == name[len - 1] && !memcmp(n, name, len));
}

static struct hlo_instr *resolve_lookup(struct resolve_scope *sc, const char *name, size_t len)
{
	if (sc->names.slots)
		return nameidx_get(&sc->names, name, len);
	for (uint32_t k = 0; k < sc->c->ninstrs; k++) {
		struct hlo_instr *i = sc->c->instrs[k];
		if (resolve_same_name(i, name, len))
			return i;
	}
	return NULL;
}

/* Binds i's name; returns the instruction already bound to it, or NULL. */
static struct hlo_instr *resolve_bind(struct resolve_scope *sc, struct hlo_instr *i, uint32_t upto)
{
	if (sc->names.slots)
		return nameidx_put(&sc->names, ir_name(i), ir_name_len(i), i, true);
	for (uint32_t k = 0; k < upto; k++) {
		struct hlo_instr *j = sc->c->instrs[k];
		if (j != i && resolve_same_name(j, ir_name(i), ir_name_len(i)))
			return j;
	}
	return NULL;
}

static struct hlo_instr *resolve_new_gte(struct resolve_ctx *r, struct hlo_instr *base, int64_t index,
					 const char *name, size_t len, struct span sp)
{
	struct hlo_instr *g = arena_alloc(&r->f->arena, sizeof *g + sizeof(struct hlo_operand) +
					  sizeof(struct hlo_instr_extra));
	g->op = OP_GET_TUPLE_ELEMENT;
	g->async_wrapped = OP_COUNT;
	g->flags = IR_ANONYMOUS;
	g->xflags = IR_HAS_EXTRA;
	g->noperands = 1;
	ir_extra(g)->name = arena_strndup(&r->f->arena, name, len);
	g->name_len_short = len;
	g->start = sp.start;
	g->len = (uint32_t)span_len(sp);
	g->number = (int32_t)index;
	g->comp = base->comp;
	ir_operands(g)[0].instr = base;
	ir_operands(g)[0].off = sp.start;
	ir_operands(g)[0].len = span_len(sp) < IR_OPERAND_MAX_LEN ? span_len(sp) : IR_OPERAND_MAX_LEN;
	g->shape = ir_shape_tuple_elem(base->shape, index);
	ir_comp_note(g);
	if (!g->shape)
		resolve_error(r, sp, "tuple index %lld is out of range for '%.*s'", (long long)index,
			      IR_NM(base));
	return g;
}

/* Compact GTE "%p#1#0": reuse or create p#1 then p#1#0, named as XLA
 * sanitises them (p_1, p_1_0; p_1.1 on a clash), inserted after the base. */
static struct hlo_instr *resolve_compact_gte(struct resolve_ctx *r, struct resolve_scope *sc,
					     struct hlo_instr *base, const struct hlo_operand_extra *x,
					     struct span sp, struct resolve_vec *made)
{
	char name[256];
	int len = snprintf(name, sizeof name, "%.*s", IR_NM(base));
	for (uint32_t k = 0; k < x->ngte && base; k++) {
		len += snprintf(name + len, sizeof name - (size_t)len, "_%lld", (long long)x->gte[k]);
		if (len >= (int)sizeof name - 16)
			len = (int)sizeof name - 16;
		struct hlo_instr *g = NULL;
		for (uint32_t j = 0; j < made->n; j++) {
			struct hlo_instr *m = made->p[j];
			if (ir_operands(m)[0].instr == base && m->number == x->gte[k])
				g = m;
		}
		if (!g) {
			char alt[300];
			int alen = snprintf(alt, sizeof alt, "%s", name);
			for (unsigned u = 1; resolve_lookup(sc, alt, (size_t)alen); u++)
				alen = snprintf(alt, sizeof alt, "%s.%u", name, u);
			g = resolve_new_gte(r, base, x->gte[k], alt, (size_t)alen, sp);
			if (sc->names.slots)
				nameidx_put(&sc->names, ir_name(g), ir_name_len(g), g, true);
			resolve_push(made, g);
		}
		base = g;
	}
	return base;
}

/* True when from can reach to through operand names (a cycle).  Iterative:
 * a dependency chain can be as long as the computation. */
static bool resolve_reaches(struct resolve_scope *sc, struct hlo_instr *from, struct hlo_instr *to)
{
	uint32_t n = sc->c->ninstrs;
	uint8_t *seen = xcalloc(n + 1, 1);
	struct hlo_instr **stack = xmalloc((n + 1) * sizeof *stack);
	uint32_t top = 0;
	bool found = false;
	stack[top++] = from;
	seen[from->index] = 1;
	while (top && !found) {
		struct hlo_instr *i = stack[--top];
		for (uint32_t k = 0; k < i->noperands && !found; k++) {
			struct hlo_operand *o = &ir_operands(i)[k];
			struct hlo_instr *t = o->instr ? o->instr : resolve_lookup(sc, sc->src + o->off, o->len);
			if (!t || t->comp != sc->c)
				continue;
			if (t == to)
				found = true;
			else if (!seen[t->index] && top < n) {
				seen[t->index] = 1;
				stack[top++] = t;
			}
		}
	}
	free(stack);
	free(seen);
	return found;
}

static struct hlo_instr *resolve_ref(struct resolve_ctx *r, struct resolve_scope *sc, struct hlo_instr *user,
				     const char *name, size_t len, struct span sp)
{
	struct hlo_instr *t = resolve_lookup(sc, name, len);
	if (!t) {
		resolve_error(r, sp, "use of undefined instruction '%.*s'", (int)len, name);
		return NULL;
	}
	if (t->index >= user->index && !ir_is_anonymous(t)) {
		if (t == user || resolve_reaches(sc, t, user))
			resolve_error(r, sp, "instruction '%.*s' depends on itself through '%.*s' (cycle)",
				      IR_NM(user), (int)len, name);
		else
			resolve_error(r, sp, "use of '%.*s' before its definition", (int)len, name);
		return NULL;
	}
	return t;
}

/* Reads an integer-list attribute ({0,1}); absent = empty.  False on junk. */
static bool resolve_dims(struct resolve_ctx *r, struct hlo_instr *i, enum attr_key key, int64_t **out,
			 uint32_t *n)
{
	const struct hlo_attr *a = ir_attr(i, key);
	*n = 0;
	*out = NULL;
	if (!a)
		return true;
	struct hlo_value *v = value_parse(r->f, ir_attr_value(a), &r->scratch, NULL);
	return value_int_list(v, &r->scratch, out, n);
}

static bool resolve_has(const int64_t *v, uint32_t n, int64_t x)
{
	for (uint32_t k = 0; k < n; k++)
		if (v[k] == x)
			return true;
	return false;
}

/* dot: batch dims, then lhs free dims, then rhs free dims (ShapeInference). */
static struct hlo_shape *resolve_infer_dot(struct resolve_ctx *r, struct hlo_instr *i,
					   const struct hlo_shape *lhs, const struct hlo_shape *rhs)
{
	if (!ir_shape_is_array(lhs) || !ir_shape_is_array(rhs))
		return NULL;
	int64_t *lb, *lc, *rb, *rc;
	uint32_t nlb, nlc, nrb, nrc;
	struct arena_mark mk = arena_mark(&r->scratch);
	struct hlo_shape *res = NULL;
	if (resolve_dims(r, i, ATTR_LHS_BATCH_DIMS, &lb, &nlb) && resolve_dims(r, i, ATTR_LHS_CONTRACTING_DIMS, &lc, &nlc) &&
	    resolve_dims(r, i, ATTR_RHS_BATCH_DIMS, &rb, &nrb) && resolve_dims(r, i, ATTR_RHS_CONTRACTING_DIMS, &rc, &nrc)) {
		int64_t dims[64];
		uint32_t n = 0;
		bool ok = true;
		for (uint32_t k = 0; k < nlb && n < 64; k++) {
			if (lb[k] < 0 || lb[k] >= (int64_t)lhs->rank) {
				ok = false;
				break;
			}
			dims[n++] = lhs->dims[lb[k]];
		}
		for (uint32_t k = 0; k < lhs->rank && n < 64; k++)
			if (!resolve_has(lb, nlb, k) && !resolve_has(lc, nlc, k))
				dims[n++] = lhs->dims[k];
		for (uint32_t k = 0; k < rhs->rank && n < 64; k++)
			if (!resolve_has(rb, nrb, k) && !resolve_has(rc, nrc, k))
				dims[n++] = rhs->dims[k];
		if (ok) {
			struct hlo_shape s = { .type = lhs->type, .rank = n, .dims = dims };
			res = build_shape_like(r->f, &s, lhs->type);
		}
	}
	arena_release(&r->scratch, mk);
	return res;
}

/* transpose: result dim k is operand dim dimensions[k]. */
static struct hlo_shape *resolve_infer_transpose(struct resolve_ctx *r, struct hlo_instr *i,
						 const struct hlo_shape *op)
{
	if (!ir_shape_is_array(op) || op->rank > 64)
		return NULL;
	int64_t *perm, dims[64];
	uint32_t n;
	struct arena_mark mk = arena_mark(&r->scratch);
	struct hlo_shape *res = NULL;
	if (resolve_dims(r, i, ATTR_DIMENSIONS, &perm, &n) && n == op->rank) {
		bool ok = true;
		for (uint32_t k = 0; k < n; k++) {
			if (perm[k] < 0 || perm[k] >= (int64_t)n) {
				ok = false;
				break;
			}
			dims[k] = op->dims[perm[k]];
		}
		if (ok) {
			struct hlo_shape s = { .type = op->type, .rank = n, .dims = dims };
			res = build_shape_like(r->f, &s, op->type);
		}
	}
	arena_release(&r->scratch, mk);
	return res;
}

/* Result shapes that may be omitted in the text (elementwise and structural
 * ops, dot); others must be written. */
static struct hlo_shape *resolve_infer(struct resolve_ctx *r, struct hlo_instr *i)
{
	struct hlo_shape *a0 = i->noperands > 0 ? ir_operands(i)[0].instr->shape : NULL;
	struct hlo_shape *a1 = i->noperands > 1 ? ir_operands(i)[1].instr->shape : NULL;
	switch (i->op) {
	case OP_ABS: case OP_CEIL: case OP_COUNT_LEADING_ZEROS: case OP_COPY: case OP_FLOOR:
	case OP_NOT: case OP_NEGATE: case OP_POPCNT: case OP_SIGN: case OP_ROUND_NEAREST_AFZ:
	case OP_ROUND_NEAREST_EVEN: case OP_ACOS: case OP_ACOSH: case OP_ASIN: case OP_ASINH:
	case OP_ATANH: case OP_EXPONENTIAL_MINUS_ONE: case OP_LOG: case OP_LOG_PLUS_ONE:
	case OP_LOGISTIC: case OP_SQRT: case OP_CBRT: case OP_RSQRT: case OP_TANH: case OP_ERF:
	case OP_SINE: case OP_SINH: case OP_COSINE: case OP_COSH: case OP_TAN: case OP_EXPONENTIAL:
	case OP_ADD: case OP_DIVIDE: case OP_MULTIPLY: case OP_MULHI: case OP_SUBTRACT: case OP_ATAN2:
	case OP_MAXIMUM: case OP_MINIMUM: case OP_POWER: case OP_REMAINDER: case OP_AND: case OP_OR:
	case OP_XOR: case OP_SHIFT_LEFT: case OP_SHIFT_RIGHT_ARITHMETIC: case OP_SHIFT_RIGHT_LOGICAL:
	case OP_ADD_DEPENDENCY: case OP_OPT_BARRIER: case OP_WHILE:
		return a0;
	case OP_IS_FINITE: case OP_COMPARE:
		return a0 && ir_shape_is_array(a0) ? build_shape_like(r->f, a0, PT_PRED) : NULL;
	case OP_REAL: case OP_IMAG:
		return a0 && ir_shape_is_array(a0)
			       ? build_shape_like(r->f, a0, a0->type == PT_C128 ? PT_F64 : PT_F32) : NULL;
	case OP_SELECT: case OP_CLAMP:
		return a1;
	case OP_AFTER_ALL: {
		struct hlo_shape tok = { .type = PT_TOKEN };
		return build_shape_like(r->f, &tok, PT_TOKEN);
	}
	case OP_TUPLE: {
		struct hlo_shape **e = xcalloc(i->noperands + 1, sizeof *e);
		for (uint32_t k = 0; k < i->noperands; k++)
			e[k] = ir_operands(i)[k].instr->shape;
		struct hlo_shape *t = build_shape_tuple(r->f, e, i->noperands);
		free(e);
		return t;
	}
	case OP_GET_TUPLE_ELEMENT:
		return a0 && i->number >= 0 ? ir_shape_tuple_elem(a0, i->number) : NULL;
	case OP_DOT:
		return resolve_infer_dot(r, i, a0, a1);
	case OP_TRANSPOSE:
		return resolve_infer_transpose(r, i, a0);
	case OP_CALL:
		return i->ncallees && ir_callees(i)[0]->root ? ir_callees(i)[0]->root->shape : NULL;
	case OP_CONDITIONAL:
		return i->ncallees && ir_callees(i)[0]->root ? ir_callees(i)[0]->root->shape : NULL;
	default:
		return NULL;
	}
}

static void resolve_tuple_index(struct resolve_ctx *r, struct hlo_instr *i)
{
	const struct hlo_attr *a = ir_attr(i, ATTR_INDEX);
	if (!a)
		return;
	const char *t = r->f->src->buf + a->value_off;
	char *end;
	long long v = strtoll(t, &end, 10);
	if (end == t || (uint64_t)(end - r->f->src->buf) != a->value_off + a->value_len)
		resolve_error(r, ir_attr_value(a), "index must be an integer");
	else if (v < 0 || v > INT32_MAX)
		resolve_error(r, ir_attr_value(a), "tuple index %lld is out of range", v);
	else
		i->number = (int32_t)v;
}

static void resolve_control(struct resolve_ctx *r, struct resolve_scope *sc, struct hlo_instr *i)
{
	const struct hlo_attr *a = ir_attr(i, ATTR_CONTROL_PREDECESSORS);
	if (!a)
		return;
	struct arena_mark mk = arena_mark(&r->scratch);
	struct hlo_value *v = value_parse(r->f, ir_attr_value(a), &r->scratch, r->d);
	if (!v || v->kind != V_BRACE) {
		if (v)
			resolve_error(r, ir_attr_value(a), "control-predecessors must be a list of instruction names");
		else
			r->errors++;
		arena_release(&r->scratch, mk);
		return;
	}
	uint32_t n = value_count(v), k = 0;
	struct hlo_instr_extra *x = ir_extra(i);   /* made by build_decode */
	x->control = arena_array(&r->f->arena, n, sizeof *x->control);
	for (struct hlo_value *e = v->child; e; e = e->next) {
		if (e->kind != V_NAME && e->kind != V_IDENT) {
			resolve_error(r, e->span, "expected an instruction name");
			continue;
		}
		struct hlo_instr *t = resolve_ref(r, sc, i, e->key->str, e->key->len, e->span);
		if (t)
			x->control[k++] = t;
	}
	x->ncontrol = k;
	arena_release(&r->scratch, mk);
}

/* c->params from its parameter instructions. */
static void resolve_param_slots(struct resolve_ctx *r, struct hlo_comp *c)
{
	int64_t max = -1;
	for (uint32_t k = 0; k < c->ninstrs; k++)
		if (c->instrs[k]->op == OP_PARAMETER && c->instrs[k]->number > max)
			max = c->instrs[k]->number;
	if (max >= (int64_t)c->ninstrs) {
		for (uint32_t k = 0; k < c->ninstrs; k++)
			if (c->instrs[k]->op == OP_PARAMETER && c->instrs[k]->number == max)
				resolve_error(r, ir_instr_span(c->instrs[k]),
					      "parameter number %lld is larger than the number of parameters", (long long)max);
		return;
	}
	c->nparams = (uint32_t)(max + 1);
	c->params = arena_array(&r->f->arena, c->nparams, sizeof *c->params);
	for (uint32_t k = 0; k < c->ninstrs; k++) {
		struct hlo_instr *p = c->instrs[k];
		if (p->op != OP_PARAMETER || p->number < 0)
			continue;
		if (c->params[p->number])
			resolve_error(r, ir_instr_span(p), "duplicate parameter number %lld in computation '%.*s'",
				      (long long)p->number, IR_CNM(c));
		else
			c->params[p->number] = p;
	}
	for (uint32_t k = 0; k < c->nparams; k++)
		if (!c->params[k])
			resolve_error(r, ir_comp_name_span(c), "computation '%.*s' has no parameter number %u", IR_CNM(c), k);
}

/* Like XLA, parameter names and shapes in a signature are syntax only;
 * the result shape must match the root (inferred or written). */
static void resolve_signature(struct resolve_ctx *r, struct hlo_comp *c)
{
	if (c->has_signature && !c->inline_body && c->root && c->root->shape && c->sig_result &&
	    !ir_shape_equal(c->sig_result, c->root->shape, false)) {
		char a[128], b[128];
		ir_shape_format(c->sig_result, false, a, sizeof a);
		ir_shape_format(c->root->shape, false, b, sizeof b);
		resolve_error(r, ir_comp_name_span(c), "signature result %s does not match the root shape %s", a, b);
	}
}

/* Emits each synthesized GTE right after the tuple it reads, as XLA's
 * post-order printing places it. */
static void resolve_place_gtes(struct resolve_ctx *r, struct hlo_comp *c, struct resolve_vec *made)
{
	uint32_t total = c->ninstrs + made->n, n = 0;
	struct hlo_instr **out = arena_array(&r->f->arena, total, sizeof *out);
	for (uint32_t k = 0; k < c->ninstrs; k++) {
		out[n++] = c->instrs[k];
		for (uint32_t done = n - 1; done < n; done++)
			for (uint32_t j = 0; j < made->n; j++)
				if (ir_operands(((struct hlo_instr *)made->p[j]))[0].instr == out[done])
					out[n++] = made->p[j];
	}
	c->instrs = out;
	c->ninstrs = n;
	for (uint32_t k = 0; k < n; k++)
		c->instrs[k]->index = k;
}

/* Binds every name of c first so forward references can be told from
 * undefined ones (and cycles reported as such). */
static void resolve_bind_all(struct resolve_ctx *r, struct resolve_scope *sc, struct hlo_comp *c)
{
	uint64_t mark = ir_comp_span(c).start;   /* a large computation's text goes as it is bound */
	for (uint32_t k = 0; k < c->ninstrs; k++) {
		struct hlo_instr *i = c->instrs[k];
		if (sc->names.slots && k + RESOLVE_AHEAD < c->ninstrs)
			nameidx_prefetch(&sc->names, ir_name(c->instrs[k + RESOLVE_AHEAD]),
					 ir_name_len(c->instrs[k + RESOLVE_AHEAD]));
		source_drop(r->f->src, &mark, i->start);
		i->comp = c;
		if (!resolve_bind(sc, i, k))
			continue;
		if (ir_is_anonymous(i)) {
			/* nested instructions: parameter.anon, parameter.anon.1, ... */
			char buf[256];
			for (unsigned n = 1;; n++) {
				int len = snprintf(buf, sizeof buf, "%.*s.%u", IR_NM(i), n);
				if (!resolve_lookup(sc, buf, (size_t)len)) {
					ir_extra(i)->name = arena_strndup(&r->f->arena, buf, (size_t)len);
					i->name_len_short = (uint32_t)len;
					break;
				}
			}
			if (resolve_bind(sc, i, k))
				resolve_error(r, ir_instr_name_span(i), "cannot name nested instruction");
		} else {
			resolve_error(r, ir_instr_name_span(i), "duplicate instruction name '%.*s' in computation '%.*s'",
				      IR_NM(i), IR_CNM(c));
		}
	}
}

/* i's operands and control predecessors, all in its computation; false
 * when an operand could not be bound. */
static bool resolve_operands(struct resolve_ctx *r, struct resolve_scope *sc, struct hlo_instr *i,
			     struct resolve_vec *made)
{
	bool ok = true;
	for (uint32_t j = 0; j < i->noperands; j++) {
		struct hlo_operand *o = &ir_operands(i)[j];
		if (o->instr)
			continue;
		const struct hlo_operand_extra *x = ir_extra(i) && ir_extra(i)->operands ? &ir_extra(i)->operands[j] : NULL;
		struct hlo_instr *t = resolve_ref(r, sc, i, r->f->src->buf + o->off, o->len, ir_operand_span(o));
		if (t && x && x->ngte)
			t = resolve_compact_gte(r, sc, t, x, ir_operand_span(o), made);
		o->instr = t;
		ok &= t != NULL;
		if (t && x && x->declared && t->shape && !ir_shape_equal(x->declared, t->shape, false)) {
			char a[128], b[128];
			ir_shape_format(x->declared, false, a, sizeof a);
			ir_shape_format(t->shape, false, b, sizeof b);
			resolve_error(r, ir_operand_span(o), "operand shape %s does not match the shape %s of '%.*s'",
				      a, b, IR_NM(t));
		}
	}
	resolve_control(r, sc, i);
	return ok;
}

/* Instruction i after its names: callees, tuple index and operands (when
 * sc is set; else resolve_names did them), the shape to infer. */
static void resolve_instr(struct resolve_ctx *r, struct resolve_scope *sc, struct hlo_instr *i,
			  struct resolve_vec *made)
{
	resolve_callees(r, i);
	if (sc && i->op == OP_GET_TUPLE_ELEMENT)
		resolve_tuple_index(r, i);
	bool ok = true;
	if (sc)
		ok = resolve_operands(r, sc, i, made);
	for (uint32_t j = 0; j < i->noperands && ok; j++)
		ok = ir_operands(i)[j].instr != NULL;
	if (!i->shape && ok) {
		i->shape = resolve_infer(r, i);
		ir_comp_note(i);
		if (!i->shape)
			resolve_error(r, ir_instr_opcode_span(i),
				      "cannot infer the result shape of '%.*s'; write it before the opcode",
				      IR_NM(i));
	}
}

/* c's users (ir_user), counted first so that they are one array; an
 * instruction using the same operand twice is one user.  Operands are in
 * their user's computation, so this is c's own work: a piece of a parse
 * does it on its thread (resolve_names). */
static void resolve_users(struct resolve_ctx *r, struct hlo_comp *c)
{
	for (uint32_t k = 0; k < c->ninstrs; k++) {
		struct hlo_instr *i = c->instrs[k];
		for (uint32_t j = 0; j < i->noperands; j++)
			if (ir_operands(i)[j].instr && ir_operands(i)[j].instr->comp == c)
				ir_operands(i)[j].instr->nusers++;
	}
	uint64_t n = 0;
	for (uint32_t k = 0; k < c->ninstrs; k++) {
		struct hlo_instr *i = c->instrs[k];
		i->users_at = (uint32_t)n;
		n += i->nusers;
		i->nusers = 0;
		if (n > UINT32_MAX)
			fatal_out_of_memory();
	}
	c->users = arena_array(&r->f->arena, n, sizeof *c->users);
	for (uint32_t k = 0; k < c->ninstrs; k++) {
		struct hlo_instr *i = c->instrs[k];
		for (uint32_t j = 0; j < i->noperands; j++) {
			struct hlo_instr *t = ir_operands(i)[j].instr;
			if (t && t->comp == c && (!t->nusers || ir_user(t, t->nusers - 1) != i))
				c->users[t->users_at + t->nusers++] = i->index;
		}
	}
}

static void resolve_prefetch_operands(struct resolve_scope *sc, const struct hlo_instr *i)
{
	for (uint32_t j = 0; j < i->noperands; j++)
		if (!ir_operands(i)[j].instr)
			nameidx_prefetch(&sc->names, sc->src + ir_operands(i)[j].off, ir_operands(i)[j].len);
}

static bool resolve_root_updates(const struct hlo_instr *i)
{
	return i && (i->op == OP_DYNAMIC_UPDATE_SLICE || i->op == OP_SCATTER);
}

/* Resolves c: its names (unless resolve_names did), then per instruction
 * in order; with full_instrs, all of resolve_instr, else only the names;
 * then its users. */
static void resolve_comp_with(struct resolve_ctx *r, struct hlo_comp *c, bool full_instrs)
{
	struct resolve_scope sc = { .c = c, .src = r->f->src->buf };
	struct resolve_vec made = { 0 };
	if (c->ninstrs > RESOLVE_LINEAR_MAX)
		nameidx_init(&sc.names, c->ninstrs);
	resolve_bind_all(r, &sc, c);
	uint64_t mark = ir_comp_span(c).start;
	for (uint32_t k = 0; k < c->ninstrs; k++) {
		source_drop(r->f->src, &mark, c->instrs[k]->start);
		if (sc.names.slots && k + RESOLVE_AHEAD < c->ninstrs)
			resolve_prefetch_operands(&sc, c->instrs[k + RESOLVE_AHEAD]);
		if (full_instrs)
			resolve_instr(r, &sc, c->instrs[k], &made);
		else
			resolve_operands(r, &sc, c->instrs[k], &made);
	}
	if (made.n)
		resolve_place_gtes(r, c, &made);
	free(made.p);
	if (sc.names.slots)
		nameidx_free(&sc.names);
	resolve_users(r, c);
	c->root_updates = resolve_root_updates(c->root);
	for (uint32_t k = 0; c->root && c->root->op == OP_TUPLE && k < c->root->noperands; k++)
		c->root_updates |= resolve_root_updates(ir_operands(c->root)[k].instr);
}

/* Resolves c; when resolve_names did its local part, only what needs the
 * module: callees and the shapes inferred from them, read only in the
 * computations that have such instructions (most fused ones have none).
 * That reads the builder's copies of callee names (compname.h), seldom the
 * text, whose pages the verifier, checking computations beside resolve
 * (verify_begin), drops behind it: not dropped here, under its feet. */
static void resolve_comp(struct resolve_ctx *r, struct hlo_comp *c)
{
	if (!c->names_resolved) {
		resolve_comp_with(r, c, true);
		resolve_param_slots(r, c);
		resolve_signature(r, c);
	} else if (c->contains & IR_CONTAINS_UNRESOLVED) {
		struct hlo_instr **q = c->pending;   /* RESOLVE_INSTR_AHEAD ahead of p, or at the end */
		for (unsigned n = 0; q && *q && n < RESOLVE_INSTR_AHEAD; n++)
			q++;
		for (struct hlo_instr **p = c->pending; p && *p; p++) {
			/* the index's slots for the callees ahead: out of the caches */
			uint32_t ahead;
			if (compname_peek(r->cn, true, &r->callee_at, RESOLVE_AHEAD, &ahead))
				nameidx_prefetch_hashed(&r->comps, ahead);
			if (q && *q)
				resolve_prefetch_instr(*q++);
			resolve_instr(r, NULL, *p, NULL);
		}
		resolve_signature(r, c);
	}
}

/* The n instructions of c the serial resolve still has work on, listed
 * while they are in the cache: on a large module every other instruction
 * of a computation that calls another would be a cache miss there. */
static void resolve_keep_pending(struct hlo_comp *c, struct hlo_file *f, uint32_t n)
{
	struct hlo_instr **p = c->pending = arena_array(&f->arena, (size_t)n + 1, sizeof *p);   /* zeroed */
	for (uint32_t k = 0; k < c->ninstrs; k++)
		if (ir_instr_unresolved(c->instrs[k]))
			*p++ = c->instrs[k];
}

/* What c decides alone, on the thread of the parse piece that built it
 * while its text is in the cache: names, tuple indexes, parameters, and
 * its signature when no shape is left to infer. */
bool resolve_names(struct hlo_comp *c, struct hlo_file *f, struct diag_sink *d)
{
	struct resolve_ctx r = { .f = f, .d = d };
	arena_init(&r.scratch);
	resolve_comp_with(&r, c, false);
	uint32_t pending = 0;
	for (uint32_t k = 0; k < c->ninstrs; k++) {
		struct hlo_instr *i = c->instrs[k];
		if (i->op == OP_GET_TUPLE_ELEMENT && i->number < 0)
			resolve_tuple_index(&r, i);   /* what the builder did not decode */
		pending += ir_instr_unresolved(i);
	}
	resolve_param_slots(&r, c);
	if (!(c->contains & IR_CONTAINS_UNRESOLVED))
		resolve_signature(&r, c);
	arena_free(&r.scratch);
	c->names_resolved = !r.errors;
	if (c->names_resolved && pending)
		resolve_keep_pending(c, f, pending);
	return !r.errors;
}

/* Callers, counted first: each computation's are a slice of one array,
 * from m->callers_at (a counting sort of the call edges, which were
 * recorded in module order: m->callees, r->caller).  Each callee is read
 * once, for its index (r->callee_ix, which the recursion check reads too)
 * and whether its root updates in place: on a large module every
 * computation read is a cache miss.  (Counting callers as the edges are
 * recorded was slower, by about 50 ms at 1 GB: the callees are then out
 * of the caches and out of order.) */
static void resolve_callers(struct resolve_ctx *r)
{
	struct hlo_module *m = r->m;
	uint32_t n = m->ncomps, *ix = r->callee_ix = xmalloc(((size_t)r->ncallees + 1) * sizeof *ix);
	uint32_t *at = arena_array(&r->f->arena, (size_t)n + 2, sizeof *at);   /* zeroed */
	for (uint32_t e = 0; e < r->ncallees; e++) {
		const struct hlo_comp *callee = m->callees[e];
		ix[e] = callee->index;
		at[callee->index + 2]++;
		if (callee->root_updates && r->caller[e]->op != OP_CONSTANT)
			r->caller[e]->xflags |= IR_CALLS_UPDATE;
	}
	for (uint32_t k = 2; k < n + 2; k++)
		at[k] += at[k - 1];   /* at[c + 1]: where c's callers start; no more than the callees */
	m->callers = arena_array(&r->f->arena, at[n + 1], sizeof *m->callers);
	for (uint32_t e = 0; e < r->ncallees; e++)
		m->callers[at[ix[e] + 1]++] = r->caller[e];
	m->callers_at = at;   /* at[c]: where c's start, at[n] where they end */
}

/* Recursion through calls is not HLO: report the first cycle found from
 * computation c (by index; state by index too). */
static bool resolve_call_cycle(struct resolve_ctx *r, uint32_t c, uint8_t *state)
{
	state[c] = 1;
	for (uint32_t e = r->comp_calls[c]; e < r->comp_calls[c + 1]; e++) {
		uint32_t t = r->callee_ix[e];
		if (state[t] == 1) {
			resolve_error(r, ir_instr_span(r->caller[e]),
				      "computation '%.*s' calls itself through '%.*s' (recursion)",
				      IR_CNM(r->m->comps[t]), IR_CNM(r->m->comps[c]));
			return true;
		}
		if (state[t] == 0 && resolve_call_cycle(r, t, state))
			return true;
	}
	state[c] = 2;
	return false;
}

static int resolve_cmp_start(const void *a, const void *b)
{
	uint64_t x = ir_comp_span(*(struct hlo_comp *const *)a).start, y = ir_comp_span(*(struct hlo_comp *const *)b).start;
	return x < y ? -1 : x > y;
}

/* Decodes the FileLocations / StackFrames rows ({key=value ...} groups)
 * the builder kept as spans. */
static void resolve_stack_tables(struct resolve_ctx *r)
{
	struct hlo_stack_tables *t = &r->m->stack;
	uint32_t nloc = t->nlocation_rows, nfr = t->nframe_rows;
	if (!nloc && !nfr)
		return;
	t->file_locations = arena_array(&r->f->arena, nloc ? nloc : 1, sizeof *t->file_locations);
	t->frames = arena_array(&r->f->arena, nfr ? nfr : 1, sizeof *t->frames);
	t->nfile_locations = nloc;
	t->nframes = nfr;
	struct arena_mark mk = arena_mark(&r->scratch);
	for (uint32_t i = 0; i < nloc + nfr; i++) {
		struct span sp = i < nloc ? t->location_rows[i] : t->frame_rows[i - nloc];
		struct hlo_value *g = value_parse(r->f, sp, &r->scratch, r->d);
		if (!g) {
			r->errors++;
			continue;
		}
		for (struct hlo_value *it = g->child; it; it = it->next) {
			if (it->kind != V_PAIR || !it->child || it->child->kind != V_INT) {
				resolve_error(r, it->span, "expected key=integer in stack frame table");
				continue;
			}
			const char *k = it->key->str;
			int64_t v = it->child->u.i;
			if (i < nloc) {
				struct hlo_file_location *l = &t->file_locations[i];
				if (!strcmp(k, "file_name_id")) l->file_name_id = v;
				else if (!strcmp(k, "function_name_id")) l->function_name_id = v;
				else if (!strcmp(k, "line")) l->line = v;
				else if (!strcmp(k, "end_line")) l->end_line = v;
				else if (!strcmp(k, "column")) l->column = v;
				else if (!strcmp(k, "end_column")) l->end_column = v;
				else resolve_error(r, it->span, "unknown file location field '%s'", k);
			} else {
				struct hlo_stack_frame *f = &t->frames[i - nloc];
				if (!strcmp(k, "file_location_id")) f->file_location_id = v;
				else if (!strcmp(k, "parent_frame_id")) f->parent_frame_id = v;
				else resolve_error(r, it->span, "unknown stack frame field '%s'", k);
			}
		}
	}
	arena_release(&r->scratch, mk);
}

/* The first computation from k on that the module-wide pass reads: the
 * pieces' threads did all of the others (their names and users), and
 * reading them would be a cache miss each. */
static uint32_t resolve_next_comp(const struct hlo_module *m, uint32_t k)
{
	while (k < m->ncomps && m->names_resolved && !(m->contains[k] & IR_CONTAINS_UNRESOLVED))
		k++;
	return k;
}

/* Each computation's module-wide part, in order, and where its callees
 * start (r->comp_calls).  The structs of the computations read are loaded
 * RESOLVE_COMP_AHEAD of them ahead, and the next one's pending list while
 * this one is resolved. */
static void resolve_comps(struct resolve_ctx *r)
{
	struct hlo_module *m = r->m;
	uint32_t far = resolve_next_comp(m, 0), k = 0;
	for (unsigned n = 0; n < RESOLVE_COMP_AHEAD && far < m->ncomps; n++, far = resolve_next_comp(m, far + 1))
		resolve_prefetch_comp(m->comps[far]);
	for (uint32_t w = resolve_next_comp(m, 0), next; w < m->ncomps; w = next) {
		next = resolve_next_comp(m, w + 1);
		for (; k <= w; k++)
			r->comp_calls[k] = r->ncallees;
		if (far < m->ncomps) {
			resolve_prefetch_comp(m->comps[far]);
			far = resolve_next_comp(m, far + 1);
		}
		if (next < m->ncomps && m->comps[next]->pending)
			__builtin_prefetch(m->comps[next]->pending);
		resolve_comp(r, m->comps[w]);
		/* what the marks inside small computations leave (the serial parse) */
		if (!m->names_resolved)
			source_drop(r->f->src, &r->drop_mark, ir_comp_span(m->comps[w]).start);
	}
	for (; k <= m->ncomps; k++)
		r->comp_calls[k] = r->ncallees;
}

void resolve_module(struct hlo_module *m, struct diag_sink *d)
{
	struct resolve_ctx r = { .m = m, .f = m->file, .d = d };
	arena_init(&r.scratch);
	resolve_stack_tables(&r);
	for (uint32_t k = 0; k < m->nattrs; k++) {
		struct hlo_attr *a = &m->attrs[k];
		bool yes;
		if (a->key == ATTR_IS_SCHEDULED)
			m->is_scheduled = attr_text_bool(r.f, ir_attr_value(a), &yes) && yes;
		else if (a->key == ATTR_NUM_PARTITIONS)
			attr_text_int(r.f, ir_attr_value(a), &m->num_partitions);
		else if (a->key == ATTR_REPLICA_COUNT)
			attr_text_int(r.f, ir_attr_value(a), &m->replica_count);
	}
	r.cn = m->compnames;
	nameidx_init(&r.comps, m->ncomps);
	resolve_bind_comps(&r);
	if (r.ninline)
		qsort(r.inline_comps, r.ninline, sizeof *r.inline_comps, resolve_cmp_start);
	r.comp_calls = xmalloc(((size_t)m->ncomps + 1) * sizeof *r.comp_calls);
	resolve_comps(&r);
	nameidx_free(&r.comps);
	compname_free(&m->compnames);   /* the index borrowed its names */
	r.cn = NULL;
	m->callees = arena_vec_give(&r.f->arena, m->callees, r.ncallees * sizeof *m->callees);
	if (!r.errors) {
		resolve_callers(&r);
		uint8_t *state = xcalloc(m->ncomps + 1, 1);
		for (uint32_t k = 0; k < m->ncomps && !r.errors; k++)
			if (!state[k])
				resolve_call_cycle(&r, k, state);
		free(state);
	}
	free(r.inline_comps);
	free(r.comp_calls);
	free(r.caller);
	free(r.callee_ix);
	arena_free(&r.scratch);
}
