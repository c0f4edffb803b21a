/* cmd_check.c - `hlolint check FILE...` and `hlolint rules`: parse, build
 * each valid module's memory model once, run the enabled rules, apply
 * suppressions and the baseline, report; exit 0/1/2 by --fail-on.  Rule
 * logic lives in passes/, formats in report.c, options in config.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "compile.h"
#include "output.h"
#include "config.h"
#include "finding.h"
#include "jobs.h"
#include "mem.h"
#include "lint.h"
#include "pass.h"
#include "report.h"


struct check_args {
	char **files;
	int nfiles;
	const char *write_baseline;
	enum report_format format;
	struct cmd_lint_args lint;
};

/* The options check reads itself: --format (its error names the
 * formats) and --write-baseline; the lint options. */
static bool cmd_check_args(const struct args *g, struct check_args *a)
{
	const char *v = args_value(g, FLAG_FORMAT_CHECK);
	a->files = g->files;
	a->nfiles = g->nfiles;
	a->write_baseline = args_value(g, FLAG_WRITE_BASELINE);
	a->format = REPORT_TEXT;
	if (v && !report_format_parse(v, &a->format)) {
		fprintf(stderr, "hlolint: error: unknown format '%s' (text, concise, json, sarif or github)\n", v);
		return false;
	}
	return cmd_lint_from(g, &a->lint);
}

/* -j: a worker loads one input and runs the rules over its valid modules
 * into its own sinks; the delivery registers the modules with the report,
 * moves the findings into the run's sink, settles suppressions and the
 * baseline and prints, in input order. */
struct cmd_check_run {
	const struct cmd_inputs *in;
	struct config *cfg;
	struct diag_sink *d;
	struct finding_sink *sink;
	struct report *rep;
	unsigned bad;
	char *const *files;         /* as given: in->folder[k] indexes them */
	bool want_sigs;             /* a folder rule is enabled */
	struct compile_sig **sigs;  /* the current folder's modules so far */
	uint32_t nsigs;
};

struct cmd_check_file {
	struct cmd_loaded in;
	struct finding_sink sink;
	struct cmd_check_module {
		struct hlo_module *m;
		struct mem_model *mm;
	} *mods;
	uint32_t nmods;
	struct cmd_check_not_run {
		uint32_t module;
		const char *rule, *why;
	} *not_run;
	uint32_t nnot_run;
	struct compile_sig **sigs;  /* by module, for folder rules */
	uint32_t nsigs;
	bool want_sigs, ok;
};

/* lint_run's hooks: the modules and the rules that could not run are kept
 * for the delivery (the report numbers modules in input order). */
static uint32_t cmd_check_module(void *ctx, uint32_t k, struct hlo_module *m, struct mem_model *mm)
{
	struct cmd_check_file *cf = ctx;
	cf->mods = xreallocarray(cf->mods, cf->nmods + 1, sizeof *cf->mods);
	cf->mods[cf->nmods] = (struct cmd_check_module){ m, mm };
	(void)k;
	return cf->nmods++;
}

static void cmd_check_not_run(void *ctx, uint32_t index, const char *rule, const char *why)
{
	struct cmd_check_file *cf = ctx;
	cf->not_run = xreallocarray(cf->not_run, cf->nnot_run + 1, sizeof *cf->not_run);
	cf->not_run[cf->nnot_run++] = (struct cmd_check_not_run){ index, rule, why };
}

static void cmd_check_loaded(void *ctx, const struct hlo_module *m)
{
	struct cmd_check_file *cf = ctx;
	if (!cf->want_sigs)
		return;
	cf->sigs = xreallocarray(cf->sigs, cf->nsigs + 1, sizeof *cf->sigs);
	cf->sigs[cf->nsigs++] = compile_sig_take(m, cf->in.src->path);
}

