/* flow.c - which positions (instruction, leaf) are one buffer: XLA's
 * aliasing rules in one place.  A result leaf that is another
 * instruction's buffer (flow_source: get-tuple-element, tuple, bitcast,
 * while, async and copy pairs, annotating custom-calls), the computations
 * a control-flow instruction hands buffers to and takes its result from
 * (flow_callees_of: while carries, conditional branches, calls, fusions),
 * results written in place over a dying operand (flow_shares_operand,
 * flow_writes_in_place, flow_inplace_param), the entry's
 * input_output_alias (flow_io_pairs) and the placement custom-calls.
 * The memory model (mem*.c, alloc.c), annotate --apply (apply.c), diff
 * and the rules ask here; none keeps a rule of its own.  It assigns no
 * buffers and knows no liveness (mem.h); leaf numbering is alias.h's. */
#include "flow.h"
#include <string.h>
#include "metadata.h"

/* ---- Results that are other instructions' buffers ---- */

enum flow_placement flow_placement(const struct hlo_file *f, const struct hlo_instr *i)
{
	if (i->op != OP_CUSTOM_CALL)
		return FLOW_PLACE_NONE;
	if (attr_plain_is(f, i, ATTR_CUSTOM_CALL_TARGET, "MoveToHost"))
		return FLOW_PLACE_HOST;
	if (attr_plain_is(f, i, ATTR_CUSTOM_CALL_TARGET, "MoveToDevice"))
		return FLOW_PLACE_DEVICE;
	if (!attr_plain_is(f, i, ATTR_CUSTOM_CALL_TARGET, "annotate_device_placement"))
		return FLOW_PLACE_NONE;
	const struct hlo_attr *fa = ir_attr(i, ATTR_FRONTEND_ATTRIBUTES);
	struct arena a;
	arena_init(&a);
	struct hlo_frontend_attrs attrs;
	enum flow_placement r = FLOW_PLACE_OTHER;
	if (fa && metadata_frontend(f, ir_attr_value(fa), &a, &attrs, NULL)) {
		const struct hlo_frontend_attr *p = metadata_frontend_get(&attrs, "_xla_buffer_placement");
		if (p && !p->json && ((p->len == 11 && !memcmp(p->value, "pinned_host", 11)) ||
				      (p->len == 13 && !memcmp(p->value, "unpinned_host", 13))))
			r = FLOW_PLACE_HOST;
		else if (p && !p->json && p->len == 6 && !memcmp(p->value, "device", 6))
			r = FLOW_PLACE_DEVICE;
	}
	arena_free(&a);
	return r;
}

/* Custom calls that only annotate a value: its result is the operand's
 * buffer.  In an optimized module XLA has removed them; in a
 * pre-optimization dump the offload they ask for has not happened yet. */
static bool flow_identity_call(struct alias_state *as, const struct hlo_instr *i)
{
	static const char *const ids[] = { "annotate_device_placement", "MoveToHost", "MoveToDevice", "Sharding",
					   "PinToDevice", "PinToDeviceSram", "AnnotateMemorySpace",
					   "xla.sdy.FuncResultSharding", "xla.sdy.ShardingGroup",
					   "xla.sdy.PropagationBarrier", NULL };
	if (i->op != OP_CUSTOM_CALL || i->noperands < 1 || !ir_operands(i)[0].instr)
		return false;
	/* An offload to host or a move back makes a copy in the memory it asks
	 * for (XLA's host offloader turns it into copy-start/-done). */
	enum flow_placement pl = flow_placement(as->f, i);
	if (pl == FLOW_PLACE_HOST || pl == FLOW_PLACE_DEVICE)
		return false;
	for (int k = 0; ids[k]; k++)
		if (attr_plain_is(as->f, i, ATTR_CUSTOM_CALL_TARGET, ids[k]))
			return alias_leaves(as, i->shape) ==
			       alias_leaves(as, ir_operands(i)[0].instr->shape);
	return false;
}

/* Instructions whose result is entirely other buffers and that read
 * nothing themselves: their operands' uses are their users' uses. */
