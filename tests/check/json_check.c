/* json_check.c - structural validator for the machine-readable outputs of
 * `hlolint check`, used by tests/check/test_outputs.sh (compiled there; no
 * python in tests).  A small JSON parser builds a tree, then
 *   json_check sarif FILE   checks the SARIF 2.1.0 keys GitHub code scanning
 *                           and the OASIS schema require of what we emit;
 *   json_check json FILE    checks hlolint's JSON schema 1.
 * Prints "ok: N results" or one line per problem (exit 1).  It is not a
 * full JSON-schema validator: it checks required keys, types and enums. */
#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum jc_kind { JC_NULL, JC_BOOL, JC_NUM, JC_STR, JC_ARR, JC_OBJ };

struct jc_node {
	enum jc_kind kind;
	double num;
	bool b;
	char *str;                  /* JC_STR value, or the key of an object member */
	struct jc_node *child, *next;
	char *key;
};

static const char *jc_p, *jc_end;
static int jc_problems;

static void *jc_alloc(size_t n)
{
	void *p = calloc(1, n);
	if (!p) {
		fprintf(stderr, "json_check: out of memory\n");
		exit(2);
	}
	return p;
}

static void jc_fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("json_check: ", stdout);
	vprintf(fmt, ap);
	fputc('\n', stdout);
	va_end(ap);
	jc_problems++;
}

static void jc_ws(void)
{
	while (jc_p < jc_end && isspace((unsigned char)*jc_p))
		jc_p++;
}

static struct jc_node *jc_value(int depth);

static char *jc_string(void)
{
	if (jc_p >= jc_end || *jc_p != '"')
		return NULL;
	jc_p++;
	size_t cap = 16, n = 0;
	char *s = jc_alloc(cap);
	while (jc_p < jc_end && *jc_p != '"') {
		unsigned char c = (unsigned char)*jc_p++;
		if (c < 0x20)
			return NULL;
		if (c == '\\') {
			if (jc_p >= jc_end)
				return NULL;
			c = (unsigned char)*jc_p++;
			switch (c) {
			case '"': case '\\': case '/': break;
			case 'b': c = '\b'; break;
			case 'f': c = '\f'; break;
			case 'n': c = '\n'; break;
			case 'r': c = '\r'; break;
			case 't': c = '\t'; break;
			case 'u':
				for (int k = 0; k < 4; k++)
					if (jc_p >= jc_end || !isxdigit((unsigned char)*jc_p++))
						return NULL;
				c = '?';
				break;
			default:
				return NULL;
			}
		}
		if (n + 2 > cap) {
			cap *= 2;
			char *t = realloc(s, cap);
			if (!t)
				exit(2);
			s = t;
		}
		s[n++] = (char)c;
	}
	if (jc_p >= jc_end)
		return NULL;
	jc_p++;
	s[n] = 0;
	return s;
}

static struct jc_node *jc_value(int depth)
{
	jc_ws();
	if (jc_p >= jc_end || depth > 200)
		return NULL;
	struct jc_node *v = jc_alloc(sizeof *v);
	char c = *jc_p;
	if (c == '{' || c == '[') {
		v->kind = c == '{' ? JC_OBJ : JC_ARR;
		jc_p++;
		jc_ws();
		struct jc_node **tail = &v->child;
		if (jc_p < jc_end && *jc_p == (c == '{' ? '}' : ']')) {
			jc_p++;
			return v;
		}
		for (;;) {
			char *key = NULL;
			if (v->kind == JC_OBJ) {
				jc_ws();
				if (!(key = jc_string()))
					return NULL;
				jc_ws();
				if (jc_p >= jc_end || *jc_p++ != ':')
					return NULL;
			}
			struct jc_node *e = jc_value(depth + 1);
			if (!e)
				return NULL;
			e->key = key;
			*tail = e;
			tail = &e->next;
			jc_ws();
			if (jc_p < jc_end && *jc_p == ',') {
				jc_p++;
				continue;
			}
			if (jc_p < jc_end && *jc_p == (c == '{' ? '}' : ']')) {
				jc_p++;
				return v;
			}
			return NULL;
		}
	}
	if (c == '"') {
		v->kind = JC_STR;
		return (v->str = jc_string()) ? v : NULL;
	}
	if (!strncmp(jc_p, "true", 4) || !strncmp(jc_p, "false", 5)) {
		v->kind = JC_BOOL;
		v->b = *jc_p == 't';
		jc_p += v->b ? 4 : 5;
		return v;
	}
	if (!strncmp(jc_p, "null", 4)) {
		v->kind = JC_NULL;
		jc_p += 4;
		return v;
	}
	char *end;
	v->kind = JC_NUM;
	v->num = strtod(jc_p, &end);
	if (end == jc_p)
		return NULL;
	jc_p = end;
	return v;
}

