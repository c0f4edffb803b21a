/* verify_shapes.c - cheap shape rules of XLA's shape inference: dims only,
 * per opcode (elementwise, broadcast, reduce, concatenate, slices, dots,
 * ...); dynamic dimensions are not judged and layouts not compared. */
#include "verify_int.h"
#include <stdio.h>
#include <string.h>

/* ---- Cheap shape checks (dims only; dynamic dimensions are not judged) ---- */

static bool verify_dim_static(const struct hlo_shape *s, uint32_t k)
{
	return !s->dim_kinds || s->dim_kinds[k] == DIM_STATIC;
}

/* Same rank and the same static dimension sizes; true when not arrays. */
static bool verify_same_dims(const struct hlo_shape *a, const struct hlo_shape *b)
{
	if (!ir_shape_is_array(a) || !ir_shape_is_array(b))
		return true;
	if (a->rank != b->rank)
		return false;
	for (uint32_t k = 0; k < a->rank; k++)
		if (verify_dim_static(a, k) && verify_dim_static(b, k) && a->dims[k] != b->dims[k])
			return false;
	return true;
}

/* The dimension list of i must name distinct dimensions below rank. */
static bool verify_dims_in_range(struct verify_ctx *v, enum attr_key key, const struct attr_ints *d, uint32_t rank,
				 bool unique)
{
	struct verify_found *fo = verify_find(v, key);
	const char *name = ir_attr_name((enum attr_key)fo->attr->key);   /* found by key */
	bool *seen = arena_array(&v->scratch, rank + 1, sizeof *seen);
	for (uint32_t k = 0; k < d->n; k++) {
		if (d->v[k] < 0 || d->v[k] >= (int64_t)rank) {
			verify_error(v, ir_attr_value(fo->attr), "'%s' entry %lld is out of range for rank %u",
				     name, (long long)d->v[k], rank);
			return false;
		}
		if (unique && seen[d->v[k]]) {
			verify_error(v, ir_attr_value(fo->attr), "'%s' repeats dimension %lld", name, (long long)d->v[k]);
			return false;
		}
		seen[d->v[k]] = true;
	}
	return true;
}

/* transpose: dimensions= is a permutation and the result the operand's dims permuted. */
static void verify_shape_transpose(struct verify_ctx *v, const struct hlo_shape *r, const struct hlo_shape *a0,
				 struct span rs)
{
	char b0[128], b1[128];
	struct attr_ints d;
	if (verify_ints_of(v, ATTR_DIMENSIONS, &d)) {
		if (d.n != a0->rank) {
			verify_error(v, ir_attr_value(verify_find(v, ATTR_DIMENSIONS)->attr),
				     "'transpose' needs one dimension per operand dimension (%u), got %u", a0->rank, d.n);
			return;
		}
		if (!verify_dims_in_range(v, ATTR_DIMENSIONS, &d, a0->rank, true) || !ir_shape_is_array(r))
			return;
		for (uint32_t k = 0; k < d.n && r->rank == d.n; k++)
			if (verify_dim_static(r, k) && verify_dim_static(a0, (uint32_t)d.v[k]) &&
			    r->dims[k] != a0->dims[d.v[k]]) {
				verify_error(v, rs, "'transpose' result %s does not match operand %s permuted by the dimensions",
					     verify_shape_str(r, b0, sizeof b0), verify_shape_str(a0, b1, sizeof b1));
				return;
			}
	}
}

