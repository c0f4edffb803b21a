/* cmd_diff.c - `hlolint diff OLD NEW`: what a change did to memory, for
 * CI.  Loads both compiles (files or --xla_dump_to folders), pairs their
 * modules by name, runs the pipeline on each (lint.h) and prints what
 * diff.h finds, in text or JSON; --fail-on-growth sets the exit status.
 * Options and printing only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "diff.h"
#include "json.h"
#include "intern.h"
#include "jobs.h"
#include "lint.h"
#include "report.h"
#include "size.h"

static void cmd_diff_help(FILE *out)
{
	fputs("usage: hlolint diff [options] OLD NEW\n"
	      "\n"
	      "Compares two compiles of a program (files or --xla_dump_to folders; modules are\n"
	      "paired by name) and reports what the change did to memory: the total allocation\n"
	      "and liveness peak, new or grown buffers among the largest, arrays that lost or\n"
	      "gained their sharding or their host offload (S(5)), donation, and the rules'\n"
	      "findings that came or went (host transfers, padding waste, ...).  Buffers are\n"
	      "matched by op_name, shape and leaf, never by instruction name.\n"
	      "\n"
	      "options:\n"
	      "  --fail-on-growth PCT%|SIZE  exit 1 when a module's total allocation grows by\n"
	      "                       more than PCT percent or SIZE bytes (5%, 512M)\n"
	      "  --top N              compare the N largest buffers of each side (default 20)\n"
	      "  --format text|json   output (default text)\n"
	      "  --all-stages, --target NAME, --hbm SIZE, --config FILE, --no-config, rule options:\n"
	      "                       as for check\n"
	      "  -j N, --jobs N       read N modules of a folder at once (default: one per core)\n"
	      "\n"
	      "exit status: 0 nothing grew past --fail-on-growth and no new finding at or above\n"
	      "--fail-on; 1 otherwise (0 with --exit-zero); 2 usage, I/O or parse error.\n"
	      "See docs/diff.md.\n",
	      out);
}

struct diff_args {
	const char *old, *new;
	enum report_format format;
	unsigned top;
	bool has_growth, growth_pct;
	double growth;              /* percent, or bytes */
	struct cmd_lint_args lint;
};

static bool cmd_diff_growth(const char *v, struct diff_args *a)
{
	size_t n = strlen(v);
	uint64_t bytes;
	char *end;
	a->has_growth = true;
	if (n > 1 && v[n - 1] == '%') {
		a->growth_pct = true;
		a->growth = strtod(v, &end);
		if (end == v + n - 1 && a->growth >= 0)
			return true;
	} else if (size_parse(v, n, &bytes)) {
		a->growth = (double)bytes;
		return true;
	}
	fprintf(stderr, "hlolint: error: --fail-on-growth expects a percentage (5%%) or a size (512M), got '%s'\n", v);
	return false;
}

/* diff's own options: --fail-on-growth, --top. */
static int cmd_diff_own(void *ctx, int argc, char **argv, int *i)
{
	struct diff_args *a = ctx;
	const char *s = argv[*i], *v;
	if (cmd_opt_is(s, "--fail-on-growth"))
		return (v = cmd_opt_value(argc, argv, i, "--fail-on-growth")) && cmd_diff_growth(v, a) ? 1 : -1;
	if (cmd_opt_is(s, "--top"))
		return (v = cmd_opt_value(argc, argv, i, "--top")) && cmd_uint_arg("--top", v, &a->top) ? 1 : -1;
	return 0;
}

static bool cmd_diff_scan(int argc, char **argv, void *args, bool *help)
{
	struct diff_args *a = args;
	const char *pos[2] = { NULL, NULL };
	int fmt = (int)a->format;
	struct cmd_scan s = { .cmd = "diff", .lint = &a->lint, .format = &fmt,
			      .formats = 1u << REPORT_TEXT | 1u << REPORT_JSON, .own = cmd_diff_own, .ctx = a,
			      .pos = pos, .maxpos = 2 };
	bool ok = cmd_scan_args(argc, argv, &s, help);
	a->format = (enum report_format)fmt;
	a->old = pos[0];
	a->new = pos[1];
	return ok;
}

