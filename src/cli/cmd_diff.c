/* cmd_diff.c - `hlolint diff OLD NEW`: what a change did to memory, for
 * CI.  Loads both compiles (files or --xla_dump_to folders), pairs their
 * modules by name, runs the pipeline on each (lint.h) and prints what
 * diff.h finds, in text or JSON; --fail-on-growth sets the exit status.
 * Options and printing only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "compile.h"
#include "dumpdir.h"
#include "diff.h"
#include "json.h"
#include "lex.h"
#include "intern.h"
#include "jobs.h"
#include "lint.h"
#include "report.h"
#include "size.h"

struct diff_args {
	const char *old, *new;
	enum report_format format;
	unsigned top;
	bool has_growth, growth_pct;
	double growth;              /* percent, or bytes */
	uint64_t min_change;        /* text: smaller changes are counted in one line... */
	double min_change_fraction; /* ... when also under this share of the total */
	struct cmd_lint_args lint;
};

/* --min-change-bytes and --min-change-fraction; false after an error line. */
static bool cmd_diff_min_change(const struct args *g, struct diff_args *a)
{
	const char *b = args_value(g, FLAG_MIN_CHANGE_BYTES), *f = args_value(g, FLAG_MIN_CHANGE_FRACTION);
	a->min_change = 1u << 20;
	a->min_change_fraction = 0.01;
	if (b && !size_parse(b, strlen(b), &a->min_change)) {
		fprintf(stderr, "hlolint: error: --min-change-bytes expects a size such as 1M or 4096, got '%s'\n", b);
		return false;
	}
	if (f) {
		char *end;
		double v = strtod(f, &end);
		if (*end == '%' && end[1] == 0) {
			v /= 100;
			end++;
		}
		if (end == f || *end || !(v >= 0 && v <= 1)) {
			fprintf(stderr, "hlolint: error: --min-change-fraction expects 0 to 1 or a percentage such as 1%%, "
					"got '%s'\n", f);
			return false;
		}
		a->min_change_fraction = v;
	}
	return true;
}

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

/* ---- Pairing: the modules of both sides by name, before any is loaded ---- */

/* A module a file holds, by its header line (lex_module_names). */
struct cmd_diff_name {
	char *name;
	uint32_t file;
	int32_t partner;            /* new side: its old module's index in the old list, or -1 */
};

struct cmd_diff_names {
	struct cmd_inputs in;
	struct cmd_diff_name *v;
	uint32_t n;
	uint32_t *first;            /* per file: its first entry in v (nfiles + 1 entries) */
};

struct cmd_diff_peek {
	struct cmd_diff_names *s;
	uint32_t file;
};

static void cmd_diff_add_name(void *ctx, const char *name, size_t len)
{
	struct cmd_diff_peek *p = ctx;
	struct cmd_diff_names *s = p->s;
	s->v = xreallocarray(s->v, s->n + 1, sizeof *s->v);
	char *copy = xmalloc(len + 1);
	memcpy(copy, name, len);
	copy[len] = 0;
	s->v[s->n++] = (struct cmd_diff_name){ copy, p->file, -1 };
}

/* The module names of path's inputs, file by file; a file that cannot be
 * read, or has no header, counts as one module without a name (its
 * loading says what is wrong). */
static bool cmd_diff_names(const char *path, bool all_stages, struct cmd_diff_names *s)
{
	if (!cmd_inputs((char *const *)&path, 1, all_stages, &s->in))
		return false;
	s->first = xcalloc((size_t)s->in.n + 1, sizeof *s->first);
	for (int k = 0; k < s->in.n; k++) {
		s->first[k] = s->n;
		char err[512];
		struct source *src = source_load(s->in.paths[k], err, sizeof err);
		struct cmd_diff_peek p = { s, (uint32_t)k };
		if (!src || src->binary || !lex_module_names(src->buf, (size_t)src->len, cmd_diff_add_name, &p))
			cmd_diff_add_name(&p, "", 0);
		source_free(src);
	}
	s->first[s->in.n] = s->n;
	return true;
}

static void cmd_diff_names_free(struct cmd_diff_names *s)
{
	for (uint32_t k = 0; k < s->n; k++)
		free(s->v[k].name);
	free(s->v);
	free(s->first);
	cmd_inputs_free(&s->in);
}

