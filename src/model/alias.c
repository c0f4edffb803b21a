/* alias.c - leaf numbering of tuple shapes and XLA's aliasing rules: which
 * operand leaf a get-tuple-element, tuple, bitcast, while, async half or
 * annotating custom-call result is.  Assigns no buffers and decides no
 * liveness (mem.c); --apply's policy of what it follows is apply.c's. */
#include "alias.h"
#include "metadata.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void alias_init(struct alias_state *as, const struct hlo_file *f, struct arena *keep)
{
	memset(as, 0, sizeof *as);
	as->f = f;
	as->keep = keep;
}

void alias_free(struct alias_state *as)
{
	free(as->tup);
	as->tup = NULL;
	as->ntup = as->captup = 0;
}

/* ---- Leaves and tuple offsets ---- */

static bool alias_is_tuple(const struct hlo_shape *s)
{
	return s && s->type == PT_TUPLE;
}

static uint32_t alias_hash_ptr(const void *p)
{
	uint64_t x = (uint64_t)(uintptr_t)p;
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return (uint32_t)x;
}

uint32_t alias_leaves(struct alias_state *as, const struct hlo_shape *s)
{
	if (!s)
		return 0;
	if (!alias_is_tuple(s))
		return 1;
	return alias_offsets(as, s)[s->rank];
}

/* Doubles the offsets cache while it is at least half full. */
static void alias_tup_reserve(struct alias_state *as)
{
	if (as->ntup * 2 < as->captup)
		return;
	uint32_t cap = as->captup ? as->captup * 2 : 256;
	struct alias_tup *t = xcalloc(cap, sizeof *t);
	for (uint32_t k = 0; k < as->captup; k++) {
		if (!as->tup[k].shape)
			continue;
		uint32_t h = alias_hash_ptr(as->tup[k].shape) & (cap - 1);
		while (t[h].shape)
			h = (h + 1) & (cap - 1);
		t[h] = as->tup[k];
	}
	free(as->tup);
	as->tup = t;
	as->captup = cap;
}

/* The cache's entry for tuple s, made with its offsets when absent (shapes
 * are hash-consed per file, so a while carry's shape is computed once
 * however many get-tuple-elements read it).  Valid until the next call. */
static struct alias_tup *alias_entry(struct alias_state *as, const struct hlo_shape *s)
{
	alias_tup_reserve(as);
	uint32_t h = alias_hash_ptr(s) & (as->captup - 1);
	while (as->tup[h].shape) {
		if (as->tup[h].shape == s)
			return &as->tup[h];
		h = (h + 1) & (as->captup - 1);
	}
	uint32_t *off = arena_array(as->keep, (size_t)s->rank + 1, sizeof *off);
	uint32_t n = 0;
	for (uint32_t k = 0; k < s->rank; k++) {
		off[k] = n;
		n += alias_leaves(as, s->elems[k]);
	}
	off[s->rank] = n;
	/* The recursion above filled the table with the elements' offsets: each
	 * level of a nested tuple adds one after its elements, so reserve again
	 * (without it 128 nested levels fill all 256 slots and the probe below
	 * never ends) and find the slot again. */
	alias_tup_reserve(as);
	h = alias_hash_ptr(s) & (as->captup - 1);
	while (as->tup[h].shape)
		h = (h + 1) & (as->captup - 1);
	as->tup[h] = (struct alias_tup){ .shape = s, .off = off };
	as->ntup++;
	return &as->tup[h];
}

const uint32_t *alias_offsets(struct alias_state *as, const struct hlo_shape *s)
{
	return alias_entry(as, s)->off;
}

/* The element of tuple s holding leaf j (binary search over the cached
 * offsets, so wide tuples cost log n); *sub = j within it.  False when j
 * is past the last leaf. */
bool alias_elem_of(struct alias_state *as, const struct hlo_shape *s, uint32_t j, uint32_t *e, uint32_t *sub)
{
	const uint32_t *off = alias_offsets(as, s);
	uint32_t lo = 0, hi = s->rank;
	if (j >= off[s->rank])
		return false;
	while (hi - lo > 1) {
		uint32_t mid = (lo + hi) / 2;
		if (off[mid] <= j)
			lo = mid;
		else
			hi = mid;
	}
	/* Skip empty elements that share the offset. */
	while (lo + 1 < s->rank && off[lo + 1] <= j)
		lo++;
	*e = lo;
	*sub = j - off[lo];
	return true;
}

