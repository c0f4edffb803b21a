/* lint.c - the one pipeline of check and annotate (lint.h): models, the
 * rules through pass_run_all, then suppressions and the baseline.  It
 * prints nothing; reporting is the command's (report.c, annotate.c). */
#include "lint.h"
#include "xlastats.h"
#include <stdlib.h>
#include "pass.h"

bool lint_run(struct hlo_file *f, struct source *src, uint32_t file_index, const struct config *c,
	      struct diag_sink *d, struct finding_sink *sink, const struct lint_hooks *h)
{
	unsigned before = d->errors;
	uint32_t from = sink->n;
	sink->path = src->path;
	sink->src = src;
	sink->file_index = file_index;
	struct mem_options mo = {
		.target = c->target, .target_how = c->target_how, .hbm_bytes = (uint64_t)c->hbm_bytes,
		.partitioned = c->partitioned,
		.path = src->path, .pack_later = true,
	};
	struct xla_stats xs;
	if (xlastats_read(src->path, &xs)) {
		mo.xla_total_bytes = xlastats_total(&xs);
		xlastats_free(&xs);
	}
	const struct pass **run = xcalloc((size_t)c->npasses + 1, sizeof *run);
	bool ok = true;
	uint32_t k = 0;
	for (struct hlo_module *m = f->modules; m; m = m->next) {
		if (!m->valid)
			continue;
		if (h->loaded)
			h->loaded(h->ctx, m);
		struct mem_model *mm = mem_analyze(m, &mo, &f->arena);
		source_drop_all(src);   /* the attribute text the model read */
		sink->module_index = h->module(h->ctx, k++, m, mm);
		sink->module_first = sink->n;
		uint32_t n = 0;
		for (uint32_t p = 0; p < c->npasses; p++) {
			if (!c->enabled[p] || !pass_table[p]->run)
				continue;
			const char *why = pass_unmet(pass_table[p], mm);
			if (!why)
				run[n++] = pass_table[p];
			else if (h->not_run)
				h->not_run(h->ctx, sink->module_index, pass_table[p]->name, why);
		}
		run[n] = NULL;
		struct pass_context ctx = { .module = m, .diag = d, .findings = sink, .config = c, .mem = mm };
		if (pass_run_all(run, m, &ctx, false) < 0)
			ok = false;
		mem_settle(mm);   /* the commands read the totals once lint_run returns */
	}
	free(run);
	finding_sink_finish(sink, from);
	return ok && d->errors == before;
}

void lint_settle(struct config *c, struct finding_sink *sink, uint32_t from)
{
	config_apply_suppressions(c, sink, from);
	config_baseline_apply(c, sink, from);
}

bool lint_file(struct hlo_file *f, struct source *src, uint32_t file_index, struct config *c,
	       struct diag_sink *d, struct finding_sink *sink, const struct lint_hooks *h)
{
	uint32_t from = sink->n;
	bool ok = lint_run(f, src, file_index, c, d, sink, h);
	lint_settle(c, sink, from);
	return ok;
}

bool lint_wants_folder(const struct config *c)
{
	for (uint32_t p = 0; p < c->npasses; p++)
		if (c->enabled[p] && pass_table[p]->folder)
			return true;
	return false;
}

bool lint_folder(const struct config *c, const char *folder, struct compile_sig *const *sigs, uint32_t n,
		 struct finding_sink *sink)
{
	uint32_t from = sink->n;
	struct folder_context fc = { folder, sigs, n, sink, c };
	bool ok = true;
	for (uint32_t p = 0; p < c->npasses; p++)
		if (c->enabled[p] && pass_table[p]->folder && pass_table[p]->folder(&fc) < 0)
			ok = false;
	finding_sink_finish(sink, from);
	return ok;
}
