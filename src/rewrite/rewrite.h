/* rewrite.h - a splice buffer over an original text, like clang's Rewriter:
 * insertions and replacements at byte offsets of the original, recorded in
 * any order and applied in one pass.  Every byte not covered by an edit
 * comes out exactly as it went in.  It knows nothing about HLO. */
#ifndef HLO_REWRITE_H
#define HLO_REWRITE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "arena.h"
#include "source.h"
#include "span.h"

struct rewrite_edit {
	uint64_t start, end;        /* replaced range [start, end); start == end: an insertion */
	const char *text;           /* in the rewrite's arena */
	size_t len;
	uint32_t seq;               /* order of recording: insertions at one offset keep it */
};

struct rewrite {
	const char *base;           /* the original text (not owned) */
	uint64_t len;
	struct rewrite_edit *edits;
	uint32_t n, cap;
	uint32_t nreplace;          /* replacements among the edits */
	uint32_t seq;
	struct arena arena;
	const struct source *src;   /* base's file, if it is one: rewrite_result drops its pages */
};

/* A rewrite over base[0, len); base must outlive it. */
void rewrite_init(struct rewrite *r, const char *base, uint64_t len);
void rewrite_free(struct rewrite *r);

/* Inserts text before the byte at off (off == len appends).  Insertions at
 * one offset come out in the order they were made, and before a replacement
 * that starts there.  False (nothing recorded) when off is past the end or
 * strictly inside a replaced range. */
bool rewrite_insert(struct rewrite *r, uint64_t off, const char *text, size_t n);
/* Replaces sp (non-empty) with text.  False (nothing recorded) when sp is
 * out of range, overlaps another replacement or holds an insertion strictly
 * inside; making the same replacement twice records it once. */
bool rewrite_replace(struct rewrite *r, struct span sp, const char *text, size_t n);

/* Transactions: a mark, and dropping every edit recorded after it. */
uint32_t rewrite_mark(const struct rewrite *r);
void rewrite_rollback(struct rewrite *r, uint32_t mark);

/* True when no edit has been recorded (the result is the original). */
bool rewrite_empty(const struct rewrite *r);

/* The edited text, xmalloc'd with a NUL after it (caller frees); its length
 * in *len.  With r->src set, the pages of the original are dropped as they
 * are copied (source_drop): the output and the input are not both held. */
char *rewrite_result(const struct rewrite *r, size_t *len);
#endif
