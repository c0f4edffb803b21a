/* test_intern.c - intern table: identity, preloaded vocabulary, growth,
 * private entries; the transient name index (nameidx.h); the builder's
 * copies of computation names (compname.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compname.h"
#include "intern.h"
#include "ir.h"
#include "nameidx.h"
#include "unit.h"

enum keyword {
	KW_NONE,
#define KEYWORD(e, t) KW_##e,
#include "keywords.def"
#undef KEYWORD
	KW_COUNT
};

static void intern_identity(void)
{
	struct intern_table *t = intern_new();
	size_t base = intern_count(t);
	struct interned *a = intern(t, "fusion.12xyz", 9);
	struct interned *b = intern(t, "fusion.12", 9);
	CHECK(a == b);
	CHECK_STR(a->str, "fusion.12");
	CHECK_INT(a->len, 9);
	CHECK_INT(a->opcode, 0);
	CHECK_INT(intern_count(t), base + 1);
	CHECK(intern_find(t, "fusion.13", 9) == NULL);
	CHECK(intern_find(t, "fusion.12", 9) == a);
	/* Embedded NUL and the empty string are ordinary keys. */
	struct interned *z = intern(t, "a\0b", 3);
	CHECK(z != intern(t, "a", 1));
	CHECK_INT(z->len, 3);
	struct interned *e = intern(t, "", 0);
	CHECK(e == intern(t, "", 0));
	CHECK_STR(e->str, "");
	CHECK(a->binding == NULL && a->data == NULL);
	intern_free(t);
}

static void intern_vocab(void)
{
	struct intern_table *t = intern_new();
	struct interned *e = intern_find(t, "add", 3);
	CHECK(e != NULL);
	CHECK_INT(e->opcode, OP_ADD + 1);
	e = intern(t, "get-tuple-element", 17);
	CHECK_INT(e->opcode, OP_GET_TUPLE_ELEMENT + 1);
	e = intern(t, "xor", 3);
	CHECK_INT(e->opcode, OP_XOR + 1);
	e = intern(t, "bf16", 4);
	CHECK_INT(e->type, PT_BF16 + 1);
	CHECK_INT(e->opcode, 0);
	e = intern(t, "pred", 4);
	CHECK_INT(e->type, PT_PRED + 1);
	e = intern(t, "opaque", 6);
	CHECK_INT(e->type, PT_OPAQUE + 1);
	/* "tuple" is an opcode but not an element type. */
	e = intern(t, "tuple", 5);
	CHECK_INT(e->opcode, OP_TUPLE + 1);
	CHECK_INT(e->type, 0);
	CHECK(intern_find(t, "buffer", 6) == NULL);
	e = intern(t, "to_apply", 8);
	CHECK_INT(e->attr, ATTR_TO_APPLY + 1);
	e = intern(t, "control-predecessors", 20);
	CHECK_INT(e->attr, ATTR_CONTROL_PREDECESSORS + 1);
	/* Keywords store KW_x directly (index + 1). */
	e = intern(t, "HloModule", 9);
	CHECK_INT(e->keyword, KW_HLOMODULE);
	CHECK_INT(e->keyword, 1);
	e = intern(t, "unreduced", 9);
	CHECK_INT(e->keyword, KW_UNREDUCED);
	e = intern(t, "true", 4);
	CHECK_INT(e->keyword, KW_TRUE);
	e = intern(t, "ENTRY", 5);
	CHECK_INT(e->keyword, KW_ENTRY);
	CHECK_INT(e->opcode, 0);
	/* Case matters. */
	CHECK(intern_find(t, "entry", 5) == NULL);
	size_t expect = OP_COUNT + (PT_TUPLE - 1) + (ATTR_COUNT - 1) + (KW_COUNT - 1);
	/* The vocabularies share no spelling except where one entry plays two
	 * roles, so the count is at most their sum. */
	CHECK(intern_count(t) <= expect);
	CHECK(intern_count(t) > (size_t)OP_COUNT);
	intern_free(t);
}

static void intern_many(void)
{
	struct intern_table *t = intern_new();
	size_t base = intern_count(t);
	enum { N = 200000 };
	static struct interned *seen[N];
	char buf[32];
	for (int i = 0; i < N; i++) {
		int n = snprintf(buf, sizeof buf, "%%name.%d", i);
		seen[i] = intern(t, buf, (size_t)n);
	}
	CHECK_INT(intern_count(t), base + N);
	int bad = 0;
	for (int i = 0; i < N; i++) {
		int n = snprintf(buf, sizeof buf, "%%name.%d", i);
		if (intern(t, buf, (size_t)n) != seen[i] || strcmp(seen[i]->str, buf) != 0)
			bad++;
	}
	CHECK_INT(bad, 0);
	CHECK_INT(intern_count(t), base + N);
	intern_free(t);
	intern_free(NULL);
}

