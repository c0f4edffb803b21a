/* arena.h - bump allocator that owns every IR object of a parse.
 * Objects are never freed one by one; the arena is dropped as a whole.
 * Marks let a caller release everything allocated after a point (scratch
 * decoding of attribute values).  Out of memory goes through xmalloc. */
#ifndef HLO_ARENA_H
#define HLO_ARENA_H
#include <stddef.h>
#include <stdint.h>

struct arena_block;
struct arena {
	struct arena_block *head;  /* current block, linked to older ones */
	size_t total;              /* bytes obtained from malloc, for stats */
};
struct arena_mark {
	struct arena_block *block;
	size_t used;
};

void arena_init(struct arena *a);
void arena_free(struct arena *a);
/* Returns size bytes aligned to 8, zeroed. Never returns NULL. */
void *arena_alloc(struct arena *a, size_t size);
/* n * size with overflow check, zeroed. */
void *arena_array(struct arena *a, size_t n, size_t size);
/* Copies n bytes (plus a NUL) into the arena. */
char *arena_strndup(struct arena *a, const char *s, size_t n);
/* Moves every block of from into a (from ends empty): what was allocated
 * in from lives as long as a.  Not while a mark of a is outstanding. */
void arena_adopt(struct arena *a, struct arena *from);
/* A growable array an arena can take over without a copy: grow it with
 * arena_vec_grow (NULL starts one), then either arena_vec_give it to an
 * arena, which frees it with its blocks, or arena_vec_free it.  The model's
 * buffer table is built this way: a copy would double its peak.  Not given
 * while a mark of the arena is outstanding. */
void *arena_vec_grow(void *p, size_t n, size_t size);
/* Returns p, which may have moved (the spare capacity is given back). */
void *arena_vec_give(struct arena *a, void *p, size_t used);
void arena_vec_free(void *p);
struct arena_mark arena_mark(struct arena *a);
void arena_release(struct arena *a, struct arena_mark m);

/* xmalloc family: one out-of-memory path for the whole program. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
/* xcalloc for a large table read at random before it is written (a hash
 * index): its pages are faulted in by one call now, where each read of a
 * fresh page would map the shared zero page and its first write fault
 * again to replace it. */
void *xcalloc_touched(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
void *xreallocarray(void *p, size_t n, size_t size);
char *xstrdup(const char *s);
/* xmalloc for arena blocks: 2 MiB and larger ones are 2 MiB aligned and,
 * while the process holds less than HLO_HUGE_MB (128) MiB of them, marked
 * for transparent huge pages, so filling them takes 512 times fewer page
 * faults and walking them fewer TLB misses; past that, their small pages
 * are faulted in by one call.  Freed with xfree_huge. */
void *xmalloc_huge(size_t n);
void xfree_huge(void *p, size_t n);
_Noreturn void fatal_out_of_memory(void);
#endif
