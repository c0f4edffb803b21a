/* arena.c - bump allocator and the xmalloc family.
 * Blocks grow geometrically up to 8 MiB; a request larger than a block gets
 * its own block; a grown array can become a block (arena_vec_give).
 * HLO_FAIL_ALLOC_AT=N (debug builds) fails the Nth xmalloc so
 * tests can prove that out of memory ends in one clean message. */
#include "arena.h"
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

struct arena_block {
	struct arena_block *prev;
	size_t size, used;
	bool huge;                   /* from xmalloc_huge: freed with arena_block_free's accounting */
	_Alignas(16) unsigned char data[];
};

#ifdef HLO_FAULT_INJECTION
/* Atomic: -j workers allocate too (the Nth allocation of the run fails,
 * whichever thread makes it). */
static _Atomic long fail_at = -1, alloc_count;
static int check_fail(void)
{
	if (fail_at < 0) {
		const char *s = getenv("HLO_FAIL_ALLOC_AT");
		fail_at = s ? atol(s) : 0;
	}
	return fail_at > 0 && ++alloc_count == fail_at;
}
#else
static int check_fail(void) { return 0; }
#endif

_Noreturn void fatal_out_of_memory(void)
{
	fputs("hlolint: error: out of memory\n", stderr);
	exit(2);   /* the documented failure status: 0, 1 and 2 are all there are */
}

void *xmalloc(size_t n)
{
	void *p = check_fail() ? NULL : malloc(n ? n : 1);
	if (!p)
		fatal_out_of_memory();
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = check_fail() ? NULL : calloc(n ? n : 1, size ? size : 1);
	if (!p)
		fatal_out_of_memory();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = check_fail() ? NULL : realloc(p, n ? n : 1);
	if (!q)
		fatal_out_of_memory();
	return q;
}

void *xreallocarray(void *p, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		fatal_out_of_memory();
	return xrealloc(p, n * size);
}

/* Huge pages only while the process holds less than this many bytes of
 * them (HLO_HUGE_MB, default 128 MiB): memory the machine has not used
 * lately is slow to fault in, huge pages far more than small ones (on the
 * bench VM 750 MB took 0.8 to 1.4 s huge and 0.25 s small, 75 MB 0.010 s
 * huge and 0.026 s small: docs/bench.md "Scaling"). */
static _Atomic size_t arena_huge_live;

static size_t arena_huge_budget(void)
{
	static _Atomic size_t budget = SIZE_MAX;
	if (atomic_load(&budget) == SIZE_MAX) {
		const char *e = getenv("HLO_HUGE_MB");
		unsigned long long mb = e && *e ? strtoull(e, NULL, 10) : 128;
		atomic_store(&budget, mb < (SIZE_MAX >> 20) ? (size_t)mb << 20 : SIZE_MAX - 1);
	}
	return atomic_load(&budget);
}

/* Small pages of a block, all faulted in by one call (an arena fills its
 * blocks): one trap per 4 KiB page otherwise, and the parse's threads
 * faulting at once contend for the process's page tables.  Kernels before
 * 5.14 refuse the advice (EINVAL); the pages then come one fault each. */
static void arena_populate(void *p, size_t n)
{
#ifdef MADV_POPULATE_WRITE
	madvise(p, n, MADV_POPULATE_WRITE);
#else
	(void)p;
	(void)n;
#endif
}

void *xcalloc_touched(size_t n, size_t size)
{
	void *p = xcalloc(n, size);
	const size_t page = 4096, bytes = n * size;   /* xcalloc checked the product */
	if (bytes >= ((size_t)2 << 20)) {
		uintptr_t a = ((uintptr_t)p + page - 1) & ~(uintptr_t)(page - 1);
		uintptr_t b = ((uintptr_t)p + bytes) & ~(uintptr_t)(page - 1);
		arena_populate((void *)a, b - a);
	}
	return p;
}

void *xmalloc_huge(size_t n)
{
	const size_t huge = (size_t)2 << 20;
	if (n < huge)
		return xmalloc(n);
	void *p = NULL;
	if (check_fail() || posix_memalign(&p, huge, n) != 0)
		fatal_out_of_memory();
	if (atomic_fetch_add(&arena_huge_live, n) + n <= arena_huge_budget())
		madvise(p, n, MADV_HUGEPAGE);   /* a hint: without it (or THP) the pages are small */
	else
		arena_populate(p, n);
	return p;
}

