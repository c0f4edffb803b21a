/* xlastats.c - reads what XLA itself wrote beside a dumped module: the
 * buffer assignment ("allocation N: size S, ..." lines and their values;
 * those with a "color N" live in another memory space and are left out)
 * for its device total and largest allocations, and the memory-usage
 * report ("Total bytes: N" of "Memory Space: default").  It judges
 * nothing. */
#include "xlastats.h"
#include "size.h"
#include <stdlib.h>
#include <string.h>
#include "arena.h"
#include "dumpdir.h"
#include "source.h"

/* Whether the text at q (before e) starts with lit. */
static bool xlastats_at(const char *q, const char *e, const char *lit)
{
	size_t k = strlen(lit);
	return (size_t)(e - q) >= k && !memcmp(q, lit, k);
}

/* "allocation 3: size 4294967296, parameter 29, shape |...| at ShapeIndex
 * {}, maybe-live-out:" into al; false when it is not one. */
static bool xlastats_alloc_head(const char *p, const char *e, struct xla_allocation *al)
{
	char *end;
	memset(al, 0, sizeof *al);
	al->index = (uint32_t)strtoul(p + 11, &end, 10);
	if (end >= e || *end != ':' || e - end < 8 || memcmp(end, ": size ", 7))
		return false;
	al->size = strtoull(end + 7, NULL, 10);
	al->parameter = -1;
	for (const char *q = end; q < e; q++) {
		al->thread_local |= xlastats_at(q, e, ", thread-local");
		al->colored |= xlastats_at(q, e, ", color ");
		if (xlastats_at(q, e, ", parameter "))
			al->parameter = strtoll(q + 12, NULL, 10);
		al->live_out |= xlastats_at(q, e, "maybe-live-out");
		al->constant |= xlastats_at(q, e, ", constant");
	}
	return true;
}

/* " value: <2959 param.15 @0> (size=4294967296,offset=0): f32[...]": the
 * largest value names the allocation. */
static void xlastats_alloc_value(const char *p, const char *e, struct xla_allocation *al, struct arena *a,
				 uint64_t *best)
{
	const char *lt = memchr(p, '<', (size_t)(e - p));
	const char *sp = lt ? memchr(lt, ' ', (size_t)(e - lt)) : NULL;
	const char *at = sp ? memchr(sp, '@', (size_t)(e - sp)) : NULL;
	const char *sz = at ? strstr(at, "(size=") : NULL;
	al->nvalues++;
	if (!at || !sz || sz > e)
		return;
	uint64_t v = strtoull(sz + 6, NULL, 10);
	if (al->value && v <= *best)
		return;
	*best = v;
	const char *n0 = sp + 1, *n1 = at;
	while (n1 > n0 && n1[-1] == ' ')
		n1--;
	const char *br = memchr(n0, '{', (size_t)(n1 - n0));
	al->value = arena_strndup(a, n0, (size_t)((br ? br : n1) - n0));
	const char *colon = strstr(sz, "): ");
	al->shape = colon && colon < e ? arena_strndup(a, colon + 3, (size_t)(e - colon - 3)) : NULL;
}

static int xlastats_by_size(const void *x, const void *y)
{
	const struct xla_allocation *a = x, *b = y;
	if (a->size != b->size)
		return a->size > b->size ? -1 : 1;
	return a->index < b->index ? -1 : a->index > b->index;
}

/* Every allocation of a buffer assignment's text, with its largest value
 * when a (the arena for names) is given: *n of them, malloc'd. */
static struct xla_allocation *xlastats_parse(const struct source *s, struct arena *a, uint32_t *n)
{
	uint32_t cap = 64;
	struct xla_allocation *v = xmalloc(cap * sizeof *v);
	bool open = false;
	uint64_t best = 0;
	const char *p = s->buf, *end = s->buf + s->len;
	*n = 0;
	while (p < end) {
		const char *e = memchr(p, '\n', (size_t)(end - p));
		if (!e)
			e = end;
		if (e - p > 11 && !memcmp(p, "allocation ", 11)) {
			if (*n == cap)
				v = xreallocarray(v, cap *= 2, sizeof *v);
			open = xlastats_alloc_head(p, e, &v[*n]);
			*n += open;
			best = 0;
		} else if (open && a && e - p > 8 && !memcmp(p, " value: ", 8)) {
			xlastats_alloc_value(p, e, &v[*n - 1], a, &best);
		} else if (e > p && p[0] != ' ') {
			open = false;   /* past the allocations: "Used values:" and the rest */
		}
		p = e + 1;
	}
	return v;
}

/* The device total of a buffer assignment: its allocations but those of
 * another memory space (a color), summed with saturation as the model's
 * are: a crafted sidecar must not wrap into a small figure. */
static uint64_t xlastats_assignment(const struct source *s)
{
	uint32_t n;
	struct xla_allocation *v = xlastats_parse(s, NULL, &n);
	uint64_t total = 0;
	for (uint32_t k = 0; k < n; k++)
		if (!v[k].colored)
			total = size_add(total, v[k].size);
	free(v);
	return total;
}

/* "Total bytes: N" of the default memory space in a memory-usage report. */
static uint64_t xlastats_usage(const struct source *s)
{
	const char *p = strstr(s->buf, "Memory Space: default");
	const char *t = p ? strstr(p, "Total bytes: ") : NULL;
	return t ? strtoull(t + 13, NULL, 10) : 0;
}

static struct source *xlastats_load(const char *path, const char *what, char **from)
{
	char *side = dumpdir_sidecar(path, what), err[256];
	struct source *s = side ? source_load(side, err, sizeof err) : NULL;
	if (s && !*from)
		*from = xstrdup(side);
	free(side);
	return s;
}

bool xlastats_read(const char *path, struct xla_stats *out)
{
	memset(out, 0, sizeof *out);
	if (!path || !strcmp(path, "-"))
		return false;
	struct source *s = xlastats_load(path, "buffer-assignment", &out->from);
	if (s) {
		out->total_bytes = xlastats_assignment(s);
		source_free(s);
	}
	s = xlastats_load(path, "memory-usage-report", &out->from);
	if (s) {
		out->usage_bytes = xlastats_usage(s);
		source_free(s);
	}
	if (!out->total_bytes && !out->usage_bytes) {
		xlastats_free(out);
		return false;
	}
	return true;
}

void xlastats_free(struct xla_stats *s)
{
	free(s->from);
	memset(s, 0, sizeof *s);
}

uint64_t xlastats_total(const struct xla_stats *s)
{
	return s->total_bytes ? s->total_bytes : s->usage_bytes;
}


bool xlastats_assignment_read(const char *path, uint32_t max, struct arena *a, struct xla_assignment *out)
{
	memset(out, 0, sizeof *out);
	if (!path || !strcmp(path, "-"))
		return false;
	char *from = NULL;
	struct source *s = xlastats_load(path, "buffer-assignment", &from);
	if (!s) {
		free(from);
		return false;
	}
	uint32_t all, n = 0;
	struct xla_allocation *v = xlastats_parse(s, a, &all);
	source_free(s);
	/* Device allocations only: no thread-local scratch, no other color. */
	for (uint32_t k = 0; k < all; k++)
		if (!v[k].thread_local && !v[k].colored)
			v[n++] = v[k];
	qsort(v, n, sizeof *v, xlastats_by_size);
	out->n = n < max ? n : max;
	out->allocs = arena_array(a, out->n ? out->n : 1, sizeof *out->allocs);
	memcpy(out->allocs, v, out->n * sizeof *v);
	out->from = arena_strndup(a, from, strlen(from));
	free(v);
	free(from);
	return out->n > 0;
}
