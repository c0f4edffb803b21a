/* padding_waste.c - rule padding-waste: device buffers whose TPU tiles (or
 * default tiling) pad them past a ratio and a size, one finding per shape,
 * with a reshape, layout or rounded shape that removes the padding.  Not
 * values inside fusions, nor temporaries of an unfused module. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "attr.h"
#include "config.h"
#include "finding.h"
#include "mem.h"
#include "pass.h"
#include "peak.h"
#include "size.h"

#define PW_RULE pass_name_padding_waste   /* its name, from passes.def */

#define PW_MAX_RANK 32

struct pw_group {
	const struct mem_buffer *first;
	uint32_t hash;
	uint32_t count;
	uint64_t waste_total;
	uint64_t peak_waste;            /* waste of the members live at the peak */
	const struct mem_buffer *more[3];  /* other members, for the note */
};

struct pw_state {
	struct hlo_module *m;
	struct pass_context *ctx;
	const struct mem_model *mm;
	struct arena *scratch;
	double min_ratio;               /* padding-min-ratio */
	struct pw_group *groups;
	uint32_t ngroups, capgroups;
	uint32_t *table;                /* open addressing: group index + 1 */
	uint32_t captable;
	int found;
};

/* A candidate array: per-device dims and a layout of its own. */
struct pw_array {
	uint32_t rank;
	int64_t dims[PW_MAX_RANK];
	int64_t m2m[PW_MAX_RANK];
	struct hlo_layout layout;
	struct size_array a;
};

static void pw_array_init(struct pw_array *x, const struct hlo_shape *s, const int64_t *dims)
{
	memset(x, 0, sizeof *x);
	x->rank = s->rank;
	memcpy(x->dims, dims, s->rank * sizeof *dims);
	if (s->layout) {
		x->layout = *s->layout;
		for (uint32_t k = 0; k < s->rank; k++)
			x->m2m[k] = k < s->layout->rank ? s->layout->minor_to_major[k] : (int64_t)(s->rank - 1 - k);
	} else {
		x->layout.tail_padding = 1;
		for (uint32_t k = 0; k < s->rank; k++)
			x->m2m[k] = (int64_t)(s->rank - 1 - k);
	}
	x->layout.rank = s->rank;
	x->layout.minor_to_major = x->m2m;
	x->a.type = s->type;
	x->a.rank = s->rank;
	x->a.dims = x->dims;
	x->a.layout = &x->layout;
}

/* The first tile of the array as sized: its layout's, else the default. */
static bool pw_tile(const struct pw_state *st, const struct pw_array *x, struct size_tile *t)
{
	memset(t, 0, sizeof *t);
	if (size_has_tiles(&x->layout)) {
		const struct hlo_tile *lt = &x->layout.tiles[0];
		if (lt->rank > 2 || !lt->rank)
			return false;
		t->rank = lt->rank;
		for (uint32_t k = 0; k < lt->rank; k++)
			t->dims[k] = lt->dims[k];
		t->element_bits = x->layout.element_bits;
		return true;
	}
	return st->mm->default_tiling && size_tpu_default_tile(&x->a, st->mm->target->tpu_gen, false, t);
}

/* Padded bytes of a candidate: the default tiling for its new layout when
 * the generation is known (what layout assignment would pick), else the
 * original tile. */
static uint64_t pw_size(const struct pw_state *st, struct pw_array *x, const struct size_tile *orig)
{
	int gen = st->mm->target->tpu_gen;
	if (gen > 0) {
		uint32_t nt = x->layout.ntiles;
		struct hlo_tile *tiles = x->layout.tiles;
		x->layout.ntiles = 0;
		x->layout.tiles = NULL;
		uint64_t lo, hi;
		size_tpu_default(&x->a, gen, &lo, &hi, NULL);
		x->layout.ntiles = nt;
		x->layout.tiles = tiles;
		return lo;
	}
	return size_tiled(&x->a, orig->rank, orig->dims, x->layout.tail_padding ? x->layout.tail_padding : 1,
			  x->layout.element_bits);
}

