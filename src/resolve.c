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
#include "build.h"
#include "value.h"

struct resolve_ctx {
	struct hlo_module *m;
	struct hlo_file *f;
	struct diag_sink *d;
	struct arena scratch;       /* decoded attribute values, dropped per use */
	unsigned errors;
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

static bool resolve_is_callee_attr(enum attr_key k)
{
	switch (k) {
	case ATTR_CALLS: case ATTR_TO_APPLY: case ATTR_BODY: case ATTR_CONDITION:
	case ATTR_BRANCH_COMPUTATIONS: case ATTR_TRUE_COMPUTATION: case ATTR_FALSE_COMPUTATION:
	case ATTR_SELECT: case ATTR_SCATTER: case ATTR_CALLED_COMPUTATIONS:
		return true;
	default:
		return false;
	}
}

/* ---- computations ---- */

static void resolve_bind_comps(struct resolve_ctx *r)
{
	struct hlo_module *m = r->m;
	struct hlo_comp *entry = NULL, *last = NULL;
	for (uint32_t i = 0; i < m->ncomps; i++) {
		struct hlo_comp *c = m->comps[i];
		if (c->inline_body)
			continue;
		last = c;
		if (c->name->data) {
			resolve_error(r, c->name_span, "duplicate computation name '%s'", c->name->str);
			continue;
		}
		c->name->data = c;
		if (c->is_entry) {
			if (entry)
				resolve_error(r, c->name_span, "more than one ENTRY computation (the first is '%s')",
					      entry->name->str);
			else
				entry = c;
		}
	}
	if (!entry && last) {
		entry = last;
		entry->is_entry = true;
	}
	m->entry = entry;
	if (!entry)
		resolve_error(r, m->span, "module has no computations");
}

static void resolve_unbind_comps(struct hlo_module *m)
{
	for (uint32_t i = 0; i < m->ncomps; i++)
		if (!m->comps[i]->inline_body && m->comps[i]->name->data == m->comps[i])
			m->comps[i]->name->data = NULL;
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

/* Adds the computations named by one value (a name, an inline body, or a
 * brace list / comma sequence of them) to out. */
static void resolve_callee_value(struct resolve_ctx *r, const struct hlo_value *v, struct resolve_vec *out)
{
	switch (v->kind) {
	case V_NAME:
	case V_IDENT: {
		struct hlo_comp *c = v->key ? v->key->data : NULL;
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

static void resolve_callees(struct resolve_ctx *r, struct hlo_instr *i)
{
	struct resolve_vec out = { 0 };
	for (uint32_t k = 0; k < i->nattrs; k++) {
		struct hlo_attr *a = &i->attrs[k];
		if (!resolve_is_callee_attr(a->key))
			continue;
		struct arena_mark mk = arena_mark(&r->scratch);
		struct hlo_value *v = value_parse(r->f, a->value, &r->scratch, r->d);
		if (!v)
			r->errors++;
		else
			resolve_callee_value(r, v, &out);
		arena_release(&r->scratch, mk);
	}
	if (out.n) {
		i->callees = arena_array(&r->f->arena, out.n, sizeof *i->callees);
		memcpy(i->callees, out.p, out.n * sizeof *i->callees);
		i->ncallees = out.n;
	}
	free(out.p);
}

/* ---- instructions ---- */

static struct hlo_instr *resolve_new_gte(struct resolve_ctx *r, struct hlo_instr *base, int64_t index,
					 struct interned *name, struct span sp)
{
	struct hlo_instr *g = arena_alloc(&r->f->arena, sizeof *g);
	g->kind = IR_INSTR;
	g->op = OP_GET_TUPLE_ELEMENT;
	g->async_wrapped = OP_COUNT;
	g->name = name;
	g->name_span = sp;
	g->opcode_span = sp;
	g->span = sp;
	g->literal = span_none();
	g->parameter_number = -1;
	g->tuple_index = index;
	g->anonymous = true;
	g->comp = base->comp;
	g->noperands = 1;
	g->operands = arena_alloc(&r->f->arena, sizeof *g->operands);
	g->operands[0].u.instr = base;
	g->operands[0].resolved = true;
	g->operands[0].span = sp;
	g->shape = ir_shape_tuple_elem(base->shape, index);
	if (!g->shape)
		resolve_error(r, sp, "tuple index %lld is out of range for '%s'", (long long)index, base->name->str);
	return g;
}

/* Compact GTE "%p#1#0": reuse or create p#1 then p#1#0, named as XLA
 * sanitises them (p_1, p_1_0), inserted before the user. */
static struct hlo_instr *resolve_compact_gte(struct resolve_ctx *r, struct hlo_instr *base,
					     struct hlo_operand *o, struct resolve_vec *list)
{
	char name[256];
	int len = snprintf(name, sizeof name, "%s", base->name->str);
	for (uint32_t k = 0; k < o->ngte && base; k++) {
		len += snprintf(name + len, sizeof name - (size_t)(len < (int)sizeof name ? len : 0), "_%lld",
				(long long)o->gte[k]);
		if (len >= (int)sizeof name)
			len = (int)sizeof name - 1;
		struct interned *id = intern(r->f->names, name, (size_t)len);
		struct hlo_instr *g = id->binding;
		if (!g || g->op != OP_GET_TUPLE_ELEMENT || g->operands[0].u.instr != base ||
		    g->tuple_index != o->gte[k]) {
			/* a name collision: uniquify as XLA does (p_0.1, p_0.2, ...) */
			for (unsigned u = 1; id->binding; u++) {
				char alt[300];
				int alen = snprintf(alt, sizeof alt, "%.*s.%u", len, name, u);
				id = intern(r->f->names, alt, (size_t)(alen < (int)sizeof alt ? alen : (int)sizeof alt - 1));
			}
			g = resolve_new_gte(r, base, o->gte[k], id, o->span);
			id->binding = g;
			resolve_push(list, g);
		}
		base = g;
	}
	return base;
}

/* True when target can reach user through operand names (a cycle). */
static bool resolve_reaches(struct hlo_comp *c, struct hlo_instr *from, struct hlo_instr *to, uint8_t *seen)
{
	if (from == to)
		return true;
	if (seen[from->index])
		return false;
	seen[from->index] = 1;
	for (uint32_t k = 0; k < from->noperands; k++) {
		struct hlo_operand *o = &from->operands[k];
		struct hlo_instr *t = o->resolved ? o->u.instr : o->u.name ? o->u.name->binding : NULL;
		if (t && t->comp == c && resolve_reaches(c, t, to, seen))
			return true;
	}
	return false;
}

static struct hlo_instr *resolve_ref(struct resolve_ctx *r, struct hlo_comp *c, struct hlo_instr *user,
				     struct interned *name, struct span sp)
{
	struct hlo_instr *t = name->binding;
	if (!t || t->comp != c) {
		resolve_error(r, sp, "use of undefined instruction '%s'", name->str);
		return NULL;
	}
	if (t->index >= user->index && !t->anonymous) {
		uint8_t *seen = xcalloc(c->ninstrs + 1, 1);
		bool cycle = resolve_reaches(c, t, user, seen);
		free(seen);
		if (cycle)
			resolve_error(r, sp, "instruction '%s' depends on itself through '%s' (cycle)",
				      user->name->str, name->str);
		else
			resolve_error(r, sp, "use of '%s' before its definition", name->str);
		return NULL;
	}
	return t;
}

/* Reads an integer-list attribute ({0,1}); absent = empty.  False on junk. */
static bool resolve_dims(struct resolve_ctx *r, struct hlo_instr *i, const char *name, int64_t **out,
			 uint32_t *n)
{
	const struct hlo_attr *a = ir_attr_named(i->attrs, i->nattrs, name);
	*n = 0;
	*out = NULL;
	if (!a)
		return true;
	struct hlo_value *v = value_parse(r->f, a->value, &r->scratch, NULL);
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
	if (resolve_dims(r, i, "lhs_batch_dims", &lb, &nlb) && resolve_dims(r, i, "lhs_contracting_dims", &lc, &nlc) &&
	    resolve_dims(r, i, "rhs_batch_dims", &rb, &nrb) && resolve_dims(r, i, "rhs_contracting_dims", &rc, &nrc)) {
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

/* Result shapes that may be omitted in the text (elementwise and structural
 * ops, dot); others must be written. */
static struct hlo_shape *resolve_infer(struct resolve_ctx *r, struct hlo_instr *i)
{
	struct hlo_shape *a0 = i->noperands > 0 ? i->operands[0].u.instr->shape : NULL;
	struct hlo_shape *a1 = i->noperands > 1 ? i->operands[1].u.instr->shape : NULL;
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
			e[k] = i->operands[k].u.instr->shape;
		struct hlo_shape *t = build_shape_tuple(r->f, e, i->noperands);
		free(e);
		return t;
	}
	case OP_GET_TUPLE_ELEMENT:
		return a0 && i->tuple_index >= 0 ? ir_shape_tuple_elem(a0, i->tuple_index) : NULL;
	case OP_DOT:
		return resolve_infer_dot(r, i, a0, a1);
	case OP_CALL:
		return i->ncallees && i->callees[0]->root ? i->callees[0]->root->shape : NULL;
	case OP_CONDITIONAL:
		return i->ncallees && i->callees[0]->root ? i->callees[0]->root->shape : NULL;
	default:
		return NULL;
	}
}

static void resolve_tuple_index(struct resolve_ctx *r, struct hlo_instr *i)
{
	const struct hlo_attr *a = ir_attr(i, ATTR_INDEX);
	if (!a)
		return;
	const char *t = r->f->src->buf + a->value.start;
	char *end;
	long long v = strtoll(t, &end, 10);
	if (end == t || (uint64_t)(end - r->f->src->buf) != a->value.end)
		resolve_error(r, a->value, "index must be an integer");
	else
		i->tuple_index = v;
}

static void resolve_control(struct resolve_ctx *r, struct hlo_comp *c, struct hlo_instr *i)
{
	const struct hlo_attr *a = ir_attr(i, ATTR_CONTROL_PREDECESSORS);
	if (!a)
		return;
	struct arena_mark mk = arena_mark(&r->scratch);
	struct hlo_value *v = value_parse(r->f, a->value, &r->scratch, r->d);
	if (!v || v->kind != V_BRACE) {
		if (v)
			resolve_error(r, a->value, "control-predecessors must be a list of instruction names");
		else
			r->errors++;
		arena_release(&r->scratch, mk);
		return;
	}
	uint32_t n = value_count(v), k = 0;
	i->control = arena_array(&r->f->arena, n, sizeof *i->control);
	for (struct hlo_value *e = v->child; e; e = e->next) {
		if (e->kind != V_NAME && e->kind != V_IDENT) {
			resolve_error(r, e->span, "expected an instruction name");
			continue;
		}
		struct hlo_instr *t = resolve_ref(r, c, i, e->key, e->span);
		if (t)
			i->control[k++] = t;
	}
	i->ncontrol = k;
	arena_release(&r->scratch, mk);
}

static void resolve_params(struct resolve_ctx *r, struct hlo_comp *c)
{
	int64_t max = -1;
	for (uint32_t k = 0; k < c->ninstrs; k++)
		if (c->instrs[k]->op == OP_PARAMETER && c->instrs[k]->parameter_number > max)
			max = c->instrs[k]->parameter_number;
	if (max >= (int64_t)c->ninstrs) {
		for (uint32_t k = 0; k < c->ninstrs; k++)
			if (c->instrs[k]->parameter_number == max)
				resolve_error(r, c->instrs[k]->span, "parameter number %lld is larger than the number of parameters",
					      (long long)max);
		return;
	}
	c->nparams = (uint32_t)(max + 1);
	c->params = arena_array(&r->f->arena, c->nparams, sizeof *c->params);
	for (uint32_t k = 0; k < c->ninstrs; k++) {
		struct hlo_instr *p = c->instrs[k];
		if (p->op != OP_PARAMETER || p->parameter_number < 0)
			continue;
		if (c->params[p->parameter_number])
			resolve_error(r, p->span, "duplicate parameter number %lld in computation '%s'",
				      (long long)p->parameter_number, c->name->str);
		else
			c->params[p->parameter_number] = p;
	}
	for (uint32_t k = 0; k < c->nparams; k++)
		if (!c->params[k])
			resolve_error(r, c->name_span, "computation '%s' has no parameter number %u", c->name->str, k);
	/* Like XLA, parameter names and shapes in a signature are syntax only;
	 * the result shape must match the root. */
	if (c->has_signature && !c->inline_body) {
		if (c->root && c->root->shape && c->sig_result &&
		    !ir_shape_equal(c->sig_result, c->root->shape, false)) {
			char a[128], b[128];
			ir_shape_format(c->sig_result, false, a, sizeof a);
			ir_shape_format(c->root->shape, false, b, sizeof b);
			resolve_error(r, c->name_span, "signature result %s does not match the root shape %s", a, b);
		}
	}
}

static void resolve_comp(struct resolve_ctx *r, struct hlo_comp *c)
{
	struct resolve_vec list = { 0 };
	bool changed = false;
	/* Bind every name first so forward references can be told from
	 * undefined ones (and cycles reported as such). */
	for (uint32_t k = 0; k < c->ninstrs; k++) {
		struct hlo_instr *i = c->instrs[k];
		i->comp = c;
		if (i->name->binding && ((struct hlo_instr *)i->name->binding)->comp == c) {
			if (i->anonymous) {
				/* nested instructions: parameter.anon, parameter.anon.1, ... */
				char buf[256];
				for (unsigned n = 1;; n++) {
					int len = snprintf(buf, sizeof buf, "%s.%u", i->name->str, n);
					struct interned *id = intern(r->f->names, buf, (size_t)len);
					if (!id->binding || ((struct hlo_instr *)id->binding)->comp != c) {
						i->name = id;
						break;
					}
				}
			} else {
				resolve_error(r, i->name_span, "duplicate instruction name '%s' in computation '%s'",
					      i->name->str, c->name->str);
				continue;
			}
		}
		i->name->binding = i;
	}
	for (uint32_t k = 0; k < c->ninstrs; k++) {
		struct hlo_instr *i = c->instrs[k];
		resolve_callees(r, i);
		if (i->op == OP_GET_TUPLE_ELEMENT)
			resolve_tuple_index(r, i);
		for (uint32_t j = 0; j < i->noperands; j++) {
			struct hlo_operand *o = &i->operands[j];
			if (o->resolved)
				continue;
			struct hlo_instr *t = resolve_ref(r, c, i, o->u.name, o->span);
			if (t && o->ngte) {
				t = resolve_compact_gte(r, t, o, &list);
				changed = true;
			}
			o->u.instr = t;
			o->resolved = t != NULL;
			if (t && o->declared && t->shape && !ir_shape_equal(o->declared, t->shape, false)) {
				char a[128], b[128];
				ir_shape_format(o->declared, false, a, sizeof a);
				ir_shape_format(t->shape, false, b, sizeof b);
				resolve_error(r, o->span, "operand shape %s does not match the shape %s of '%s'", a, b,
					      t->name->str);
			}
		}
		resolve_control(r, c, i);
		bool ok = true;
		for (uint32_t j = 0; j < i->noperands; j++)
			ok &= i->operands[j].resolved;
		if (!i->shape && ok) {
			i->shape = resolve_infer(r, i);
			if (!i->shape)
				resolve_error(r, i->opcode_span, "cannot infer the result shape of '%s'; write it before the opcode",
					      i->name->str);
		}
		resolve_push(&list, i);
	}
	if (changed) {
		/* XLA prints a synthesised GTE right after the tuple it reads
		 * (post order from the root): emit each after its base. */
		c->instrs = arena_array(&r->f->arena, list.n, sizeof *c->instrs);
		uint32_t n = 0;
		for (uint32_t k = 0; k < list.n; k++) {
			struct hlo_instr *i = list.p[k];
			if (i->anonymous && i->op == OP_GET_TUPLE_ELEMENT && i->nattrs == 0)
				continue;
			c->instrs[n++] = i;
			for (uint32_t done = n - 1; done < n; done++)
				for (uint32_t j = 0; j < list.n; j++) {
					struct hlo_instr *g = list.p[j];
					if (g->anonymous && g->op == OP_GET_TUPLE_ELEMENT && g->nattrs == 0 &&
					    g->operands[0].u.instr == c->instrs[done])
						c->instrs[n++] = g;
				}
		}
		c->ninstrs = n;
		for (uint32_t k = 0; k < c->ninstrs; k++)
			c->instrs[k]->index = k;
	}
	free(list.p);
	resolve_params(r, c);
	for (uint32_t k = 0; k < c->ninstrs; k++)
		if (c->instrs[k]->name->binding == c->instrs[k])
			c->instrs[k]->name->binding = NULL;
}

/* Users and callers, counted first so each list is one arena array. */
static void resolve_edges(struct resolve_ctx *r)
{
	struct hlo_module *m = r->m;
	for (uint32_t ci = 0; ci < m->ncomps; ci++) {
		struct hlo_comp *c = m->comps[ci];
		for (uint32_t k = 0; k < c->ninstrs; k++) {
			struct hlo_instr *i = c->instrs[k];
			for (uint32_t j = 0; j < i->noperands; j++)
				if (i->operands[j].resolved)
					i->operands[j].u.instr->nusers++;
			for (uint32_t j = 0; j < i->ncallees; j++)
				i->callees[j]->ncallers++;
		}
	}
	for (uint32_t ci = 0; ci < m->ncomps; ci++) {
		struct hlo_comp *c = m->comps[ci];
		c->callers = arena_array(&r->f->arena, c->ncallers, sizeof *c->callers);
		c->ncallers = 0;
		for (uint32_t k = 0; k < c->ninstrs; k++) {
			struct hlo_instr *i = c->instrs[k];
			i->users = arena_array(&r->f->arena, i->nusers, sizeof *i->users);
			i->nusers = 0;
		}
	}
	for (uint32_t ci = 0; ci < m->ncomps; ci++) {
		struct hlo_comp *c = m->comps[ci];
		for (uint32_t k = 0; k < c->ninstrs; k++) {
			struct hlo_instr *i = c->instrs[k];
			for (uint32_t j = 0; j < i->noperands; j++) {
				if (!i->operands[j].resolved)
					continue;
				struct hlo_instr *t = i->operands[j].u.instr;
				/* an instruction using the same operand twice is one user */
				if (!t->nusers || t->users[t->nusers - 1] != i)
					t->users[t->nusers++] = i;
			}
			for (uint32_t j = 0; j < i->ncallees; j++)
				i->callees[j]->callers[i->callees[j]->ncallers++] = i;
		}
	}
}

/* Recursion through calls is not HLO: report the first cycle found. */
static bool resolve_call_cycle(struct resolve_ctx *r, struct hlo_comp *c, uint8_t *state)
{
	state[c->index] = 1;
	for (uint32_t k = 0; k < c->ninstrs; k++) {
		struct hlo_instr *i = c->instrs[k];
		for (uint32_t j = 0; j < i->ncallees; j++) {
			struct hlo_comp *t = i->callees[j];
			if (state[t->index] == 1) {
				resolve_error(r, i->span, "computation '%s' calls itself through '%s' (recursion)",
					      t->name->str, c->name->str);
				return true;
			}
			if (state[t->index] == 0 && resolve_call_cycle(r, t, state))
				return true;
		}
	}
	state[c->index] = 2;
	return false;
}

void resolve_module(struct hlo_module *m, struct diag_sink *d)
{
	struct resolve_ctx r = { .m = m, .f = m->file, .d = d };
	arena_init(&r.scratch);
	for (uint32_t k = 0; k < m->nattrs; k++) {
		struct hlo_attr *a = &m->attrs[k];
		const char *t = r.f->src->buf + a->value.start;
		if (a->key == ATTR_IS_SCHEDULED)
			m->is_scheduled = span_len(a->value) == 4 && !memcmp(t, "true", 4);
		else if (a->key == ATTR_NUM_PARTITIONS)
			m->num_partitions = strtoll(t, NULL, 10);
		else if (a->key == ATTR_REPLICA_COUNT)
			m->replica_count = strtoll(t, NULL, 10);
	}
	resolve_bind_comps(&r);
	for (uint32_t k = 0; k < m->ncomps; k++)
		resolve_comp(&r, m->comps[k]);
	resolve_unbind_comps(m);
	if (!r.errors) {
		resolve_edges(&r);
		uint8_t *state = xcalloc(m->ncomps + 1, 1);
		for (uint32_t k = 0; k < m->ncomps && !r.errors; k++)
			if (!state[k])
				resolve_call_cycle(&r, m->comps[k], state);
		free(state);
	}
	arena_free(&r.scratch);
}
