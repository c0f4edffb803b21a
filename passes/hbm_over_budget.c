/* hbm_over_budget.c - rule hbm-over-budget (last in passes.def): the
 * estimated total allocation exceeds the device's HBM; lists the largest
 * buffers live at the liveness peak and the earlier findings'
 * peak_saved_bytes (upper bounds).  Silent when the capacity is unknown;
 * it changes nothing in the model. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "config.h"
#include "finding.h"
#include "flow.h"
#include "mem.h"
#include "pass.h"
#include "peak.h"
#include "size.h"

#define HB_RULE pass_name_hbm_over_budget   /* its name, from passes.def */

#define HB_FIXES 8

/* Offloads to host requested but not applied (the compiler applies them
 * when it optimizes the module). */
static uint32_t hb_pending_offloads(const struct hlo_module *m)
{
	uint32_t n = 0;
	for (uint32_t c = 0; c < m->ncomps; c++)
		for (uint32_t k = 0; k < m->comps[c]->ninstrs; k++)
			n += flow_placement(m->file, m->comps[c]->instrs[k]) == FLOW_PLACE_HOST;
	return n;
}

struct hb_fix {
	const struct finding *f;
	uint64_t saved;
};

static int hb_fix_cmp(const void *pa, const void *pb)
{
	const struct hb_fix *a = pa, *b = pb;
	if (a->saved != b->saved)
		return a->saved > b->saved ? -1 : 1;
	return a->f->order < b->f->order ? -1 : a->f->order > b->f->order;
}

/* Notes: the largest buffers live at the liveness peak. */
static void hb_live_notes(struct finding_sink *fs, struct finding *f, const struct mem_model *mm,
			  const struct config *cfg)
{
	struct peak_set pk;
	peak_init(&pk, mm);
	int64_t top = config_int(cfg, CONFIG_OPT_HBM_BUDGET_TOP);
	uint32_t want = top <= 0 ? 0 : top > 100 ? 100 : (uint32_t)top;
	if (want && pk.nlive) {
		const struct mem_buffer **list = xmalloc(want * sizeof *list);
		uint32_t n = peak_top(&pk, list, want);
		for (uint32_t k = 0; k < n; k++) {
			const struct mem_buffer *b = list[k];
			char shape[256], sb[16], from[320] = "";
			ir_shape_format(b->shape, true, shape, sizeof shape);
			finding_from(fs, mm->module, b->def, from, sizeof from);
			(k ? finding_note : finding_fact)(fs, f, "live at the peak #%u: %s %s %%%.*s (%s, %.*s)%s", k + 1,
				     size_human(b->bytes, sb),
				     shape, IR_NM(b->def), mem_kind_name((enum mem_kind)b->kind),
				     IR_CNM(mem_buffer_owner(b)), from);
		}
		free(list);
	}
	peak_free(&pk);

}

/* Notes: what the earlier rules found that is live at the peak, and
 * whether fixing it would cover the excess.  Returns their saving; *nfound
 * gets how many there are. */
static uint64_t hb_fix_notes(struct finding_sink *fs, struct finding *f, uint64_t excess, const char *eb,
			     uint32_t *nfound)
{
	uint32_t nfix = 0, capfix = 16;
	struct hb_fix *fix = xmalloc(capfix * sizeof *fix);
	uint64_t total = 0;
	for (uint32_t k = fs->module_first; k < fs->n; k++) {
		const struct finding *g = fs->items[k];
		if (g == f)
			continue;
		int64_t s = g->peak_saved;
		if (s <= 0)
			continue;
		if (nfix == capfix) {
			capfix *= 2;
			fix = xreallocarray(fix, capfix, sizeof *fix);
		}
		fix[nfix].f = g;
		fix[nfix++].saved = (uint64_t)s;
		total = size_add(total, (uint64_t)s);
	}
	qsort(fix, nfix, sizeof *fix, hb_fix_cmp);
	uint32_t alone = 0;
	for (uint32_t k = 0; k < nfix && k < HB_FIXES; k++) {
		const struct finding *g = fix[k].f;
		char sb[16];
		bool enough = fix[k].saved >= excess;
		alone += enough;
		finding_note(fs, f, "%s at %%%s (line %llu) would lower the peak by up to %s%s", g->rule, g->instruction,
			     (unsigned long long)g->line, size_human(fix[k].saved, sb),
			     enough ? ": enough on its own" : "");
	}
	if (nfix > HB_FIXES)
		finding_note(fs, f, "and %u more findings", nfix - HB_FIXES);
	if (nfix) {
		char sb[16];
		if (total >= excess)
			finding_fix(fs, f, "the %u findings of this module live at the peak lower it by up to %s together: enough to fit%s", nfix,
				     size_human(total, sb), alone ? "" : " only if several are fixed");
		else
			finding_fix(fs, f, "the findings of this module live at the peak lower it by at most %s together, short of the %s "
				     "needed: also shard, rematerialize (jax.checkpoint) or offload more", size_human(total, sb),
				     eb);
	} else {
		finding_fix(fs, f, "no other finding of this module is live at the peak: shard the largest arrays over "
			     "more devices, rematerialize activations (jax.checkpoint) or offload them to host memory");
	}
	free(fix);
	*nfound = nfix;
	return total;
}

