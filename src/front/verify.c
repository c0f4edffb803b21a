/* verify.c - checks a resolved module the way XLA's parser would reject it,
 * each error at its span: operand counts, opcode-specific rules, ROOT,
 * literals, async chains, the header; attributes are verify_attrs.c's,
 * shape rules verify_shapes.c's.  Linear: values are decoded into
 * per-instruction scratch; it never changes the IR. */
#include "verify_int.h"
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "attr.h"
#include "lex.h"
#include "literal.h"
#include "sharding.h"
#include "metadata.h"

/* ---- Context and reporting ---- */

/* True the first time key (len bytes) is seen in this module. */
bool verify_first_warning(struct verify_ctx *v, const char *key, size_t len)
{
	for (uint32_t k = 0; k < v->nwarned; k++)
		if (v->warned_len[k] == len && !memcmp(v->warned[k], key, len))
			return false;
	if (v->nwarned == sizeof v->warned / sizeof v->warned[0])
		return false;
	v->warned[v->nwarned] = key;
	v->warned_len[v->nwarned++] = len;
	return true;
}

void verify_error(struct verify_ctx *v, struct span sp, const char *fmt, ...)
{
	va_list ap;
	v->errors++;
	va_start(ap, fmt);
	diag_vreport(v->d, v->f->src, sp, DIAG_ERROR, fmt, ap);
	va_end(ap);
}

void verify_warning(struct verify_ctx *v, struct span sp, const char *fmt, ...)
{
	va_list ap;
	v->warnings++;
	va_start(ap, fmt);
	diag_vreport(v->d, v->f->src, sp, DIAG_WARNING, fmt, ap);
	va_end(ap);
}

/* Reports a decoder error at its span (the whole value when it has none). */
void verify_attr_error(struct verify_ctx *v, const struct hlo_attr *at, const struct attr_error *e)
{
	struct span sp = span_is_none(e->span) ? ir_attr_value(at) : e->span;
	verify_error(v, sp, "invalid '%.*s': %s", IR_ANM(v->f, at), e->msg);
}

const char *verify_op_name(const struct hlo_instr *i)
{
	return ir_opcode_name((enum opcode)i->op);
}

/* The opcode whose attributes i carries: the wrapped one for <op>-start. */
enum opcode verify_effective_op(const struct hlo_instr *i)
{
	return i->op == OP_ASYNC_START && i->async_wrapped != OP_COUNT ? (enum opcode)i->async_wrapped
									: (enum opcode)i->op;
}

/* The written result shape of i ("f32[2]{0}" before the opcode). */
struct span verify_shape_span(const struct verify_ctx *v, const struct hlo_instr *i)
{
	const char *buf = v->f->src->buf;
	uint64_t a = i->start + i->name_off + ir_name_len(i), b = i->start + i->op_off;
	while (a < b && buf[a] != '=')
		a++;
	if (a < b)
		a++;
	while (a < b && (buf[a] == ' ' || buf[a] == '\t' || buf[a] == '\n' || buf[a] == '\r'))
		a++;
	while (b > a && (buf[b - 1] == ' ' || buf[b - 1] == '\t' || buf[b - 1] == '\n' || buf[b - 1] == '\r'))
		b--;
	return a < b ? span_make(a, b) : ir_instr_opcode_span(i);
}

const char *verify_shape_str(const struct hlo_shape *s, char *buf, size_t cap)
{
	ir_shape_format(s, false, buf, cap);
	return buf;
}

struct verify_found *verify_find(struct verify_ctx *v, enum attr_key key)
{
	for (uint32_t k = 0; k < v->nfound; k++)
		if (v->found[k].idx == (int)key)
			return &v->found[k];
	return NULL;
}

/* The decoded tree of a found attribute (parsed on first use); NULL when
 * its value was invalid (already reported). */
struct hlo_value *verify_value(struct verify_ctx *v, struct verify_found *fo)
{
	if (!fo || fo->bad)
		return NULL;
	if (!fo->value)
		fo->value = attr_parse(v->f, fo->attr, &v->scratch, NULL);
	return fo->value;
}

/* ---- Operand counts ---- */

