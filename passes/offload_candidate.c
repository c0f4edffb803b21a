/* offload_candidate.c - rule offload-candidate: large entry parameters live
 * at the estimated peak whose move to pinned host memory lowers the total
 * allocation as XLA would schedule the copy (oc_window, alloc_total_whatif).
 * Other buffers gain nothing under that schedule (oc_eligible); buffers
 * already in host memory are skipped. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "alloc.h"
#include "config.h"
#include "finding.h"
#include "idle.h"
#include "mem.h"
#include "pass.h"
#include "peak.h"
#include "size.h"

#define OC_RULE pass_name_offload_candidate   /* its name, from passes.def */

/* The largest eligible buffers whose saving is computed (each costs one
 * allocation run, as long as the model's own). */
#define OC_MAX_CANDIDATES 8

struct oc_cand {
	const struct mem_buffer *b;
	const struct idle_use *u;
	struct alloc_whatif w;    /* where XLA would keep its device copy */
	uint32_t idle;            /* steps the device no longer holds it */
	uint64_t saved;
};

/* Only an entry parameter, neither donated nor returned, can gain:
 * XLA's latency-hiding scheduler starts a copy to the device as early as
 * it can (a host parameter's at the program start, an offloaded value's
 * right after the copy out) and the copy lives to the last read, while a
 * donated state or an output is written back at the end (measured in
 * corpora/xla offload_levers, docs/rules/offload-candidate.md).  So host
 * memory frees only what a buffer held after its last read, and only a
 * parameter's allocation outlives its reads. */
static bool oc_eligible(const struct mem_model *mm, const struct peak_set *pk, const struct mem_buffer *b,
			uint64_t min_bytes)
{
	/* The buffer's own fields first: its owner is its definer's, out of
	 * the caches on a large module. */
	return b->param >= 0 && !(b->flags & (MEM_BUF_MERGED | MEM_BUF_OUTPUT | MEM_BUF_ALIASED | MEM_BUF_DONATED)) &&
	       mem_space_class(b->memory_space) == MEM_SPACE_DEVICE && b->bytes >= min_bytes && b->bytes &&
	       mem_buffer_owner(b) == mm->module->entry && peak_live(pk, b);
}

/* The device copy XLA would make: from the program start to the last read. */
static void oc_window(const struct mem_model *mm, struct oc_cand *c)
{
	c->w.b = c->b;
	c->w.from = 0;
	c->w.to = c->u->last;
	c->idle = mm->nsteps - 1 - c->u->last;
}

/* Host-link bandwidth in bytes per second: the option, else the target's. */
static double oc_bandwidth(const struct mem_model *mm, const struct config *cfg)
{
	int64_t v = config_int(cfg, CONFIG_OPT_OFFLOAD_HOST_BANDWIDTH);
	if (v > 0)
		return (double)v;
	return mm->target ? (double)target_host_bandwidth(mm->target) : 0.0;
}

static void oc_report(struct pass_context *ctx, const struct oc_cand *c, double bw)
{
	struct finding_sink *fs = ctx->findings;
	const struct mem_model *mm = ctx->mem;
	const struct mem_buffer *b = c->b;
	const struct idle_use *u = c->u;
	enum finding_severity sev = pass_saving_severity(ctx, c->saved, CONFIG_OPT_OFFLOAD_WARN_FRACTION,
							 CONFIG_OPT_OFFLOAD_WARN_SAVING);
	char hb[16], sb[16], tb[16], mb[16], shape[256], from[320];
	size_human(b->bytes, hb);
	size_human(c->saved, sb);
	size_human(mm->total_bytes, tb);
	ir_shape_format(b->shape, true, shape, sizeof shape);
	/* Floored: "100%" would say it is never read. */
	int pct = (int)(100.0 * (double)c->idle / (double)mm->nsteps);
	struct finding *f = finding_add(fs, OC_RULE, sev, ctx->module, b->def,
					"parameter %lld (%s) is unread in the last %d%% of the program",
					(long long)b->param, hb, pct);
	finding_set_bytes(f, (int64_t)b->bytes);
	finding_fact(fs, f, "%s, argument %lld: in pinned host memory it saves %s per device (estimated total %s, "
		     "%s with it there)", shape, (long long)b->param, sb, tb,
		     size_human(size_sub(mm->total_bytes, c->saved), mb));
	finding_from(fs, ctx->module, u->last_user, from, sizeof from);
	finding_note(fs, f, "read %u time%s, last by %%%.*s%s at step %u of %u; the estimated peak comes later",
		     u->nuses, u->nuses == 1 ? "" : "s", IR_NM(u->last_user), from, u->last + 1, mm->nsteps);
	if (bw > 0)
		finding_note(fs, f, "moves %s to the device per execution, ~%.1f ms at %.0f GB/s host link "
			     "(--offload-host-bandwidth), overlapped with the first steps", hb,
			     1e3 * (double)b->bytes / bw, bw / 1e9);
	finding_fix(fs, f, "fix in JAX: give argument %lld a sharding with memory_kind='pinned_host' "
		     "(jax.jit in_shardings, or the array's NamedSharding) and jax.device_put it to the device "
		     "sharding where it is read; XLA copies it in at the start and frees the copy after the "
		     "last read", (long long)b->param);
	finding_suggest_offload(f, b->param);
	char key[64];
	snprintf(key, sizeof key, "parameter:%lld:%u", (long long)b->param, b->leaf);
	finding_set_key(fs, f, key);
	finding_set_leaf(fs, f, b->leaf);
	finding_field_string(fs, f, "buffer_kind", "parameter");
	finding_field_int(fs, f, "parameter", b->param);
	finding_field_bytes(fs, f, "bytes_saved", c->saved);
	finding_field_bytes(fs, f, "bytes_moved", b->bytes);
	finding_field_int(fs, f, "idle_steps", c->idle);
	finding_set_peak_saved(fs, f, (int64_t)c->saved);
}

