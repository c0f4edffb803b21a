/* cmd_annotate.c - `hlolint annotate FILE [-o OUT] [--apply] [--in-place]
 * [--diff] [check options]`: rules as check runs them, then comments
 * (annotate.h) and fixes (apply.h).  Output is built in memory and written
 * only when all succeeded, files through a temporary file and a rename. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "annotate.h"
#include "apply.h"
#include "cmd.h"
#include "config.h"
#include "finding.h"
#include "lint.h"
#include "mem.h"
#include "output.h"
#include "pass.h"
#include "rewrite.h"

struct annotate_args {
	const char *file, *out;
	bool apply, in_place, diff, strip;
	struct cmd_lint_args lint;
};

/* annotate's own options and the lint options. */
static bool cmd_annotate_args(const struct args *g, struct annotate_args *a)
{
	a->file = g->files[0];
	a->out = args_value(g, FLAG_OUTPUT);
	a->apply = args_has(g, FLAG_APPLY);
	a->in_place = args_has(g, FLAG_IN_PLACE);
	a->strip = args_has(g, FLAG_STRIP);
	a->diff = args_has(g, FLAG_DIFF);
	return cmd_lint_from(g, &a->lint);
}

/* ---- Safety: what may be written where ---- */

static bool cmd_annotate_check_targets(const struct annotate_args *a)
{
	bool stdin_in = !strcmp(a->file, "-");
	if (a->in_place) {
		if (stdin_in) {
			fprintf(stderr, "hlolint: error: --in-place needs a FILE, not standard input\n");
			return false;
		}
		if (a->out && strcmp(a->out, "-") && !output_same_file(a->out, a->file)) {
			fprintf(stderr, "hlolint: error: --in-place rewrites '%s'; -o names another file\n", a->file);
			return false;
		}
		struct stat st;
		if (stat(a->file, &st) != 0) {
			fprintf(stderr, "hlolint: error: cannot open '%s': %s\n", a->file, strerror(errno));
			return false;
		}
		if (!S_ISREG(st.st_mode)) {
			fprintf(stderr, "hlolint: error: --in-place needs a regular file: '%s'\n", a->file);
			return false;
		}
		if (!output_allowed(a->file, true))
			return false;
		/* A gzip input would be replaced by plain text. */
		FILE *f = fopen(a->file, "rb");
		unsigned char magic[2] = { 0, 0 };
		size_t got = f ? fread(magic, 1, 2, f) : 0;
		if (f)
			fclose(f);
		if (got == 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
			fprintf(stderr, "hlolint: error: '%s' is gzip-compressed; use -o to write the annotated text\n",
				a->file);
			return false;
		}
	} else if (a->out && strcmp(a->out, "-") && !stdin_in && output_same_file(a->out, a->file)) {
		fprintf(stderr, "hlolint: error: -o '%s' is the input file; use --in-place to rewrite it\n", a->out);
		return false;
	} else if (a->out && !output_allowed(a->out, false)) {
		return false;
	}
	return true;
}

/* ---- Running the rules ---- */

/* lint_file's hook: mms[k] gets module k's memory model; its findings
 * carry module_index k. */
static uint32_t cmd_annotate_module(void *ctx, uint32_t k, struct hlo_module *m, struct mem_model *mm)
{
	(void)m;
	((struct mem_model **)ctx)[k] = mm;
	return k;
}

/* Runs the pipeline (lint.h) over f: the annotated file is file 0. */
static bool cmd_annotate_rules(struct hlo_file *f, struct source *src, struct config *c, struct diag_sink *d,
			       struct finding_sink *sink, struct mem_model **mms)
{
	struct lint_hooks h = { mms, cmd_annotate_module, NULL, NULL };
	return lint_file(f, src, 0, c, d, sink, &h);
}

struct cmd_instr_at {
	uint64_t off;
	struct hlo_instr *i;
};

static int cmd_annotate_at_cmp(const void *pa, const void *pb)
{
	const struct cmd_instr_at *a = pa, *b = pb;
	return a->off < b->off ? -1 : a->off > b->off;
}

/* The instructions of m by the start of their name (findings carry it). */
static struct cmd_instr_at *cmd_annotate_index(struct hlo_module *m, uint32_t *n)
{
	uint32_t cap = 0;
	*n = 0;
	struct cmd_instr_at *v = NULL;
	for (uint32_t c = 0; c < m->ncomps; c++)
		for (uint32_t k = 0; k < m->comps[c]->ninstrs; k++) {
			struct hlo_instr *i = m->comps[c]->instrs[k];
			if (ir_is_anonymous(i))
				continue;
			if (*n == cap) {
				cap = cap ? cap * 2 : 256;
				v = xreallocarray(v, cap, sizeof *v);
			}
			v[(*n)++] = (struct cmd_instr_at){ ir_instr_name_span(i).start, i };
		}
	if (*n)
		qsort(v, *n, sizeof *v, cmd_annotate_at_cmp);
	return v;
}

