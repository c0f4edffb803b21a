/* ir.c - tables and queries over the IR: opcode and type names, the one
 * generic walker, attribute and name lookups, shape formatting.  Nothing
 * here allocates or changes the IR. */
#include "ir.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct { const char *name; int arity; } ir_opcodes[] = {
#define OP(e, text, arity) { text, arity },
#include "opcodes.def"
#undef OP
};

static const struct { const char *name; int bits; } ir_types[] = {
	{ "invalid", 0 },
#define TYPE(e, text, bits) { text, bits },
#include "types.def"
#undef TYPE
	{ "tuple", 0 },
	{ "buffer", 0 },
};

static const char *const ir_attr_names[] = {
	"",
#define ATTR(e, text, generic, vk, names, nocase, what, pg, pf, dflt) text,
#include "attrs.def"
#undef ATTR
};

const char *ir_opcode_name(enum opcode op)
{
	return op < OP_COUNT ? ir_opcodes[op].name : "<unknown>";
}

bool ir_op_is_collective(enum opcode op)
{
	switch (op) {
	case OP_ALL_GATHER: case OP_ALL_GATHER_START: case OP_ALL_REDUCE: case OP_ALL_REDUCE_START:
	case OP_REDUCE_SCATTER: case OP_ALL_TO_ALL: case OP_RAGGED_ALL_TO_ALL: case OP_COLLECTIVE_BROADCAST:
	case OP_COLLECTIVE_PERMUTE: case OP_COLLECTIVE_PERMUTE_START:
		return true;
	default:
		return false;
	}
}

int ir_opcode_arity(enum opcode op)
{
	return op < OP_COUNT ? ir_opcodes[op].arity : -1;
}

const char *ir_type_name(enum ptype t)
{
	return t < PT_COUNT ? ir_types[t].name : "invalid";
}

int ir_type_bits(enum ptype t)
{
	return t < PT_COUNT ? ir_types[t].bits : 0;
}

bool ir_type_is_float(enum ptype t)
{
	return t == PT_F16 || t == PT_BF16 || t == PT_F32 || t == PT_F64 ||
	       (t >= PT_F8E5M2 && t <= PT_F4E2M1FN);
}

bool ir_type_is_complex(enum ptype t)
{
	return t == PT_C64 || t == PT_C128;
}

bool ir_type_is_signed_int(enum ptype t)
{
	return t >= PT_S1 && t <= PT_S64;
}

bool ir_type_is_unsigned_int(enum ptype t)
{
	return t >= PT_U1 && t <= PT_U64;
}

const char *ir_attr_name(enum attr_key k)
{
	return k < ATTR_COUNT ? ir_attr_names[k] : "";
}

static const uint8_t ir_attr_vkinds[] = {
	VK_NONE,
#define ATTR(e, text, generic, vk, names, nocase, what, pg, pf, dflt) vk,
#include "attrs.def"
#undef ATTR
};

bool ir_attr_is_callee(enum attr_key k)
{
	enum vkind vk = k < ATTR_COUNT ? (enum vkind)ir_attr_vkinds[k] : VK_NONE;
	return vk == VK_COMP || vk == VK_COMPS || vk == VK_CALLS;
}

/* mark: source_drop's, for the text of the instructions already visited
 * (their attributes may have been read). */
static bool ir_walk_comp_at(struct hlo_comp *c, const struct ir_visitor *v, void *ctx, uint64_t *mark)
{
	if (v->comp) {
		enum walk_result r = v->comp(c, ctx);
		if (r == WALK_STOP)
			return false;
		if (r == WALK_SKIP)
			return true;
	}
	const struct source *src = c->module->file->src;
	for (uint32_t i = 0; i < c->ninstrs; i++) {
		if (v->instr && v->instr(c->instrs[i], ctx) == WALK_STOP)
			return false;
		source_drop(src, mark, c->instrs[i]->start);
	}
	if (v->comp_end)
		v->comp_end(c, ctx);
	return true;
}

bool ir_walk_comp(struct hlo_comp *c, const struct ir_visitor *v, void *ctx)
{
	uint64_t mark = ir_comp_span(c).start;
	return ir_walk_comp_at(c, v, ctx, &mark);
}