enum pw_fix { PW_FIX_NONE, PW_FIX_LAYOUT, PW_FIX_MERGE, PW_FIX_ROUND };

struct pw_plan {
	enum pw_fix fix;
	uint64_t bytes;                 /* padded bytes after the fix */
	int64_t m2m[PW_MAX_RANK];       /* LAYOUT */
	uint32_t minor, second;         /* the dims moved to the minor positions / merged */
	bool free;                      /* LAYOUT that only moves size-1 dims (a bitcast) */
};

/* Whether layout m2m keeps the memory order of orig's dims of size > 1:
 * then it only moves size-1 dims, a free bitcast. */
static bool pw_same_order(const struct pw_array *orig, const int64_t *m2m)
{
	uint32_t a = 0, b = 0, r = orig->rank;
	for (;;) {
		while (a < r && orig->dims[orig->m2m[a]] == 1)
			a++;
		while (b < r && orig->dims[m2m[b]] == 1)
			b++;
		if (a == r || b == r)
			return a == r && b == r;
		if (orig->m2m[a++] != m2m[b++])
			return false;
	}
}

/* Best layout: every (minor, second-minor) pair, the other dims kept in
 * their order; strictly better than what came before wins, and a free
 * one (moving only size-1 dims) wins when it saves 90% as much and leaves
 * less padding than the rule reports. */
static void pw_best_layout(const struct pw_state *st, const struct pw_array *orig, const struct size_tile *t,
			   uint64_t orig_unpadded, struct pw_plan *best)
{
	uint32_t r = orig->rank;
	uint64_t base = best->bytes;
	struct pw_plan free_best = *best;
	struct pw_array x = *orig;
	x.layout.minor_to_major = x.m2m;
	x.a.layout = &x.layout;
	x.a.dims = x.dims;
	for (uint32_t i = 0; i < r; i++) {
		for (uint32_t j = 0; j < r; j++) {
			int64_t mi = orig->m2m[i], mj = orig->m2m[j];
			if (i == j || (i == 0 && j == 1))
				continue;
			uint32_t n = 0;
			x.m2m[n++] = mi;
			x.m2m[n++] = mj;
			for (uint32_t k = 0; k < r; k++)
				if (k != i && k != j)
					x.m2m[n++] = orig->m2m[k];
			uint64_t b = pw_size(st, &x, t);
			struct pw_plan *into = pw_same_order(orig, x.m2m) && b < free_best.bytes ? &free_best
					       : b < best->bytes ? best : NULL;
			if (!into)
				continue;
			into->fix = PW_FIX_LAYOUT;
			into->bytes = b;
			memcpy(into->m2m, x.m2m, r * sizeof *x.m2m);
			into->minor = (uint32_t)mi;
			into->second = (uint32_t)mj;
			into->free = into == &free_best;
		}
	}
	/* The free one must also clear the rule's ratio (fix the finding). */
	bool clears = (double)free_best.bytes < st->min_ratio * (double)orig_unpadded;
	if (free_best.fix == PW_FIX_LAYOUT && (best->fix != PW_FIX_LAYOUT || free_best.bytes <= best->bytes ||
					       (clears && (base - free_best.bytes) >= (base - best->bytes) / 10 * 9)))
		*best = free_best;
}

/* Merge the two most-minor physical dims when they are logically adjacent
 * (a free reshape), e.g. [..., 16, 64] -> [..., 1024], keeping rank >= 2. */
