/* report.c - writes findings as text, JSON, SARIF or GitHub annotations.
 * Text and github hide suppressed and baseline findings (the summary counts
 * them); JSON and SARIF keep them marked, through json.h.  It does not
 * decide severities, suppressions or the exit status. */
#include "report.h"
#include <stdlib.h>
#include <string.h>
#include "config.h"
#include "diag.h"
#include "json.h"
#include "mem.h"
#include "size.h"

/* One checked module, for the "modules" array of JSON. */
struct report_mod {
	const char *path, *module, *target;
	bool partitioned;
	int64_t num_partitions;
	bool has_mem;
	uint64_t hbm, figures[MEM_NFIGURES];   /* MEM_FIGURES order */
#define REPORT_KNOWN_FIELD(f) uint64_t f;
	MEM_FIGURES_KNOWN(REPORT_KNOWN_FIELD)  /* 0: unknown, left out */
#undef REPORT_KNOWN_FIELD
	const char *peak_instr, *peak_comp;
	const char *not_run[8], *not_run_why[8];   /* rules that could not run, and why */
	uint32_t nnot_run;
};

struct report {
	enum report_format fmt;
	FILE *out;
	const char *version;
	const char *docs_url;       /* report_set_docs_url; CONFIG_DOCS_URL by default */
	struct arena arena;
	struct report_mod *mods;
	uint32_t nmods, cap;
	bool verbose;
	/* Text: the module-wide notes of the file being printed, each once,
	 * printed after its findings (report_text_module_notes). */
	const struct finding **said_by;
	const char **said;
	uint32_t nsaid, capsaid;
};

bool report_format_parse(const char *name, enum report_format *out)
{
	static const char *const names[] = { "text", "json", "sarif", "github", "concise", NULL };
	for (int k = 0; names[k]; k++)
		if (!strcmp(name, names[k])) {
			*out = (enum report_format)k;
			return true;
		}
	return false;
}

struct report *report_new(enum report_format fmt, FILE *out, const char *version)
{
	struct report *r = xcalloc(1, sizeof *r);
	r->fmt = fmt;
	r->out = out;
	r->version = version;
	r->docs_url = CONFIG_DOCS_URL;
	arena_init(&r->arena);
	return r;
}

void report_free(struct report *r)
{
	if (!r)
		return;
	free(r->mods);
	free(r->said);
	free(r->said_by);
	arena_free(&r->arena);
	free(r);
}

static const char *report_dup(struct report *r, const char *s)
{
	return s ? arena_strndup(&r->arena, s, strlen(s)) : NULL;
}

void report_set_verbose(struct report *r, bool verbose)
{
	r->verbose = verbose;
}

void report_set_docs_url(struct report *r, const char *url)
{
	if (url)
		r->docs_url = report_dup(r, url);
}

uint32_t report_module(struct report *r, const char *path, const struct hlo_module *m,
		       const struct mem_model *mm)
{
	if (r->nmods == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 8;
		r->mods = xreallocarray(r->mods, r->cap, sizeof *r->mods);
	}
	struct report_mod *x = &r->mods[r->nmods];
	memset(x, 0, sizeof *x);
	x->path = report_dup(r, path);
	x->module = report_dup(r, m->name ? m->name->str : "");
	x->num_partitions = m->num_partitions;
	if (mm) {
		x->has_mem = true;
		x->target = report_dup(r, mm->target ? mm->target->name : NULL);
		x->partitioned = mm->partitioned;
		x->hbm = mm->hbm_bytes;
		uint32_t k = 0;
#define REPORT_FIGURE(f) x->figures[k++] = mm->f;
		MEM_FIGURES(REPORT_FIGURE)
#undef REPORT_FIGURE
#define REPORT_KNOWN(f) x->f = mm->f;
		MEM_FIGURES_KNOWN(REPORT_KNOWN)
#undef REPORT_KNOWN
		if (mm->peak_at) {
			x->peak_instr = arena_strndup(&r->arena, ir_name(mm->peak_at), ir_name_len(mm->peak_at));
			x->peak_comp = arena_strndup(&r->arena, ir_comp_name(mm->peak_at->comp), ir_comp_name_len(mm->peak_at->comp));
		}
	}
	return r->nmods++;
}

uint32_t report_modules(const struct report *r)
{
	return r->nmods;
}

unsigned report_unknown_capacity(const struct report *r)
{
	unsigned n = 0;
	for (uint32_t k = 0; k < r->nmods; k++)
		n += r->mods[k].has_mem && !r->mods[k].hbm;
	return n;
}

/* ---- JSON pieces (json.h) ---- */

static void report_kv_str(struct json_writer *w, const char *key, const char *v)
{
	json_key(w, key);
	if (v)
		json_string(w, v);
	else
		json_null(w);
}

static void report_kv_int(struct json_writer *w, const char *key, int64_t v)
{
	json_key(w, key);
	json_int(w, v);
}

/* A byte count, null when unknown (< 0). */
static void report_kv_bytes(struct json_writer *w, const char *key, int64_t v)
{
	json_key(w, key);
	if (v >= 0)
		json_int(w, v);
	else
		json_null(w);
}