/* name: the opcode as written (sugar like custom-call-done included). */
static void verify_operand_count(struct verify_ctx *v, const struct hlo_instr *i, const char *name)
{
	enum opcode op = (enum opcode)i->op;
	uint32_t n = i->noperands;
	struct span sp = ir_instr_opcode_span(i);
	if (i->async_wrapped != OP_COUNT && op == OP_ASYNC_START)
		return;  /* <op>-start: late binding allows any operand count */
	int arity = ir_opcode_arity(op);
	if (arity >= 0) {
		if ((int)n != arity)
			verify_error(v, sp, "'%s' takes %d operand%s, got %u", name, arity, arity == 1 ? "" : "s", n);
		return;
	}
	switch (op) {
	case OP_REDUCE:
	case OP_REDUCE_WINDOW:
		if (n < 2 || n % 2)
			verify_error(v, sp, "'%s' takes an even number of operands (at least 2), got %u", name, n);
		break;
	case OP_SCATTER:
		if (n < 3 || n % 2 == 0)
			verify_error(v, sp, "'scatter' takes an odd number of operands (at least 3), got %u", n);
		break;
	case OP_CONDITIONAL: case OP_DYNAMIC_RESHAPE: case OP_SORT: case OP_CONCATENATE: case OP_MAP:
	case OP_DYNAMIC_SLICE: case OP_DYNAMIC_UPDATE_SLICE: case OP_COLLECTIVE_PERMUTE:
	case OP_COLLECTIVE_PERMUTE_START:
		if (n < 1)
			verify_error(v, sp, "'%s' needs at least one operand", name);
		break;
	case OP_ASYNC_UPDATE:
	case OP_ASYNC_DONE:
		if (n < 1)
			verify_error(v, sp, "'%s' needs the previous async op as its operand, got no operands", name);
		break;
	default:
		break;
	}
}

/* ---- Opcode-specific checks ---- */

bool verify_ints_of(struct verify_ctx *v, enum attr_key key, struct attr_ints *out)
{
	struct verify_found *fo = verify_find(v, key);
	if (!fo || fo->bad)
		return false;
	if (attr_text_ints(v->f, ir_attr_value(fo->attr), &v->scratch, out))
		return true;
	struct hlo_value *val = verify_value(v, fo);
	return val && attr_ints(val, &v->scratch, out, NULL);
}

struct hlo_shape *verify_operand_shape(const struct hlo_instr *i, uint32_t k)
{
	return k < i->noperands && ir_operands(i)[k].instr ? ir_operands(i)[k].instr->shape : NULL;
}

static bool verify_is_scalar(const struct hlo_shape *s)
{
	return ir_shape_is_array(s) && s->rank == 0;
}

static void verify_conditional(struct verify_ctx *v, const struct hlo_instr *i)
{
	struct hlo_shape *p = verify_operand_shape(i, 0);
	char buf[128];
	if (!p)
		return;
	if (!verify_is_scalar(p)) {
		verify_error(v, ir_operand_span(&ir_operands(i)[0]),
			     "the first operand of 'conditional' must be a scalar, got %s",
			     verify_shape_str(p, buf, sizeof buf));
		return;
	}
	if (p->type != PT_PRED && p->type != PT_S32) {
		verify_error(v, ir_operand_span(&ir_operands(i)[0]),
			     "the first operand of 'conditional' must be a scalar of pred or s32, got %s",
			     verify_shape_str(p, buf, sizeof buf));
		return;
	}
	struct verify_found *t = verify_find(v, ATTR_TRUE_COMPUTATION), *fa = verify_find(v, ATTR_FALSE_COMPUTATION);
	struct verify_found *br = verify_find(v, ATTR_BRANCH_COMPUTATIONS);
	uint32_t nbranches = 0;
	if (p->type == PT_PRED) {
		if (br)
			verify_error(v, ir_attr_name_span(br->attr),
				     "attribute 'branch_computations' is not allowed for a conditional with a pred operand "
				     "(use true_computation and false_computation)");
		if (!t || !fa)
			verify_error(v, ir_instr_opcode_span(i),
				     "a conditional with a pred operand needs attributes 'true_computation' and 'false_computation'");
		nbranches = 2;
	} else {
		for (struct verify_found *x = t ? t : fa; x; x = x == t && fa ? fa : NULL)
			verify_error(v, ir_attr_name_span(x->attr),
				     "attribute '%.*s' is not allowed for a conditional with an s32 operand (use "
				     "branch_computations)", IR_ANM(v->f, x->attr));
		if (!br) {
			verify_error(v, ir_instr_opcode_span(i),
				     "a conditional with an s32 operand needs attribute 'branch_computations'");
			return;
		}
		if (br->bad)
			return;
		int64_t nb = verify_comp_list_count(v, i, ir_attr_value(br->attr));
		if (nb < 0)
			return;
		nbranches = (uint32_t)nb;
		if (!nbranches) {
			verify_error(v, ir_attr_value(br->attr), "'branch_computations' must not be empty");
			return;
		}
	}
	if (i->noperands != nbranches + 1)
		verify_error(v, ir_instr_opcode_span(i),
			     "'conditional' with %u branches takes %u operands (the index and one per branch), got %u",
			     nbranches, nbranches + 1, i->noperands);
}