/* nameidx: first binding wins, copies outlive the caller's text, borrowed
 * names are used in place, it grows past its first size (or none). */
static void nameidx_binds(void)
{
	struct nameidx x;
	int objs[3];
	CHECK(nameidx_get(&(struct nameidx){ 0 }, "a", 1) == NULL);   /* never initialised */
	nameidx_init(&x, 2);
	char buf[32];
	enum { N = 20000 };
	for (int k = 0; k < N; k++) {
		int n = snprintf(buf, sizeof buf, "param_%d.%d", k % 7, k);
		CHECK(nameidx_put(&x, buf, (size_t)n, &objs[k % 3], true) == NULL);
	}
	memset(buf, 'x', sizeof buf);   /* the index kept its own copies */
	int bad = 0;
	for (int k = 0; k < N; k++) {
		int n = snprintf(buf, sizeof buf, "param_%d.%d", k % 7, k);
		bad += nameidx_get(&x, buf, (size_t)n) != &objs[k % 3];
	}
	CHECK_INT(bad, 0);
	CHECK(nameidx_put(&x, "param_0.0", 9, &objs[2], true) == &objs[0]);   /* bound before */
	CHECK(nameidx_get(&x, "param_0.0", 9) == &objs[0]);
	CHECK(nameidx_get(&x, "param_0.", 8) == NULL);
	static const char borrowed[] = "computation.7";
	CHECK(nameidx_put(&x, borrowed, 13, &objs[1], false) == NULL);
	CHECK(nameidx_get(&x, "computation.7", 13) == &objs[1]);
	CHECK(nameidx_put(&x, "", 0, &objs[2], true) == NULL);
	CHECK(nameidx_get(&x, "", 0) == &objs[2]);
	nameidx_free(&x);
	CHECK(x.slots == NULL && nameidx_get(&x, "", 0) == NULL);
	nameidx_init(&x, 0);   /* sized for nothing: entries and slots both grow */
	for (int k = 0; k < 100; k++) {
		int n = snprintf(buf, sizeof buf, "c.%d", k);
		CHECK(nameidx_put(&x, buf, (size_t)n, &objs[k % 3], true) == NULL);
	}
	CHECK(nameidx_get(&x, "c.99", 4) == &objs[0] && nameidx_get(&x, "c.100", 5) == NULL);
	nameidx_free(&x);
}

/* nameidx in bulk: names appended then indexed at once are all found;
 * a name appended again is reported (in append order, the later ones)
 * and stays bound to the first; names put after the index bind as usual.
 * Lookups near the last one find the same objects as the slots, whether
 * the guess is right (the next name, the same again) or not. */
static void nameidx_bulk(void)
{
	struct nameidx x;
	enum { N = 30000 };
	static int objs[N];
	char buf[32];
	nameidx_init(&x, 8);   /* undersized: the index sizes itself */
	for (int k = 0; k < N; k++) {
		int n = snprintf(buf, sizeof buf, "fused_computation.%d", k < N - 3 ? k : (k - (N - 3)) * 5);
		nameidx_append(&x, buf, (size_t)n, &objs[k], true);
	}
	void **dups;
	CHECK_INT(nameidx_index(&x, &dups), 3);   /* .0, .5 and .10 again, at the end */
	CHECK(dups && dups[0] == &objs[N - 3] && dups[1] == &objs[N - 2] && dups[2] == &objs[N - 1]);
	free(dups);
	int bad = 0;
	for (int k = 0; k < N - 3; k++) {
		int n = snprintf(buf, sizeof buf, "fused_computation.%d", k);
		bad += nameidx_get(&x, buf, (size_t)n) != &objs[k];
	}
	CHECK_INT(bad, 0);
	uint32_t near = 0;
	bad = 0;
	for (int k = 0; k < N - 3; k += 1 + (k % 5 == 0)) {   /* in order, with gaps and repeats */
		int n = snprintf(buf, sizeof buf, "fused_computation.%d", k);
		for (int again = 0; again < 2; again++) {
			bad += nameidx_get_near(&x, buf, (size_t)n, intern_hash_bytes(buf, (size_t)n), &near) != &objs[k];
			bad += near != (uint32_t)k;
		}
	}
	CHECK_INT(bad, 0);
	near = N - 4;   /* the next entry is a duplicate: it stands for the first */
	CHECK(nameidx_get_near(&x, "fused_computation.0", 19, intern_hash_bytes("fused_computation.0", 19),
			       &near) == &objs[0]);
	CHECK(nameidx_get_near(&x, "fused_computation.30000", 23,
			       intern_hash_bytes("fused_computation.30000", 23), &near) == NULL);
	CHECK(nameidx_put(&x, "after", 5, &objs[1], true) == NULL && nameidx_get(&x, "after", 5) == &objs[1]);
	CHECK(nameidx_put(&x, "fused_computation.7", 19, &objs[2], true) == &objs[7]);
	nameidx_free(&x);
	nameidx_init(&x, 0);   /* nothing appended */
	CHECK_INT(nameidx_index(&x, &dups), 0);
	CHECK(dups == NULL && nameidx_get(&x, "a", 1) == NULL);
	near = 0;
	CHECK(nameidx_get_near(&x, "a", 1, intern_hash_bytes("a", 1), &near) == NULL);
	nameidx_free(&x);
}

