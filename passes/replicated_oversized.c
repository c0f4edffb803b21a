/* replicated_oversized.c - rule replicated-oversized: large arrays every
 * device of a multi-device program holds whole (replicated, or unannotated
 * in an unpartitioned module) or one device holds ({maximal}), with a
 * sharding that splits them.  Partitioned modules: parameters, outputs and
 * constants only.  Not host transfers, not {manual} (already local). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "alias.h"
#include "attr.h"
#include "config.h"
#include "finding.h"
#include "mem.h"
#include "pass.h"
#include "peak.h"
#include "sharding.h"
#include "size.h"

#define RO_RULE pass_name_replicated_oversized   /* its name, from passes.def */

enum ro_why {
	RO_REPLICATED,      /* sharding={replicated} or a tiling that splits nothing */
	RO_MAXIMAL,         /* {maximal device=K}: whole on one device */
	RO_UNANNOTATED,     /* no sharding in an unpartitioned SPMD module */
};

/* One array that may be reported. */
struct ro_cand {
	const struct hlo_instr *at;     /* where the finding goes */
	const struct hlo_instr *holder; /* instruction whose leaf holds it (the root for outputs) */
	uint32_t leaf;                  /* leaf of holder */
	int64_t output;                 /* output index, -1 when not an output */
	enum ro_why why;
	int64_t device;                 /* RO_MAXIMAL */
	uint64_t bytes;                 /* padded per-device bytes */
};

struct ro_state {
	struct hlo_module *m;
	struct pass_context *ctx;
	const struct mem_model *mm;
	struct arena *scratch;
	struct arena alias_keep;        /* al's tables: scratch is released under them */
	struct alias_state al;          /* leaf shapes of tuples */
	struct ro_cand *cands;
	uint32_t ncands, cap;
	int64_t ndev;                   /* devices of the program */
	uint64_t min_bytes;             /* smallest size that can be reported */
	bool partitioned;
	bool params_propagate;          /* allow_spmd_sharding_propagation_to_parameters */
	int found;
};

/* ---- Shapes and sizes ---- */

static uint64_t ro_bytes(const struct ro_state *st, const struct hlo_shape *s, const int64_t *split)
{
	uint64_t p, px, u;
	if (!s || !ir_shape_is_array(s))
		return 0;
	mem_array_size(st->mm, s, split, &p, &px, &u);
	return p;
}

/* ---- Shardings ---- */

/* What a leaf sharding does to the whole array: RO_REPLICATED when every
 * device holds all of it, RO_MAXIMAL for one device, -1 otherwise
 * (split, manual, unreduced, unknown). */
static int ro_leaf_kind(const struct hlo_sharding *s, uint32_t rank)
{
	switch (s->kind) {
	case SHARDING_REPLICATED:
		return RO_REPLICATED;
	case SHARDING_MAXIMAL:
		return RO_MAXIMAL;
	case SHARDING_TILED:
		for (uint32_t k = 0; k < s->nsubgroups; k++)
			if (s->subgroups[k] != SUBGROUP_REPLICATED)
				return -1;
		for (uint32_t d = 0; d < rank; d++)
			if (sharding_tile_count(s, d) > 1)
				return -1;
		return RO_REPLICATED;
	case SHARDING_NAMED:
		if (s->mesh.maximal)
			return RO_MAXIMAL;
		if (s->whole == NAMED_REPLICATED)
			return RO_REPLICATED;
		if (s->whole != NAMED_DIMS || s->manual.n || s->unreduced.n)
			return -1;
		for (uint32_t d = 0; d < rank; d++)
			if (sharding_tile_count(s, d) > 1)
				return -1;
		return RO_REPLICATED;
	default:
		return -1;
	}
}

static bool ro_is_host_transfer(const struct hlo_module *m, const struct hlo_instr *i)
{
	if (i->op == OP_SEND || i->op == OP_RECV || i->op == OP_OUTFEED || i->op == OP_INFEED)
		return true;
	if (i->op != OP_CUSTOM_CALL)
		return false;
	size_t n;
	const char *t = attr_plain(m->file, i, ATTR_CUSTOM_CALL_TARGET, &n);
	static const char cb[] = "_callback";
	return t && n >= sizeof cb - 1 && !memcmp(t + n - (sizeof cb - 1), cb, sizeof cb - 1);
}

static void ro_add(struct ro_state *st, const struct ro_cand *c)
{
	if (c->bytes < st->min_bytes || !c->bytes)
		return;
	if (st->ncands == st->cap) {
		st->cap = st->cap ? st->cap * 2 : 16;
		st->cands = xreallocarray(st->cands, st->cap, sizeof *st->cands);
	}
	st->cands[st->ncands++] = *c;
}

