/* diff.c - compares two compiles of one module.  Instruction names change
 * between compiles, so a buffer is known by its op_name (else its
 * instruction's name stem), shape and leaf; findings by their
 * fingerprints, which are built the same way (finding.c).  It reports
 * changes among the largest buffers, sharding and host-memory moves on
 * them, donation, and findings that came or went; it prints nothing. */
#include "diff.h"
#include <stdio.h>
#include <string.h>
#include "flow.h"
#include "metadata.h"
#include "sharding.h"

const char *diff_kind_name(enum diff_kind k)
{
	switch (k) {
	case DIFF_NEW: return "new";
	case DIFF_GROWN: return "grown";
	case DIFF_SHRUNK: return "shrunk";
	case DIFF_GONE: return "gone";
	case DIFF_LOST_SHARDING: return "lost-sharding";
	case DIFF_GAINED_SHARDING: return "gained-sharding";
	case DIFF_LEFT_HOST: return "left-host-memory";
	case DIFF_TO_HOST: return "to-host-memory";
	}
	return "?";
}

/* ---- Buffers by what survives recompiling ---- */

struct diff_buf {
	const struct mem_buffer *b;
	const char *key;            /* "<op_name or stem>|<shape>|<leaf>" */
	const char *loose;          /* "<op_name or stem>|<leaf>|<kind>": shapes change with shardings */
	const char *label;
	bool split;                 /* its instruction's sharding splits it over devices */
	bool matched;
};

/* The op_name of i, or NULL. */
static const char *diff_op_name(const struct hlo_module *m, const struct hlo_instr *i, struct arena *a)
{
	const struct hlo_attr *md = ir_attr(i, ATTR_METADATA);
	struct hlo_metadata d;
	if (md && metadata_decode(m->file, ir_attr_value(md), a, &d, NULL) && d.op_name && d.op_name[0])
		return d.op_name;
	return NULL;
}

static bool diff_split(const struct hlo_module *m, const struct hlo_instr *i, struct arena *a)
{
	struct hlo_sharding sh;
	return ir_attr(i, ATTR_SHARDING) && sharding_of(m->file, i, a, &sh, NULL) && sharding_tiled_or_named(&sh);
}

static void diff_describe(const struct diff_side *s, const struct mem_buffer *b, struct arena *a,
			  struct diff_buf *out)
{
	const struct hlo_instr *i = b->def;
	const char *op = diff_op_name(s->m, i, a), *stem;
	size_t n = op ? strlen(op) : finding_stem(ir_name(i), ir_name_len(i), false, &stem);
	char shape[512];
	ir_shape_format(b->shape, false, shape, sizeof shape);
	size_t cap = n + strlen(shape) + 48;
	char *key = arena_alloc(a, cap);
	snprintf(key, cap, "%.*s|%s|%u", (int)n, op ? op : stem, shape, b->leaf);
	char *loose = arena_alloc(a, n + 48);
	snprintf(loose, n + 48, "%.*s|%u|%d", (int)n, op ? op : stem, b->leaf, b->kind);
	out->b = b;
	out->key = key;
	out->loose = loose;
	out->label = op ? op : arena_strndup(a, ir_name(i), ir_name_len(i));
	out->split = diff_split(s->m, i, a);
	out->matched = false;
}

/* Every buffer of s, described, largest first (mem_largest's order). */
static struct diff_buf *diff_all(const struct diff_side *s, struct arena *a, uint32_t *n)
{
	*n = 0;
	if (!s->mm || !s->mm->nbuffers)
		return NULL;
	const struct mem_buffer **v = arena_array(a, s->mm->nbuffers, sizeof *v);
	*n = mem_largest(s->mm, v, 0);
	struct diff_buf *out = arena_array(a, *n ? *n : 1, sizeof *out);
	for (uint32_t k = 0; k < *n; k++)
		diff_describe(s, v[k], a, &out[k]);
	return out;
}

/* The first unmatched buffer of v that is x recompiled (marked matched):
 * the same key, else (a sharding changed the shape) the same op_name,
 * leaf and kind; NULL when none. */
static struct diff_buf *diff_find(struct diff_buf *v, uint32_t n, const struct diff_buf *x)
{
	for (int pass = 0; pass < 2; pass++)
		for (uint32_t k = 0; k < n; k++)
			if (!v[k].matched && !strcmp(pass ? v[k].loose : v[k].key, pass ? x->loose : x->key)) {
				v[k].matched = true;
				return &v[k];
			}
	return NULL;
}