bool ir_walk(struct hlo_module *m, const struct ir_visitor *v, void *ctx)
{
	if (v->module) {
		enum walk_result r = v->module(m, ctx);
		if (r == WALK_STOP)
			return false;
		if (r == WALK_SKIP)
			return true;
	}
	uint64_t mark = 0;
	for (uint32_t i = 0; i < m->ncomps; i++) {
		if (v->want && !v->want(m->contains ? m->contains[i] : m->comps[i]->contains, m->comps[i] == m->entry,
					ctx))
			continue;
		if (!ir_walk_comp_at(m->comps[i], v, ctx, &mark))
			return false;
	}
	return true;
}

const char *ir_attr_name_text(const struct hlo_file *f, const struct hlo_attr *a)
{
	return a->key != ATTR_UNKNOWN ? ir_attr_name((enum attr_key)a->key)
				      : f->src->buf + ir_attr_name_span(a).start;
}

bool ir_attr_same_name(const struct hlo_file *f, const struct hlo_attr *a, const struct hlo_attr *b)
{
	if (a->key != ATTR_UNKNOWN || b->key != ATTR_UNKNOWN)
		return a->key == b->key;
	return a->name_len == b->name_len && !memcmp(ir_attr_name_text(f, a), ir_attr_name_text(f, b), a->name_len);
}

const struct hlo_attr *ir_attr_named(const struct hlo_file *f, const struct hlo_attr *attrs, uint32_t n,
				     const char *name)
{
	size_t len = strlen(name);
	for (uint32_t i = 0; i < n; i++)
		if (attrs[i].name_len == len && !memcmp(ir_attr_name_text(f, &attrs[i]), name, len))
			return &attrs[i];
	return NULL;
}

const struct hlo_attr *ir_attr_in(const struct hlo_attr *attrs, uint32_t n, enum attr_key key)
{
	for (uint32_t k = 0; k < n; k++)
		if (attrs[k].key == key)
			return &attrs[k];
	return NULL;
}

const struct hlo_attr *ir_attr(const struct hlo_instr *i, enum attr_key key)
{
	return ir_attr_in(ir_attrs(i), i->nattrs, key);
}

struct hlo_comp *ir_callee(const struct hlo_instr *i, enum attr_key key)
{
	const struct hlo_attr *a = ir_attr(i, key);
	if (!a || !i->comp)
		return NULL;
	/* Without reading the text, which late stages would otherwise bring
	 * back into memory (source_drop) one scattered page at a time. */
	if (i->flags & IR_ONE_CALLEE_PER_ATTR) {
		uint32_t slot = 0;
		for (const struct hlo_attr *b = ir_attrs(i); b < a; b++)
			slot += ir_attr_is_callee(b->key);
		return ir_attr_is_callee(a->key) && slot < i->ncallees ? ir_callees(i)[slot] : NULL;
	}
	const char *p = ir_text(i->comp->module->file, ir_attr_value(a));
	size_t n = a->value_len;
	if (n && p[0] == '%') {
		p++;
		n--;
	}
	for (uint32_t k = 0; k < i->ncallees; k++) {
		struct hlo_comp *c = ir_callees(i)[k];
		if (c->inline_body ? ir_comp_span(c).start == a->value_off : (ir_comp_name_len(c) == n && !memcmp(ir_comp_name(c), p, n)))
			return c;
	}
	return NULL;
}

const struct hlo_attr *ir_module_attr(const struct hlo_module *m, enum attr_key key)
{
	return ir_attr_in(m->attrs, m->nattrs, key);
}

struct hlo_comp *ir_find_comp(const struct hlo_module *m, const char *name)
{
	for (uint32_t i = 0; i < m->ncomps; i++)
		if (!m->comps[i]->inline_body && ir_comp_name_len(m->comps[i]) == strlen(name) &&
		    !memcmp(ir_comp_name(m->comps[i]), name, strlen(name)))
			return m->comps[i];
	return NULL;
}

