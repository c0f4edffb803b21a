/* config.c - options of `hlolint check`: defaults, the hand-parsed
 * .hlolint.toml (`key = value`, [options], [[suppress]], strings, numbers,
 * booleans, one-line arrays; errors located through diag.h), command-line
 * overrides, suppressions and the baseline file.  It prints no findings. */
#include "config.h"
#include "output.h"
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "source.h"
#include "target.h"
#include "metadata.h"

const struct config_option_info config_options[] = {
#define OPTION(id, rule, name, kind, def, help) { pass_name_##rule, name, def, help, kind },
#include "options.def"
#undef OPTION
	{ NULL, NULL, NULL, NULL, OPTK_INT }
};

const char *config_kind_name(enum config_option_kind k)
{
	switch (k) {
	case OPTK_BYTES: return "BYTES";
	case OPTK_INT: return "N";
	case OPTK_RATIO: return "RATIO";
	case OPTK_FRACTION: return "FRACTION";
	}
	return "VALUE";
}

static const char *config_strdup(struct config *c, const char *s, size_t n)
{
	return arena_strndup(&c->arena, s, n);
}

static bool config_value_option(struct config *c, int id, const char *value, char *err, size_t errlen);

void config_init(struct config *c)
{
	memset(c, 0, sizeof *c);
	arena_init(&c->arena);
	c->fail_on = FINDING_WARNING;
	c->partitioned = -1;
	while (pass_table[c->npasses])
		c->npasses++;
	c->enabled = xcalloc(c->npasses + 1, sizeof *c->enabled);
	for (uint32_t k = 0; k < c->npasses; k++)
		c->enabled[k] = !pass_table[k]->rewrites;
	for (int k = 0; k < CONFIG_OPT_COUNT; k++) {
		char err[160];
		/* The defaults are ours: a bad one is a bug caught by every test. */
		if (!config_value_option(c, k, config_options[k].def, err, sizeof err))
			fprintf(stderr, "hlolint: internal error: default of %s: %s\n", config_options[k].name, err);
	}
}

void config_free(struct config *c)
{
	for (int k = 0; k < 2; k++) {
		free(c->rules[k].select);
		free(c->rules[k].ignore);
	}
	free(c->enabled);
	free(c->supp);
	free(c->baseline);
	free(c->baseline_used);
	arena_free(&c->arena);
	memset(c, 0, sizeof *c);
}

/* ---- Values ---- */

bool config_parse_bytes(const char *text, int64_t *out)
{
	/* One size syntax in the whole tool: target.h's (which rejects 0). */
	const char *p = text;
	while (*p == '0' || *p == '.')
		p++;
	uint64_t v;
	if (p != text && (!*p || !strcmp(p, "B") || (strlen(p) == 1 && strchr("KMGTkmgt", *p)))) {
		*out = 0;
		return true;
	}
	if (!target_parse_size(text, &v) || v > INT64_MAX)
		return false;
	*out = (int64_t)v;
	return true;
}

static bool config_parse_number(const char *text, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(text, &end);
	if (end == text || errno || !isfinite(v))
		return false;
	if (*end == '%' && !end[1]) {
		*out = v / 100.0;
		return true;
	}
	if (*end)
		return false;
	*out = v;
	return true;
}

static bool config_value_option(struct config *c, int id, const char *value, char *err, size_t errlen)
{
	const struct config_option_info *o = &config_options[id];
	double d;
	switch (o->kind) {
	case OPTK_BYTES:
		if (!config_parse_bytes(value, &c->opt_int[id])) {
			snprintf(err, errlen, "%s expects a byte count such as 64M, 1GiB or 4096, got '%s'", o->name,
				 value);
			return false;
		}
		return true;
	case OPTK_INT: {
		char *end;
		errno = 0;
		long long v = strtoll(value, &end, 10);
		if (end == value || *end || errno) {
			snprintf(err, errlen, "%s expects an integer, got '%s'", o->name, value);
			return false;
		}
		c->opt_int[id] = v;
		return true;
	}
	case OPTK_RATIO:
		if (!config_parse_number(value, &d) || d < 0 || strchr(value, '%')) {
			snprintf(err, errlen, "%s expects a ratio such as 1.25, got '%s'", o->name, value);
			return false;
		}
		c->opt_double[id] = d;
		return true;
	case OPTK_FRACTION:
		if (!config_parse_number(value, &d) || d < 0 || d > 1) {
			snprintf(err, errlen, "%s expects a fraction between 0 and 1 or a percentage such as 5%%, got '%s'",
				 o->name, value);
			return false;
		}
		c->opt_double[id] = d;
		return true;
	}
	return false;
}