/* Each new module's partner: the first old module of the same name stem
 * not yet taken (a stem index: 10,000 modules compared every pair), else,
 * when the old side holds one module, that one: it is the program. */
static void cmd_diff_pair(struct cmd_diff_names *os, struct cmd_diff_names *ns)
{
	struct intern_table *stems = intern_new_empty();
	uint32_t *next = xcalloc(os->n + 1, sizeof *next);
	bool *taken = xcalloc(os->n + 1, sizeof *taken);
	for (uint32_t k = os->n; k-- > 0;) {
		const char *b;
		size_t nb = finding_stem(os->v[k].name, strlen(os->v[k].name), true, &b);
		struct interned *e = intern(stems, b, nb);
		next[k] = (uint32_t)(uintptr_t)e->data;
		e->data = (void *)(uintptr_t)(k + 1);
	}
	for (uint32_t j = 0; j < ns->n; j++) {
		const char *a;
		size_t na = finding_stem(ns->v[j].name, strlen(ns->v[j].name), true, &a);
		struct interned *e = intern_find(stems, a, na);
		while (e && e->data && ns->v[j].partner < 0) {
			uint32_t k = (uint32_t)(uintptr_t)e->data - 1;
			e->data = (void *)(uintptr_t)next[k];
			if (!taken[k])
				taken[k] = true, ns->v[j].partner = (int32_t)k;
		}
		if (ns->v[j].partner < 0 && os->n == 1 && !taken[0])
			taken[0] = true, ns->v[j].partner = 0;
	}
	free(taken);
	free(next);
	intern_free(stems);
}

/* ---- Loading: one new file and the old files its modules pair with ---- */

struct cmd_diff_file {
	struct cmd_loaded in;       /* read by a -j worker */
	struct finding_sink sink;
	struct diff_side *mods;
	uint32_t nmods;
	struct compile_sig **sigs;  /* for folder rules: its modules' signatures */
	uint32_t nsigs;
	bool want_sigs, ok;
};

static uint32_t cmd_diff_module(void *ctx, uint32_t k, struct hlo_module *m, struct mem_model *mm)
{
	struct cmd_diff_file *df = ctx;
	df->mods = xreallocarray(df->mods, df->nmods + 1, sizeof *df->mods);
	df->mods[df->nmods++] = (struct diff_side){ .src = df->in.src, .m = m, .mm = mm, .path = df->in.src->path };
	return k;
}

static void cmd_diff_loaded(void *ctx, const struct hlo_module *m)
{
	struct cmd_diff_file *df = ctx;
	if (!df->want_sigs)
		return;
	struct compile_sig *sig = compile_sig_take(m, df->in.src->path);
	if (!sig)
		return;
	df->sigs = xreallocarray(df->sigs, df->nsigs + 1, sizeof *df->sigs);
	df->sigs[df->nsigs++] = sig;
}

static void cmd_diff_file_load(struct cmd_diff_file *df, const char *path, const struct diag_sink *like,
			       const struct config *c, uint32_t index, bool want_sigs)
{
	finding_sink_init(&df->sink);
	df->want_sigs = want_sigs;
	cmd_load_deferred(path, like, &df->in);
	if (df->in.f && !df->in.d.errors) {
		struct lint_hooks h = { df, cmd_diff_module, NULL, cmd_diff_loaded };
		df->ok = lint_run(df->in.f, df->in.src, index, c, &df->in.d, &df->sink, &h);
	}
}

static void cmd_diff_file_free(struct cmd_diff_file *df)
{
	for (uint32_t k = 0; k < df->nsigs; k++)
		compile_sig_free(df->sigs[k]);
	free(df->sigs);
	finding_sink_free(&df->sink);
	cmd_loaded_free(&df->in);
	free(df->mods);
}

/* The findings of df's modules in its sink. */
static void cmd_diff_findings(struct cmd_diff_file *df, struct arena *a)
{
	const struct finding_sink *sink = &df->sink;
	for (uint32_t k = 0; k < df->nmods; k++) {
		struct diff_side *d = &df->mods[k];
		d->findings = arena_array(a, sink->n ? sink->n : 1, sizeof *d->findings);
		for (uint32_t j = 0; j < sink->n; j++)
			if (!strcmp(sink->items[j]->module, d->m->name ? d->m->name->str : ""))
				d->findings[d->nfindings++] = sink->items[j];
	}
}