static void *cmd_check_work(void *ctx, int k)
{
	struct cmd_check_run *r = ctx;
	struct cmd_check_file *cf = xcalloc(1, sizeof *cf);
	finding_sink_init(&cf->sink);
	cf->sink.baseline_given = r->sink->baseline_given;
	cf->want_sigs = r->want_sigs && r->in->folder[k] >= 0;
	cmd_load_deferred(r->in->paths[k], r->d, &cf->in);
	if (cf->in.f) {
		struct lint_hooks h = { cf, cmd_check_module, cmd_check_not_run, cmd_check_loaded };
		cf->ok = lint_run(cf->in.f, cf->in.src, (uint32_t)k, r->cfg, &cf->in.d, &cf->sink, &h);
		cf->ok = cf->ok && !cf->in.d.errors;
	}
	return cf;
}

static void cmd_check_drop(void *ctx, int k, void *res)
{
	(void)ctx, (void)k;
	struct cmd_check_file *cf = res;
	finding_sink_free(&cf->sink);
	free(cf->mods);
	free(cf->not_run);
	for (uint32_t j = 0; j < cf->nsigs; j++)
		compile_sig_free(cf->sigs[j]);
	free(cf->sigs);
	cmd_loaded_free(&cf->in);
	free(cf);
}

/* The folder's signatures so far take file k's, numbered as the report
 * numbers its modules. */
static void cmd_check_folder_add(struct cmd_check_run *r, struct cmd_check_file *cf, int k, const uint32_t *index)
{
	for (uint32_t j = 0; j < cf->nsigs; j++) {
		if (!cf->sigs[j])
			continue;
		cf->sigs[j]->file_index = (uint32_t)k;
		cf->sigs[j]->module_index = j < cf->nmods ? index[j] : 0;
		r->sigs = xreallocarray(r->sigs, r->nsigs + 1, sizeof *r->sigs);
		r->sigs[r->nsigs++] = cf->sigs[j];
	}
	cf->nsigs = 0;
}

/* The folder ending with file k: its folder rules, reported after its
 * modules. */
static void cmd_check_folder(struct cmd_check_run *r, int k)
{
	uint32_t from = r->sink->n;
	if (!lint_folder(r->cfg, r->files[r->in->folder[k]], r->sigs, r->nsigs, r->sink))
		r->bad++;
	lint_settle(r->cfg, r->sink, from);
	report_file(r->rep, r->sink, from);
	for (uint32_t j = 0; j < r->nsigs; j++)
		compile_sig_free(r->sigs[j]);
	r->nsigs = 0;
}

static bool cmd_check_deliver(void *ctx, int k, void *res)
{
	struct cmd_check_run *r = ctx;
	struct cmd_check_file *cf = res;
	diag_replay(r->d, &cf->in.d);
	uint32_t *index = xcalloc(cf->nmods + 1, sizeof *index);
	for (uint32_t j = 0; j < cf->nmods; j++)
		index[j] = report_module(r->rep, cf->in.src->path, cf->mods[j].m, cf->mods[j].mm);
	for (uint32_t j = 0; j < cf->nnot_run; j++)
		report_not_run(r->rep, index[cf->not_run[j].module], cf->not_run[j].rule, cf->not_run[j].why);
	uint32_t from = r->sink->n;
	finding_sink_move(r->sink, &cf->sink);
	for (uint32_t j = from; j < r->sink->n; j++)
		r->sink->items[j]->module_index = index[r->sink->items[j]->module_index];
	if (cf->in.f) {
		lint_settle(r->cfg, r->sink, from);
		report_file(r->rep, r->sink, from);
		finding_sink_detach(r->sink, from);
	}
	r->bad += !cf->ok;
	cmd_check_folder_add(r, cf, k, index);
	free(index);
	cmd_check_drop(ctx, k, res);
	if (r->want_sigs && r->in->folder[k] >= 0 && (k + 1 == r->in->n || r->in->folder[k + 1] != r->in->folder[k]))
		cmd_check_folder(r, k);
	return !diag_full(r->d);
}