static void alias_list_leaves(const struct hlo_shape *s, const struct hlo_shape **out, uint32_t *n)
{
	if (!alias_is_tuple(s)) {
		out[(*n)++] = s;
		return;
	}
	for (uint32_t k = 0; k < s->rank; k++)
		alias_list_leaves(s->elems[k], out, n);
}

/* Leaf j of s (s itself for a non-tuple).  The model asks for every leaf
 * of a result in turn: the leaves are listed once per shape, where a walk
 * down from the top for each would cost leaves x depth (a tuple nested
 * 8,000 deep took seconds). */
const struct hlo_shape *alias_leaf_shape(struct alias_state *as, const struct hlo_shape *s, uint32_t j)
{
	if (!alias_is_tuple(s))
		return s;
	struct alias_tup *t = alias_entry(as, s);
	if (j >= t->off[s->rank])
		return NULL;
	if (!t->leaf) {
		uint32_t n = 0;
		t->leaf = arena_array(as->keep, t->off[s->rank], sizeof *t->leaf);
		alias_list_leaves(s, t->leaf, &n);
	}
	return t->leaf[j];
}

/* Leaf j of s, and its ShapeIndex "{1,0}" written into buf (cap bytes)
 * when buf is not NULL: the one spelling of a leaf's index in messages and
 * notes.  An index too long for buf ends in ",...}" rather than a cut
 * number.  NULL past the last leaf (buf then holds "{}"). */
const struct hlo_shape *alias_leaf_path(struct alias_state *as, const struct hlo_shape *s, uint32_t j, char *buf,
					size_t cap)
{
	const struct hlo_shape *leaf = alias_leaf_shape(as, s, j);
	if (!buf || cap < sizeof "{...}")
		return leaf;
	size_t len = 1;
	buf[0] = '{';
	uint32_t e;
	while (leaf && alias_is_tuple(s) && alias_elem_of(as, s, j, &e, &j)) {
		char part[16];
		size_t n = (size_t)snprintf(part, sizeof part, "%s%u", len > 1 ? "," : "", e);
		if (len + n + sizeof ",...}" > cap) {
			len += (size_t)snprintf(buf + len, cap - len, "%s...", len > 1 ? "," : "");
			break;
		}
		memcpy(buf + len, part, n);
		len += n;
		s = s->elems[e];
	}
	snprintf(buf + len, cap - len, "}");
	return leaf;
}

/* First leaf and leaf count of the subshape at path (a ShapeIndex). */
bool alias_path_leaves(struct alias_state *as, const struct hlo_shape *s, const struct attr_ints *path,
			    uint32_t *first, uint32_t *count)
{
	uint32_t at = 0;
	for (uint32_t k = 0; k < path->n; k++) {
		if (!alias_is_tuple(s) || path->v[k] < 0 || path->v[k] >= (int64_t)s->rank)
			return false;
		at += alias_offsets(as, s)[path->v[k]];
		s = s->elems[path->v[k]];
	}
	*first = at;
	*count = alias_leaves(as, s);
	return true;
}

/* ---- Aliasing ---- */

enum alias_placement alias_placement(const struct hlo_file *f, const struct hlo_instr *i)
{
	if (i->op != OP_CUSTOM_CALL)
		return ALIAS_PLACE_NONE;
	if (attr_plain_is(f, i, ATTR_CUSTOM_CALL_TARGET, "MoveToHost"))
		return ALIAS_PLACE_HOST;
	if (attr_plain_is(f, i, ATTR_CUSTOM_CALL_TARGET, "MoveToDevice"))
		return ALIAS_PLACE_DEVICE;
	if (!attr_plain_is(f, i, ATTR_CUSTOM_CALL_TARGET, "annotate_device_placement"))
		return ALIAS_PLACE_NONE;
	const struct hlo_attr *fa = ir_attr(i, ATTR_FRONTEND_ATTRIBUTES);
	struct arena a;
	arena_init(&a);
	struct hlo_frontend_attrs attrs;
	enum alias_placement r = ALIAS_PLACE_OTHER;
	if (fa && metadata_frontend(f, ir_attr_value(fa), &a, &attrs, NULL)) {
		const struct hlo_frontend_attr *p = metadata_frontend_get(&attrs, "_xla_buffer_placement");
		if (p && !p->json && ((p->len == 11 && !memcmp(p->value, "pinned_host", 11)) ||
				      (p->len == 13 && !memcmp(p->value, "unpinned_host", 13))))
			r = ALIAS_PLACE_HOST;
		else if (p && !p->json && p->len == 6 && !memcmp(p->value, "device", 6))
			r = ALIAS_PLACE_DEVICE;
	}
	arena_free(&a);
	return r;
}