int config_option_find(const char *name)
{
	for (int k = 0; k < CONFIG_OPT_COUNT; k++)
		if (!strcmp(config_options[k].name, name))
			return k;
	return -1;
}

bool config_set_option(struct config *c, const char *name, const char *value, char *err, size_t errlen)
{
	int id = config_option_find(name);
	if (id < 0) {
		snprintf(err, errlen, "unknown option '%s' (see 'hlolint rules')", name);
		return false;
	}
	return config_value_option(c, id, value, err, errlen);
}

int config_set_arg(struct config *c, const char *name, const char *value, char *err, size_t errlen)
{
	bool ok;
	if (!strcmp(name, "--select"))
		ok = config_select(c, value, true, err, errlen);
	else if (!strcmp(name, "--ignore"))
		ok = config_select(c, value, false, err, errlen);
	else if (!strcmp(name, "--fail-on"))
		ok = config_set_fail_on(c, value, err, errlen);
	else if (!strcmp(name, "--target")) {
		ok = config_set_target(c, value, err, errlen);
		c->target_how = NULL;
	}
	else if (!strcmp(name, "--hbm"))
		ok = config_set_hbm(c, value, err, errlen);
	else if (!strcmp(name, "--partitioned"))
		ok = config_set_partitioned(c, value, err, errlen);
	else if (!strcmp(name, "--source-root"))
		ok = config_set_source_root(c, value, err, errlen);
	else if (!strcmp(name, "--docs-url"))
		ok = config_set_docs_url(c, value, err, errlen);
	else if (!strncmp(name, "--", 2) && config_option_find(name + 2) >= 0)
		ok = config_set_option(c, name + 2, value, err, errlen);
	else
		return -1;
	return ok ? 1 : 0;
}

bool config_set_hbm(struct config *c, const char *value, char *err, size_t errlen)
{
	uint64_t v;
	if (!target_parse_size(value, &v) || v > INT64_MAX) {
		snprintf(err, errlen, "hbm expects a size such as 16G, 16GiB, 80GB or 17179869184, got '%s'", value);
		return false;
	}
	c->hbm_bytes = (int64_t)v;
	return true;
}

bool config_set_partitioned(struct config *c, const char *value, char *err, size_t errlen)
{
	static const char *const names[] = { "no", "yes", "auto" };
	for (int k = 0; k < 3; k++)
		if (!strcmp(value, names[k])) {
			c->partitioned = k == 2 ? -1 : k;
			return true;
		}
	snprintf(err, errlen, "partitioned expects yes, no or auto, got '%s'", value);
	return false;
}

bool config_set_target(struct config *c, const char *value, char *err, size_t errlen)
{
	const struct target *t = target_find(value);
	if (!t) {
		int n = snprintf(err, errlen, "unknown target '%s' (expected", value);
		for (int k = 0; target_presets[k] && n > 0 && (size_t)n < errlen; k++)
			n += snprintf(err + n, errlen - (size_t)n, "%s %s", k ? "," : "", target_presets[k]->name);
		if (n > 0 && (size_t)n < errlen)
			snprintf(err + n, errlen - (size_t)n, ")");
		return false;
	}
	c->target = t;
	return true;
}

bool config_set_fail_on(struct config *c, const char *value, char *err, size_t errlen)
{
	if (!finding_severity_parse(value, &c->fail_on)) {
		snprintf(err, errlen, "fail-on expects error, warning or note, got '%s'", value);
		return false;
	}
	return true;
}

int64_t config_int(const struct config *c, enum config_option id)
{
	return c->opt_int[id];
}

double config_double(const struct config *c, enum config_option id)
{
	return c->opt_double[id];
}

/* ---- Rule selection ---- */

/* Checks that pattern names at least one rule. */
static bool config_rule_pattern_ok(const struct config *c, const char *pat)
{
	if (!strcmp(pat, "all"))
		return true;
	for (uint32_t k = 0; k < c->npasses; k++)
		if (!pass_table[k]->rewrites && !fnmatch(pat, pass_table[k]->name, 0))
			return true;
	return false;
}

static bool config_rule_matches(const char *pat, const char *rule)
{
	return !strcmp(pat, "all") || !fnmatch(pat, rule, 0);
}

static void config_rules_add(const char ***list, uint32_t *n, const char *s)
{
	*list = xreallocarray((void *)*list, *n + 1, sizeof **list);
	(*list)[(*n)++] = s;
}

/* Recomputes c->enabled: the command line's select replaces the file's
 * select and ignore; ignores of the file and the command line then apply. */