static void pw_merge(const struct pw_state *st, const struct pw_array *orig, const struct size_tile *t,
		     struct pw_plan *best)
{
	/* Flattening to 1-D is no fix for a matrix a dot reads. */
	if (orig->rank < 3)
		return;
	int64_t x0 = orig->m2m[0], y0 = orig->m2m[1];
	if (x0 != y0 + 1)
		return;
	struct pw_array x;
	memset(&x, 0, sizeof x);
	x.rank = orig->rank - 1;
	x.layout = orig->layout;
	x.layout.rank = x.rank;
	x.layout.minor_to_major = x.m2m;
	x.a.type = orig->a.type;
	x.a.rank = x.rank;
	x.a.dims = x.dims;
	x.a.layout = &x.layout;
	for (uint32_t d = 0, n = 0; d < orig->rank; d++) {
		if ((int64_t)d == x0)
			continue;
		x.dims[n++] = (int64_t)d == y0 ? orig->dims[y0] * orig->dims[x0] : orig->dims[d];
	}
	for (uint32_t k = 1, n = 0; k < orig->rank; k++)
		x.m2m[n++] = orig->m2m[k] > x0 ? orig->m2m[k] - 1 : orig->m2m[k];
	uint64_t b = pw_size(st, &x, t);
	/* A free reshape beats a transpose at equal size. */
	if (b <= best->bytes) {
		best->fix = PW_FIX_MERGE;
		best->bytes = b;
		best->minor = (uint32_t)x0;
		best->second = (uint32_t)y0;
	}
}

/* ---- The suggested shape text ---- */

static void pw_format(const struct hlo_shape *s, uint32_t rank, const int64_t *dims, const int64_t *m2m,
		      bool keep_tiles, char *buf, size_t cap)
{
	struct hlo_shape x = *s;
	struct hlo_layout l;
	if (s->layout)
		l = *s->layout;
	else {
		memset(&l, 0, sizeof l);
		l.tail_padding = 1;
	}
	l.rank = rank;
	l.minor_to_major = (int64_t *)m2m;
	if (!keep_tiles) {
		l.ntiles = 0;
		l.tiles = NULL;
	}
	l.nsplits = 0;
	l.splits = NULL;
	x.rank = rank;
	x.dims = (int64_t *)dims;
	x.dim_kinds = NULL;
	x.layout = &l;
	ir_shape_format(&x, true, buf, cap);
}

/* Writes the fix into buf (global shape) and a description into what. */
static void pw_plan_text(const struct mem_buffer *b, const int64_t *splits, const struct pw_array *orig,
			 const struct size_tile *t, const struct pw_plan *p, char *buf, size_t cap, char *what,
			 size_t wcap)
{
	const struct hlo_shape *s = b->shape;
	uint32_t r = s->rank;
	int64_t dims[PW_MAX_RANK], m2m[PW_MAX_RANK];
	memcpy(dims, s->dims, r * sizeof *dims);
	memcpy(m2m, orig->m2m, r * sizeof *m2m);
	switch (p->fix) {
	case PW_FIX_LAYOUT:
		pw_format(s, r, dims, p->m2m, false, buf, cap);
		if (p->free)
			snprintf(what, wcap, "layout moving the size-1 dimensions out of the minor positions, the "
				 "same order in memory");
		else
			snprintf(what, wcap, "layout with dimension %u (%lld) minor and %u (%lld) second-minor", p->minor,
				 (long long)s->dims[p->minor], p->second, (long long)s->dims[p->second]);
		break;
	case PW_FIX_MERGE: {
		int64_t nd[PW_MAX_RANK], nm[PW_MAX_RANK];
		uint32_t n = 0;
		for (uint32_t d = 0; d < r; d++)
			if (d != p->minor)
				nd[n++] = d == p->second ? s->dims[p->second] * s->dims[p->minor] : s->dims[d];
		n = 0;
		for (uint32_t k = 1; k < r; k++)
			nm[n++] = m2m[k] > (int64_t)p->minor ? m2m[k] - 1 : m2m[k];
		pw_format(s, r - 1, nd, nm, false, buf, cap);
		snprintf(what, wcap, "reshape merging dimensions %u and %u (%lld x %lld)", p->second, p->minor,
			 (long long)s->dims[p->second], (long long)s->dims[p->minor]);
		break;
	}
	default: {
		/* Round the tiled physical dims up to the tile (per device). */
		size_t w = 0;
		what[0] = 0;
		for (uint32_t k = 0; k < t->rank && k < r; k++) {
			int64_t d = m2m[k];
			int64_t tile = t->dims[t->rank - 1 - k];
			if (tile <= 0)
				continue;
			int64_t split = splits ? splits[d] : 1;
			int64_t local = orig->dims[d];
			uint64_t want = size_round_up(local < 0 ? 0 : (uint64_t)local, (uint64_t)tile);
			if (want == (uint64_t)local)
				continue;
			if (split > 1)
				want = size_mul(want, (uint64_t)split);
			dims[d] = want > INT64_MAX ? INT64_MAX : (int64_t)want;
			if (w < wcap)
				w += (size_t)snprintf(what + w, wcap - w, "%sdimension %lld %lld -> %lld", w ? ", " : "",
						      (long long)d, (long long)s->dims[d], (long long)dims[d]);
		}
		pw_format(s, r, dims, m2m, true, buf, cap);
		break;
	}
	}
}

