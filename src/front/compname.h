/* compname.h - the names of computations as a module writes them (each
 * header's name, each callee attribute such as calls=%f), copied with their
 * hashes by the builder while the text is in the cache, so that resolve
 * binds computations without reading pages the parse gave back
 * (source_drop).  Not the binding (resolve.c), nor lists in braces. */
#ifndef HLO_COMPNAME_H
#define HLO_COMPNAME_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One name: where its text is, and the copy (without '%'). */
struct compname {
	uint64_t off;       /* a header's name_off, or a callee attribute's value_off */
	uint32_t len;       /* that text's length ('%' included for a value) */
	uint32_t hash;      /* intern_hash_bytes of the copy */
	uint32_t at, n;     /* the copy: text + at, n bytes */
};

/* Names in source order (the builder's), one list per kind. */
struct compname_list {
	struct compname *v;
	uint32_t n, cap;
	char *text;
	size_t ntext, captext;
};

/* One piece's names (a parse in pieces chains them in source order). */
struct compnames {
	struct compname_list heads;    /* computation headers */
	struct compname_list callees;  /* callee attributes naming one computation */
	struct compnames *next;        /* the next piece's */
};

/* Where the last find ended: finds in source order cost one compare. */
struct compname_cursor {
	const struct compnames *at;    /* NULL: the first */
	uint32_t k;
};

/* The computation a callee attribute's value names: name[0..len) without
 * '%', when the value is one name (not {...}, not an inline body). */
bool compname_of_value(const char *t, size_t n, const char **name, size_t *len);
/* Records text[0..len) at off: its name is name[0..n). */
void compname_add(struct compname_list *l, uint64_t off, uint32_t len, const char *name, size_t n);
/* The name recorded for the text at off of length len in cn's headers or
 * callees (callee), or NULL; *text is its copy.  Out of order (an inline
 * body is resolved before the computation written around it) it searches. */
const struct compname *compname_find(const struct compnames *cn, bool callee, uint64_t off, uint32_t len,
				     struct compname_cursor *cur, const char **text);
/* The hash of the name `ahead` after the cursor, when there is one: what
 * will be looked up next, to prefetch. */
bool compname_peek(const struct compnames *cn, bool callee, const struct compname_cursor *cur, uint32_t ahead,
		   uint32_t *hash);
/* Chains *src's names after *dst's (the pieces of a parse, in source
 * order: nothing is copied); *src ends NULL. */
void compname_join(struct compnames **dst, struct compnames **src);
/* Frees the chain *c (made by xcalloc) and its lists; *c ends NULL. */
void compname_free(struct compnames **c);
#endif