static void config_rules_resolve(struct config *c)
{
	const struct config_rules *file = &c->rules[0], *cli = &c->rules[1];
	const struct config_rules *sel = cli->has_select ? cli : file->has_select ? file : NULL;
	for (uint32_t k = 0; k < c->npasses; k++) {
		const struct pass *p = pass_table[k];
		bool on = !p->rewrites;
		if (on && sel) {
			on = false;
			for (uint32_t j = 0; j < sel->nselect && !on; j++)
				on = config_rule_matches(sel->select[j], p->name);
		}
		for (int src = cli->has_select ? 1 : 0; src < 2 && on; src++)
			for (uint32_t j = 0; j < c->rules[src].nignore && on; j++)
				on = !config_rule_matches(c->rules[src].ignore[j], p->name);
		c->enabled[k] = on;
	}
}

/* Adds comma-separated patterns of rules (origin 0 file, 1 command line). */
static bool config_rules_text(struct config *c, int origin, const char *rules, bool select, char *err,
			      size_t errlen)
{
	struct config_rules *r = &c->rules[origin];
	if (select && !r->has_select) {
		r->has_select = true;
		r->nselect = 0;
	}
	const char *p = rules;
	for (;;) {
		const char *e = p;
		while (*e && *e != ',')
			e++;
		const char *b = p;
		while (b < e && isspace((unsigned char)*b))
			b++;
		const char *t = e;
		while (t > b && isspace((unsigned char)t[-1]))
			t--;
		if (t > b) {
			const char *name = config_strdup(c, b, (size_t)(t - b));
			if (!config_rule_pattern_ok(c, name)) {
				snprintf(err, errlen, "unknown rule '%s' (see 'hlolint rules')", name);
				return false;
			}
			if (select)
				config_rules_add(&r->select, &r->nselect, name);
			else
				config_rules_add(&r->ignore, &r->nignore, name);
		}
		if (!*e)
			break;
		p = e + 1;
	}
	config_rules_resolve(c);
	return true;
}

bool config_select(struct config *c, const char *rules, bool select, char *err, size_t errlen)
{
	return config_rules_text(c, 1, rules, select, err, errlen);
}

bool config_rule_enabled(const struct config *c, const struct pass *p)
{
	for (uint32_t k = 0; k < c->npasses; k++)
		if (pass_table[k] == p)
			return c->enabled[k];
	return false;
}

/* ---- Discovery ---- */

bool config_set_source_root(struct config *c, const char *value, char *err, size_t errlen)
{
	struct stat st;
	char abs[PATH_MAX];
	if (!value || !value[0] || stat(value, &st) != 0 || !S_ISDIR(st.st_mode) || !realpath(value, abs)) {
		snprintf(err, errlen, "source-root expects a directory, got '%s'", value ? value : "");
		return false;
	}
	c->source_root = arena_strndup(&c->arena, abs, strlen(abs));
	return true;
}

bool config_set_docs_url(struct config *c, const char *value, char *err, size_t errlen)
{
	if (!value)
		value = "";
	size_t n = strlen(value);
	if (strncmp(value, "https://", 8) && strncmp(value, "http://", 7) && strncmp(value, "file://", 7)) {
		snprintf(err, errlen, "docs-url expects an https://, http:// or file:// URL, got '%s'", value);
		return false;
	}
	while (n > 8 && value[n - 1] == '/')
		n--;
	c->docs_url = arena_strndup(&c->arena, value, n);
	return true;
}

void config_apply_source_root(const struct config *c)
{
	if (c->source_root) {
		metadata_set_source_root(c->source_root);
		return;
	}
	char *root = config_project_root();
	metadata_set_source_root(root);
	free(root);
}

/* The one walk up from the working directory: the first CONFIG_FILE_NAME
 * (want_root false) or the directory itself (want_root true), stopping at
 * the first directory holding a .git entry or at /. */
static char *config_walk_up(bool want_root)
{
	char dir[PATH_MAX];
	if (!getcwd(dir, sizeof dir - sizeof CONFIG_FILE_NAME - 8))
		return NULL;
	for (;;) {
		size_t n = strlen(dir);
		char path[PATH_MAX + sizeof CONFIG_FILE_NAME + 8];
		struct stat st;
		snprintf(path, sizeof path, "%s/%s", n == 1 ? "" : dir, CONFIG_FILE_NAME);
		if (!want_root && stat(path, &st) == 0 && S_ISREG(st.st_mode))
			return xstrdup(path);
		snprintf(path, sizeof path, "%s/.git", n == 1 ? "" : dir);
		if (stat(path, &st) == 0)
			return want_root ? xstrdup(dir) : NULL;
		char *slash = strrchr(dir, '/');
		if (n <= 1 || !slash)
			return NULL;
		if (slash == dir)
			slash[1] = 0;
		else
			*slash = 0;
	}
}