/* Candidates of instruction i with sharding sh (leaf by leaf). */
static void ro_sharded(struct ro_state *st, const struct hlo_instr *i, const struct hlo_sharding *sh)
{
	bool root = i->comp == st->m->entry && ir_is_root(i);
	bool tuple = i->shape && i->shape->type == PT_TUPLE;
	if (tuple && !root && !(i->op == OP_PARAMETER && i->comp == st->m->entry))
		return;    /* the leaves come from instructions judged on their own */
	uint32_t nl = ir_leaf_count(i->shape);
	for (uint32_t j = 0; j < nl; j++) {
		const struct hlo_sharding *e = sh;
		if (sh->kind == SHARDING_TUPLE)
			e = j < sh->nelems ? &sh->elems[j] : NULL;
		else if (tuple)
			e = sh;   /* one sharding for every leaf */
		const struct hlo_shape *s = alias_leaf_shape(&st->al, i->shape, j);
		if (!e || !s || !ir_shape_is_array(s) || !s->rank)
			continue;
		int kind = ro_leaf_kind(e, s->rank);
		if (kind < 0)
			continue;
		struct ro_cand c = { .at = i, .holder = i, .leaf = j, .output = -1, .why = (enum ro_why)kind,
				     .device = kind == RO_MAXIMAL ? (e->kind == SHARDING_NAMED ? e->mesh.device : e->device) : -1,
				     .bytes = ro_bytes(st, s, NULL) };
		if (root) {
			c.output = j;
			/* Report an output at the instruction computing it. */
			if (i->op == OP_TUPLE && j < i->noperands && ir_operands(i)[j].instr &&
			    ir_shape_is_array(ir_operands(i)[j].instr->shape) && nl == i->noperands)
				c.at = ir_operands(i)[j].instr;
			else if (tuple)
				continue;
		}
		ro_add(st, &c);
	}
}

/* Candidates are sharded instructions, and in an unpartitioned module
 * constants and the entry's parameters. */
static bool ro_want(uint32_t contains, bool entry, void *arg)
{
	const struct ro_state *st = arg;
	return entry || (contains & (IR_CONTAINS_SHARDING | (st->partitioned ? 0 : IR_CONTAINS_CONSTANT)));
}

static enum walk_result ro_instr(struct hlo_instr *i, void *arg)
{
	struct ro_state *st = arg;
	const struct hlo_module *m = st->m;
	bool entry = i->comp == m->entry;
	bool param = i->op == OP_PARAMETER && entry;
	bool root = entry && ir_is_root(i);
	const struct hlo_attr *at = ir_attr(i, ATTR_SHARDING);
	if (!at) {
		/* Unannotated parameters and constants of an unpartitioned
		 * module are replicated by the partitioner. */
		if (!st->partitioned && ((param && !st->params_propagate) || i->op == OP_CONSTANT) &&
		    ir_shape_is_array(i->shape) && i->shape->rank) {
			struct ro_cand c = { .at = i, .holder = i, .output = -1, .why = RO_UNANNOTATED, .device = -1,
					     .bytes = ro_bytes(st, i->shape, NULL) };
			ro_add(st, &c);
		}
		return WALK_CONTINUE;
	}
	struct arena_mark mark = arena_mark(st->scratch);
	struct hlo_sharding sh;
	if (sharding_of(m->file, i, st->scratch, &sh, NULL)) {
		int64_t n = sharding_num_devices(&sh);
		if (n > st->ndev)
			st->ndev = n;
		if ((!st->partitioned || param || root || i->op == OP_CONSTANT) && !ro_is_host_transfer(m, i))
			ro_sharded(st, i, &sh);
	}
	arena_release(st->scratch, mark);
	return WALK_CONTINUE;
}

/* ---- The suggestion ---- */

/* Tiled dimension of a user's sharding that splits a dim of shape s, or
 * -1.  Users with the same dims (elementwise ops, copies, Sharding custom
 * calls) are the only ones whose dims line up with s. */