static struct jc_node *jc_get(const struct jc_node *o, const char *key)
{
	if (!o || o->kind != JC_OBJ)
		return NULL;
	for (struct jc_node *e = o->child; e; e = e->next)
		if (!strcmp(e->key, key))
			return e;
	return NULL;
}

/* o[key] of kind k; reports a problem at where when missing or mistyped. */
static struct jc_node *jc_need(const struct jc_node *o, const char *key, enum jc_kind k, const char *where)
{
	static const char *const names[] = { "null", "bool", "number", "string", "array", "object" };
	struct jc_node *v = jc_get(o, key);
	if (!v)
		jc_fail("%s: missing \"%s\"", where, key);
	else if (v->kind != k)
		jc_fail("%s: \"%s\" is a %s, expected a %s", where, key, names[v->kind], names[k]);
	else
		return v;
	return NULL;
}

static bool jc_one_of(const char *s, const char *const *set)
{
	for (; *set; set++)
		if (!strcmp(s, *set))
			return true;
	return false;
}

static void jc_text(const struct jc_node *o, const char *key, const char *where)
{
	struct jc_node *m = jc_need(o, key, JC_OBJ, where);
	struct jc_node *t = m ? jc_need(m, "text", JC_STR, where) : NULL;
	if (t && !t->str[0])
		jc_fail("%s: empty %s.text", where, key);
}

static void jc_physical(const struct jc_node *loc, const char *where)
{
	struct jc_node *pl = jc_need(loc, "physicalLocation", JC_OBJ, where);
	struct jc_node *al = pl ? jc_need(pl, "artifactLocation", JC_OBJ, where) : NULL;
	struct jc_node *uri = al ? jc_need(al, "uri", JC_STR, where) : NULL;
	if (uri && (!uri->str[0] || strchr(uri->str, ' ') || strchr(uri->str, '<')))
		jc_fail("%s: uri '%s' is not a URI reference", where, uri->str);
	struct jc_node *r = pl ? jc_get(pl, "region") : NULL;
	if (r) {
		struct jc_node *sl = jc_need(r, "startLine", JC_NUM, where);
		if (sl && sl->num < 1)
			jc_fail("%s: startLine %g < 1", where, sl->num);
		struct jc_node *sc = jc_get(r, "startColumn"), *el = jc_get(r, "endLine"), *ec = jc_get(r, "endColumn");
		if (sc && sc->num < 1)
			jc_fail("%s: startColumn < 1", where);
		if (el && sl && el->num < sl->num)
			jc_fail("%s: endLine before startLine", where);
		if (ec && sc && el && sl && el->num == sl->num && ec->num < sc->num)
			jc_fail("%s: endColumn before startColumn", where);
	}
}

