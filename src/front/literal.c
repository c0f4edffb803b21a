/* literal.c - checks and prints constant(...) literals against their shape.
 * A small lexer re-reads the literal span; a non-recursive walker follows
 * XLA's dense-literal loop (hlo_parser.cc ParseDenseLiteral) and its value
 * range rules, and the printer mirrors literal.cc's one-line form.  It does
 * not materialise literal data and does not handle the typed "shape literal"
 * form of custom-call literal= attributes. */
#include "literal.h"
#include <ctype.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "arena.h"
#include "lex.h"

/* ---- Element types ---- */

enum literal_class { LC_NONE, LC_PRED, LC_SINT, LC_UINT, LC_FLOAT, LC_COMPLEX };

/* How a float type encodes NaN (ml_dtypes / IEEE). */
enum literal_nan {
	LN_NONE,      /* no NaN at all (f4e2m1fn, f6*) */
	LN_IEEE,      /* signed NaNs with a payload of mant bits */
	LN_SIGNED,    /* one NaN per sign, no payload (f8e4m3fn) */
	LN_UZ,        /* single NaN in the -0 slot: always prints "-nan" (fnuz) */
	LN_UNSIGNED,  /* single unsigned NaN (f8e8m0fnu) */
};

struct literal_float {
	int mant;        /* explicit mantissa bits */
	int emin;        /* exponent of the smallest normal number */
	double max;      /* largest finite value */
	bool inf;        /* has infinities */
	enum literal_nan nan;
	int digits;      /* max_digits10 for printing; 0 = f32/f64 round-trip rules */
	bool via_float;  /* Eigen half/bfloat16 convert double -> float -> type */
	bool fnuz;       /* no negative zero */
	bool no_zero;    /* f8e8m0fnu: powers of two only, no zero, no sign */
};

static const struct literal_float fmt_f64 = { 52, -1022, DBL_MAX, true, LN_IEEE, 0, false, false, false };
static const struct literal_float fmt_f32 = { 23, -126, FLT_MAX, true, LN_IEEE, 0, false, false, false };

static const struct literal_float *literal_float_fmt(enum ptype t)
{
	static const struct literal_float f16 = { 10, -14, 65504.0, true, LN_IEEE, 5, true, false, false };
	static const struct literal_float bf16 = { 7, -126, 0x1.fep127, true, LN_IEEE, 4, true, false, false };
	static const struct literal_float e5m2 = { 2, -14, 57344.0, true, LN_IEEE, 2, false, false, false };
	static const struct literal_float e4m3 = { 3, -6, 240.0, true, LN_IEEE, 3, false, false, false };
	static const struct literal_float e4m3fn = { 3, -6, 448.0, false, LN_SIGNED, 3, false, false, false };
	static const struct literal_float e4m3b11 = { 3, -10, 30.0, false, LN_UZ, 3, false, true, false };
	static const struct literal_float e3m4 = { 4, -2, 15.5, true, LN_IEEE, 3, false, false, false };
	static const struct literal_float e5m2fnuz = { 2, -15, 57344.0, false, LN_UZ, 2, false, true, false };
	static const struct literal_float e4m3fnuz = { 3, -7, 240.0, false, LN_UZ, 3, false, true, false };
	static const struct literal_float e8m0 = { 0, -127, 0x1p127, false, LN_UNSIGNED, 2, false, false, true };
	static const struct literal_float e3m2 = { 2, -2, 28.0, false, LN_NONE, 2, false, false, false };
	static const struct literal_float e2m3 = { 3, 0, 7.5, false, LN_NONE, 3, false, false, false };
	static const struct literal_float e2m1 = { 1, 0, 6.0, false, LN_NONE, 2, false, false, false };
	switch (t) {
	case PT_F64: case PT_C128: return &fmt_f64;
	case PT_F32: case PT_C64: return &fmt_f32;
	case PT_F16: return &f16;
	case PT_BF16: return &bf16;
	case PT_F8E5M2: return &e5m2;
	case PT_F8E4M3: return &e4m3;
	case PT_F8E4M3FN: return &e4m3fn;
	case PT_F8E4M3B11FNUZ: return &e4m3b11;
	case PT_F8E3M4: return &e3m4;
	case PT_F8E5M2FNUZ: return &e5m2fnuz;
	case PT_F8E4M3FNUZ: return &e4m3fnuz;
	case PT_F8E8M0FNU: return &e8m0;
	case PT_F6E3M2FN: return &e3m2;
	case PT_F6E2M3FN: return &e2m3;
	case PT_F4E2M1FN: return &e2m1;
	default: return NULL;
	}
}

static const char *literal_type_name(enum ptype t)
{
	static const char *const names[] = {
#define TYPE(e, text, bits) [PT_##e] = text,
#include "types.def"
#undef TYPE
	};
	if (t == PT_TUPLE)
		return "tuple";
	if (t == PT_BUFFER)
		return "buffer";
	if ((unsigned)t < sizeof names / sizeof names[0] && names[t])
		return names[t];
	return "invalid type";
}

static int literal_type_bits(enum ptype t)
{
	static const int bits[] = {
#define TYPE(e, text, b) [PT_##e] = b,
#include "types.def"
#undef TYPE
	};
	return (unsigned)t < sizeof bits / sizeof bits[0] ? bits[t] : 0;
}

static enum literal_class literal_classify(enum ptype t)
{
	switch (t) {
	case PT_PRED: return LC_PRED;
	case PT_S1: case PT_S2: case PT_S4: case PT_S8: case PT_S16: case PT_S32: case PT_S64:
		return LC_SINT;
	case PT_U1: case PT_U2: case PT_U4: case PT_U8: case PT_U16: case PT_U32: case PT_U64:
		return LC_UINT;
	case PT_C64: case PT_C128: return LC_COMPLEX;
	default: return literal_float_fmt(t) ? LC_FLOAT : LC_NONE;
	}
}

/* ---- Lexer ---- */

