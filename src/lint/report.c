/* report.c - writes findings as text, JSON, SARIF or GitHub annotations.
 * Text and github hide suppressed and baseline findings (the summary counts
 * them); JSON and SARIF keep them marked, through json.h.  It does not
 * decide severities, suppressions or the exit status. */
#include "report.h"
/* Where the documents are, absolute (SARIF's helpUri): the installed copy
 * (make install), unless the build says otherwise (make DOCS_URL=...). */
#ifndef HLOLINT_DOCS_URL
#define HLOLINT_DOCS_URL "file:///usr/local/share/doc/hlolint"
#endif
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
	struct arena arena;
	struct report_mod *mods;
	uint32_t nmods, cap;
};

bool report_format_parse(const char *name, enum report_format *out)
{
	static const char *const names[] = { "text", "json", "sarif", "github", NULL };
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
	arena_init(&r->arena);
	return r;
}

void report_free(struct report *r)
{
	if (!r)
		return;
	free(r->mods);
	arena_free(&r->arena);
	free(r);
}

static const char *report_dup(struct report *r, const char *s)
{
	return s ? arena_strndup(&r->arena, s, strlen(s)) : NULL;
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
	json_end_object(w);
}

/* ---- Text ---- */

static void report_text_suggestion(FILE *out, const struct finding *f)
{
	switch (f->suggest) {
	case SUGGEST_NONE: break;
	case SUGGEST_SHARDING: fprintf(out, "note: suggestion: sharding=%s\n", f->suggest_text); break;
	case SUGGEST_SHAPE: fprintf(out, "note: suggestion: shape %s\n", f->suggest_text); break;
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
		fwrite(w, 1, n, out);
		col += n;
		first = false;
		p = e;
	}
	fputc('\n', out);
}

static void report_text_one(FILE *out, const struct finding *f)
{
	if (f->line)
		fprintf(out, "%s:%llu:%llu: ", f->path, (unsigned long long)f->line, (unsigned long long)f->col);
	else
		fprintf(out, "%s: ", f->path);
	fprintf(out, "%s: %s [%s]\n", finding_severity_name(f->severity), f->message, f->rule);
	if (f->src)
		diag_print_line(out, f->src, f->span);
	/* The Python line first, located so that editors jump to it. */
	if (f->source_file) {
		if (f->source_line > 0)
			fprintf(out, "%s:%lld: ", f->source_file, (long long)f->source_line);
		else
			fprintf(out, "%s: ", f->source_file);
		fprintf(out, "note: Python source%s%s%s%s%s\n", f->op_name[0] ? " (op_name \"" : "", f->op_name,
			f->op_name[0] ? "\")" : "", f->source_via ? " via %" : "", f->source_via ? f->source_via : "");
	} else if (f->op_name[0])
		fprintf(out, "note: op_name \"%s\"\n", f->op_name);
	for (const struct finding_note *n = f->notes; n; n = n->next)
		report_wrap(out, "note: ", n->text, 6);
	report_text_suggestion(out, f);
}

/* ---- GitHub workflow commands ---- */

/* Escapes a property (prop) or the message data of a workflow command. */
static void report_gh_escape(FILE *out, const char *s, bool prop)
{
	for (; *s; s++) {
		switch (*s) {
		case '%': fputs("%25", out); break;
		case '\r': fputs("%0D", out); break;
		case '\n': fputs("%0A", out); break;
		case ':': prop ? fputs("%3A", out) : fputc(':', out); break;
		case ',': prop ? fputs("%2C", out) : fputc(',', out); break;
		default: fputc(*s, out); break;
		}
	}
}

static void report_github_one(FILE *out, const struct finding *f)
{
	static const char *const cmd[] = { "notice", "warning", "error" };
	fprintf(out, "::%s file=", cmd[f->severity]);
	report_gh_escape(out, f->path, true);
	if (f->line) {
		fprintf(out, ",line=%llu,col=%llu", (unsigned long long)f->line, (unsigned long long)f->col);
		if (f->end_line == f->line && f->end_col > f->col)
			fprintf(out, ",endColumn=%llu", (unsigned long long)f->end_col);
	}
	fputs(",title=", out);
	report_gh_escape(out, f->rule, true);
	fputs("::", out);
	report_gh_escape(out, f->message, false);
	if (f->source_file) {
		char line[48];
		snprintf(line, sizeof line, ":%lld", (long long)f->source_line);
		fputs("%0APython source: ", out);
		report_gh_escape(out, f->source_file, false);
		fputs(line, out);
		if (f->source_via) {
			fputs(" (via %25", out);
			report_gh_escape(out, f->source_via, false);
			fputs(")", out);
		}
	}
	for (const struct finding_note *n = f->notes; n; n = n->next) {
		fputs("%0A", out);
		report_gh_escape(out, n->text, false);
	}
	fputc('\n', out);
}