char *config_discover(void)
{
	return config_walk_up(false);
}

char *config_project_root(void)
{
	return config_walk_up(true);
}

/* ---- The config file ---- */

enum config_section { SEC_TOP, SEC_OPTIONS, SEC_SUPPRESS };

enum config_value_kind { CV_STRING, CV_BARE, CV_BOOL, CV_ARRAY };

struct config_value {
	enum config_value_kind kind;
	const char *s;              /* STRING/BARE text (unescaped) */
	bool b;
	const char **items;         /* ARRAY of strings */
	struct span *spans;         /* where each item is */
	uint32_t n;
	struct span span;
};

struct config_parser {
	struct config *c;
	struct source *src;
	struct diag_sink *d;
	const char *p, *eol;        /* cursor in the current line */
	enum config_section sec;
	struct config_suppression *cur;  /* the open [[suppress]] entry */
	struct span cur_span;
	bool seen_top[10];
	bool *seen_opt;
	int errors;
};

static struct span config_span(const struct config_parser *ps, const char *b, const char *e)
{
	return span_make((uint64_t)(b - ps->src->buf), (uint64_t)(e - ps->src->buf));
}

static bool config_error(struct config_parser *ps, const char *b, const char *e, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static bool config_error(struct config_parser *ps, const char *b, const char *e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vreport(ps->d, ps->src, config_span(ps, b, e > b ? e : b + 1), DIAG_ERROR, fmt, ap);
	va_end(ap);
	ps->errors++;
	return false;
}

static void config_ws(struct config_parser *ps)
{
	while (ps->p < ps->eol && (*ps->p == ' ' || *ps->p == '\t'))
		ps->p++;
}

static bool config_key_char(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_' || ch == '-';
}

/* A "basic" (escapes) or 'literal' string at ps->p. */
static bool config_string(struct config_parser *ps, const char **out)
{
	const char *start = ps->p;
	char q = *ps->p++;
	size_t cap = (size_t)(ps->eol - ps->p) + 1, n = 0;
	char *buf = arena_alloc(&ps->c->arena, cap);
	while (ps->p < ps->eol && *ps->p != q) {
		char ch = *ps->p++;
		if (ch == '\\' && q == '"') {
			if (ps->p >= ps->eol)
				break;
			const char *esc = ps->p - 1;
			ch = *ps->p++;
			switch (ch) {
			case '"': case '\\': break;
			case 'n': ch = '\n'; break;
			case 't': ch = '\t'; break;
			default:
				return config_error(ps, esc, ps->p, "invalid escape '\\%c' in string (use '...' for "
						    "literal text)", ch);
			}
		}
		buf[n++] = ch;
	}
	if (ps->p >= ps->eol)
		return config_error(ps, start, ps->eol, "unterminated string");
	ps->p++;
	buf[n] = 0;
	*out = buf;
	return true;
}

static bool config_value(struct config_parser *ps, struct config_value *v)
{
	const char *start = ps->p;
	memset(v, 0, sizeof *v);
	if (ps->p >= ps->eol || *ps->p == '#')
		return config_error(ps, start, start + 1, "expected a value after '='");
	if (*ps->p == '"' || *ps->p == '\'') {
		v->kind = CV_STRING;
		if (!config_string(ps, &v->s))
			return false;
	} else if (*ps->p == '[') {
		v->kind = CV_ARRAY;
		ps->p++;
		for (;;) {
			config_ws(ps);
			if (ps->p < ps->eol && *ps->p == ']') {
				ps->p++;
				break;
			}
			if (ps->p >= ps->eol || (*ps->p != '"' && *ps->p != '\''))
				return config_error(ps, ps->p, ps->p + 1,
						    "expected a quoted string or ']' in the array (arrays fit on one line)");
			const char *s, *at = ps->p;
			if (!config_string(ps, &s))
				return false;
			v->items = xreallocarray((void *)v->items, v->n + 1, sizeof *v->items);
			v->spans = xreallocarray(v->spans, v->n + 1, sizeof *v->spans);
			v->spans[v->n] = config_span(ps, at, ps->p);
			v->items[v->n++] = s;
			config_ws(ps);
			if (ps->p < ps->eol && *ps->p == ',')
				ps->p++;
			else if (ps->p >= ps->eol || *ps->p != ']')
				return config_error(ps, ps->p, ps->p + 1, "expected ',' or ']' in the array");
		}
	} else {
		const char *b = ps->p;
		while (ps->p < ps->eol && (config_key_char(*ps->p) || *ps->p == '.' || *ps->p == '+' || *ps->p == '%'))
			ps->p++;
		if (ps->p == b)
			return config_error(ps, b, b + 1, "expected a value: a \"string\", a number, true, false or "
					    "an [array]");
		size_t n = (size_t)(ps->p - b);
		if ((n == 4 && !memcmp(b, "true", 4)) || (n == 5 && !memcmp(b, "false", 5))) {
			v->kind = CV_BOOL;
			v->b = n == 4;
		} else if (!isdigit((unsigned char)*b) && *b != '.' && *b != '+' && *b != '-') {
			return config_error(ps, b, ps->p, "strings need quotes: \"%.*s\"", (int)n, b);
		} else {
			/* TOML allows 1_000_000: drop the underscores. */
			char *t = arena_alloc(&ps->c->arena, n + 1), *q = t;
			for (const char *x = b; x < ps->p; x++)
				if (*x != '_')
					*q++ = *x;
			*q = 0;
			v->kind = CV_BARE;
			v->s = t;
		}
	}
	v->span = config_span(ps, start, ps->p);
	return true;
}

/* A string-ish value (string or bare number) or an error. */
static bool config_want_text(struct config_parser *ps, const struct config_value *v, const char *key)
{
	if (v->kind == CV_STRING || v->kind == CV_BARE)
		return true;
	return config_error(ps, ps->src->buf + v->span.start, ps->src->buf + v->span.end,
			    "'%s' expects a string", key);
}

static bool config_value_error(struct config_parser *ps, const struct config_value *v, const char *msg)
{
	return config_error(ps, ps->src->buf + v->span.start, ps->src->buf + v->span.end, "%s", msg);
}

/* A path in the config file, relative to the file's directory (the
 * parser's arena: lives as long as the config). */
static const char *config_relative(struct config_parser *ps, const char *path)
{
	const char *cfg = ps->src->path, *slash = strrchr(cfg, '/');
	if (path[0] == '/' || !slash)
		return path;
	size_t n = (size_t)(slash - cfg) + 1 + strlen(path) + 1;
	char *out = arena_alloc(&ps->c->arena, n);
	snprintf(out, n, "%.*s/%s", (int)(slash - cfg), cfg, path);
	return out;
}

/* k/kn: the key's text; kb/kend: where it is in the file. */
static bool config_top_key(struct config_parser *ps, const char *k, size_t kn, const char *kb,
			   const char *kend, const struct config_value *v)
{
	static const char *const keys[] = { "target", "hbm", "select", "ignore", "fail-on", "exit-zero",
					    "partitioned", "source-root", "docs-url", "require-target", NULL };
	int which = -1;
	for (int j = 0; keys[j]; j++)
		if (strlen(keys[j]) == kn && !memcmp(keys[j], k, kn))
			which = j;
	if (which < 0)
		return config_error(ps, kb, kend, "unknown key '%.*s' (expected target, hbm, partitioned, select, "
				    "ignore, fail-on, exit-zero, source-root, docs-url or require-target, or a "
				    "[options] or [[suppress]] section)", (int)kn, k);
	if (ps->seen_top[which])
		return config_error(ps, kb, kend, "duplicate key '%s'", keys[which]);
	ps->seen_top[which] = true;
	char err[256];
	struct config *c = ps->c;
	switch (which) {
	case 0:
		if (!config_want_text(ps, v, keys[which]))
			return false;
		if (!config_set_target(c, v->s, err, sizeof err))
			return config_value_error(ps, v, err);
		char *how = arena_alloc(&c->arena, strlen(ps->src->path) + 8);
		sprintf(how, "from %s", ps->src->path);
		c->target_how = how;
		return true;
	case 1:
		if (!config_want_text(ps, v, keys[which]))
			return false;
		return config_set_hbm(c, v->s, err, sizeof err) || config_value_error(ps, v, err);
	case 2:
	case 3: {
		bool ok = true;
		if (v->kind == CV_ARRAY) {
			if (which == 2 && !v->n) {
				c->rules[0].has_select = true;   /* select = [] : nothing */
				config_rules_resolve(c);
			}
			for (uint32_t j = 0; j < v->n; j++)
				if (!config_rules_text(c, 0, v->items[j], which == 2, err, sizeof err))
					return config_error(ps, ps->src->buf + v->spans[j].start,
							    ps->src->buf + v->spans[j].end, "%s", err);
		} else if (v->kind == CV_STRING) {
			ok = config_rules_text(c, 0, v->s, which == 2, err, sizeof err);
		} else {
			return config_value_error(ps, v, "expected a list of rule names such as [\"host-transfer\"]");
		}
		return ok || config_value_error(ps, v, err);
	}
	case 4:
		if (!config_want_text(ps, v, keys[which]))
			return false;
		return config_set_fail_on(c, v->s, err, sizeof err) || config_value_error(ps, v, err);
	case 5:
	case 9:
		if (v->kind != CV_BOOL)
			return config_value_error(ps, v, which == 5 ? "exit-zero expects true or false" :
						  "require-target expects true or false");
		*(which == 5 ? &c->exit_zero : &c->require_target) = v->b;
		return true;
	case 7:
		if (!config_want_text(ps, v, keys[which]))
			return false;
		return config_set_source_root(c, config_relative(ps, v->s), err, sizeof err) ||
		       config_value_error(ps, v, err);
	case 8:
		if (!config_want_text(ps, v, keys[which]))
			return false;
		return config_set_docs_url(c, v->s, err, sizeof err) || config_value_error(ps, v, err);
	default:
		if (!config_want_text(ps, v, keys[which]))
			return false;
		return config_set_partitioned(c, v->s, err, sizeof err) || config_value_error(ps, v, err);
	}
}

static bool config_option_key(struct config_parser *ps, const char *k, size_t kn, const char *kb,
			      const char *kend, const struct config_value *v)
{
	char name[128];
	snprintf(name, sizeof name, "%.*s", (int)kn, k);
	int id = config_option_find(name);
	if (id < 0)
		return config_error(ps, kb, kend, "unknown option '%s' (see 'hlolint rules')", name);
	if (ps->seen_opt[id])
		return config_error(ps, kb, kend, "duplicate option '%s'", name);
	ps->seen_opt[id] = true;
	if (!config_want_text(ps, v, name))
		return false;
	char err[256];
	return config_value_option(ps->c, id, v->s, err, sizeof err) || config_value_error(ps, v, err);
}

/* "file.py:42" -> file glob and line (0 when no ":N" suffix). */
static void config_split_source(struct config *c, const char *text, const char **file, int64_t *line)
{
	const char *colon = strrchr(text, ':');
	*line = 0;
	if (colon && colon[1]) {
		const char *q = colon + 1;
		while (isdigit((unsigned char)*q))
			q++;
		if (!*q) {
			*line = strtoll(colon + 1, NULL, 10);
			*file = config_strdup(c, text, (size_t)(colon - text));
			return;
		}
	}
	*file = text;
}

static bool config_suppress_key(struct config_parser *ps, const char *k, size_t kn, const char *kb,
				const char *kend, const struct config_value *v)
{
	static const char *const keys[] = { "rule", "op_name", "source", "module", "reason", NULL };
	int which = -1;
	for (int j = 0; keys[j]; j++)
		if (strlen(keys[j]) == kn && !memcmp(keys[j], k, kn))
			which = j;
	if (which < 0)
		return config_error(ps, kb, kend, "unknown key '%.*s' in [[suppress]] (expected rule, op_name, "
				    "source, module or reason)", (int)kn, k);
	if (!config_want_text(ps, v, keys[which]))
		return false;
	struct config_suppression *s = ps->cur;
	const char **slot = which == 0 ? &s->rule : which == 1 ? &s->op_name : which == 2 ? &s->source_file
			  : which == 3 ? &s->module : &s->reason;
	if (*slot)
		return config_error(ps, kb, kend, "duplicate key '%s'", keys[which]);
	if (which == 0 && !config_rule_pattern_ok(ps->c, v->s)) {
		char err[200];
		snprintf(err, sizeof err, "unknown rule '%s' (see 'hlolint rules')", v->s);
		return config_value_error(ps, v, err);
	}
	if (which == 2)
		config_split_source(ps->c, v->s, &s->source_file, &s->source_line);
	else
		*slot = v->s;
	return true;
}

/* Closes the open [[suppress]] entry: it needs something to match on. */
static void config_suppress_close(struct config_parser *ps)
{
	struct config_suppression *s = ps->cur;
	if (!s)
		return;
	ps->cur = NULL;
	if (!s->op_name && !s->source_file && !s->module) {
		config_error(ps, ps->src->buf + ps->cur_span.start, ps->src->buf + ps->cur_span.end,
			     "[[suppress]] needs op_name, source or module (use ignore = [...] to turn a rule off)");
		ps->c->nsupp--;
		return;
	}
	if (!s->rule)
		s->rule = "*";
	if (!s->reason) {
		uint64_t line, col;
		source_position(ps->src, ps->cur_span.start, &line, &col);
		char where[64];
		snprintf(where, sizeof where, ":%llu", (unsigned long long)line);
		size_t n = strlen(ps->src->path) + strlen(where);
		char *r = arena_alloc(&ps->c->arena, n + 1);
		snprintf(r, n + 1, "%s%s", ps->src->path, where);
		s->reason = r;
	}
}

static void config_line(struct config_parser *ps)
{
	config_ws(ps);
	if (ps->p >= ps->eol || *ps->p == '#')
		return;
	if (*ps->p == '[') {
		const char *open = ps->p;
		bool array = ps->p + 1 < ps->eol && ps->p[1] == '[';
		ps->p += array ? 2 : 1;
		config_ws(ps);
		const char *name = ps->p;
		while (ps->p < ps->eol && config_key_char(*ps->p))
			ps->p++;
		size_t n = (size_t)(ps->p - name);
		config_ws(ps);
		const char *close = array ? "]]" : "]";
		if ((size_t)(ps->eol - ps->p) < strlen(close) || memcmp(ps->p, close, strlen(close))) {
			config_error(ps, ps->p, ps->p + 1, "expected '%s' after the section name", close);
			return;
		}
		ps->p += strlen(close);
		config_suppress_close(ps);
		if (!array && n == 7 && !memcmp(name, "options", 7)) {
			ps->sec = SEC_OPTIONS;
		} else if (array && n == 8 && !memcmp(name, "suppress", 8)) {
			ps->sec = SEC_SUPPRESS;
			struct config *c = ps->c;
			c->supp = xreallocarray(c->supp, c->nsupp + 1, sizeof *c->supp);
			ps->cur = &c->supp[c->nsupp++];
			memset(ps->cur, 0, sizeof *ps->cur);
			ps->cur_span = config_span(ps, open, ps->p);
		} else {
			config_error(ps, open, ps->p, "unknown section '%.*s' (expected [options] or [[suppress]])",
				     (int)(ps->p - open), open);
			ps->sec = SEC_TOP;
			return;
		}
	} else {
		const char *kb = ps->p, *k = ps->p, *kend;
		size_t kn;
		if (*ps->p == '"') {
			const char *s;
			if (!config_string(ps, &s))
				return;
			k = s;
			kn = strlen(s);
			kend = ps->p;
		} else {
			while (ps->p < ps->eol && config_key_char(*ps->p))
				ps->p++;
			kn = (size_t)(ps->p - k);
			kend = ps->p;
			if (!kn) {
				config_error(ps, k, k + 1, "expected a key, a [section] or a comment");
				return;
			}
		}
		config_ws(ps);
		if (ps->p >= ps->eol || *ps->p != '=') {
			config_error(ps, ps->p, ps->p + 1, "expected '=' after '%.*s'", (int)kn, k);
			return;
		}
		ps->p++;
		config_ws(ps);
		struct config_value v;
		bool ok = config_value(ps, &v);
		if (ok) {
			switch (ps->sec) {
			case SEC_TOP: ok = config_top_key(ps, k, kn, kb, kend, &v); break;
			case SEC_OPTIONS: ok = config_option_key(ps, k, kn, kb, kend, &v); break;
			case SEC_SUPPRESS: ok = config_suppress_key(ps, k, kn, kb, kend, &v); break;
			}
		}
		free((void *)v.items);
		free(v.spans);
		if (!ok)
			return;
	}
	config_ws(ps);
	if (ps->p < ps->eol && *ps->p != '#')
		config_error(ps, ps->p, ps->eol, "unexpected text after the value");
}

bool config_load(struct config *c, const char *path, struct diag_sink *d)
{
	char err[512];
	struct source *src = source_load(path, err, sizeof err);
	if (!src) {
		diag_report(d, NULL, span_none(), DIAG_ERROR, "%s", err);
		return false;
	}
	c->path = config_strdup(c, src->path, strlen(src->path));
	struct config_parser ps = { .c = c, .src = src, .d = d, .sec = SEC_TOP };
	ps.seen_opt = xcalloc(CONFIG_OPT_COUNT + 1, sizeof *ps.seen_opt);
	/* Keys and string values point into the arena, not into src. */
	const char *p = src->buf, *end = src->buf + src->len;
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		size_t len = (size_t)(eol - p);
		if (len && p[len - 1] == '\r')
			len--;
		const char *e = p + len;
		if (memchr(p, 0, len)) {
			config_error(&ps, p, e, "NUL byte in the config file");
		} else {
			ps.p = p;
			ps.eol = e;
			config_line(&ps);
		}
		p = eol + 1;
	}
	config_suppress_close(&ps);
	free(ps.seen_opt);
	/* Bare keys above pointed into the source only for error locations:
	 * everything kept (c->target, patterns, suppressions) is arena text. */
	source_free(src);
	return ps.errors == 0;
}