/* Unit k: new file k with the old files it pairs with (olds), or, past
 * the new files, an old file nothing pairs with (loaded for its errors). */
struct cmd_diff_unit {
	struct cmd_diff_file new;   /* loaded unless the unit is a lonely old file */
	bool has_new;
	struct cmd_diff_file *olds;
	uint32_t *old_files;        /* which old file each of olds is */
	uint32_t nolds;
};

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

/* How much c changed the bytes of its buffer. */
static uint64_t cmd_diff_delta(const struct diff_change *c)
{
	uint64_t ob = c->old ? c->old->bytes : 0, nb = c->new ? c->new->bytes : 0;
	if (c->kind == DIFF_LEFT_HOST || c->kind == DIFF_TO_HOST)
		return nb;   /* the whole buffer moved between memories */
	return nb > ob ? nb - ob : ob - nb;
}

/* The changes under both thresholds, counted in one line. */
static void cmd_diff_text_small(FILE *out, uint32_t nbad, uint32_t ngood, uint64_t up, uint64_t down,
				uint64_t limit)
{
	char a[24], b[24], msg[300];
	if (!nbad && !ngood)
		return;
	snprintf(msg, sizeof msg, "and %u smaller change%s (each under %s): %u new or grown, %u gone or shrunk, "
		 "net %s%s", nbad + ngood, nbad + ngood == 1 ? "" : "s", size_human(limit, a), nbad, ngood,
		 up >= down ? "+" : "-", size_human(up >= down ? up - down : down - up, b));
	report_wrap(out, "  ", msg, 4);
}

static void cmd_diff_text_pair(FILE *out, const struct diff_args *da, const struct diff_side *o,
			       const struct diff_side *n, const struct diff_result *r)
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
	uint64_t big = ot > nt ? ot : nt;
	uint64_t share = (uint64_t)(da->min_change_fraction * (double)big);
	uint64_t limit = share < da->min_change ? share : da->min_change;
	uint32_t nbad = 0, ngood = 0;
	uint64_t up = 0, down = 0;
	for (uint32_t k = 0; k < r->nchanges; k++) {
		const struct diff_change *ch = &r->changes[k];
		if (cmd_diff_delta(ch) >= limit) {
			cmd_diff_text_change(out, o, n, ch);
			continue;
		}
		bool bad = cmd_diff_bad(ch->kind);
		nbad += bad;
		ngood += !bad;
		if (bad)
			up = size_add(up, cmd_diff_delta(ch));
		else
			down = size_add(down, cmd_diff_delta(ch));
	}
	cmd_diff_text_small(out, nbad, ngood, up, down, limit);
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

/* The run: both sides' names and pairs, then the units on -j workers,
 * delivered in order; at most -j units (a new file and its partners) are
 * held at once, whatever the folders hold. */
struct cmd_diff_run {
	const struct diff_args *a;
	struct config *c;
	struct diag_sink *d;
	struct cmd_diff_names os, ns;
	uint32_t *lonely;           /* old files no new module pairs with */
	uint32_t nlonely;
	bool json, failing;
	struct json_writer w;
	uint32_t npairs, nchanges, nadded, nresolved;
	/* Folder rules (both sides folders): which unit takes each old file's
	 * signatures (it may be loaded by several), and both sides' so far. */
	bool want_sigs;
	int32_t *sig_unit;
	struct cmd_diff_sigs {
		struct compile_sig **v;
		uint32_t n;
	} osigs, nsigs;
};