enum literal_tok {
	LT_END, LT_LBRACE, LT_RBRACE, LT_LPAREN, LT_RPAREN, LT_COMMA, LT_DOTS,
	LT_INT, LT_DEC, LT_INF, LT_NEGINF, LT_TRUE, LT_FALSE, LT_ERROR
};

/* The payload the lexer gives a plain "nan": a double's quiet bit. */
#define LIT_QUIET ((uint64_t)1 << 51)
#define LIT_MAX_PAYLOAD (((uint64_t)1 << 52) - 1)

struct literal_token {
	enum literal_tok kind;
	uint64_t start, end;
	int64_t i;          /* LT_INT; values above INT64_MAX wrap like XLA's lexer */
	double d;           /* LT_DEC (may be +-inf after overflow) */
	bool nan, neg;      /* LT_DEC nan and its sign */
	uint64_t payload;   /* nan payload, LIT_QUIET when none was written */
};

struct literal_parser {
	const char *buf;
	uint64_t pos, end;          /* lexer cursor, end of the literal span */
	struct literal_token tok;       /* current (not yet consumed) token */
	struct literal_error *err;
	bool failed;
};

static bool literal_fail(struct literal_parser *P, uint64_t s, uint64_t e, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static bool literal_fail(struct literal_parser *P, uint64_t s, uint64_t e, const char *fmt, ...)
{
	if (P->failed)
		return false;
	P->failed = true;
	P->tok.kind = LT_ERROR;
	if (P->err) {
		va_list ap;
		P->err->span = span_make(s, e > s ? e : s + 1);
		va_start(ap, fmt);
		vsnprintf(P->err->msg, sizeof P->err->msg, fmt, ap);
		va_end(ap);
	}
	return false;
}

/* Token text for messages, cut to keep them readable. */
#define TOK_FMT "%.*s%s"
#define TOK_ARG(P, t) (int)((t)->end - (t)->start > 40 ? 40 : (t)->end - (t)->start), \
	(P)->buf + (t)->start, (t)->end - (t)->start > 40 ? "..." : ""

static const char *literal_tok_desc(enum literal_tok k)
{
	switch (k) {
	case LT_END: return "end of literal";
	case LT_LBRACE: return "'{'";
	case LT_RBRACE: return "'}'";
	case LT_LPAREN: return "'('";
	case LT_RPAREN: return "')'";
	case LT_COMMA: return "','";
	case LT_DOTS: return "'...'";
	default: return NULL;
	}
}

/* inf, -inf, true, false, nan, -nan and nan(0x...) payloads.  p is at the
 * first letter; neg says a '-' came just before (at p - 1). */
static void literal_lex_word(struct literal_parser *P, uint64_t p, bool neg)
{
	const char *b = P->buf;
	struct literal_token *t = &P->tok;
	uint64_t q = p;
	while (q < P->end && lex_is_name_char(b[q]))
		q++;
	size_t n = q - p;
	t->end = q;
	if (n == 3 && !memcmp(b + p, "inf", 3)) {
		t->kind = neg ? LT_NEGINF : LT_INF;
	} else if (!neg && n == 4 && !memcmp(b + p, "true", 4)) {
		t->kind = LT_TRUE;
	} else if (!neg && n == 5 && !memcmp(b + p, "false", 5)) {
		t->kind = LT_FALSE;
	} else if (n == 3 && !memcmp(b + p, "nan", 3)) {
		t->kind = LT_DEC;
		t->nan = true;
		t->neg = neg;
		t->d = neg ? -NAN : NAN;
		if (q + 2 < P->end && b[q] == '(' && b[q + 1] == '0' && b[q + 2] == 'x') {
			uint64_t r = q + 3, v = 0;
			bool big = false;  /* more than 52 bits: stop accumulating */
			for (; r < P->end && lex_hex(b[r]) >= 0; r++) {
				if (v > LIT_MAX_PAYLOAD >> 4)
					big = true;
				else
					v = v << 4 | (uint64_t)lex_hex(b[r]);
			}
			if (r == q + 3 || r >= P->end || b[r] != ')') {
				literal_fail(P, t->start, r, "malformed nan payload");
				return;
			}
			t->end = r + 1;
			if (big || v == 0 || v > LIT_MAX_PAYLOAD) {
				literal_fail(P, t->start, t->end, "nan payload " TOK_FMT " must be between 0x1 and 0x%" PRIx64,
					 TOK_ARG(P, t), LIT_MAX_PAYLOAD);
				return;
			}
			t->payload = v;
		}
	} else {
		literal_fail(P, t->start, q, "unexpected '" TOK_FMT "' in literal", TOK_ARG(P, t));
	}
}

/* Numbers as XLA lexes them: Int -?\d+ (non-negative up to 2^64-1, wrapped),
 * Decimal -?(\d+|\d+\.\d*|\d*\.\d+)[eE][+-]?\d+ or -?(\d+\.\d*|\d*\.\d+). */
/* The double nearest the decimal b[p, q) (digits, '.', an exponent; no
 * sign) without strtod, when that is exact (Clinger's fast path: at most
 * 15 significant digits, a power of ten up to 1e22, both exact in a double,
 * so one multiplication or division rounds correctly).  False: strtod it.
 * Constants printed in full are millions of such numbers. */
static bool literal_fast_decimal(const char *b, uint64_t p, uint64_t q, bool neg, double *out)
{
	static const double pow10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
					1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };
	uint64_t m = 0;
	int digits = 0, scale = 0;
	uint64_t r = p;
	for (; r < q && (unsigned)(b[r] - '0') < 10; r++)
		if (m || b[r] != '0') {
			if (++digits > 15)
				return false;
			m = m * 10 + (unsigned)(b[r] - '0');
		}
	if (r < q && b[r] == '.')
		for (r++; r < q && (unsigned)(b[r] - '0') < 10; r++) {
			scale--;
			if (m || b[r] != '0') {
				if (++digits > 15)
					return false;
				m = m * 10 + (unsigned)(b[r] - '0');
			}
		}
	if (r < q && (b[r] == 'e' || b[r] == 'E')) {
		bool eneg = b[++r] == '-';
		if (b[r] == '+' || b[r] == '-')
			r++;
		int e = 0;
		for (; r < q; r++) {
			if (e > 1000)
				return false;
			e = e * 10 + (b[r] - '0');
		}
		scale += eneg ? -e : e;
	}
	double d = (double)m;
	if (m == 0)
		scale = 0;
	if (scale < -22 || scale > 22)
		return false;
	d = scale < 0 ? d / pow10[-scale] : d * pow10[scale];
	*out = neg ? -d : d;
	return true;
}