bool flow_pure(struct alias_state *as, const struct hlo_instr *i)
{
	switch (i->op) {
	case OP_GET_TUPLE_ELEMENT:
	case OP_TUPLE:
	case OP_BITCAST:
	case OP_PARAMETER:
	case OP_ADD_DEPENDENCY:
	case OP_DOMAIN:
	case OP_OPT_BARRIER:
		return true;
	default:
		return flow_identity_call(as, i);
	}
}

/* Leaf j of the concatenated leaves of operands [from, noperands). */
static bool flow_operand_leaf(struct alias_state *as, const struct hlo_instr *i, uint32_t from, uint32_t j,
			     const struct hlo_instr **src, uint32_t *sj)
{
	for (uint32_t k = from; k < i->noperands; k++) {
		const struct hlo_instr *o = ir_operands(i)[k].instr;
		if (!o)
			return false;
		uint32_t n = alias_leaves(as, o->shape);
		if (j < n) {
			*src = o;
			*sj = j;
			return true;
		}
		j -= n;
	}
	return false;
}

/* When leaf j of i lives in another instruction's buffer (XLA's aliasing:
 * get-tuple-element, tuple, bitcast, while, the operand halves of async
 * starts, the done halves of async pairs), sets (*src, *sj). */
bool flow_source(struct alias_state *as, const struct hlo_instr *i, uint32_t j, const struct hlo_instr **src,
			     uint32_t *sj)
{
	const struct hlo_instr *o = i->noperands ? ir_operands(i)[0].instr : NULL;
	uint32_t first, count;
	bool ok = false;
	switch (i->op) {
	case OP_GET_TUPLE_ELEMENT:
		if (o && i->number >= 0 && alias_elem_range(as, o->shape, (uint32_t)i->number, &first, &count) &&
		    j < count) {
			*src = o;
			*sj = first + j;
			ok = true;
		}
		break;
	case OP_TUPLE: {
		/* Element e of the result is operand e. */
		uint32_t e;
		if (i->shape && i->shape->type == PT_TUPLE && i->shape->rank == i->noperands && alias_elem_of(as, i->shape, j, &e, sj) &&
		    (*src = ir_operands(i)[e].instr))
			ok = true;
		break;
	}
	case OP_BITCAST:
	case OP_ADD_DEPENDENCY:
	case OP_DOMAIN:
	case OP_OPT_BARRIER:
	case OP_WHILE:
	case OP_ALL_REDUCE_DONE:
	case OP_ASYNC_UPDATE:
	case OP_COPY_DONE: /* element 0 of copy-start is the destination */
		if (o) {
			*src = o;
			*sj = j;
			ok = true;
		}
		break;
	case OP_ALL_GATHER_DONE:
	case OP_COLLECTIVE_PERMUTE_DONE:
	case OP_ASYNC_DONE:
		if (o && alias_elem_range(as, o->shape, 1, &first, &count)) {
			*src = o;
			*sj = first + j;
			ok = j < count;
		} else if (o) {
			*src = o;
			*sj = j;
			ok = true;
		}
		break;
	case OP_RECV_DONE:
		if (o && alias_elem_range(as, i->shape, 0, &first, &count) && j < count) {
			*src = o;
			*sj = j;
			ok = true;
		}
		break;
	case OP_COPY_START: /* (destination, source, context) */
		if (o && alias_elem_range(as, i->shape, 1, &first, &count) && j >= first && j < first + count) {
			*src = o;
			*sj = j - first;
			ok = true;
		}
		break;
	case OP_ALL_GATHER_START:      /* (operands, outputs) */
	case OP_COLLECTIVE_PERMUTE_START: /* (operand, output, contexts...) */
	case OP_ASYNC_START:           /* ((operands), output, context...) */
	case OP_SEND:                  /* (data, context, token) */
		if (alias_elem_range(as, i->shape, 0, &first, &count) && j < count) {
			ok = flow_operand_leaf(as, i, 0, j, src, sj);
		} else if (i->op == OP_ASYNC_START && i->async_wrapped == OP_DYNAMIC_UPDATE_SLICE && o &&
			   alias_elem_range(as, i->shape, 1, &first, &count) && j == first && count == 1) {
			/* dynamic-update-slice-start writes its output over operand
			 * 0, as the synchronous one does after copy insertion: one
			 * pinned-host stack, not two (corpora/xla scan_offload/
			 * offloaded: XLA's host temp is 384M, 768M counted twice). */
			*src = o;
			*sj = 0;
			ok = true;
		}
		break;
	case OP_CUSTOM_CALL:
		if (flow_identity_call(as, i)) {
			*src = o;
			*sj = j;
			ok = true;
		}
		break;
	default:
		break;
	}
	return ok && *src && *sj < alias_leaves(as, (*src)->shape);
}