static void *cmd_diff_work(void *ctx, int k)
{
	struct cmd_diff_run *r = ctx;
	struct cmd_diff_unit *u = xcalloc(1, sizeof *u);
	uint32_t nnew = (uint32_t)r->ns.in.n;
	if ((uint32_t)k >= nnew) {
		uint32_t f = r->lonely[(uint32_t)k - nnew];
		u->olds = xcalloc(1, sizeof *u->olds);
		u->old_files = xcalloc(1, sizeof *u->old_files);
		u->old_files[u->nolds++] = f;
		cmd_diff_file_load(&u->olds[0], r->os.in.paths[f], r->d, r->c, f, r->want_sigs && r->sig_unit[f] == k);
		return u;
	}
	uint32_t from = r->ns.first[k], to = r->ns.first[k + 1];
	u->olds = xcalloc(to - from + 1, sizeof *u->olds);
	u->old_files = xcalloc(to - from + 1, sizeof *u->old_files);
	for (uint32_t j = from; j < to; j++) {
		if (r->ns.v[j].partner < 0)
			continue;
		uint32_t f = r->os.v[r->ns.v[j].partner].file, q = 0;
		while (q < u->nolds && u->old_files[q] != f)
			q++;
		if (q == u->nolds) {
			u->old_files[u->nolds] = f;
			cmd_diff_file_load(&u->olds[u->nolds++], r->os.in.paths[f], r->d, r->c, f,
					   r->want_sigs && r->sig_unit[f] == k);
		}
	}
	cmd_diff_file_load(&u->new, r->ns.in.paths[k], r->d, r->c, nnew + (uint32_t)k, r->want_sigs);
	u->has_new = true;
	return u;
}

static void cmd_diff_unit_free(struct cmd_diff_unit *u)
{
	for (uint32_t q = 0; q < u->nolds; q++)
		cmd_diff_file_free(&u->olds[q]);
	free(u->olds);
	free(u->old_files);
	if (u->has_new)
		cmd_diff_file_free(&u->new);
	free(u);
}

static void cmd_diff_drop(void *ctx, int k, void *res)
{
	(void)ctx, (void)k;
	cmd_diff_unit_free(res);
}

/* Its errors shown, its suppressions and baseline settled (input order);
 * false when it could not be read or linted. */
static bool cmd_diff_settle(struct cmd_diff_run *r, struct cmd_diff_file *df, struct arena *a)
{
	diag_replay(r->d, &df->in.d);
	if (!df->ok)
		return false;
	lint_settle(r->c, &df->sink, 0);
	cmd_diff_findings(df, a);
	return true;
}

/* The module of df named name, else its only one; NULL when none. */
static struct diff_side *cmd_diff_named(struct cmd_diff_file *df, const char *name, bool *used)
{
	for (uint32_t k = 0; k < df->nmods; k++)
		if (!used[k] && !strcmp(df->mods[k].m->name ? df->mods[k].m->name->str : "", name))
			return used[k] = true, &df->mods[k];
	return df->nmods == 1 && !used[0] ? (used[0] = true, &df->mods[0]) : NULL;
}

/* The old module new module n of unit k pairs with, or NULL. */
static struct diff_side *cmd_diff_old_of(struct cmd_diff_run *r, int k, struct cmd_diff_unit *u,
					 const struct hlo_module *n, bool *taken, bool **old_used)
{
	const char *name = n->name ? n->name->str : "";
	uint32_t from = r->ns.first[k], to = r->ns.first[k + 1], j = from;
	while (j < to && (taken[j - from] || strcmp(r->ns.v[j].name, name)))
		j++;
	if (j == to && to - from == 1 && !taken[0])
		j = from;   /* a module without a header line */
	if (j == to)
		return NULL;
	taken[j - from] = true;
	if (r->ns.v[j].partner < 0)
		return NULL;
	const struct cmd_diff_name *o = &r->os.v[r->ns.v[j].partner];
	for (uint32_t q = 0; q < u->nolds; q++)
		if (u->old_files[q] == o->file)
			return cmd_diff_named(&u->olds[q], o->name, old_used[q]);
	return NULL;
}

static void cmd_diff_compare(struct cmd_diff_run *r, struct diff_side *o, struct diff_side *n, struct arena *a)
{
	struct diff_result res;
	diff_run(o, n, r->a->top, a, &res);
	bool grew = cmd_diff_grew(r->a, o, n);
	r->failing |= grew;
	for (uint32_t j = 0; j < res.nadded; j++)
		r->failing |= finding_fails(res.added[j], r->c->fail_on);
	r->npairs++;
	r->nchanges += res.nchanges;
	r->nadded += res.nadded;
	r->nresolved += res.nresolved;
	if (r->json)
		cmd_diff_json_pair(&r->w, o, n, &res, grew);
	else
		cmd_diff_text_pair(stdout, r->a, o, n, &res);
}