static bool cmd_diff_apply(int argc, char **argv, struct config *c)
{
	static const char *const valued[] = { "--config", "--baseline", "--format", "--max-errors",
					      "--fail-on-growth", "--top", NULL };
	static const char *const flags[] = { "--no-config", "--all-stages", NULL };
	return cmd_config_args(argc, argv, c, "diff", valued, flags);
}

/* ---- One side: its files, modules, models and findings ---- */

struct cmd_diff_file {
	struct cmd_loaded in;       /* read by a -j worker */
	struct finding_sink sink;
	struct diff_side *mods;     /* its modules, until the side takes them */
	uint32_t nmods;
	bool ok;
};

struct cmd_diff_side {
	struct cmd_inputs in;
	struct cmd_diff_file *files;
	uint32_t nfiles;
	struct diff_side *mods;
	uint32_t nmods;
	bool *paired;
	struct intern_table *stems; /* name stem -> its first module (data: index + 1) */
	uint32_t *same_stem;        /* the next module with the same stem, + 1 */
};

static uint32_t cmd_diff_module(void *ctx, uint32_t k, struct hlo_module *m, struct mem_model *mm)
{
	struct cmd_diff_file *df = ctx;
	df->mods = xreallocarray(df->mods, df->nmods + 1, sizeof *df->mods);
	df->mods[df->nmods++] = (struct diff_side){ .src = df->in.src, .m = m, .mm = mm };
	return k;
}

/* The findings of module s->mods[k] in its file's sink. */
static void cmd_diff_findings(struct cmd_diff_side *s, uint32_t from, const struct finding_sink *sink,
			      struct arena *a)
{
	for (uint32_t k = from; k < s->nmods; k++) {
		struct diff_side *d = &s->mods[k];
		d->findings = arena_array(a, sink->n ? sink->n : 1, sizeof *d->findings);
		for (uint32_t j = 0; j < sink->n; j++)
			if (!strcmp(sink->items[j]->module, d->m->name ? d->m->name->str : ""))
				d->findings[d->nfindings++] = sink->items[j];
	}
}

/* -j: a worker loads one file of a side and runs the rules; the delivery
 * settles suppressions and the baseline and adds its modules to the side,
 * in input order, and stops at the first file with errors. */
struct cmd_diff_run {
	struct cmd_diff_side *s;
	struct config *c;
	struct diag_sink *d;
	struct arena *a;
};

static void *cmd_diff_work(void *ctx, int k)
{
	struct cmd_diff_run *r = ctx;
	struct cmd_diff_file *df = xcalloc(1, sizeof *df);
	finding_sink_init(&df->sink);
	cmd_load_deferred(r->s->in.paths[k], r->d, &df->in);
	if (df->in.f && !df->in.d.errors) {
		struct lint_hooks h = { df, cmd_diff_module, NULL };
		df->ok = lint_run(df->in.f, df->in.src, (uint32_t)k, r->c, &df->in.d, &df->sink, &h);
	}
	return df;
}

static void cmd_diff_file_free(struct cmd_diff_file *df)
{
	finding_sink_free(&df->sink);
	cmd_loaded_free(&df->in);
	free(df->mods);
}

static void cmd_diff_drop(void *ctx, int k, void *res)
{
	(void)ctx, (void)k;
	cmd_diff_file_free(res);
	free(res);
}

static bool cmd_diff_deliver(void *ctx, int k, void *res)
{
	struct cmd_diff_run *r = ctx;
	struct cmd_diff_side *s = r->s;
	struct cmd_diff_file *w = res, *df = &s->files[s->nfiles++];
	diag_replay(r->d, &w->in.d);
	diag_free(&w->in.d);        /* its buffer belongs to w: not to be copied */
	*df = *w;
	free(w);
	if (!df->ok)
		return false;
	lint_settle(r->c, &df->sink, 0);
	uint32_t from = s->nmods;
	s->mods = xreallocarray(s->mods, s->nmods + df->nmods + 1, sizeof *s->mods);
	for (uint32_t j = 0; j < df->nmods; j++) {
		s->mods[s->nmods] = df->mods[j];
		s->mods[s->nmods++].path = s->in.paths[k];
	}
	cmd_diff_findings(s, from, &df->sink, r->a);
	return true;
}