/* ---- Grouping ---- */

/* By content: equal shapes need not be one hash-consed object. */
static uint64_t pw_hash(const struct mem_buffer *b)
{
	char buf[512];
	size_t n = ir_shape_format(b->shape, true, buf, sizeof buf);
	if (n >= sizeof buf)
		n = sizeof buf - 1;
	uint64_t h = 1469598103934665603ULL;
	for (size_t k = 0; k < n; k++) {
		h ^= (unsigned char)buf[k];
		h *= 1099511628211ULL;
	}
	h ^= b->bytes;
	h *= 1099511628211ULL;
	return h ^ (h >> 29);
}

static void pw_group_add(struct pw_state *st, const struct mem_buffer *b, uint64_t waste, bool live)
{
	if ((st->ngroups + 1) * 2 > st->captable) {
		uint32_t cap = st->captable ? st->captable * 2 : 64;
		uint32_t *t = xcalloc(cap, sizeof *t);
		for (uint32_t g = 0; g < st->ngroups; g++) {
			uint32_t h = st->groups[g].hash & (cap - 1);
			while (t[h])
				h = (h + 1) & (cap - 1);
			t[h] = g + 1;
		}
		free(st->table);
		st->table = t;
		st->captable = cap;
	}
	uint32_t hash = (uint32_t)pw_hash(b);
	uint32_t h = hash & (st->captable - 1);
	for (; st->table[h]; h = (h + 1) & (st->captable - 1)) {
		struct pw_group *g = &st->groups[st->table[h] - 1];
		if (g->first->bytes == b->bytes && ir_shape_equal(g->first->shape, b->shape, true)) {
			if (g->count <= 3)
				g->more[g->count - 1] = b;
			g->count++;
			g->waste_total = size_add(g->waste_total, waste);
			g->peak_waste = size_add(g->peak_waste, live ? waste : 0);
			return;
		}
	}
	if (st->ngroups == st->capgroups) {
		st->capgroups = st->capgroups ? st->capgroups * 2 : 16;
		st->groups = xreallocarray(st->groups, st->capgroups, sizeof *st->groups);
	}
	struct pw_group *g = &st->groups[st->ngroups];
	memset(g, 0, sizeof *g);
	g->first = b;
	g->hash = hash;
	g->count = 1;
	g->waste_total = waste;
	g->peak_waste = live ? waste : 0;
	st->table[h] = ++st->ngroups;
}

/* ---- Findings ---- */