int cmd_check(const struct args *g)
{
	struct check_args a;
	struct config cfg;
	config_init(&cfg);
	int rc = 2;
	struct diag_sink d;
	diag_init(&d, stderr, 20);
	if (!cmd_check_args(g, &a))
		goto done;
	d.max_errors = a.lint.max_errors;
	d.keep = a.format != REPORT_TEXT && a.format != REPORT_CONCISE;   /* machine outputs list the errors too */
	if (!cmd_lint_config(&a.lint, g, &cfg, &d))
		goto done;
	if (a.write_baseline && (!output_allowed(a.write_baseline, false) ||
				 !output_not_input(a.write_baseline, (const char *const *)a.files, (uint32_t)a.nfiles)))
		goto done;

	struct finding_sink sink;
	finding_sink_init(&sink);
	sink.baseline_given = cfg.has_baseline;
	/* --write-baseline says what it wrote and nothing else. */
	FILE *shown = a.write_baseline ? fopen("/dev/null", "w") : stdout;
	if (!shown) {
		fprintf(stderr, "hlolint: error: cannot open /dev/null\n");
		finding_sink_free(&sink);
		goto done;
	}
	struct report *rep = report_new(a.format, shown, HLOLINT_VERSION);
	report_set_docs_url(rep, cfg.docs_url);
	report_set_verbose(rep, args_has(g, FLAG_VERBOSE));
	struct cmd_inputs in;
	if (!cmd_inputs(a.files, a.nfiles, a.lint.all_stages, &in)) {
		report_free(rep);
		if (shown != stdout)
			fclose(shown);
		finding_sink_free(&sink);
		goto done;
	}
	struct cmd_check_run run = { &in, &cfg, &d, &sink, rep, 0, a.files, lint_wants_folder(&cfg), NULL, 0 };
	struct jobs j = { in.n, a.lint.jobs, &run, cmd_check_work, cmd_check_deliver, cmd_check_drop };
	jobs_run(&j);
	for (uint32_t k = 0; k < run.nsigs; k++)   /* a folder cut short (--max-errors) */
		compile_sig_free(run.sigs[k]);
	free(run.sigs);
	unsigned bad = run.bad;
	bool ok = !bad;

	const struct pass **ran = xcalloc(cfg.npasses + 1, sizeof *ran);
	for (uint32_t k = 0, n = 0; k < cfg.npasses; k++)
		if (cfg.enabled[k])
			ran[n++] = pass_table[k];
	if (!report_finish(rep, &sink, ran, bad, &d))
		ok = false;   /* stdout: said by main_stdout_done */
	free(ran);
	unsigned failing = 0;
	for (uint32_t k = 0; k < sink.n; k++)
		failing += finding_fails(sink.items[k], cfg.fail_on);
	if (a.write_baseline) {
		uint32_t n;
		if (config_baseline_write(&sink, a.write_baseline, &n))
			diag_line(stdout, "hlolint: wrote %u finding%s of %u module%s to %s\n", n, n == 1 ? "" : "s",
				  report_modules(rep), report_modules(rep) == 1 ? "" : "s", a.write_baseline);
		else
			ok = false;
		failing = 0;    /* everything found is now the baseline */
	}
	unsigned unknown = report_unknown_capacity(rep);
	if (cfg.require_target && unknown) {
		if (a.format != REPORT_TEXT && a.format != REPORT_CONCISE)    /* the summary line says it already */
			fprintf(stderr, "hlolint: capacity unknown for %u module%s (pass --target or --hbm)\n",
				unknown, unknown == 1 ? "" : "s");
		failing++;
	}
	rc = !ok ? 2 : failing && !cfg.exit_zero ? 1 : 0;
	report_free(rep);
	if (shown != stdout)
		fclose(shown);
	finding_sink_free(&sink);
	cmd_inputs_free(&in);
done:
	diag_free(&d);
	config_free(&cfg);
	return rc;
}

/* ---- hlolint rules ---- */

int cmd_rules(const struct args *a)
{
	(void)a;
	for (const struct pass *const *p = pass_table; *p; p++) {
		if ((*p)->rewrites)
			continue;
		char head[32], line[512];
		snprintf(head, sizeof head, "%-22s ", (*p)->name);
		report_wrap(stdout, head, (*p)->summary, 23);
		for (int k = 0; k < CONFIG_OPT_COUNT; k++)
			if (!strcmp(config_options[k].rule, (*p)->name)) {
				snprintf(line, sizeof line, "--%s %s (default %s): %s", config_options[k].name,
					 config_kind_name(config_options[k].kind), config_options[k].def, config_options[k].help);
				report_wrap(stdout, "  ", line, 6);
			}
	}
	return fflush(stdout) == 0 ? 0 : 2;
}
