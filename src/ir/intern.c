/* intern.c - the string intern table (intern.h) on top of uthash.
 * Entries and their text live in one arena allocation each; uthash only
 * owns its bucket array.  A small direct-mapped cache in front of the hash
 * catches the hot vocabulary (types, opcodes, attribute names) without
 * walking a chain.  Entries are never removed: the table dies as a whole. */
#include "intern.h"
#include <stdlib.h>
#include <string.h>
#include "arena.h"
#include "ir.h"

/* uthash allocates its buckets through these: one out-of-memory path. */
#define uthash_malloc(sz) xmalloc(sz)
#define uthash_free(ptr, sz) free(ptr)
#define uthash_fatal(msg) fatal_out_of_memory()
#define HASH_FUNCTION(keyptr, keylen, hashv) ((hashv) = intern_hash((keyptr), (keylen)))
#include <uthash.h>
/* Start big enough for the preloaded vocabulary plus a small module, so the
 * first few thousand names do not pay for repeated bucket doubling. */
#undef HASH_INITIAL_NUM_BUCKETS
#undef HASH_INITIAL_NUM_BUCKETS_LOG2
#define HASH_INITIAL_NUM_BUCKETS 1024U
#define HASH_INITIAL_NUM_BUCKETS_LOG2 10U

struct intern_entry {
	struct interned pub;   /* first: the public view is the entry address */
	UT_hash_handle hh;
	char text[];           /* pub.str points here */
};

#define INTERN_CACHE_BITS 12
#define INTERN_CACHE_SIZE (1u << INTERN_CACHE_BITS)

/* The hash and length sit next to the pointer so that a miss is decided
 * without touching the (probably cold) entry. */
struct intern_slot {
	unsigned hash;
	uint32_t len;
	struct intern_entry *e;
};

struct intern_table {
	struct intern_entry *head;   /* uthash head */
	struct arena arena;          /* entries */
	size_t count;
	struct intern_slot cache[INTERN_CACHE_SIZE];
};

static inline uint64_t intern_rotl(uint64_t x, int r)
{
	return (x << r) | (x >> (64 - r));
}

/* 8 bytes per step, murmur3 finaliser: names differ mostly in their last
 * bytes ("fusion.1233" / "fusion.1234"), so the tail must avalanche. */
static inline unsigned intern_hash(const void *key, size_t n)
{
	const unsigned char *p = key;
	uint64_t h = 0x9e3779b97f4a7c15ull ^ (n * 0xff51afd7ed558ccdull);
	uint64_t w;
	while (n >= 8) {
		memcpy(&w, p, 8);
		h ^= intern_rotl(w * 0x87c37b91114253d5ull, 31) * 0x4cf5ad432745937full;
		h = intern_rotl(h, 27) * 5 + 0x52dce729;
		p += 8;
		n -= 8;
	}
	w = 0;
	switch (n) {
	case 7: w |= (uint64_t)p[6] << 48; /* fall through */
	case 6: w |= (uint64_t)p[5] << 40; /* fall through */
	case 5: w |= (uint64_t)p[4] << 32; /* fall through */
	case 4: w |= (uint64_t)p[3] << 24; /* fall through */
	case 3: w |= (uint64_t)p[2] << 16; /* fall through */
	case 2: w |= (uint64_t)p[1] << 8;  /* fall through */
	case 1: w |= (uint64_t)p[0];
		h ^= intern_rotl(w * 0x87c37b91114253d5ull, 31) * 0x4cf5ad432745937full;
		break;
	default: break;
	}
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 33;
	return (unsigned)h;
}

static struct intern_entry *intern_make(struct intern_table *t, const char *s, size_t n)
{
	struct intern_entry *e = arena_alloc(&t->arena, sizeof *e + n + 1);
	memcpy(e->text, s, n);
	e->text[n] = 0;
	e->pub.str = e->text;
	e->pub.len = (uint32_t)n;
	return e;
}

static struct interned *intern_lookup(struct intern_table *t, const char *s, size_t n, int add)
{
	if (n > UINT32_MAX) {
		/* uthash keys are 32-bit; no real name gets here.  A private entry
		 * keeps the "never NULL" promise (only pointer identity is lost). */
		return add ? &intern_make(t, s, n)->pub : NULL;
	}
	unsigned h = intern_hash(s, n);
	struct intern_slot *slot = &t->cache[h & (INTERN_CACHE_SIZE - 1)];
	struct intern_entry *e = slot->e;
	if (e && slot->hash == h && slot->len == n && memcmp(e->text, s, n) == 0)
		return &e->pub;
	HASH_FIND_BYHASHVALUE(hh, t->head, s, (unsigned)n, h, e);
	if (!e) {
		if (!add)
			return NULL;
		e = intern_make(t, s, n);
		HASH_ADD_KEYPTR_BYHASHVALUE(hh, t->head, e->text, (unsigned)n, h, e);
		t->count++;
	}
	slot->hash = h;
	slot->len = (uint32_t)n;
	slot->e = e;
	return &e->pub;
}

struct interned *intern(struct intern_table *t, const char *s, size_t n)
{
	return intern_lookup(t, s, n, 1);
}

struct interned *intern_find(struct intern_table *t, const char *s, size_t n)
{
	return intern_lookup(t, s, n, 0);
}

void intern_reserve(struct intern_table *t, size_t n)
{
	if (!t->head)
		return;
	UT_hash_table *tbl = t->head->hh.tbl;
	while (tbl->num_buckets < n && tbl->num_buckets < (1u << 30) && !tbl->noexpand) {
		int oomed = 0;
		HASH_EXPAND_BUCKETS(hh, tbl, oomed);
		(void)oomed;
	}
}

unsigned intern_hash_bytes(const void *s, size_t n)
{
	return intern_hash(s, n);
}

size_t intern_count(const struct intern_table *t)
{
	return t->count;
}

struct intern_table *intern_new_empty(void)
{
	struct intern_table *t = xcalloc(1, sizeof *t);
	arena_init(&t->arena);
	return t;
}

struct intern_table *intern_new(void)
{
	struct intern_table *t = intern_new_empty();
	/* The stored codes are enum + 1 so that 0 means "not one of these";
	 * see intern.h.  "tuple" and "buffer" are shapes, not element types,
	 * and are deliberately absent from types.def. */
#define OP(e, text, arity) intern(t, text, sizeof text - 1)->opcode = OP_##e + 1;
#include "opcodes.def"
#undef OP
#define TYPE(e, text, bits) intern(t, text, sizeof text - 1)->type = PT_##e + 1;
#include "types.def"
#undef TYPE
#define ATTR(e, text, generic, vk, names, nocase, what, pg, pf, dflt) intern(t, text, sizeof text - 1)->attr = ATTR_##e + 1;
#include "attrs.def"
#undef ATTR
	int16_t kw = 0;
#define KEYWORD(e, text) intern(t, text, sizeof text - 1)->keyword = ++kw;
#include "keywords.def"
#undef KEYWORD
	return t;
}

void intern_free(struct intern_table *t)
{
	if (!t)
		return;
	HASH_CLEAR(hh, t->head);
	arena_free(&t->arena);
	free(t);
}