static int hb_run(struct hlo_module *m, struct pass_context *ctx)
{
	if (!ctx->findings || !ctx->mem)
		return 0;
	const struct mem_model *mm = ctx->mem;
	struct finding_sink *fs = ctx->findings;
	uint64_t hbm = mm->hbm_bytes;
	/* The budget holds XLA's total allocation (alloc.h), what an
	 * out-of-memory report calls "used"; the liveness peak says where.
	 * XLA's own figure, when its buffer assignment sits beside the dump,
	 * decides instead of the estimate. */
	uint64_t total = mm->xla_total_bytes ? mm->xla_total_bytes : mm->total_bytes;
	uint64_t total_max = mm->xla_total_bytes ? total : mm->total_bytes_max;
	if (!hbm || (total <= hbm && total_max <= hbm))
		return 0;
	bool over = total > hbm;
	char pb[16], hb[16], eb[16], xb[16];
	size_human(total, pb);
	size_human(hbm, hb);
	uint64_t excess = over ? total - hbm : total_max - hbm;
	size_human(excess, eb);
	char dev[96];
	if (mm->hbm_given)
		snprintf(dev, sizeof dev, "--hbm %s", hb);
	else
		snprintf(dev, sizeof dev, "%s's %s", mm->target->name, hb);
	struct finding *f;
	/* A module not fused or scheduled yet is sized as written: an upper
	 * bound, so exceeding the budget is a warning, never an error. */
	if (over)
		f = finding_add(fs, HB_RULE, mm->unoptimized ? FINDING_WARNING : FINDING_ERROR, m, mm->peak_at,
				"%s memory %s exceeds %s by %s", mm->xla_total_bytes ? "XLA's" : "estimated", pb, dev, eb);
	else
		f = finding_add(fs, HB_RULE, FINDING_WARNING, m, mm->peak_at, "memory %s fits %s; %s with large "
				"default tiles", pb, dev, size_human(mm->total_bytes_max, xb));
	if (over)
		finding_note(fs, f, "the total allocation is %.1f%% of the device's memory%s", 100.0 * (double)total /
			     (double)hbm, mm->unoptimized ? ", before fusion and scheduling" : "");
	finding_set_bytes(f, (int64_t)total);
	finding_set_key(fs, f, "peak");
	if (mm->xla_total_bytes)
		finding_note(fs, f, "the figure is XLA's own buffer assignment, found beside the dump; hlolint estimates %s",
			     size_human(mm->total_bytes, xb));
	if (mm->unoptimized)
		finding_note(fs, f, "the module is not fused or scheduled yet (no schedule, no fusion): the estimate is an "
			     "upper bound; check the after-optimizations dump");
	char ab[16], ob[16], tb[16], lb[16], kb[16];
	finding_note(fs, f, "arguments %s, outputs %s (%s shared with arguments), temporaries %s in XLA's heap",
		     size_human(mm->argument_bytes, ab), size_human(mm->output_bytes, ob), size_human(mm->alias_bytes, lb),
		     size_human(mm->heap_bytes, tb));
	if (mm->peak_at)
		finding_note(fs, f, "the liveness peak (%s) is at %%%.*s in computation %.*s",
			     size_human(mm->peak_bytes, kb), IR_NM(mm->peak_at), IR_CNM(mm->peak_at->comp));

	if (!m->is_scheduled) {
		uint32_t n = hb_pending_offloads(m);
		if (n)
			finding_note(fs, f, "%u offload%s to host (MoveToHost, annotate_device_placement) %s not applied yet "
				     "in this unoptimized module: the estimate keeps those values in device memory", n,
				     n == 1 ? "" : "s", n == 1 ? "is" : "are");
	}
	hb_live_notes(fs, f, mm, ctx->config);
	uint32_t nfix;
	uint64_t fixable = hb_fix_notes(fs, f, excess, eb, &nfix);
	finding_field_bytes(fs, f, "total_bytes", mm->total_bytes);
	finding_field_bytes(fs, f, "total_bytes_max", mm->total_bytes_max);
	if (mm->xla_total_bytes)
		finding_field_bytes(fs, f, "xla_total_bytes", mm->xla_total_bytes);
	finding_field_bytes(fs, f, "peak_bytes", mm->peak_bytes);
	finding_field_bytes(fs, f, "peak_bytes_max", mm->peak_bytes_max);
	finding_field_bytes(fs, f, "hbm_bytes", hbm);
	finding_field_bytes(fs, f, "excess_bytes", excess);
	finding_field_bytes(fs, f, "fixable_bytes", fixable);
	finding_field_bool(fs, f, "fixable", nfix && fixable >= excess);
	return 1;
}

const struct pass pass_hbm_over_budget = {
	.name = HB_RULE,
	.summary = "the estimated peak of device memory exceeds the target's HBM, with what would bring it under",
	.rewrites = false,
	.run = hb_run,
	.needs = PASS_NEEDS_CAPACITY | PASS_NEEDS_TOTALS,
};
