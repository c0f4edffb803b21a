/* loop.c - while-loop queries shared by the rules: induction variable,
 * trip count (the inference follows host_transfer.c's, which predates this
 * file; body and condition come from ir_callee).  It reads backend_config
 * as raw text for two known keys only; it does not decode JSON in general
 * or look into fusions. */
#include "loop.h"
#include <string.h>
#include "attr.h"
#include "literal.h"

int64_t loop_param_index(const struct hlo_comp *c, const struct hlo_instr *i)
{
	if (!c || !i || i->op != OP_GET_TUPLE_ELEMENT || !i->noperands || !c->nparams)
		return -1;
	return ir_operands(i)[0].instr == c->params[0] ? i->number : -1;
}

bool loop_const_int(const struct hlo_module *m, const struct hlo_instr *i, int64_t *v)
{
	if (i && i->flags & IR_SCALAR_NUMBER) {
		*v = i->number;
		return true;
	}
	return i && i->op == OP_CONSTANT && i->shape && i->shape->rank == 0 && i->shape->type != PT_TUPLE &&
	       literal_scalar_int(m->file, ir_instr_literal(i), i->shape, v);
}

/* The step of slot k when upd is "gte(p, k) + c", "c + gte(p, k)" or
 * "gte(p, k) - c" in body; false otherwise. */
static bool loop_step(const struct hlo_module *m, const struct hlo_comp *body, const struct hlo_instr *upd,
		      int64_t k, int64_t *step)
{
	if (!upd || upd->noperands != 2 || (upd->op != OP_ADD && upd->op != OP_SUBTRACT))
		return false;
	if (loop_param_index(body, ir_operands(upd)[0].instr) == k && loop_const_int(m, ir_operands(upd)[1].instr, step)) {
		if (upd->op == OP_SUBTRACT)
			*step = -*step;
		return true;
	}
	return upd->op == OP_ADD && loop_param_index(body, ir_operands(upd)[1].instr) == k &&
	       loop_const_int(m, ir_operands(upd)[0].instr, step);
}

int64_t loop_induction_index(const struct hlo_module *m, const struct hlo_instr *w)
{
	int64_t k = attr_json_number(m->file, w, ATTR_BACKEND_CONFIG, "known_induction_variable", "tuple_index");
	if (k >= 0)
		return k;
	struct hlo_comp *body = ir_callee(w, ATTR_BODY);
	if (body && body->root && body->root->op == OP_TUPLE) {
		const struct hlo_instr *root = body->root;
		for (uint32_t j = 0; j < root->noperands; j++) {
			int64_t step;
			if (loop_step(m, body, ir_operands(root)[j].instr, j, &step) && step)
				return j;
		}
	}
	struct hlo_comp *cond = ir_callee(w, ATTR_CONDITION);
	if (cond && cond->root && cond->root->op == OP_COMPARE && cond->root->noperands == 2) {
		for (int s = 0; s < 2; s++) {
			k = loop_param_index(cond, ir_operands(cond->root)[s].instr);
			if (k >= 0)
				return k;
		}
	}
	return -1;
}

static int64_t loop_ceil_div(int64_t a, int64_t b)
{
	return a <= 0 ? 0 : (a + b - 1) / b;
}

static bool loop_small(int64_t v)
{
	return v >= -(INT64_C(1) << 60) && v <= (INT64_C(1) << 60);
}

static int64_t loop_inferred(const struct hlo_module *m, const struct hlo_instr *w)
{
	struct hlo_comp *cond = ir_callee(w, ATTR_CONDITION);
	struct hlo_comp *body = ir_callee(w, ATTR_BODY);
	if (!cond || !body || !cond->root || !body->root || cond->root->op != OP_COMPARE ||
	    cond->root->noperands != 2 || !w->noperands)
		return -1;
	const struct hlo_instr *cmp = cond->root;
	const struct hlo_attr *dir = ir_attr(cmp, ATTR_DIRECTION);
	const char *ds;
	size_t dn;
	if (!dir || !attr_text_ident(m->file, ir_attr_value(dir), &ds, &dn) || dn != 2)
		return -1;
	static const char *const dirs[] = { "LT", "LE", "GT", "GE", "NE" };
	int d = -1;
	for (int j = 0; j < 5; j++)
		if (!memcmp(ds, dirs[j], 2))
			d = j;
	int64_t limit, k = loop_param_index(cond, ir_operands(cmp)[0].instr);
	if (k >= 0 && loop_const_int(m, ir_operands(cmp)[1].instr, &limit)) {
		/* iv <dir> N */
	} else if ((k = loop_param_index(cond, ir_operands(cmp)[1].instr)) >= 0 &&
		   loop_const_int(m, ir_operands(cmp)[0].instr, &limit)) {
		static const int flip[] = { 2, 3, 0, 1, 4 };  /* N < iv  ==  iv > N */
		d = d >= 0 ? flip[d] : d;
	} else {
		return -1;
	}
	if (d < 0)
		return -1;
	const struct hlo_instr *init = ir_operands(w)[0].instr;
	int64_t start, step;
	if (!init || init->op != OP_TUPLE || k >= init->noperands || !loop_const_int(m, ir_operands(init)[k].instr, &start))
		return -1;
	const struct hlo_instr *root = body->root;
	if (root->op != OP_TUPLE || k >= root->noperands || !loop_step(m, body, ir_operands(root)[k].instr, k, &step))
		return -1;
	if (!step || !loop_small(start) || !loop_small(limit) || !loop_small(step))
		return -1;
	switch (d) {
	case 0: return step > 0 ? loop_ceil_div(limit - start, step) : -1;
	case 1: return step > 0 ? loop_ceil_div(limit - start + 1, step) : -1;
	case 2: return step < 0 ? loop_ceil_div(start - limit, -step) : -1;
	case 3: return step < 0 ? loop_ceil_div(start - limit + 1, -step) : -1;
	default:
		if (step > 0 && limit >= start && (limit - start) % step == 0)
			return (limit - start) / step;
		if (step < 0 && limit <= start && (start - limit) % -step == 0)
			return (start - limit) / -step;
		return -1;
	}
}

int64_t loop_trip_count(const struct hlo_module *m, const struct hlo_instr *w)
{
	int64_t n = attr_json_number(m->file, w, ATTR_BACKEND_CONFIG, "known_trip_count", "n");
	return n >= 0 ? n : loop_inferred(m, w);
}