static void report_json_suggestion(struct json_writer *w, const struct finding *f)
{
	json_key(w, "suggestion");
	if (f->suggest == SUGGEST_NONE) {
		json_null(w);
		return;
	}
	json_begin_object(w);
	switch (f->suggest) {
	case SUGGEST_NONE: break;
	case SUGGEST_SHARDING: report_kv_str(w, "sharding", f->suggest_text); break;
	case SUGGEST_SHAPE: report_kv_str(w, "shape", f->suggest_text); break;
	case SUGGEST_MEMORY_SPACE: report_kv_int(w, "memory_space", f->suggest_int); break;
	case SUGGEST_DONATE_PARAMETER: report_kv_int(w, "donate_parameter", f->suggest_int); break;
	case SUGGEST_OFFLOAD_PARAMETER: report_kv_int(w, "offload_parameter", f->suggest_int); break;
	}
	json_end_object(w);
}

/* Rule-specific fields as more keys of the enclosing object. */
static void report_json_fields(struct json_writer *w, const struct finding *f)
{
	for (const struct finding_field *x = f->fields; x; x = x->next) {
		json_key(w, x->key);
		switch (x->kind) {
		case FIELD_INT: json_int(w, x->i); break;
		case FIELD_BYTES: json_uint(w, x->u); break;
		case FIELD_BOOL: json_bool(w, x->i != 0); break;
		case FIELD_STRING: json_string(w, x->s); break;
		case FIELD_NULL: json_null(w); break;
		}
	}
}

static void report_json_notes(struct json_writer *w, const struct finding *f)
{
	json_key(w, "notes");
	json_begin_array(w);
	for (const struct finding_note *n = f->notes; n; n = n->next)
		json_string(w, n->text);
	json_end_array(w);
	/* The two notes text output leads with (null when the rule has none). */
	report_kv_str(w, "fact", finding_note_of(f, NOTE_FACT));
	report_kv_str(w, "fix", finding_note_of(f, NOTE_FIX));
}

static void report_json_source(struct json_writer *w, const struct finding *f)
{
	json_key(w, "source");
	if (!f->source_file) {
		json_null(w);
		return;
	}
	json_begin_object(w);
	report_kv_str(w, "file", f->source_file);
	report_kv_int(w, "line", f->source_line);
	if (f->source_via)
		report_kv_str(w, "via", f->source_via);
	json_key(w, "user");      /* the user's own file (under the source root): what leads the text */
	json_bool(w, f->source_user);
	json_end_object(w);
}

/* ---- Text ---- */

static void report_text_suggestion(FILE *out, const struct finding *f)
{
	switch (f->suggest) {
	case SUGGEST_NONE: break;
	case SUGGEST_SHARDING: diag_line(out, "note: suggestion: sharding=%s\n", f->suggest_text); break;
	case SUGGEST_SHAPE: diag_line(out, "note: suggestion: shape %s\n", f->suggest_text); break;
	case SUGGEST_MEMORY_SPACE:
		fprintf(out, "note: suggestion: memory space S(%lld)\n", (long long)f->suggest_int);
		break;
	case SUGGEST_DONATE_PARAMETER:
		fprintf(out, "note: suggestion: donate parameter %lld (donate_argnums)\n", (long long)f->suggest_int);
		break;
	case SUGGEST_OFFLOAD_PARAMETER:
		fprintf(out, "note: suggestion: parameter %lld in pinned host memory (S(5)), copied in for its reads\n",
			(long long)f->suggest_int);
		break;
	}
}


void report_wrap(FILE *out, const char *prefix, const char *text, unsigned indent)
{
	size_t col = strlen(prefix);
	fputs(prefix, out);
	const char *p = text;
	bool first = true;
	while (*p) {
		const char *w = p;
		while (*w == ' ')
			w++;
		const char *e = w;
		while (*e && *e != ' ')
			e++;
		if (w == e)
			break;
		size_t n = (size_t)(e - w);
		if (!first && col + 1 + n > diag_width()) {
			fprintf(out, "\n%*s", (int)indent, "");
			col = indent;
		} else if (!first) {
			fputc(' ', out);
			col++;
		}
		diag_put(out, w, n);
		col += n;
		first = false;
		p = e;
	}
	fputc('\n', out);
}

/* "path:line:col: " of the finding's HLO instruction, or "path: ". */
static void report_text_hlo_at(FILE *out, const struct finding *f)
{
	if (f->line)
		diag_line(out, "%s:%llu:%llu: ", f->path, (unsigned long long)f->line, (unsigned long long)f->col);
	else
		diag_line(out, "%s: ", f->path);
}

static void report_text_py_at(FILE *out, const struct finding *f)
{
	if (f->source_line > 0)
		diag_line(out, "%s:%lld: ", f->source_file, (long long)f->source_line);
	else
		diag_line(out, "%s: ", f->source_file);
}

/* The op_name (verbose) and the user the Python line was borrowed from,
 * as ' (op_name "...") via %user'. */
static void report_text_origin(const struct report *r, FILE *out, const struct finding *f)
{
	if (f->op_name[0] && r->verbose)
		diag_line(out, " (op_name \"%s\")", f->op_name);
	if (f->source_via)
		diag_line(out, " via %%%s", f->source_via);
	fputc('\n', out);
}

