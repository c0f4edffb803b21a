/* cmd_oom.c - `hlolint oom LOG [DUMP | DIR]`: the compiler's out-of-memory
 * message in, the culprit out.  Reads the reports of LOG (oomlog.h),
 * classifies them and maps each listed allocation to its instruction in
 * the program's module with the rules' findings there (triage.h, lint.h);
 * prints text or JSON.  Options and printing only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "dumpdir.h"
#include "json.h"
#include "jobs.h"
#include "lint.h"
#include "metadata.h"
#include "oomlog.h"
#include "pass.h"
#include "report.h"
#include "size.h"
#include "triage.h"
#include "xlastats.h"

struct oom_args {
	const char *log, *dump;
	enum report_format format;
	struct cmd_lint_args lint;
};

/* ---- The program's module ---- */

/* The module the report is about, loaded with its source. */
struct oom_dump {
	char *path;
	struct source *src;
	struct hlo_file *f;
	struct hlo_module *m;
	struct mem_model *mm;
	struct finding_sink sink;   /* the rules' findings on the file */
};

/* The valid module of f the report names most allocations of (ties: the
 * first); its score in *score. */
static struct hlo_module *cmd_oom_best_module(struct hlo_file *f, const struct oom_report *r, uint32_t *score)
{
	struct hlo_module *best = NULL;
	*score = 0;
	for (struct hlo_module *m = f->modules; m; m = m->next) {
		if (!m->valid)
			continue;
		uint32_t s = triage_matches(r, m, &f->arena);
		if (!best || s > *score) {
			best = m;
			*score = s;
		}
	}
	return best;
}

/* -j: a worker loads one candidate and scores its best module; the
 * delivery keeps the best so far (ties: the first, as in input order). */
struct cmd_oom_pick {
	const struct dumpdir *dd;
	const struct oom_report *r;
	struct diag_sink *d;
	struct oom_dump *out;
	uint32_t best_score;
};

struct cmd_oom_candidate {
	struct cmd_loaded in;
	struct hlo_module *m;
	uint32_t score;
};

static void *cmd_oom_work(void *ctx, int k)
{
	struct cmd_oom_pick *p = ctx;
	struct cmd_oom_candidate *c = xcalloc(1, sizeof *c);
	cmd_load_deferred(p->dd->paths[k], p->d, &c->in);
	c->m = c->in.f ? cmd_oom_best_module(c->in.f, p->r, &c->score) : NULL;
	return c;
}

static void cmd_oom_drop(void *ctx, int k, void *res)
{
	(void)ctx, (void)k;
	struct cmd_oom_candidate *c = res;
	cmd_loaded_free(&c->in);
	free(c);
}

static bool cmd_oom_deliver(void *ctx, int k, void *res)
{
	struct cmd_oom_pick *p = ctx;
	struct cmd_oom_candidate *c = res;
	diag_replay(p->d, &c->in.d);
	if (c->m && (!p->out->m || c->score > p->best_score)) {
		if (p->out->f) {
			parse_free(p->out->f);
			source_free(p->out->src);
			free(p->out->path);
		}
		*p->out = (struct oom_dump){ .path = xstrdup(p->dd->paths[k]), .src = c->in.src, .f = c->in.f,
					     .m = c->m };
		p->best_score = c->score;
		c->in.f = NULL;
		c->in.src = NULL;
	}
	cmd_oom_drop(ctx, k, res);
	return true;
}

/* Loads the candidates of dump (a file or a folder) and keeps the one whose
 * module matches r best; false after an error message. */
static bool cmd_oom_choose(const char *dump, const struct cmd_lint_args *la, const struct oom_report *r,
			   struct diag_sink *d, struct oom_dump *out)
{
	struct dumpdir dd = { 0 };
	char err[512];
	if (dumpdir_is_dir(dump)) {
		if (!dumpdir_list(dump, la->all_stages, &dd, err, sizeof err)) {
			fprintf(stderr, "%s\n", err);
			return false;
		}
		if (!dd.n) {
			fprintf(stderr, "%s: error: no after-optimizations module in this folder (expected XLA's "
					"module_*.after_optimizations.txt)\n", dump);
			dumpdir_free(&dd);
			return false;
		}
	} else {
		dd.paths = xcalloc(1, sizeof *dd.paths);
		dd.paths[dd.n++] = xstrdup(dump);
	}
	struct cmd_oom_pick p = { &dd, r, d, out, 0 };
	struct jobs j = { (int)dd.n, la->jobs, &p, cmd_oom_work, cmd_oom_deliver, cmd_oom_drop };
	jobs_run(&j);
	dumpdir_free(&dd);
	if (!out->m && !d->errors)
		fprintf(stderr, "%s: error: no valid module to compare with\n", dump);
	return out->m != NULL;
}

