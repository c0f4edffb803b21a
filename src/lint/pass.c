/* pass.c - the pass table (expanded from passes/passes.def), the plain
 * pipeline runner (run, verify if asked, stop on a fatal result) and what
 * several rules ask of the model alike (how severe a saving is). */
#include "pass.h"
#include <string.h>
#include "config.h"
#include "finding.h"
#include "mem.h"
#include "target.h"
#include "timing.h"
#include "verify.h"

#define PASS(c, name) extern const struct pass pass_##c;
#include "passes.def"
#undef PASS

#define PASS(c, name) const char pass_name_##c[] = name;
#include "passes.def"
#undef PASS

const struct pass *const pass_table[] = {
#define PASS(c, name) &pass_##c,
#include "passes.def"
#undef PASS
	NULL
};

const struct pass *pass_find(const char *name)
{
	for (const struct pass *const *p = pass_table; *p; p++)
		if (!strcmp((*p)->name, name))
			return *p;
	return NULL;
}

const char *pass_unmet(const struct pass *p, const struct mem_model *mm)
{
	if (!mm)
		return NULL;
	if ((p->needs & PASS_NEEDS_CAPACITY) && !mm->hbm_bytes)
		return "needs --target or --hbm";
	if ((p->needs & PASS_NEEDS_BACKEND) && mm->target->kind == TARGET_NONE)
		return "needs --target";
	return NULL;
}

int pass_run_all(const struct pass *const *passes, struct hlo_module *m, struct pass_context *ctx,
		 bool verify_each)
{
	int total = 0;
	for (const struct pass *const *p = passes; *p; p++) {
		if (!(*p)->run)
			continue;   /* a folder rule: lint_folder runs it */
		if ((*p)->needs & PASS_NEEDS_TOTALS) {
			mem_settle(ctx->mem);
			timing_mark("total allocation (wait)");
		}
		int rc = (*p)->run(m, ctx);
		source_drop_all(m->file->src);   /* the text the rule read */
		timing_mark((*p)->name);
		if (rc < 0)
			return rc;
		total += rc;
		if (verify_each && (*p)->rewrites && verify_module(m, ctx->diag, NULL))
			return -1;
	}
	return total;
}

enum finding_severity pass_saving_severity(const struct pass_context *ctx, uint64_t saved, int near_opt,
					   int share_opt)
{
	const struct mem_model *mm = ctx->mem;
	if (!mm || !mm->hbm_bytes)
		return FINDING_NOTE;
	double cap = (double)mm->hbm_bytes;
	if ((double)saved >= config_double(ctx->config, share_opt) * cap)
		return FINDING_WARNING;
	/* The total may still be packed on another thread (mem_options'
	 * pack_later): wait for it only when it decides. */
	mem_settle(mm);
	double total = (double)(mm->xla_total_bytes ? mm->xla_total_bytes : mm->total_bytes);
	return total >= config_double(ctx->config, near_opt) * cap ? FINDING_WARNING : FINDING_NOTE;
}