static int64_t ro_user_dim(struct ro_state *st, const struct hlo_instr *i, const struct hlo_shape *s,
			   const struct hlo_instr **who)
{
	int64_t best = -1;
	for (uint32_t u = 0; u < i->nusers && best < 0; u++) {
		const struct hlo_instr *x = ir_user(i, u);
		if (!ir_shape_is_array(x->shape) || x->shape->rank != s->rank ||
		    memcmp(x->shape->dims, s->dims, s->rank * sizeof *s->dims) || !ir_attr(x, ATTR_SHARDING))
			continue;
		struct arena_mark mark = arena_mark(st->scratch);
		struct hlo_sharding sh;
		if (sharding_of(st->m->file, x, st->scratch, &sh, NULL) &&
		    (sh.kind == SHARDING_TILED || sh.kind == SHARDING_NAMED)) {
			int64_t most = 1;
			for (uint32_t d = 0; d < s->rank; d++) {
				int64_t n = sharding_tile_count(&sh, d);
				if (n > most) {
					most = n;
					best = d;
				}
			}
			if (best >= 0)
				*who = x;
		}
		arena_release(st->scratch, mark);
	}
	return best;
}

struct ro_split {
	int64_t dim;        /* -1: none found */
	int64_t ways;       /* devices the dim is split over (divides ndev) */
	uint64_t bytes;     /* per-device bytes after the split */
	const struct hlo_instr *user;  /* the user whose sharding chose dim, or NULL */
};

static uint64_t ro_split_bytes(struct ro_state *st, const struct hlo_shape *s, uint32_t dim, int64_t ways)
{
	int64_t split[64];
	if (s->rank > 64)
		return 0;
	for (uint32_t d = 0; d < s->rank; d++)
		split[d] = d == dim ? ways : 1;
	return ro_bytes(st, s, split);
}

/* The dimension to shard: the users' when the device count divides it,
 * else over the largest divisor of ndev that divides some dim, the dim
 * whose split pads least (then the largest, then the most major). */
static void ro_choose(struct ro_state *st, const struct ro_cand *c, const struct hlo_shape *s, struct ro_split *out)
{
	memset(out, 0, sizeof *out);
	out->dim = -1;
	if (s->rank > 64)
		return;
	const struct hlo_instr *who = NULL;
	int64_t ud = ro_user_dim(st, c->at, s, &who);
	if (ud >= 0 && s->dims[ud] > 0 && s->dims[ud] % st->ndev == 0) {
		out->dim = ud;
		out->ways = st->ndev;
		out->bytes = ro_split_bytes(st, s, (uint32_t)ud, st->ndev);
		out->user = who;
		return;
	}
	for (int64_t f = st->ndev; f >= 2 && out->dim < 0; f--) {
		if (st->ndev % f)
			continue;
		for (uint32_t d = 0; d < s->rank; d++) {
			if (s->dims[d] < f || s->dims[d] % f)
				continue;
			uint64_t b = ro_split_bytes(st, s, d, f);
			/* Least padding; then the larger dim (still divisible
			 * on more devices); then the most major. */
			if (out->dim < 0 || b < out->bytes || (b == out->bytes && s->dims[d] > s->dims[out->dim])) {
				out->dim = d;
				out->ways = f;
				out->bytes = b;
			}
		}
	}
}

/* {devices=[1,8]<=[8]} or, over fewer devices, {devices=[4,1,2]<=[8]
 * last_tile_dim_replicate}. */
static void ro_format(const struct ro_state *st, const struct hlo_shape *s, const struct ro_split *sp, char *buf,
		      size_t cap)
{
	size_t n = (size_t)snprintf(buf, cap, "{devices=[");
	for (uint32_t d = 0; d < s->rank && n < cap; d++)
		n += (size_t)snprintf(buf + n, cap - n, "%s%lld", d ? "," : "",
				      (long long)(d == sp->dim ? sp->ways : 1));
	if (n < cap && sp->ways < st->ndev)
		n += (size_t)snprintf(buf + n, cap - n, ",%lld", (long long)(st->ndev / sp->ways));
	if (n < cap)
		n += (size_t)snprintf(buf + n, cap - n, "]<=[%lld]%s}", (long long)st->ndev,
				      sp->ways < st->ndev ? " last_tile_dim_replicate" : "");
	if (n >= cap && cap)
		buf[cap - 1] = 0;
}

/* P(None, 'axis') with the axis at dim. */
static void ro_pspec(const struct hlo_shape *s, int64_t dim, char *buf, size_t cap)
{
	size_t n = (size_t)snprintf(buf, cap, "P(");
	for (uint32_t d = 0; d < s->rank && n < cap; d++)
		n += (size_t)snprintf(buf + n, cap - n, "%s%s", d ? ", " : "", d == dim ? "'axis'" : "None");
	if (n < cap)
		snprintf(buf + n, cap - n, ")");
}

/* ---- Findings ---- */

static const char *ro_why_text(enum ro_why w)
{
	switch (w) {
	case RO_REPLICATED: return "replicated";
	case RO_MAXIMAL: return "maximal";
	default: return "none";
	}
}