struct cmd_oom_hooks {
	struct oom_dump *dump;
};

static uint32_t cmd_oom_module(void *ctx, uint32_t k, struct hlo_module *m, struct mem_model *mm)
{
	struct oom_dump *dp = ((struct cmd_oom_hooks *)ctx)->dump;
	if (m == dp->m)
		dp->mm = mm;
	return k;
}

/* The rules over the chosen file, keeping its module's model and findings. */
static void cmd_oom_lint(struct oom_dump *dp, struct config *c, struct diag_sink *d)
{
	finding_sink_init(&dp->sink);
	struct cmd_oom_hooks hk = { dp };
	struct lint_hooks h = { &hk, cmd_oom_module, NULL, NULL };
	lint_file(dp->f, dp->src, 0, c, d, &dp->sink, &h);
}

static void cmd_oom_dump_free(struct oom_dump *dp)
{
	if (dp->f) {
		finding_sink_free(&dp->sink);
		parse_free(dp->f);
	}
	source_free(dp->src);
	free(dp->path);
}

/* The Python line of instruction i: its metadata and the module's stack
 * frames.  The strings live in the dump's arena. */
static bool cmd_oom_instr_python(const struct oom_dump *dp, const struct hlo_instr *i, const char **file,
				 int64_t *line)
{
	const struct hlo_attr *md = ir_attr(i, ATTR_METADATA);
	struct hlo_metadata d;
	struct arena *a = &dp->f->arena;
	return md && metadata_decode(dp->f, ir_attr_value(md), a, &d, NULL) &&
	       metadata_source(dp->m, &d, a, file, line);
}

/* ---- Text ---- */

static const char *cmd_oom_size(uint64_t v, char *buf)
{
	return v == OOM_UNKNOWN ? "unknown" : size_human(v, buf);
}

static const char *cmd_oom_backend(const struct oom_report *r)
{
	return oomlog_gpu(r->kind) ? "XLA:GPU" : "XLA:TPU";
}

/* The report's first line in one sentence, by kind. */
static void cmd_oom_headline(const struct oom_report *r, char *msg, size_t cap)
{
	char a[24], b[24], c[24];
	const char *be = cmd_oom_backend(r);
	switch (r->kind) {
	case OOM_TPU_SC:
		snprintf(msg, cap, "%s compile ran out of hbm: TensorCore %s + SparseCore %s of %s", be,
			 cmd_oom_size(r->tensorcore, a), cmd_oom_size(r->sparsecore, b), cmd_oom_size(r->capacity, c));
		return;
	case OOM_TPU_EARLY:
		snprintf(msg, cap, "%s compile gave up early: the program needs %s, %s available", be,
			 cmd_oom_size(r->used, a), cmd_oom_size(r->capacity, b));
		return;
	case OOM_TPU_SCOPED:
		snprintf(msg, cap, "%s compile ran out of %s: an allocation of %s exceeds its %s", be, r->space,
			 cmd_oom_size(r->used, a), cmd_oom_size(r->capacity, b));
		return;
	case OOM_TPU_RESERVE:
		snprintf(msg, cap, "%s runtime could not load %s%s: it reserves %s, %s free", be,
			 r->program ? "program " : "the program", r->program ? r->program : "",
			 cmd_oom_size(r->requested, a), cmd_oom_size(r->free_bytes, b));
		return;
	case OOM_TPU_BUFFER:
		snprintf(msg, cap, "%s runtime could not allocate %s, %s free", be, cmd_oom_size(r->requested, a),
			 cmd_oom_size(r->free_bytes, b));
		return;
	case OOM_GPU:
		snprintf(msg, cap, "%s ran out of device memory at run time allocating %s", be, cmd_oom_size(r->used, a));
		return;
	case OOM_GPU_REQUEST:
		snprintf(msg, cap, "%s allocator could not allocate %s%s%s", be, cmd_oom_size(r->requested, a),
			 r->device ? " on " : "", r->device ? r->device : "");
		return;
	case OOM_GPU_BFC:
		snprintf(msg, cap, "%s BFC allocator%s%s%s could not allocate %s", be, r->device ? " (" : "",
			 r->device ? r->device : "", r->device ? ")" : "", cmd_oom_size(r->requested, a));
		return;
	case OOM_TPU:
	case OOM_TPU_TEMP:
		break;
	}
	if (r->used == OOM_UNKNOWN && r->capacity == OOM_UNKNOWN)
		snprintf(msg, cap, "%s compile ran out of %s", be, r->space);
	else
		snprintf(msg, cap, "%s compile ran out of %s: %s used of %s", be, r->space, cmd_oom_size(r->used, a),
			 cmd_oom_size(r->capacity, b));
}