/* Keeps a module-wide note of f for the end of its file, once per module
 * and text. */
static void report_module_note(struct report *r, const struct finding *f, const char *text)
{
	for (uint32_t k = 0; k < r->nsaid; k++)
		if (r->said_by[k]->module_index == f->module_index && !strcmp(r->said[k], text))
			return;
	if (r->nsaid == r->capsaid) {
		r->capsaid = r->capsaid ? 2 * r->capsaid : 8;
		r->said = xreallocarray(r->said, r->capsaid, sizeof *r->said);
		r->said_by = xreallocarray(r->said_by, r->capsaid, sizeof *r->said_by);
	}
	r->said_by[r->nsaid] = f;
	r->said[r->nsaid++] = text;
}

/* The module-wide notes of the file just printed: one line each, located
 * at the file, with the rule that said it. */
static void report_text_module_notes(struct report *r, FILE *out)
{
	for (uint32_t k = 0; k < r->nsaid; k++) {
		const struct finding *f = r->said_by[k];
		size_t n = strlen(f->path) + strlen(r->said[k]) + strlen(f->rule) + 16;
		char *line = xmalloc(n);
		snprintf(line, n, "%s: note: %s [%s]", f->path, r->said[k], f->rule);
		report_wrap(out, "", line, 6);
		free(line);
	}
	r->nsaid = 0;
}

/* The notes under the source line: all of them with --verbose; else the
 * deciding fact and the fix (a module-wide fact goes after the file's
 * findings, once). */
static void report_text_notes(struct report *r, FILE *out, const struct finding *f)
{
	bool fact = false, fix = false;
	for (const struct finding_note *n = f->notes; n; n = n->next) {
		bool show = r->verbose;
		if (n->role == NOTE_FACT && !fact)
			show = fact = true;
		else if (n->role == NOTE_FIX && !fix)
			show = fix = true;
		else if (n->role == NOTE_MODULE && !r->verbose)
			report_module_note(r, f, n->text);
		if (show)
			report_wrap(out, "note: ", n->text, 6);
	}
	if (r->verbose)
		report_text_suggestion(out, f);
}

/* The user's own Python line leads when there is one (editors and CI jump
 * to it), the HLO instruction follows; else the HLO location leads.
 * Concise: the first line only. */
static void report_text_one(struct report *r, FILE *out, const struct finding *f)
{
	bool py_first = f->source_user;
	if (py_first)
		report_text_py_at(out, f);
	else
		report_text_hlo_at(out, f);
	diag_line(out, "%s: %s [%s]\n", finding_severity_name(f->severity), f->message, f->rule);
	if (r->fmt == REPORT_CONCISE)
		return;
	if (py_first) {
		report_text_hlo_at(out, f);
		diag_line(out, "note: HLO instruction%s%s", f->instruction[0] ? " %" : "", f->instruction);
		report_text_origin(r, out, f);
	}
	if (f->src)
		diag_print_line(out, f->src, f->span);
	if (f->source_file && !py_first) {
		report_text_py_at(out, f);
		fputs("note: Python source", out);
		report_text_origin(r, out, f);
	} else if (!f->source_file && f->op_name[0])
		diag_line(out, "note: op_name \"%s\"\n", f->op_name);
	report_text_notes(r, out, f);
}

/* ---- GitHub workflow commands ---- */

struct report_gh {
	FILE *out;
	bool prop;
};

static void report_gh_put(void *ctx, const char *s, size_t n)
{
	const struct report_gh *g = ctx;
	for (size_t k = 0; k < n; k++) {
		switch (s[k]) {
		case '%': fputs("%25", g->out); break;
		case '\r': fputs("%0D", g->out); break;
		case '\n': fputs("%0A", g->out); break;
		case ':': g->prop ? fputs("%3A", g->out) : fputc(':', g->out); break;
		case ',': g->prop ? fputs("%2C", g->out) : fputc(',', g->out); break;
		default: fputc(s[k], g->out); break;
		}
	}
}

/* Escapes a property (prop) or the message data of a workflow command:
 * control characters as in every text output (diag_escape), so an input's
 * newline never reaches GitHub as one, then GitHub's own escapes. */
static void report_gh_escape(FILE *out, const char *s, bool prop)
{
	struct report_gh g = { out, prop };
	diag_escape(s, strlen(s), report_gh_put, &g);
}

/* GitHub keeps an annotation's message to 64 KiB and shows far less: the
 * message, the HLO (or Python) location and the notes, cut at this many
 * bytes of escaped text. */
#define REPORT_GH_MAX 4000

/* An annotation on the user's Python line when known (the file GitHub
 * shows in the pull request), else on the HLO instruction. */
