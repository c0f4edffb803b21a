/* finding.c - findings of `hlolint check`: creation from an instruction
 * (location, names, shape, op_name, Python source), notes, suggestions,
 * rule fields, fingerprints, ordering; all in the sink's arena.  It does not
 * print (report.c) or judge suppressions and baselines (config.c). */
#include "finding.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "attr.h"
#include "hash.h"
#include "metadata.h"

void finding_sink_init(struct finding_sink *s)
{
	memset(s, 0, sizeof *s);
	arena_init(&s->arena);
}

void finding_sink_free(struct finding_sink *s)
{
	free(s->items);
	arena_free(&s->arena);
	memset(s, 0, sizeof *s);
}

void finding_sink_move(struct finding_sink *s, struct finding_sink *from)
{
	if (s->n + from->n > s->cap) {
		s->cap = s->n + from->n > 2 * s->cap ? s->n + from->n : 2 * s->cap;
		s->items = xreallocarray(s->items, s->cap, sizeof *s->items);
	}
	if (from->n)
		memcpy(s->items + s->n, from->items, from->n * sizeof *from->items);
	s->n += from->n;
	from->n = 0;
	arena_adopt(&s->arena, &from->arena);
}

const char *finding_strdup(struct finding_sink *s, const char *str)
{
	return arena_strndup(&s->arena, str ? str : "", str ? strlen(str) : 0);
}

static const char *finding_vformat(struct finding_sink *s, const char *fmt, va_list ap)
{
	va_list ap2;
	va_copy(ap2, ap);
	char small[256];
	int n = vsnprintf(small, sizeof small, fmt, ap2);
	va_end(ap2);
	if (n < 0)
		return "";
	if ((size_t)n < sizeof small)
		return arena_strndup(&s->arena, small, (size_t)n);
	char *buf = arena_alloc(&s->arena, (size_t)n + 1);
	vsnprintf(buf, (size_t)n + 1, fmt, ap);
	return buf;
}

/* The shape text of sh (with or without layout) in the arena. */
static const char *finding_shape_text(struct finding_sink *s, const struct hlo_shape *sh, bool layout)
{
	if (!sh)
		return "";
	char small[256];
	size_t n = ir_shape_format(sh, layout, small, sizeof small);
	if (n < sizeof small)
		return arena_strndup(&s->arena, small, n);
	char *buf = arena_alloc(&s->arena, n + 1);
	ir_shape_format(sh, layout, buf, n + 1);
	return buf;
}

/* Python source (and op_name when op_name is given) of i's own metadata,
 * strings in s's arena (scratch decode); false when it names no source. */
static bool finding_metadata_of(struct finding_sink *s, const struct hlo_module *m, const struct hlo_instr *i,
				const char **op_name, const char **file, int64_t *line)
{
	const struct hlo_attr *at = ir_attr(i, ATTR_METADATA);
	if (!at)
		return false;
	struct arena *a = &m->file->arena;
	struct arena_mark mark = arena_mark(a);
	struct hlo_metadata md;
	bool found = false;
	if (metadata_decode(m->file, ir_attr_value(at), a, &md, NULL)) {
		if (md.op_name && op_name)
			*op_name = finding_strdup(s, md.op_name);
		const char *f;
		if ((found = metadata_source(m, &md, a, &f, line)))
			*file = finding_strdup(s, f);
	}
	arena_release(a, mark);
	return found;
}

/* Users looked at for a source, at most: a finding stays cheap. */
#define FINDING_VIA_MAX 64

/* The source of i's nearest user that has one, breadth first. */
static bool finding_source_users(struct finding_sink *s, const struct hlo_module *m, const struct hlo_instr *i,
				 const char **file, int64_t *line, const char **via)
{
	const struct hlo_instr *seen[FINDING_VIA_MAX];
	uint32_t head = 0, n = 0;
	seen[n++] = i;
	while (head < n) {
		const struct hlo_instr *x = seen[head++];
		for (uint32_t u = 0; u < x->nusers && n < FINDING_VIA_MAX; u++) {
			const struct hlo_instr *y = ir_user(x, u);
			bool dup = false;
			for (uint32_t k = 0; k < n && !dup; k++)
				dup = seen[k] == y;
			if (dup)
				continue;
			if (finding_metadata_of(s, m, y, NULL, file, line)) {
				*via = arena_strndup(&s->arena, ir_name(y), ir_name_len(y));
				return true;
			}
			seen[n++] = y;
		}
	}
	return false;
}

bool finding_source(struct finding_sink *s, const struct hlo_module *m, const struct hlo_instr *i,
		    const char **file, int64_t *line, const char **via)
{
	*via = NULL;
	return finding_metadata_of(s, m, i, NULL, file, line) || finding_source_users(s, m, i, file, line, via);
}