/* ---- Suppressions ---- */

static bool config_source_matches(const struct config_suppression *s, const struct finding *f)
{
	if (!f->source_file)
		return false;
	if (s->source_line && s->source_line != f->source_line)
		return false;
	/* The whole path or any suffix starting after a '/'. */
	const char *p = f->source_file;
	for (;;) {
		if (!fnmatch(s->source_file, p, 0))
			return true;
		p = strchr(p, '/');
		if (!p)
			return false;
		p++;
	}
}

void config_apply_suppressions(struct config *c, struct finding_sink *s, uint32_t from)
{
	for (uint32_t k = from; k < s->n; k++) {
		struct finding *f = s->items[k];
		for (uint32_t j = 0; j < c->nsupp && !f->suppressed; j++) {
			struct config_suppression *x = &c->supp[j];
			if (fnmatch(x->rule, f->rule, 0))
				continue;
			if (x->op_name && (!f->op_name[0] || fnmatch(x->op_name, f->op_name, 0)))
				continue;
			if (x->module && fnmatch(x->module, f->module, 0))
				continue;
			if (x->source_file && !config_source_matches(x, f))
				continue;
			f->suppressed = true;
			f->suppress_reason = x->reason;
			x->used++;
		}
	}
}

/* ---- Baseline ---- */