void xfree_huge(void *p, size_t n)
{
	if (p && n >= ((size_t)2 << 20))
		atomic_fetch_sub(&arena_huge_live, n);
	free(p);
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xmalloc(n), s, n);
}

void arena_init(struct arena *a)
{
	a->head = NULL;
	a->total = 0;
}

static void arena_block_free(struct arena_block *b)
{
	if (b->huge)
		xfree_huge(b, sizeof *b + b->size);
	else
		free(b);
}

void arena_free(struct arena *a)
{
	struct arena_block *b = a->head, *prev;
	for (; b; b = prev) {
		prev = b->prev;
		arena_block_free(b);
	}
	a->head = NULL;
	a->total = 0;
}

/* A block that will not be filled again gives back the pages past its
 * last allocation: under huge pages touching its end faulted in up to
 * 2 MiB that nothing uses (a parse in pieces leaves one such block per
 * piece).  Only huge-page blocks: smaller ones are malloc's. */
static void arena_trim(struct arena_block *b)
{
	const uintptr_t page = 4096;
	if (!b || b->size + sizeof *b < ((size_t)2 << 20))
		return;
	uintptr_t from = ((uintptr_t)(b->data + b->used) + page - 1) & ~(page - 1);
	uintptr_t to = (uintptr_t)(b->data + b->size) & ~(page - 1);
	if (to > from)
		madvise((void *)from, to - from, MADV_DONTNEED);
}

static struct arena_block *arena_grow(struct arena *a, size_t need)
{
	arena_trim(a->head);
	size_t size = a->head ? a->head->size * 2 : 64 * 1024;
	if (size > 8u << 20)
		size = 8u << 20;
	size -= sizeof(struct arena_block);
	if (size < need)
		size = need;
	struct arena_block *b = xmalloc_huge(sizeof *b + size);
	b->huge = true;
	b->prev = a->head;
	b->size = size;
	b->used = 0;
	a->head = b;
	a->total += size;
	return b;
}

void *arena_alloc(struct arena *a, size_t size)
{
	size = (size + 7) & ~(size_t)7;
	struct arena_block *b = a->head;
	if (!b || b->size - b->used < size)
		b = arena_grow(a, size);
	void *p = b->data + b->used;
	b->used += size;
	memset(p, 0, size);
	return p;
}

void *arena_array(struct arena *a, size_t n, size_t size)
{
	if (size && n > (SIZE_MAX / 2) / size)
		fatal_out_of_memory();
	return arena_alloc(a, n * size);
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

void arena_adopt(struct arena *a, struct arena *from)
{
	struct arena_block *oldest = from->head;
	if (!oldest)
		return;
	arena_trim(from->head);
	while (oldest->prev)
		oldest = oldest->prev;
	if (a->head) {          /* behind a's current block, which keeps filling */
		oldest->prev = a->head->prev;
		a->head->prev = from->head;
	} else {
		a->head = from->head;
	}
	a->total += from->total;
	arena_init(from);
}

static struct arena_block *arena_vec_block(void *p)
{
	return p ? (struct arena_block *)((unsigned char *)p - offsetof(struct arena_block, data)) : NULL;
}

void *arena_vec_grow(void *p, size_t n, size_t size)
{
	if (size && n > (SIZE_MAX / 2) / size)
		fatal_out_of_memory();
	struct arena_block *b = xrealloc(arena_vec_block(p), sizeof *b + n * size);
	b->size = n * size;
	b->huge = false;
	return b->data;
}

/* Linked behind a's current block, full: later allocations never land in it. */
void *arena_vec_give(struct arena *a, void *p, size_t used)
{
	if (!p)
		return NULL;
	struct arena_block *b = xrealloc(arena_vec_block(p), sizeof *b + used);   /* the spare capacity back */
	b->used = b->size = used;
	if (a->head) {
		b->prev = a->head->prev;
		a->head->prev = b;
	} else {
		b->prev = NULL;
		a->head = b;
	}
	a->total += used;
	return b->data;
}

void arena_vec_free(void *p)
{
	free(arena_vec_block(p));
}

struct arena_mark arena_mark(struct arena *a)
{
	struct arena_mark m = { a->head, a->head ? a->head->used : 0 };
	return m;
}

void arena_release(struct arena *a, struct arena_mark m)
{
	while (a->head && a->head != m.block) {
		struct arena_block *prev = a->head->prev;
		a->total -= a->head->size;
		arena_block_free(a->head);
		a->head = prev;
	}
	if (a->head)
		a->head->used = m.used;
}