/* What XLA's report says of its own breakdown. */
static void cmd_oom_text_xla(FILE *out, const struct oom_report *r)
{
	char a[24], b[24], c[24], d[24], msg[400];
	if (r->total != OOM_UNKNOWN || r->arguments != OOM_UNKNOWN) {
		snprintf(msg, sizeof msg, "XLA: total >= %s (reserved %s, program %s, arguments %s)",
			 cmd_oom_size(r->total, a), cmd_oom_size(r->reserved, b), cmd_oom_size(r->program_bytes, c),
			 cmd_oom_size(r->arguments, d));
		report_wrap(out, "note: ", msg, 6);
	}
	if (r->requirement != OOM_UNKNOWN && r->kind == OOM_TPU) {
		int n = snprintf(msg, sizeof msg, "XLA: program needs %s (HLO temp %s", size_human(r->requirement, a),
				 cmd_oom_size(r->hlo_temp, b));
		if (r->utilization >= 0)
			n += snprintf(msg + n, sizeof msg - (size_t)n, ", %.1f%% utilization", r->utilization);
		if (r->fragmentation != OOM_UNKNOWN)
			n += snprintf(msg + n, sizeof msg - (size_t)n, ", %s fragmentation", size_human(r->fragmentation, c));
		snprintf(msg + n, sizeof msg - (size_t)n, ")");
		report_wrap(out, "note: ", msg, 6);
	}
	if (r->kind == OOM_GPU && r->gpu_total != OOM_UNKNOWN) {
		snprintf(msg, sizeof msg, "XLA: buffer assignment totals %s (temporaries %s, parameters %s)",
			 size_human(r->gpu_total, a), cmd_oom_size(r->gpu_temp, b), cmd_oom_size(r->gpu_parameters, c));
		report_wrap(out, "note: ", msg, 6);
	}
}

/* Where the report came from and what it lacks. */
static void cmd_oom_text_context(FILE *out, const struct oom_report *r)
{
	char msg[300];
	if (r->code) {
		snprintf(msg, sizeof msg, "error code %s", r->code);
		report_wrap(out, "note: ", msg, 6);
	}
	if (r->partial)
		report_wrap(out, "note: ", "a part of the report: its first line is not in the log", 6);
	if (r->repeats > 1) {
		snprintf(msg, sizeof msg, "the same report is in the log %u times", r->repeats);
		report_wrap(out, "note: ", msg, 6);
	}
	if (r->culprit && r->kind != OOM_TPU_SCOPED) {
		snprintf(msg, sizeof msg, "XLA names %%%s", r->culprit);
		report_wrap(out, "note: ", msg, 6);
	}
}

/* The report's first line, its class with the deciding fact, the fixes
 * ranked, and XLA's breakdown. */
static void cmd_oom_text_head(FILE *out, const char *log, const struct triage *t)
{
	const struct oom_report *r = t->r;
	char a[24], msg[600];
	cmd_oom_headline(r, msg, sizeof msg);
	diag_line(out, "%s:%u:1: %s: %s", log, r->line, t->cls == TRIAGE_NOT_FAILURE ? "warning" : "error", msg);
	if (r->exceeded != OOM_UNKNOWN)
		fprintf(out, " (over by %s)", size_human(r->exceeded, a));
	fputs(" [oom]\n", out);
	char fact[500];
	triage_fact(t, fact, sizeof fact);
	snprintf(msg, sizeof msg, "%s: %s", triage_class_name(t->cls), fact);
	report_wrap(out, "note: ", msg, 6);
	for (const char *const *f = triage_fixes(t); *f; f++)
		report_wrap(out, "note: fix: ", *f, 11);
	cmd_oom_text_context(out, r);
	cmd_oom_text_xla(out, r);
}