/* df's signatures join a side's, numbered by the file they came from. */
static void cmd_diff_sigs_take(struct cmd_diff_sigs *side, struct cmd_diff_file *df, uint32_t file)
{
	for (uint32_t k = 0; k < df->nsigs; k++) {
		df->sigs[k]->file_index = file;
		side->v = xreallocarray(side->v, side->n + 1, sizeof *side->v);
		side->v[side->n++] = df->sigs[k];
	}
	df->nsigs = 0;
}

static bool cmd_diff_deliver(void *ctx, int k, void *res)
{
	struct cmd_diff_run *r = ctx;
	struct cmd_diff_unit *u = res;
	struct arena a;
	arena_init(&a);
	bool ok = true;
	for (uint32_t q = 0; q < u->nolds && ok; q++)
		ok = cmd_diff_settle(r, &u->olds[q], &a);
	if (ok && k < r->ns.in.n && (ok = cmd_diff_settle(r, &u->new, &a))) {
		bool *taken = xcalloc(r->ns.first[k + 1] - r->ns.first[k] + 1, sizeof *taken);
		bool **old_used = xcalloc(u->nolds + 1, sizeof *old_used);
		for (uint32_t q = 0; q < u->nolds; q++)
			old_used[q] = xcalloc(u->olds[q].nmods + 1, sizeof **old_used);
		for (uint32_t j = 0; j < u->new.nmods; j++) {
			struct diff_side *n = &u->new.mods[j], *o = cmd_diff_old_of(r, k, u, n->m, taken, old_used);
			if (o)
				cmd_diff_compare(r, o, n, &a);
			else if (!r->json)
				diag_line(stdout, "%s: module %s is new (nothing in %s to compare with)\n", n->path,
					  n->m->name ? n->m->name->str : "?", r->a->old);
		}
		for (uint32_t q = 0; q < u->nolds; q++)
			free(old_used[q]);
		free(old_used);
		free(taken);
	}
	for (uint32_t q = 0; q < u->nolds; q++)
		cmd_diff_sigs_take(&r->osigs, &u->olds[q], u->old_files[q]);
	if (u->has_new)
		cmd_diff_sigs_take(&r->nsigs, &u->new, (uint32_t)k);
	cmd_diff_unit_free(u);
	arena_free(&a);
	return ok;
}

/* ---- Folder rules: a recompilation new in NEW is a regression ---- */

static int cmd_diff_sig_cmp(const void *pa, const void *pb)
{
	const struct compile_sig *a = *(struct compile_sig *const *)pa, *b = *(struct compile_sig *const *)pb;
	return a->file_index < b->file_index ? -1 : a->file_index > b->file_index;
}

/* A side's folder findings, its signatures in file order. */
static void cmd_diff_folder_run(struct cmd_diff_run *r, struct cmd_diff_sigs *side, const char *dir,
				struct finding_sink *sink)
{
	finding_sink_init(sink);
	if (side->n)
		qsort(side->v, side->n, sizeof *side->v, cmd_diff_sig_cmp);
	lint_folder(r->c, dir, side->v, side->n, sink);
	lint_settle(r->c, sink, 0);
}

static int64_t cmd_diff_compiles(const struct finding *f)
{
	const struct finding_field *x = f ? finding_field_get(f, "compiles") : NULL;
	return x && x->kind == FIELD_INT ? x->i : 1;
}

/* The finding of s by the same rule about the same module, or NULL. */
static const struct finding *cmd_diff_same(const struct finding_sink *s, const struct finding *f)
{
	for (uint32_t k = 0; k < s->n; k++)
		if (!s->items[k]->suppressed && !strcmp(s->items[k]->rule, f->rule) &&
		    !strcmp(s->items[k]->module, f->module))
			return s->items[k];
	return NULL;
}