static void literal_lex_number(struct literal_parser *P, uint64_t p)
{
	const char *b = P->buf;
	struct literal_token *t = &P->tok;
	uint64_t q = p, e = P->end;
	bool neg = b[q] == '-';
	if (neg)
		q++;
	uint64_t d1 = q;
	while (q < e && isdigit((unsigned char)b[q]))
		q++;
	uint64_t nd1 = q - d1, nd2 = 0;
	bool dot = false, exp = false;
	if (q < e && b[q] == '.') {
		dot = true;
		uint64_t d2 = ++q;
		while (q < e && isdigit((unsigned char)b[q]))
			q++;
		nd2 = q - d2;
	}
	if (nd1 == 0 && nd2 == 0) {
		if (neg && !dot && q < e && isalpha((unsigned char)b[q])) {
			literal_lex_word(P, q, true);
			return;
		}
		t->end = q > p + 1 ? q : p + 1;
		literal_fail(P, p, t->end, "unexpected '" TOK_FMT "' in literal", TOK_ARG(P, t));
		return;
	}
	if (q < e && (b[q] == 'e' || b[q] == 'E')) {
		uint64_t r = q + 1;
		if (r < e && (b[r] == '+' || b[r] == '-'))
			r++;
		if (r < e && isdigit((unsigned char)b[r])) {
			while (r < e && isdigit((unsigned char)b[r]))
				r++;
			q = r;
			exp = true;
		}
	}
	t->end = q;
	if (q < e && (isalpha((unsigned char)b[q]) || b[q] == '_' || b[q] == '.')) {
		while (t->end < e && lex_is_name_char(b[t->end]))
			t->end++;
		literal_fail(P, p, t->end, "malformed number '" TOK_FMT "'", TOK_ARG(P, t));
		return;
	}
	if ((dot || exp) && literal_fast_decimal(b, neg ? p + 1 : p, q, neg, &t->d)) {
		t->kind = LT_DEC;
		return;
	}
	if (dot || exp) {
		char small[128], *s = small;
		size_t n = q - p;
		if (n >= sizeof small)
			s = xmalloc(n + 1);
		memcpy(s, b + p, n);
		s[n] = 0;
		t->kind = LT_DEC;
		t->d = strtod(s, NULL);  /* correctly rounded; overflow gives +-inf */
		if (s != small)
			free(s);
		return;
	}
	uint64_t v = 0;
	for (uint64_t r = d1; r < q; r++) {
		unsigned dg = (unsigned)(b[r] - '0');
		if (v > (UINT64_MAX - dg) / 10) {
			literal_fail(P, p, q, "integer " TOK_FMT " is out of range", TOK_ARG(P, t));
			return;
		}
		v = v * 10 + dg;
	}
	if (neg) {
		if (v > (uint64_t)INT64_MAX + 1) {
			literal_fail(P, p, q, "integer " TOK_FMT " is out of range", TOK_ARG(P, t));
			return;
		}
		t->i = v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v;
	} else {
		t->i = v <= (uint64_t)INT64_MAX ? (int64_t)v : -(int64_t)(UINT64_MAX - v) - 1;
	}
	t->kind = LT_INT;
}

/* Advances to the next token, skipping blanks and comments. */
static void literal_next(struct literal_parser *P)
{
	const char *b = P->buf;
	uint64_t p = P->pos, e = P->end;
	struct literal_token *t = &P->tok;
	if (P->failed)
		return;
	bool open = false;
	p = lex_skip_blank(b, (size_t)e, (size_t)p, &open);
	if (open) {
		literal_fail(P, p, p + 2, "unterminated comment");
		return;
	}
	t->start = p;
	t->end = p + 1;
	t->nan = t->neg = false;
	t->payload = LIT_QUIET;
	t->i = 0;
	t->d = 0;
	if (p >= e) {
		t->kind = LT_END;
		t->end = p;
	} else {
		switch (b[p]) {
		case '{': t->kind = LT_LBRACE; break;
		case '}': t->kind = LT_RBRACE; break;
		case '(': t->kind = LT_LPAREN; break;
		case ')': t->kind = LT_RPAREN; break;
		case ',': t->kind = LT_COMMA; break;
		case '.':
			if (p + 2 < e && b[p + 1] == '.' && b[p + 2] == '.') {
				t->kind = LT_DOTS;
				t->end = p + 3;
			} else {
				literal_fail(P, p, p + 1, "unexpected character '.'");
			}
			break;
		default:
			if (isdigit((unsigned char)b[p]) || b[p] == '-')
				literal_lex_number(P, p);
			else if (isalpha((unsigned char)b[p]) || b[p] == '_')
				literal_lex_word(P, p, false);
			else if (isgraph((unsigned char)b[p]))
				literal_fail(P, p, p + 1, "unexpected character '%c' in literal", b[p]);
			else
				literal_fail(P, p, p + 1, "unexpected byte 0x%02x in literal", (unsigned char)b[p]);
		}
	}
	P->pos = t->end;
}

/* Fails with "expected WHAT, found <current token>". */
static bool literal_expected(struct literal_parser *P, const char *what)
{
	const struct literal_token *t = &P->tok;
	const char *d = literal_tok_desc(t->kind);
	if (P->failed)
		return false;
	if (d)
		return literal_fail(P, t->start, t->end, "expected %s, found %s", what, d);
	return literal_fail(P, t->start, t->end, "expected %s, found '" TOK_FMT "'", what, TOK_ARG(P, t));
}

