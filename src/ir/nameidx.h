/* nameidx.h - a transient name -> object index (open addressing over the
 * names' hashes), for lookups that must not grow the file's intern table:
 * resolve's instruction names of one computation and computation names of
 * one module.  Names are copied or borrowed; nothing outlives
 * nameidx_free.  The interned, file-lived strings are intern.h's. */
#ifndef HLO_NAMEIDX_H
#define HLO_NAMEIDX_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "arena.h"

struct nameidx_slot;
struct nameidx_entry;
struct nameidx {
	struct nameidx_slot *slots;  /* NULL until nameidx_init */
	struct nameidx_entry *entries; /* the names in the order they were put */
	uint32_t cap, used, capentries;
	struct arena text;           /* copied names */
};

/* Sized for about expect names (it grows past them). */
void nameidx_init(struct nameidx *x, uint32_t expect);
void nameidx_free(struct nameidx *x);
/* Binds name[0..len) to p unless it is bound: returns what was bound
 * before, or NULL.  copy: keep a copy of the name (text that may go, like
 * the source's dropped pages); else the name must outlive x. */
void *nameidx_put(struct nameidx *x, const char *name, size_t len, void *p, bool copy);
/* What name[0..len) is bound to, or NULL. */
void *nameidx_get(const struct nameidx *x, const char *name, size_t len);
/* The same with the name's hash (intern_hash_bytes) known. */
void *nameidx_put_hashed(struct nameidx *x, const char *name, size_t len, uint32_t hash, void *p, bool copy);
void *nameidx_get_hashed(const struct nameidx *x, const char *name, size_t len, uint32_t hash);
/* Many names at once (a module's computations): nameidx_append adds
 * name[0..len) to the entries only (copied or borrowed as by nameidx_put);
 * nameidx_index then fills the slots, in the order of their homes, front to
 * back, where puts one by one would write a large index (out of the caches)
 * at random.  A name appended again is not bound: its object is in *dups
 * (malloc'd, in the order appended; NULL when none) and lookups find the
 * first's.  Returns how many; puts may follow. */
void nameidx_append(struct nameidx *x, const char *name, size_t len, void *p, bool copy);
void nameidx_append_hashed(struct nameidx *x, const char *name, size_t len, uint32_t hash, void *p, bool copy);
uint32_t nameidx_index(struct nameidx *x, void ***dups);
/* nameidx_get_hashed for lookups that mostly follow the order names were
 * put (a module's calls name the computations just printed, in order):
 * the entry after the one last found (*near, 0 at first), then that one
 * again, are tried before the slots; *near becomes the entry found. */
void *nameidx_get_near(const struct nameidx *x, const char *name, size_t len, uint32_t hash, uint32_t *near);
/* Starts loading the slot where a put or get of name[0..len) will look
 * first: the slots of a large index are out of the caches, and a caller
 * walking many names can ask for the next ones' while it binds these. */
void nameidx_prefetch(const struct nameidx *x, const char *name, size_t len);
void nameidx_prefetch_hashed(const struct nameidx *x, uint32_t hash);
#endif