static void verify_gte(struct verify_ctx *v, const struct hlo_instr *i)
{
	struct hlo_shape *t = verify_operand_shape(i, 0);
	char a[128], b[128];
	if (!t || i->number < 0)
		return;
	const struct verify_found *fo = verify_find(v, ATTR_INDEX);
	struct span sp = fo ? ir_attr_value(fo->attr) : ir_instr_opcode_span(i);
	if (t->type != PT_TUPLE) {
		verify_error(v, ir_operand_span(&ir_operands(i)[0]), "get-tuple-element operand must be a tuple, got %s",
			     verify_shape_str(t, a, sizeof a));
		return;
	}
	if (i->number >= (int64_t)t->rank) {
		verify_error(v, sp, "tuple index %lld is out of range for a tuple of %u elements", (long long)i->number,
			     t->rank);
		return;
	}
	if (i->shape && (i->flags & IR_SHAPE_WRITTEN) && !ir_shape_equal(i->shape, t->elems[i->number], false))
		verify_error(v, verify_shape_span(v, i), "get-tuple-element shape %s does not match tuple element %lld, %s",
			     verify_shape_str(i->shape, a, sizeof a), (long long)i->number,
			     verify_shape_str(t->elems[i->number], b, sizeof b));
}

static void verify_dimensions(struct verify_ctx *v, const struct hlo_instr *i)
{
	struct attr_ints dims;
	struct verify_found *fo = verify_find(v, ATTR_DIMENSIONS);
	if (!fo || !verify_ints_of(v, ATTR_DIMENSIONS, &dims))
		return;
	if (verify_one_dimension((enum opcode)i->op) && dims.n != 1)
		verify_error(v, ir_attr_value(fo->attr), "'dimensions' must have exactly 1 entry for '%s', got %u",
			     verify_op_name(i), dims.n);
}

static void verify_broadcast(struct verify_ctx *v, const struct hlo_instr *i)
{
	struct hlo_shape *s = verify_operand_shape(i, 0);
	if (!verify_find(v, ATTR_DIMENSIONS) && s && !verify_is_scalar(s))
		verify_error(v, ir_instr_opcode_span(i),
			     "'broadcast' needs attribute 'dimensions' (its operand is not a scalar)");
}

static void verify_dynamic_slice(struct verify_ctx *v, const struct hlo_instr *i)
{
	bool update = i->op == OP_DYNAMIC_UPDATE_SLICE;
	struct hlo_shape *s = verify_operand_shape(i, 0);
	uint32_t fixed = update ? 2 : 1;
	if (!ir_shape_is_array(s) || i->noperands < fixed)
		return;
	if (i->noperands != fixed + s->rank && i->noperands != fixed + 1)
		verify_error(v, ir_instr_opcode_span(i), "'%s' takes %u+rank (%u) or %u operands, got %u",
			     verify_op_name(i), fixed, fixed + s->rank, fixed + 1, i->noperands);
	struct attr_ints sizes;
	struct verify_found *fo = verify_find(v, ATTR_DYNAMIC_SLICE_SIZES);
	if (!update && fo && verify_ints_of(v, ATTR_DYNAMIC_SLICE_SIZES, &sizes) && sizes.n != s->rank)
		verify_error(v, ir_attr_value(fo->attr), "'dynamic_slice_sizes' needs one size per operand dimension (%u), got %u",
			     s->rank, sizes.n);
}