void finding_from(struct finding_sink *s, const struct hlo_module *m, const struct hlo_instr *i, char *out,
		  size_t cap)
{
	const char *file, *via;
	int64_t line;
	out[0] = 0;
	if (!finding_source(s, m, i, &file, &line, &via))
		return;
	const char *base = strrchr(file, '/');
	snprintf(out, cap, " from %s:%lld%s%s", base ? base + 1 : file, (long long)line, via ? " via %" : "",
		 via ? via : "");
}

/* op_name of i's metadata and the Python source: its own, else a user's. */
static void finding_metadata(struct finding_sink *s, struct finding *f, const struct hlo_module *m,
			     const struct hlo_instr *i)
{
	const char *file = NULL, *via = NULL;
	int64_t line = 0;
	if (finding_metadata_of(s, m, i, &f->op_name, &file, &line) ||
	    finding_source_users(s, m, i, &file, &line, &via)) {
		f->source_file = file;
		f->source_line = line;
		f->source_via = via;
		f->source_user = metadata_user_file(file);
	}
}

static void finding_push(struct finding_sink *s, struct finding *f)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 64;
		s->items = xreallocarray(s->items, s->cap, sizeof *s->items);
	}
	s->items[s->n++] = f;
}

struct finding *finding_add(struct finding_sink *s, const char *rule, enum finding_severity sev,
			    const struct hlo_module *m, const struct hlo_instr *i, const char *fmt, ...)
{
	struct finding *f = arena_alloc(&s->arena, sizeof *f);
	f->rule = finding_strdup(s, rule);
	f->severity = sev;
	f->path = finding_strdup(s, s->path ? s->path : (m->file->src ? m->file->src->path : ""));
	f->src = s->src ? s->src : m->file->src;
	f->file_index = s->file_index;
	f->module_index = s->module_index;
	f->module = m->name ? finding_strdup(s, m->name->str) : "";
	f->computation = f->instruction = f->opcode = f->shape = f->shape_bare = f->op_name = "";
	f->bytes = -1;
	f->leaf = f->tuple_index = f->output_index = f->peak_saved = -1;
	if (i) {
		f->computation = arena_strndup(&s->arena, ir_comp_name(i->comp), ir_comp_name_len(i->comp));
		f->instruction = arena_strndup(&s->arena, ir_name(i), ir_name_len(i));
		f->opcode = i->op < OP_COUNT ? ir_opcode_name((enum opcode)i->op) : "";
		f->shape = finding_shape_text(s, i->shape, true);
		f->shape_bare = finding_shape_text(s, i->shape, false);
		/* The caret goes under the name: what a reader searches for. */
		f->span = ir_instr_name_span(i);
		finding_metadata(s, f, m, i);
	} else {
		f->span = m->has_header ? m->header : m->span;
	}
	f->order = span_is_none(f->span) ? 0 : f->span.start;
	if (f->src && !span_is_none(f->span)) {
		source_position(f->src, f->span.start, &f->line, &f->col);
		source_position(f->src, f->span.end, &f->end_line, &f->end_col);
	}
	va_list ap;
	va_start(ap, fmt);
	f->message = finding_vformat(s, fmt, ap);
	va_end(ap);
	finding_push(s, f);
	return f;
}

struct finding *finding_add_at(struct finding_sink *s, const char *rule, enum finding_severity sev,
			       const struct finding_place *at, const char *fmt, ...)
{
	struct finding *f = arena_alloc(&s->arena, sizeof *f);
	memset(f, 0, sizeof *f);
	f->rule = finding_strdup(s, rule);
	f->severity = sev;
	f->path = finding_strdup(s, at->path);
	f->file_index = at->file_index;
	f->module_index = at->module_index;
	f->module = finding_strdup(s, at->module);
	f->computation = finding_strdup(s, at->computation);
	f->instruction = f->opcode = f->shape = f->shape_bare = f->op_name = "";
	f->span = span_none();
	f->line = f->end_line = at->line;
	f->col = f->end_col = at->col;
	f->bytes = -1;
	f->leaf = f->tuple_index = f->output_index = f->peak_saved = -1;
	va_list ap;
	va_start(ap, fmt);
	f->message = finding_vformat(s, fmt, ap);
	va_end(ap);
	finding_push(s, f);
	return f;
}

static void finding_vnote(struct finding_sink *s, struct finding *f, enum finding_note_role role, const char *fmt,
			  va_list ap)
{
	struct finding_note *n = arena_alloc(&s->arena, sizeof *n);
	n->text = finding_vformat(s, fmt, ap);
	n->role = role;
	n->next = NULL;
	if (f->notes_tail)
		f->notes_tail->next = n;
	else
		f->notes = n;
	f->notes_tail = n;
}