static void cmd_diff_folder_one(struct cmd_diff_run *r, const struct finding *f, int64_t before, bool gone)
{
	int64_t now = gone ? 1 : cmd_diff_compiles(f);
	const char *fact = finding_note_of(f, NOTE_FACT);
	const struct finding_field *ch = finding_field_get(f, "change");
	if (r->json) {
		json_begin_object(&r->w);
		json_key(&r->w, "status");
		json_string(&r->w, gone ? "gone" : "new");
		json_key(&r->w, "rule");
		json_string(&r->w, f->rule);
		json_key(&r->w, "module");
		json_string(&r->w, f->module);
		json_key(&r->w, "compiles");
		json_int(&r->w, now);
		json_key(&r->w, "before");
		json_int(&r->w, before);
		json_key(&r->w, "change");
		json_string(&r->w, ch && ch->kind == FIELD_STRING ? ch->s : "");
		json_key(&r->w, "message");
		json_string(&r->w, f->message);
		json_key(&r->w, "fact");
		json_string(&r->w, fact ? fact : "");
		json_end_object(&r->w);
		return;
	}
	char msg[800];
	if (gone) {
		snprintf(msg, sizeof msg, "%s: recompilation gone: %s compiled %lld times before, once now", r->a->new,
			 f->module, (long long)before);
		report_wrap(stdout, "", msg, 2);
		return;
	}
	diag_line(stdout, "%s:%llu:%llu: %s: new recompilation (%lld compile%s before) [%s]\n", f->path,
		  (unsigned long long)f->line, (unsigned long long)f->col, cmd_diff_sev(f->severity), (long long)before,
		  before == 1 ? "" : "s", f->rule);
	report_wrap(stdout, "  ", f->message, 4);
	if (fact)
		report_wrap(stdout, "  ", fact, 4);
}

/* Folder findings of NEW that OLD did not have, or had with fewer
 * compiles: regressions (the exit status follows --fail-on); those of OLD
 * gone from NEW. */
static void cmd_diff_folders(struct cmd_diff_run *r)
{
	struct finding_sink os, ns;
	cmd_diff_folder_run(r, &r->osigs, r->a->old, &os);
	cmd_diff_folder_run(r, &r->nsigs, r->a->new, &ns);
	if (r->json) {
		json_key(&r->w, "recompilations");
		json_begin_array(&r->w);
	}
	for (uint32_t k = 0; k < ns.n; k++) {
		const struct finding *f = ns.items[k], *o = cmd_diff_same(&os, f);
		if (f->suppressed || (o && cmd_diff_compiles(o) >= cmd_diff_compiles(f)))
			continue;
		r->failing |= finding_fails(f, r->c->fail_on);
		cmd_diff_folder_one(r, f, o ? cmd_diff_compiles(o) : 1, false);
	}
	for (uint32_t k = 0; k < os.n; k++)
		if (!os.items[k]->suppressed && !cmd_diff_same(&ns, os.items[k]))
			cmd_diff_folder_one(r, os.items[k], cmd_diff_compiles(os.items[k]), true);
	if (r->json)
		json_end_array(&r->w);
	finding_sink_free(&os);
	finding_sink_free(&ns);
}

static void cmd_diff_sigs_free(struct cmd_diff_sigs *side)
{
	for (uint32_t k = 0; k < side->n; k++)
		compile_sig_free(side->v[k]);
	free(side->v);
	side->v = NULL;
	side->n = 0;
}

/* Which unit takes old file f's signatures: the first that loads it. */
static void cmd_diff_sig_units(struct cmd_diff_run *r)
{
	r->sig_unit = xmalloc(((size_t)r->os.in.n + 1) * sizeof *r->sig_unit);
	for (int f = 0; f <= r->os.in.n; f++)
		r->sig_unit[f] = -1;
	for (int k = 0; k < r->ns.in.n; k++)
		for (uint32_t j = r->ns.first[k]; j < r->ns.first[k + 1]; j++) {
			int32_t p = r->ns.v[j].partner;
			if (p >= 0 && r->sig_unit[r->os.v[p].file] < 0)
				r->sig_unit[r->os.v[p].file] = k;
		}
	for (uint32_t q = 0; q < r->nlonely; q++)
		r->sig_unit[r->lonely[q]] = r->ns.in.n + (int32_t)q;
}

