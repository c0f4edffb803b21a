/* metadata.c - decodes the two attribute values the scanner keeps as raw
 * text, metadata={...} and frontend_attributes={...}, with a small reader
 * over that text (blanks and comments through lex.h), and resolves a
 * metadata's stack frame to its Python source.  Every instruction carries
 * metadata, so this avoids the value grammar; it validates, never prints. */
#include "metadata.h"
#include <ctype.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "lex.h"

struct metadata_scan {
	const struct hlo_file *f;
	const char *p, *end;
	struct attr_error *err;
};

static struct span metadata_span(const struct metadata_scan *s, const char *a, const char *b)
{
	uint64_t base = (uint64_t)(a - s->f->src->buf);
	return span_make(base, base + (uint64_t)(b - a));
}

static void metadata_ws(struct metadata_scan *s, bool commas)
{
	for (;;) {
		s->p += lex_skip_blank(s->p, (size_t)(s->end - s->p), 0, NULL);
		if (!commas || s->p >= s->end || *s->p != ',')
			return;
		s->p++;
	}
}

/* An ATTRNAME-like key [A-Za-z_][A-Za-z0-9_.-]* followed by '='. */
static bool metadata_key(struct metadata_scan *s, const char **k, size_t *klen)
{
	const char *p = s->p;
	if (p >= s->end || !lex_is_name_start(*p))
		return attr_fail(s->err, metadata_span(s, p, p + 1), "expected an attribute name");
	while (p < s->end && lex_is_name_char(*p))
		p++;
	if (p >= s->end || *p != '=')
		return attr_fail(s->err, metadata_span(s, s->p, p), "expected '=' after '%.*s'", (int)(p - s->p), s->p);
	*k = s->p;
	*klen = (size_t)(p - s->p);
	s->p = p + 1;
	return true;
}

/* A quoted string at s->p; unescaped into a (only skipped when a is NULL). */
static bool metadata_string(struct metadata_scan *s, struct arena *a, char **out, size_t *len)
{
	const char *p = s->p;
	char q = p < s->end ? *p : 0;
	if (q != '"' && q != '\'')
		return attr_fail(s->err, metadata_span(s, p, p + 1), "expected a quoted string");
	/* memchr to the next quote; it closes the string unless an odd run of
	 * backslashes escapes it (metadata strings are long: keep this fast). */
	const char *e = p + 1;
	for (;;) {
		e = e < s->end ? memchr(e, q, (size_t)(s->end - e)) : NULL;
		if (!e)
			return attr_fail(s->err, metadata_span(s, p, p + 1), "unterminated string");
		size_t bs = 0;
		while (e - bs - 1 > p && e[-(ptrdiff_t)bs - 1] == '\\')
			bs++;
		if (bs % 2 == 0)
			break;
		e++;
	}
	if (!a) {
		*out = NULL;
		*len = 0;
		s->p = e + 1;
		return true;
	}
	struct hlo_value tmp = { .kind = V_STRING, .span = metadata_span(s, p, e + 1) };
	*out = value_string(s->f, &tmp, a, len);
	if (!*out)
		return attr_fail(s->err, tmp.span, "invalid escape in string");
	s->p = e + 1;
	return true;
}

static bool metadata_int(struct metadata_scan *s, int64_t *out)
{
	const char *p = s->p;
	bool neg = p < s->end && *p == '-';
	if (neg)
		p++;
	if (p >= s->end || !isdigit((unsigned char)*p))
		return attr_fail(s->err, metadata_span(s, s->p, s->p + 1), "expected an integer");
	int64_t x = 0;
	while (p < s->end && isdigit((unsigned char)*p)) {
		if (x > (INT64_MAX - 9) / 10)
			return attr_fail(s->err, metadata_span(s, s->p, p), "integer is too large");
		x = x * 10 + (*p++ - '0');
	}
	*out = neg ? -x : x;
	s->p = p;
	return true;
}