static int jc_sarif(const struct jc_node *top)
{
	static const char *const levels[] = { "none", "note", "warning", "error", NULL };
	static const char *const states[] = { "new", "unchanged", "updated", "absent", NULL };
	static const char *const kinds[] = { "inSource", "external", NULL };
	struct jc_node *schema = jc_need(top, "$schema", JC_STR, "sarif");
	if (schema && !strstr(schema->str, "sarif"))
		jc_fail("sarif: $schema '%s' is not a SARIF schema", schema->str);
	struct jc_node *ver = jc_need(top, "version", JC_STR, "sarif");
	if (ver && strcmp(ver->str, "2.1.0"))
		jc_fail("sarif: version '%s', expected 2.1.0", ver->str);
	struct jc_node *runs = jc_need(top, "runs", JC_ARR, "sarif");
	if (runs && !runs->child)
		jc_fail("sarif: no runs");
	int nresults = 0;
	for (struct jc_node *run = runs ? runs->child : NULL; run; run = run->next) {
		struct jc_node *tool = jc_need(run, "tool", JC_OBJ, "run");
		struct jc_node *driver = tool ? jc_need(tool, "driver", JC_OBJ, "tool") : NULL;
		if (driver)
			jc_need(driver, "name", JC_STR, "driver");
		struct jc_node *rules = driver ? jc_need(driver, "rules", JC_ARR, "driver") : NULL;
		const char *ids[256];
		int nrules = 0;
		for (struct jc_node *r = rules ? rules->child : NULL; r && nrules < 256; r = r->next) {
			struct jc_node *id = jc_need(r, "id", JC_STR, "rule");
			ids[nrules] = id ? id->str : "";
			for (int k = 0; k < nrules; k++)
				if (!strcmp(ids[k], ids[nrules]))
					jc_fail("rule: duplicate id '%s'", ids[k]);
			nrules++;
			jc_text(r, "shortDescription", "rule");
			jc_text(r, "help", "rule");
			struct jc_node *uri = jc_need(r, "helpUri", JC_STR, "rule");
			if (uri && id && !strstr(uri->str, id->str))
				jc_fail("rule %s: helpUri '%s' does not name the rule", id->str, uri->str);
			struct jc_node *dc = jc_get(r, "defaultConfiguration");
			struct jc_node *lv = dc ? jc_need(dc, "level", JC_STR, "rule") : NULL;
			if (lv && !jc_one_of(lv->str, levels))
				jc_fail("rule: bad default level '%s'", lv->str);
		}
		struct jc_node *results = jc_need(run, "results", JC_ARR, "run");
		for (struct jc_node *res = results ? results->child : NULL; res; res = res->next) {
			char where[64];
			snprintf(where, sizeof where, "result %d", ++nresults);
			struct jc_node *rid = jc_need(res, "ruleId", JC_STR, where);
			struct jc_node *ri = jc_get(res, "ruleIndex");
			if (ri && (ri->kind != JC_NUM || ri->num < 0 || ri->num >= nrules ||
				   (rid && strcmp(ids[(int)ri->num], rid->str))))
				jc_fail("%s: ruleIndex does not point at rule '%s'", where, rid ? rid->str : "?");
			struct jc_node *lv = jc_need(res, "level", JC_STR, where);
			if (lv && !jc_one_of(lv->str, levels))
				jc_fail("%s: bad level '%s'", where, lv->str);
			jc_text(res, "message", where);
			struct jc_node *locs = jc_need(res, "locations", JC_ARR, where);
			if (locs && !locs->child)
				jc_fail("%s: no locations", where);
			for (struct jc_node *l = locs ? locs->child : NULL; l; l = l->next)
				jc_physical(l, where);
			struct jc_node *rel = jc_get(res, "relatedLocations");
			for (struct jc_node *l = rel ? rel->child : NULL; l; l = l->next)
				jc_physical(l, where);
			struct jc_node *fp = jc_need(res, "partialFingerprints", JC_OBJ, where);
			if (fp && !fp->child)
				jc_fail("%s: empty partialFingerprints", where);
			for (struct jc_node *e = fp ? fp->child : NULL; e; e = e->next)
				if (e->kind != JC_STR || !e->str[0])
					jc_fail("%s: fingerprint '%s' is not a non-empty string", where, e->key);
			struct jc_node *bs = jc_get(res, "baselineState");
			if (bs && (bs->kind != JC_STR || !jc_one_of(bs->str, states)))
				jc_fail("%s: bad baselineState", where);
			struct jc_node *sup = jc_get(res, "suppressions");
			for (struct jc_node *s = sup ? sup->child : NULL; s; s = s->next) {
				struct jc_node *k = jc_need(s, "kind", JC_STR, where);
				if (k && !jc_one_of(k->str, kinds))
					jc_fail("%s: bad suppression kind '%s'", where, k->str);
			}
		}
	}
	return nresults;
}