static void report_github_one(FILE *out, const struct finding *f)
{
	static const char *const cmd[] = { "notice", "warning", "error" };
	bool py = f->source_user;
	fprintf(out, "::%s file=", cmd[f->severity]);
	if (py) {
		report_gh_escape(out, f->source_file, true);
		if (f->source_line > 0)
			fprintf(out, ",line=%lld", (long long)f->source_line);
	} else {
		report_gh_escape(out, f->path, true);
		if (f->line) {
			fprintf(out, ",line=%llu,col=%llu", (unsigned long long)f->line, (unsigned long long)f->col);
			if (f->end_line == f->line && f->end_col > f->col)
				fprintf(out, ",endColumn=%llu", (unsigned long long)f->end_col);
		}
	}
	fputs(",title=", out);
	report_gh_escape(out, f->rule, true);
	fputs("::", out);
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return;
	report_gh_escape(m, f->message, false);
	char at[64];
	if (py) {
		snprintf(at, sizeof at, ":%llu:%llu", (unsigned long long)f->line, (unsigned long long)f->col);
		fputs("%0AHLO: ", m);
		report_gh_escape(m, f->path, false);
		fputs(f->line ? at : "", m);
		if (f->instruction[0]) {
			fputs(" %25", m);
			report_gh_escape(m, f->instruction, false);
		}
	} else if (f->source_file) {
		snprintf(at, sizeof at, ":%lld", (long long)f->source_line);
		fputs("%0APython source: ", m);
		report_gh_escape(m, f->source_file, false);
		fputs(at, m);
	}
	if (f->source_file && f->source_via) {
		fputs(" (via %25", m);
		report_gh_escape(m, f->source_via, false);
		fputs(")", m);
	}
	for (const struct finding_note *n = f->notes; n; n = n->next) {
		fputs("%0A", m);
		report_gh_escape(m, n->text, false);
	}
	fclose(m);
	if (len > REPORT_GH_MAX) {
		len = REPORT_GH_MAX;
		/* Never end inside an escape ("%0A"). */
		for (size_t k = len - 2; k < REPORT_GH_MAX; k++)
			if (buf[k] == '%')
				len = k;
		fwrite(buf, 1, len, out);
		fputs("...", out);
	} else
		fwrite(buf, 1, len, out);
	free(buf);
	fputc('\n', out);
}

void report_file(struct report *r, const struct finding_sink *s, uint32_t from)
{
	if (r->fmt != REPORT_TEXT && r->fmt != REPORT_GITHUB && r->fmt != REPORT_CONCISE)
		return;
	for (uint32_t k = from; k < s->n; k++) {
		const struct finding *f = s->items[k];
		if (f->suppressed || f->baseline)
			continue;
		if (r->fmt == REPORT_GITHUB)
			report_github_one(r->out, f);
		else
			report_text_one(r, r->out, f);
	}
	if (r->fmt == REPORT_TEXT)
		report_text_module_notes(r, r->out);
	fflush(r->out);
}

/* ---- JSON document ---- */

/* The module summary: the fields of `hlolint mem --format json` (same
 * order, cmd_mem.c) without "largest". */
static void report_json_module(struct json_writer *w, const struct report_mod *x)
{
	json_begin_object(w);
	report_kv_str(w, "path", x->path);
	report_kv_str(w, "module", x->module);
	json_key(w, "partitioned");
	if (x->has_mem)
		json_bool(w, x->partitioned);
	else
		json_null(w);
	report_kv_int(w, "num_partitions", x->num_partitions);
	report_kv_str(w, "target", x->target);
	if (x->has_mem) {
		json_key(w, "hbm_bytes");
		if (x->hbm)
			json_uint(w, x->hbm);
		else
			json_null(w);
#define REPORT_KEY(f) #f,
		static const char *const keys[] = { MEM_FIGURES(REPORT_KEY) };
#undef REPORT_KEY
		for (size_t k = 0; k < MEM_NFIGURES; k++) {
			json_key(w, keys[k]);
			json_uint(w, x->figures[k]);
		}
#define REPORT_KNOWN_OUT(f) if (x->f) { json_key(w, #f); json_uint(w, x->f); }
		MEM_FIGURES_KNOWN(REPORT_KNOWN_OUT)
#undef REPORT_KNOWN_OUT
		json_key(w, "peak_at");
		if (x->peak_instr) {
			json_begin_object(w);
			report_kv_str(w, "instruction", x->peak_instr);
			report_kv_str(w, "computation", x->peak_comp);
			json_end_object(w);
		} else {
			json_null(w);
		}
	}
	json_key(w, "rules_not_run");
	json_begin_array(w);
	for (uint32_t k = 0; k < x->nnot_run; k++) {
		json_begin_object(w);
		report_kv_str(w, "name", x->not_run[k]);
		report_kv_str(w, "reason", x->not_run_why[k]);
		json_end_object(w);
	}
	json_end_array(w);
	json_end_object(w);
}

void report_not_run(struct report *r, uint32_t module_index, const char *rule, const char *why)
{
	if (module_index >= r->nmods)
		return;
	struct report_mod *x = &r->mods[module_index];
	if (x->nnot_run < sizeof x->not_run / sizeof x->not_run[0]) {
		x->not_run[x->nnot_run] = rule;
		x->not_run_why[x->nnot_run++] = why;
	}
}