static bool cmd_diff_load(const char *path, const struct cmd_lint_args *la, struct config *c, struct diag_sink *d,
			  struct arena *a, struct cmd_diff_side *s)
{
	if (!cmd_inputs((char *const *)&path, 1, la->all_stages, &s->in))
		return false;
	s->files = xcalloc((size_t)s->in.n, sizeof *s->files);
	struct cmd_diff_run r = { s, c, d, a };
	struct jobs j = { s->in.n, la->jobs, &r, cmd_diff_work, cmd_diff_deliver, cmd_diff_drop };
	if (!jobs_run(&j))
		return false;
	s->paired = xcalloc(s->nmods + 1, sizeof *s->paired);
	/* Stems indexed once: pairing 10,000 modules compared every pair. */
	s->stems = intern_new_empty();
	s->same_stem = xcalloc(s->nmods + 1, sizeof *s->same_stem);
	for (uint32_t k = s->nmods; k-- > 0;) {
		const char *n = s->mods[k].m->name ? s->mods[k].m->name->str : "", *b;
		size_t nb = finding_stem(n, strlen(n), true, &b);
		struct interned *e = intern(s->stems, b, nb);
		s->same_stem[k] = (uint32_t)(uintptr_t)e->data;
		e->data = (void *)(uintptr_t)(k + 1);
	}
	return true;
}

static void cmd_diff_side_free(struct cmd_diff_side *s)
{
	for (uint32_t k = 0; k < s->nfiles; k++)
		cmd_diff_file_free(&s->files[k]);
	free(s->files);
	free(s->mods);
	free(s->paired);
	free(s->same_stem);
	if (s->stems)
		intern_free(s->stems);
	cmd_inputs_free(&s->in);
}

/* The module of s named like m (the same name stem), not yet paired: the
 * first of its stem's chain, which drops the paired ones as it goes. */
static struct diff_side *cmd_diff_partner(struct cmd_diff_side *s, const struct hlo_module *m)
{
	const char *a;
	const char *mn = m->name ? m->name->str : "";
	size_t na = finding_stem(mn, strlen(mn), true, &a);
	struct interned *e = intern_find(s->stems, a, na);
	while (e && e->data) {
		uint32_t k = (uint32_t)(uintptr_t)e->data - 1;
		e->data = (void *)(uintptr_t)s->same_stem[k];
		if (!s->paired[k]) {
			s->paired[k] = true;
			return &s->mods[k];
		}
	}
	/* One module on each side: they are the program, whatever their names. */
	if (s->nmods == 1 && !s->paired[0]) {
		s->paired[0] = true;
		return &s->mods[0];
	}
	return NULL;
}

/* ---- Text ---- */

static const char *cmd_diff_sev(enum finding_severity s)
{
	return s == FINDING_ERROR ? "error" : s == FINDING_WARNING ? "warning" : "note";
}

/* The change's headline, e.g. "grew 256.00M -> 512.00M: f32[8,1024] (temp)". */
static void cmd_diff_change_text(const struct diff_change *c, char *msg, size_t cap)
{
	char a[24], b[24], shape[256];
	const struct mem_buffer *x = c->new ? c->new : c->old;
	ir_shape_format(x->shape, false, shape, sizeof shape);
	const char *kind = mem_kind_name((enum mem_kind)x->kind);
	switch (c->kind) {
	case DIFF_NEW:
		snprintf(msg, cap, "new buffer: %s %s (%s)", size_human(x->bytes, a), shape, kind);
		break;
	case DIFF_GONE:
		snprintf(msg, cap, "no longer allocated: %s %s (%s)", size_human(x->bytes, a), shape, kind);
		break;
	case DIFF_GROWN:
	case DIFF_SHRUNK:
		snprintf(msg, cap, "%s %s -> %s: %s (%s)", c->kind == DIFF_GROWN ? "grew" : "shrank",
			 size_human(c->old->bytes, a), size_human(c->new->bytes, b), shape, kind);
		break;
	case DIFF_LOST_SHARDING:
		snprintf(msg, cap, "lost its sharding: %s %s is whole on every device now (%s before)", shape,
			 size_human(c->new->bytes, a), size_human(c->old->bytes, b));
		break;
	case DIFF_GAINED_SHARDING:
		snprintf(msg, cap, "now sharded: %s %s per device (%s before)", shape, size_human(c->new->bytes, a),
			 size_human(c->old->bytes, b));
		break;
	case DIFF_LEFT_HOST:
		snprintf(msg, cap, "left host memory: %s %s is in device memory now (was S(5))", shape,
			 size_human(c->new->bytes, a));
		break;
	case DIFF_TO_HOST:
		snprintf(msg, cap, "moved to host memory (S(5)): %s %s", shape, size_human(c->new->bytes, a));
		break;
	}
}