/* A balanced {...} (JSON in frontend attributes; "..." strings skipped). */
static bool metadata_braces(struct metadata_scan *s)
{
	const char *p = s->p;
	int depth = 0;
	while (p < s->end) {
		char c = *p++;
		if (c == '"') {
			while (p < s->end && *p != '"')
				p += *p == '\\' ? 2 : 1;
			p++;
		} else if (c == '{') {
			depth++;
		} else if (c == '}' && --depth == 0) {
			s->p = p;
			return true;
		}
	}
	return attr_fail(s->err, metadata_span(s, s->p, s->p + 1), "unbalanced '{'");
}

static bool metadata_key_is(const char *k, size_t n, const char *s)
{
	return strlen(s) == n && !memcmp(k, s, n);
}

/* The string and int32 keys of metadata={...}: one row each, named as the
 * field of struct hlo_metadata that takes the value.  The commonest first;
 * the length is compared before the bytes (every instruction has a few). */
static const struct metadata_field {
	const char *name;
	size_t len, off;
	bool is_string;
} metadata_fields[] = {
#define MD_FIELD(f, str) { #f, sizeof #f - 1, offsetof(struct hlo_metadata, f), str }
	MD_FIELD(op_name, true), MD_FIELD(source_file, true), MD_FIELD(source_line, false),
	MD_FIELD(stack_frame_id, false), MD_FIELD(op_type, true), MD_FIELD(source_end_line, false),
	MD_FIELD(source_column, false), MD_FIELD(source_end_column, false), MD_FIELD(deduplicated_name, true),
	MD_FIELD(scheduling_name, true),
#undef MD_FIELD
};

static const struct metadata_field *metadata_field_of(const char *k, size_t n)
{
	for (size_t j = 0; j < sizeof metadata_fields / sizeof *metadata_fields; j++)
		if (metadata_fields[j].len == n && !memcmp(metadata_fields[j].name, k, n))
			return &metadata_fields[j];
	return NULL;
}

bool metadata_decode(const struct hlo_file *f, struct span value, struct arena *a,
		   struct hlo_metadata *out, struct attr_error *err)
{
	struct metadata_scan s = { f, f->src->buf + value.start, f->src->buf + value.end, err };
	memset(out, 0, sizeof *out);
	out->unknown_key = span_none();
	metadata_ws(&s, false);
	if (s.p >= s.end || *s.p != '{')
		return attr_fail(err, value, "expected metadata={...}");
	s.p++;
	for (;;) {
		metadata_ws(&s, true);
		if (s.p < s.end && *s.p == '}') {
			s.p++;
			break;
		}
		const char *k;
		size_t kn;
		if (!metadata_key(&s, &k, &kn))
			return false;
		metadata_ws(&s, false);
		const struct metadata_field *fd = metadata_field_of(k, kn);
		if (fd && fd->is_string) {
			size_t len;
			if (!metadata_string(&s, a, (char **)((char *)out + fd->off), &len))
				return false;
			continue;
		}
		if (fd) {
			const char *at = s.p;
			int64_t *dst = (int64_t *)((char *)out + fd->off);
			if (!metadata_int(&s, dst))
				return false;
			if (*dst < INT32_MIN || *dst > INT32_MAX)
				return attr_fail(err, metadata_span(&s, at, s.p), "%s is out of range for int32", fd->name);
			continue;
		}
		if (metadata_key_is(k, kn, "preserve_layout")) {
			if (s.end - s.p >= 4 && !memcmp(s.p, "true", 4))
				out->preserve_layout = true, s.p += 4;
			else if (s.end - s.p >= 5 && !memcmp(s.p, "false", 5))
				s.p += 5;
			else
				return attr_fail(err, metadata_span(&s, s.p, s.p + 1), "expected true or false");
		} else if (metadata_key_is(k, kn, "profile_type")) {
			const char *open = s.p;
			if (s.p >= s.end || *s.p != '{')
				return attr_fail(err, metadata_span(&s, s.p, s.p + 1), "expected profile_type={...}");
			uint32_t n = 0;
			for (const char *q = s.p; q < s.end && *q != '}'; q++)
				n += *q == ',';
			int64_t dummy[1];
			out->profile_type.v = a ? arena_array(a, n + 1, sizeof *out->profile_type.v) : dummy;
			s.p++;
			for (;;) {
				metadata_ws(&s, true);
				if (s.p < s.end && *s.p == '}') {
					s.p++;
					break;
				}
				int64_t x;
				if (out->profile_type.n > n || !metadata_int(&s, &x))
					return attr_fail(err, metadata_span(&s, open, s.p), "expected profile_type={int,...}");
				if (x < 0 || x > 3)
					return attr_fail(err, metadata_span(&s, open, s.p), "unknown profile type %lld",
							 (long long)x);
				out->profile_type.v[a ? out->profile_type.n : 0] = x;
				out->profile_type.n++;
			}
			if (!a) {
				out->profile_type.v = NULL;
				out->profile_type.n = 0;
			}
		} else {
			/* A key this XLA version does not know: remember it, skip its value. */
			if (span_is_none(out->unknown_key))
				out->unknown_key = metadata_span(&s, k, k + kn);
			if (s.p < s.end && (*s.p == '"' || *s.p == '\'')) {
				char *tmp;
				size_t len;
				if (!metadata_string(&s, a, &tmp, &len))
					return false;
			} else if (s.p < s.end && *s.p == '{') {
				if (!metadata_braces(&s))
					return false;
			} else {
				while (s.p < s.end && !strchr(" \t\r\n,}", *s.p))
					s.p++;
			}
		}
	}
	metadata_ws(&s, false);
	if (s.p != s.end)
		return attr_fail(err, metadata_span(&s, s.p, s.end), "unexpected text after metadata");
	return true;
}