#define FINDING_NOTE_FN(fn, role)                                                   \
	void fn(struct finding_sink *s, struct finding *f, const char *fmt, ...)    \
	{                                                                           \
		va_list ap;                                                         \
		va_start(ap, fmt);                                                  \
		finding_vnote(s, f, role, fmt, ap);                                 \
		va_end(ap);                                                         \
	}
FINDING_NOTE_FN(finding_note, NOTE_MORE)
FINDING_NOTE_FN(finding_fact, NOTE_FACT)
FINDING_NOTE_FN(finding_fix, NOTE_FIX)
FINDING_NOTE_FN(finding_module_note, NOTE_MODULE)
#undef FINDING_NOTE_FN

void finding_also(struct finding_sink *s, struct finding *f, const char *path, uint64_t line, uint64_t col,
		  const char *message)
{
	struct finding_also *a = arena_alloc(&s->arena, sizeof *a);
	*a = (struct finding_also){ finding_strdup(s, path), finding_strdup(s, message), line, col, NULL };
	struct finding_also **tail = &f->also;
	while (*tail)
		tail = &(*tail)->next;
	*tail = a;
}

const struct finding_field *finding_field_get(const struct finding *f, const char *key)
{
	for (const struct finding_field *x = f->fields; x; x = x->next)
		if (!strcmp(x->key, key))
			return x;
	return NULL;
}

const char *finding_note_of(const struct finding *f, enum finding_note_role role)
{
	for (const struct finding_note *n = f->notes; n; n = n->next)
		if (n->role == role)
			return n->text;
	return NULL;
}

void finding_set_key(struct finding_sink *s, struct finding *f, const char *key)
{
	f->key = finding_strdup(s, key);
}

void finding_set_bytes(struct finding *f, int64_t bytes)
{
	f->bytes = bytes;
}

void finding_suggest_sharding(struct finding_sink *s, struct finding *f, const char *sharding)
{
	f->suggest = SUGGEST_SHARDING;
	f->suggest_text = finding_strdup(s, sharding);
}

void finding_suggest_shape(struct finding_sink *s, struct finding *f, const char *shape)
{
	f->suggest = SUGGEST_SHAPE;
	f->suggest_text = finding_strdup(s, shape);
}

void finding_suggest_memory_space(struct finding *f, int64_t space)
{
	f->suggest = SUGGEST_MEMORY_SPACE;
	f->suggest_int = space;
}

void finding_suggest_donation(struct finding *f, int64_t parameter)
{
	f->suggest = SUGGEST_DONATE_PARAMETER;
	f->suggest_int = parameter;
}

void finding_suggest_offload(struct finding *f, int64_t parameter)
{
	f->suggest = SUGGEST_OFFLOAD_PARAMETER;
	f->suggest_int = parameter;
}

static struct finding_field *finding_field(struct finding_sink *s, struct finding *f, const char *key,
					   enum finding_field_kind kind)
{
	struct finding_field *x = arena_alloc(&s->arena, sizeof *x);
	x->key = finding_strdup(s, key);
	x->kind = kind;
	if (f->fields_tail)
		f->fields_tail->next = x;
	else
		f->fields = x;
	f->fields_tail = x;
	return x;
}

void finding_field_int(struct finding_sink *s, struct finding *f, const char *key, int64_t v)
{
	finding_field(s, f, key, FIELD_INT)->i = v;
}

void finding_field_bytes(struct finding_sink *s, struct finding *f, const char *key, uint64_t v)
{
	finding_field(s, f, key, FIELD_BYTES)->u = v;
}

void finding_field_bool(struct finding_sink *s, struct finding *f, const char *key, bool v)
{
	finding_field(s, f, key, FIELD_BOOL)->i = v;
}

void finding_field_string(struct finding_sink *s, struct finding *f, const char *key, const char *v)
{
	finding_field(s, f, key, FIELD_STRING)->s = finding_strdup(s, v);
}

void finding_field_null(struct finding_sink *s, struct finding *f, const char *key)
{
	finding_field(s, f, key, FIELD_NULL);
}

/* ---- Fingerprints ---- */

struct finding_hash {
	uint64_t h;
};

static void finding_hash_bytes(struct finding_hash *h, const char *p, size_t n)
{
	static const unsigned char sep = 0xff;   /* field separator */
	h->h = hash64(hash64(h->h, p, n), &sep, 1);
}

static void finding_hash_str(struct finding_hash *h, const char *s)
{
	finding_hash_bytes(h, s ? s : "", s ? strlen(s) : 0);
}

static bool finding_all_digits(const char *p, size_t n)
{
	if (!n)
		return false;
	for (size_t k = 0; k < n; k++)
		if (p[k] < '0' || p[k] > '9')
			return false;
	return true;
}