static void report_json_finding(struct json_writer *w, const struct finding *f)
{
	json_begin_object(w);
	report_kv_str(w, "rule", f->rule);
	report_kv_str(w, "severity", finding_severity_name(f->severity));
	report_kv_str(w, "path", f->path);
	report_kv_int(w, "line", (int64_t)f->line);
	report_kv_int(w, "column", (int64_t)f->col);
	report_kv_str(w, "module", f->module);
	report_kv_str(w, "computation", f->computation);
	report_kv_str(w, "instruction", f->instruction);
	report_kv_str(w, "opcode", f->opcode);
	report_kv_str(w, "shape", f->shape);
	report_kv_bytes(w, "bytes", f->bytes);
	report_kv_str(w, "op_name", f->op_name);
	report_json_source(w, f);
	report_kv_str(w, "message", f->message);
	report_json_notes(w, f);
	report_json_suggestion(w, f);
	report_json_fields(w, f);
	report_kv_str(w, "fingerprint", f->fingerprint);
	json_key(w, "suppressed");
	json_bool(w, f->suppressed);
	report_kv_str(w, "suppression", f->suppressed ? f->suppress_reason : NULL);
	json_key(w, "baseline");
	json_bool(w, f->baseline);
	json_end_object(w);
}

/* "errors": the inputs that could not be read or parsed, one entry per
 * error (path, line, column, message), so a failure never vanishes from
 * machine output. */
void report_json_errors(struct json_writer *w, const struct diag_sink *errs)
{
	json_key(w, "errors");
	json_begin_array(w);
	for (uint32_t k = 0; errs && k < errs->nrecs; k++) {
		const struct diag_record *e = &errs->recs[k];
		json_begin_object(w);
		json_key(w, "path");
		e->path ? json_string(w, e->path) : json_null(w);
		json_key(w, "line");
		e->line ? json_int(w, (int64_t)e->line) : json_null(w);
		json_key(w, "column");
		e->line ? json_int(w, (int64_t)e->col) : json_null(w);
		report_kv_str(w, "message", e->msg);
		json_end_object(w);
	}
	json_end_array(w);
}

static void report_json_doc(struct report *r, const struct finding_sink *s, const struct diag_sink *errs)
{
	struct json_writer w;
	json_init(&w, r->out, 2);
	json_begin_object(&w);
	report_kv_int(&w, "schema", 1);
	json_key(&w, "modules");
	json_begin_array(&w);
	for (uint32_t k = 0; k < r->nmods; k++)
		report_json_module(&w, &r->mods[k]);
	json_end_array(&w);
	json_key(&w, "findings");
	json_begin_array(&w);
	for (uint32_t k = 0; k < s->n; k++)
		report_json_finding(&w, s->items[k]);
	json_end_array(&w);
	report_json_errors(&w, errs);
	json_end_object(&w);
	json_finish(&w);
}

/* ---- SARIF ---- */

#define REPORT_SARIF_SCHEMA "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

/* A URI for a path: absolute paths become file:///..., relative ones stay
 * relative references; bytes outside RFC 3986's unreserved set and '/'
 * are percent-encoded.  Returns a malloc'd string. */
static char *report_uri(const char *path)
{
	size_t n = strlen(path);
	char *u = xmalloc(n * 3 + 8), *q = u;
	if (path[0] == '/')
		q += sprintf(q, "file://");
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		    strchr("-._~/", *p))
			*q++ = (char)*p;
		else
			q += sprintf(q, "%%%02X", *p);
	}
	*q = 0;
	return u;
}

static void report_kv_uri(struct json_writer *w, const char *key, const char *path)
{
	char *u = report_uri(path);
	report_kv_str(w, key, u);
	free(u);
}

/* "host-transfer" -> "HostTransfer" (SARIF rule names are identifiers). */
static void report_rule_name(struct json_writer *w, const char *id)
{
	size_t n = strlen(id);
	char *name = xmalloc(n + 1), *q = name;
	bool up = true;
	for (const char *p = id; *p; p++) {
		if (*p == '-' || *p == '_') {
			up = true;
			continue;
		}
		*q++ = up && *p >= 'a' && *p <= 'z' ? (char)(*p - 'a' + 'A') : *p;
		up = false;
	}
	*q = 0;
	report_kv_str(w, "name", name);
	free(name);
}

static void report_text_obj(struct json_writer *w, const char *key, const char *text)
{
	json_key(w, key);
	json_begin_object(w);
	report_kv_str(w, "text", text);
	json_end_object(w);
}

static void report_sarif_rule(struct json_writer *w, const struct pass *p, const char *docs_url)
{
	json_begin_object(w);
	report_kv_str(w, "id", p->name);
	report_rule_name(w, p->name);
	report_text_obj(w, "shortDescription", p->summary);
	report_text_obj(w, "fullDescription", p->summary);
	/* The help text: the summary, the options, a pointer to the docs. */
	size_t cap = strlen(p->summary) + 2 * strlen(p->name) + 64;
	for (int k = 0; k < CONFIG_OPT_COUNT; k++)
		if (!strcmp(config_options[k].rule, p->name))
			cap += strlen(config_options[k].name) + strlen(config_options[k].def) +
			       strlen(config_options[k].help) + 32;
	char *help = xmalloc(cap);
	size_t len = (size_t)snprintf(help, cap, "%s.", p->summary);
	for (int k = 0; k < CONFIG_OPT_COUNT; k++)
		if (!strcmp(config_options[k].rule, p->name))
			len += (size_t)snprintf(help + len, cap - len, "\nOption --%s (default %s): %s.",
						config_options[k].name, config_options[k].def, config_options[k].help);
	snprintf(help + len, cap - len, "\nSee docs/rules/%s.md.", p->name);
	report_text_obj(w, "help", help);
	free(help);
	char uri[512];
	snprintf(uri, sizeof uri, "%s/docs/rules/%s.md", docs_url, p->name);
	report_kv_str(w, "helpUri", uri);
	json_key(w, "defaultConfiguration");
	json_begin_object(w);
	report_kv_str(w, "level", "warning");
	json_end_object(w);
	json_end_object(w);
}