static bool cmd_diff_bad(enum diff_kind k)
{
	return k == DIFF_NEW || k == DIFF_GROWN || k == DIFF_LOST_SHARDING || k == DIFF_LEFT_HOST;
}

static void cmd_diff_text_change(FILE *out, const struct diff_side *o, const struct diff_side *n,
				 const struct diff_change *c)
{
	char msg[700];
	cmd_diff_change_text(c, msg, sizeof msg);
	const struct diff_side *at = c->new ? n : o;
	const struct hlo_instr *i = (c->new ? c->new : c->old)->def;
	struct span sp = ir_instr_name_span(i);
	uint64_t line, col;
	source_position(at->src, sp.start, &line, &col);
	diag_line(out, "%s:%llu:%llu: %s: %s [diff]\n", at->path, (unsigned long long)line, (unsigned long long)col,
		cmd_diff_bad(c->kind) ? "warning" : "note", msg);
	diag_print_line(out, at->src, sp);
	snprintf(msg, sizeof msg, "matched across the compiles by its op_name: %s", c->label);
	report_wrap(out, "note: ", msg, 6);
}

static void cmd_diff_text_finding(FILE *out, const struct finding *f, const char *what)
{
	char msg[700];
	snprintf(msg, sizeof msg, "%s:%llu:%llu: %s: %s [%s]", f->path, (unsigned long long)f->line,
		 (unsigned long long)f->col, cmd_diff_sev(f->severity), f->message, f->rule);
	report_wrap(out, "", msg, 6);
	report_wrap(out, "note: ", what, 6);
}

static double cmd_diff_pct(uint64_t o, uint64_t n)
{
	return o ? ((double)n - (double)o) * 100.0 / (double)o : 0;
}

static void cmd_diff_text_pair(FILE *out, const struct diff_side *o, const struct diff_side *n,
			       const struct diff_result *r)
{
	char a[24], b[24], c[24], msg[600];
	diag_line(out, "%s -> %s: module %s\n", o->path, n->path, n->m->name ? n->m->name->str : "?");
	uint64_t ot = o->mm->total_bytes, nt = n->mm->total_bytes;
	snprintf(msg, sizeof msg, "total allocation %s -> %s (%s%s, %+.1f%%)", size_human(ot, a), size_human(nt, b),
		 nt >= ot ? "+" : "-", size_human(nt >= ot ? nt - ot : ot - nt, c), cmd_diff_pct(ot, nt));
	report_wrap(out, "  ", msg, 4);
	snprintf(msg, sizeof msg, "liveness peak %s -> %s (%+.1f%%)", size_human(o->mm->peak_bytes, a),
		 size_human(n->mm->peak_bytes, b), cmd_diff_pct(o->mm->peak_bytes, n->mm->peak_bytes));
	report_wrap(out, "  ", msg, 4);
	if (r->old_aliases != r->new_aliases) {
		snprintf(msg, sizeof msg, "donation: %u -> %u outputs alias a parameter (input_output_alias)",
			 r->old_aliases, r->new_aliases);
		report_wrap(out, "  ", msg, 4);
	}
	for (uint32_t k = 0; k < r->nchanges; k++)
		cmd_diff_text_change(out, o, n, &r->changes[k]);
	for (uint32_t k = 0; k < r->nadded; k++)
		cmd_diff_text_finding(out, r->added[k], "new finding: the old compile did not have it");
	for (uint32_t k = 0; k < r->nresolved; k++)
		cmd_diff_text_finding(out, r->resolved[k], "gone: the new compile no longer has it");
}