/* Whether hlolint's total allocation compares with the report's figure:
 * compile time in HBM, and XLA:GPU's buffer assignment total. */
static bool cmd_oom_estimated(const struct triage *t)
{
	if (t->cls == TRIAGE_KERNEL)
		return false;
	return !oomlog_run_time(t->r->kind) || (t->r->kind == OOM_GPU && t->r->gpu_total != OOM_UNKNOWN);
}

/* hlolint's figure for what the report measured: XLA:TPU's early stop
 * ("required for HLO temporaries") comes before its heap is placed, so
 * its figure is the values' liveness peak without fragmentation. */
static uint64_t cmd_oom_model_bytes(const struct triage *t, const struct mem_model *mm)
{
	return t->r->kind == OOM_TPU_TEMP ? mm->total_live_bytes : mm->total_bytes;
}

/* hlolint's figure for the module beside XLA's. */
static void cmd_oom_text_estimate(FILE *out, const struct triage *t, const struct oom_dump *dp)
{
	if (!dp || !dp->mm || !cmd_oom_estimated(t))
		return;
	const struct oom_report *r = t->r;
	uint64_t xla = r->kind == OOM_TPU_TEMP ? r->hlo_temp : r->kind == OOM_GPU ? r->gpu_total
		       : r->kind == OOM_TPU_SC ? r->tensorcore : r->used;
	char a[24], b[24], msg[400];
	int n = snprintf(msg, sizeof msg, "hlolint estimates %s for module %s (total allocation%s)",
			 size_human(cmd_oom_model_bytes(t, dp->mm), a), dp->m->name ? dp->m->name->str : "?",
			 r->kind == OOM_TPU_TEMP ? ", heap at its liveness peak" : "");
	if (xla != OOM_UNKNOWN && xla) {
		double d = ((double)cmd_oom_model_bytes(t, dp->mm) - (double)xla) * 100.0 / (double)xla;
		snprintf(msg + n, sizeof msg - (size_t)n, "; XLA said %s (%+.1f%%)", size_human(xla, b), d);
	}
	report_wrap(out, "note: ", msg, 6);
	n = snprintf(msg, sizeof msg, "hlolint check on it:");
	const char *rules[16];
	uint32_t counts[16], nr = 0;
	for (uint32_t k = 0; k < dp->sink.n; k++) {
		const struct finding *f = dp->sink.items[k];
		uint32_t j = 0;
		while (j < nr && strcmp(rules[j], f->rule))
			j++;
		if (j == nr && nr < 16) {
			rules[nr] = f->rule;
			counts[nr++] = 0;
		}
		if (j < nr)
			counts[j]++;
	}
	for (uint32_t j = 0; j < nr && n < (int)sizeof msg; j++)
		n += snprintf(msg + n, sizeof msg - (size_t)n, "%s %s %u", j ? "," : "", rules[j], counts[j]);
	if (!nr)
		snprintf(msg + n, sizeof msg - (size_t)n, " no findings");
	report_wrap(out, "note: ", msg, 6);
}

/* The Python line of an allocation: the report's, else the instruction's
 * metadata (and the module's stack frames). */
static bool cmd_oom_python(const struct oom_dump *dp, const struct triage_alloc *x, const char **file,
			   int64_t *line)
{
	*file = x->al->source_file;
	*line = x->al->source_line;
	if (*file || !x->instr || !dp)
		return *file != NULL;
	return cmd_oom_instr_python(dp, x->instr, file, line);
}

/* The rule findings on instruction i's buffer (i itself, or what writes
 * the same memory). */
static void cmd_oom_text_findings(FILE *out, const struct oom_dump *dp, const struct triage_module *tm,
				  const struct hlo_instr *i)
{
	char msg[600];
	for (uint32_t k = 0; k < dp->sink.n; k++) {
		const struct finding *f = dp->sink.items[k];
		/* hbm-over-budget is about the whole module: counted in the head. */
		if (!strcmp(f->rule, pass_name_hbm_over_budget) || !triage_finding_on(tm, f, i))
			continue;
		bool self = (size_t)ir_name_len(i) == strlen(f->instruction) &&
			    !memcmp(f->instruction, ir_name(i), ir_name_len(i));
		if (self)
			snprintf(msg, sizeof msg, "[%s] %s", f->rule, f->message);
		else
			snprintf(msg, sizeof msg, "[%s] on %%%s, the same buffer: %s", f->rule, f->instruction, f->message);
		report_wrap(out, "note: check: ", msg, 13);
	}
}