static struct hlo_instr *cmd_annotate_find(const struct cmd_instr_at *v, uint32_t n, const struct finding *f)
{
	if (!f->instruction[0] || span_is_none(f->span))
		return NULL;
	uint32_t lo = 0, hi = n;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (v[mid].off < f->span.start)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && v[lo].off == f->span.start ? v[lo].i : NULL;
}

/* Parses the applied text quietly; on errors, again loudly (they are ours). */
static struct hlo_file *cmd_annotate_reparse(const char *label, const char *text, size_t n, struct source **src)
{
	*src = source_from_memory(label, text, n);
	struct diag_sink q;
	diag_init(&q, stderr, 20);
	q.quiet = true;
	struct hlo_file *f = parse_file(*src, &q);
	if (!q.errors)
		return f;
	parse_free(f);
	struct diag_sink d;
	diag_init(&d, stderr, 20);
	parse_free(parse_file(*src, &d));
	source_free(*src);
	*src = NULL;
	return NULL;
}

/* One run's state, shared by the steps of cmd_annotate below. */
struct cmd_annotate_run {
	struct annotate_args a;
	struct config cfg;
	struct source *src, *src2;
	struct hlo_file *f, *f2;
	struct finding_sink sink, sink2;
	struct rewrite rw_apply, rw_note;
	struct apply_state st;
	struct mem_model **mms, **mms2;
	struct annotate_item **items;
	uint32_t *nitems, nmod, *napplicable, *napplied;
	bool measured;
	struct cmd_inputs in;       /* a.file as given, or the one module of the folder it names */
	char *applied_text, *out;
	size_t applied_len, out_len;
};

/* The findings shown, per module, located at their instruction; true when
 * one of them can be applied. */
static bool cmd_annotate_locate(struct cmd_annotate_run *r)
{
	r->items = xcalloc(r->nmod + 1, sizeof *r->items);
	r->nitems = xcalloc(r->nmod + 1, sizeof *r->nitems);
	uint32_t k = 0;
	bool any_applicable = false;
	for (struct hlo_module *m = r->f->modules; m; m = m->next, k++) {
		uint32_t nidx;
		struct cmd_instr_at *idx = cmd_annotate_index(m, &nidx);
		r->items[k] = xcalloc(r->sink.n + 1, sizeof **r->items);
		for (uint32_t j = 0; j < r->sink.n; j++) {
			const struct finding *fd = r->sink.items[j];
			if (fd->module_index != k || fd->suppressed || fd->baseline)
				continue;
			struct annotate_item *it = &r->items[k][r->nitems[k]++];
			it->f = fd;
			it->instr = cmd_annotate_find(idx, nidx, fd);
			any_applicable |= apply_supported(fd) && it->instr;
		}
		free(idx);
	}
	return any_applicable;
}

/* Suggestions are made in a rewrite of their own, kept for the output with
 * --apply and measured (the "after" total) either way. */
static void cmd_annotate_apply_all(struct cmd_annotate_run *r, bool any_applicable)
{
	rewrite_free(&r->rw_apply);
	rewrite_init(&r->rw_apply, r->src->buf, r->src->len);
	r->rw_apply.src = r->src;
	r->napplicable = xcalloc(r->nmod + 1, sizeof *r->napplicable);
	r->napplied = xcalloc(r->nmod + 1, sizeof *r->napplied);
	uint32_t k = 0;
	for (struct hlo_module *m = r->f->modules; any_applicable && m; m = m->next, k++)
		for (uint32_t j = 0; j < r->nitems[k]; j++) {
			struct annotate_item *it = &r->items[k][j];
			if (!apply_supported(it->f) || !it->instr)
				continue;
			r->napplicable[k]++;
			char why[400];
			struct apply_note *notes;
			if (apply_finding(&r->st, m, r->mms[k], it->f, (struct hlo_instr *)it->instr, &notes, why,
					  sizeof why)) {
				r->napplied[k]++;
				if (r->a.apply) {
					it->applied = true;
					it->notes = notes;
				}
			} else if (r->a.apply) {
				it->why_not = finding_strdup(&r->sink, why);
			}
		}
}

/* Whether g, a finding of the applied module, reports it again. */
static bool cmd_annotate_again(const struct annotate_item *it, const struct finding *g, uint32_t m)
{
	return g->module_index == m && !g->suppressed && !g->baseline && !strcmp(it->f->rule, g->rule) &&
	       !strcmp(it->f->computation, g->computation) && !strcmp(it->f->instruction, g->instruction);
}

/* The rules must not report an applied finding again; findings they no
 * longer report at all were resolved by the changes. */