static void verify_tuple_shape_needed(struct verify_ctx *v, const struct hlo_instr *i)
{
	const struct hlo_shape *s = i->shape;
	if (s && (s->type != PT_TUPLE || s->rank == 0))
		verify_error(v, (i->flags & IR_SHAPE_WRITTEN) ? verify_shape_span(v, i) : ir_instr_opcode_span(i),
			     "'%s' must have a non-empty tuple shape", verify_op_name(i));
}

static void verify_layout_constraints(struct verify_ctx *v, const struct hlo_instr *i)
{
	struct verify_found *fo = verify_find(v, ATTR_OPERAND_LAYOUT_CONSTRAINTS);
	struct attr_shapes sh;
	char a[128], b[128];
	if (!verify_value(v, fo) || !attr_shapes(fo->value, &v->scratch, &sh, NULL))
		return;
	if (sh.n != i->noperands) {
		verify_error(v, ir_attr_value(fo->attr), "expected %u operand layout constraints, %u given",
			     i->noperands, sh.n);
		return;
	}
	for (uint32_t k = 0; k < sh.n; k++) {
		struct hlo_shape *os = verify_operand_shape(i, k);
		if (os && !ir_shape_equal(sh.shapes[k], os, false))
			verify_error(v, sh.spans[k], "operand layout constraint %s is not compatible with operand %u shape %s",
				     verify_shape_str(sh.shapes[k], a, sizeof a), k, verify_shape_str(os, b, sizeof b));
		else if (ir_shape_is_array(sh.shapes[k]) && sh.shapes[k]->rank && !sh.shapes[k]->layout)
			verify_error(v, sh.spans[k], "operand layout constraint %u has no layout", k);
	}
}

static void verify_parameter_replication(struct verify_ctx *v, const struct hlo_instr *i)
{
	struct verify_found *fo = verify_find(v, ATTR_PARAMETER_REPLICATION);
	struct attr_bools bl;
	if (!i->shape || !verify_value(v, fo) || !attr_bools(fo->value, &v->scratch, &bl, NULL))
		return;
	uint64_t leaves = ir_leaf_count(i->shape);
	if (bl.n != leaves)
		verify_error(v, ir_attr_value(fo->attr), "parameter has %llu leaf buffers, but parameter_replication has %u elements",
			     (unsigned long long)leaves, bl.n);
}

static void verify_collectives(struct verify_ctx *v, const struct hlo_instr *i)
{
	struct verify_found *g = verify_find(v, ATTR_USE_GLOBAL_DEVICE_IDS);
	bool on;
	if (g && !g->bad && attr_text_bool(v->f, ir_attr_value(g->attr), &on) && on && !verify_find(v, ATTR_CHANNEL_ID))
		verify_error(v, ir_attr_name_span(g->attr), "use_global_device_ids=true requires a channel_id");
	struct verify_found *ss = verify_find(v, ATTR_SLICE_SIZES);
	if ((i->op == OP_COLLECTIVE_PERMUTE || i->op == OP_COLLECTIVE_PERMUTE_START) && ss && i->noperands != 4)
		verify_error(v, ir_instr_opcode_span(i), "'%s' with slice_sizes takes 4 operands, got %u",
			     verify_op_name(i), i->noperands);
}

static void verify_iota(struct verify_ctx *v, const struct hlo_instr *i)
{
	struct verify_found *fo = verify_find(v, ATTR_IOTA_DIMENSION);
	int64_t d;
	if (fo && !fo->bad && attr_text_int(v->f, ir_attr_value(fo->attr), &d) && ir_shape_is_array(i->shape) &&
	    (d < 0 || d >= (int64_t)i->shape->rank))
		verify_error(v, ir_attr_value(fo->attr), "iota_dimension %lld is out of range for rank %u",
			     (long long)d, i->shape->rank);
}

static void verify_literal(struct verify_ctx *v, const struct hlo_instr *i)
{
	struct span lit = ir_instr_literal(i);
	struct literal_error le;
	if (span_is_none(lit) || !i->shape)
		return;
	if (v->run && span_len(lit) >= VERIFY_SHARED_LITERAL && verify_run_share(v->run, i))
		return;
	if (!literal_check(v->f, lit, i->shape, &le))
		verify_error(v, span_is_none(le.span) ? lit : le.span, "%s", le.msg);
}

