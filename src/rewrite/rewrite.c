/* rewrite.c - the splice buffer: edits are kept in recording order and
 * sorted only when the result is built, so recording is cheap and a
 * transaction can be dropped by truncating the list.  Conflicts are checked
 * against replacements only (insertions never conflict with each other). */
#include "rewrite.h"
#include <stdlib.h>
#include <string.h>

void rewrite_init(struct rewrite *r, const char *base, uint64_t len)
{
	memset(r, 0, sizeof *r);
	r->base = base;
	r->len = len;
	arena_init(&r->arena);
}

void rewrite_free(struct rewrite *r)
{
	free(r->edits);
	arena_free(&r->arena);
	memset(r, 0, sizeof *r);
}

static void rewrite_push(struct rewrite *r, uint64_t start, uint64_t end, const char *text, size_t n)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 32;
		r->edits = xreallocarray(r->edits, r->cap, sizeof *r->edits);
	}
	struct rewrite_edit *e = &r->edits[r->n++];
	e->start = start;
	e->end = end;
	e->text = n ? arena_strndup(&r->arena, text, n) : "";
	e->len = n;
	e->seq = r->seq++;
	if (end > start)
		r->nreplace++;
}

bool rewrite_insert(struct rewrite *r, uint64_t off, const char *text, size_t n)
{
	if (off > r->len)
		return false;
	if (r->nreplace)
		for (uint32_t k = 0; k < r->n; k++) {
			const struct rewrite_edit *e = &r->edits[k];
			if (e->end > e->start && off > e->start && off < e->end)
				return false;
		}
	rewrite_push(r, off, off, text, n);
	return true;
}

bool rewrite_replace(struct rewrite *r, struct span sp, const char *text, size_t n)
{
	if (sp.start >= sp.end || sp.end > r->len)
		return false;
	for (uint32_t k = 0; k < r->n; k++) {
		const struct rewrite_edit *e = &r->edits[k];
		if (e->end == e->start) {
			if (e->start > sp.start && e->start < sp.end)
				return false;
			continue;
		}
		if (e->start == sp.start && e->end == sp.end && e->len == n && !memcmp(e->text, text, n))
			return true;   /* the same edit again */
		if (e->start < sp.end && sp.start < e->end)
			return false;
	}
	rewrite_push(r, sp.start, sp.end, text, n);
	return true;
}

uint32_t rewrite_mark(const struct rewrite *r)
{
	return r->n;
}

void rewrite_rollback(struct rewrite *r, uint32_t mark)
{
	while (r->n > mark) {
		struct rewrite_edit *e = &r->edits[--r->n];
		if (e->end > e->start)
			r->nreplace--;
	}
}

bool rewrite_empty(const struct rewrite *r)
{
	return r->n == 0;
}

/* Offset order; at one offset insertions (in recording order) before the
 * replacement starting there. */
static int rewrite_cmp(const void *pa, const void *pb)
{
	const struct rewrite_edit *a = pa, *b = pb;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	int ka = a->end > a->start, kb = b->end > b->start;
	if (ka != kb)
		return ka - kb;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Copies base[from, to) to p a few MiB at a time, dropping what was
 * copied; returns the end of the copy. */
static char *rewrite_copy(const struct rewrite *r, char *p, uint64_t from, uint64_t to, uint64_t *mark)
{
	while (from < to) {
		uint64_t n = to - from < ((uint64_t)4 << 20) ? to - from : (uint64_t)4 << 20;
		memcpy(p, r->base + from, (size_t)n);
		p += n;
		from += n;
		if (r->src)
			source_drop(r->src, mark, from);
	}
	return p;
}

char *rewrite_result(const struct rewrite *r, size_t *len)
{
	struct rewrite_edit *ed = NULL;
	size_t total = (size_t)r->len;
	if (r->n) {
		ed = xreallocarray(NULL, r->n, sizeof *ed);
		memcpy(ed, r->edits, r->n * sizeof *ed);
		qsort(ed, r->n, sizeof *ed, rewrite_cmp);
		for (uint32_t k = 0; k < r->n; k++)
			total = total - (size_t)(ed[k].end - ed[k].start) + ed[k].len;
	}
	char *out = xmalloc(total + 1), *p = out;
	uint64_t cur = 0, mark = 0;
	for (uint32_t k = 0; k < r->n; k++) {
		/* Conflicts were refused when recorded, so edits never go back. */
		p = rewrite_copy(r, p, cur, ed[k].start, &mark);
		memcpy(p, ed[k].text, ed[k].len);
		p += ed[k].len;
		cur = ed[k].end;
	}
	p = rewrite_copy(r, p, cur, r->len, &mark);
	*p = 0;
	free(ed);
	*len = (size_t)(p - out);
	return out;
}
