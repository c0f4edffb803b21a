/* test_arena.c - arena: alignment, zeroing, big blocks, marks, arrays an
 * arena takes over (arena_vec_*). */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include "arena.h"
#include "unit.h"

static void arena_basic(void)
{
	struct arena a;
	arena_init(&a);
	char *p = arena_alloc(&a, 3);
	char *q = arena_alloc(&a, 5);
	CHECK(((uintptr_t)p & 7) == 0);
	CHECK(((uintptr_t)q & 7) == 0);
	CHECK(q >= p + 3);
	CHECK(p[0] == 0 && p[1] == 0 && p[2] == 0);
	int64_t *v = arena_array(&a, 100, sizeof *v);
	for (int i = 0; i < 100; i++)
		CHECK_INT(v[i], 0);
	char *s = arena_strndup(&a, "hello world", 5);
	CHECK_STR(s, "hello");
	arena_free(&a);
	CHECK(a.head == NULL);
	CHECK_INT(a.total, 0);
}

static void arena_large(void)
{
	struct arena a;
	arena_init(&a);
	/* Bigger than any block: gets its own, and the arena keeps working. */
	size_t big = (size_t)20 << 20;
	unsigned char *p = arena_alloc(&a, big);
	CHECK(p[0] == 0 && p[big - 1] == 0);
	p[big - 1] = 1;
	unsigned char *q = arena_alloc(&a, 16);
	CHECK(q != NULL && q[0] == 0);
	CHECK(a.total >= big);
	/* Many small allocations cross block boundaries. */
	for (int i = 0; i < 100000; i++) {
		int *x = arena_alloc(&a, sizeof *x);
		CHECK(*x == 0);
		*x = i;
	}
	arena_free(&a);
}

static void arena_marks(void)
{
	struct arena a;
	arena_init(&a);
	arena_alloc(&a, 100);
	struct arena_mark m = arena_mark(&a);
	size_t total = a.total;
	for (int i = 0; i < 1000; i++)
		arena_alloc(&a, 1000);   /* spills into new blocks */
	CHECK(a.total > total);
	arena_release(&a, m);
	CHECK_INT(a.total, total);
	char *p = arena_alloc(&a, 8);
	CHECK(p[0] == 0);
	/* A mark on an empty arena releases everything. */
	struct arena b;
	arena_init(&b);
	struct arena_mark m0 = arena_mark(&b);
	arena_alloc(&b, 10);
	arena_release(&b, m0);
	CHECK(b.head == NULL);
	arena_free(&b);
	arena_free(&a);
}

/* A grown array given to an arena keeps its contents, lives as long as
 * the arena, and later allocations never land in it. */
static void arena_vec(void)
{
	struct arena a;
	arena_init(&a);
	char *first = arena_alloc(&a, 16);
	uint32_t *v = NULL;
	uint32_t n = 0, cap = 0;
	for (uint32_t k = 0; k < 100000; k++) {
		if (n == cap)
			v = arena_vec_grow(v, cap = cap ? 2 * cap : 4, sizeof *v);
		v[n++] = k * 3;
	}
	size_t before = a.total;
	v = arena_vec_give(&a, v, n * sizeof *v);
	CHECK(v != NULL);
	CHECK_INT(a.total, before + n * sizeof *v);
	bool same = true;
	for (uint32_t k = 0; k < n; k++)
		same &= v[k] == k * 3;
	CHECK(same);
	/* The current block keeps filling; the given one is full. */
	unsigned char *p = arena_alloc(&a, 8);
	CHECK(p == (unsigned char *)first + 16 && p[0] == 0);
	for (int k = 0; k < 1000; k++) {
		unsigned char *q = arena_alloc(&a, 1000);
		CHECK(q + 1000 <= (unsigned char *)v || q >= (unsigned char *)(v + n));
	}
	CHECK(v[n - 1] == (n - 1) * 3);
	CHECK(arena_vec_give(&a, NULL, 0) == NULL);
	arena_free(&a);   /* frees v: the sanitizer build reports a leak otherwise */
	/* Given to an empty arena, it is the only block; or freed unused. */
	struct arena b;
	arena_init(&b);
	int *w = arena_vec_give(&b, arena_vec_grow(NULL, 8, sizeof(int)), 8 * sizeof(int));
	CHECK(b.head != NULL && w != NULL);
	CHECK(*(int *)arena_alloc(&b, sizeof(int)) == 0);
	arena_free(&b);
	arena_vec_free(arena_vec_grow(NULL, 8, sizeof(int)));
	arena_vec_free(NULL);
}

/* xcalloc_touched: a large table's pages are resident before anything
 * reads them (mincore never touches them), and all zero. */
static void arena_touched(void)
{
	size_t n = (size_t)4 << 20, page = (size_t)sysconf(_SC_PAGESIZE);
	unsigned char *p = xcalloc_touched(n, 1), v[1024];
	uintptr_t a = ((uintptr_t)p + page - 1) & ~(uintptr_t)(page - 1);
	size_t np = ((uintptr_t)p + n - a) / page, got = 0;
	CHECK(np <= sizeof v && mincore((void *)a, np * page, v) == 0);
	for (size_t k = 0; k < np && k < sizeof v; k++)
		got += v[k] & 1;
	CHECK_INT(got, np);
	size_t nonzero = 0;
	for (size_t k = 0; k < n; k++)
		nonzero += p[k] != 0;
	CHECK_INT(nonzero, 0);
	free(p);
}

const struct unit_case unit_arena_cases[] = {
	{ "arena_touched", arena_touched },
	{ "arena_vec", arena_vec },
	{ "arena_basic", arena_basic },
	{ "arena_large", arena_large },
	{ "arena_marks", arena_marks },
	{ NULL, NULL },
};