static void verify_tuple(struct verify_ctx *v, const struct hlo_instr *i)
{
	if (i->shape && (i->flags & IR_SHAPE_WRITTEN) &&
	    (i->shape->type != PT_TUPLE || i->shape->rank != i->noperands))
		verify_error(v, verify_shape_span(v, i), "'tuple' of %u operands must have a tuple shape of %u elements",
			     i->noperands, i->noperands);
}

/* Callee attributes in attribute order become i->callees (resolve.c); for
 * while (condition and body, one computation each) the position of the
 * condition attribute is its callee index when both resolved. */
static void verify_while(struct verify_ctx *v, const struct hlo_instr *i)
{
	char buf[128];
	uint32_t pos = 0, ncallee_attrs = 0;
	const struct hlo_attr *cond = NULL;
	for (uint32_t k = 0; k < i->nattrs; k++) {
		if (ir_attrs(i)[k].key == ATTR_CONDITION) {
			cond = &ir_attrs(i)[k];
			pos = ncallee_attrs;
		}
		ncallee_attrs += ir_attrs(i)[k].key == ATTR_CONDITION || ir_attrs(i)[k].key == ATTR_BODY;
	}
	if (!cond || ncallee_attrs != 2 || i->ncallees != 2)
		return;
	const struct hlo_instr *root = ir_callees(i)[pos]->root;
	if (root && root->shape && !(ir_shape_is_array(root->shape) && root->shape->type == PT_PRED &&
				     root->shape->rank == 0))
		verify_error(v, ir_attr_value(cond), "while condition '%.*s' must return pred[], it returns %s",
			     IR_CNM(ir_callees(i)[pos]), verify_shape_str(root->shape, buf, sizeof buf));
}

/* ---- Async chains ---- */

static bool verify_async_shape_ok(const struct hlo_shape *s)
{
	return s && s->type == PT_TUPLE && s->rank >= 2 && s->elems[0]->type == PT_TUPLE;
}

/* The async_execution_thread of i, or "main". */
static const char *verify_thread_of(struct verify_ctx *v, const struct hlo_instr *i)
{
	const struct hlo_attr *at = ir_attr(i, ATTR_ASYNC_EXECUTION_THREAD);
	char *s;
	struct hlo_value *val = at ? attr_parse(v->f, at, &v->scratch, NULL) : NULL;
	if (val && attr_string(v->f, val, &v->scratch, &s, NULL, NULL))
		return s;
	return "main";
}

/* The computation an async-start calls, and the opcode it wraps. */
static struct hlo_comp *verify_async_comp(const struct hlo_instr *start)
{
	return start->async_wrapped == OP_COUNT && start->ncallees ? ir_callees(start)[0] : NULL;
}

static int verify_async_wrapped_op(const struct hlo_instr *start)
{
	if (start->async_wrapped != OP_COUNT)
		return start->async_wrapped;
	struct hlo_comp *c = verify_async_comp(start);
	return c && c->root ? c->root->op : -1;
}