bool ir_name_is(const struct hlo_instr *i, const char *s)
{
	size_t n = strlen(s);
	return ir_name_len(i) == n && !memcmp(ir_name(i), s, n);
}

struct hlo_instr *ir_find_instr(const struct hlo_comp *c, const char *name)
{
	for (uint32_t i = 0; i < c->ninstrs; i++)
		if (ir_name_is(c->instrs[i], name))
			return c->instrs[i];
	return NULL;
}

struct hlo_instr **ir_control(const struct hlo_instr *i, uint32_t *n)
{
	*n = ir_extra(i) ? ir_extra(i)->ncontrol : 0;
	return *n ? ir_extra(i)->control : NULL;
}

void ir_comp_note(struct hlo_instr *i)
{
	uint32_t k = 0;
	switch (i->op) {
	case OP_WHILE: k = IR_CONTAINS_WHILE; break;
	case OP_CONSTANT: k = IR_CONTAINS_CONSTANT; break;
	case OP_SEND: case OP_RECV: case OP_INFEED: case OP_OUTFEED: k = IR_CONTAINS_HOST_IO; break;
	default: break;
	}
	/* As for custom_call_target (build_decode): the -start/-update/-done too. */
	if (i->op == OP_CUSTOM_CALL || i->async_wrapped == OP_CUSTOM_CALL)
		k |= IR_CONTAINS_CUSTOM_CALL;
	for (uint32_t a = 0; a < i->nattrs; a++)
		k |= ir_attrs(i)[a].key == ATTR_SHARDING ? IR_CONTAINS_SHARDING
		   : ir_attrs(i)[a].key == ATTR_FRONTEND_ATTRIBUTES ? IR_CONTAINS_FRONTEND : 0;
	const struct hlo_shape *s = i->shape;
	if (ir_shape_in_host(s))
		k |= IR_CONTAINS_HOST_SPACE;
	if (ir_instr_unresolved(i))
		k |= IR_CONTAINS_UNRESOLVED;
	i->comp->contains |= k;
	if (i->comp->module && i->comp->module->contains)
		i->comp->module->contains[i->comp->index] |= (uint8_t)k;
}

bool ir_shape_is_array(const struct hlo_shape *s)
{
	return s && s->type != PT_TUPLE && s->type != PT_BUFFER && s->type != PT_TOKEN &&
	       s->type != PT_OPAQUE && s->type != PT_INVALID;
}

uint32_t ir_leaf_count(const struct hlo_shape *s)
{
	if (!s)
		return 0;
	if (s->type != PT_TUPLE)
		return 1;
	uint32_t n = 0;
	for (uint32_t k = 0; k < s->rank; k++)
		n += ir_leaf_count(s->elems[k]);
	return n;
}

uint64_t ir_shape_elements(const struct hlo_shape *s)
{
	if (!ir_shape_is_array(s))
		return 0;
	uint64_t n = 1;
	for (uint32_t i = 0; i < s->rank; i++) {
		uint64_t d = s->dims[i] < 0 ? 0 : (uint64_t)s->dims[i];
		if (d && n > UINT64_MAX / d)
			return UINT64_MAX;
		n *= d;
	}
	return n;
}

static bool ir_ints_equal(const int64_t *a, const int64_t *b, uint32_t n)
{
	return !n || !memcmp(a, b, n * sizeof *a);
}

/* By content: layouts are hash-consed per parsed piece, so one module
 * read in pieces (-j) holds equal layouts at different addresses. */
bool ir_layout_equal(const struct hlo_layout *a, const struct hlo_layout *b)
{
	if (a == b)
		return true;
	if (!a || !b || a->rank != b->rank || a->ntiles != b->ntiles || a->tail_padding != b->tail_padding ||
	    a->index_type != b->index_type || a->pointer_type != b->pointer_type ||
	    a->element_bits != b->element_bits || a->memory_space != b->memory_space || a->nsplits != b->nsplits ||
	    a->dynamic_prefix != b->dynamic_prefix || a->ndim_level_types != b->ndim_level_types ||
	    !ir_ints_equal(a->minor_to_major, b->minor_to_major, a->rank) ||
	    !ir_shape_equal(a->physical, b->physical, true))
		return false;
	for (uint32_t k = 0; k < a->ntiles; k++)
		if (a->tiles[k].rank != b->tiles[k].rank ||
		    !ir_ints_equal(a->tiles[k].dims, b->tiles[k].dims, a->tiles[k].rank))
			return false;
	for (uint32_t k = 0; k < a->nsplits; k++)
		if (a->splits[k].dim != b->splits[k].dim || a->splits[k].n != b->splits[k].n ||
		    !ir_ints_equal(a->splits[k].indices, b->splits[k].indices, a->splits[k].n))
			return false;
	return true;
}

