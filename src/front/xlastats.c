/* xlastats.c - reads XLA's own totals from the sidecars of a dumped module:
 * the buffer assignment ("allocation N: size S, ..." lines; those with a
 * "color N" live in another memory space and are left out) and the
 * memory-usage report ("Total bytes: N" of "Memory Space: default").  It
 * judges nothing. */
#include "xlastats.h"
#include <stdlib.h>
#include <string.h>
#include "arena.h"
#include "dumpdir.h"
#include "source.h"

/* The device total of a buffer assignment's text. */
static uint64_t xlastats_assignment(const struct source *s)
{
	uint64_t total = 0;
	const char *p = s->buf, *end = s->buf + s->len;
	while (p < end) {
		const char *e = memchr(p, '\n', (size_t)(end - p));
		if (!e)
			e = end;
		if (e - p > 11 && !memcmp(p, "allocation ", 11)) {
			const char *sz = memchr(p, ':', (size_t)(e - p));
			size_t n = (size_t)(e - p);
			bool colored = false;
			for (size_t i = 0; i + 7 < n && !colored; i++)
				colored = !memcmp(p + i, ", color ", 8);
			if (sz && e - sz > 7 && !memcmp(sz, ": size ", 7) && !colored)
				total += strtoull(sz + 7, NULL, 10);
		}
		p = e + 1;
	}
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