/* "physicalLocation": the file, and the region when there is a line (the
 * end only when it lies past the start). */
static void report_sarif_physical(struct json_writer *w, const char *path, uint64_t line, uint64_t col,
				  uint64_t end_line, uint64_t end_col, bool srcroot)
{
	json_key(w, "physicalLocation");
	json_begin_object(w);
	json_key(w, "artifactLocation");
	json_begin_object(w);
	report_kv_uri(w, "uri", path);
	if (srcroot)
		report_kv_str(w, "uriBaseId", "%SRCROOT%");
	json_end_object(w);
	if (line) {
		json_key(w, "region");
		json_begin_object(w);
		report_kv_int(w, "startLine", (int64_t)line);
		if (col)
			report_kv_int(w, "startColumn", (int64_t)col);
		if (end_line >= line && (end_line > line || end_col > col)) {
			report_kv_int(w, "endLine", (int64_t)end_line);
			report_kv_int(w, "endColumn", (int64_t)end_col);
		}
		json_end_object(w);
	}
	json_end_object(w);
}

/* The HLO instruction as a location: file, region and its logical name. */
static void report_sarif_hlo(struct json_writer *w, const struct finding *f)
{
	report_sarif_physical(w, f->path, f->line, f->col, f->end_line, f->end_col, false);
	if (f->instruction[0]) {
		json_key(w, "logicalLocations");
		json_begin_array(w);
		json_begin_object(w);
		report_kv_str(w, "name", f->instruction);
		size_t n = strlen(f->module) + strlen(f->computation) + strlen(f->instruction) + 3;
		char *fq = xmalloc(n);
		snprintf(fq, n, "%s/%s/%s", f->module, f->computation, f->instruction);
		report_kv_str(w, "fullyQualifiedName", fq);
		free(fq);
		json_end_object(w);
		json_end_array(w);
	}
}

/* The Python line as a location; a file under the source root is relative
 * to %SRCROOT% (the repository, where code scanning finds it). */
static void report_sarif_python(struct json_writer *w, const struct finding *f)
{
	report_sarif_physical(w, f->source_file, f->source_line > 0 ? (uint64_t)f->source_line : 0, 0, 0, 0,
			      f->source_user && f->source_file[0] != '/');
}

/* The fix note without its "fix: " or "fix in JAX: ", or NULL. */
static const char *report_fix_note(const struct finding *f)
{
	const char *t = finding_note_of(f, NOTE_FIX);
	if (t && !strncmp(t, "fix: ", 5))
		return t + 5;
	if (t && !strncmp(t, "fix in JAX: ", 12))
		return t + 12;
	return t;
}

/* message: the text with the fix in it, and the same as markdown (what
 * code scanning shows on the alert): the finding, the fix, the notes and
 * the HLO instruction. */
static void report_sarif_message(struct json_writer *w, const struct finding *f)
{
	const char *fix = report_fix_note(f);
	size_t cap = strlen(f->message) + (fix ? strlen(fix) : 0) + 8;
	char *buf = xmalloc(cap);
	snprintf(buf, cap, "%s%s%s", f->message, fix ? ". Fix: " : "", fix ? fix : "");
	json_key(w, "message");
	json_begin_object(w);
	report_kv_str(w, "text", buf);
	free(buf);
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m) {
		json_end_object(w);
		return;
	}
	fprintf(m, "**%s** (`%s`)\n\n", f->message, f->rule);
	if (fix)
		fprintf(m, "**Fix:** %s\n\n", fix);
	for (const struct finding_note *n = f->notes; n; n = n->next)
		if (n->role != NOTE_FIX || n->text != finding_note_of(f, NOTE_FIX))
			fprintf(m, "- %s\n", n->text);
	if (f->instruction[0])
		fprintf(m, "\nHLO: `%%%s` in `%s` (%s:%llu)", f->instruction, f->computation, f->path,
			(unsigned long long)f->line);
	if (f->op_name[0])
		fprintf(m, ", op_name `%s`", f->op_name);
	fclose(m);
	report_kv_str(w, "markdown", buf);
	free(buf);
	json_end_object(w);
}