static void ro_report(struct ro_state *st, const struct ro_cand *c, const struct peak_set *pk)
{
	struct pass_context *ctx = st->ctx;
	const struct config *cfg = ctx->config;
	struct finding_sink *fs = ctx->findings;
	const struct mem_model *mm = st->mm;
	uint64_t hbm = mm->hbm_bytes;
	double err_frac = config_double(cfg, CONFIG_OPT_REPLICATED_ERROR_FRACTION);
	double min_frac = config_double(cfg, CONFIG_OPT_REPLICATED_MIN_FRACTION);
	int64_t min_bytes = config_int(cfg, CONFIG_OPT_REPLICATED_MIN_BYTES);
	bool by_bytes = (int64_t)c->bytes >= min_bytes;
	bool by_frac = hbm && (double)c->bytes >= min_frac * (double)hbm;
	if (!by_bytes && !by_frac)
		return;
	enum finding_severity sev = hbm && (double)c->bytes >= err_frac * (double)hbm ? FINDING_ERROR : FINDING_WARNING;
	const struct hlo_shape *s = alias_leaf_shape(&st->al, c->holder->shape, c->leaf);
	char hb[16], sb[16], pb[16];
	size_human(c->bytes, hb);
	char what[64];
	if (c->output >= 0)
		snprintf(what, sizeof what, "output {%lld} of %s", (long long)c->output, hb);
	else if (c->at->op == OP_PARAMETER && c->at->comp == st->m->entry)
		snprintf(what, sizeof what, "parameter %lld of %s", (long long)c->at->number, hb);
	else if (c->at->op == OP_CONSTANT)
		snprintf(what, sizeof what, "constant of %s", hb);
	else
		snprintf(what, sizeof what, "array of %s", hb);
	struct finding *f;
	if (c->why == RO_MAXIMAL)
		f = finding_add(fs, RO_RULE, sev, st->m, c->at, "%s is held whole on device %lld of %lld", what,
				(long long)c->device, (long long)st->ndev);
	else if (c->why == RO_UNANNOTATED)
		f = finding_add(fs, RO_RULE, sev, st->m, c->at, "%s is unsharded: all %lld devices hold it", what,
				(long long)st->ndev);
	else
		f = finding_add(fs, RO_RULE, sev, st->m, c->at, "%s is replicated on all %lld devices", what,
				(long long)st->ndev);
	if (c->why == RO_MAXIMAL)
		finding_fact(fs, f, "sharding={maximal device=%lld}: one device holds all of it", (long long)c->device);
	else if (c->why == RO_UNANNOTATED)
		finding_fact(fs, f, "no sharding in an unpartitioned %lld-device SPMD module: every device holds all of it",
			     (long long)st->ndev);
	finding_set_bytes(f, (int64_t)c->bytes);
	char key[320];
	ir_shape_format(s, false, key, sizeof key);
	finding_set_key(fs, f, key);
	if (c->at != c->holder || f->shape[0] == '(') {
		char shape[256];
		ir_shape_format(s, true, shape, sizeof shape);
		finding_note(fs, f, "the array: %s", shape);
	}
	if (hbm)
		finding_note(fs, f, "%s per device is %.1f%% of the %s of device memory", hb,
			     100.0 * (double)c->bytes / (double)hbm, size_human(hbm, pb));
	struct ro_split sp;
	ro_choose(st, c, s, &sp);
	uint64_t saved = sp.dim >= 0 ? size_sub(c->bytes, sp.bytes) : 0;
	const struct mem_buffer *b = mem_buffer_at(mm, c->holder, c->leaf);
	uint64_t peak_saved = peak_live(pk, b) ? saved : 0;
	if (sp.dim >= 0) {
		char shard[160], ps[160];
		ro_format(st, s, &sp, shard, sizeof shard);
		ro_pspec(s, sp.dim, ps, sizeof ps);
		finding_suggest_sharding(fs, f, shard);
		if (sp.user)
			finding_note(fs, f, "its user %%%.*s is already sharded on dimension %lld", IR_NM(sp.user), (long long)sp.dim);
		finding_fact(fs, f, "sharding dimension %lld (%lld) %lld ways, sharding=%s, leaves %s per device: "
			     "saves %s per device", (long long)sp.dim, (long long)s->dims[sp.dim], (long long)sp.ways, shard,
			     size_human(sp.bytes, pb), size_human(saved, sb));
		finding_fix(fs, f, "fix in JAX: give it a NamedSharding, e.g. jax.device_put(x, NamedSharding(mesh, %s)) or "
			     "jit(..., in_shardings=...), or jax.lax.with_sharding_constraint(x, NamedSharding(mesh, %s)), "
			     "with 'axis' a mesh axis of size %lld; a mesh axis that does not divide the dimension "
			     "leaves the array replicated", ps, ps, (long long)sp.ways);
	} else {
		finding_fix(fs, f, "no dimension is divisible by a divisor of the %lld devices: pad or reshape one "
			     "so that a mesh axis divides it", (long long)st->ndev);
	}
	if (peak_saved)
		finding_note(fs, f, "it is live at the estimated peak: sharding it lowers the peak by up to %s",
			     size_human(peak_saved, sb));
	finding_field_string(fs, f, "current_sharding", ro_why_text(c->why));
	finding_field_int(fs, f, "devices", st->ndev);
	if (c->holder->shape && c->holder->shape->type == PT_TUPLE)
		finding_set_leaf(fs, f, c->leaf);  /* annotate --apply edits this element */
	if (c->output >= 0)
		finding_set_output_index(fs, f, c->output);
	else
		finding_field_null(fs, f, "output_index");
	finding_field_bytes(fs, f, "bytes_saved", saved);
	finding_set_peak_saved(fs, f, (int64_t)peak_saved);
	st->found++;
}