static void diff_add(struct diff_result *r, uint32_t *cap, struct arena *a, enum diff_kind kind,
		     const struct diff_buf *o, const struct diff_buf *n)
{
	if (r->nchanges == *cap) {
		uint32_t nc = *cap ? *cap * 2 : 16;
		struct diff_change *v = arena_array(a, nc, sizeof *v);
		if (r->nchanges)
			memcpy(v, r->changes, r->nchanges * sizeof *v);
		r->changes = v;
		*cap = nc;
	}
	r->changes[r->nchanges++] = (struct diff_change){ kind, o ? o->b : NULL, n ? n->b : NULL,
							  n ? n->label : o->label };
}

/* What changed on one buffer that exists on both sides. */
static void diff_pair(struct diff_result *r, uint32_t *cap, struct arena *a, const struct diff_buf *o,
		      const struct diff_buf *n)
{
	/* Sizes within 1% are the same buffer recompiled. */
	if (n->b->bytes > o->b->bytes + o->b->bytes / 100)
		diff_add(r, cap, a, DIFF_GROWN, o, n);
	else if (o->b->bytes > n->b->bytes + n->b->bytes / 100)
		diff_add(r, cap, a, DIFF_SHRUNK, o, n);
	if (o->split && !n->split)
		diff_add(r, cap, a, DIFF_LOST_SHARDING, o, n);
	else if (!o->split && n->split)
		diff_add(r, cap, a, DIFF_GAINED_SHARDING, o, n);
	bool oh = o->b->memory_space == IR_SPACE_PINNED_HOST, nh = n->b->memory_space == IR_SPACE_PINNED_HOST;
	if (oh && !nh)
		diff_add(r, cap, a, DIFF_LEFT_HOST, o, n);
	else if (!oh && nh)
		diff_add(r, cap, a, DIFF_TO_HOST, o, n);
}

static void diff_buffers(const struct diff_side *old, const struct diff_side *new, uint32_t top, struct arena *a,
			 struct diff_result *r)
{
	uint32_t no, nn, cap = 0;
	struct diff_buf *ov = diff_all(old, a, &no), *nv = diff_all(new, a, &nn);
	for (uint32_t k = 0; k < nn && k < top; k++) {
		nv[k].matched = true;
		const struct diff_buf *o = diff_find(ov, no, &nv[k]);
		if (o)
			diff_pair(r, &cap, a, o, &nv[k]);
		else
			diff_add(r, &cap, a, DIFF_NEW, NULL, &nv[k]);
	}
	for (uint32_t k = 0; k < no && k < top; k++) {
		if (ov[k].matched)
			continue;
		const struct diff_buf *n = diff_find(nv, nn, &ov[k]);
		if (n)
			diff_pair(r, &cap, a, &ov[k], n);   /* no longer among the largest */
		else
			diff_add(r, &cap, a, DIFF_GONE, &ov[k], NULL);
	}
}

/* ---- Findings and donation ---- */

static bool diff_has(const struct diff_side *s, const struct finding *f)
{
	for (uint32_t k = 0; k < s->nfindings; k++)
		if (!strcmp(s->findings[k]->fingerprint, f->fingerprint))
			return true;
	return false;
}

/* The findings of a that b does not have. */
static const struct finding **diff_only(const struct diff_side *a, const struct diff_side *b, struct arena *ar,
					uint32_t *n)
{
	const struct finding **v = arena_array(ar, a->nfindings ? a->nfindings : 1, sizeof *v);
	*n = 0;
	for (uint32_t k = 0; k < a->nfindings; k++)
		if (!a->findings[k]->suppressed && !diff_has(b, a->findings[k]))
			v[(*n)++] = a->findings[k];
	return v;
}

static uint32_t diff_aliases(const struct diff_side *s, struct arena *a)
{
	struct alias_state as;
	alias_init(&as, s->m->file, a);
	struct flow_io *io;
	uint32_t n = flow_io_pairs(&as, s->m, a, &io);
	alias_free(&as);
	return n;
}

void diff_run(const struct diff_side *old, const struct diff_side *new, uint32_t top, struct arena *a,
	      struct diff_result *out)
{
	memset(out, 0, sizeof *out);
	diff_buffers(old, new, top, a, out);
	out->added = diff_only(new, old, a, &out->nadded);
	out->resolved = diff_only(old, new, a, &out->nresolved);
	out->old_aliases = diff_aliases(old, a);
	out->new_aliases = diff_aliases(new, a);
}
