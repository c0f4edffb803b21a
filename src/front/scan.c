/* scan.c - classification and checks behind the flex rules in grammar/hlo.l,
 * and scan_run, which drives the generated scanner and parser.  Flex finds
 * the extent of a word; this file decides what the word is, in the order
 * XLA's lexer tries (decimal, dim labels, NxM, padding, integer).  It does
 * not allocate per token: values are spans, names are interned. */
#include "scan.h"
#include "size.h"
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct interned *scan_intern(struct scan_state *ss, const char *s, size_t n)
{
	return intern(ss->ctx->file->names, s, n);
}

struct interned *scan_attr_name(struct scan_state *ss, const char *s, size_t n, const char *after)
{
	/* Attribute names inside a value ({op_name="x" ...}) are only needed
	 * when the value is decoded, so the module parse does not intern them;
	 * build_attr interns the few it keeps. */
	struct interned *name = NULL;
	if (ss->depth == ss->instr_depth || ss->ctx->mode != BUILD_MODULE)
		name = scan_intern(ss, s, n);
	if (*after != '{')
		return name;
	if ((n == 14 && !memcmp(s, "backend_config", 14)) || (ss->fa_depth && ss->brace_depth == ss->fa_depth))
		ss->json_pending = true;
	else if (n == 19 && !memcmp(s, "frontend_attributes", 19))
		ss->fa_depth = ss->brace_depth + 1;
	else if (n == 8 && ss->depth == ss->instr_depth && ss->ctx->mode == BUILD_MODULE && !memcmp(s, "metadata", 8))
		ss->md_pending = true;  /* checked lexically now, decoded on demand (attr.c) */
	return name;
}

/* [0-9bf?]{2,}_[0-9io?]{2,}->[0-9bf?]{2,} */
static size_t scan_span_of(const char *s, size_t n, const char *set)
{
	size_t i = 0;
	while (i < n && s[i] && strchr(set, s[i]))
		i++;
	return i;
}

static bool scan_is_dim_labels(const char *s, size_t n)
{
	size_t a = scan_span_of(s, n, "0123456789bf?");
	if (a < 2 || a >= n || s[a] != '_')
		return false;
	s += a + 1, n -= a + 1;
	size_t b = scan_span_of(s, n, "0123456789io?");
	if (b < 2 || b + 2 > n || s[b] != '-' || s[b + 1] != '>')
		return false;
	s += b + 2, n -= b + 2;
	size_t c = scan_span_of(s, n, "0123456789bf?");
	return c >= 2 && c == n;
}

int scan_dim_labels(struct scan_state *ss, const char *s, size_t n)
{
	(void)ss;
	return scan_is_dim_labels(s, n) ? DIMLABELS : -1;
}

size_t scan_definition_end(const char *after)
{
	/* The window ends with NULs, where the skips stop. */
	size_t k = lex_skip_blank(after, SIZE_MAX, 0, NULL);
	if (after[k] != '=')
		return 0;
	return lex_skip_blank(after, SIZE_MAX, k + 1, NULL);
}

int scan_word(struct scan_state *ss, const char *s, size_t n, HLO_YYSTYPE *lval)
{
	/* Only vocabulary is interned; a name that is not already in the table
	 * is an instruction or computation name, read later from its span. */
	struct interned *id = intern_find(ss->ctx->file->names, s, n);
	lval->id = id;
	if (!id) {
		if (!(ss->def_skip = scan_definition_end(s + n)))
			return IDENT;
		ss->instr_depth = ss->depth;
		return DEFNAME;
	}
	if (id->keyword) {
		switch (id->keyword) {
		case KW_HLOMODULE: return T_HLOMODULE;
		case KW_ENTRY: return T_ENTRY;
		case KW_ROOT: return T_ROOT;
		case KW_FILENAMES: return T_FILENAMES;
		case KW_FUNCTIONNAMES: return T_FUNCTIONNAMES;
		case KW_FILELOCATIONS: return T_FILELOCATIONS;
		case KW_STACKFRAMES: return T_STACKFRAMES;
		default:
			lval->i = id->keyword;
			return KEYWORD;
		}
	}
	if (id->type)
		return TYPE;
	if (n == 3 && memcmp(s, "nan", 3) == 0) {
		lval->d = NAN;
		return DECIMAL;
	}
	if ((ss->def_skip = scan_definition_end(s + n))) {
		ss->instr_depth = ss->depth;
		return DEFNAME;
	}
	if (s[n] == '(' && id->opcode == OP_CONSTANT + 1)
		ss->literal_pending = true;
	return IDENT;
}