static bool literal_accept(struct literal_parser *P, enum literal_tok k, const char *what)
{
	if (P->tok.kind != k)
		return literal_expected(P, what);
	literal_next(P);
	return !P->failed;
}

/* ---- Values ---- */

/* One float component after conversion to its type. */
struct literal_fp {
	double v;           /* the rounded value (finite or +-inf) */
	bool nan, neg;      /* nan and its sign bit */
	uint64_t payload;   /* stored payload bits (LN_IEEE) */
};

struct literal_value {
	int64_t i;              /* pred (0/1) and integers */
	struct literal_fp re, im;   /* floats use re */
};

/* Rounds a finite double to format ff with round-to-nearest-even, the way
 * ml_dtypes / Eigen convert (f16/bf16 go through float first).  Returns false
 * when the result does not fit (it would be inf, or NaN for types without
 * infinities): XLA then reports the original value as out of range. */
static bool literal_round(const struct literal_float *ff, double d, double *out)
{
	if (ff == &fmt_f64) {
		*out = d;
		return true;
	}
	if (ff == &fmt_f32 || ff->via_float) {
		float x = (float)d;
		if (isinf(x))
			return false;
		d = x;
		if (ff == &fmt_f32) {
			*out = d;
			return true;
		}
	}
	double a = fabs(d), r;
	if (a == 0) {
		r = 0;
	} else {
		int e;
		frexp(a, &e);
		int E = e - 1 < ff->emin ? ff->emin : e - 1;
		double q = ldexp(1.0, E - ff->mant);
		double m = a / q;     /* exact: a power-of-two scaling */
		r = rint(m) * q;      /* ties to even on the mantissa */
		if (ff->mant == 0 && m >= 1 && m - floor(m) == 0.5) {
			/* No mantissa bits: the tie goes to the even exponent
			 * (ml_dtypes rounds on the source bits, whose last kept bit is
			 * the exponent's lowest bit). */
			r = ((E & 1) == 0 ? 2 : 1) * q;
		}
	}
	if (r > ff->max)
		return false;
	if (ff->fnuz && r == 0)
		d = 0;  /* -0 does not exist (that pattern is the NaN) */
	*out = copysign(r, d);
	return true;
}

/* Stores a NaN of ff with the sign and payload XLA's parser would give it. */
static bool literal_make_nan(struct literal_parser *P, const struct literal_token *t, const struct literal_float *ff,
			 enum ptype type, bool neg, uint64_t payload, struct literal_fp *out)
{
	out->nan = true;
	out->v = NAN;
	out->payload = 0;
	switch (ff->nan) {
	case LN_NONE:
		return literal_fail(P, t->start, t->end, "value " TOK_FMT " is not representable in %s",
				TOK_ARG(P, t), literal_type_name(type));
	case LN_IEEE: {
		uint64_t mask = ((uint64_t)1 << ff->mant) - 1;
		if (payload == LIT_QUIET)
			payload = (uint64_t)1 << (ff->mant - 1);
		else if (payload > mask)
			return literal_fail(P, t->start, t->end,
					"nan payload 0x%" PRIx64 " is out of range for %s (at most 0x%" PRIx64 ")",
					payload, literal_type_name(type), mask);
		out->payload = payload;
		out->neg = neg;
		return true;
	}
	case LN_SIGNED: case LN_UZ: case LN_UNSIGNED:
		if (payload != LIT_QUIET)
			return literal_fail(P, t->start, t->end, "%s does not support nan payloads (0x%" PRIx64 ")",
					literal_type_name(type), payload);
		out->neg = ff->nan == LN_UZ ? true : ff->nan == LN_SIGNED ? neg : false;
		return true;
	}
	return false;
}

/* Reads one float component from the current token.  complex_part names the
 * part for complex types, whose components XLA range-checks without
 * rounding first. */
static bool literal_float_value(struct literal_parser *P, enum ptype type, const char *complex_part,
			    struct literal_fp *out)
{
	const struct literal_float *ff = literal_float_fmt(type);
	const struct literal_token *t = &P->tok;
	double d;
	memset(out, 0, sizeof *out);
	switch (t->kind) {
	case LT_INT: d = (double)t->i; break;
	case LT_DEC: d = t->d; break;
	case LT_INF: d = INFINITY; break;
	case LT_NEGINF: d = -INFINITY; break;
	default: {
		char what[64];
		snprintf(what, sizeof what, "a floating-point value for %s", literal_type_name(type));
		return literal_expected(P, what);
	}
	}
	if (t->kind == LT_DEC && t->nan) {
		if (!literal_make_nan(P, t, ff, type, t->neg, t->payload, out))
			return false;
	} else if (t->kind == LT_DEC && isinf(d)) {
		/* A decimal that overflowed double: XLA rejects it outright. */
		return literal_fail(P, t->start, t->end, "%s" TOK_FMT " is out of range for %s",
				complex_part ? complex_part : "value ", TOK_ARG(P, t), literal_type_name(type));
	} else if (isinf(d)) {
		if (ff->inf) {
			out->v = d;
		} else if (ff->nan != LN_NONE) {
			/* ml_dtypes turns inf into the NaN of types without inf. */
			literal_make_nan(P, t, ff, type, d < 0, LIT_QUIET, out);
		} else {
			return literal_fail(P, t->start, t->end, "value " TOK_FMT " is not representable in %s",
					TOK_ARG(P, t), literal_type_name(type));
		}
	} else if (complex_part) {
		/* XLA compares without rounding; we also accept up to the 9-digit
		 * rendering of FLT_MAX (3.40282347e+38) that printing produces, so
		 * printed modules re-parse. */
		if (fabs(d) > ff->max && !(ff == &fmt_f32 && fabs(d) <= 3.40282347e+38))
			return literal_fail(P, t->start, t->end, "%s" TOK_FMT " is out of range for %s",
					complex_part, TOK_ARG(P, t), literal_type_name(type));
		out->v = ff == &fmt_f32 ? (double)(float)d : d;
	} else {
		double r;
		bool ok = literal_round(ff, d, &r);
		if (ok && ff->no_zero && (d <= 0 || r == 0))
			ok = false;  /* f8e8m0fnu has neither zero nor negatives */
		if (!ok)
			return literal_fail(P, t->start, t->end, "value " TOK_FMT " is out of range for %s",
					TOK_ARG(P, t), literal_type_name(type));
		out->v = r;
	}
	literal_next(P);
	return !P->failed;
}