static void pw_report(struct pw_state *st, const struct pw_group *g)
{
	struct finding_sink *fs = st->ctx->findings;
	const struct mem_buffer *b = g->first;
	const struct hlo_shape *s = b->shape;
	uint64_t waste = b->bytes - b->unpadded;
	double ratio = (double)b->bytes / (double)b->unpadded;
	char pb[16], ub[16], wb[16], xb[16];
	size_human(b->bytes, pb);
	size_human(b->unpadded, ub);
	size_human(waste, wb);
	char shape[256];
	ir_shape_format(s, false, shape, sizeof shape);
	struct finding *f = finding_add(fs, PW_RULE, FINDING_WARNING, st->m, b->def, "%s pads %s of data to %s (%.1fx)",
					shape, ub, pb, ratio);
	finding_set_bytes(f, (int64_t)waste);
	char key[320];
	ir_shape_format(s, true, key, sizeof key);
	finding_set_key(fs, f, key);

	struct pw_array orig;
	int64_t local[PW_MAX_RANK];
	mem_buffer_dims(st->mm, b, local);
	pw_array_init(&orig, s, local);
	struct size_tile t;
	bool tiled = pw_tile(st, &orig, &t);
	if (mem_buffer_split(st->mm, b)) {
		char ps[256];
		pw_format(s, s->rank, local, orig.m2m, true, ps, sizeof ps);
		finding_note(fs, f, "per-device shape %s", ps);
	}
	if (tiled) {
		char ts[64];
		size_tile_format(&t, ts, sizeof ts);
		char pads[256];
		size_t w = 0;
		pads[0] = 0;
		for (uint32_t k = 0; k < t.rank && k < s->rank; k++) {
			int64_t d = orig.m2m[k];
			int64_t tile = t.dims[t.rank - 1 - k];
			if (tile <= 0)
				continue;
			uint64_t v = orig.dims[d] < 0 ? 0 : (uint64_t)orig.dims[d];
			uint64_t p = size_round_up(v, (uint64_t)tile);
			if (p != v && w < sizeof pads)
				w += (size_t)snprintf(pads + w, sizeof pads - w, "%s%s dimension %lld pads %llu to %llu",
						      w ? ", " : "", k ? "second-minor" : "minor", (long long)d,
						      (unsigned long long)v, (unsigned long long)p);
		}
		finding_fact(fs, f, "tile %s (%s)%s%s", ts,
			     size_has_tiles(s->layout) ? "from the layout" : "the target's default for an untiled array",
			     w ? ": " : "", pads);
	}
	if (b->bytes_max > b->bytes)
		finding_note(fs, f, "up to %s with the large second-minor default tiling", size_human(b->bytes_max, xb));

	uint64_t saved = 0;
	if (tiled && s->rank <= PW_MAX_RANK) {
		struct pw_plan p = { .fix = PW_FIX_NONE, .bytes = b->bytes };
		if (s->rank >= 2) {
			pw_best_layout(st, &orig, &t, b->unpadded, &p);
			pw_merge(st, &orig, &t, &p);
		}
		/* A fix must remove at least half the padding to be worth a
		 * transpose or reshape; otherwise align the dims. */
		if (p.fix == PW_FIX_NONE || size_sub(b->bytes, p.bytes) < waste / 2) {
			p.fix = PW_FIX_ROUND;
			p.bytes = b->bytes;
		}
		char sugg[512], what[256];
		pw_plan_text(b, mem_buffer_split(st->mm, b), &orig, &t, &p, sugg, sizeof sugg, what, sizeof what);
		saved = size_sub(b->bytes, p.bytes);
		finding_suggest_shape(fs, f, sugg);
		if (p.fix == PW_FIX_ROUND)
			finding_note(fs, f, "no layout or reshape removes it: %s (%s) takes the same memory, but the "
				     "padding becomes data", sugg, what);
		else
			finding_note(fs, f, "%s (%s) takes %s: saves %s per device", sugg, what,
				     size_human(p.bytes, pb), size_human(saved, wb));
	}
	finding_fix(fs, f, "fix in JAX: make the last dimension a multiple of 128 and the second-to-last a "
		     "multiple of 8 (16 for bf16, 32 for 8-bit types), e.g. pad a feature or vocabulary size, merge a "
		     "small trailing dimension into its neighbour (reshape [..., heads, 64] to [..., heads*64]), or "
		     "move a large dimension last (jnp.moveaxis, einsum output order)");
	if (g->count > 1) {
		char names[160];
		size_t w = 0;
		names[0] = 0;
		for (uint32_t k = 0; k + 1 < g->count && k < 3; k++)
			if (w < sizeof names)
				w += (size_t)snprintf(names + w, sizeof names - w, "%s%%%.*s", k ? ", " : "",
						      IR_NM(g->more[k]->def));
		finding_note(fs, f, "%u more buffer%s of this shape (%s%s) waste%s %s more", g->count - 1,
			     g->count > 2 ? "s" : "", names, g->count > 4 ? ", ..." : "", g->count > 2 ? "" : "s",
			     size_human(g->waste_total - waste, wb));
	}
	uint64_t peak_saved = 0;
	if (g->peak_waste && waste) {
		/* The fix saves the same share of each member's padding. */
		peak_saved = (uint64_t)((double)g->peak_waste * ((double)saved / (double)waste));
		if (peak_saved)
			finding_note(fs, f, "live at the estimated peak: the fix lowers it by up to %s",
				     size_human(peak_saved, xb));
	}
	finding_field_bytes(fs, f, "padded_bytes", b->bytes);
	finding_field_bytes(fs, f, "unpadded_bytes", b->unpadded);
	char ex[32];
	snprintf(ex, sizeof ex, "%.1fx", ratio);
	finding_field_string(fs, f, "expansion", ex);
	finding_field_int(fs, f, "buffers", g->count);
	finding_field_bytes(fs, f, "total_waste_bytes", g->waste_total);
	finding_field_bytes(fs, f, "bytes_saved", saved);
	finding_set_peak_saved(fs, f, (int64_t)peak_saved);
	st->found++;
}