/* ---- JSON ---- */

static void cmd_diff_json_buffer(struct json_writer *w, const char *key, const struct diff_side *s,
				 const struct mem_buffer *b)
{
	json_key(w, key);
	if (!b) {
		json_null(w);
		return;
	}
	char shape[512];
	uint64_t line, col;
	source_position(s->src, ir_instr_name_span(b->def).start, &line, &col);
	ir_shape_format(b->shape, true, shape, sizeof shape);
	json_begin_object(w);
	json_key(w, "path");
	json_string(w, s->path);
	json_key(w, "line");
	json_uint(w, line);
	json_key(w, "col");
	json_uint(w, col);
	json_key(w, "instruction");
	json_string_n(w, ir_name(b->def), ir_name_len(b->def));
	json_key(w, "shape");
	json_string(w, shape);
	json_key(w, "kind");
	json_string(w, mem_kind_name((enum mem_kind)b->kind));
	json_key(w, "bytes");
	json_uint(w, b->bytes);
	json_end_object(w);
}

static void cmd_diff_json_findings(struct json_writer *w, const char *key, const struct finding *const *v,
				   uint32_t n)
{
	json_key(w, key);
	json_begin_array(w);
	for (uint32_t k = 0; k < n; k++) {
		json_begin_object(w);
		json_key(w, "rule");
		json_string(w, v[k]->rule);
		json_key(w, "severity");
		json_string(w, cmd_diff_sev(v[k]->severity));
		json_key(w, "path");
		json_string(w, v[k]->path);
		json_key(w, "line");
		json_uint(w, v[k]->line);
		json_key(w, "instruction");
		json_string(w, v[k]->instruction);
		json_key(w, "message");
		json_string(w, v[k]->message);
		json_key(w, "fingerprint");
		json_string(w, v[k]->fingerprint);
		json_end_object(w);
	}
	json_end_array(w);
}

static void cmd_diff_json_pair(struct json_writer *w, const struct diff_side *o, const struct diff_side *n,
			       const struct diff_result *r, bool failed)
{
	json_begin_object(w);
	json_key(w, "module");
	json_string(w, n->m->name ? n->m->name->str : "");
	json_key(w, "old_path");
	json_string(w, o->path);
	json_key(w, "new_path");
	json_string(w, n->path);
#define CMD_DIFF_FIG(f) json_key(w, "old_" #f); json_uint(w, o->mm->f); json_key(w, "new_" #f); json_uint(w, n->mm->f);
	CMD_DIFF_FIG(total_bytes) CMD_DIFF_FIG(peak_bytes) CMD_DIFF_FIG(argument_bytes) CMD_DIFF_FIG(temp_bytes)
#undef CMD_DIFF_FIG
	json_key(w, "old_aliases");
	json_uint(w, r->old_aliases);
	json_key(w, "new_aliases");
	json_uint(w, r->new_aliases);
	json_key(w, "growth_failed");
	json_bool(w, failed);
	json_key(w, "changes");
	json_begin_array(w);
	for (uint32_t k = 0; k < r->nchanges; k++) {
		const struct diff_change *c = &r->changes[k];
		json_begin_object(w);
		json_key(w, "kind");
		json_string(w, diff_kind_name(c->kind));
		json_key(w, "label");
		json_string(w, c->label);
		cmd_diff_json_buffer(w, "old", o, c->old);
		cmd_diff_json_buffer(w, "new", n, c->new);
		json_end_object(w);
	}
	json_end_array(w);
	cmd_diff_json_findings(w, "new_findings", r->added, r->nadded);
	cmd_diff_json_findings(w, "gone_findings", r->resolved, r->nresolved);
	json_end_object(w);
}