static void cmd_annotate_mark_resolved(struct cmd_annotate_run *r)
{
	for (uint32_t m = 0; r->a.apply && m < r->nmod; m++)
		for (uint32_t x = 0; x < r->nitems[m]; x++) {
			struct annotate_item *it = &r->items[m][x];
			bool again = false;
			for (uint32_t j = 0; j < r->sink2.n && !again; j++)
				again = cmd_annotate_again(it, r->sink2.items[j], m);
			if (it->applied && again)
				fprintf(stderr, "hlolint: warning: %s still reports %%%s after --apply\n", it->f->rule,
					it->f->instruction);
			if (it->applied || again)
				continue;
			/* Gone from its instruction: resolved, unless the rule
			 * reports as many as before elsewhere (a peak that moved). */
			uint32_t before = 0, made = 0, after = 0;
			for (uint32_t y = 0; y < r->nitems[m]; y++)
				if (!strcmp(r->items[m][y].f->rule, it->f->rule)) {
					before++;
					made += r->items[m][y].applied;
				}
			for (uint32_t j = 0; j < r->sink2.n; j++) {
				const struct finding *g = r->sink2.items[j];
				after += g->module_index == m && !g->suppressed && !g->baseline && !strcmp(g->rule, it->f->rule);
			}
			it->resolved = after < before - made;
		}
}

/* Re-parses and re-lints the applied text (its models are the "after"
 * figures).  False, having said why, when it does not hold together. */
static bool cmd_annotate_measure(struct cmd_annotate_run *r)
{
	if (rewrite_empty(&r->rw_apply))
		return true;
	r->applied_text = rewrite_result(&r->rw_apply, &r->applied_len);
	char label[512];
	snprintf(label, sizeof label, "%s (with the suggestions applied)", r->src->path);
	r->f2 = cmd_annotate_reparse(label, r->applied_text, r->applied_len, &r->src2);
	if (!r->f2) {
		fprintf(stderr, "hlolint: error: internal: the applied suggestions do not parse; nothing written\n");
		return false;
	}
	uint32_t n2 = 0;
	for (struct hlo_module *m = r->f2->modules; m; m = m->next)
		n2 += m->valid;
	if (n2 != r->nmod) {
		fprintf(stderr, "hlolint: error: internal: the applied suggestions do not verify; nothing written\n");
		return false;
	}
	struct hlo_module *m1 = r->f->modules, *m2 = r->f2->modules;
	for (; m1 && m2; m1 = m1->next, m2 = m2->next)
		if (apply_space_mismatches(m2) > apply_space_mismatches(m1)) {
			fprintf(stderr, "hlolint: error: internal: the applied memory spaces are not consistent in "
					"module %s; nothing written\n", m1->name ? m1->name->str : "?");
			return false;
		}
	r->mms2 = xcalloc(r->nmod + 1, sizeof *r->mms2);
	struct diag_sink dq;
	diag_init(&dq, stderr, 20);
	dq.quiet = true;
	cmd_annotate_rules(r->f2, r->src2, &r->cfg, &dq, &r->sink2, r->mms2);
	r->measured = true;
	cmd_annotate_mark_resolved(r);
	return true;
}

/* The output text: the applied text's rewrite, or the original, plus the
 * comments.  --apply with nothing left to make on a module an earlier
 * --apply annotated leaves it as it is: its notes say what was done, which
 * the text alone no longer tells. */
static void cmd_annotate_render(struct cmd_annotate_run *r)
{
	if (r->a.apply && !r->a.strip && rewrite_empty(&r->rw_apply) && annotate_applied_before(r->f)) {
		r->out_len = (size_t)r->src->len;
		r->out = xmalloc(r->out_len + 1);
		memcpy(r->out, r->src->buf, r->out_len);
		return;
	}
	struct rewrite *rw = &r->rw_apply;
	if (!r->a.apply) {
		rewrite_free(&r->rw_note);
		rewrite_init(&r->rw_note, r->src->buf, r->src->len);
		r->rw_note.src = r->src;
		rw = &r->rw_note;
	}
	annotate_strip(rw, r->f);
	uint32_t k = 0;
	for (struct hlo_module *m = r->f->modules; !r->a.strip && m; m = m->next, k++) {
		const struct mem_model *mm = r->mms[k];
		struct annotate_summary sum = {
			.total_before = mm->total_bytes,
			.total_after = r->measured ? r->mms2[k]->total_bytes : mm->total_bytes,
			.have_after = r->measured,
			.apply = r->a.apply,
			.napplicable = r->napplicable[k],
			.napplied = r->napplied[k],
			.target = mm->target && mm->target->kind != TARGET_NONE ? mm->target->name : NULL,
			.hbm_bytes = mm->hbm_bytes,
		};
		annotate_module(rw, m, r->items[k], r->nitems[k], &sum);
	}
	/* Every edit is recorded (its text copied into the rewrite): the
	 * parses and their models go before the output is built, so the IR
	 * and the output text are never held at once (peak RSS). */
	parse_free(r->f);
	parse_free(r->f2);
	r->f = r->f2 = NULL;
	r->out = rewrite_result(rw, &r->out_len);
}