/* The project whose Python lines a finding names (--source-root): set once
 * by the driver before any thread starts, read-only after. */
static char *metadata_root;
static size_t metadata_root_len;

void metadata_set_source_root(const char *dir)
{
	free(metadata_root);
	metadata_root = NULL;
	metadata_root_len = 0;
	if (!dir || !dir[0])
		return;
	size_t n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	metadata_root = malloc(n + 1);
	if (!metadata_root)
		return;
	memcpy(metadata_root, dir, n);
	metadata_root[n] = 0;
	metadata_root_len = n;
}

/* Frames that are never the user's: installed packages and the frameworks'
 * own trees (a JAX or Flax checkout), Python's frozen modules. */
static const char *const metadata_internal[] = {
	"/site-packages/", "/dist-packages/", "<frozen ", "/jax/_src/", "/jax/experimental/", "/jaxlib/",
	"/flax/linen/", "/flax/core/", "/flax/nnx/", "/optax/_src/", "/optax/transforms/", "/orbax/",
	"/equinox/", "/haiku/_src/", NULL,
};

static bool metadata_internal_file(const char *path)
{
	for (const char *const *k = metadata_internal; *k; k++)
		if (strstr(path, *k))
			return true;
	return false;
}

bool metadata_user_file(const char *file)
{
	/* MLIR locations reach source_file too ("within split at a.mlir:179
	 * offset :16", seen in the real corpus): a name with a space and a
	 * colon is a description, not a file anyone opens. */
	if (strchr(file, ' ') && strchr(file, ':'))
		return false;
	return !metadata_internal_file(file) && (file[0] != '/' || !metadata_root);
}

/* path relative to the source root when it lies under it, else NULL. */
static const char *metadata_under_root(const char *path)
{
	if (!metadata_root)
		return NULL;
	if (metadata_root_len == 1 && metadata_root[0] == '/')
		return path[0] == '/' && path[1] ? path + 1 : NULL;
	if (strncmp(path, metadata_root, metadata_root_len) || path[metadata_root_len] != '/' ||
	    !path[metadata_root_len + 1])
		return NULL;
	return path + metadata_root_len + 1;
}

/* Unescapes the STRING token at sp (a stack-table file name). */
static const char *metadata_table_string(const struct hlo_file *f, struct span sp, struct arena *a)
{
	struct hlo_value tmp = { .kind = V_STRING, .span = sp };
	size_t len;
	return value_string(f, &tmp, a, &len);
}

/* Frames looked at from the innermost outward, at most. */
#define METADATA_MAX_FRAMES 256

/* How good a frame is as the user's line: 3 the user's own (as
 * metadata_user_file says, or under the source root), 2 not internal but
 * outside the root, 1 any file. */
static int metadata_frame_rank(const char *file)
{
	if (metadata_internal_file(file))
		return 1;
	return metadata_user_file(file) || metadata_under_root(file) ? 3 : 2;
}