/* Decodes one element value of type at the current token (a complex value
 * spans "( re , im )") and consumes it. */
static bool literal_read(struct literal_parser *P, enum ptype type, struct literal_value *v)
{
	const struct literal_token *t = &P->tok;
	const char *tn = literal_type_name(type);
	char what[64];
	memset(v, 0, sizeof *v);
	switch (literal_classify(type)) {
	case LC_PRED:
		if (t->kind == LT_TRUE || t->kind == LT_FALSE)
			v->i = t->kind == LT_TRUE;
		else if (t->kind == LT_INT)
			v->i = t->i != 0;  /* XLA casts any integer to bool */
		else
			return literal_expected(P, "true, false or an integer for pred");
		literal_next(P);
		return !P->failed;
	case LC_SINT: case LC_UINT: {
		if (t->kind != LT_INT) {
			snprintf(what, sizeof what, "an integer for %s", tn);
			return literal_expected(P, what);
		}
		int bits = literal_type_bits(type);
		bool ok;
		if (literal_classify(type) == LC_UINT) {
			/* Checked as uint64 after the int64 cast: u64 constant(-1) is fine. */
			uint64_t max = bits >= 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
			ok = (uint64_t)t->i <= max;
		} else {
			int64_t max = bits >= 64 ? INT64_MAX : (int64_t)(((uint64_t)1 << (bits - 1)) - 1);
			ok = t->i <= max && t->i >= -max - 1;
		}
		if (!ok)
			return literal_fail(P, t->start, t->end, "value " TOK_FMT " is out of range for %s",
					TOK_ARG(P, t), tn);
		v->i = t->i;
		literal_next(P);
		return !P->failed;
	}
	case LC_FLOAT:
		if (t->kind == LT_LPAREN)
			return literal_fail(P, t->start, t->end,
					"unexpected '(' in literal: parentheses are only valid for complex values");
		if (t->kind == LT_TRUE || t->kind == LT_FALSE) {
			snprintf(what, sizeof what, "a number for %s", tn);
			return literal_expected(P, what);
		}
		return literal_float_value(P, type, NULL, &v->re);
	case LC_COMPLEX:
		if (t->kind != LT_LPAREN) {
			snprintf(what, sizeof what, "'(' to start a %s value (re, im)", tn);
			return literal_expected(P, what);
		}
		literal_next(P);
		if (P->failed)
			return false;
		if (!literal_float_value(P, type, "real part ", &v->re))
			return false;
		if (!literal_accept(P, LT_COMMA, "',' between the real and imaginary parts"))
			return false;
		if (!literal_float_value(P, type, "imaginary part ", &v->im))
			return false;
		return literal_accept(P, LT_RPAREN, "')' after the imaginary part");
	case LC_NONE:
		break;
	}
	return literal_fail(P, t->start, t->end, "constants of type %s are not supported", tn);
}

static bool literal_value_start(enum literal_tok k)
{
	return k == LT_INT || k == LT_DEC || k == LT_INF || k == LT_NEGINF || k == LT_TRUE ||
	       k == LT_FALSE || k == LT_LPAREN;
}

/* ---- Structure ---- */

/* Product of the dims, saturating. */
/* "[0,2]" from the element counters of the dims before dim. */
static void literal_index_str(char *buf, size_t cap, const int64_t *seen, uint32_t dim)
{
	size_t n = 0;
	buf[0] = 0;
	n += (size_t)snprintf(buf + n, cap - n, " in element [");
	for (uint32_t i = 0; i < dim && n < cap; i++)
		n += (size_t)snprintf(buf + n, cap - n, "%s%" PRId64, i ? "," : "", seen[i] - 1);
	if (n < cap)
		snprintf(buf + n, cap - n, "]");
}

static bool literal_too_many(struct literal_parser *P, const struct hlo_shape *s, const int64_t *seen,
			 uint32_t dim)
{
	char idx[96] = "";
	if (dim > 0)
		literal_index_str(idx, sizeof idx, seen, dim);
	return literal_fail(P, P->tok.start, P->tok.end, "expected %" PRId64 " elements%s, found more",
			s->dims[dim], idx);
}

/* Checks the shape can hold a literal at all. */
static bool literal_shape_ok(struct literal_parser *P, const struct hlo_shape *s)
{
	if (literal_classify(s->type) == LC_NONE)
		return literal_fail(P, P->tok.start, P->tok.end, "constants of type %s are not supported",
				literal_type_name(s->type));
	for (uint32_t i = 0; i < s->rank; i++)
		if (s->dims[i] < 0 || (s->dim_kinds && s->dim_kinds[i] == DIM_UNBOUNDED))
			return literal_fail(P, P->tok.start, P->tok.end,
					"constants cannot have an unbounded dynamic dimension");
	return true;
}

struct literal_dense_info {
	uint64_t written;   /* element values seen */
	bool elided;        /* "..." seen */
};

/* The common case in bulk: after a valid float value at the innermost
 * level, the plain decimals that follow ("0.25, -1.5, 3"), from the
 * current token on, are checked
 * straight from the text, without tokens, while each is short enough for
 * literal_fast_decimal and fits the type and the dimension (a constant
 * printed in full is millions of them).  Anything else (an exponent, a
 * comment, a brace, an error to report) stops the run where that value
 * begins, and the general loop lexes it as a token. */