/* An entry parameter's pytree path (its op_name, as mem prints it). */
static void cmd_oom_text_argument(FILE *out, const struct oom_dump *dp, const struct hlo_instr *i)
{
	if (i->op != OP_PARAMETER || i->comp != dp->m->entry)
		return;
	const struct hlo_attr *md = ir_attr(i, ATTR_METADATA);
	struct hlo_metadata d;
	char msg[400];
	if (md && metadata_decode(dp->f, ir_attr_value(md), &dp->f->arena, &d, NULL) && d.op_name && d.op_name[0]) {
		snprintf(msg, sizeof msg, "argument %lld: %s", (long long)i->number, d.op_name);
		report_wrap(out, "note: ", msg, 6);
	}
}

static void cmd_oom_text_alloc(FILE *out, const char *log, const struct triage *t, const struct triage_alloc *x,
			       const struct oom_dump *dp, const struct triage_module *tm)
{
	const struct oom_alloc *al = x->al;
	char a[24], b[24], msg[600];
	static const char *const from[] = { "allocation %u of the report: %s", "allocation %u (XLA): %s",
					    "largest buffer %u (hlolint): %s" };
	int n = snprintf(msg, sizeof msg, from[t->from], al->rank, cmd_oom_size(al->size, a));
	if (al->shape)
		n += snprintf(msg + n, sizeof msg - (size_t)n, " %.*s", (int)strcspn(al->shape, "{"), al->shape);
	if (al->type)
		n += snprintf(msg + n, sizeof msg - (size_t)n, " (%s)", al->type);
	if (al->padding && al->unpadded != OOM_UNKNOWN)
		snprintf(msg + n, sizeof msg - (size_t)n, "; %s of it is padding", size_human(al->padding, b));
	if (!x->instr) {
		diag_line(out, "%s:%u:1: note: %s [oom]\n", log, al->line, msg);
		snprintf(msg, sizeof msg, "%s%s%s%s", dp ? "not found in the module" : "XLA label: ",
			 dp && al->name ? " (label " : "", al->name ? al->name : al->label ? al->label : "?",
			 dp && al->name ? ")" : "");
		if (dp || al->name || al->label)
			report_wrap(out, "note: ", msg, 6);
	} else {
		uint64_t line, col;
		struct span sp = ir_instr_name_span(x->instr);
		source_position(dp->src, sp.start, &line, &col);
		diag_line(out, "%s:%llu:%llu: warning: %s [oom]\n", dp->path, (unsigned long long)line,
			(unsigned long long)col, msg);
		diag_print_line(out, dp->src, sp);
		snprintf(msg, sizeof msg, "found by %s", x->how);
		report_wrap(out, "note: ", msg, 6);
		cmd_oom_text_argument(out, dp, x->instr);
		cmd_oom_text_findings(out, dp, tm, x->instr);
	}
	const char *file;
	int64_t line;
	if (cmd_oom_python(dp, x, &file, &line)) {
		snprintf(msg, sizeof msg, "Python: %s:%lld", file, (long long)line);
		report_wrap(out, "note: ", msg, 6);
	}
	const char *fix = triage_alloc_fix(t, x);
	if (fix)
		report_wrap(out, "note: fix: ", fix, 11);
}

/* The instruction a class is about when it is not a listed allocation
 * (the host parameter XLA copies back). */
static void cmd_oom_text_culprit(FILE *out, const struct triage *t, const struct oom_dump *dp)
{
	if (t->cls != TRIAGE_HOST_UNDONE || !dp)
		return;
	const struct hlo_instr *is[2] = { t->host_param, t->host_copy };
	for (int k = 0; k < 2; k++) {
		uint64_t line, col;
		struct span sp = ir_instr_name_span(is[k]);
		source_position(dp->src, sp.start, &line, &col);
		diag_line(out, "%s:%llu:%llu: warning: %s [oom]\n", dp->path, (unsigned long long)line,
			(unsigned long long)col, k ? "the copy that brings it into HBM whole"
						   : "this parameter is offloaded to pinned host memory");
		diag_print_line(out, dp->src, sp);
		const char *file;
		int64_t pl;
		char msg[400];
		if (cmd_oom_instr_python(dp, is[k], &file, &pl)) {
			snprintf(msg, sizeof msg, "Python: %s:%lld", file, (long long)pl);
			report_wrap(out, "note: ", msg, 6);
		}
	}
}