void report_file(struct report *r, const struct finding_sink *s, uint32_t from)
{
	if (r->fmt != REPORT_TEXT && r->fmt != REPORT_GITHUB)
		return;
	for (uint32_t k = from; k < s->n; k++) {
		const struct finding *f = s->items[k];
		if (f->suppressed || f->baseline)
			continue;
		if (r->fmt == REPORT_TEXT)
			report_text_one(r->out, f);
		else
			report_github_one(r->out, f);
	}
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

static void report_sarif_rule(struct json_writer *w, const struct pass *p)
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
	snprintf(uri, sizeof uri, "%s/docs/rules/%s.md", HLOLINT_DOCS_URL, p->name);
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
				  uint64_t end_line, uint64_t end_col)
{
	json_key(w, "physicalLocation");
	json_begin_object(w);
	json_key(w, "artifactLocation");
	json_begin_object(w);
	report_kv_uri(w, "uri", path);
	json_end_object(w);
	if (line) {
		json_key(w, "region");
		json_begin_object(w);
		report_kv_int(w, "startLine", (int64_t)line);
		report_kv_int(w, "startColumn", (int64_t)col);
		if (end_line >= line && (end_line > line || end_col > col)) {
			report_kv_int(w, "endLine", (int64_t)end_line);
			report_kv_int(w, "endColumn", (int64_t)end_col);
		}
		json_end_object(w);
	}
	json_end_object(w);
}

static void report_sarif_result(struct json_writer *w, const struct finding *f, int rule_index, bool has_baseline)
{
	static const char *const level[] = { "note", "warning", "error" };
	json_begin_object(w);
	report_kv_str(w, "ruleId", f->rule);
	if (rule_index >= 0)
		report_kv_int(w, "ruleIndex", rule_index);
	report_kv_str(w, "level", level[f->severity]);
	report_text_obj(w, "message", f->message);
	json_key(w, "locations");
	json_begin_array(w);
	json_begin_object(w);
	report_sarif_physical(w, f->path, f->line, f->col, f->end_line, f->end_col);
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
	json_end_object(w);
	json_end_array(w);
	if (f->source_file) {
		json_key(w, "relatedLocations");
		json_begin_array(w);
		json_begin_object(w);
		report_kv_int(w, "id", 1);
		json_key(w, "physicalLocation");
		json_begin_object(w);
		json_key(w, "artifactLocation");
		json_begin_object(w);
		report_kv_uri(w, "uri", f->source_file);
		json_end_object(w);
		if (f->source_line > 0) {
			json_key(w, "region");
			json_begin_object(w);
			report_kv_int(w, "startLine", f->source_line);
			json_end_object(w);
		}
		json_end_object(w);
		size_t n = strlen(f->op_name) + (f->source_via ? strlen(f->source_via) : 0) + 48;
		char *msg = xmalloc(n);
		int used = snprintf(msg, n, f->op_name[0] ? "Python source of %s" : "Python source", f->op_name);
		if (f->source_via && used > 0 && (size_t)used < n)
			snprintf(msg + used, n - (size_t)used, " via %%%s", f->source_via);
		report_text_obj(w, "message", msg);
		free(msg);
		json_end_object(w);
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
			report_sarif_physical(w, e->path, e->line, e->col, 0, 0);
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
	report_kv_str(&w, "informationUri", HLOLINT_DOCS_URL "/README.md");
	json_key(&w, "rules");
	json_begin_array(&w);
	int nrules = 0;
	for (const struct pass *const *p = rules; p && *p; p++, nrules++)
		report_sarif_rule(&w, *p);
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
static void report_text_not_run(struct report *r)
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
		return;
	fputs("hlolint: note: not run:", r->out);
	for (unsigned j = 0; j < n; j++) {
		fprintf(r->out, "%s %s (%s", j ? "," : "", rule[j], why[j]);
		if (count[j] < r->nmods)
			fprintf(r->out, ", on %u of %u modules", count[j], r->nmods);
		fputc(')', r->out);
	}
	fputc('\n', r->out);
}

static void report_text_summary(struct report *r, const struct finding_sink *s, unsigned bad_files)
{
	report_text_not_run(r);
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
	case REPORT_TEXT: report_text_summary(r, s, bad_files); break;
	case REPORT_JSON: report_json_doc(r, s, errs); break;
	case REPORT_SARIF: report_sarif_doc(r, s, rules, has_baseline || s->baseline_given, errs, bad_files); break;
	case REPORT_GITHUB: report_github_errors(r->out, errs); break;
	}
	return fflush(r->out) == 0 && !ferror(r->out);
}