static void verify_async(struct verify_ctx *v, struct hlo_instr *i)
{
	char buf[128];
	if (i->op != OP_ASYNC_DONE && i->shape && !verify_async_shape_ok(i->shape)) {
		verify_error(v, (i->flags & IR_SHAPE_WRITTEN) ? verify_shape_span(v, i) : ir_instr_opcode_span(i),
			     "async-start and async-update need a shape ((operand shapes...), output shape, ...), got %s",
			     verify_shape_str(i->shape, buf, sizeof buf));
		return;
	}
	if (i->op == OP_ASYNC_START) {
		if (i->index < v->nchain)
			v->chain[i->index] = i;
		return;
	}
	if (!i->noperands || !ir_operands(i)[0].instr)
		return;
	struct hlo_instr *prev = ir_operands(i)[0].instr;
	if (prev->op != OP_ASYNC_START && prev->op != OP_ASYNC_UPDATE) {
		verify_error(v, ir_operand_span(&ir_operands(i)[0]),
			     "async-update and async-done expect an async-start or async-update as their first operand, got '%s'",
			     verify_op_name(prev));
		return;
	}
	struct hlo_instr *start = prev->op == OP_ASYNC_START ? prev
				  : prev->comp == i->comp && prev->index < v->nchain ? v->chain[prev->index] : NULL;
	if (i->index < v->nchain)
		v->chain[i->index] = start;
	if (!start)
		return;
	int wrapped = verify_async_wrapped_op(start);
	if (i->async_wrapped != OP_COUNT && wrapped >= 0 && wrapped != i->async_wrapped)
		verify_error(v, ir_instr_opcode_span(i), "expected async wrapped opcode to be '%s', but got '%s'",
			     ir_opcode_name((enum opcode)wrapped), ir_opcode_name((enum opcode)i->async_wrapped));
	struct verify_found *calls = verify_find(v, ATTR_CALLS);
	if (calls && i->ncallees) {
		struct hlo_comp *want = verify_async_comp(start);
		if (want != ir_callees(i)[0])
			verify_error(v, ir_attr_value(calls->attr),
				     "expected async wrapped computation to be '%.*s', but got '%.*s'",
				     want ? (int)ir_comp_name_len(want) : 43,
				     want ? ir_comp_name(want) : "<the wrapped computation of the async-start>",
				     IR_CNM(ir_callees(i)[0]));
	}
	if (verify_find(v, ATTR_ASYNC_EXECUTION_THREAD)) {
		const char *mine = verify_thread_of(v, i), *theirs = verify_thread_of(v, start);
		if (strcmp(mine, theirs))
			verify_error(v, ir_attr_value(verify_find(v, ATTR_ASYNC_EXECUTION_THREAD)->attr),
				     "expected async_execution_thread to be \"%s\" (as in the async-start), but got \"%s\"",
				     theirs, mine);
	}
}

/* An async computation must be called by exactly one async-start. */
static void verify_async_callers(struct verify_ctx *v, const struct hlo_comp *c)
{
	const struct hlo_instr *first = NULL;
	for (uint32_t k = 0; k < ir_comp_ncallers(c); k++) {
		const struct hlo_instr *i = ir_comp_caller(c, k);
		if (i->op != OP_ASYNC_START || i->async_wrapped != OP_COUNT)
			continue;
		if (!first) {
			first = i;
			continue;
		}
		const struct hlo_attr *at = ir_attr(i, ATTR_CALLS);
		verify_error(v, at ? ir_attr_value(at) : ir_instr_opcode_span(i),
			     "computation '%.*s' is called by more than one async-start (also by '%.*s')", IR_CNM(c),
			     IR_NM(first));
	}
}

/* ---- Instructions ---- */

static void verify_instr(struct verify_ctx *v, struct hlo_instr *i)
{
	if (i->op >= OP_COUNT)
		return;
	struct arena_mark mk = arena_mark(&v->scratch);
	const char *opname = verify_op_name(i);
	char sugar_name[64];
	if (i->async_wrapped != OP_COUNT) {
		/* Messages name the opcode as written. */
		snprintf(sugar_name, sizeof sugar_name, "%.*s", (int)i->op_len,
			 ir_text(v->f, ir_instr_opcode_span(i)));
		opname = sugar_name;
	}
	bool synthesized_gte = i->op == OP_GET_TUPLE_ELEMENT && (i->flags & IR_ANONYMOUS) && !i->nattrs &&
			       i->number >= 0;
	if (synthesized_gte) {
		v->nfound = 0;
	} else {
		verify_instr_attrs(v, i, opname);
		verify_operand_count(v, i, opname);
	}
	if (i->async_wrapped == OP_COUNT || i->op != OP_ASYNC_START) {
		switch (i->op) {
		case OP_CONDITIONAL:
			verify_conditional(v, i);
			break;
		case OP_GET_TUPLE_ELEMENT:
			verify_gte(v, i);
			break;
		case OP_BROADCAST:
			verify_broadcast(v, i);
			break;
		case OP_DYNAMIC_SLICE:
		case OP_DYNAMIC_UPDATE_SLICE:
			verify_dynamic_slice(v, i);
			break;
		case OP_RECV:
		case OP_INFEED:
			verify_tuple_shape_needed(v, i);
			break;
		case OP_CUSTOM_CALL:
			verify_layout_constraints(v, i);
			break;
		case OP_IOTA:
			verify_iota(v, i);
			break;
		case OP_CONSTANT:
			verify_literal(v, i);
			break;
		case OP_TUPLE:
			verify_tuple(v, i);
			break;
		case OP_WHILE:
			verify_while(v, i);
			break;
		case OP_ALL_GATHER: case OP_ALL_GATHER_START: case OP_ALL_REDUCE: case OP_ALL_REDUCE_START:
		case OP_REDUCE_SCATTER: case OP_COLLECTIVE_PERMUTE: case OP_COLLECTIVE_PERMUTE_START:
			verify_collectives(v, i);
			break;
		default:
			break;
		}
		verify_dimensions(v, i);
		verify_shapes(v, i);
	}
	if (i->op == OP_ASYNC_START || i->op == OP_ASYNC_UPDATE || i->op == OP_ASYNC_DONE)
		verify_async(v, i);
	verify_parameter_replication(v, i);
	arena_release(&v->scratch, mk);
}