/* broadcast: dimensions= places each operand dimension on an equal result dimension. */
static void verify_shape_broadcast(struct verify_ctx *v, const struct hlo_shape *r, const struct hlo_shape *a0,
				 struct span rs)
{
	char b0[128], b1[128];
	struct attr_ints d;
	if (verify_ints_of(v, ATTR_DIMENSIONS, &d) && ir_shape_is_array(r)) {
		if (d.n != a0->rank) {
			verify_error(v, ir_attr_value(verify_find(v, ATTR_DIMENSIONS)->attr),
				     "'broadcast' needs one dimension per operand dimension (%u), got %u", a0->rank, d.n);
			return;
		}
		if (!verify_dims_in_range(v, ATTR_DIMENSIONS, &d, r->rank, true))
			return;
		for (uint32_t k = 0; k < d.n; k++)
			if (verify_dim_static(r, (uint32_t)d.v[k]) && verify_dim_static(a0, k) &&
			    r->dims[d.v[k]] != a0->dims[k]) {
				verify_error(v, rs, "'broadcast' result %s does not contain operand %s at the given dimensions",
					     verify_shape_str(r, b0, sizeof b0), verify_shape_str(a0, b1, sizeof b1));
				return;
			}
	}
}

/* slice: one valid range per operand dimension, and the result of their sizes. */
static void verify_shape_slice(struct verify_ctx *v, const struct hlo_shape *r, const struct hlo_shape *a0, struct span rs)
{
	char b0[128], b1[128];
	struct verify_found *fo = verify_find(v, ATTR_SLICE);
	struct hlo_slice sl;
	if (!fo || fo->bad)
		return;
	if (!attr_text_slice(v->f, ir_attr_value(fo->attr), &v->scratch, &sl)) {
		struct hlo_value *val = verify_value(v, fo);
		if (!val || !attr_slice(val, &v->scratch, &sl, NULL))
			return;
	}
	if (sl.rank != a0->rank) {
		verify_error(v, ir_attr_value(fo->attr), "'slice' needs one range per operand dimension (%u), got %u", a0->rank,
			     sl.rank);
		return;
	}
	for (uint32_t k = 0; k < sl.rank; k++) {
		struct hlo_slice_dim *x = &sl.dims[k];
		if (x->start < 0 || x->start > x->limit || x->stride < 1 ||
		    (verify_dim_static(a0, k) && x->limit > a0->dims[k])) {
			verify_error(v, ir_attr_value(fo->attr), "slice range %u [%lld:%lld:%lld] is not valid for dimension size %lld",
				     k, (long long)x->start, (long long)x->limit, (long long)x->stride,
				     (long long)a0->dims[k]);
			return;
		}
		if (ir_shape_is_array(r) && r->rank == sl.rank && verify_dim_static(r, k) &&
		    r->dims[k] != (x->limit - x->start + x->stride - 1) / x->stride) {
			verify_error(v, rs, "'slice' result %s does not match the slice of %s",
				     verify_shape_str(r, b0, sizeof b0), verify_shape_str(a0, b1, sizeof b1));
			return;
		}
	}
}

/* convolution: dim_labels ranks match the operands and result; window rank the spatial count. */
static void verify_shape_convolution(struct verify_ctx *v, const struct hlo_shape *r, const struct hlo_shape *a0,
				   const struct hlo_shape *a1)
{
	struct verify_found *fo = verify_find(v, ATTR_DIM_LABELS);
	struct hlo_value *val = verify_value(v, fo);
	struct hlo_conv_dims cd;
	if (!val || !attr_dim_labels(v->f, val, &v->scratch, &cd, NULL))
		return;
	if (cd.lhs_rank != a0->rank || (ir_shape_is_array(a1) && cd.rhs_rank != a1->rank) ||
	    (ir_shape_is_array(r) && cd.out_rank != r->rank)) {
		verify_error(v, ir_attr_value(fo->attr), "dim_labels ranks (%u, %u, %u) do not match the operand and result ranks",
			     cd.lhs_rank, cd.rhs_rank, cd.out_rank);
		return;
	}
	struct verify_found *wo = verify_find(v, ATTR_WINDOW);
	struct hlo_value *wv = verify_value(v, wo);
	struct hlo_window w;
	if (wv && attr_window(v->f, wv, &v->scratch, &w, NULL) && w.rank != cd.nspatial)
		verify_error(v, ir_attr_value(wo->attr), "window rank %u does not match the number of spatial dimensions (%u)", w.rank,
			     cd.nspatial);
}