static int config_fp_cmp(const void *a, const void *b)
{
	return memcmp(a, b, 16);
}

bool config_baseline_load(struct config *c, const char *path, struct diag_sink *d)
{
	char err[512];
	struct source *src = source_load(path, err, sizeof err);
	if (!src) {
		diag_report(d, NULL, span_none(), DIAG_ERROR, "%s", err);
		return false;
	}
	if (src->binary) {
		diag_report(d, src, span_make(0, 0), DIAG_ERROR, "%s", src->binary);
		source_free(src);
		return false;
	}
	int errors = 0;
	uint32_t cap = 0;
	const char *p = src->buf, *end = src->buf + src->len;
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		const char *q = p;
		while (q < eol && (*q == ' ' || *q == '\t'))
			q++;
		if (q < eol && *q != '#' && *q != '\r') {
			const char *t = q;
			while (t < eol && isxdigit((unsigned char)*t))
				t++;
			if (t - q != 16 || (t < eol && !isspace((unsigned char)*t))) {
				diag_report(d, src, span_make((uint64_t)(q - src->buf), (uint64_t)(t > q ? t - src->buf
									     : q + 1 - src->buf)),
					    DIAG_ERROR, "expected a 16-digit hexadecimal fingerprint");
				errors++;
			} else {
				if (c->nbaseline == cap) {
					cap = cap ? cap * 2 : 64;
					c->baseline = xreallocarray(c->baseline, cap, sizeof *c->baseline);
				}
				for (int k = 0; k < 16; k++)
					c->baseline[c->nbaseline][k] = (char)tolower((unsigned char)q[k]);
				c->baseline[c->nbaseline][16] = 0;
				c->nbaseline++;
			}
		}
		p = eol + 1;
	}
	source_free(src);
	if (c->nbaseline)
		qsort(c->baseline, c->nbaseline, sizeof *c->baseline, config_fp_cmp);
	c->baseline_used = xcalloc(c->nbaseline + 1, sizeof *c->baseline_used);
	c->has_baseline = true;
	return errors == 0;
}