/* One related location with its id and message. */
static void report_sarif_related(struct json_writer *w, const struct finding *f, bool hlo)
{
	json_begin_object(w);
	report_kv_int(w, "id", 1);
	if (hlo) {
		report_sarif_hlo(w, f);
		char msg[300];
		snprintf(msg, sizeof msg, "HLO instruction %%%s", f->instruction);
		report_text_obj(w, "message", msg);
	} else {
		report_sarif_python(w, f);
		size_t n = strlen(f->op_name) + (f->source_via ? strlen(f->source_via) : 0) + 48;
		char *msg = xmalloc(n);
		int used = snprintf(msg, n, f->op_name[0] ? "Python source of %s" : "Python source", f->op_name);
		if (f->source_via && used > 0 && (size_t)used < n)
			snprintf(msg + used, n - (size_t)used, " via %%%s", f->source_via);
		report_text_obj(w, "message", msg);
		free(msg);
	}
	json_end_object(w);
}

/* The primary location is the user's Python line when known (a pull
 * request shows it there), the HLO instruction a related one; else the
 * other way round. */
static void report_sarif_result(struct json_writer *w, const struct finding *f, int rule_index, bool has_baseline)
{
	static const char *const level[] = { "note", "warning", "error" };
	bool py = f->source_user;
	json_begin_object(w);
	report_kv_str(w, "ruleId", f->rule);
	if (rule_index >= 0)
		report_kv_int(w, "ruleIndex", rule_index);
	report_kv_str(w, "level", level[f->severity]);
	report_sarif_message(w, f);
	json_key(w, "locations");
	json_begin_array(w);
	json_begin_object(w);
	if (py)
		report_sarif_python(w, f);
	else
		report_sarif_hlo(w, f);
	json_end_object(w);
	json_end_array(w);
	if (f->source_file || f->also) {
		json_key(w, "relatedLocations");
		json_begin_array(w);
		if (f->source_file)
			report_sarif_related(w, f, py);
		int id = 2;
		for (const struct finding_also *a = f->also; a; a = a->next) {
			json_begin_object(w);
			report_kv_int(w, "id", id++);
			report_sarif_physical(w, a->path, a->line, a->col, a->line, a->col, false);
			report_text_obj(w, "message", a->message);
			json_end_object(w);
		}
		json_end_array(w);
	}
	json_key(w, "partialFingerprints");
	json_begin_object(w);
	report_kv_str(w, "hlolint/v1", f->fingerprint);
	json_end_object(w);
	json_key(w, "properties");
	json_begin_object(w);
	report_kv_str(w, "module", f->module);
	report_kv_str(w, "computation", f->computation);
	report_kv_str(w, "instruction", f->instruction);
	report_kv_str(w, "shape", f->shape);
	report_kv_bytes(w, "bytes", f->bytes);
	report_kv_str(w, "op_name", f->op_name);
	report_json_notes(w, f);
	report_json_suggestion(w, f);
	report_json_fields(w, f);
	json_end_object(w);
	if (has_baseline)
		report_kv_str(w, "baselineState", f->baseline ? "unchanged" : "new");
	if (f->suppressed) {
		json_key(w, "suppressions");
		json_begin_array(w);
		json_begin_object(w);
		report_kv_str(w, "kind", "external");
		report_kv_str(w, "justification", f->suppress_reason ? f->suppress_reason : "");
		json_end_object(w);
		json_end_array(w);
	}
	json_end_object(w);
}

/* invocations[0]: executionSuccessful, and every input error as a
 * toolExecutionNotification with its location. */
static void report_sarif_invocation(struct json_writer *w, const struct diag_sink *errs, unsigned bad_files)
{
	json_key(w, "invocations");
	json_begin_array(w);
	json_begin_object(w);
	json_key(w, "executionSuccessful");
	json_bool(w, bad_files == 0 && (!errs || errs->errors == 0));
	json_key(w, "toolExecutionNotifications");
	json_begin_array(w);
	for (uint32_t k = 0; errs && k < errs->nrecs; k++) {
		const struct diag_record *e = &errs->recs[k];
		json_begin_object(w);
		report_kv_str(w, "level", "error");
		report_text_obj(w, "message", e->msg);
		if (e->path) {
			json_key(w, "locations");
			json_begin_array(w);
			json_begin_object(w);
			report_sarif_physical(w, e->path, e->line, e->col, 0, 0, false);
			json_end_object(w);
			json_end_array(w);
		}
		json_end_object(w);
	}
	json_end_array(w);
	json_end_object(w);
	json_end_array(w);
}

static void report_sarif_doc(struct report *r, const struct finding_sink *s, const struct pass *const *rules,
			     bool has_baseline, const struct diag_sink *errs, unsigned bad_files)
{
	struct json_writer w;
	json_init(&w, r->out, 2);
	json_begin_object(&w);
	report_kv_str(&w, "$schema", REPORT_SARIF_SCHEMA);
	report_kv_str(&w, "version", "2.1.0");
	json_key(&w, "runs");
	json_begin_array(&w);
	json_begin_object(&w);
	json_key(&w, "tool");
	json_begin_object(&w);
	json_key(&w, "driver");
	json_begin_object(&w);
	report_kv_str(&w, "name", "hlolint");
	report_kv_str(&w, "version", r->version);
	char info[600];
	snprintf(info, sizeof info, "%s/README.md", r->docs_url);
	report_kv_str(&w, "informationUri", info);
	json_key(&w, "rules");
	json_begin_array(&w);
	int nrules = 0;
	for (const struct pass *const *p = rules; p && *p; p++, nrules++)
		report_sarif_rule(&w, *p, r->docs_url);
	json_end_array(&w);
	json_end_object(&w);
	json_end_object(&w);
	/* Columns count bytes; HLO text is ASCII outside string literals. */
	report_kv_str(&w, "columnKind", "unicodeCodePoints");
	json_key(&w, "results");
	json_begin_array(&w);
	for (uint32_t k = 0; k < s->n; k++) {
		const struct finding *f = s->items[k];
		int idx = -1;
		for (int j = 0; j < nrules; j++)
			if (!strcmp(rules[j]->name, f->rule))
				idx = j;
		report_sarif_result(&w, f, idx, has_baseline);
	}
	json_end_array(&w);
	report_sarif_invocation(&w, errs, bad_files);
	json_end_object(&w);
	json_end_array(&w);
	json_end_object(&w);
	json_finish(&w);
}