static void literal_dense_floats(struct literal_parser *P, const struct literal_float *ff, int64_t *seen,
				 int64_t dim, uint64_t *written)
{
	const char *b = P->buf;
	uint64_t e = P->end, p = P->tok.start;   /* the token after the value, not yet consumed */
	if (P->failed)
		return;
	for (;;) {
		uint64_t v = p;
		while (v < e && (b[v] == ' ' || b[v] == ',' || b[v] == '\n' || b[v] == '\t' || b[v] == '\r'))
			v++;
		if (*seen >= dim || v >= e)
			break;
		bool neg = b[v] == '-';
		uint64_t d = v + neg, q = d;
		while (q < e && (unsigned)(b[q] - '0') < 10)
			q++;
		if (q == d)
			break;
		if (q < e && b[q] == '.')
			for (q++; q < e && (unsigned)(b[q] - '0') < 10; q++)
				;
		double x, r;
		if (q >= e || !(b[q] == ',' || b[q] == ' ' || b[q] == '}' || b[q] == '\n') ||
		    !literal_fast_decimal(b, d, q, neg, &x) || !literal_round(ff, x, &r) ||
		    (ff->no_zero && (x <= 0 || r == 0)))
			break;
		++*seen;
		++*written;
		p = q;
	}
	if (p != P->tok.start) {
		P->pos = p;
		literal_next(P);
	}
}

/* Walks one array literal (ParseDenseLiteral): from the current token to
 * just after its closing '}' (or its single value for rank 0). */
static bool literal_dense(struct literal_parser *P, const struct hlo_shape *s, struct literal_dense_info *info)
{
	struct literal_value v;
	info->written = 0;
	info->elided = false;
	if (!literal_shape_ok(P, s))
		return false;
	if (s->rank == 0) {
		if (P->tok.kind == LT_LBRACE)
			return literal_fail(P, P->tok.start, P->tok.end,
					"expected a scalar value for %s[], found '{'", literal_type_name(s->type));
		if (P->tok.kind == LT_DOTS)
			return literal_fail(P, P->tok.start, P->tok.end,
					"'...' may only appear inside the outermost braces of an array");
		if (!literal_value_start(P->tok.kind)) {
			char what[64];
			snprintf(what, sizeof what, "a value for %s[]", literal_type_name(s->type));
			return literal_expected(P, what);
		}
		info->written = 1;
		return literal_read(P, s->type, &v);
	}
	if (P->tok.kind != LT_LBRACE) {
		char what[64];
		snprintf(what, sizeof what, "'{' to start a rank-%" PRIu32 " literal", s->rank);
		return literal_expected(P, what);
	}
	const uint32_t R = s->rank;
	int64_t local[16], *seen = R <= 16 ? local : xcalloc(R, sizeof *seen);
	uint32_t nest = 0;
	bool ok = true;
	memset(local, 0, sizeof local);
	do {
		const struct literal_token *t = &P->tok;
		switch (t->kind) {
		case LT_LBRACE:
			if (nest == R) {
				ok = literal_fail(P, t->start, t->end,
					      "literal is nested deeper than its rank (%" PRIu32 ")", R);
				break;
			}
			nest++;
			if (nest > 1 && ++seen[nest - 2] > s->dims[nest - 2]) {
				ok = literal_too_many(P, s, seen, nest - 2);
				break;
			}
			literal_next(P);
			break;
		case LT_RBRACE:
			nest--;
			if (seen[nest] != s->dims[nest]) {
				char idx[96] = "";
				if (nest > 0)
					literal_index_str(idx, sizeof idx, seen, nest);
				ok = literal_fail(P, t->start, t->end, "expected %" PRId64 " elements%s, found %" PRId64,
					      s->dims[nest], idx, seen[nest]);
				break;
			}
			seen[nest] = 0;
			literal_next(P);
			break;
		case LT_DOTS:
			if (nest != 1) {
				ok = literal_fail(P, t->start, t->end,
					      "'...' may only appear inside the outermost braces of an array");
				break;
			}
			seen[0] = s->dims[0];
			info->elided = true;
			literal_next(P);
			break;
		case LT_COMMA:
			literal_next(P);  /* commas are optional separators */
			break;
		case LT_ERROR:
			ok = false;
			break;
		default:
			if (!literal_value_start(t->kind)) {
				ok = literal_expected(P, "'}'");
				break;
			}
			if (t->kind == LT_LPAREN && literal_classify(s->type) != LC_COMPLEX) {
				ok = literal_read(P, s->type, &v);  /* reports the stray '(' */
				break;
			}
			if (nest != R) {
				ok = literal_fail(P, t->start, t->end,
					      "expected '{' for dimension %" PRIu32 " of a rank-%" PRIu32
					      " literal, found a value", nest, R);
				break;
			}
			if (++seen[R - 1] > s->dims[R - 1]) {
				ok = literal_too_many(P, s, seen, R - 1);
				break;
			}
			info->written++;
			ok = literal_read(P, s->type, &v);
			if (ok && literal_classify(s->type) == LC_FLOAT)
				literal_dense_floats(P, literal_float_fmt(s->type), &seen[R - 1], s->dims[R - 1],
						     &info->written);
			break;
		}
		if (P->failed)
			ok = false;
	} while (ok && nest > 0);
	if (seen != local)
		free(seen);
	return ok;
}

struct literal_frame {
	const struct hlo_shape *s;
	uint32_t next;      /* next tuple element to read */
};

struct literal_walker {
	FILE *out;          /* printing when non-NULL */
	uint64_t written;
	bool elided;
};

static bool literal_print_array(struct literal_parser *P, const struct hlo_shape *s, FILE *out);

/* One leaf array: checked, or printed (after a checking pre-pass that tells
 * whether it was elided). */
static bool literal_leaf(struct literal_parser *P, const struct hlo_shape *s, struct literal_walker *w)
{
	struct literal_dense_info info;
	struct literal_parser save = *P;
	if (!literal_dense(P, s, &info))
		return false;
	w->written += info.written;
	w->elided |= info.elided;
	if (!w->out)
		return true;
	if (info.elided) {
		fputs("{...}", w->out);
		return true;
	}
	struct literal_parser after = *P;
	*P = save;
	if (!literal_print_array(P, s, w->out))
		return false;
	*P = after;
	return true;
}