static void cmd_oom_text(FILE *out, const char *log, const struct triage *ts, uint32_t n, const struct oom_dump *dp,
			 const struct triage_module *tm)
{
	uint32_t nallocs = 0, mapped = 0;
	for (uint32_t k = 0; k < n; k++) {
		const struct triage *t = &ts[k];
		cmd_oom_text_head(out, log, t);
		cmd_oom_text_estimate(out, t, dp);
		cmd_oom_text_culprit(out, t, dp);
		if (t->from == TRIAGE_FROM_XLA) {
			char msg[400];
			snprintf(msg, sizeof msg, "the report lists no allocations: below are the largest of XLA's own "
				 "buffer assignment (%s)", tm->xa->from);
			report_wrap(out, "note: ", msg, 6);
		} else if (t->from == TRIAGE_FROM_MODEL) {
			report_wrap(out, "note: ", "the report lists no allocations: below are the largest buffers of "
				    "hlolint's model of the module", 6);
		}
		for (uint32_t j = 0; j < t->nallocs; j++)
			cmd_oom_text_alloc(out, log, t, &t->allocs[j], dp, tm);
		nallocs += t->nallocs;
		mapped += t->mapped;
	}
	fprintf(out, "hlolint: %u out-of-memory report%s, %u allocation%s", n, n == 1 ? "" : "s", nallocs,
		nallocs == 1 ? "" : "s");
	if (dp && dp->m)
		diag_line(out, ", %u found in %s", mapped, dp->path);
	fputc('\n', out);
}

/* ---- JSON ---- */

static void cmd_oom_json_size(struct json_writer *w, const char *key, uint64_t v)
{
	json_key(w, key);
	if (v == OOM_UNKNOWN)
		json_null(w);
	else
		json_uint(w, v);
}

static void cmd_oom_json_str(struct json_writer *w, const char *key, const char *s)
{
	json_key(w, key);
	if (s)
		json_string(w, s);
	else
		json_null(w);
}

static void cmd_oom_json_instr(struct json_writer *w, const struct oom_dump *dp, const struct hlo_instr *i,
			       const char *how)
{
	uint64_t line, col;
	source_position(dp->src, ir_instr_name_span(i).start, &line, &col);
	json_begin_object(w);
	json_key(w, "path");
	json_string(w, dp->path);
	json_key(w, "line");
	json_uint(w, line);
	json_key(w, "col");
	json_uint(w, col);
	json_key(w, "name");
	json_string_n(w, ir_name(i), ir_name_len(i));
	json_key(w, "computation");
	json_string_n(w, ir_comp_name(i->comp), ir_comp_name_len(i->comp));
	if (how) {
		json_key(w, "found_by");
		json_string(w, how);
	}
	json_end_object(w);
}

static void cmd_oom_json_alloc(struct json_writer *w, const struct triage *t, const struct triage_alloc *x,
			       const struct oom_dump *dp)
{
	const struct oom_alloc *al = x->al;
	json_begin_object(w);
	json_key(w, "rank");
	json_uint(w, al->rank);
	json_key(w, "log_line");
	json_uint(w, al->line);
	cmd_oom_json_size(w, "bytes", al->size);
	cmd_oom_json_size(w, "unpadded_bytes", al->unpadded);
	cmd_oom_json_size(w, "padding_bytes", al->padding);
	cmd_oom_json_str(w, "shape", al->shape);
	cmd_oom_json_str(w, "type", al->type);
	cmd_oom_json_str(w, "label", al->label);
	cmd_oom_json_str(w, "op_name", al->op_name);
	cmd_oom_json_str(w, "source_file", al->source_file);
	json_key(w, "source_line");
	json_int(w, al->source_line);
	json_key(w, "instruction");
	if (x->instr)
		cmd_oom_json_instr(w, dp, x->instr, x->how);
	else
		json_null(w);
	cmd_oom_json_str(w, "fix", triage_alloc_fix(t, x));
	json_end_object(w);
}

