/* test_alias.c - unit tests of alias.c's leaf numbering on hand-built
 * tuple shapes: leaf counts, offsets, the shape of each leaf (empty tuples
 * hold none), and a tuple nested deeper than the offsets cache's first
 * table.  The aliasing rules are covered by tests/mem's golden files. */
#include <stdlib.h>
#include "alias.h"
#include "unit.h"

static struct hlo_shape *ta_array(struct arena *a)
{
	struct hlo_shape *s = arena_alloc(a, sizeof *s);
	s->type = PT_F32;
	return s;
}

static struct hlo_shape *ta_tuple(struct arena *a, uint32_t n, struct hlo_shape **elems)
{
	struct hlo_shape *s = arena_alloc(a, sizeof *s);
	s->type = PT_TUPLE;
	s->rank = n;
	s->elems = arena_array(a, n ? n : 1, sizeof *s->elems);
	for (uint32_t k = 0; k < n; k++)
		s->elems[k] = elems[k];
	return s;
}

/* ((), a, (b, ()), ((c))): three leaves, a, b and c in order. */
static void test_leaf_shapes(void)
{
	struct arena a;
	struct alias_state as;
	arena_init(&a);
	alias_init(&as, NULL, &a);
	struct hlo_shape *x = ta_array(&a), *y = ta_array(&a), *z = ta_array(&a);
	struct hlo_shape *empty = ta_tuple(&a, 0, NULL);
	struct hlo_shape *by[] = { y, empty }, *zz[] = { z };
	struct hlo_shape *cz[] = { ta_tuple(&a, 1, zz) };
	struct hlo_shape *top[] = { empty, x, ta_tuple(&a, 2, by), ta_tuple(&a, 1, cz) };
	struct hlo_shape *s = ta_tuple(&a, 4, top);
	CHECK_INT(alias_leaves(&as, s), 3);
	CHECK_INT(ir_leaf_count(s), 3);
	const uint32_t *off = alias_offsets(&as, s);
	CHECK_INT(off[0], 0);
	CHECK_INT(off[1], 0);
	CHECK_INT(off[2], 1);
	CHECK_INT(off[3], 2);
	CHECK_INT(off[4], 3);
	CHECK(alias_leaf_shape(&as, s, 0) == x);
	CHECK(alias_leaf_shape(&as, s, 1) == y);
	CHECK(alias_leaf_shape(&as, s, 2) == z);
	CHECK(alias_leaf_shape(&as, s, 3) == NULL);
	CHECK(alias_leaf_shape(&as, x, 0) == x);   /* an array is its own leaf */
	CHECK(alias_leaf_shape(&as, empty, 0) == NULL);
	uint32_t e = 99, sub = 99;
	CHECK(alias_elem_of(&as, s, 1, &e, &sub));
	CHECK_INT(e, 2);
	CHECK_INT(sub, 0);
	alias_free(&as);
	arena_free(&a);
}

/* (((a, b0), b1), ... b299): each level adds its entry to the cache after
 * its elements', more than the first table's 256 slots (a probe that never
 * ended, found by fuzzing); leaf j of every level is found. */
static void test_deep_tuple(void)
{
	enum { DEPTH = 300 };
	struct arena a;
	struct alias_state as;
	arena_init(&a);
	alias_init(&as, NULL, &a);
	struct hlo_shape *lvl[DEPTH + 1], *leaf[DEPTH + 1];
	lvl[0] = leaf[0] = ta_array(&a);
	for (uint32_t d = 1; d <= DEPTH; d++) {
		leaf[d] = ta_array(&a);
		struct hlo_shape *el[] = { lvl[d - 1], leaf[d] };
		lvl[d] = ta_tuple(&a, 2, el);
	}
	CHECK_INT(alias_leaves(&as, lvl[DEPTH]), DEPTH + 1);
	uint32_t wrong = 0;
	for (uint32_t j = 0; j <= DEPTH; j++)
		wrong += alias_leaf_shape(&as, lvl[DEPTH], j) != leaf[j];
	CHECK_INT(wrong, 0);
	CHECK_INT(alias_leaves(&as, lvl[DEPTH / 2]), DEPTH / 2 + 1);
	CHECK(alias_leaf_shape(&as, lvl[DEPTH / 2], DEPTH / 2) == leaf[DEPTH / 2]);
	alias_free(&as);
	arena_free(&a);
}

const struct unit_case unit_alias_cases[] = {
	{ "alias_leaf_shapes", test_leaf_shapes },
	{ "alias_deep_tuple", test_deep_tuple },
	{ NULL, NULL },
};