/* Walks the whole literal for shape s without recursion: tuples keep an
 * explicit stack of frames (their elements may be separated by commas). */
static bool literal_walk(struct literal_parser *P, const struct hlo_shape *s, struct literal_walker *w)
{
	if (s->type != PT_TUPLE)
		return literal_leaf(P, s, w);
	if (P->tok.kind == LT_LBRACE) {
		/* XLA's default printer (JAX's as_text()) writes every tuple
		 * constant as "{...}".  XLA's parser rejects that; a linter of
		 * such dumps must read it, so the whole tuple may be elided. */
		uint64_t brace = P->tok.start;
		literal_next(P);
		if (P->tok.kind == LT_DOTS) {
			literal_next(P);
			if (!literal_accept(P, LT_RBRACE, "'}' after '{...'"))
				return false;
			w->elided = true;
			if (w->out)
				fputs("{...}", w->out);
			return true;
		}
		return literal_fail(P, brace, brace + 1, "expected '(' to start a tuple literal, found '{'");
	}
	if (!literal_accept(P, LT_LPAREN, "'(' to start a tuple literal"))
		return false;
	if (w->out)
		fputs("( ", w->out);
	size_t n = 1, cap = 8;
	struct literal_frame *st = xmalloc(cap * sizeof *st);
	bool ok = true;
	st[0].s = s;
	st[0].next = 0;
	while (ok && n > 0) {
		struct literal_frame *fr = &st[n - 1];
		if (fr->next == fr->s->rank) {
			char what[64];
			snprintf(what, sizeof what, "')' after the %" PRIu32 " tuple elements", fr->s->rank);
			ok = literal_accept(P, LT_RPAREN, what);
			if (ok && w->out)
				fputs(" )", w->out);
			n--;
			continue;
		}
		if (fr->next > 0) {
			if (P->tok.kind == LT_COMMA)
				literal_next(P);  /* XLA does not insist on the comma */
			if (w->out)
				fputs(", ", w->out);
		}
		const struct hlo_shape *es = fr->s->elems ? fr->s->elems[fr->next] : NULL;
		fr->next++;
		if (!es) {
			ok = literal_fail(P, P->tok.start, P->tok.end, "tuple shape has no element shape");
		} else if (es->type == PT_TUPLE) {
			ok = literal_accept(P, LT_LPAREN, "'(' to start a tuple element");
			if (ok && w->out)
				fputs("( ", w->out);
			if (ok) {
				if (n == cap)
					st = xreallocarray(st, cap *= 2, sizeof *st);
				st[n].s = es;
				st[n].next = 0;
				n++;
			}
		} else {
			ok = literal_leaf(P, es, w);
		}
		if (P->failed)
			ok = false;
	}
	free(st);
	return ok;
}

static bool literal_begin(struct literal_parser *P, const struct hlo_file *f, struct span lit,
		      const struct hlo_shape *shape, struct literal_error *err)
{
	memset(P, 0, sizeof *P);
	P->err = err;
	if (err) {
		err->span = lit;
		err->msg[0] = 0;
	}
	if (!f || !f->src || span_is_none(lit) || lit.start > lit.end || lit.end > f->src->len) {
		P->failed = true;
		if (err)
			snprintf(err->msg, sizeof err->msg, "constant has no literal");
		return false;
	}
	P->buf = f->src->buf;
	P->pos = lit.start;
	P->end = lit.end;
	if (!shape) {
		P->tok.start = lit.start;
		P->tok.end = lit.end;
		return literal_fail(P, lit.start, lit.end, "constant has no shape");
	}
	literal_next(P);
	return literal_accept(P, LT_LPAREN, "'(' before the literal");
}

static bool literal_finish(struct literal_parser *P)
{
	if (!literal_accept(P, LT_RPAREN, "')' after the literal"))
		return false;
	if (P->tok.kind != LT_END)
		return literal_expected(P, "the end of the literal");
	return true;
}

bool literal_check(const struct hlo_file *f, struct span lit, const struct hlo_shape *shape,
		   struct literal_error *err)
{
	struct literal_parser P;
	struct literal_walker w = { NULL, 0, false };
	return literal_begin(&P, f, lit, shape, err) && literal_walk(&P, shape, &w) && literal_finish(&P);
}

uint64_t literal_count(const struct hlo_file *f, struct span lit, const struct hlo_shape *shape,
		       bool *elided)
{
	struct literal_parser P;
	struct literal_walker w = { NULL, 0, false };
	bool ok = literal_begin(&P, f, lit, shape, NULL) && literal_walk(&P, shape, &w) && literal_finish(&P);
	if (elided)
		*elided = ok && w.elided;
	return ok ? w.written : 0;
}

/* ---- Printing ---- */

/* Formats a float component as XLA's RoundTripFpToString does for type. */
static void literal_format_fp(char *buf, size_t cap, enum ptype type, const struct literal_fp *x)
{
	const struct literal_float *ff = literal_float_fmt(type);
	if (x->nan) {
		int n = snprintf(buf, cap, "%snan", x->neg ? "-" : "");
		uint64_t quiet = ff->nan == LN_IEEE ? (uint64_t)1 << (ff->mant - 1) : 0;
		if (ff->nan == LN_IEEE && x->payload != quiet && n > 0 && (size_t)n < cap)
			snprintf(buf + n, cap - (size_t)n, "(0x%" PRIx64 ")", x->payload);
		return;
	}
	if (ff == &fmt_f32) {
		/* tsl FloatToBuffer: FLT_DIG digits unless they do not round-trip. */
		float v = (float)x->v;
		snprintf(buf, cap, "%.*g", FLT_DIG, (double)v);
		if (strtof(buf, NULL) != v)
			snprintf(buf, cap, "%.*g", FLT_DIG + 3, (double)v);
	} else if (ff == &fmt_f64) {
		snprintf(buf, cap, "%.*g", DBL_DIG, x->v);
		if (strtod(buf, NULL) != x->v)
			snprintf(buf, cap, "%.*g", DBL_DIG + 2, x->v);
	} else {
		snprintf(buf, cap, "%.*g", ff->digits, x->v);
	}
}