void verify_shapes(struct verify_ctx *v, const struct hlo_instr *i)
{
	enum opcode op = (enum opcode)i->op;
	const struct hlo_shape *r = i->shape;
	const struct hlo_shape *a0 = verify_operand_shape(i, 0), *a1 = verify_operand_shape(i, 1);
	struct span rs = (i->flags & IR_SHAPE_WRITTEN) ? verify_shape_span(v, i) : ir_instr_opcode_span(i);
	char b0[128], b1[128];
	struct attr_ints d;
	if (ir_op_elementwise_binary(op) && i->noperands == 2) {
		if (!verify_same_dims(a0, a1))
			verify_error(v, ir_operand_span(&ir_operands(i)[1]), "operands of '%s' have different dimensions: %s and %s",
				     verify_op_name(i), verify_shape_str(a0, b0, sizeof b0), verify_shape_str(a1, b1, sizeof b1));
		else if (!verify_same_dims(r, a0))
			verify_error(v, rs, "'%s' result %s does not have the dimensions of its operands %s",
				     verify_op_name(i), verify_shape_str(r, b0, sizeof b0), verify_shape_str(a0, b1, sizeof b1));
		return;
	}
	if (ir_op_elementwise_unary(op) && i->noperands == 1) {
		if (!verify_same_dims(r, a0))
			verify_error(v, rs, "'%s' result %s does not have the dimensions of its operand %s",
				     verify_op_name(i), verify_shape_str(r, b0, sizeof b0), verify_shape_str(a0, b1, sizeof b1));
		return;
	}
	if (!ir_shape_is_array(a0))
		return;
	switch (op) {
	case OP_TRANSPOSE:
		verify_shape_transpose(v, r, a0, rs);
		break;
	case OP_BROADCAST:
		verify_shape_broadcast(v, r, a0, rs);
		break;
	case OP_REDUCE:
	case OP_REVERSE:
		if (verify_ints_of(v, ATTR_DIMENSIONS, &d))
			verify_dims_in_range(v, ATTR_DIMENSIONS, &d, a0->rank, true);
		break;
	case OP_CONCATENATE:
	case OP_SORT:
	case OP_GET_DIMENSION_SIZE:
	case OP_SET_DIMENSION_SIZE:
		if (verify_ints_of(v, ATTR_DIMENSIONS, &d) && d.n == 1)
			verify_dims_in_range(v, ATTR_DIMENSIONS, &d, a0->rank, true);
		break;
	case OP_SLICE:
		verify_shape_slice(v, r, a0, rs);
		break;
	case OP_PAD: {
		struct verify_found *fo = verify_find(v, ATTR_PADDING);
		struct hlo_value *val = verify_value(v, fo);
		struct hlo_padding pd;
		if (val && attr_padding(v->f, val, &v->scratch, &pd, NULL) && pd.rank != a0->rank)
			verify_error(v, ir_attr_value(fo->attr), "'padding' rank %u does not match the operand rank %u",
				     pd.rank, a0->rank);
		break;
	}
	case OP_RESHAPE:
		if (ir_shape_is_array(r) && !r->dim_kinds && !a0->dim_kinds &&
		    ir_shape_elements(r) != ir_shape_elements(a0))
			verify_error(v, rs, "'reshape' result %s does not have the element count of its operand %s",
				     verify_shape_str(r, b0, sizeof b0), verify_shape_str(a0, b1, sizeof b1));
		break;
	case OP_CONVOLUTION:
		verify_shape_convolution(v, r, a0, a1);
		break;
	case OP_REDUCE_WINDOW: {
		struct verify_found *wo = verify_find(v, ATTR_WINDOW);
		struct hlo_value *wv = verify_value(v, wo);
		struct hlo_window w;
		if (wv && attr_window(v->f, wv, &v->scratch, &w, NULL) && w.rank != a0->rank)
			verify_error(v, ir_attr_value(wo->attr), "window rank %u does not match the operand rank %u", w.rank,
				     a0->rank);
		break;
	}
	default:
		break;
	}
}