double scan_nan_payload(const char *hex, bool negative)
{
	(void)hex;
	/* The payload is kept in the text; the value is only ever a NaN. */
	return negative ? -NAN : NAN;
}

int scan_negative_word(const char *s, size_t n, HLO_YYSTYPE *lval)
{
	if (n == 4 && memcmp(s, "-inf", 4) == 0)
		return NEGINF;
	if (n == 4 && memcmp(s, "-nan", 4) == 0) {
		lval->d = -NAN;
		return DECIMAL;
	}
	return -1;
}

static size_t scan_digits(const char *s, size_t n)
{
	size_t i = 0;
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	return i;
}

/* -?(\d+|\d+\.\d*|\d*\.\d+)[eE][+-]?\d+ | -?(\d+\.\d*|\d*\.\d+) */
static bool scan_is_decimal(const char *s, size_t n)
{
	size_t i = 0;
	if (i < n && s[i] == '-')
		i++;
	size_t a = scan_digits(s + i, n - i);
	i += a;
	bool dot = false;
	size_t b = 0;
	if (i < n && s[i] == '.') {
		dot = true;
		i++;
		b = scan_digits(s + i, n - i);
		i += b;
	}
	if (a == 0 && b == 0)
		return false;
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			i++;
		size_t e = scan_digits(s + i, n - i);
		return e > 0 && i + e == n;
	}
	return dot && i == n;
}

/* \d+(x\d+)+ */
static bool scan_is_dxd(const char *s, size_t n)
{
	size_t i = scan_digits(s, n);
	int parts = 0;
	if (i == 0)
		return false;
	while (i < n) {
		if (s[i] != 'x')
			return false;
		size_t d = scan_digits(s + i + 1, n - i - 1);
		if (d == 0)
			return false;
		i += 1 + d;
		parts++;
	}
	return parts > 0;
}

/* -?\d+_-?\d+(_\d+)?(x-?\d+_-?\d+(_\d+)?)* */
static bool scan_is_pad(const char *s, size_t n)
{
	size_t i = 0;
	for (;;) {
		for (int part = 0; part < 2; part++) {
			if (part == 1) {
				if (i >= n || s[i] != '_')
					return false;
				i++;
			}
			if (i < n && s[i] == '-')
				i++;
			size_t d = scan_digits(s + i, n - i);
			if (!d)
				return false;
			i += d;
		}
		if (i < n && s[i] == '_') {
			size_t d = scan_digits(s + i + 1, n - i - 1);
			if (!d)
				return false;
			i += 1 + d;
		}
		if (i == n)
			return true;
		if (s[i] != 'x')
			return false;
		i++;
	}
}

/* -?\d+ as XLA reads it: non-negative values up to 2^64-1 (bit-cast), negative
 * down to INT64_MIN. */