/* ---- input_output_alias ---- */

uint32_t flow_io_pairs(struct alias_state *as, const struct hlo_module *m, struct arena *a, struct flow_io **out)
{
	const struct hlo_comp *e = m->entry;
	const struct hlo_attr *at = ir_module_attr(m, ATTR_INPUT_OUTPUT_ALIAS);
	*out = NULL;
	if (!at || !e || !e->root)
		return 0;
	struct hlo_value *v = attr_parse(m->file, at, a, NULL);
	struct hlo_aliases al;
	if (!v || !attr_aliases(v, a, true, &al, NULL) || !al.n)
		return 0;
	struct flow_io *io = arena_array(a, al.n, sizeof *io);
	uint32_t n = 0;
	for (uint32_t k = 0; k < al.n; k++) {
		const struct hlo_alias *x = &al.items[k];
		uint32_t of, on, pf, pn;
		if (x->number < 0 || (uint64_t)x->number >= e->nparams || !e->params[x->number])
			continue;
		if (!alias_path_leaves(as, e->root->shape, &x->output_index, &of, &on) ||
		    !alias_path_leaves(as, e->params[x->number]->shape, &x->index, &pf, &pn) || on != pn)
			continue;
		io[n++] = (struct flow_io){ of, (uint32_t)x->number, pf, on };
	}
	*out = io;
	return n;
}

/* ---- Results written over an operand ---- */

/* XLA's CanShareOperandBufferWithUser for an array result: an element-wise
 * instruction, select, clamp, a kLoop or kInput fusion or an all-reduce may write its
 * result into an operand of the same size that dies there (XLA:TPU shares
 * a fusion's bitcast or transposed result too: corpora/xla donation/
 * no_donation/tpu-v6e writes f32[8192,8192]{0,1} over {1,0}, scan_offload
 * bf16[1,16384,1024] over bf16[16384,1024]; the total and the peak share
 * the same pairs, alloc.c and mem_merge, which checks the death).  Every
 * such operand is a candidate, in
 * operand order, as XLA tries them; the first that dies there is taken.
 * Measured on TPU and GPU (corpora/xla); XLA:CPU's buffer assignment does
 * not share them. */
bool flow_shares_operand(const struct hlo_instr *i)
{
	switch (i->op) {
	case OP_ALL_REDUCE:
	case OP_ALL_REDUCE_START:
	case OP_SELECT:
	case OP_CLAMP:
		return true;
	case OP_FUSION:
		return ir_fusion_kind(i) == FUSION_LOOP || ir_fusion_kind(i) == FUSION_INPUT;
	default:
		return ir_op_elementwise_unary((enum opcode)i->op) || ir_op_elementwise_binary((enum opcode)i->op);
	}
}

bool flow_updates_in_place(const struct hlo_instr *i)
{
	return i->op == OP_DYNAMIC_UPDATE_SLICE || i->op == OP_SCATTER || i->op == OP_SORT;
}

bool flow_writes_in_place(const struct hlo_instr *i)
{
	return flow_shares_operand(i) || flow_updates_in_place(i);
}

/* Fusion operand updated in place when the fused root is a
 * dynamic-update-slice or scatter of a parameter: its number, else -1. */
int64_t flow_inplace_param(const struct hlo_instr *root)
{
	if (!root || (root->op != OP_DYNAMIC_UPDATE_SLICE && root->op != OP_SCATTER) || !root->noperands)
		return -1;
	const struct hlo_instr *o = ir_operands(root)[0].instr;
	while (o && o->op == OP_BITCAST && o->noperands)
		o = ir_operands(o)[0].instr;
	return o && o->op == OP_PARAMETER ? o->number : -1;
}