static int jc_hlolint_json(const struct jc_node *top)
{
	static const char *const sev[] = { "note", "warning", "error", NULL };
	struct jc_node *schema = jc_need(top, "schema", JC_NUM, "json");
	if (schema && schema->num != 1)
		jc_fail("json: schema %g, expected 1", schema->num);
	struct jc_node *mods = jc_need(top, "modules", JC_ARR, "json");
	for (struct jc_node *m = mods ? mods->child : NULL; m; m = m->next) {
		jc_need(m, "path", JC_STR, "module");
		jc_need(m, "module", JC_STR, "module");
		jc_need(m, "num_partitions", JC_NUM, "module");
		if (!jc_get(m, "partitioned") || !jc_get(m, "target"))
			jc_fail("module: missing partitioned or target");
		if (jc_get(m, "largest"))
			jc_fail("module: \"largest\" belongs to mem, not check");
	}
	struct jc_node *fs = jc_need(top, "findings", JC_ARR, "json");
	int n = 0;
	static const char *const strs[] = { "rule", "severity", "path", "module", "computation", "instruction",
					    "shape", "op_name", "message", "fingerprint", NULL };
	for (struct jc_node *f = fs ? fs->child : NULL; f; f = f->next) {
		char where[64];
		snprintf(where, sizeof where, "finding %d", ++n);
		for (int k = 0; strs[k]; k++)
			jc_need(f, strs[k], JC_STR, where);
		jc_need(f, "line", JC_NUM, where);
		jc_need(f, "column", JC_NUM, where);
		jc_need(f, "notes", JC_ARR, where);
		jc_need(f, "suppressed", JC_BOOL, where);
		jc_need(f, "baseline", JC_BOOL, where);
		struct jc_node *s = jc_get(f, "severity");
		if (s && s->kind == JC_STR && !jc_one_of(s->str, sev))
			jc_fail("%s: bad severity '%s'", where, s->str);
		static const char *const opt[] = { "bytes", "source", "suggestion", NULL };
		for (int k = 0; opt[k]; k++)
			if (!jc_get(f, opt[k]))
				jc_fail("%s: missing \"%s\"", where, opt[k]);
		struct jc_node *fp = jc_get(f, "fingerprint");
		if (fp && fp->kind == JC_STR && strlen(fp->str) != 16)
			jc_fail("%s: fingerprint '%s' is not 16 hex digits", where, fp->str);
	}
	return n;
}

int main(int argc, char **argv)
{
	if (argc != 3 || (strcmp(argv[1], "sarif") && strcmp(argv[1], "json"))) {
		fprintf(stderr, "usage: json_check sarif|json FILE\n");
		return 2;
	}
	FILE *in = fopen(argv[2], "rb");
	if (!in) {
		perror(argv[2]);
		return 2;
	}
	size_t cap = 1 << 16, n = 0;
	char *buf = jc_alloc(cap);
	size_t got;
	while ((got = fread(buf + n, 1, cap - n, in)) > 0) {
		n += got;
		if (n == cap) {
			cap *= 2;
			char *t = realloc(buf, cap);
			if (!t)
				return 2;
			buf = t;
		}
	}
	fclose(in);
	jc_p = buf;
	jc_end = buf + n;
	struct jc_node *top = jc_value(0);
	jc_ws();
	if (!top || jc_p != jc_end) {
		printf("json_check: %s: not valid JSON (at byte %ld)\n", argv[2], (long)(jc_p - buf));
		return 1;
	}
	int results = !strcmp(argv[1], "sarif") ? jc_sarif(top) : jc_hlolint_json(top);
	if (jc_problems)
		return 1;
	printf("ok: %d results\n", results);
	return 0;
}
