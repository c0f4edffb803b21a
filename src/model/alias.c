/* alias.c - leaf numbering of tuple shapes: each element's first leaf,
 * the shape of a leaf, ShapeIndex paths.  Which operand leaf a result
 * leaf is lives in flow.c; assigns no buffers and decides no liveness
 * (mem.c). */
#include "alias.h"
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