static int oc_bigger(const void *pa, const void *pb)
{
	const struct mem_buffer *a = *(const struct mem_buffer *const *)pa, *b = *(const struct mem_buffer *const *)pb;
	if (a->bytes != b->bytes)
		return a->bytes > b->bytes ? -1 : 1;
	return a < b ? -1 : a > b;   /* one array: definition order */
}

static int oc_run(struct hlo_module *m, struct pass_context *ctx)
{
	const struct mem_model *mm = ctx->mem;
	/* TPU only: XLA:GPU keeps an offloaded parameter's device copy for
	 * the whole program (corpora/xla early_* twins on h100 are equal). */
	if (!ctx->findings || !mm || !m->entry || !mm->nsteps || !mm->total_bytes || !mm->target ||
	    mm->target->kind != TARGET_TPU)
		return 0;
	uint64_t min_saved = (uint64_t)config_int(ctx->config, CONFIG_OPT_OFFLOAD_MIN_BYTES);
	/* A share of the device, not of the peak: the peak moves when other
	 * suggestions are applied, and annotate --apply must reach a fixed
	 * point in one run. */
	double frac = config_double(ctx->config, CONFIG_OPT_OFFLOAD_MIN_FRACTION);
	uint64_t min_bytes = (uint64_t)(frac * (double)mm->hbm_bytes);
	if (min_bytes < min_saved)
		min_bytes = min_saved;
	struct peak_set pk;
	peak_init(&pk, mm);
	const struct mem_buffer **list = xmalloc((mm->nbuffers ? mm->nbuffers : 1) * sizeof *list);
	uint32_t n = 0;
	for (uint32_t k = 0; k < mm->nbuffers; k++)
		if (oc_eligible(mm, &pk, &mm->buffers[k], min_bytes))
			list[n++] = &mm->buffers[k];
	peak_free(&pk);
	if (!n) {
		free(list);
		return 0;
	}
	qsort(list, n, sizeof *list, oc_bigger);
	if (n > OC_MAX_CANDIDATES)
		n = OC_MAX_CANDIDATES;
	struct idle_use *uses = xmalloc(mm->nbuffers * sizeof *uses);
	idle_uses(mm, uses);
	uint32_t min_idle = (uint32_t)(config_double(ctx->config, CONFIG_OPT_OFFLOAD_MIN_IDLE) * (double)mm->nsteps);
	min_idle = min_idle ? min_idle : 1;
	double bw = oc_bandwidth(mm, ctx->config);
	for (uint32_t k = 0; k < n; k++) {
		struct oc_cand c = { .b = list[k], .u = &uses[mem_buffer_id(mm, list[k])] };
		if (!c.u->nuses)
			continue;
		oc_window(mm, &c);
		if (c.idle < min_idle)
			continue;
		uint64_t after = alloc_total_whatif(mm, &c.w);
		c.saved = size_sub(mm->total_live_bytes, after);
		if (c.saved && c.saved >= min_saved)
			oc_report(ctx, &c, bw);
	}
	free(uses);
	free(list);
	return 0;
}

const struct pass pass_offload_candidate = {
	.name = OC_RULE,
	.summary = "large device buffers idle at the peak that pinned host memory would take off it",
	.rewrites = false,
	.run = oc_run,
	.needs = PASS_NEEDS_TOTALS,
};