static bool pw_has_fusion(const struct hlo_module *m)
{
	for (uint32_t c = 0; c < m->ncomps; c++)
		for (uint32_t k = 0; k < m->comps[c]->ninstrs; k++)
			if (m->comps[c]->instrs[k]->op == OP_FUSION)
				return true;
	return false;
}

static int pw_run(struct hlo_module *m, struct pass_context *ctx)
{
	if (!ctx->findings || !ctx->mem)
		return 0;
	const struct mem_model *mm = ctx->mem;
	const struct config *cfg = ctx->config;
	double ratio = config_double(cfg, CONFIG_OPT_PADDING_MIN_RATIO);
	int64_t min_bytes = config_int(cfg, CONFIG_OPT_PADDING_MIN_BYTES);
	double frac = config_double(cfg, CONFIG_OPT_PADDING_MIN_FRACTION);
	struct pw_state st = { .m = m, .ctx = ctx, .mm = mm, .scratch = &m->file->arena, .min_ratio = ratio };
	struct arena_mark mark = arena_mark(st.scratch);
	int unfused = m->is_scheduled ? 0 : -1;   /* -1: not looked at yet */
	struct peak_set pk;
	bool have_peak = false;
	for (uint32_t k = 0; k < mm->nbuffers; k++) {
		const struct mem_buffer *b = &mm->buffers[k];
		if ((b->flags & MEM_BUF_MERGED) || !b->unpadded || b->bytes <= b->unpadded ||
		    mem_space_class(b->memory_space) != MEM_SPACE_DEVICE || !ir_shape_is_array(b->shape))
			continue;
		if (!b->shape->rank || b->shape->rank > PW_MAX_RANK)
			continue;
		uint64_t waste = b->bytes - b->unpadded;
		if ((double)b->bytes < ratio * (double)b->unpadded)
			continue;
		if ((int64_t)waste < min_bytes && !(mm->hbm_bytes && (double)waste >= frac * (double)mm->hbm_bytes))
			continue;
		if (unfused < 0)
			unfused = !pw_has_fusion(m);
		if (unfused && b->kind != MEM_ARGUMENT && b->kind != MEM_OUTPUT && b->kind != MEM_WHILE_CARRIED)
			continue;
		if (!have_peak) {
			peak_init(&pk, mm);
			have_peak = true;
		}
		pw_group_add(&st, b, waste, peak_live(&pk, b));
	}
	for (uint32_t g = 0; g < st.ngroups; g++)
		pw_report(&st, &st.groups[g]);
	if (have_peak)
		peak_free(&pk);
	arena_release(st.scratch, mark);
	free(st.groups);
	free(st.table);
	return st.found;
}

const struct pass pass_padding_waste = {
	.name = PW_RULE,
	.summary = "arrays whose tiled (padded) size far exceeds their data, with an aligned shape or layout",
	.rewrites = false,
	.run = pw_run,
	.needs = PASS_NEEDS_BACKEND,
};
