/* nameidx.c - the transient name index (nameidx.h).  A slot is the name's
 * hash and the position of its entry (name, length, object) in an array
 * in the order names were put, so that a probe touches no name until one
 * matches, and the entries and copied names of names put one after the
 * other, which are looked up together (operands name recent instructions,
 * calls the computations just before), share cache lines.  At a load of at
 * most 2/3 that is about 36 bytes a name (plus a copied name).  Bulk binding
 * fills the slots front to back, and a lookup may guess the next entry. */
#include "nameidx.h"
#include <stdlib.h>
#include <string.h>
#include "intern.h"

struct nameidx_slot {
	uint32_t hash;
	uint32_t at;                 /* entry + 1; 0: empty */
};

struct nameidx_entry {
	const char *name;
	void *p;
	uint32_t hash, len;
};

/* Where the probe for hash h starts: h scaled to [0, cap), so any
 * capacity will do. */
static uint32_t nameidx_home(const struct nameidx *x, uint32_t h)
{
	return (uint32_t)(((uint64_t)h * x->cap) >> 32);
}

/* The slot of name[0..len) with hash h: its own, or the empty one where it
 * goes. */
static struct nameidx_slot *nameidx_slot(const struct nameidx *x, const char *name, size_t len, uint32_t h)
{
	for (uint32_t k = nameidx_home(x, h);; k = k + 1 < x->cap ? k + 1 : 0) {
		struct nameidx_slot *s = &x->slots[k];
		if (!s->at)
			return s;
		const struct nameidx_entry *e = &x->entries[s->at - 1];
		if (s->hash == h && e->len == len && !memcmp(e->name, name, len))
			return s;
	}
}

/* Empty slots for about expect names. */
static void nameidx_size(struct nameidx *x, uint32_t expect)
{
	uint64_t cap = (uint64_t)expect + expect / 2 + 64;   /* a load of at most 2/3 */
	if (cap > UINT32_MAX / 2)
		fatal_out_of_memory();
	free(x->slots);
	x->slots = xcalloc_touched((size_t)cap, sizeof *x->slots);
	x->cap = (uint32_t)cap;
}

static void nameidx_grow(struct nameidx *x, uint32_t expect);

void nameidx_init(struct nameidx *x, uint32_t expect)
{
	memset(x, 0, sizeof *x);
	arena_init(&x->text);
	x->capentries = expect ? expect : 16;
	x->entries = xreallocarray(NULL, x->capentries, sizeof *x->entries);
	nameidx_grow(x, expect);
}

void nameidx_free(struct nameidx *x)
{
	free(x->slots);
	free(x->entries);
	arena_free(&x->text);
	memset(x, 0, sizeof *x);
}

/* A new entry at the end, in no slot yet. */
void nameidx_append_hashed(struct nameidx *x, const char *name, size_t len, uint32_t h, void *p, bool copy)
{
	if (len > UINT32_MAX)
		fatal_out_of_memory();
	if (copy) {
		char *c = arena_alloc(&x->text, len ? len : 1);
		memcpy(c, name, len);
		name = c;
	}
	if (x->used == x->capentries) {
		x->capentries *= 2;
		x->entries = xreallocarray(x->entries, x->capentries, sizeof *x->entries);
	}
	x->entries[x->used++] = (struct nameidx_entry){ .name = name ? name : "", .p = p, .hash = h,
							.len = (uint32_t)len };
}

void *nameidx_put_hashed(struct nameidx *x, const char *name, size_t len, uint32_t h, void *p, bool copy)
{
	if (len > UINT32_MAX)
		fatal_out_of_memory();
	if ((uint64_t)(x->used + 1) * 3 > (uint64_t)x->cap * 2)
		nameidx_grow(x, x->used + x->used / 2 + 1);
	struct nameidx_slot *s = nameidx_slot(x, name, len, h);
	if (s->at)
		return x->entries[s->at - 1].p;
	nameidx_append_hashed(x, name, len, h, p, copy);
	*s = (struct nameidx_slot){ h, x->used };
	return NULL;
}

void nameidx_append(struct nameidx *x, const char *name, size_t len, void *p, bool copy)
{
	nameidx_append_hashed(x, name, len, intern_hash_bytes(name, len), p, copy);
}

static int nameidx_cmp_at(const void *a, const void *b)
{
	uint32_t x = ((const struct nameidx_slot *)a)->at, y = ((const struct nameidx_slot *)b)->at;
	return (x > y) - (x < y);
}

/* The entries as slots (hash, entry + 1), in order of their hashes' top
 * bits (a counting sort, stable: of equal names the first appended comes
 * first), which is the order of their homes give or take a few thousand
 * slots' worth.  Filling the slots then reads no entry unless hashes meet. */