/* Custom calls that only annotate a value: its result is the operand's
 * buffer.  In an optimized module XLA has removed them; in a
 * pre-optimization dump the offload they ask for has not happened yet. */
static bool alias_identity_call(struct alias_state *as, const struct hlo_instr *i)
{
	static const char *const ids[] = { "annotate_device_placement", "MoveToHost", "MoveToDevice", "Sharding",
					   "PinToDevice", "PinToDeviceSram", "AnnotateMemorySpace",
					   "xla.sdy.FuncResultSharding", "xla.sdy.ShardingGroup",
					   "xla.sdy.PropagationBarrier", NULL };
	if (i->op != OP_CUSTOM_CALL || i->noperands < 1 || !ir_operands(i)[0].instr)
		return false;
	/* An offload to host or a move back makes a copy in the memory it asks
	 * for (XLA's host offloader turns it into copy-start/-done). */
	enum alias_placement pl = alias_placement(as->f, i);
	if (pl == ALIAS_PLACE_HOST || pl == ALIAS_PLACE_DEVICE)
		return false;
	for (int k = 0; ids[k]; k++)
		if (attr_plain_is(as->f, i, ATTR_CUSTOM_CALL_TARGET, ids[k]))
			return alias_leaves(as, i->shape) ==
			       alias_leaves(as, ir_operands(i)[0].instr->shape);
	return false;
}

/* Instructions whose result is entirely other buffers and that read
 * nothing themselves: their operands' uses are their users' uses. */
bool alias_pure(struct alias_state *as, const struct hlo_instr *i)
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
		return alias_identity_call(as, i);
	}
}

/* Leaf j of the concatenated leaves of operands [from, noperands). */
static bool alias_operand_leaf(struct alias_state *as, const struct hlo_instr *i, uint32_t from, uint32_t j,
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

/* Start of element e of i's tuple result, and its leaf count. */
bool alias_elem_range(struct alias_state *as, const struct hlo_shape *s, uint32_t e, uint32_t *first,
			   uint32_t *count)
{
	if (!alias_is_tuple(s) || e >= s->rank)
		return false;
	const uint32_t *off = alias_offsets(as, s);
	*first = off[e];
	*count = off[e + 1] - off[e];
	return true;
}

/* When leaf j of i lives in another instruction's buffer (XLA's aliasing:
 * get-tuple-element, tuple, bitcast, while, the operand halves of async
 * starts, the done halves of async pairs), sets (*src, *sj). */
bool alias_source(struct alias_state *as, const struct hlo_instr *i, uint32_t j, const struct hlo_instr **src,
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
		if (alias_is_tuple(i->shape) && i->shape->rank == i->noperands && alias_elem_of(as, i->shape, j, &e, sj) &&
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
		if (alias_elem_range(as, i->shape, 0, &first, &count) && j < count)
			ok = alias_operand_leaf(as, i, 0, j, src, sj);
		break;
	case OP_CUSTOM_CALL:
		if (alias_identity_call(as, i)) {
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

uint32_t alias_io_pairs(struct alias_state *as, const struct hlo_module *m, struct arena *a, struct alias_io **out)
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
	struct alias_io *io = arena_array(a, al.n, sizeof *io);
	uint32_t n = 0;
	for (uint32_t k = 0; k < al.n; k++) {
		const struct hlo_alias *x = &al.items[k];
		uint32_t of, on, pf, pn;
		if (x->number < 0 || (uint64_t)x->number >= e->nparams || !e->params[x->number])
			continue;
		if (!alias_path_leaves(as, e->root->shape, &x->output_index, &of, &on) ||
		    !alias_path_leaves(as, e->params[x->number]->shape, &x->index, &pf, &pn) || on != pn)
			continue;
		io[n++] = (struct alias_io){ of, (uint32_t)x->number, pf, on };
	}
	*out = io;
	return n;
}
