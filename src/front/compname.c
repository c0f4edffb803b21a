/* compname.c - computation names copied by the builder for resolve
 * (compname.h): two growing lists in source order per piece of a parse,
 * the pieces chained, found by a cursor that moves forward, or by a binary
 * search when resolve visits out of order (an inline body is resolved
 * before the computation written around it). */
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

static const struct compname_list *compname_list_of(const struct compnames *c, bool callee)
{
	return callee ? &c->callees : &c->heads;
}

const struct compname *compname_find(const struct compnames *cn, bool callee, uint64_t off, uint32_t len,
				     struct compname_cursor *cur, const char **text)
{
	const struct compnames *node = cur->at ? cur->at : cn;
	const struct compname_list *l = node ? compname_list_of(node, callee) : NULL;
	uint32_t k = cur->k;
	if (!l || k >= l->n || l->v[k].off != off) {
		for (node = cn; node; node = node->next) {   /* the piece whose names reach off */
			l = compname_list_of(node, callee);
			if (l->n && off <= l->v[l->n - 1].off)
				break;
		}
		if (!node)
			return NULL;
		uint32_t lo = 0, hi = l->n;   /* the first at or after off */
		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;
			if (l->v[mid].off < off)
				lo = mid + 1;
			else
				hi = mid;
		}
		k = lo;
		if (l->v[k].off != off)
			return NULL;
	}
	cur->at = node;
	cur->k = k + 1;
	if (cur->k == l->n && node->next) {
		cur->at = node->next;
		cur->k = 0;
	}
	*text = l->text + l->v[k].at;
	return l->v[k].len == len ? &l->v[k] : NULL;
}

bool compname_peek(const struct compnames *cn, bool callee, const struct compname_cursor *cur, uint32_t ahead,
		   uint32_t *hash)
{
	const struct compnames *node = cur->at ? cur->at : cn;
	const struct compname_list *l = node ? compname_list_of(node, callee) : NULL;
	if (!l || cur->k + (uint64_t)ahead >= l->n)
		return false;
	*hash = l->v[cur->k + ahead].hash;
	return true;
}

void compname_join(struct compnames **dst, struct compnames **src)
{
	struct compnames **tail = dst;
	while (*tail)
		tail = &(*tail)->next;
	*tail = *src;
	*src = NULL;
}

void compname_free(struct compnames **c)
{
	while (*c) {
		struct compnames *next = (*c)->next;
		free((*c)->heads.v);
		free((*c)->heads.text);
		free((*c)->callees.v);
		free((*c)->callees.text);
		free(*c);
		*c = next;
	}
}