static void cmd_oom_json_sizes(struct json_writer *w, const struct oom_report *r)
{
	cmd_oom_json_size(w, "used_bytes", r->used);
	cmd_oom_json_size(w, "capacity_bytes", r->capacity);
	cmd_oom_json_size(w, "exceeded_bytes", r->exceeded);
	cmd_oom_json_size(w, "total_bytes", r->total);
	cmd_oom_json_size(w, "arguments_bytes", r->arguments);
	cmd_oom_json_size(w, "program_bytes", r->requirement);
	cmd_oom_json_size(w, "hlo_temp_bytes", r->hlo_temp);
	cmd_oom_json_size(w, "fragmentation_bytes", r->fragmentation);
	cmd_oom_json_size(w, "tensorcore_bytes", r->tensorcore);
	cmd_oom_json_size(w, "sparsecore_bytes", r->sparsecore);
	cmd_oom_json_size(w, "requested_bytes", r->requested);
	cmd_oom_json_size(w, "free_bytes", r->free_bytes);
	cmd_oom_json_size(w, "reservable_bytes", r->reservable);
	cmd_oom_json_size(w, "largest_free_bytes", r->largest_free);
	cmd_oom_json_size(w, "in_use_bytes", r->in_use);
	cmd_oom_json_size(w, "buffer_assignment_bytes", r->gpu_total);
}

static void cmd_oom_json_report(struct json_writer *w, const struct triage *t, const struct oom_dump *dp)
{
	static const char *const from[] = { "xla", "xla-buffer-assignment", "hlolint" };
	const struct oom_report *r = t->r;
	json_begin_object(w);
	json_key(w, "kind");
	json_string(w, oomlog_kind_name(r->kind));
	json_key(w, "phase");
	json_string(w, oomlog_run_time(r->kind) ? "run" : "compile");
	json_key(w, "log_line");
	json_uint(w, r->line);
	json_key(w, "partial");
	json_bool(w, r->partial);
	json_key(w, "repeats");
	json_uint(w, r->repeats);
	cmd_oom_json_str(w, "code", r->code);
	cmd_oom_json_str(w, "memory_space", r->space);
	cmd_oom_json_str(w, "program", r->program);
	cmd_oom_json_str(w, "culprit", r->culprit);
	cmd_oom_json_str(w, "device", r->device);
	cmd_oom_json_sizes(w, r);
	cmd_oom_json_size(w, "limit_bytes", t->limit);
	json_key(w, "class");
	json_string(w, triage_class_name(t->cls));
	char fact[500];
	triage_fact(t, fact, sizeof fact);
	json_key(w, "fact");
	json_string(w, fact);
	json_key(w, "about");
	if (t->about >= 0)
		json_uint(w, t->allocs[t->about].al->rank);
	else
		json_null(w);
	json_key(w, "allocations_from");
	json_string(w, from[t->from]);
	json_key(w, "fixes");
	json_begin_array(w);
	for (const char *const *f = triage_fixes(t); *f; f++)
		json_string(w, *f);
	json_end_array(w);
	json_key(w, "estimate_bytes");
	if (dp && dp->mm && cmd_oom_estimated(t))
		json_uint(w, cmd_oom_model_bytes(t, dp->mm));
	else
		json_null(w);
	if (t->cls == TRIAGE_HOST_UNDONE && dp) {
		json_key(w, "host_parameter");
		cmd_oom_json_instr(w, dp, t->host_param, NULL);
		json_key(w, "host_copy");
		cmd_oom_json_instr(w, dp, t->host_copy, NULL);
	}
	json_key(w, "allocations");
	json_begin_array(w);
	for (uint32_t j = 0; j < t->nallocs; j++)
		cmd_oom_json_alloc(w, t, &t->allocs[j], dp);
	json_end_array(w);
	json_end_object(w);
}

static void cmd_oom_json(FILE *out, const char *log, const struct triage *ts, uint32_t n, const struct oom_dump *dp)
{
	struct json_writer w;
	json_init(&w, out, 2);
	json_begin_object(&w);
	json_key(&w, "schema");
	json_int(&w, 1);
	json_key(&w, "log");
	json_string(&w, log);
	json_key(&w, "module");
	if (dp && dp->m) {
		json_begin_object(&w);
		json_key(&w, "path");
		json_string(&w, dp->path);
		json_key(&w, "name");
		json_string(&w, dp->m->name ? dp->m->name->str : "");
		json_end_object(&w);
	} else {
		json_null(&w);
	}
	json_key(&w, "reports");
	json_begin_array(&w);
	for (uint32_t k = 0; k < n; k++)
		cmd_oom_json_report(&w, &ts[k], dp);
	json_end_array(&w);
	json_end_object(&w);
	json_finish(&w);
}

/* ---- Driver ---- */