void verify_comp(struct verify_ctx *v, struct hlo_comp *c)
{
	const struct hlo_instr *root = NULL;
	if (c->ninstrs > v->nchain) {
		free(v->chain);
		v->nchain = c->ninstrs;
		v->chain = xcalloc(v->nchain, sizeof *v->chain);
	}
	for (uint32_t k = 0; k < c->ninstrs; k++) {
		struct hlo_instr *i = c->instrs[k];
		if (ir_is_root(i)) {
			if (root)
				verify_error(v, span_make(i->start, i->start + 4),
					     "computation '%.*s' has more than one ROOT instruction (the first is '%.*s')",
					     IR_CNM(c), IR_NM(root));
			else
				root = i;
		}
		v->chain[k] = NULL;
		verify_instr(v, i);
		source_drop(v->f->src, &v->drop_mark, i->start);
		if (diag_full(v->d))
			return;
	}
}

/* ---- Module header ---- */

static void verify_module_attrs(struct verify_ctx *v)
{
	struct hlo_module *m = v->m;
	struct hlo_comp *entry = m->entry;
	char a[128], b[128];
	for (uint32_t k = 0; k < m->nattrs; k++) {
		const struct hlo_attr *at = &m->attrs[k];
		for (uint32_t j = 0; j < k && k < 64; j++)
			if (ir_attr_same_name(v->f, &m->attrs[j], at)) {
				verify_error(v, ir_attr_name_span(at), "module attribute '%.*s' already exists",
					     IR_ANM(v->f, at));
				break;
			}
		struct arena_mark mk = arena_mark(&v->scratch);
		struct attr_error e = { .span = span_none(), .msg = "" };
		struct arena *ar = &v->scratch;
		bool ok = true;
		switch (at->key) {
		case ATTR_FRONTEND_ATTRIBUTES: {
			struct hlo_frontend_attrs fa;
			ok = metadata_frontend(v->f, ir_attr_value(at), ar, &fa, &e);
			break;
		}
		case ATTR_ORIGIN_RECOVERY_TABLE:
			break;
		case ATTR_DEBUG_ATTRIBUTES: {
			struct hlo_value *val = attr_parse(v->f, at, ar, &e);
			ok = val && attr_debug_attributes(val, &e);
			break;
		}
		case ATTR_IS_SCHEDULED:
		case ATTR_ALIAS_PASSTHROUGH_PARAMS: {
			struct hlo_value *val = attr_parse(v->f, at, ar, &e);
			bool on;
			ok = val && attr_bool(val, &on, &e);
			break;
		}
		case ATTR_ALLOW_SPMD_PARAMS:
		case ATTR_ALLOW_SPMD_OUTPUT: {
			struct hlo_value *val = attr_parse(v->f, at, ar, &e);
			struct attr_bools bl;
			ok = val && attr_bools(val, ar, &bl, &e);
			break;
		}
		case ATTR_NUM_PARTITIONS:
		case ATTR_REPLICA_COUNT: {
			struct hlo_value *val = attr_parse(v->f, at, ar, &e);
			int64_t x;
			ok = val && attr_int(val, &x, &e);
			if (ok && x < 1) {
				ok = false;
				e.span = val->span;
				snprintf(e.msg, sizeof e.msg, "must be at least 1, got %lld", (long long)x);
			}
			break;
		}
		case ATTR_INPUT_OUTPUT_ALIAS:
		case ATTR_BUFFER_DONOR: {
			struct hlo_value *val = attr_parse(v->f, at, ar, &e);
			struct hlo_aliases al;
			bool io = at->key == ATTR_INPUT_OUTPUT_ALIAS;
			ok = val && (io ? attr_aliases(val, ar, true, &al, &e) : attr_buffer_donors(val, ar, &al, &e));
			for (uint32_t n = 0; ok && entry && n < al.n; n++) {
				struct hlo_alias *x = &al.items[n];
				if (x->number < 0 || x->number >= (int64_t)entry->nparams)
					verify_error(v, x->span, "parameter number %lld is out of range (the entry computation takes %u)",
						     (long long)x->number, entry->nparams);
				else if (!attr_index_valid(entry->params[x->number]->shape, &x->index))
					verify_error(v, x->span, "shape index is not valid for parameter %lld of shape %s",
						     (long long)x->number,
						     verify_shape_str(entry->params[x->number]->shape, a, sizeof a));
				if (io && entry->root && !attr_index_valid(entry->root->shape, &x->output_index))
					verify_error(v, x->span, "output shape index is not valid for the entry result %s",
						     verify_shape_str(entry->root->shape, a, sizeof a));
			}
			break;
		}
		case ATTR_ENTRY_COMPUTATION_LAYOUT: {
			struct hlo_value *val = attr_parse(v->f, at, ar, &e);
			struct hlo_program_shape ps;
			ok = val && attr_program_shape(val, ar, &ps, &e);
			if (ok && entry) {
				if (ps.nparams != entry->nparams) {
					verify_error(v, ir_attr_value(at),
						     "entry_computation_layout has %u parameters, the entry computation has %u",
						     ps.nparams, entry->nparams);
					break;
				}
				for (uint32_t n = 0; n < ps.nparams; n++)
					if (entry->params[n] && !ir_shape_equal(ps.params[n], entry->params[n]->shape, false))
						verify_error(v, ps.param_spans[n],
							     "entry_computation_layout parameter %u, %s, does not match parameter shape %s",
							     n, verify_shape_str(ps.params[n], a, sizeof a),
							     verify_shape_str(entry->params[n]->shape, b, sizeof b));
				if (entry->root && !ir_shape_equal(ps.result, entry->root->shape, false))
					verify_error(v, ps.result_span,
						     "entry_computation_layout result %s does not match the entry result %s",
						     verify_shape_str(ps.result, a, sizeof a),
						     verify_shape_str(entry->root->shape, b, sizeof b));
			}
			break;
		}
		default:
			verify_error(v, ir_attr_name_span(at), "unknown module attribute '%.*s'", IR_ANM(v->f, at));
			break;
		}
		if (!ok)
			verify_attr_error(v, at, &e);
		arena_release(&v->scratch, mk);
	}
}