/* Pairs, then loads and compares a unit at a time; the exit status. */
static int cmd_diff_report(struct cmd_diff_run *r)
{
	const struct diff_args *a = r->a;
	bool *wanted = xcalloc((size_t)r->os.in.n + 1, sizeof *wanted);
	for (uint32_t j = 0; j < r->ns.n; j++)
		if (r->ns.v[j].partner >= 0)
			wanted[r->os.v[r->ns.v[j].partner].file] = true;
	r->lonely = xcalloc((size_t)r->os.in.n + 1, sizeof *r->lonely);
	for (int f = 0; f < r->os.in.n; f++)
		if (!wanted[f])
			r->lonely[r->nlonely++] = (uint32_t)f;
	free(wanted);
	r->want_sigs = lint_wants_folder(r->c) && dumpdir_is_dir(a->old) && dumpdir_is_dir(a->new);
	if (r->want_sigs)
		cmd_diff_sig_units(r);
	r->json = a->format == REPORT_JSON;
	if (r->json) {
		json_init(&r->w, stdout, 2);
		json_begin_object(&r->w);
		json_key(&r->w, "schema");
		json_int(&r->w, 1);
		json_key(&r->w, "pairs");
		json_begin_array(&r->w);
	}
	struct jobs j = { r->ns.in.n + (int)r->nlonely, a->lint.jobs, r, cmd_diff_work, cmd_diff_deliver,
			  cmd_diff_drop };
	bool ok = jobs_run(&j);
	if (r->json)
		json_end_array(&r->w);
	if (ok && r->want_sigs)
		cmd_diff_folders(r);
	cmd_diff_sigs_free(&r->osigs);
	cmd_diff_sigs_free(&r->nsigs);
	if (r->json) {
		json_end_object(&r->w);
		json_finish(&r->w);
	} else if (ok) {
		printf("hlolint diff: %u module%s compared, %u buffer change%s, %u new finding%s, %u gone%s\n",
		       r->npairs, r->npairs == 1 ? "" : "s", r->nchanges, r->nchanges == 1 ? "" : "s", r->nadded,
		       r->nadded == 1 ? "" : "s", r->nresolved,
		       a->has_growth && r->failing ? "; fails --fail-on-growth or --fail-on" : "");
	}
	if (fflush(stdout) || ferror(stdout) || !ok)
		return 2;   /* stdout: said by main_stdout_done; errors: said as read */
	if (!r->npairs) {
		fprintf(stderr, "hlolint: error: no module of %s has a counterpart in %s\n", a->new, a->old);
		return 2;
	}
	return r->failing && !r->c->exit_zero ? 1 : 0;
}

/* Both sides named and paired, then compared a unit at a time. */
static int cmd_diff_run(void *args, struct config *cfg, struct diag_sink *d)
{
	struct diff_args *a = args;
	struct cmd_diff_run r = { .a = a, .c = cfg, .d = d };
	int rc = 2;
	if (cmd_diff_names(a->old, a->lint.all_stages, &r.os) && cmd_diff_names(a->new, a->lint.all_stages, &r.ns)) {
		cmd_diff_pair(&r.os, &r.ns);
		rc = cmd_diff_report(&r);
	}
	cmd_diff_names_free(&r.os);
	cmd_diff_names_free(&r.ns);
	free(r.lonely);
	free(r.sig_unit);
	return rc;
}

int cmd_diff(const struct args *g)
{
	struct diff_args a = { .old = g->files[0], .new = g->files[1], .format = REPORT_TEXT, .top = 20 };
	const char *v = args_value(g, FLAG_FORMAT_TJ), *growth = args_value(g, FLAG_FAIL_ON_GROWTH);
	if (v && !report_format_parse(v, &a.format)) {
		fprintf(stderr, "hlolint: error: unknown format '%s' (text or json)\n", v);
		return 2;
	}
	if (v && a.format != REPORT_TEXT && a.format != REPORT_JSON) {
		fprintf(stderr, "hlolint: error: diff cannot write '%s' output (text or json)\n", v);
		return 2;
	}
	if (!args_uint(g, FLAG_TOP_DIFF, &a.top) || (growth && !cmd_diff_growth(growth, &a)) ||
	    !cmd_diff_min_change(g, &a))
		return 2;
	struct cmd_frame fr = { g, &a, &a.lint, cmd_diff_run };
	return cmd_frame_run(&fr);
}
