/* attr.c - typed decoders over attribute values: value_parse trees for most,
 * raw-text scanners for metadata and frontend attributes (frequent; raw
 * JSON inside).  Validates as XLA's parser does; caches and prints nothing. */
#include "attr.h"
#include <ctype.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lex.h"

/* Device and group counts beyond this are rejected rather than overflowing. */
#define ATTR_MAX_DEVICES ((uint64_t)1 << 40)

bool attr_fail(struct attr_error *err, struct span sp, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
bool attr_fail(struct attr_error *err, struct span sp, const char *fmt, ...)
{
	if (err) {
		va_list ap;
		va_start(ap, fmt);
		err->span = sp;
		vsnprintf(err->msg, sizeof err->msg, fmt, ap);
		va_end(ap);
	}
	return false;
}

const char *attr_text(const struct hlo_file *f, struct span sp)
{
	return f->src->buf + sp.start;
}

const char *attr_plain_value(const struct hlo_file *f, const struct hlo_attr *a, size_t *n)
{
	const char *p = attr_text(f, ir_attr_value(a));
	size_t len = a->value_len;
	if (len >= 2 && (p[0] == '"' || p[0] == '\'') && p[len - 1] == p[0]) {
		p++;
		len -= 2;
	}
	*n = len;
	return p;
}

const char *attr_plain(const struct hlo_file *f, const struct hlo_instr *i, enum attr_key key, size_t *n)
{
	const struct hlo_attr *a = ir_attr(i, key);
	if (!a)
		return NULL;
	if (key == ATTR_CUSTOM_CALL_TARGET && ir_extra(i) && ir_extra(i)->target) {   /* build_decode's */
		*n = ir_extra(i)->target->len;
		return ir_extra(i)->target->str;
	}
	return attr_plain_value(f, a, n);
}

bool attr_plain_is(const struct hlo_file *f, const struct hlo_instr *i, enum attr_key key, const char *s)
{
	size_t n;
	const char *p = attr_plain(f, i, key, &n);
	return p && n == strlen(s) && !memcmp(p, s, n);
}

bool attr_plain_starts(const struct hlo_file *f, const struct hlo_instr *i, enum attr_key key, const char *prefix)
{
	size_t n, pn = strlen(prefix);
	const char *p = attr_plain(f, i, key, &n);
	return p && n >= pn && !memcmp(p, prefix, pn);
}

/* ---- JSON values (backend_config), read as text, never parsed ---- */

int64_t attr_json_number(const struct hlo_file *f, const struct hlo_instr *i, enum attr_key key, const char *outer,
			 const char *inner)
{
	const struct hlo_attr *at = ir_attr(i, key);
	if (!at)
		return -1;
	const char *t = attr_text(f, ir_attr_value(at)), *end = t + at->value_len;
	size_t on = strlen(outer), in = strlen(inner);
	const char *p = t;
	for (; p + on + 2 <= end; p++)
		if (p[0] == '"' && !memcmp(p + 1, outer, on) && p[on + 1] == '"')
			break;
	if (p + on + 2 > end)
		return -1;
	p += on + 2;
	for (; p + in + 2 <= end && *p != '}'; p++)
		if (p[0] == '"' && !memcmp(p + 1, inner, in) && p[in + 1] == '"')
			break;
	if (p + in + 2 > end || *p == '}')
		return -1;
	p += in + 2;
	while (p < end && (*p == ' ' || *p == ':' || *p == '"'))
		p++;
	int64_t n = 0;
	const char *d = p;
	while (p < end && *p >= '0' && *p <= '9' && n < INT64_MAX / 10)
		n = n * 10 + (*p++ - '0');
	return p > d ? n : -1;
}

bool attr_json_has_key(const struct hlo_file *f, const struct hlo_instr *i, enum attr_key key, const char *name)
{
	const struct hlo_attr *a = ir_attr(i, key);
	if (!a)
		return false;
	size_t n = strlen(name);
	const char *p = attr_text(f, ir_attr_value(a));
	for (uint32_t k = 0; k + n + 2 <= a->value_len; k++)
		if (p[k] == '"' && !memcmp(p + k + 1, name, n) && p[k + n + 1] == '"')
			return true;
	return false;
}

/* A short printable excerpt of a value for messages. */
int attr_excerpt_len(struct span sp)
{
	uint64_t n = span_len(sp);
	return n > 40 ? 40 : (int)n;
}

bool attr_is(const struct hlo_value *v, enum value_kind k)
{
	return v && v->kind == k;
}

bool attr_is_ident(const struct hlo_value *v, const char *s)
{
	return v && v->kind == V_IDENT && v->key && !strcmp(v->key->str, s);
}

bool attr_is_punct(const struct hlo_value *v, enum value_punct p)
{
	return v && v->kind == V_PUNCT && v->u.i == p;
}

bool attr_is_pair(const struct hlo_value *v, const char *key)
{
	return v && v->kind == V_PAIR && v->key && !strcmp(v->key->str, key);
}

/* Multiplies with a cap; false on overflow past ATTR_MAX_DEVICES. */
bool attr_mul(uint64_t *acc, int64_t x)
{
	if (x < 0)
		return false;
	if (x && *acc > ATTR_MAX_DEVICES / (uint64_t)x)
		return false;
	*acc *= (uint64_t)x;
	return true;
}

/* ---- Generic access and scalars ---- */

/* Decodes at in its own context (backend_config and frontend attribute dict
 * values are raw JSON, as in the module parse). */
struct hlo_value *attr_parse(struct hlo_file *f, const struct hlo_attr *at, struct arena *a,
			     struct attr_error *err)
{
	struct hlo_value *v = value_parse_attr(f, at, a, NULL);
	if (!v)
		attr_fail(err, ir_attr_value(at), "cannot decode the value of '%.*s'", IR_ANM(f, at));
	return v;
}

bool attr_int(const struct hlo_value *v, int64_t *out, struct attr_error *err)
{
	if (!attr_is(v, V_INT))
		return attr_fail(err, v ? v->span : span_none(), "expected an integer");
	*out = v->u.i;
	return true;
}

bool attr_int32(const struct hlo_value *v, int64_t *out, struct attr_error *err)
{
	if (!attr_int(v, out, err))
		return false;
	if (*out < INT32_MIN || *out > INT32_MAX)
		return attr_fail(err, v->span, "value %lld is out of range for int32", (long long)*out);
	return true;
}

bool attr_bool(const struct hlo_value *v, bool *out, struct attr_error *err)
{
	if (!attr_is(v, V_BOOL))
		return attr_fail(err, v ? v->span : span_none(), "expected true or false");
	*out = v->u.i != 0;
	return true;
}

bool attr_float(const struct hlo_value *v, double *out, struct attr_error *err)
{
	if (!v)
		return attr_fail(err, span_none(), "expected a number");
	switch (v->kind) {
	case V_INT:
		*out = (double)v->u.i;
		break;
	case V_DECIMAL:
		*out = v->u.d;
		if (isinf(*out))
			return attr_fail(err, v->span, "decimal value is out of range");
		break;
	case V_INF:
		*out = INFINITY;
		return true;
	case V_NEGINF:
		*out = -INFINITY;
		return true;
	default:
		return attr_fail(err, v->span, "expected a number");
	}
	if (isfinite(*out) && fabs(*out) > FLT_MAX)
		return attr_fail(err, v->span, "value is out of range for a float");
	return true;
}

bool attr_string(const struct hlo_file *f, const struct hlo_value *v, struct arena *a, char **out,
		 size_t *len, struct attr_error *err)
{
	size_t n = 0;
	if (!attr_is(v, V_STRING))
		return attr_fail(err, v ? v->span : span_none(), "expected a quoted string");
	*out = value_string(f, v, a, &n);
	if (!*out)
		return attr_fail(err, v->span, "invalid escape in string");
	if (len)
		*len = n;
	return true;
}

static bool attr_eq_nocase(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
			return false;
	return *a == *b;
}

int attr_enum(const struct hlo_value *v, const char *const *names, bool nocase, const char *what,
	      struct attr_error *err)
{
	if (v && v->kind == V_IDENT && v->key) {
		for (int k = 0; names[k]; k++)
			if (nocase ? attr_eq_nocase(v->key->str, names[k]) : !strcmp(v->key->str, names[k]))
				return k;
	}
	if (err) {
		char list[160];
		size_t o = 0;
		list[0] = 0;
		for (int k = 0; names[k] && o < sizeof list - 8; k++) {
			int n = snprintf(list + o, sizeof list - o, "%s%s", k ? ", " : "", names[k]);
			if (n < 0 || (size_t)n >= sizeof list - o) {
				snprintf(list + o, sizeof list - o, ", ...");
				break;
			}
			o += (size_t)n;
		}
		if (v && v->kind == V_IDENT && v->key)
			attr_fail(err, v->span, "unknown %s '%s' (expected one of %s)", what, v->key->str, list);
		else
			attr_fail(err, v ? v->span : span_none(), "expected a %s (one of %s)", what, list);
	}
	return -1;
}

/* ---- Raw-text fast paths ----
 * Readers of the commonest simple spellings straight from the text, so
 * that checking them costs no parse.  Each answers false for anything
 * else (comments, newlines, odd spacing, overflow), and the caller then
 * parses the value, whose errors are the ones reported. */

static bool attr_text_digits(const char **pp, const char *end, int64_t *out)
{
	const char *p = *pp;
	bool neg = p < end && *p == '-';
	p += neg;
	if (p >= end || !isdigit((unsigned char)*p))
		return false;
	int64_t x = 0;
	while (p < end && isdigit((unsigned char)*p)) {
		if (x > (INT64_MAX - 9) / 10)
			return false;
		x = x * 10 + (*p++ - '0');
	}
	*out = neg ? -x : x;
	*pp = p;
	return true;
}

bool attr_text_int(const struct hlo_file *f, struct span value, int64_t *out)
{
	const char *p = f->src->buf + value.start, *end = f->src->buf + value.end;
	return attr_text_digits(&p, end, out) && p == end;
}

bool attr_text_bool(const struct hlo_file *f, struct span value, bool *out)
{
	const char *p = f->src->buf + value.start;
	size_t n = (size_t)span_len(value);
	if (n == 4 && !memcmp(p, "true", 4))
		*out = true;
	else if (n == 5 && !memcmp(p, "false", 5))
		*out = false;
	else
		return false;
	return true;
}

bool attr_text_ident(const struct hlo_file *f, struct span value, const char **s, size_t *n)
{
	const char *p = f->src->buf + value.start, *end = f->src->buf + value.end;
	const char *q = p + (p < end && *p == '%');
	if (q >= end || !lex_is_name_start(*q))
		return false;
	for (const char *r = q; r < end; r++)
		if (!lex_is_name_char(*r))
			return false;
	*s = p;
	*n = (size_t)(end - p);
	return true;
}

static void attr_text_spaces(const char **pp, const char *end)
{
	while (*pp < end && **pp == ' ')
		(*pp)++;
}

static bool attr_text_char(const char **pp, const char *end, char c)
{
	if (*pp >= end || **pp != c)
		return false;
	(*pp)++;
	return true;
}

/* The ',' between two items, and the spaces after it. */
static bool attr_text_comma(const char **pp, const char *end)
{
	if (!attr_text_char(pp, end, ','))
		return false;
	attr_text_spaces(pp, end);
	return true;
}

/* {1, 2, 3} from *pp, which it moves past the '}'. */
static bool attr_text_int_braces(const char **pp, const char *end, struct arena *a, struct attr_ints *out)
{
	const char *p = *pp, *close = p < end ? memchr(p, '}', (size_t)(end - p)) : NULL;
	if (!close || !attr_text_char(&p, end, '{'))
		return false;
	uint32_t cap = 1;
	for (const char *q = p; q < close; q++)
		cap += *q == ',';
	out->v = arena_array(a, cap, sizeof *out->v);
	out->n = 0;
	attr_text_spaces(&p, close);
	while (p < close) {
		if (out->n && !attr_text_comma(&p, close))
			return false;
		if (out->n == cap || !attr_text_digits(&p, close, &out->v[out->n++]))
			return false;
		attr_text_spaces(&p, close);
	}
	*pp = close + 1;
	return true;
}

bool attr_text_ints(const struct hlo_file *f, struct span value, struct arena *a, struct attr_ints *out)
{
	const char *p = f->src->buf + value.start, *end = f->src->buf + value.end;
	return attr_text_int_braces(&p, end, a, out) && p == end;
}

/* One item of a list read from the text, into out, from *pp (which it
 * moves past the item); base: the source, for spans. */
typedef bool attr_text_item(const char **pp, const char *end, const char *base, struct arena *a, void *out);

/* {item, item, ...} with blanks around the items: *items made room for as
 * many as marker (a byte each item holds once) occurs, *n read. */
static bool attr_text_list(const struct hlo_file *f, struct span value, char marker, size_t size,
			   attr_text_item *item, struct arena *a, void **items, uint32_t *n)
{
	const char *base = f->src->buf, *p = base + value.start, *end = base + value.end;
	*n = 0;
	*items = NULL;
	if (!attr_text_char(&p, end, '{'))
		return false;
	uint32_t cap = 1;
	for (const char *q = p; q < end; q++)
		cap += *q == marker;
	*items = arena_array(a, cap, size);
	attr_text_spaces(&p, end);
	while (p < end && *p != '}') {
		if (*n && !attr_text_comma(&p, end))
			return false;
		if (*n == cap || !item(&p, end, base, a, (char *)*items + (size_t)*n * size))
			return false;
		(*n)++;
		attr_text_spaces(&p, end);
	}
	return attr_text_char(&p, end, '}') && p == end;
}

static bool attr_text_ints_item(const char **pp, const char *end, const char *base, struct arena *a, void *out)
{
	(void)base;
	return attr_text_int_braces(pp, end, a, out);
}

bool attr_text_int_lists(const struct hlo_file *f, struct span value, struct arena *a, struct attr_int_lists *out)
{
	void *items;
	bool ok = attr_text_list(f, value, '{', sizeof *out->lists, attr_text_ints_item, a, &items, &out->n);
	out->lists = items;
	return ok;
}

/* {out}: (operand, {index}). */
static bool attr_text_alias(const char **pp, const char *end, const char *base, struct arena *a, void *out)
{
	const char *p = *pp;
	struct hlo_alias *al = out;
	memset(al, 0, sizeof *al);
	if (!attr_text_int_braces(&p, end, a, &al->output_index))
		return false;
	attr_text_spaces(&p, end);
	if (!attr_text_char(&p, end, ':'))
		return false;
	attr_text_spaces(&p, end);
	if (!attr_text_char(&p, end, '(') || !attr_text_digits(&p, end, &al->number) || !attr_text_comma(&p, end) ||
	    !attr_text_int_braces(&p, end, a, &al->index) || !attr_text_char(&p, end, ')'))
		return false;
	al->span = span_make((uint64_t)(*pp - base), (uint64_t)(p - base));
	*pp = p;
	return true;
}

bool attr_text_aliases(const struct hlo_file *f, struct span value, struct arena *a, struct hlo_aliases *out)
{
	void *items;
	bool ok = attr_text_list(f, value, ':', sizeof *out->items, attr_text_alias, a, &items, &out->n);
	out->items = items;
	return ok;
}

/* [start:limit] or [start:limit:stride]. */
static bool attr_text_slice_dim(const char **pp, const char *end, const char *base, struct arena *a, void *out)
{
	(void)base;
	(void)a;
	struct hlo_slice_dim *d = out;
	d->stride = 1;
	return attr_text_char(pp, end, '[') && attr_text_digits(pp, end, &d->start) && attr_text_char(pp, end, ':') &&
	       attr_text_digits(pp, end, &d->limit) &&
	       (!attr_text_char(pp, end, ':') || attr_text_digits(pp, end, &d->stride)) && attr_text_char(pp, end, ']');
}

bool attr_text_slice(const struct hlo_file *f, struct span value, struct arena *a, struct hlo_slice *out)
{
	void *items;
	bool ok = attr_text_list(f, value, '[', sizeof *out->dims, attr_text_slice_dim, a, &items, &out->rank);
	out->dims = items;
	return ok;
}

/* ---- Lists ---- */

/* Items after the first of a list must be comma separated. */
bool attr_need_comma(const struct hlo_value *item, const struct hlo_value *first,
			    struct attr_error *err)
{
	if (item != first && !item->comma_before)
		return attr_fail(err, item->span, "expected ',' between list items");
	return true;
}

bool attr_ints(const struct hlo_value *v, struct arena *a, struct attr_ints *out, struct attr_error *err)
{
	if (!attr_is(v, V_BRACE))
		return attr_fail(err, v ? v->span : span_none(), "expected a list of integers like {0,1}");
	uint32_t n = value_count(v), k = 0;
	out->n = n;
	out->v = arena_array(a, n, sizeof *out->v);
	for (const struct hlo_value *c = v->child; c; c = c->next) {
		if (c->kind != V_INT)
			return attr_fail(err, c->span, "expected an integer in the list");
		if (!attr_need_comma(c, v->child, err))
			return false;
		out->v[k++] = c->u.i;
	}
	return true;
}

bool attr_int_lists(const struct hlo_value *v, struct arena *a, struct attr_int_lists *out,
		    struct attr_error *err)
{
	if (!attr_is(v, V_BRACE))
		return attr_fail(err, v ? v->span : span_none(), "expected a list of lists like {{0,1},{2,3}}");
	uint32_t n = value_count(v), k = 0;
	out->n = n;
	out->lists = arena_array(a, n, sizeof *out->lists);
	for (const struct hlo_value *c = v->child; c; c = c->next) {
		if (!attr_need_comma(c, v->child, err) || !attr_ints(c, a, &out->lists[k++], err))
			return false;
	}
	return true;
}

bool attr_source_target_pairs(const struct hlo_value *v, struct arena *a, struct attr_int_lists *out,
			      struct attr_error *err)
{
	if (!attr_int_lists(v, a, out, err))
		return false;
	uint32_t k = 0;
	for (const struct hlo_value *c = v->child; c; c = c->next, k++)
		if (out->lists[k].n != 2)
			return attr_fail(err, c->span, "a source-target pair must have exactly 2 entries, got %u",
					 out->lists[k].n);
	return true;
}

bool attr_bools(const struct hlo_value *v, struct arena *a, struct attr_bools *out, struct attr_error *err)
{
	memset(out, 0, sizeof *out);
	if (attr_is(v, V_BOOL)) {
		out->n = 1;
		out->v = arena_alloc(a, sizeof *out->v);
		out->v[0] = v->u.i != 0;
		return true;
	}
	if (!attr_is(v, V_BRACE))
		return attr_fail(err, v ? v->span : span_none(), "expected true, false or a list like {true,false}");
	out->braced = true;
	out->n = value_count(v);
	out->v = arena_array(a, out->n, sizeof *out->v);
	uint32_t k = 0;
	for (const struct hlo_value *c = v->child; c; c = c->next) {
		if (!attr_need_comma(c, v->child, err) || !attr_bool(c, &out->v[k++], err))
			return false;
	}
	return true;
}

/* A shape in a value tree: V_SHAPE, or a V_PAREN tuple of them (built in a,
 * not hash-consed: compare with ir_shape_equal). */
static struct hlo_shape *attr_value_shape(const struct hlo_value *v, struct arena *a, struct attr_error *err)
{
	if (attr_is(v, V_SHAPE))
		return v->u.shape;
	if (!attr_is(v, V_PAREN)) {
		attr_fail(err, v ? v->span : span_none(), "expected a shape");
		return NULL;
	}
	struct hlo_shape *s = arena_alloc(a, sizeof *s);
	s->type = PT_TUPLE;
	s->rank = value_count(v);
	s->elems = arena_array(a, s->rank, sizeof *s->elems);
	uint32_t k = 0;
	for (const struct hlo_value *c = v->child; c; c = c->next) {
		if (!attr_need_comma(c, v->child, err))
			return NULL;
		if (!(s->elems[k++] = attr_value_shape(c, a, err)))
			return NULL;
	}
	return s;
}

bool attr_shapes(const struct hlo_value *v, struct arena *a, struct attr_shapes *out, struct attr_error *err)
{
	memset(out, 0, sizeof *out);
	if (!attr_is(v, V_BRACE)) {
		struct hlo_shape *s = attr_value_shape(v, a, err);
		if (!s)
			return false;
		out->n = 1;
		out->shapes = arena_alloc(a, sizeof *out->shapes);
		out->spans = arena_alloc(a, sizeof *out->spans);
		out->shapes[0] = s;
		out->spans[0] = v->span;
		return true;
	}
	out->n = value_count(v);
	out->shapes = arena_array(a, out->n, sizeof *out->shapes);
	out->spans = arena_array(a, out->n, sizeof *out->spans);
	uint32_t k = 0;
	for (const struct hlo_value *c = v->child; c; c = c->next, k++) {
		if (!attr_need_comma(c, v->child, err))
			return false;
		out->spans[k] = c->span;
		if (!(out->shapes[k] = attr_value_shape(c, a, err)))
			return false;
	}
	return true;
}

/* ---- Text of DxD and pad tokens ---- */

/* Parses n integers separated by sep ('x' or '_') from [p, end); returns
 * the count, or -1 when the text is not such a list.  At most cap values. */
static int attr_split_ints(const char *p, const char *end, char sep, int64_t *vals, int cap, bool neg_ok)
{
	int n = 0;
	while (p < end) {
		bool neg = false;
		if (*p == '-' && neg_ok) {
			neg = true;
			p++;
		}
		if (p >= end || !isdigit((unsigned char)*p))
			return -1;
		int64_t x = 0;
		while (p < end && isdigit((unsigned char)*p)) {
			if (x > (INT64_MAX - 9) / 10)
				return -1;
			x = x * 10 + (*p++ - '0');
		}
		if (n >= cap)
			return -1;
		vals[n++] = neg ? -x : x;
		if (p < end) {
			if (*p != sep || p + 1 == end)
				return -1;
			p++;
		}
	}
	return n;
}

/* A DxD value (or a plain integer) as a list of non-negative integers. */
static bool attr_dxd(const struct hlo_file *f, const struct hlo_value *v, struct arena *a, uint32_t *n,
		     int64_t **out, const char *what, struct attr_error *err)
{
	if (!v || (v->kind != V_DXD && v->kind != V_INT))
		return attr_fail(err, v ? v->span : span_none(), "%s expects sizes like 3x3", what);
	if (v->kind == V_INT) {
		if (v->u.i < 0)
			return attr_fail(err, v->span, "%s must not be negative", what);
		*n = 1;
		*out = arena_alloc(a, sizeof **out);
		(*out)[0] = v->u.i;
		return true;
	}
	const char *p = attr_text(f, v->span);
	int cap = (int)span_len(v->span) / 2 + 1;
	*out = arena_array(a, (size_t)cap, sizeof **out);
	int k = attr_split_ints(p, p + span_len(v->span), 'x', *out, cap, false);
	if (k <= 0)
		return attr_fail(err, v->span, "%s expects sizes like 3x3", what);
	*n = (uint32_t)k;
	return true;
}

/* lo_hi[_interior] groups joined by 'x'; parts 2 (window) or 2..3 (pad). */
static bool attr_pad_text(const struct hlo_file *f, const struct hlo_value *v, struct arena *a,
			  bool allow_interior, uint32_t *n, struct hlo_pad_dim **out, struct attr_error *err)
{
	if (!v || (v->kind != V_PAD && v->kind != V_INT))
		return attr_fail(err, v ? v->span : span_none(), "expects padding like 1_1x0_0");
	const char *p = attr_text(f, v->span), *end = p + span_len(v->span);
	uint32_t dims = 1;
	for (const char *q = p; q < end; q++)
		dims += *q == 'x';
	*out = arena_array(a, dims, sizeof **out);
	*n = 0;
	while (p < end) {
		const char *e = memchr(p, 'x', (size_t)(end - p));
		if (!e)
			e = end;
		int64_t parts[4];
		int k = attr_split_ints(p, e, '_', parts, 4, true);
		if (k < 2 || k > 3)
			return attr_fail(err, v->span, allow_interior
					 ? "expects padding_low_padding_high or low_high_interior per dimension, got '%.*s'"
					 : "expects padding_low and padding_high separated by '_', got '%.*s'",
					 (int)(e - p), p);
		if (k == 3 && !allow_interior)
			return attr_fail(err, v->span, "expects padding_low and padding_high separated by '_', got '%.*s'",
					 (int)(e - p), p);
		if (k == 3 && parts[2] < 0)
			return attr_fail(err, v->span, "interior padding must not be negative");
		struct hlo_pad_dim *d = &(*out)[(*n)++];
		d->lo = parts[0];
		d->hi = parts[1];
		d->interior = k == 3 ? parts[2] : 0;
		p = e < end ? e + 1 : end;
	}
	return true;
}

bool attr_padding(const struct hlo_file *f, const struct hlo_value *v, struct arena *a,
		  struct hlo_padding *out, struct attr_error *err)
{
	return attr_pad_text(f, v, a, true, &out->rank, &out->dims, err);
}

/* ---- Window ---- */

bool attr_window(const struct hlo_file *f, const struct hlo_value *v, struct arena *a,
		 struct hlo_window *out, struct attr_error *err)
{
	static const char *const fields[] = { "size", "stride", "pad", "lhs_dilate", "rhs_dilate",
					      "rhs_reversal", NULL };
	const struct hlo_value *given[6] = { NULL };
	memset(out, 0, sizeof *out);
	if (!attr_is(v, V_BRACE))
		return attr_fail(err, v ? v->span : span_none(), "expected a window like {size=3x3 stride=2x2}");
	for (const struct hlo_value *c = v->child; c; c = c->next) {
		if (c->comma_before)
			return attr_fail(err, c->span, "window fields are separated by spaces, not commas");
		int k = -1;
		if (c->kind == V_PAIR)
			for (int j = 0; fields[j]; j++)
				if (!strcmp(c->key->str, fields[j]))
					k = j;
		if (k < 0)
			return attr_fail(err, c->span, "unexpected '%.*s' in a window (expected size, stride, pad, lhs_dilate, rhs_dilate or rhs_reversal)",
					 attr_excerpt_len(c->span), attr_text(f, c->span));
		if (given[k])
			return attr_fail(err, c->span, "window field '%s' given twice", fields[k]);
		given[k] = c;
	}
	if (!given[0]) {
		for (int k = 1; k < 6; k++)
			if (given[k])
				return attr_fail(err, v->span, "a window needs size=");
		return true;
	}
	int64_t *vals;
	if (!attr_dxd(f, given[0]->child, a, &out->rank, &vals, "window size", err))
		return false;
	out->dims = arena_array(a, out->rank, sizeof *out->dims);
	for (uint32_t d = 0; d < out->rank; d++) {
		struct hlo_window_dim *w = &out->dims[d];
		w->size = vals[d];
		w->stride = w->lhs_dilate = w->rhs_dilate = 1;
	}
	for (int k = 1; k < 6; k++) {
		if (!given[k])
			continue;
		uint32_t n;
		if (k == 2) {
			struct hlo_pad_dim *pd;
			if (!attr_pad_text(f, given[k]->child, a, false, &n, &pd, err))
				return false;
			if (n != out->rank)
				return attr_fail(err, given[k]->span, "window pad has %u dimensions, size has %u", n, out->rank);
			for (uint32_t d = 0; d < n; d++) {
				out->dims[d].pad_lo = pd[d].lo;
				out->dims[d].pad_hi = pd[d].hi;
			}
			continue;
		}
		if (!attr_dxd(f, given[k]->child, a, &n, &vals, fields[k], err))
			return false;
		if (n != out->rank)
			return attr_fail(err, given[k]->span, "window %s has %u dimensions, size has %u", fields[k], n,
					 out->rank);
		for (uint32_t d = 0; d < n; d++) {
			struct hlo_window_dim *w = &out->dims[d];
			if (k == 5 && vals[d] > 1)
				return attr_fail(err, given[k]->span, "rhs_reversal entries must be 0 or 1");
			if (k != 5 && vals[d] < 1)
				return attr_fail(err, given[k]->span, "window %s entries must be at least 1", fields[k]);
			if (k == 1)
				w->stride = vals[d];
			else if (k == 3)
				w->lhs_dilate = vals[d];
			else if (k == 4)
				w->rhs_dilate = vals[d];
			else
				w->reversal = vals[d] == 1;
		}
	}
	return true;
}

/* ---- Slice ---- */

bool attr_slice(const struct hlo_value *v, struct arena *a, struct hlo_slice *out, struct attr_error *err)
{
	memset(out, 0, sizeof *out);
	if (!attr_is(v, V_BRACE))
		return attr_fail(err, v ? v->span : span_none(), "expected a slice like {[0:2], [1:4:2]}");
	out->rank = value_count(v);
	out->dims = arena_array(a, out->rank, sizeof *out->dims);
	uint32_t k = 0;
	for (const struct hlo_value *c = v->child; c; c = c->next) {
		if (!attr_need_comma(c, v->child, err))
			return false;
		int64_t part[3] = { 0, 0, 1 };
		int np = 0;
		bool ok = c->kind == V_BRACKET;
		/* INT (':' INT){1,2}; a trailing ':' ("[0:4:]") leaves no INT. */
		for (const struct hlo_value *e = ok ? c->child : NULL; e && ok; e = e->next) {
			if (np) {
				if (!attr_is_punct(e, P_COLON) || !e->next) {
					ok = false;
					break;
				}
				e = e->next;
			}
			if (!attr_is(e, V_INT) || np == 3)
				ok = false;
			else
				part[np++] = e->u.i;
		}
		if (!ok || np < 2)
			return attr_fail(err, c->span, "expected [start:limit] or [start:limit:stride]");
		out->dims[k].start = part[0];
		out->dims[k].limit = part[1];
		out->dims[k].stride = part[2];
		k++;
	}
	return true;
}

/* ---- dim_labels ---- */

bool attr_dim_labels(const struct hlo_file *f, const struct hlo_value *v, struct arena *a,
		     struct hlo_conv_dims *out, struct attr_error *err)
{
	memset(out, 0, sizeof *out);
	if (!attr_is(v, V_DIMLABELS))
		return attr_fail(err, v ? v->span : span_none(), "expected dimension labels like b01f_01io->b01f");
	const char *s = attr_text(f, v->span);
	size_t n = span_len(v->span);
	const char *us = memchr(s, '_', n);
	const char *ar = us ? strstr(us, "->") : NULL;
	if (!us || !ar || ar >= s + n)
		return attr_fail(err, v->span, "expects 3 items: lhs, rhs, and output dims");
	struct { const char *p; size_t len; const char *name; char a, b; } part[3] = {
		{ s, (size_t)(us - s), "lhs", 'b', 'f' },
		{ us + 1, (size_t)(ar - us - 1), "rhs", 'o', 'i' },
		{ ar + 2, (size_t)(s + n - ar - 2), "output", 'b', 'f' },
	};
	int64_t *sp[3];
	int64_t *lab[3][2] = { { &out->lhs_batch, &out->lhs_feature }, { &out->rhs_output, &out->rhs_input },
			      { &out->out_batch, &out->out_feature } };
	uint32_t nsp[3];
	for (int p = 0; p < 3; p++) {
		size_t len = part[p].len;
		const char *t = part[p].p;
		*lab[p][0] = *lab[p][1] = -1;
		sp[p] = arena_array(a, len + 1, sizeof *sp[p]);
		for (size_t k = 0; k <= len; k++)
			sp[p][k] = -1;
		nsp[p] = 0;
		/* '?' may repeat; every other label is unique within its part. */
		bool seen[256] = { false };
		for (size_t i = 0; i < len; i++) {
			unsigned char c = (unsigned char)t[i];
			if (seen[c] && c != '?')
				return attr_fail(err, v->span, "expects unique %s dimension numbers, but sees %.*s",
						 part[p].name, (int)len, t);
			seen[c] = true;
		}
		for (size_t i = 0; i < len; i++) {
			char c = t[i];
			if (c == '?')
				continue;
			if (c == part[p].a)
				*lab[p][0] = (int64_t)i;
			else if (c == part[p].b)
				*lab[p][1] = (int64_t)i;
			else if (c >= '0' && (size_t)(c - '0') < len && c <= '9') {
				sp[p][c - '0'] = (int64_t)i;
				nsp[p]++;
			} else
				return attr_fail(err, v->span, "expects [0-%d%c%c?] in %s dimension numbers, got '%c'",
						 (int)len - 1 > 9 ? 9 : (int)len - 1, part[p].a, part[p].b, part[p].name, c);
		}
	}
	if (nsp[0] != nsp[1] || nsp[0] != nsp[2])
		return attr_fail(err, v->span, "convolution lhs, rhs, and output must have same number of spatial dimensions (%u, %u, %u)",
				 nsp[0], nsp[1], nsp[2]);
	for (int p = 0; p < 3; p++)
		for (uint32_t k = 0; k < nsp[p]; k++)
			if (sp[p][k] < 0)
				return attr_fail(err, v->span, "%s spatial dimension %u is missing", part[p].name, k);
	out->lhs_rank = (uint32_t)part[0].len;
	out->rhs_rank = (uint32_t)part[1].len;
	out->out_rank = (uint32_t)part[2].len;
	out->nspatial = nsp[0];
	out->lhs_spatial = sp[0];
	out->rhs_spatial = sp[1];
	out->out_spatial = sp[2];
	return true;
}

/* ---- Aliasing and program shapes ---- */

static bool attr_alias_target(const struct hlo_value *paren, struct arena *a, bool with_kind,
			      struct hlo_alias *al, struct attr_error *err)
{
	const struct hlo_value *num = paren->child, *idx = num ? num->next : NULL;
	const struct hlo_value *kind = idx ? idx->next : NULL;
	if (!attr_is(num, V_INT))
		return attr_fail(err, num ? num->span : paren->span, "expects integer parameter number");
	al->number = num->u.i;
	if (!idx || !idx->comma_before || !attr_is(idx, V_BRACE))
		return attr_fail(err, idx ? idx->span : paren->span, "expects '{' at the start of a shape index");
	if (!attr_ints(idx, a, &al->index, err))
		return false;
	if (kind) {
		static const char *const kinds[] = { "may-alias", "must-alias", NULL };
		if (!with_kind || !kind->comma_before)
			return attr_fail(err, kind->span, "expects ')' at the end of the aliased parameter");
		int k = attr_enum(kind, kinds, false, "alias kind", err);
		if (k < 0)
			return false;
		al->kind = k ? ALIAS_MUST : ALIAS_MAY;
		if (kind->next)
			return attr_fail(err, kind->next->span, "expects ')' at the end of the aliased parameter");
	}
	return true;
}

bool attr_aliases(const struct hlo_value *v, struct arena *a, bool with_kind, struct hlo_aliases *out,
		  struct attr_error *err)
{
	memset(out, 0, sizeof *out);
	if (!attr_is(v, V_BRACE))
		return attr_fail(err, v ? v->span : span_none(), "expects '{' to start the aliasing list");
	uint32_t cap = value_count(v) / 3 + 1;
	out->items = arena_array(a, cap, sizeof *out->items);
	for (const struct hlo_value *c = v->child; c;) {
		if (out->n && !c->comma_before)
			return attr_fail(err, c->span, "expects '}' at the end of aliasing description");
		if (!attr_is(c, V_BRACE))
			return attr_fail(err, c->span, "expects '{' at the start of ShapeIndex");
		struct hlo_alias *al = &out->items[out->n];
		memset(al, 0, sizeof *al);
		if (!attr_ints(c, a, &al->output_index, err))
			return false;
		const struct hlo_value *colon = c->next, *target = colon ? colon->next : NULL;
		if (!attr_is_punct(colon, P_COLON) || colon->comma_before)
			return attr_fail(err, colon ? colon->span : c->span, "expects ':' after the output shape index");
		if (!attr_is(target, V_PAREN) || target->comma_before)
			return attr_fail(err, target ? target->span : colon->span, "expects '(' to start the aliased parameter");
		if (!attr_alias_target(target, a, with_kind, al, err))
			return false;
		al->span = span_make(c->span.start, target->span.end);
		out->n++;
		c = target->next;
	}
	return true;
}

bool attr_buffer_donors(const struct hlo_value *v, struct arena *a, struct hlo_aliases *out,
			struct attr_error *err)
{
	memset(out, 0, sizeof *out);
	if (!attr_is(v, V_BRACE))
		return attr_fail(err, v ? v->span : span_none(), "expects '{' to start the buffer donor list");
	out->items = arena_array(a, value_count(v), sizeof *out->items);
	for (const struct hlo_value *c = v->child; c; c = c->next) {
		if (!attr_need_comma(c, v->child, err))
			return false;
		if (!attr_is(c, V_PAREN))
			return attr_fail(err, c->span, "expects '(' to start a buffer donor");
		struct hlo_alias *al = &out->items[out->n++];
		memset(al, 0, sizeof *al);
		if (!attr_alias_target(c, a, false, al, err))
			return false;
		al->span = c->span;
	}
	return true;
}

bool attr_program_shape(const struct hlo_value *v, struct arena *a, struct hlo_program_shape *out,
			struct attr_error *err)
{
	memset(out, 0, sizeof *out);
	const struct hlo_value *params = attr_is(v, V_BRACE) ? v->child : NULL;
	const struct hlo_value *arrow = params ? params->next : NULL, *res = arrow ? arrow->next : NULL;
	if (!attr_is(params, V_PAREN) || !attr_is_punct(arrow, P_ARROW) || !res || res->next)
		return attr_fail(err, v ? v->span : span_none(), "expected {(parameter shapes)->result shape}");
	out->nparams = value_count(params);
	out->params = arena_array(a, out->nparams, sizeof *out->params);
	out->param_spans = arena_array(a, out->nparams, sizeof *out->param_spans);
	uint32_t k = 0;
	for (const struct hlo_value *c = params->child; c; c = c->next, k++) {
		if (!attr_need_comma(c, params->child, err))
			return false;
		out->param_spans[k] = c->span;
		if (!(out->params[k] = attr_value_shape(c, a, err)))
			return false;
	}
	out->result_span = res->span;
	out->result = attr_value_shape(res, a, err);
	return out->result != NULL;
}

/* ---- Small structured values ---- */

static bool attr_is_number(const struct hlo_value *v)
{
	return v && (v->kind == V_INT || v->kind == V_DECIMAL || v->kind == V_INF || v->kind == V_NEGINF);
}

bool attr_result_accuracy(const struct hlo_value *v, struct attr_error *err)
{
	if (!attr_is(v, V_BRACE))
		return attr_fail(err, v ? v->span : span_none(), "expected result_accuracy={mode=...} or {tolerance={...}}");
	const struct hlo_value *c = v->child;
	if (!c || c->next)
		return attr_fail(err, v->span, "result_accuracy needs exactly one of mode= or tolerance=");
	if (c->kind != V_PAIR)
		return attr_fail(err, c->span, "expects attribute name mode= or tolerance=");
	if (!strcmp(c->key->str, "mode")) {
		static const char *const modes[] = { "default", "highest", NULL };
		return attr_enum(c->child, modes, true, "result accuracy mode", err) >= 0;
	}
	if (strcmp(c->key->str, "tolerance"))
		return attr_fail(err, c->span, "invalid attribute name '%s' in result_accuracy (expected mode or tolerance)",
				 c->key->str);
	if (!attr_is(c->child, V_BRACE))
		return attr_fail(err, c->span, "expected tolerance={atol=.. rtol=.. ulps=..}");
	for (const struct hlo_value *t = c->child->child; t; t = t->next) {
		if (t->kind != V_PAIR || (strcmp(t->key->str, "atol") && strcmp(t->key->str, "rtol") &&
					  strcmp(t->key->str, "ulps")))
			return attr_fail(err, t->span, "invalid tolerance field (expected atol, rtol or ulps)");
		if (!attr_is_number(t->child))
			return attr_fail(err, t->span, "tolerance %s expects a number", t->key->str);
		if (!strcmp(t->key->str, "ulps") && t->child->kind != V_INT)
			return attr_fail(err, t->span, "tolerance ulps expects an integer");
	}
	return true;
}

static bool attr_debug_entry(const struct hlo_value *b, struct attr_error *err)
{
	if (!attr_is(b, V_BRACE))
		return attr_fail(err, b ? b->span : span_none(), "expected {log_mode=..., callback_id=..., ...}");
	for (const struct hlo_value *c = b->child; c; c = c->next) {
		if (!attr_need_comma(c, b->child, err))
			return false;
		if (attr_is_pair(c, "log_mode")) {
			static const char *const modes[] = { "default", "fusion_debugger", NULL };
			if (attr_enum(c->child, modes, false, "debug log mode", err) < 0)
				return false;
		} else if (attr_is_pair(c, "callback_id") || attr_is_pair(c, "op_id")) {
			int64_t x;
			if (!attr_int(c->child, &x, err))
				return false;
		} else if (attr_is_pair(c, "partitioned")) {
			bool on;
			if (!attr_bool(c->child, &on, err))
				return false;
		} else {
			return attr_fail(err, c->span, "invalid debug attribute (expected log_mode, callback_id, op_id or partitioned)");
		}
	}
	return true;
}

bool attr_debug_attributes(const struct hlo_value *v, struct attr_error *err)
{
	if (!attr_is(v, V_BRACE))
		return attr_fail(err, v ? v->span : span_none(), "expected debug_attributes={...}");
	for (const struct hlo_value *c = v->child; c;) {
		if (c != v->child && !c->comma_before)
			return attr_fail(err, c->span, "expected ',' between debug attribute entries");
		const struct hlo_value *name = attr_is(c, V_BRACE) ? c->child : NULL;
		if (!attr_is(name, V_STRING) || (name->next && (!attr_is(name->next, V_BRACE) || name->next->next)))
			return attr_fail(err, c->span, "expected {\"instruction name\" {shape index}?}");
		const struct hlo_value *colon = c->next, *val = colon ? colon->next : NULL;
		if (!attr_is_punct(colon, P_COLON) || !val)
			return attr_fail(err, c->span, "expected ':' and the debug attributes after the instruction name");
		if (attr_is(val, V_PAREN)) {
			for (const struct hlo_value *b = val->child; b; b = b->next)
				if (!attr_need_comma(b, val->child, err) || !attr_debug_entry(b, err))
					return false;
		} else if (!attr_debug_entry(val, err)) {
			return false;
		}
		c = val->next;
	}
	return true;
}

bool attr_statistics(const struct hlo_value *v, struct attr_error *err)
{
	if (!attr_is(v, V_BRACE))
		return attr_fail(err, v ? v->span : span_none(), "expected statistics={visualizing_index=N, ...}");
	for (const struct hlo_value *c = v->child; c; c = c->next) {
		if (!attr_need_comma(c, v->child, err))
			return false;
		if (c->kind != V_PAIR || !attr_is_number(c->child))
			return attr_fail(err, c->span, "expected name=number in statistics");
	}
	return true;
}

bool attr_index_valid(const struct hlo_shape *s, const struct attr_ints *index)
{
	for (uint32_t k = 0; k < index->n; k++) {
		if (!s || s->type != PT_TUPLE || index->v[k] < 0 || index->v[k] >= (int64_t)s->rank)
			return false;
		s = s->elems[index->v[k]];
	}
	return true;
}