static void verify_comps(struct verify_ctx *v, uint32_t from, uint32_t to)
{
	for (uint32_t c = from; c < to && !diag_full(v->d); c++)
		verify_comp(v, v->m->comps[c]);
}

void verify_ctx_free(struct verify_ctx *v)
{
	arena_free(&v->scratch);
	free(v->chain);
	free(v->found);
}

unsigned verify_module(struct hlo_module *m, struct diag_sink *d, struct verify_run *run)
{
	struct verify_ctx v = { .m = m, .f = m->file, .d = d };
	const char *bad_rule = verify_attrs_init();
	if (bad_rule)
		verify_error(&v, span_none(), "internal: the verifier's rule table names an unknown attribute at '%.20s'",
			     bad_rule);
	arena_init(&v.scratch);
	verify_module_attrs(&v);
	if (!verify_run_finish(m, run))
		verify_comps(&v, 0, m->ncomps);
	/* After the instructions, so that chain errors come first in source
	 * order.  Only a computation with two callers can have two
	 * async-starts, and ir_module_ncallers counts them without reading the
	 * computation (on a large module each would be a cache miss). */
	for (uint32_t c = 0; c < m->ncomps && !diag_full(d); c++)
		if (ir_module_ncallers(m, c) > 1)
			verify_async_callers(&v, m->comps[c]);
	verify_ctx_free(&v);
	return v.errors;
}