static struct nameidx_slot *nameidx_home_order(const struct nameidx *x)
{
	enum { BITS = 11 };
	uint32_t *at = xcalloc((1u << BITS) + 1, sizeof *at);
	struct nameidx_slot *order = xmalloc((x->used + 1) * sizeof *order);
	for (uint32_t k = 0; k < x->used; k++)
		at[(x->entries[k].hash >> (32 - BITS)) + 1]++;
	for (uint32_t b = 0; b < (1u << BITS); b++)
		at[b + 1] += at[b];
	for (uint32_t k = 0; k < x->used; k++) {
		uint32_t h = x->entries[k].hash;
		order[at[h >> (32 - BITS)]++] = (struct nameidx_slot){ h, k + 1 };
	}
	free(at);
	return order;
}

/* The slot where the name of the slot-to-be o is bound, or the empty one
 * where it goes: nameidx_slot without reading o's entry unless a slot
 * holds the same hash. */
static struct nameidx_slot *nameidx_slot_of(const struct nameidx *x, struct nameidx_slot o)
{
	for (uint32_t k = nameidx_home(x, o.hash);; k = k + 1 < x->cap ? k + 1 : 0) {
		struct nameidx_slot *s = &x->slots[k];
		if (!s->at)
			return s;
		if (s->hash == o.hash) {
			const struct nameidx_entry *e = &x->entries[o.at - 1];
			return nameidx_slot(x, e->name, e->len, e->hash);
		}
	}
}

/* Every entry into new, empty slots for about expect names, front to
 * back.  Returns the order they were placed in, with at its front the
 * *ndup entries whose names were placed before them. */
static struct nameidx_slot *nameidx_place(struct nameidx *x, uint32_t expect, uint32_t *ndup)
{
	nameidx_size(x, expect);
	struct nameidx_slot *order = nameidx_home_order(x);
	*ndup = 0;
	for (uint32_t j = 0; j < x->used; j++) {
		struct nameidx_slot *s = nameidx_slot_of(x, order[j]);
		if (s->at)
			order[(*ndup)++] = order[j];   /* *ndup <= j: a slot placed already */
		else
			*s = order[j];
	}
	return order;
}

/* Puts never bind a name twice: no duplicates to report. */
static void nameidx_grow(struct nameidx *x, uint32_t expect)
{
	uint32_t ndup;
	free(nameidx_place(x, expect, &ndup));
}

uint32_t nameidx_index(struct nameidx *x, void ***dups)
{
	uint32_t ndup;
	struct nameidx_slot *order = nameidx_place(x, x->used, &ndup);
	*dups = NULL;
	if (ndup) {
		qsort(order, ndup, sizeof *order, nameidx_cmp_at);
		*dups = xmalloc(ndup * sizeof **dups);
		for (uint32_t j = 0; j < ndup; j++) {
			struct nameidx_entry *e = &x->entries[order[j].at - 1];
			(*dups)[j] = e->p;
			e->p = x->entries[nameidx_slot(x, e->name, e->len, e->hash)->at - 1].p;
		}
	}
	free(order);
	return ndup;
}

void *nameidx_put(struct nameidx *x, const char *name, size_t len, void *p, bool copy)
{
	return nameidx_put_hashed(x, name, len, intern_hash_bytes(name, len), p, copy);
}

void *nameidx_get_hashed(const struct nameidx *x, const char *name, size_t len, uint32_t h)
{
	if (!x->slots || len > UINT32_MAX)
		return NULL;
	const struct nameidx_slot *s = nameidx_slot(x, name, len, h);
	return s->at ? x->entries[s->at - 1].p : NULL;
}

void *nameidx_get_near(const struct nameidx *x, const char *name, size_t len, uint32_t h, uint32_t *near)
{
	const uint32_t guess[2] = { *near + 1, *near };   /* the next name, then the same again */
	for (int g = 0; g < 2; g++) {
		if (guess[g] >= x->used)
			continue;
		const struct nameidx_entry *e = &x->entries[guess[g]];
		if (e->hash == h && e->len == len && !memcmp(e->name, name, len)) {
			*near = guess[g];
			return e->p;
		}
	}
	if (!x->slots || len > UINT32_MAX)
		return NULL;
	const struct nameidx_slot *s = nameidx_slot(x, name, len, h);
	if (!s->at)
		return NULL;
	*near = s->at - 1;
	return x->entries[s->at - 1].p;
}

void *nameidx_get(const struct nameidx *x, const char *name, size_t len)
{
	return nameidx_get_hashed(x, name, len, intern_hash_bytes(name, len));
}

void nameidx_prefetch_hashed(const struct nameidx *x, uint32_t h)
{
	if (x->slots)
		__builtin_prefetch(&x->slots[nameidx_home(x, h)]);
}

void nameidx_prefetch(const struct nameidx *x, const char *name, size_t len)
{
	if (len <= UINT32_MAX)
		nameidx_prefetch_hashed(x, intern_hash_bytes(name, len));
}