/* allow_spmd_sharding_propagation_to_parameters: any true lets the
 * partitioner choose shardings for unannotated parameters. */
static bool ro_params_propagate(struct hlo_module *m, struct arena *a)
{
	const struct hlo_attr *at = ir_module_attr(m, ATTR_ALLOW_SPMD_PARAMS);
	if (!at)
		return false;
	struct arena_mark mark = arena_mark(a);
	struct hlo_value *v = attr_parse(m->file, at, a, NULL);
	struct attr_bools bv;
	bool any = false;
	if (v && attr_bools(v, a, &bv, NULL))
		for (uint32_t k = 0; k < bv.n; k++)
			any |= bv.v[k];
	arena_release(a, mark);
	return any;
}

static int ro_run(struct hlo_module *m, struct pass_context *ctx)
{
	if (!ctx->findings || !ctx->mem)
		return 0;
	const struct mem_model *mm = ctx->mem;
	struct ro_state st = { .m = m, .ctx = ctx, .mm = mm, .scratch = &m->file->arena,
			       .ndev = m->num_partitions, .partitioned = mm->partitioned };
	/* The smallest array any threshold could report. */
	uint64_t lo = (uint64_t)config_int(ctx->config, CONFIG_OPT_REPLICATED_MIN_BYTES);
	double frac = config_double(ctx->config, CONFIG_OPT_REPLICATED_MIN_FRACTION);
	if (mm->hbm_bytes && frac * (double)mm->hbm_bytes < (double)lo)
		lo = (uint64_t)(frac * (double)mm->hbm_bytes);
	st.min_bytes = lo;
	st.params_propagate = ro_params_propagate(m, st.scratch);
	arena_init(&st.alias_keep);
	alias_init(&st.al, m->file, &st.alias_keep);
	static const struct ir_visitor v = { .want = ro_want, .instr = ro_instr };
	ir_walk(m, &v, &st);
	if (st.ndev > 1 && st.ncands) {
		struct peak_set pk;
		peak_init(&pk, mm);
		/* One finding per buffer: a Sharding custom call, a donated
		 * output or a pass-through names the same buffer. */
		uint8_t *seen = xcalloc(mm->nbuffers ? mm->nbuffers : 1, 1);
		for (uint32_t k = 0; k < st.ncands; k++) {
			const struct ro_cand *c = &st.cands[k];
			if (c->why == RO_UNANNOTATED && st.partitioned)
				continue;
			const struct mem_buffer *b = mem_buffer_at(mm, c->holder, c->leaf);
			if (b) {
				uint32_t id = (uint32_t)(b - mm->buffers);
				if (seen[id])
					continue;
				seen[id] = 1;
				/* An output in a parameter's buffer: the parameter's finding covers it. */
				if (c->output >= 0 && b->param >= 0)
					continue;
			}
			ro_report(&st, c, &pk);
		}
		free(seen);
		peak_free(&pk);
	}
	free(st.cands);
	alias_free(&st.al);
	arena_free(&st.alias_keep);
	return st.found;
}

const struct pass pass_replicated_oversized = {
	.name = RO_RULE,
	.summary = "large arrays held whole on every device (replicated) or on one (maximal) of a multi-device program",
	.rewrites = false,
	.run = ro_run,
};