bool metadata_source(const struct hlo_module *m, const struct hlo_metadata *md, struct arena *a,
			  const char **file, int64_t *line)
{
	const char *best = NULL;
	int64_t best_line = 0;
	int best_rank = 0;
	if (md->source_file && md->source_file[0]) {
		best = md->source_file;
		best_line = md->source_line;
		best_rank = 3;
	}
	const struct hlo_stack_tables *t = &m->stack;
	int64_t id = best ? 0 : md->stack_frame_id;
	/* Innermost frame first; the first of the best rank wins.  Parent links
	 * could loop in a malformed table, and a Python stack deeper than
	 * METADATA_MAX_FRAMES says nothing more about the user's line. */
	for (uint32_t steps = 0; id > 0 && id <= (int64_t)t->nframes && steps < METADATA_MAX_FRAMES && best_rank < 3;
	     steps++) {
		const struct hlo_stack_frame *fr = &t->frames[id - 1];
		int64_t loc = fr->file_location_id;
		if (loc > 0 && loc <= (int64_t)t->nfile_locations) {
			const struct hlo_file_location *l = &t->file_locations[loc - 1];
			if (l->file_name_id > 0 && l->file_name_id <= (int64_t)t->nfile_names) {
				const char *s = metadata_table_string(m->file, t->file_names[l->file_name_id - 1], a);
				int rank = s && s[0] ? metadata_frame_rank(s) : 0;
				if (rank > best_rank) {
					best = s;
					best_line = l->line;
					best_rank = rank;
				}
			}
		}
		int64_t parent = fr->parent_frame_id - 1;   /* as written: the parent's id + 1 (ir.h) */
		id = parent != id ? parent : 0;
	}
	if (!best)
		return false;
	const char *rel = metadata_under_root(best);
	*file = rel ? rel : best;
	*line = best_line;
	return true;
}

bool metadata_frontend(const struct hlo_file *f, struct span value, struct arena *a,
			      struct hlo_frontend_attrs *out, struct attr_error *err)
{
	struct metadata_scan s = { f, f->src->buf + value.start, f->src->buf + value.end, err };
	memset(out, 0, sizeof *out);
	metadata_ws(&s, false);
	if (s.p >= s.end || *s.p != '{')
		return attr_fail(err, value, "expected frontend_attributes={...}");
	uint32_t cap = 1;
	for (const char *q = s.p; q < s.end; q++)
		cap += *q == '=';
	out->items = arena_array(a, cap, sizeof *out->items);
	s.p++;
	for (;;) {
		metadata_ws(&s, false);
		if (s.p < s.end && *s.p == '}') {
			s.p++;
			break;
		}
		if (out->n) {
			if (s.p >= s.end || *s.p != ',')
				return attr_fail(err, metadata_span(&s, s.p, s.p + 1),
						 "expected ',' between frontend attributes");
			s.p++;
			metadata_ws(&s, false);
		}
		struct hlo_frontend_attr *it = &out->items[out->n];
		const char *k, *start = s.p;
		if (!metadata_key(&s, &k, &it->key_len))
			return false;
		it->key = arena_strndup(a, k, it->key_len);
		metadata_ws(&s, false);
		if (s.p < s.end && *s.p == '{') {
			const char *j = s.p;
			if (!metadata_braces(&s))
				return false;
			it->json = true;
			it->len = (size_t)(s.p - j);
			it->value = arena_strndup(a, j, it->len);
		} else if (!metadata_string(&s, a, &it->value, &it->len)) {
			return false;
		}
		it->span = metadata_span(&s, start, s.p);
		out->n++;
	}
	metadata_ws(&s, false);
	if (s.p != s.end)
		return attr_fail(err, metadata_span(&s, s.p, s.end), "unexpected text after frontend attributes");
	return true;
}

const struct hlo_frontend_attr *metadata_frontend_get(const struct hlo_frontend_attrs *fa, const char *key)
{
	size_t n = strlen(key);
	for (uint32_t k = 0; k < fa->n; k++)
		if (fa->items[k].key_len == n && !memcmp(fa->items[k].key, key, n))
			return &fa->items[k];
	return NULL;
}