static void literal_print_value(FILE *out, enum ptype type, bool in_array, const struct literal_value *v)
{
	char a[64], b[64];
	switch (literal_classify(type)) {
	case LC_PRED:
		fputs(in_array ? (v->i ? "1" : "0") : (v->i ? "true" : "false"), out);
		break;
	case LC_SINT:
		fprintf(out, "%" PRId64, v->i);
		break;
	case LC_UINT:
		fprintf(out, "%" PRIu64, (uint64_t)v->i);
		break;
	case LC_FLOAT:
		literal_format_fp(a, sizeof a, type, &v->re);
		fputs(a, out);
		break;
	case LC_COMPLEX:
		literal_format_fp(a, sizeof a, type, &v->re);
		literal_format_fp(b, sizeof b, type, &v->im);
		fprintf(out, "(%s, %s)", a, b);
		break;
	case LC_NONE:
		break;
	}
}

/* Reads the next element of an already checked array literal. */
static bool literal_pull(struct literal_parser *P, enum ptype type, struct literal_value *v)
{
	while (P->tok.kind == LT_LBRACE || P->tok.kind == LT_RBRACE || P->tok.kind == LT_COMMA)
		literal_next(P);
	return literal_read(P, type, v);
}

/* Opening brace of level k (literal.cc DenseArrayPrintHelper, one-line). */
static void literal_open(FILE *out, const struct hlo_shape *s, uint32_t k, const int64_t *idx)
{
	uint32_t R = s->rank;
	if (R == 1) {
		fputc('{', out);
	} else if (k == R - 1) {
		fputs(s->dims[k] <= 1 ? "{" : "{ ", out);
	} else if (R > 3 && k > 0) {
		fprintf(out, "{ /*i%" PRIu32 "=%" PRId64 "*/%s", k - 1, idx[k - 1], s->dims[k] > 0 ? " " : "");
	} else {
		fputs("{ ", out);
	}
}

static void literal_close(FILE *out, const struct hlo_shape *s, uint32_t k)
{
	uint32_t R = s->rank;
	if (R == 1)
		fputc('}', out);
	else if (k == R - 1)
		fputs(s->dims[k] <= 1 ? "}" : " }", out);
	else
		fputs(" }", out);
}

/* Prints a checked, non-elided array by walking its index space (an
 * odometer, no recursion) and pulling the elements in order. */
static bool literal_print_array(struct literal_parser *P, const struct hlo_shape *s, FILE *out)
{
	struct literal_value v;
	if (s->rank == 0) {
		if (!literal_pull(P, s->type, &v))
			return false;
		literal_print_value(out, s->type, false, &v);
		return true;
	}
	const uint32_t R = s->rank;
	int64_t local[16], *idx = R <= 16 ? local : xcalloc(R, sizeof *idx);
	uint32_t k = 0;
	bool ok = true;
	idx[0] = 0;
	literal_open(out, s, 0, idx);
	for (;;) {
		if (idx[k] < s->dims[k]) {
			if (k + 1 < R) {
				k++;
				idx[k] = 0;
				literal_open(out, s, k, idx);
				continue;
			}
			if (!literal_pull(P, s->type, &v)) {
				ok = false;
				break;
			}
			literal_print_value(out, s->type, true, &v);
			if (++idx[k] < s->dims[k])
				fputs(", ", out);
			continue;
		}
		literal_close(out, s, k);
		if (k == 0)
			break;
		k--;
		if (++idx[k] < s->dims[k])
			fputs(", ", out);
	}
	if (idx != local)
		free(idx);
	return ok;
}

void literal_print(FILE *out, const struct hlo_file *f, struct span lit,
		   const struct hlo_shape *shape, bool elide)
{
	struct literal_parser P;
	if (!literal_check(f, lit, shape, NULL)) {
		/* Echo the text between the parentheses. */
		if (f && f->src && !span_is_none(lit) && lit.start < lit.end && lit.end <= f->src->len) {
			uint64_t s = lit.start, e = lit.end;
			if (f->src->buf[s] == '(')
				s++;
			if (e > s && f->src->buf[e - 1] == ')')
				e--;
			fwrite(f->src->buf + s, 1, (size_t)(e - s), out);
		}
		return;
	}
	if (elide && (shape->type == PT_TUPLE || ir_shape_elements(shape) > 10)) {
		fputs("{...}", out);
		return;
	}
	struct literal_walker w = { out, 0, false };
	if (literal_begin(&P, f, lit, shape, NULL))
		literal_walk(&P, shape, &w);
}

static bool literal_scalar(const struct hlo_file *f, struct span lit, const struct hlo_shape *shape,
		       struct literal_value *v)
{
	struct literal_parser P;
	if (!shape || shape->type == PT_TUPLE || shape->rank != 0 || !literal_check(f, lit, shape, NULL))
		return false;
	return literal_begin(&P, f, lit, shape, NULL) && literal_read(&P, shape->type, v);
}

bool literal_scalar_int(const struct hlo_file *f, struct span lit, const struct hlo_shape *shape,
			int64_t *out)
{
	struct literal_value v;
	enum literal_class c = shape ? literal_classify(shape->type) : LC_NONE;
	if ((c != LC_PRED && c != LC_SINT && c != LC_UINT) || !literal_scalar(f, lit, shape, &v))
		return false;
	*out = v.i;
	return true;
}

bool literal_scalar_float(const struct hlo_file *f, struct span lit, const struct hlo_shape *shape,
			  double *out)
{
	struct literal_value v;
	if (!shape || literal_classify(shape->type) != LC_FLOAT || !literal_scalar(f, lit, shape, &v))
		return false;
	*out = v.re.nan ? (v.re.neg ? -NAN : NAN) : v.re.v;
	return true;
}