size_t finding_stem(const char *name, size_t n, bool dump_prefix, const char **start)
{
	const char *p = name, *end = name + n;
	if (dump_prefix && n > 7 && !strncmp(p, "module_", 7)) {
		const char *dot = memchr(p + 7, '.', n - 7);
		if (dot && finding_all_digits(p + 7, (size_t)(dot - p - 7)))
			p = dot + 1;
	}
	for (;;) {
		const char *dot = end;
		while (dot > p && dot[-1] != '.')
			dot--;
		if (dot <= p || !finding_all_digits(dot, (size_t)(end - dot)))
			break;
		end = dot - 1;
	}
	*start = p;
	return (size_t)(end - p);
}

static void finding_hash_stem(struct finding_hash *h, const char *name, bool dump_prefix)
{
	const char *p;
	size_t n = finding_stem(name, strlen(name), dump_prefix, &p);
	finding_hash_bytes(h, p, n);
}

void finding_fingerprint(const struct finding *f, char out[17])
{
	struct finding_hash h = { HASH64_INIT };
	finding_hash_str(&h, "hlolint-fingerprint-1");
	finding_hash_str(&h, f->rule);
	finding_hash_stem(&h, f->module, true);
	if (f->op_name && f->op_name[0]) {
		finding_hash_str(&h, f->op_name);
	} else {
		finding_hash_str(&h, f->opcode);
		finding_hash_stem(&h, f->instruction, false);
	}
	finding_hash_str(&h, f->shape_bare);
	finding_hash_str(&h, f->key);
	if (f->source_file && !f->source_via) {   /* a user's source is not the finding's identity */
		const char *base = strrchr(f->source_file, '/');
		char line[32];
		snprintf(line, sizeof line, ":%lld", (long long)f->source_line);
		finding_hash_str(&h, base ? base + 1 : f->source_file);
		finding_hash_str(&h, line);
	} else {
		finding_hash_str(&h, "");
		finding_hash_str(&h, "");
	}
	snprintf(out, 17, "%016llx", (unsigned long long)h.h);
}

/* ---- Ordering ---- */

static int finding_cmp(const void *pa, const void *pb)
{
	const struct finding *a = *(const struct finding *const *)pa;
	const struct finding *b = *(const struct finding *const *)pb;
	if (a->file_index != b->file_index)
		return a->file_index < b->file_index ? -1 : 1;
	if (a->order != b->order)
		return a->order < b->order ? -1 : 1;
	return strcmp(a->rule, b->rule);
}

void finding_sink_finish(struct finding_sink *s, uint32_t from)
{
	if (from >= s->n)
		return;
	uint32_t n = s->n - from;
	struct finding **tmp = s->items + from;
	for (uint32_t k = 0; k < n; k++)
		finding_fingerprint(tmp[k], tmp[k]->fingerprint);
	/* A bottom-up merge sort: stable (qsort is not), so findings on the same
	 * instruction keep the order their rule emitted them in. */
	struct finding **buf = xcalloc(n, sizeof *buf);
	for (uint32_t width = 1; width < n; width *= 2) {
		for (uint32_t lo = 0; lo < n; lo += 2 * width) {
			uint32_t mid = lo + width < n ? lo + width : n;
			uint32_t hi = lo + 2 * width < n ? lo + 2 * width : n;
			uint32_t x = lo, y = mid, k = lo;
			while (x < mid && y < hi) {
				int c = finding_cmp(&tmp[y], &tmp[x]);
				buf[k++] = c < 0 ? tmp[y++] : tmp[x++];
			}
			while (x < mid)
				buf[k++] = tmp[x++];
			while (y < hi)
				buf[k++] = tmp[y++];
		}
		memcpy(tmp, buf, n * sizeof *tmp);
	}
	free(buf);
}

void finding_sink_detach(struct finding_sink *s, uint32_t from)
{
	for (uint32_t k = from; k < s->n; k++)
		s->items[k]->src = NULL;
}

/* ---- Severities ---- */

const char *finding_severity_name(enum finding_severity sev)
{
	switch (sev) {
	case FINDING_NOTE: return "note";
	case FINDING_WARNING: return "warning";
	case FINDING_ERROR: break;
	}
	return "error";
}

bool finding_severity_parse(const char *name, enum finding_severity *out)
{
	static const char *const names[] = { "note", "warning", "error" };
	for (int k = 0; k < 3; k++)
		if (!strcmp(name, names[k])) {
			*out = (enum finding_severity)k;
			return true;
		}
	return false;
}

bool finding_fails(const struct finding *f, enum finding_severity fail_on)
{
	return !f->suppressed && !f->baseline && f->severity >= fail_on;
}

#define FINDING_SETTER(member, key) \
	void finding_set_##member(struct finding_sink *s, struct finding *f, int64_t v) \
	{ \
		f->member = v; \
		finding_field_int(s, f, key, v); \
	}
FINDING_TYPED(FINDING_SETTER)
#undef FINDING_SETTER