/* The log's reports; false after saying why (none is an error). */
static bool cmd_oom_read(const char *log, struct arena *a, struct source **src, struct oom_log *ol,
			 struct diag_sink *d)
{
	char err[512];
	*src = source_load(log, err, sizeof err);
	source_note_input(*src);
	if (!*src) {
		diag_report(d, NULL, span_none(), DIAG_ERROR, "%s", err);
		return false;
	}
	if (oomlog_read(*src, a, ol))
		return true;
	fprintf(stderr, "%s:1:1: error: no out-of-memory report in this log\n"
			"note: looked for XLA:TPU's \"Ran out of memory in memory space\", \"HLO temporaries\",\n"
			"      \"Aborting compilation early\", \"Allocation (size=...) would exceed memory\", the\n"
			"      TPU runtime's \"Attempting to reserve\" and \"Error allocating device buffer\",\n"
			"      XLA:GPU's \"Out of memory while trying to allocate\", \"Failed to allocate request\n"
			"      for\" and the BFC allocator's \"ran out of memory trying to allocate\" (docs/oom.md)\n",
		(*src)->path);
	return false;
}

/* The limit a report is judged against: its own, else --hbm, the
 * target's, or the module's inferred target's. */
static uint64_t cmd_oom_limit(const struct oom_report *r, const struct config *cfg, const struct oom_dump *dp)
{
	if (r->capacity != OOM_UNKNOWN)
		return r->capacity;
	if (cfg->hbm_bytes > 0)
		return (uint64_t)cfg->hbm_bytes;
	if (cfg->target && cfg->target->hbm_bytes)
		return cfg->target->hbm_bytes;
	return dp->mm && dp->mm->hbm_bytes ? dp->mm->hbm_bytes : OOM_UNKNOWN;
}

static int cmd_oom_run(void *args, struct config *cfg, struct diag_sink *d)
{
	const struct oom_args *a = args;
	struct arena ar;
	arena_init(&ar);
	struct source *log;
	struct oom_log ol;
	struct oom_dump dp = { 0 };
	struct xla_assignment xa = { 0 };
	int rc = 2;
	if (!cmd_oom_read(a->log, &ar, &log, &ol, d))
		goto done;
	const struct oom_report *last = &ol.reports[ol.nreports - 1];
	if (a->dump) {
		if (!cmd_oom_choose(a->dump, &a->lint, last, d, &dp))
			goto done;
		/* The report knows the device's limit: the rules judge against it. */
		if (!cfg->hbm_bytes && last->capacity != OOM_UNKNOWN && last->capacity <= INT64_MAX &&
		    !oomlog_run_time(last->kind) && !strcmp(last->space, "hbm"))
			cfg->hbm_bytes = (int64_t)last->capacity;
		cmd_oom_lint(&dp, cfg, d);
		xlastats_assignment_read(dp.path, 10, &ar, &xa);
	}
	struct triage_module tm = { dp.m, dp.mm, a->dump ? &dp.sink : NULL, xa.n ? &xa : NULL };
	struct triage *ts = arena_array(&ar, ol.nreports, sizeof *ts);
	for (uint32_t k = 0; k < ol.nreports; k++)
		triage_run(&ts[k], &ol.reports[k], &tm, cmd_oom_limit(&ol.reports[k], cfg, &dp), 10, &ar);
	if (a->format == REPORT_JSON)
		cmd_oom_json(stdout, log->path, ts, ol.nreports, a->dump ? &dp : NULL);
	else
		cmd_oom_text(stdout, log->path, ts, ol.nreports, a->dump ? &dp : NULL, &tm);
	rc = fflush(stdout) || ferror(stdout) ? 2 : cfg->exit_zero ? 0 : 1;   /* 2: said by main */
done:
	cmd_oom_dump_free(&dp);
	source_free(log);
	arena_free(&ar);
	return rc;
}

int cmd_oom(const struct args *g)
{
	struct oom_args a = { .log = g->files[0], .dump = g->nfiles > 1 ? g->files[1] : NULL, .format = REPORT_TEXT };
	const char *v = args_value(g, FLAG_FORMAT_TJ);
	if (v && (!report_format_parse(v, &a.format) || (a.format != REPORT_TEXT && a.format != REPORT_JSON))) {
		fprintf(stderr, "hlolint: error: oom cannot write '%s' output (text or json)\n", v);
		return 2;
	}
	struct cmd_frame fr = { g, &a, &a.lint, cmd_oom_run };
	return cmd_frame_run(&fr);
}