static bool scan_int(const char *s, size_t n, int64_t *out)
{
	bool neg = n && s[0] == '-';
	size_t i = neg;
	if (i == n || scan_digits(s + i, n - i) != n - i)
		return false;
	uint64_t v = 0;
	for (; i < n; i++) {
		unsigned d = (unsigned)(s[i] - '0');
		if (v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	if (neg) {
		if (v > (uint64_t)INT64_MAX + 1)
			return false;
		*out = v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v;
	} else {
		*out = (int64_t)v;
	}
	return true;
}

int scan_number(struct scan_state *ss, const char *s, size_t n, HLO_YYSTYPE *lval)
{
	/* Fast path: most number-like words are small non-negative integers. */
	if (n <= 18 && s[0] != '-') {
		int64_t v = 0;
		size_t i = 0;
		while (i < n && s[i] >= '0' && s[i] <= '9')
			v = v * 10 + (s[i++] - '0');
		if (i == n) {
			lval->i = v;
			return INT;
		}
	}
	if (n == 1 && s[0] == '?')
		return '?';
	if (scan_is_decimal(s, n)) {
		char tmp[128];
		size_t k = n < sizeof tmp - 1 ? n : sizeof tmp - 1;
		memcpy(tmp, s, k);
		tmp[k] = 0;
		lval->d = strtod(tmp, NULL);
		return DECIMAL;
	}
	if (scan_is_dim_labels(s, n))
		return DIMLABELS;
	if (scan_is_dxd(s, n))
		return DXD;
	if (scan_is_pad(s, n))
		return PAD;
	if (scan_digits(s + (s[0] == '-'), n - (s[0] == '-')) == n - (s[0] == '-')) {
		if (!scan_int(s, n, &lval->i)) {
			struct span sp = span_make(ss->base + (uint64_t)(s - ss->buf),
						   ss->base + (uint64_t)(s - ss->buf) + n);
			scan_error(ss, sp, "integer '%.*s' is out of range", (int)(n > 40 ? 40 : n), s);
			return LEXERROR;
		}
		return INT;
	}
	return -1;
}

/* The text's copy of window byte p: lookups past the window read it. */
static const char *scan_in_whole(const struct scan_state *ss, const char *p)
{
	return ss->whole + (ss->base - ss->whole_base) + (uint64_t)(p - ss->buf);
}

size_t scan_string_len(struct scan_state *ss, const char *q)
{
	const char *w = scan_in_whole(ss, q);
	const char *end = ss->whole + ss->whole_len, *p = w + 1;
	for (;;) {
		const char *e = p < end ? memchr(p, w[0], (size_t)(end - p)) : NULL;
		if (!e)
			return 0;
		size_t k = 0;
		while (e - k - 1 > w && e[-1 - (ptrdiff_t)k] == '\\')
			k++;
		if (k % 2 == 0)
			return (size_t)(e + 1 - w);
		p = e + 1;
	}
}

/* Returns the length of the UTF-8 sequence at s (within n), or 0 if invalid. */
static size_t scan_utf8(const unsigned char *s, size_t n)
{
	unsigned c = s[0];
	size_t len;
	uint32_t cp;
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4, cp = c & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return len;
}

/* Whether any of the 8 bytes at u is a backslash, a NUL or not ASCII: the
 * bytes scan_check_string must look at.  Most strings (op_names, file
 * names) have none, and eight at a time is several times faster than one
 * by one.  A borrow can flag a byte wrongly, only above a real hit. */
static bool scan_word_needs_look(const unsigned char *u)
{
	const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
	uint64_t w, b;
	memcpy(&w, u, sizeof w);
	b = w ^ (ones * '\\');
	return (((w - ones) & ~w) | ((b - ones) & ~b) | w) & highs;
}

bool scan_check_string(struct scan_state *ss, const char *s, size_t n, HLO_YYLTYPE *loc)
{
	const unsigned char *u = (const unsigned char *)s;
	for (size_t i = 1; i + 1 < n; i++) {
		while (i + 9 <= n && !scan_word_needs_look(u + i))
			i += 8;
		if (i + 1 >= n)
			break;
		if (u[i] == '\\') {
			unsigned char e = u[i + 1];
			if (strchr("ntr\\\"'?abfv", e) && e) {
				i++;
			} else if (e >= '0' && e <= '7') {
				size_t k = 1;
				while (k < 3 && u[i + 1 + k] >= '0' && u[i + 1 + k] <= '7')
					k++;
				i += k;
			} else if (e == 'x' && isxdigit(u[i + 2])) {
				i += 2;
				while (isxdigit(u[i + 1]))
					i++;
			} else if ((e == 'u' || e == 'U') && i + 2 + (e == 'u' ? 4u : 8u) <= n - 1) {
				/* absl::CUnescape: \uXXXX and \UXXXXXXXX */
				size_t k = e == 'u' ? 4 : 8, h = 0;
				while (h < k && isxdigit(u[i + 2 + h]))
					h++;
				if (h != k) {
					struct span sp = span_make(loc->start + i, loc->start + i + 2);
					scan_error(ss, sp, "invalid escape sequence in string");
					return false;
				}
				i += 1 + k;
			} else {
				struct span sp = span_make(loc->start + i, loc->start + i + 2);
				scan_error(ss, sp, "invalid escape sequence in string");
				return false;
			}
		} else if (u[i] == 0) {
			struct span sp = span_make(loc->start + i, loc->start + i + 1);
			scan_error(ss, sp, "NUL byte in input");
			ss->fatal = true;
			return false;
		} else if (u[i] >= 0x80) {
			size_t len = scan_utf8(u + i, n - 1 - i);
			if (!len) {
				struct span sp = span_make(loc->start + i, loc->start + i + 1);
				scan_error(ss, sp, "invalid UTF-8 in string");
				return false;
			}
			i += len - 1;
		}
	}
	return true;
}

int scan_open(struct scan_state *ss, int c, const char *after)
{
	if (++ss->depth > SCAN_MAX_DEPTH)
		return -1;
	if (c != '{')
		return c;
	ss->brace_depth++;
	if (ss->prev == ']') {
		after += lex_skip_blank(after, SIZE_MAX, 0, NULL);
		if ((*after >= '0' && *after <= '9') || *after == ':')
			return LAYOUT_OPEN;
	}
	return '{';
}

void scan_close(struct scan_state *ss, int c)
{
	if (ss->depth > 0)
		ss->depth--;
	if (ss->depth < ss->instr_depth)
		ss->instr_depth = ss->depth;
	if (c == '}' && ss->brace_depth > 0) {
		if (ss->brace_depth == ss->fa_depth)
			ss->fa_depth = 0;
		ss->brace_depth--;
	}
}

void scan_line_comment(struct scan_state *ss, const char *s, size_t n, struct span sp)
{
	size_t k = sizeof IR_LINT_COMMENT - 1;
	if (n >= k && !memcmp(s, IR_LINT_COMMENT, k))
		build_lint_comment(ss->ctx, sp);
}

bool scan_is_split(struct scan_state *ss, const char *s, size_t n)
{
	if (s > ss->buf && s[-1] != '\n' && s[-1] != '\r')
		return false;
	size_t i = 2;
	while (i < n && s[i] == ' ')
		i++;
	size_t dashes = 0;
	while (i < n && s[i] == '-')
		i++, dashes++;
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return dashes >= 5 && i == n;
}

void scan_bad_char(struct scan_state *ss, struct span sp, int c)
{
	unsigned char u = (unsigned char)c;
	if (u >= 0x80)
		scan_error(ss, sp, "unexpected byte 0x%02x outside a string", u);
	else if (isprint(u))
		scan_error(ss, sp, "unexpected character '%c'", u);
	else
		scan_error(ss, sp, "unexpected control character 0x%02x", u);
}

void scan_error(struct scan_state *ss, struct span sp, const char *fmt, ...)
{
	va_list ap;
	ss->lex_error = true;
	ss->ctx->recovering = true;
	va_start(ap, fmt);
	build_verror(ss->ctx, sp, fmt, ap);
	va_end(ap);
}

_Noreturn void scan_fatal(const char *msg)
{
	fprintf(stderr, "hlolint: error: scanner: %s\n", msg);
	exit(2);   /* the documented failure status: 0, 1 and 2 are all there are */
}

/* Token names from bison come as "\"integer\"" or "'{'"; show them plainly. */
static void scan_token_name(char *out, size_t cap, const char *name)
{
	size_t n = strlen(name);
	if (n >= 2 && name[0] == '"' && name[n - 1] == '"')
		snprintf(out, cap, "%.*s", (int)(n - 2), name + 1);
	else
		snprintf(out, cap, "%s", name);
}

struct scan_state *hlo_yyget_extra(void *scanner);   /* the generated scanner's */

void scan_syntax_error(struct build_ctx *ctx, void *scanner, struct span loc, bool eof,
		       bool after_lex_error, const char **expected, int nexpected)
{
	/* Until a whole instruction parses again after an error, further syntax
	 * errors are nearly always cascades of it: say nothing.  After a fatal
	 * lexical error the input ended early: "at end of input" is one too. */
	if (after_lex_error || ctx->recovering || hlo_yyget_extra(scanner)->fatal) {
		ctx->errors++;
		ctx->module_errors++;
		return;
	}
	ctx->recovering = true;
	char near[96];
	if (eof) {
		snprintf(near, sizeof near, "at end of input");
	} else {
		const char *t = ctx->src->buf + loc.start;
		uint64_t len = span_len(loc);
		for (uint64_t k = 0; k < len; k++)
			if (t[k] == '\n' || t[k] == '\r') {
				len = k;
				break;
			}
		if (len > 40)
			snprintf(near, sizeof near, "at or near '%.40s...'", t);
		else
			snprintf(near, sizeof near, "at or near '%.*s'", (int)len, t);
	}
	char exp[256] = "";
	if (nexpected > 0 && nexpected <= 3) {
		size_t o = 0;
		o += (size_t)snprintf(exp + o, sizeof exp - o, ", expected ");
		for (int i = 0; i < nexpected && o < sizeof exp; i++) {
			char nm[64];
			scan_token_name(nm, sizeof nm, expected[i]);
			o += (size_t)snprintf(exp + o, sizeof exp - o, "%s%s",
					      i == 0 ? "" : i == nexpected - 1 ? " or " : ", ", nm);
		}
	}
	build_error(ctx, loc, "syntax error %s%s", near, exp);
}

struct hlo_shape *scan_shape_text(struct scan_state *ss, const char *s, size_t n)
{
	/* Re-parsing a shape for its leaves' positions needs every leaf built. */
	if (ss->ctx->mode >= BUILD_SHAPE)
		return NULL;
	struct interned *e = intern_find(ss->ctx->file->names, s, n);
	return e ? e->data : NULL;
}

/* The bytes scan_tuple_text looks at: one table load a byte instead of
 * six comparisons (a tuple shape's text is long: 2.6% of a check of tuples). */
static const bool scan_tuple_stop[256] = {
	['('] = true, [')'] = true, [0] = true, ['\n'] = true, ['/'] = true, ['"'] = true,
};

struct hlo_shape *scan_tuple_text(struct scan_state *ss, const char *s, size_t *n)
{
	int depth = 0;
	/* The window ends with NULs: the search stops there, as at a line end
	 * (so the inner loop needs no bound of its own). */
	for (size_t i = 0; i < BUILD_TUPLE_TEXT_MAX; i++) {
		while (!scan_tuple_stop[(unsigned char)s[i]])
			i++;
		if (i >= BUILD_TUPLE_TEXT_MAX)
			return NULL;
		char c = s[i];
		if (c == '(') {
			depth++;
		} else if (c == ')') {
			if (--depth == 0) {
				*n = i + 1;
				return scan_shape_text(ss, s, i + 1);
			}
		} else if (c == 0 || c == '\n' || c == '/' || c == '"') {
			return NULL;
		}
	}
	return NULL;
}

size_t scan_word_len(const char *s)
{
	size_t i = 1;
	while ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9'))
		i++;
	return i;
}

/* ---- windows ---- */

/* The environment is read once per process: every attribute value the
 * verifier decodes runs a scan of its own (getenv was 0.7% of a check). */
static uint64_t scan_env_size(const char *name, _Atomic uint64_t *cache)
{
	uint64_t w = atomic_load(cache);
	if (w == UINT64_MAX) {
		const char *e = getenv(name);
		w = e ? strtoull(e, NULL, 10) : 0;
		atomic_store(cache, w);
	}
	return w;
}

static uint64_t scan_max_line(void)
{
	static _Atomic uint64_t cache = UINT64_MAX;
	uint64_t w = scan_env_size("HLO_SCAN_MAX_LINE", &cache);
	return w >= 4096 && w < SCAN_MAX_LINE ? w : SCAN_MAX_LINE;
}

/* Default 256 KiB: a window is copied and then scanned while it is still
 * in the cache.  HLO_SCAN_WINDOW (bytes, >= 4096) lets tests vary it.
 * At most half the longest line, so that every longer line is cut at. */
static uint64_t scan_window_size(void)
{
	static _Atomic uint64_t cache = UINT64_MAX;
	uint64_t w = scan_env_size("HLO_SCAN_WINDOW", &cache), half = scan_max_line() / 2;
	w = w >= 4096 ? w : (uint64_t)256 << 10;
	return w < half ? w : half;
}

/* A line that starts an instruction or a computation, or closes one:
 * "%x", "x = " (short names), "}", "ROOT ", "ENTRY ", "HloModule ". */
static bool scan_safe_line(const char *buf, uint64_t p, uint64_t len)
{
	if (buf[p - 1] != '\n')
		return false;
	while (p < len && (buf[p] == ' ' || buf[p] == '\t'))
		p++;
	if (p >= len)
		return false;
	const char *s = buf + p;
	size_t left = (size_t)(len - p);
	if (*s == '%' || *s == '}' || (left > 5 && !memcmp(s, "ROOT ", 5)) ||
	    (left > 6 && !memcmp(s, "ENTRY ", 6)) || (left > 10 && !memcmp(s, "HloModule ", 10)))
		return true;
	if (!lex_is_name_start(*s))
		return false;
	size_t k = 1;
	while (k < left && k < 256 && lex_is_name_char(s[k]))
		k++;
	while (k < left && (s[k] == ' ' || s[k] == '\t'))
		k++;
	return k < left && s[k] == '=';
}

/* Any other line start where no token's look-ahead crosses the cut: the
 * line before is a "//" comment, or ends in a closing bracket, a comma or
 * a quote (a word, '=', '{' or '*' there may be read with what follows). */
static bool scan_plain_line(const char *buf, uint64_t p, uint64_t from)
{
	if (buf[p - 1] != '\n')
		return false;
	uint64_t q = p - 1;
	while (q > from && (buf[q - 1] == ' ' || buf[q - 1] == '\t' || buf[q - 1] == '\r'))
		q--;
	if (q == from)
		return false;
	char c = buf[q - 1];
	if (strchr(")}],\"'", c) && c)
		return true;
	uint64_t b = q - 1;   /* the line's first non-blank byte */
	while (b > from && buf[b - 1] != '\n')
		b--;
	while (b < q && (buf[b] == ' ' || buf[b] == '\t'))
		b++;
	return q - b >= 2 && buf[b] == '/' && buf[b + 1] == '/';
}

/* A window must end between tokens.  Tokens never span lines except
 * strings, comments and raw captures, so end before a line that starts an
 * instruction or a computation, or closes one, else before another line
 * no token reads across (scan_plain_line): searching back from the
 * limit, then forward, at most max_line bytes.  Strings are found in the
 * whole text (scan_window_at); comments and captures go on in the next
 * window (<<EOF>> in hlo.l).  UINT64_MAX: the line is longer than that. */
static uint64_t scan_window_cut(const char *buf, uint64_t from, uint64_t len, uint64_t want, uint64_t max)
{
	uint64_t limit = from + want;
	if (limit >= len)
		return len;
	for (uint64_t p = limit; p > from + 1; p--)
		if (scan_safe_line(buf, p, len))
			return p;
	for (uint64_t p = limit; p > from + 1; p--)
		if (scan_plain_line(buf, p, from))
			return p;
	uint64_t newline = 0, end = len - from > max ? from + max : len;
	for (uint64_t p = limit + 1; p < end; p++) {
		if (scan_safe_line(buf, p, len) || scan_plain_line(buf, p, from))
			return p;
		if (!newline && buf[p - 1] == '\n')
			newline = p;
	}
	if (end == len)
		return len;
	if (newline)
		return newline;
	/* The line at limit is too long: end before it, the next window says so. */
	for (uint64_t p = limit; p > from + 1; p--)
		if (buf[p - 1] == '\n')
			return p;
	return UINT64_MAX;
}

/* Reports the line at from longer than the limit, and ends the input. */
static void scan_line_too_long(struct scan_state *ss, uint64_t from)
{
	uint64_t b = from;
	while (b > 0 && ss->whole[b - 1] != '\n')
		b--;
	char lim[32];
	scan_error(ss, span_make(ss->whole_base + b, ss->whole_base + b + 1),
		   "this line is longer than %s, the most hlolint reads as one line", size_human(ss->max_line, lim));
	ss->fatal = true;
}

bool scan_string_fits(struct scan_state *ss, uint64_t start, uint64_t n)
{
	if (n <= ss->max_line)
		return true;
	char lim[32];
	scan_error(ss, span_make(start, start + 1), "this string is longer than %s, the most hlolint reads as one token",
		   size_human(ss->max_line, lim));
	ss->fatal = true;
	return false;
}

/* Copies whole[start, cut) into the window buffer not in use, with two
 * NULs after it (flex's end of buffer); at least min bytes (a string
 * within SCAN_MAX_LINE), and only those after a line too long. */
static uint64_t scan_set_window(struct scan_state *ss, uint64_t start, uint64_t min)
{
	uint64_t end = scan_window_cut(ss->whole, start + min, ss->whole_len, ss->window, ss->max_line);
	if (end == UINT64_MAX) {
		scan_line_too_long(ss, start + min);
		end = start + min;
	}
	uint64_t n = end - start;
	unsigned k = ss->win_cur ^ 1;
	if (n + 2 <= sizeof ss->small[k]) {
		ss->win[k] = ss->small[k];
	} else {
		if (ss->heap_cap[k] < n + 2) {
			free(ss->heap[k]);
			ss->heap_cap[k] = (size_t)n + 2 > (size_t)ss->window + 2 ? (size_t)n + 2 : (size_t)ss->window + 2;
			ss->heap[k] = xmalloc(ss->heap_cap[k]);
		}
		ss->win[k] = ss->heap[k];
	}
	memcpy(ss->win[k], ss->whole + start, (size_t)n);
	/* The text before the window is in the IR's spans now: its pages go
	 * back until a later stage reads them (source_drop). */
	if (ss->ctx->mode == BUILD_MODULE)
		source_drop(ss->ctx->file->src, &ss->drop_mark, ss->whole_base + start);
	ss->win[k][n] = ss->win[k][n + 1] = 0;
	ss->win_cur = k;
	ss->buf = ss->win[k];
	ss->base = ss->whole_base + start;
	ss->window_end = end;
	return n;
}

uint64_t scan_next_window(struct scan_state *ss, char **start)
{
	*start = NULL;
	if (ss->window_end >= ss->whole_len || ss->fatal || (ss->ctx->several && atomic_load(ss->ctx->several)))
		return 0;
	uint64_t n = scan_set_window(ss, ss->window_end, 0);
	*start = ss->win[ss->win_cur];
	return n;
}

char *scan_window_at(struct scan_state *ss, const char *p, uint64_t n, uint64_t *len, bool *moved)
{
	uint64_t off = ss->base - ss->whole_base + (uint64_t)(p - ss->buf);
	*moved = off + n > ss->window_end;
	if (!*moved)
		return (char *)p;
	*len = scan_set_window(ss, off, n);
	return ss->win[ss->win_cur];
}

static void scan_windows_free(struct scan_state *ss)
{
	for (unsigned k = 0; k < 2; k++)
		free(ss->heap[k]);
}

/* ---- Running the generated scanner and parser ---- */

/* The generated scanner and parser (build/grammar/hlo.lex.c, hlo.tab.c). */
typedef void *yyscan_t;
struct yy_buffer_state;
int hlo_yylex_init_extra(struct scan_state *extra, yyscan_t *scanner);
struct yy_buffer_state *hlo_yy_scan_buffer(char *base, size_t size, yyscan_t scanner);
int hlo_yylex_destroy(yyscan_t scanner);
int hlo_yyparse(yyscan_t scanner, struct build_ctx *ctx);

int scan_run(struct build_ctx *ctx, const char *text, uint64_t len, uint64_t base)
{
	struct scan_state ss;
	yyscan_t scanner;
	memset(&ss, 0, sizeof ss);
	ss.ctx = ctx;
	ss.whole = text;
	ss.whole_base = base;
	ss.whole_len = len;
	ss.win_cur = 1;
	ss.drop_mark = base;
	ss.max_line = scan_max_line();   /* read once: strings ask it one by one */
	ss.window = scan_window_size();
	ss.start_token = ctx->mode == BUILD_MODULE ? START_MODULE
			 : ctx->mode == BUILD_VALUE ? START_VALUE
			 : ctx->mode == BUILD_SHAPE ? START_SHAPE : START_SIGNATURE;
	/* A value decoded on its own starts right after its "name=": prime the
	 * raw JSON capture the scanner would have switched on there. */
	if (ctx->mode == BUILD_VALUE && ctx->value_attr == ATTR_BACKEND_CONFIG)
		ss.json_pending = true;
	else if (ctx->mode == BUILD_VALUE && ctx->value_attr == ATTR_FRONTEND_ATTRIBUTES)
		ss.fa_depth = 1;
	if (hlo_yylex_init_extra(&ss, &scanner))
		fatal_out_of_memory();
	uint64_t first = scan_set_window(&ss, 0, 0);
	hlo_yy_scan_buffer(ss.win[ss.win_cur], (size_t)first + 2, scanner);
	int rc = hlo_yyparse(scanner, ctx);
	hlo_yylex_destroy(scanner);
	scan_windows_free(&ss);
	return rc;
}
