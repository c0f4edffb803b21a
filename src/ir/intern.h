/* intern.h - interned byte strings, compared by pointer.
 * Opcode, element-type and keyword names are interned at start-up with their
 * meaning stored on the entry, so classifying an identifier is one lookup.
 * This is the only module that includes uthash.h. */
#ifndef HLO_INTERN_H
#define HLO_INTERN_H
#include <stddef.h>
#include <stdint.h>

struct intern_table;

struct interned {
	const char *str;    /* NUL-terminated copy owned by the table */
	uint32_t len;
	int16_t opcode;     /* enum opcode + 1, or 0 */
	int16_t type;       /* enum ptype + 1, or 0 */
	int16_t keyword;    /* enum keyword (KW_x, 1-based), or 0 */
	int16_t attr;       /* enum attr_key + 1, or 0 (known attribute names) */
	void *binding;      /* scope slot for the resolver; NULL when unbound */
	void *data;         /* owner-defined slot (hash-consed shapes) */
};

/* Creates a table with the opcode/type/keyword/attribute vocab preloaded. */
struct intern_table *intern_new(void);
/* A table without the vocabulary: a scratch name -> binding map. */
struct intern_table *intern_new_empty(void);
void intern_free(struct intern_table *t);
/* Returns the unique entry for bytes s[0..n); never NULL. */
struct interned *intern(struct intern_table *t, const char *s, size_t n);
/* Returns the entry or NULL when s was never interned. */
struct interned *intern_find(struct intern_table *t, const char *s, size_t n);
size_t intern_count(const struct intern_table *t);
/* The hash the table uses for bytes s[0..n) (for callers' own indexes). */
unsigned intern_hash_bytes(const void *s, size_t n);
/* Pre-sizes the bucket array for about n entries (no effect on an empty
 * table): every uthash doubling rehashes all entries. */
void intern_reserve(struct intern_table *t, size_t n);
#endif