/* compname: which values are one name; finds in order (the cursor, across
 * the chained pieces), out of order (the search), with another length;
 * peeks ahead; a piece with headers only. */
static void compname_lists(void)
{
	const char *n, *t;
	size_t len;
	CHECK(compname_of_value("%fused.1", 8, &n, &len) && len == 7 && !memcmp(n, "fused.1", 7));
	CHECK(compname_of_value("body-2_x", 8, &n, &len) && len == 8);
	CHECK(!compname_of_value("{%a, %b}", 8, &n, &len));
	CHECK(!compname_of_value("%", 1, &n, &len));
	CHECK(!compname_of_value("", 0, &n, &len));
	struct compnames *a = xcalloc(1, sizeof *a), *b = xcalloc(1, sizeof *b), *h = xcalloc(1, sizeof *h);
	compname_add(&a->callees, 10, 2, "f", 1);
	compname_add(&a->callees, 20, 4, "gg", 2);
	compname_add(&b->callees, 30, 2, "hh", 2);
	compname_add(&b->heads, 5, 4, "main", 4);
	compname_add(&h->heads, 40, 1, "z", 1);
	compname_join(&a, &b);
	compname_join(&a, &h);
	CHECK(b == NULL && h == NULL);
	struct compname_cursor cur = { 0 };
	uint32_t hash;
	CHECK(compname_peek(a, true, &cur, 1, &hash) && hash == intern_hash_bytes("gg", 2));
	const struct compname *c = compname_find(a, true, 10, 2, &cur, &t);
	CHECK(c && c->n == 1 && t[0] == 'f');
	c = compname_find(a, true, 20, 4, &cur, &t);
	CHECK(c && c->n == 2 && !memcmp(t, "gg", 2));
	c = compname_find(a, true, 30, 2, &cur, &t);   /* in the next piece */
	CHECK(c && c->hash == intern_hash_bytes("hh", 2) && !memcmp(t, "hh", 2));
	cur = (struct compname_cursor){ 0 };
	c = compname_find(a, true, 30, 2, &cur, &t);   /* out of order */
	CHECK(c && !memcmp(t, "hh", 2));
	CHECK(compname_find(a, true, 20, 5, &cur, &t) == NULL);   /* the text grew since */
	CHECK(compname_find(a, true, 25, 2, &cur, &t) == NULL);
	CHECK(compname_find(a, true, 99, 2, &cur, &t) == NULL);
	CHECK(!compname_peek(a, true, &cur, 5, &hash));
	cur = (struct compname_cursor){ 0 };
	c = compname_find(a, false, 5, 4, &cur, &t);   /* the first piece has no headers */
	CHECK(c && !memcmp(t, "main", 4));
	c = compname_find(a, false, 40, 1, &cur, &t);
	CHECK(c && t[0] == 'z');
	compname_free(&a);
	CHECK(a == NULL);
	compname_free(&a);
}

const struct unit_case unit_intern_cases[] = {
	{ "nameidx_binds", nameidx_binds },
	{ "nameidx_bulk", nameidx_bulk },
	{ "compname_lists", compname_lists },
	{ "intern_identity", intern_identity },
	{ "intern_vocab", intern_vocab },
	{ "intern_many", intern_many },
	{ NULL, NULL },
};