/* ---- Summary ---- */

/* One note line for the rules that could not run, in the order recorded:
 * "hlolint: note: not run: padding-waste (needs --target), hbm-over-budget
 * (needs --target or --hbm)", with "on N of M modules" when not on all. */
static bool report_text_not_run(struct report *r)
{
	const char *rule[16], *why[16];
	unsigned count[16], n = 0;
	for (uint32_t m = 0; m < r->nmods; m++)
		for (uint32_t k = 0; k < r->mods[m].nnot_run; k++) {
			unsigned j = 0;
			while (j < n && strcmp(rule[j], r->mods[m].not_run[k]))
				j++;
			if (j == n && n < 16) {
				rule[n] = r->mods[m].not_run[k];
				why[n] = r->mods[m].not_run_why[k];
				count[n++] = 0;
			}
			if (j < n)
				count[j]++;
		}
	if (!n)
		return false;
	fputs("hlolint: note: not run:", r->out);
	for (unsigned j = 0; j < n; j++) {
		fprintf(r->out, "%s %s (%s", j ? "," : "", rule[j], why[j]);
		if (count[j] < r->nmods)
			fprintf(r->out, ", on %u of %u modules", count[j], r->nmods);
		fputc(')', r->out);
	}
	fputc('\n', r->out);
	return true;
}

static void report_text_summary(struct report *r, const struct finding_sink *s, unsigned bad_files)
{
	bool said = report_text_not_run(r);   /* it names --target and --hbm */
	unsigned count[3] = { 0, 0, 0 }, suppressed = 0, baseline = 0;
	for (uint32_t k = 0; k < s->n; k++) {
		const struct finding *f = s->items[k];
		if (f->suppressed)
			suppressed++;
		else if (f->baseline)
			baseline++;
		else
			count[f->severity]++;
	}
	fprintf(r->out, "hlolint: %u error%s, %u warning%s, %u note%s in %u module%s", count[2],
		count[2] == 1 ? "" : "s", count[1], count[1] == 1 ? "" : "s", count[0], count[0] == 1 ? "" : "s",
		r->nmods, r->nmods == 1 ? "" : "s");
	if (suppressed)
		fprintf(r->out, "; %u suppressed", suppressed);
	if (baseline)
		fprintf(r->out, "; %u in baseline", baseline);
	if (bad_files)
		fprintf(r->out, "; %u file%s with errors (see above)", bad_files, bad_files == 1 ? "" : "s");
	unsigned unknown = report_unknown_capacity(r);
	if (unknown)
		fprintf(r->out, "; capacity unknown%s%s", r->nmods > 1 ? " in " : "",
			r->nmods > 1 ? (unknown == r->nmods ? "all" : "some") : "");
	if (unknown && !said)
		fputs(" (pass --target or --hbm)", r->out);
	fputc('\n', r->out);
}

/* Input errors as ::error annotations (stderr has them too, but only
 * stdout's workflow commands become annotations). */
static void report_github_errors(FILE *out, const struct diag_sink *errs)
{
	for (uint32_t k = 0; errs && k < errs->nrecs; k++) {
		const struct diag_record *e = &errs->recs[k];
		fputs("::error", out);
		if (e->path) {
			fputs(" file=", out);
			report_gh_escape(out, e->path, true);
			if (e->line)
				fprintf(out, ",line=%llu,col=%llu", (unsigned long long)e->line,
					(unsigned long long)e->col);
		}
		fputs("::", out);
		report_gh_escape(out, e->msg, false);
		fputc('\n', out);
	}
}

bool report_finish(struct report *r, const struct finding_sink *s, const struct pass *const *rules,
		   unsigned bad_files, const struct diag_sink *errs)
{
	bool has_baseline = false;
	for (uint32_t k = 0; k < s->n && !has_baseline; k++)
		has_baseline = s->items[k]->baseline;
	switch (r->fmt) {
	case REPORT_TEXT: case REPORT_CONCISE: report_text_summary(r, s, bad_files); break;
	case REPORT_JSON: report_json_doc(r, s, errs); break;
	case REPORT_SARIF: report_sarif_doc(r, s, rules, has_baseline || s->baseline_given, errs, bad_files); break;
	case REPORT_GITHUB: report_github_errors(r->out, errs); break;
	}
	return fflush(r->out) == 0 && !ferror(r->out);
}