/* ---- Driver ---- */

static bool cmd_diff_grew(const struct diff_args *a, const struct diff_side *o, const struct diff_side *n)
{
	uint64_t ot = o->mm->total_bytes, nt = n->mm->total_bytes;
	if (!a->has_growth || nt <= ot)
		return false;
	return a->growth_pct ? cmd_diff_pct(ot, nt) > a->growth : (double)(nt - ot) > a->growth;
}

/* Pairs and compares every module; the exit status. */
static int cmd_diff_report(const struct diff_args *a, struct config *cfg, struct cmd_diff_side *os,
			   struct cmd_diff_side *ns, struct arena *ar)
{
	struct json_writer w;
	bool json = a->format == REPORT_JSON, failing = false;
	uint32_t npairs = 0, nchanges = 0, nadded = 0, nresolved = 0;
	if (json) {
		json_init(&w, stdout, 2);
		json_begin_object(&w);
		json_key(&w, "schema");
		json_int(&w, 1);
		json_key(&w, "pairs");
		json_begin_array(&w);
	}
	for (uint32_t k = 0; k < ns->nmods; k++) {
		struct diff_side *n = &ns->mods[k], *o = cmd_diff_partner(os, n->m);
		if (!o) {
			if (!json)
				diag_line(stdout, "%s: module %s is new (nothing in %s to compare with)\n", n->path,
					n->m->name ? n->m->name->str : "?", a->old);
			continue;
		}
		struct diff_result r;
		diff_run(o, n, a->top, ar, &r);
		bool grew = cmd_diff_grew(a, o, n);
		failing |= grew;
		for (uint32_t j = 0; j < r.nadded; j++)
			failing |= finding_fails(r.added[j], cfg->fail_on);
		npairs++;
		nchanges += r.nchanges;
		nadded += r.nadded;
		nresolved += r.nresolved;
		if (json)
			cmd_diff_json_pair(&w, o, n, &r, grew);
		else
			cmd_diff_text_pair(stdout, o, n, &r);
	}
	if (json) {
		json_end_array(&w);
		json_end_object(&w);
		json_finish(&w);
	} else {
		printf("hlolint diff: %u module%s compared, %u buffer change%s, %u new finding%s, %u gone%s\n", npairs,
		       npairs == 1 ? "" : "s", nchanges, nchanges == 1 ? "" : "s", nadded, nadded == 1 ? "" : "s",
		       nresolved, a->has_growth && failing ? "; fails --fail-on-growth or --fail-on" : "");
	}
	if (fflush(stdout) || ferror(stdout))
		return 2;   /* said by main_stdout_done */
	if (!npairs) {
		fprintf(stderr, "hlolint: error: no module of %s has a counterpart in %s\n", a->new, a->old);
		return 2;
	}
	return failing && !cfg->exit_zero ? 1 : 0;
}

/* Whether both inputs were given (cmd_frame). */
static bool cmd_diff_ready(const void *a)
{
	return ((const struct diff_args *)a)->new != NULL;
}

/* Both sides loaded, then compared. */
static int cmd_diff_run(void *args, struct config *cfg, struct diag_sink *d)
{
	struct diff_args *a = args;
	struct arena ar;
	arena_init(&ar);
	struct cmd_diff_side os = { 0 }, ns = { 0 };
	int rc = 2;
	if (cmd_diff_load(a->old, &a->lint, cfg, d, &ar, &os) && cmd_diff_load(a->new, &a->lint, cfg, d, &ar, &ns))
		rc = cmd_diff_report(a, cfg, &os, &ns, &ar);
	cmd_diff_side_free(&os);
	cmd_diff_side_free(&ns);
	arena_free(&ar);
	return rc;
}

int cmd_diff(int argc, char **argv)
{
	struct diff_args a = { .format = REPORT_TEXT, .top = 20, .lint = { .max_errors = 20 } };
	struct cmd_frame fr = { &a, &a.lint, cmd_diff_scan, cmd_diff_help, cmd_diff_ready, cmd_diff_apply,
				cmd_diff_run };
	return cmd_frame_run(argc, argv, &fr);
}