void config_baseline_apply(struct config *c, struct finding_sink *s, uint32_t from)
{
	if (!c->has_baseline)
		return;
	for (uint32_t k = from; k < s->n; k++) {
		struct finding *f = s->items[k];
		if (f->suppressed)
			continue;
		/* First unused entry with this fingerprint. */
		uint32_t lo = 0, hi = c->nbaseline;
		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;
			if (memcmp(c->baseline[mid], f->fingerprint, 16) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < c->nbaseline && !memcmp(c->baseline[lo], f->fingerprint, 16); lo++)
			if (!c->baseline_used[lo]) {
				c->baseline_used[lo] = true;
				f->baseline = true;
				break;
			}
	}
}

bool config_baseline_write(const struct finding_sink *s, const char *path, uint32_t *written)
{
	*written = 0;
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	if (!out)
		fatal_out_of_memory();
	fprintf(out, "# hlolint baseline 1: one finding per line: fingerprint rule path:line op_name\n"
		     "# Only the fingerprint counts; regenerate with: hlolint check --write-baseline FILE ...\n");
	for (uint32_t k = 0; k < s->n; k++) {
		const struct finding *f = s->items[k];
		if (f->suppressed)
			continue;
		diag_line(out, "%s %s %s:%llu %s\n", f->fingerprint, f->rule, f->path, (unsigned long long)f->line,
			f->op_name[0] ? f->op_name : "-");
		++*written;
	}
	if (fclose(out) != 0)
		fatal_out_of_memory();
	bool ok = output_write(path, text, len, "baseline");
	free(text);
	return ok;
}