/* Writes the output where asked (nothing was written before); false on
 * an I/O error, said. */
static bool cmd_annotate_write(struct cmd_annotate_run *r)
{
	const struct annotate_args *a = &r->a;
	bool ok = true;
	bool changed = !source_equals(r->src, r->out, r->out_len);
	if (a->in_place) {
		if (changed)
			ok = output_write_in_place(a->file, r->out, r->out_len);
	} else if (a->out && strcmp(a->out, "-")) {
		ok = output_write(a->out, r->out, r->out_len, NULL);
	} else if (!a->diff) {
		ok = output_write("-", r->out, r->out_len, NULL);
	}
	if (ok && a->diff)
		ok = annotate_diff(stdout, a->file, a->in_place ? a->file : a->out && strcmp(a->out, "-") ? a->out : a->file,
				   r->src->buf, (size_t)r->src->len, r->out, r->out_len);
	/* A failed stdout is said by main_stdout_done; output_write says its own. */
	if (fflush(stdout) != 0 || !ok)
		return false;
	return true;
}

/* Options, the configuration and the baseline; false having said why. */
static bool cmd_annotate_setup(struct cmd_annotate_run *r, const struct args *g, struct diag_sink *d)
{
	return cmd_lint_config(&r->a.lint, g, &r->cfg, d) &&
	       cmd_annotate_check_targets(&r->a);
}

static void cmd_annotate_free(struct cmd_annotate_run *r)
{
	cmd_inputs_free(&r->in);
	if (r->items)
		for (uint32_t j = 0; j < r->nmod; j++)
			free(r->items[j]);
	free(r->items);
	free(r->nitems);
	free(r->napplicable);
	free(r->napplied);
	free(r->mms);
	free(r->mms2);
	free(r->applied_text);
	free(r->out);
	apply_free(&r->st);
	rewrite_free(&r->rw_apply);
	rewrite_free(&r->rw_note);
	finding_sink_free(&r->sink);
	finding_sink_free(&r->sink2);
	parse_free(r->f2);
	source_free(r->src2);
	parse_free(r->f);
	source_free(r->src);
	config_free(&r->cfg);
}

int cmd_annotate(const struct args *g)
{
	struct cmd_annotate_run run = { 0 }, *r = &run;
	int rc = 2;
	config_init(&r->cfg);
	finding_sink_init(&r->sink);
	finding_sink_init(&r->sink2);
	rewrite_init(&r->rw_apply, "", 0);
	rewrite_init(&r->rw_note, "", 0);
	apply_init(&r->st, &r->rw_apply);

	if (!cmd_annotate_args(g, &r->a))
		goto done;
	if (!cmd_input_one(r->a.file, r->a.lint.all_stages, &r->in))
		goto done;
	r->a.file = r->in.paths[0];
	struct diag_sink d;
	diag_init(&d, stderr, r->a.lint.max_errors);
	if (!cmd_annotate_setup(r, g, &d))
		goto done;
	r->f = cmd_load(r->a.file, &d, &r->src);
	if (!r->f || d.errors)
		goto done;
	for (struct hlo_module *m = r->f->modules; m; m = m->next) {
		if (!m->valid)
			goto done;
		r->nmod++;
	}
	r->mms = xcalloc(r->nmod + 1, sizeof *r->mms);
	if (r->a.strip && !r->a.apply) {
		/* Only the comments go: no rules to run. */
		r->napplicable = xcalloc(r->nmod + 1, sizeof *r->napplicable);
		r->napplied = xcalloc(r->nmod + 1, sizeof *r->napplied);
		r->nitems = xcalloc(r->nmod + 1, sizeof *r->nitems);
	} else {
		if (!cmd_annotate_rules(r->f, r->src, &r->cfg, &d, &r->sink, r->mms) || d.errors)
			goto done;
		cmd_annotate_apply_all(r, cmd_annotate_locate(r));
		if (!cmd_annotate_measure(r))
			goto done;
	}
	cmd_annotate_render(r);
	if (!cmd_annotate_write(r))
		goto done;
	unsigned failing = 0;
	for (uint32_t k = 0; k < r->nmod; k++)
		for (uint32_t j = 0; j < r->nitems[k]; j++)
			failing += !r->items[k][j].applied && !r->items[k][j].resolved &&
				   finding_fails(r->items[k][j].f, r->cfg.fail_on);
	rc = failing && !r->cfg.exit_zero ? 1 : 0;
done:
	cmd_annotate_free(r);
	return rc;
}