/* ---- Computations called ---- */

void flow_callees_of(const struct hlo_instr *i, bool fusions, struct flow_callees *out)
{
	out->n = 0;
	out->many = NULL;
	if (i->op == OP_WHILE) {
		struct hlo_comp *body = ir_callee(i, ATTR_BODY), *cond = ir_callee(i, ATTR_CONDITION);
		if (body) {
			out->c[out->n] = body;
			out->operand[out->n] = 0;
			out->colocate[out->n++] = true;
		}
		if (cond && cond != body) {
			out->c[out->n] = cond;
			out->operand[out->n] = 0;
			out->colocate[out->n++] = false;
		}
	} else if (i->op == OP_CONDITIONAL) {
		struct hlo_comp *t = ir_callee(i, ATTR_TRUE_COMPUTATION), *f = ir_callee(i, ATTR_FALSE_COMPUTATION);
		if (t || f) {
			if (t) {
				out->c[out->n] = t;
				out->operand[out->n] = 1;
				out->colocate[out->n++] = true;
			}
			if (f) {
				out->c[out->n] = f;
				out->operand[out->n] = 2;
				out->colocate[out->n++] = true;
			}
		} else if ((uint32_t)i->ncallees + 1 == i->noperands) {
			/* branch_computations={...}: branch k takes operand k+1. */
			for (uint32_t k = 0; k < i->ncallees && k < 8; k++) {
				out->c[out->n] = ir_callees(i)[k];
				out->operand[out->n] = (int32_t)k + 1;
				out->colocate[out->n++] = true;
			}
			if (i->ncallees > 8)
				out->many = ir_callees(i);
		}
	} else if (i->op == OP_CALL || (fusions && i->op == OP_FUSION)) {
		struct hlo_comp *t = i->op == OP_CALL ? ir_callee(i, ATTR_TO_APPLY)
				     : i->ncallees == 1 ? ir_callees(i)[0] : NULL;
		if (t) {
			out->c[0] = t;
			out->operand[0] = -1;
			out->colocate[0] = true;
			out->n = 1;
		}
	}
}

uint32_t flow_callee_count(const struct hlo_instr *i, const struct flow_callees *cl)
{
	return cl->many ? i->ncallees : cl->n;
}

void flow_callee_at(const struct flow_callees *cl, uint32_t k, struct hlo_comp **c, int32_t *operand,
			  bool *colocate)
{
	if (k < 8 && k < cl->n) {
		*c = cl->c[k];
		*operand = cl->operand[k];
		*colocate = cl->colocate[k];
	} else {
		*c = cl->many[k];
		*operand = (int32_t)k + 1;
		*colocate = true;
	}
}

/* A fusion rooted in updates: result leaf j (of nl) is element j of the
 * root tuple, or the root itself. */
static int64_t flow_fusion_updated(const struct hlo_instr *i, uint32_t nl, uint32_t j)
{
	const struct hlo_instr *root = ir_callees(i)[0]->root;
	if (root && root->op == OP_TUPLE)
		return nl == root->noperands && j < nl ? flow_inplace_param(ir_operands(root)[j].instr) : -1;
	return nl == 1 && j == 0 ? flow_inplace_param(root) : -1;
}

int64_t flow_updated_operand(const struct hlo_instr *i, uint32_t nl, uint32_t j)
{
	int64_t k = -1;
	if (i->op == OP_DYNAMIC_UPDATE_SLICE && nl == 1 && j == 0)
		k = 0;
	else if (i->op == OP_SCATTER && i->noperands >= 3 && j < (i->noperands - 1) / 2 && j < nl)
		k = j;
	else if (i->op == OP_FUSION && i->ncallees && (i->xflags & IR_CALLS_UPDATE))
		k = flow_fusion_updated(i, nl, j);
	else if (i->op == OP_SORT && j < nl && nl == i->noperands && ir_operands(i)[j].instr &&
		 ir_operands(i)[j].instr->nusers == 1)
		k = j;   /* sorted in place: result j over operand j when sort is its one user */
	return k >= 0 && (uint64_t)k < i->noperands && ir_operands(i)[k].instr ? k : -1;
}
