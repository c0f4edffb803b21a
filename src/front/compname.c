/* compname.c - computation names copied by the builder for resolve
 * (compname.h): two growing lists in source order, found by a cursor that
 * moves forward, or by a binary search when resolve visits out of order
 * (an inline body is resolved before the computation written around it). */
#include "compname.h"
#include <stdlib.h>
#include <string.h>
#include "arena.h"
#include "intern.h"

bool compname_of_value(const char *t, size_t n, const char **name, size_t *len)
{
	size_t e = n && t[0] == '%';
	while (e < n && ((t[e] >= 'a' && t[e] <= 'z') || (t[e] >= 'A' && t[e] <= 'Z') ||
			 (t[e] >= '0' && t[e] <= '9') || t[e] == '_' || t[e] == '.' || t[e] == '-'))
		e++;
	*name = t + (n && t[0] == '%');
	*len = n - (size_t)(n && t[0] == '%');
	return e == n && *len;
}

void compname_add(struct compname_list *l, uint64_t off, uint32_t len, const char *name, size_t n)
{
	if (n > UINT32_MAX || l->ntext + n > UINT32_MAX)
		return;   /* not recorded: resolve reads the text */
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 1024;
		l->v = xreallocarray(l->v, l->cap, sizeof *l->v);
	}
	if (l->ntext + n > l->captext) {
		while (l->ntext + n > l->captext)
			l->captext = l->captext ? 2 * l->captext : 16384;
		l->text = xrealloc(l->text, l->captext);
	}
	memcpy(l->text + l->ntext, name, n);
	l->v[l->n++] = (struct compname){ .off = off, .len = len, .hash = intern_hash_bytes(name, n),
					  .at = (uint32_t)l->ntext, .n = (uint32_t)n };
	l->ntext += n;
}

const struct compname *compname_find(const struct compname_list *l, uint64_t off, uint32_t len, uint32_t *cursor)
{
	uint32_t k = *cursor;
	if (k >= l->n || l->v[k].off != off) {
		uint32_t lo = 0, hi = l->n;   /* the first at or after off */
		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;
			if (l->v[mid].off < off)
				lo = mid + 1;
			else
				hi = mid;
		}
		k = lo;
		if (k >= l->n || l->v[k].off != off)
			return NULL;
	}
	*cursor = k + 1;
	return l->v[k].len == len ? &l->v[k] : NULL;
}

static void compname_join_list(struct compname_list *dst, struct compname_list *src)
{
	if (!src->n) {
		free(src->v);
		free(src->text);
	} else if (!dst->n) {
		free(dst->v);
		free(dst->text);
		*dst = *src;
	} else if (dst->ntext + src->ntext <= UINT32_MAX && (uint64_t)dst->n + src->n <= UINT32_MAX) {
		dst->v = xreallocarray(dst->v, (size_t)dst->n + src->n, sizeof *dst->v);
		dst->text = xrealloc(dst->text, dst->ntext + src->ntext + 1);
		memcpy(dst->text + dst->ntext, src->text, src->ntext);
		for (uint32_t k = 0; k < src->n; k++) {
			dst->v[dst->n + k] = src->v[k];
			dst->v[dst->n + k].at += (uint32_t)dst->ntext;
		}
		dst->n += src->n;
		dst->cap = dst->n;
		dst->ntext += src->ntext;
		dst->captext = dst->ntext + 1;
		free(src->v);
		free(src->text);
	} else {   /* too many to record: resolve reads these from the text */
		free(src->v);
		free(src->text);
	}
	memset(src, 0, sizeof *src);
}

void compname_join(struct compnames **dst, struct compnames **src)
{
	if (!*dst) {
		*dst = *src;
		*src = NULL;
		return;
	}
	if (!*src)
		return;
	compname_join_list(&(*dst)->heads, &(*src)->heads);
	compname_join_list(&(*dst)->callees, &(*src)->callees);
	compname_free(src);
}

void compname_free(struct compnames **c)
{
	if (!*c)
		return;
	free((*c)->heads.v);
	free((*c)->heads.text);
	free((*c)->callees.v);
	free((*c)->callees.text);
	free(*c);
	*c = NULL;
}