bool ir_shape_equal(const struct hlo_shape *a, const struct hlo_shape *b, bool with_layout)
{
	if (a == b)
		return true;
	if (!a || !b || a->type != b->type || a->rank != b->rank)
		return false;
	if (a->type == PT_TUPLE || a->type == PT_BUFFER) {
		uint32_t n = a->type == PT_BUFFER ? 1 : a->rank;
		for (uint32_t i = 0; i < n; i++)
			if (!ir_shape_equal(a->elems[i], b->elems[i], with_layout))
				return false;
		return true;
	}
	for (uint32_t i = 0; i < a->rank; i++) {
		if (a->dims[i] != b->dims[i])
			return false;
		if ((a->dim_kinds ? a->dim_kinds[i] : 0) != (b->dim_kinds ? b->dim_kinds[i] : 0))
			return false;
	}
	return !with_layout || ir_layout_equal(a->layout, b->layout);
}

struct hlo_shape *ir_shape_tuple_elem(const struct hlo_shape *s, int64_t index)
{
	if (!s || s->type != PT_TUPLE || index < 0 || index >= (int64_t)s->rank)
		return NULL;
	return s->elems[index];
}

/* snprintf into a bounded buffer, tracking the would-be length. */
struct ir_buf {
	char *p;
	size_t cap, len;
};

static void ir_put(struct ir_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#include <stdarg.h>
static void ir_put(struct ir_buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	size_t room = b->len < b->cap ? b->cap - b->len : 0;
	int n = vsnprintf(room ? b->p + b->len : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		b->len += (size_t)n;
}

static void ir_format_layout(struct ir_buf *b, const struct hlo_layout *l)
{
	ir_put(b, "{");
	for (uint32_t i = 0; i < l->rank; i++)
		ir_put(b, "%s%lld", i ? "," : "", (long long)l->minor_to_major[i]);
	bool attrs = l->ntiles || l->tail_padding != 1 || l->index_type || l->pointer_type ||
		     l->element_bits || l->memory_space || l->nsplits || l->physical || l->dynamic_prefix > 0;
	if (attrs) {
		ir_put(b, ":");
		if (l->ntiles) {
			ir_put(b, "T");
			for (uint32_t t = 0; t < l->ntiles; t++) {
				ir_put(b, "(");
				for (uint32_t k = 0; k < l->tiles[t].rank; k++) {
					int64_t d = l->tiles[t].dims[k];
					if (d < 0)
						ir_put(b, "%s*", k ? "," : "");
					else
						ir_put(b, "%s%lld", k ? "," : "", (long long)d);
				}
				ir_put(b, ")");
			}
		}
		if (l->tail_padding != 1)
			ir_put(b, "L(%lld)", (long long)l->tail_padding);
		if (l->index_type)
			ir_put(b, "#(%s)", ir_type_name(l->index_type));
		if (l->pointer_type)
			ir_put(b, "*(%s)", ir_type_name(l->pointer_type));
		if (l->element_bits)
			ir_put(b, "E(%lld)", (long long)l->element_bits);
		if (l->memory_space)
			ir_put(b, "S(%lld)", (long long)l->memory_space);
		if (l->nsplits) {
			ir_put(b, "SC");
			for (uint32_t s = 0; s < l->nsplits; s++) {
				ir_put(b, "(%lld:", (long long)l->splits[s].dim);
				for (uint32_t k = 0; k < l->splits[s].n; k++)
					ir_put(b, "%s%lld", k ? "," : "", (long long)l->splits[s].indices[k]);
				ir_put(b, ")");
			}
		}
		if (l->physical) {
			char tmp[512];
			ir_shape_format(l->physical, true, tmp, sizeof tmp);
			ir_put(b, "P(%s)", tmp);
		}
		if (l->dynamic_prefix > 0)
			ir_put(b, "M(%lld)", (long long)l->dynamic_prefix);
	}
	ir_put(b, "}");
}

static void ir_format_shape(struct ir_buf *b, const struct hlo_shape *s, bool with_layout, bool index_comments)
{
	if (!s) {
		ir_put(b, "<no shape>");
		return;
	}
	if (s->type == PT_TUPLE) {
		ir_put(b, "(");
		for (uint32_t i = 0; i < s->rank; i++) {
			if (i)
				ir_put(b, ", ");
			if (index_comments && i && i % 5 == 0)
				ir_put(b, "/*index=%u*/", i);
			ir_format_shape(b, s->elems[i], with_layout, index_comments);
		}
		ir_put(b, ")");
		return;
	}
	if (s->type == PT_BUFFER) {
		ir_put(b, "b(");
		ir_format_shape(b, s->elems[0], with_layout, index_comments);
		ir_put(b, ")");
		return;
	}
	ir_put(b, "%s[", ir_type_name(s->type));
	for (uint32_t i = 0; i < s->rank; i++) {
		uint8_t k = s->dim_kinds ? s->dim_kinds[i] : DIM_STATIC;
		if (i)
			ir_put(b, ",");
		if (k == DIM_UNBOUNDED)
			ir_put(b, "?");
		else
			ir_put(b, "%s%lld", k == DIM_BOUNDED ? "<=" : "", (long long)s->dims[i]);
	}
	ir_put(b, "]");
	if (!with_layout)
		return;
	if (s->layout) {
		/* Scalars print their layout only when it says something. */
		const struct hlo_layout *l = s->layout;
		if (s->rank == 0 && !l->ntiles && l->tail_padding == 1 && !l->index_type && !l->pointer_type &&
		    !l->element_bits && !l->memory_space && !l->nsplits && !l->physical && l->dynamic_prefix <= 0)
			return;
		ir_format_layout(b, l);
	} else if (s->rank > 0 && s->type != PT_TOKEN && s->type != PT_OPAQUE) {
		/* XLA fills the default (descending) layout for arrays written without one. */
		ir_put(b, "{");
		for (uint32_t i = 0; i < s->rank; i++)
			ir_put(b, "%s%u", i ? "," : "", s->rank - 1 - i);
		ir_put(b, "}");
	}
}

size_t ir_shape_format(const struct hlo_shape *s, bool with_layout, char *buf, size_t cap)
{
	struct ir_buf b = { buf, cap, 0 };
	if (cap)
		buf[0] = 0;
	ir_format_shape(&b, s, with_layout, false);
	if (cap && b.len >= cap)
		buf[cap - 1] = 0;
	return b.len;
}

size_t ir_shape_format_ex(const struct hlo_shape *s, bool with_layout, bool index_comments, char *buf, size_t cap)
{
	struct ir_buf b = { buf, cap, 0 };
	if (cap)
		buf[0] = 0;
	ir_format_shape(&b, s, with_layout, index_comments);
	if (cap && b.len >= cap)
		buf[cap - 1] = 0;
	return b.len;
}

const char *ir_text(const struct hlo_file *f, struct span sp)
{
	return f->src->buf + sp.start;
}

const char *const ir_fusion_kinds[] = { "kLoop", "kInput", "kOutput", "kCustom", NULL };

enum fusion_kind ir_fusion_kind_of(const char *text, size_t n)
{
	for (int k = 0; ir_fusion_kinds[k]; k++)
		if (strlen(ir_fusion_kinds[k]) == n && !memcmp(ir_fusion_kinds[k], text, n))
			return (enum fusion_kind)(FUSION_LOOP + k);
	return FUSION_UNKNOWN;
}

bool ir_op_elementwise_binary(enum opcode op)
{
	switch (op) {
	case OP_ADD: case OP_SUBTRACT: case OP_MULTIPLY: case OP_DIVIDE: case OP_MAXIMUM: case OP_MINIMUM:
	case OP_POWER: case OP_REMAINDER: case OP_AND: case OP_OR: case OP_XOR: case OP_SHIFT_LEFT:
	case OP_SHIFT_RIGHT_ARITHMETIC: case OP_SHIFT_RIGHT_LOGICAL: case OP_ATAN2: case OP_COMPLEX:
	case OP_COMPARE:
		return true;
	default:
		return false;
	}
}

bool ir_op_elementwise_unary(enum opcode op)
{
	switch (op) {
	case OP_ABS: case OP_CEIL: case OP_COUNT_LEADING_ZEROS: case OP_FLOOR: case OP_NOT: case OP_NEGATE:
	case OP_POPCNT: case OP_SIGN: case OP_ROUND_NEAREST_AFZ: case OP_ROUND_NEAREST_EVEN: case OP_ACOS:
	case OP_ACOSH: case OP_ASIN: case OP_ASINH: case OP_ATANH: case OP_EXPONENTIAL_MINUS_ONE: case OP_LOG:
	case OP_LOG_PLUS_ONE: case OP_LOGISTIC: case OP_SQRT: case OP_CBRT: case OP_RSQRT: case OP_TANH:
	case OP_ERF: case OP_SINE: case OP_SINH: case OP_COSINE: case OP_COSH: case OP_TAN: case OP_EXPONENTIAL:
	case OP_IS_FINITE: case OP_REAL: case OP_IMAG: case OP_CONVERT: case OP_REDUCE_PRECISION:
		return true;
	default:
		return false;
	}
}

/* HloComputation::MakeInstructionPostOrder: a DFS from every instruction
 * without users or control successors, in instruction order; operands are
 * visited first to last, after the control predecessors.  Collectives
 * sharing a channel id are not tied together: XLA's own round trips
 * (ok/short.AllReduceAllReduce) and dumps show no such dependency. */
void ir_post_order(const struct hlo_comp *c, bool control, struct hlo_instr **order)
{
	uint32_t n = c->ninstrs, nout = 0, top = 0, cap = n + 16;
	uint8_t *state = xcalloc(n + 1, 1);
	uint8_t *has_succ = xcalloc(n + 1, 1);
	struct hlo_instr **stack = xmalloc(cap * sizeof *stack);
	for (uint32_t k = 0; k < n; k++) {
		struct hlo_instr *i = c->instrs[k];
		uint32_t np = 0;
		struct hlo_instr **pred = control ? ir_control(i, &np) : NULL;
		for (uint32_t j = 0; j < np; j++)
			if (pred[j] && pred[j]->comp == c)
				has_succ[pred[j]->index] = 1;
	}
	for (uint32_t r = 0; r < n; r++) {
		struct hlo_instr *root = c->instrs[r];
		if (root->nusers || has_succ[r] || state[r])
			continue;
		top = 0;
		stack[top++] = root;
		while (top) {
			struct hlo_instr *cur = stack[top - 1];
			if (state[cur->index]) {
				top--;
				if (state[cur->index] == 1) {
					state[cur->index] = 2;
					order[nout++] = cur;
				}
				continue;
			}
			state[cur->index] = 1;
			uint32_t np = 0;
			struct hlo_instr **pred = control ? ir_control(cur, &np) : NULL;
			uint32_t need = top + cur->noperands + np;
			if (need > cap) {
				cap = need * 2;
				stack = xrealloc(stack, cap * sizeof *stack);
			}
			for (uint32_t k = cur->noperands; k-- > 0;)
				if (ir_operands(cur)[k].instr && ir_operands(cur)[k].instr->comp == c)
					stack[top++] = ir_operands(cur)[k].instr;
			for (uint32_t k = 0; k < np; k++)
				if (pred[k] && pred[k]->comp == c)
					stack[top++] = pred[k];
		}
	}
	/* anything left (a cycle through control edges): program order */
	for (uint32_t k = 0; k < n; k++)
		if (state[k] != 2)
			order[nout++] = c->instrs[k];
	free(state);
	free(has_succ);
	free(stack);
}
