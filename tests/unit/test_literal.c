/* test_literal.c - literal_check / literal_print on hand-built shapes and
 * sources (no parser needed): valid and invalid literals for every element
 * type's edges, XLA's print forms, and a mutation fuzz loop that checks
 * print(check(x)) is a fixed point.  Suite unit_literal_cases for
 * tests/unit/main.c; -DLITERAL_TEST_MAIN gives it a main of its own. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arena.h"
#include "ir.h"
#include "literal.h"
#include "unit.h"

extern const struct unit_case unit_literal_cases[];

/* ---- Fixtures: a fake file and a tiny shape reader ---- */

static struct arena arena;
static struct source src;
static struct hlo_file file;

/* Makes text the whole source; returns the span of all of it. */
static struct span set_source(const char *text, size_t n)
{
	static char *buf;
	free(buf);
	buf = xmalloc(n + 2);
	memcpy(buf, text, n);
	buf[n] = buf[n + 1] = 0;
	src.buf = buf;
	src.len = n;
	src.path = "<test>";
	file.src = &src;
	return span_make(0, n);
}

static enum ptype type_named(const char *s, size_t n)
{
	static const struct { const char *name; enum ptype t; } types[] = {
#define TYPE(e, text, bits) { text, PT_##e },
#include "types.def"
#undef TYPE
	};
	for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
		if (strlen(types[i].name) == n && !memcmp(types[i].name, s, n))
			return types[i].t;
	return PT_INVALID;
}

/* "f32[2,3]", "f32[<=3]", "f32[?]", "(f32[], (s32[2]))". */
static struct hlo_shape *read_shape(const char **pp)
{
	const char *p = *pp;
	struct hlo_shape *s = arena_alloc(&arena, sizeof *s);
	while (*p == ' ')
		p++;
	if (*p == '(') {
		struct hlo_shape *elems[64];
		uint32_t n = 0;
		p++;
		while (*p == ' ')
			p++;
		while (*p != ')') {
			elems[n++] = read_shape(&p);
			while (*p == ' ' || *p == ',')
				p++;
		}
		p++;
		s->type = PT_TUPLE;
		s->rank = n;
		s->elems = arena_array(&arena, n ? n : 1, sizeof *s->elems);
		memcpy(s->elems, elems, n * sizeof *elems);
		*pp = p;
		return s;
	}
	const char *t = p;
	while (isalnum((unsigned char)*p))
		p++;
	s->type = type_named(t, (size_t)(p - t));
	if (*p == '[') {
		int64_t dims[64];
		uint8_t kinds[64];
		uint32_t n = 0;
		bool dyn = false;
		p++;
		while (*p != ']') {
			kinds[n] = DIM_STATIC;
			if (*p == '?') {
				kinds[n] = DIM_UNBOUNDED;
				dims[n] = -1;
				p++;
				dyn = true;
			} else {
				if (p[0] == '<' && p[1] == '=') {
					kinds[n] = DIM_BOUNDED;
					p += 2;
					dyn = true;
				}
				dims[n] = strtoll(p, (char **)&p, 10);
			}
			n++;
			if (*p == ',')
				p++;
		}
		p++;
		s->rank = n;
		s->dims = arena_array(&arena, n ? n : 1, sizeof *s->dims);
		memcpy(s->dims, dims, n * sizeof *dims);
		if (dyn) {
			s->dim_kinds = arena_array(&arena, n, 1);
			memcpy(s->dim_kinds, kinds, n);
		}
	}
	*pp = p;
	return s;
}

static struct hlo_shape *shape_of(const char *text)
{
	const char *p = text;
	return read_shape(&p);
}

static char *print_string(struct span sp, const struct hlo_shape *s, bool elide)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *out = open_memstream(&buf, &n);
	literal_print(out, &file, sp, s, elide);
	fclose(out);
	return buf;
}

/* The literal must be valid and print as want (long form, no elision). */
#define OK(shape, lit, want) ok_case(__FILE__, __LINE__, shape, lit, want, true)
/* Same, for values whose printed form does not re-read the same (as in XLA:
 * a float -0 prints "-0", which lexes as the integer 0). */
#define OK_NOT_FIXED(shape, lit, want) ok_case(__FILE__, __LINE__, shape, lit, want, false)
static void ok_case(const char *fl, int line, const char *shape, const char *lit, const char *want,
		    bool fixed)
{
	struct hlo_shape *s = shape_of(shape);
	struct span sp = set_source(lit, strlen(lit));
	struct literal_error err;
	if (!literal_check(&file, sp, s, &err)) {
		unit_fail(fl, line, "%s %s rejected: %s (at offset %llu)", shape, lit, err.msg,
			  (unsigned long long)err.span.start);
		return;
	}
	char *got = print_string(sp, s, false);
	if (strcmp(got, want) != 0)
		unit_fail(fl, line, "%s %s printed\n  \"%s\"\nexpected\n  \"%s\"", shape, lit, got, want);
	if (!fixed) {
		free(got);
		return;
	}
	/* Printing is a fixed point: the printed text checks and prints the same. */
	size_t glen = strlen(got);
	char *again = xmalloc(glen + 3);
	again[0] = '(';
	memcpy(again + 1, got, glen);
	again[glen + 1] = ')';
	again[glen + 2] = 0;
	struct span sp2 = set_source(again, strlen(again));
	if (!literal_check(&file, sp2, s, &err)) {
		unit_fail(fl, line, "%s printed form (%s) rejected: %s", shape, got, err.msg);
	} else {
		char *got2 = print_string(sp2, s, false);
		if (strcmp(got2, got) != 0)
			unit_fail(fl, line, "%s reprint \"%s\" != \"%s\"", shape, got2, got);
		free(got2);
	}
	free(again);
	free(got);
}

/* The literal must be rejected with exactly msg, located at text at. */
#define BAD(shape, lit, msg, at) bad_case(__FILE__, __LINE__, shape, lit, msg, at)
static void bad_case(const char *fl, int line, const char *shape, const char *lit, const char *msg,
		     const char *at)
{
	struct hlo_shape *s = shape_of(shape);
	struct span sp = set_source(lit, strlen(lit));
	struct literal_error err;
	if (literal_check(&file, sp, s, &err)) {
		unit_fail(fl, line, "%s %s accepted, expected \"%s\"", shape, lit, msg);
		return;
	}
	if (strcmp(err.msg, msg) != 0)
		unit_fail(fl, line, "%s %s: message\n  \"%s\"\nexpected\n  \"%s\"", shape, lit, err.msg, msg);
	if (err.span.start > err.span.end || err.span.start > src.len ||
	    strncmp(src.buf + err.span.start, at, strlen(at)) != 0)
		unit_fail(fl, line, "%s %s: error at offset %llu (\"%s\"), expected at \"%s\"", shape, lit,
			  (unsigned long long)err.span.start,
			  err.span.start <= src.len ? src.buf + err.span.start : "?", at);
	if (literal_count(&file, sp, s, NULL) != 0)
		unit_fail(fl, line, "count of an invalid literal is not 0");
	/* Invalid literals print verbatim (without the parentheses). */
	char *got = print_string(sp, s, false);
	size_t n = strlen(lit);
	if (n >= 2 && lit[0] == '(' && lit[n - 1] == ')' &&
	    (strlen(got) != n - 2 || strncmp(got, lit + 1, n - 2) != 0))
		unit_fail(fl, line, "invalid literal echoed as \"%s\"", got);
	free(got);
}

/* ---- Cases ---- */

static void literal_xla_round_trips(void)
{
	/* Forms taken from XLA's printer output (parser round-trip tests). */
	OK("f32[]", "(3.14)", "3.14");
	OK("f32[]", "(-5.123)", "-5.123");
	OK("f32[]", "(0.1)", "0.1");
	OK("f32[]", "(2.1)", "2.1");
	OK("f32[]", "(-inf)", "-inf");
	OK("f32[]", "(42)", "42");
	OK("bf16[]", "(500)", "500");
	OK("f16[]", "(500)", "500");
	OK("s32[]", "(-42)", "-42");
	OK("pred[]", "(true)", "true");
	OK("u64[]", "(9223372036854775807)", "9223372036854775807");
	OK("u64[]", "(9223372036854775808)", "9223372036854775808");
	OK("f32[0]", "({})", "{}");
	OK("f32[2,0,4,3]", "({ { /*i0=0*/ }, { /*i0=1*/ } })", "{ { /*i0=0*/ }, { /*i0=1*/ } }");
	OK("f32[6]", "({nan, 7, nan, -1, inf, -inf})", "{nan, 7, nan, -1, inf, -inf}");
	OK("f8e4m3fn[3]", "({nan, 7, -nan})", "{nan, 7, -nan}");
	OK("f8e4m3b11fnuz[2]", "({-nan, 7})", "{-nan, 7}");
	OK("pred[2,3]", "({ { 0, 1, 0 }, { 1, 0, 1 } })", "{ { 0, 1, 0 }, { 1, 0, 1 } }");
	OK("f32[3,2,1,1]",
	   "({ { /*i0=0*/ { /*i1=0*/ {-1} }, { /*i1=1*/ {4.1} } }, { /*i0=1*/ { /*i1=0*/ {2} }, { /*i1=1*/ {4.1} } }, { /*i0=2*/ { /*i1=0*/ {5} }, { /*i1=1*/ {4.4} } } })",
	   "{ { /*i0=0*/ { /*i1=0*/ {-1} }, { /*i1=1*/ {4.1} } }, { /*i0=1*/ { /*i1=0*/ {2} }, { /*i1=1*/ {4.1} } }, { /*i0=2*/ { /*i1=0*/ {5} }, { /*i1=1*/ {4.4} } } }");
	OK("f32[2,2,1,2]",
	   "({ { /*i0=0*/ { /*i1=0*/ { 1, 2 } }, { /*i1=1*/ { 3, 4 } } }, { /*i0=1*/ { /*i1=0*/ { 5, 6 } }, { /*i1=1*/ { 7, 8 } } } })",
	   "{ { /*i0=0*/ { /*i1=0*/ { 1, 2 } }, { /*i1=1*/ { 3, 4 } } }, { /*i0=1*/ { /*i1=0*/ { 5, 6 } }, { /*i1=1*/ { 7, 8 } } } }");
	OK("f32[3,3,3]",
	   "({ { { 0, 1, 2 }, { 3, 4, 5 }, { 6, 7, 8 } }, { { 9, 10, 11 }, { 12, 13, 14 }, { 15, 16, 17 } }, { { 18, 19, 20 }, { 21, 22, 23 }, { 24, 25, 26 } } })",
	   "{ { { 0, 1, 2 }, { 3, 4, 5 }, { 6, 7, 8 } }, { { 9, 10, 11 }, { 12, 13, 14 }, { 15, 16, 17 } }, { { 18, 19, 20 }, { 21, 22, 23 }, { 24, 25, 26 } } }");
	OK("s32[1,3]", "({ { 0, 1, 2 } })", "{ { 0, 1, 2 } }");
	OK("c64[2]", "({(1, 2), (-inf, nan)})", "{(1, 2), (-inf, nan)}");
	OK("c128[2]", "({(1, 2), (-inf, nan)})", "{(1, 2), (-inf, nan)}");
	OK("(f32[2,1], f32[2])", "(( { {1}, {2} }, {2, 42} ))", "( { {1}, {2} }, {2, 42} )");
	OK("bf16[2]", "({-nan(0x7f), -nan(0x3f)})", "{-nan(0x7f), -nan(0x3f)}");
	OK("bf16[2]", "({-nan, -nan})", "{-nan, -nan}");
	OK("f32[1]", "({12345 /*bar*/})", "{12345}");
	/* MinMaxValues */
	OK("bf16[2]", "({-3.39e+38, 3.39e+38})", "{-3.39e+38, 3.39e+38}");
	OK("c128[2]", "({(-1.79769e+308, 1.79769e+308), (1.79769e+308, -1.79769e+308)})",
	   "{(-1.79769e+308, 1.79769e+308), (1.79769e+308, -1.79769e+308)}");
	OK("c64[2]", "({(-3.40282e+38, 3.40282e+38), (3.40282e+38, -3.40282e+38)})",
	   "{(-3.40282e+38, 3.40282e+38), (3.40282e+38, -3.40282e+38)}");
	OK("f16[2]", "({-65504, 65504})", "{-65504, 65504}");
	OK("f32[2]", "({-3.40282e+38, 3.40282e+38})", "{-3.40282e+38, 3.40282e+38}");
	OK("f64[2]", "({-1.79769e+308, 1.79769e+308})", "{-1.79769e+308, 1.79769e+308}");
	OK("s16[2]", "({-32768, 32767})", "{-32768, 32767}");
	OK("s32[2]", "({-2147483648, 2147483647})", "{-2147483648, 2147483647}");
	OK("s4[2]", "({-8, 7})", "{-8, 7}");
	OK("s8[2]", "({-128, 127})", "{-128, 127}");
	OK("u16[2]", "({0, 65535})", "{0, 65535}");
	OK("u32[2]", "({0, 4294967295})", "{0, 4294967295}");
	OK("u4[2]", "({0, 15})", "{0, 15}");
	OK("u8[2]", "({0, 255})", "{0, 255}");
	/* From real dumps. */
	OK("f32[]", "(1e-05)", "1e-05");
	OK("f32[]", "(0.797884583)", "0.797884583");
	OK("f32[]", "(1.42108547e-14)", "1.42108547e-14");
	OK("f32[]", "(-2.38197633e+38)", "-2.38197633e+38");
	OK("f64[]", "(3.1415926535897931)", "3.1415926535897931");
	OK("f64[]", "(1.602176634e-16)", "1.602176634e-16");
	OK("f64[]", "(2.8198308758399997e-12)", "2.8198308758399997e-12");
	OK("bf16[]", "(0.1001)", "0.1001");
	OK("bf16[]", "(1.001e-08)", "1.001e-08");
	OK("c64[]", "((nan, 0))", "(nan, 0)");
}

static void literal_rejects_xla_bad_inputs(void)
{
	/* The literal cases of the XLA parser's negative tests. */
	BAD("f32[2,3]", "(}{1, 2, 3}, {4, 5, 6}})",
	    "expected '{' to start a rank-2 literal, found '}'", "}{1");
	BAD("f32[2]", "({1,{2}})", "literal is nested deeper than its rank (1)", "{2}");
	BAD("f32[2,3]", "({1, 2, 3, 4, 5, 6})",
	    "expected '{' for dimension 1 of a rank-2 literal, found a value", "1,");
	BAD("f32[2,3,2]", "({{{1, 2}, {3, 4}, {5, 6}, {7, 8}, {9, 10}, {11, 12}}})",
	    "expected 3 elements in element [0], found more", "{7, 8}");
	BAD("f16[]", "(-65520)", "value -65520 is out of range for f16", "-65520");
	BAD("bf16[]", "(1e100)", "value 1e100 is out of range for bf16", "1e100");
	BAD("u4[]", "(-1)", "value -1 is out of range for u4", "-1");
	BAD("u4[]", "(16)", "value 16 is out of range for u4", "16");
	BAD("s4[]", "(-9)", "value -9 is out of range for s4", "-9");
	BAD("s4[]", "(8)", "value 8 is out of range for s4", "8");
	BAD("u32[]", "(4294967296)", "value 4294967296 is out of range for u32", "4294967296");
	BAD("c64[]", "((1e100, 0))", "real part 1e100 is out of range for c64", "1e100");
	BAD("c64[]", "((0, -1e100))", "imaginary part -1e100 is out of range for c64", "-1e100");
	BAD("f64[]", "(1.8e308)", "value 1.8e308 is out of range for f64", "1.8e308");
	BAD("f64[]", "(-1.8e308)", "value -1.8e308 is out of range for f64", "-1.8e308");
	BAD("bf16[1]", "({nan(0x3ff)})", "nan payload 0x3ff is out of range for bf16 (at most 0x7f)",
	    "nan(0x3ff)");
	BAD("f8e4m3fn[1]", "({nan(0x1)})", "f8e4m3fn does not support nan payloads (0x1)", "nan(0x1)");
	BAD("f8e4m3b11fnuz[1]", "({nan(0x1)})", "f8e4m3b11fnuz does not support nan payloads (0x1)",
	    "nan(0x1)");
}

static void literal_integers(void)
{
	OK("s1[2]", "({-1, 0})", "{-1, 0}");
	BAD("s1[]", "(1)", "value 1 is out of range for s1", "1");
	OK("u1[2]", "({0, 1})", "{0, 1}");
	BAD("u1[]", "(2)", "value 2 is out of range for u1", "2");
	OK("s2[2]", "({-2, 1})", "{-2, 1}");
	BAD("s2[]", "(-3)", "value -3 is out of range for s2", "-3");
	OK("u2[]", "(3)", "3");
	BAD("u2[]", "(4)", "value 4 is out of range for u2", "4");
	BAD("s8[]", "(128)", "value 128 is out of range for s8", "128");
	BAD("u8[]", "(256)", "value 256 is out of range for u8", "256");
	BAD("s16[]", "(-32769)", "value -32769 is out of range for s16", "-32769");
	BAD("u16[]", "(65536)", "value 65536 is out of range for u16", "65536");
	BAD("s32[]", "(2147483648)", "value 2147483648 is out of range for s32", "2147483648");
	/* u64 takes the int64 bits as unsigned: -1 wraps (XLA test ConstantUnsignedUnderflow). */
	OK("u64[]", "(-1)", "18446744073709551615");
	OK("u64[]", "(18446744073709551615)", "18446744073709551615");
	BAD("u64[]", "(18446744073709551616)", "integer 18446744073709551616 is out of range",
	    "18446744073709551616");
	/* Non-negative ints above INT64_MAX wrap in XLA's lexer, so s64 sees INT64_MIN. */
	OK("s64[]", "(9223372036854775808)", "-9223372036854775808");
	OK("s64[]", "(-9223372036854775808)", "-9223372036854775808");
	BAD("s64[]", "(-9223372036854775809)", "integer -9223372036854775809 is out of range", "-9223");
	OK("s32[]", "(-0)", "0");
	OK("s32[]", "(007)", "7");
	BAD("s32[]", "(1.5)", "expected an integer for s32, found '1.5'", "1.5");
	BAD("s32[]", "(true)", "expected an integer for s32, found 'true'", "true");
	BAD("u8[]", "(inf)", "expected an integer for u8, found 'inf'", "inf");
	BAD("s32[]", "((1, 2))", "expected an integer for s32, found '('", "(1");
	OK("pred[]", "(false)", "false");
	OK("pred[]", "(2)", "true");
	OK("pred[]", "(-1)", "true");
	OK("pred[]", "(0)", "false");
	OK("pred[3]", "({1, 0, true})", "{1, 0, 1}");
	OK("pred[2]", "({false, 7})", "{0, 1}");
	BAD("pred[]", "(1.0)", "expected true, false or an integer for pred, found '1.0'", "1.0");
	BAD("pred[]", "(inf)", "expected true, false or an integer for pred, found 'inf'", "inf");
}

static void literal_ieee_floats(void)
{
	/* f32: FLT_DIG digits unless they do not round-trip, then 9. */
	OK("f32[]", "(3e+2)", "300");
	OK("f32[]", "(3.4028235e38)", "3.40282347e+38");
	BAD("f32[]", "(3.5e38)", "value 3.5e38 is out of range for f32", "3.5e38");
	OK("f32[]", "(3.4028235677973362e38)", "3.40282347e+38");  /* rounds down to max */
	/* The exact tie between max and 2^128 rounds to even: infinity. */
	BAD("f32[]", "(3.4028235677973366e38)", "value 3.4028235677973366e38 is out of range for f32",
	    "3.40");
	OK("f32[]", "(1e-50)", "0");
	OK_NOT_FIXED("f32[]", "(-1e-50)", "-0");
	OK_NOT_FIXED("f32[]", "(-0.0)", "-0");
	OK("f32[]", "(-0)", "0");
	OK("f32[]", "(1e-45)", "1.4013e-45");  /* 6 digits already round-trip */
	OK("f32[]", "(0.3)", "0.3");
	OK("f32[]", "(16777216.5)", "16777216");
	OK("f32[]", "(0.333333343)", "0.333333343");
	OK("f32[]", "(5.)", "5");
	OK("f32[]", "(-.5)", "-0.5");
	OK("f32[]", "(1E3)", "1000");
	OK("f32[]", "(16777217)", "16777216");
	OK("f32[]", "(18446744073709551615)", "-1");  /* the int wraps first, as in XLA */
	OK("f32[]", "(nan)", "nan");
	OK("f32[]", "(-nan)", "-nan");
	OK("f32[]", "(nan(0x7f))", "nan(0x7f)");
	OK("f32[]", "(nan(0x400000))", "nan");
	OK("f32[]", "(-nan(0x7fffff))", "-nan(0x7fffff)");
	BAD("f32[]", "(nan(0x800000))", "nan payload 0x800000 is out of range for f32 (at most 0x7fffff)",
	    "nan(");
	OK("f32[]", "(inf)", "inf");
	BAD("f32[]", "(1e39)", "value 1e39 is out of range for f32", "1e39");
	BAD("f32[]", "(1e400)", "value 1e400 is out of range for f32", "1e400");
	/* f64: DBL_DIG digits unless they do not round-trip, then 17. */
	OK("f64[]", "(0.1)", "0.1");
	OK("f64[]", "(1.7976931348623157e308)", "1.7976931348623157e+308");
	OK("f64[]", "(4.9406564584124654e-324)", "4.94065645841247e-324");
	OK("f64[]", "(0.30000000000000004)", "0.30000000000000004");
	OK("f64[]", "(1e-400)", "0");
	OK("f64[]", "(nan(0x1))", "nan(0x1)");
	OK("f64[]", "(nan(0x8000000000000))", "nan");
	OK("f64[]", "(nan(0xfffffffffffff))", "nan(0xfffffffffffff)");
	BAD("f64[]", "(nan(0x10000000000000))",
	    "nan payload nan(0x10000000000000) must be between 0x1 and 0xfffffffffffff", "nan(");
	BAD("f64[]", "(nan(0x0))", "nan payload nan(0x0) must be between 0x1 and 0xfffffffffffff", "nan(");
	BAD("f64[]", "(nan(0x))", "malformed nan payload", "nan(");
	BAD("f64[]", "(nan(0x1 )", "malformed nan payload", "nan(");
	BAD("f64[]", "(nan(0xg))", "malformed nan payload", "nan(");
	BAD("f64[]", "(nan(1))", "expected ')' after the literal, found '('", "(1)");
	BAD("f64[1]", "({nan(1)})", "unexpected '(' in literal: parentheses are only valid for complex values",
	    "(1)");
	BAD("f64[]", "(9223372036854775807.5e400)",
	    "value 9223372036854775807.5e400 is out of range for f64", "9223");
	/* f16: max 65504, %.5g. */
	OK("f16[]", "(65504)", "65504");
	OK("f16[]", "(65519)", "65504");
	BAD("f16[]", "(65520)", "value 65520 is out of range for f16", "65520");
	OK("f16[]", "(0.1)", "0.099976");
	OK("f16[]", "(6e-8)", "5.9605e-08");
	OK("f16[]", "(2e-8)", "0");
	OK("f16[]", "(nan(0x3ff))", "nan(0x3ff)");
	OK("f16[]", "(nan(0x200))", "nan");
	BAD("f16[]", "(nan(0x400))", "nan payload 0x400 is out of range for f16 (at most 0x3ff)", "nan(");
	OK("f16[4]", "({1, -4, -65504, 0.015625})", "{1, -4, -65504, 0.015625}");
	/* bf16: max 0x1.fep127, %.4g. */
	OK("bf16[]", "(-65505)", "-6.554e+04");
	OK("bf16[]", "(0.1)", "0.1001");
	OK("bf16[]", "(3.3895313892515355e38)", "3.39e+38");
	BAD("bf16[]", "(3.4e38)", "value 3.4e38 is out of range for bf16", "3.4e38");
	OK("bf16[]", "(nan(0x40))", "nan");
	OK("bf16[]", "(nan(0x1))", "nan(0x1)");
	OK("bf16[]", "(-inf)", "-inf");
}

static void literal_small_floats(void)
{
	/* f8e5m2: IEEE-like, max 57344, 2-bit payloads. */
	OK("f8e5m2[]", "(57344)", "5.7e+04");
	OK("f8e5m2[]", "(61439)", "5.7e+04");
	BAD("f8e5m2[]", "(61440)", "value 61440 is out of range for f8e5m2", "61440");
	OK("f8e5m2[]", "(0.1)", "0.094");
	OK("f8e5m2[]", "(inf)", "inf");
	OK("f8e5m2[]", "(nan(0x1))", "nan(0x1)");
	OK("f8e5m2[]", "(nan(0x2))", "nan");
	BAD("f8e5m2[]", "(nan(0x4))", "nan payload 0x4 is out of range for f8e5m2 (at most 0x3)", "nan(");
	/* f8e4m3: IEEE-like, max 240. */
	OK("f8e4m3[]", "(240)", "240");
	OK("f8e4m3[]", "(247)", "240");
	BAD("f8e4m3[]", "(248)", "value 248 is out of range for f8e4m3", "248");
	OK("f8e4m3[]", "(-inf)", "-inf");
	OK("f8e4m3[]", "(nan(0x7))", "nan(0x7)");
	BAD("f8e4m3[]", "(nan(0x8))", "nan payload 0x8 is out of range for f8e4m3 (at most 0x7)", "nan(");
	/* f8e4m3fn: max 448 (its top mantissa is the NaN), no inf: inf becomes NaN. */
	OK("f8e4m3fn[]", "(448)", "448");
	OK("f8e4m3fn[]", "(464)", "448");
	BAD("f8e4m3fn[]", "(465)", "value 465 is out of range for f8e4m3fn", "465");
	OK("f8e4m3fn[]", "(inf)", "nan");
	OK("f8e4m3fn[]", "(-inf)", "-nan");
	OK("f8e4m3fn[]", "(0.1)", "0.102");
	OK_NOT_FIXED("f8e4m3fn[]", "(-0.0)", "-0");
	/* f8e4m3b11fnuz: max 30, one NaN (printed -nan), no -0. */
	OK("f8e4m3b11fnuz[]", "(30)", "30");
	BAD("f8e4m3b11fnuz[]", "(31)", "value 31 is out of range for f8e4m3b11fnuz", "31");
	OK("f8e4m3b11fnuz[]", "(nan)", "-nan");
	OK("f8e4m3b11fnuz[]", "(inf)", "-nan");
	OK("f8e4m3b11fnuz[]", "(-0.0)", "0");
	OK("f8e4m3b11fnuz[]", "(0.0009765625)", "0.000977");
	/* f8e4m3fnuz / f8e5m2fnuz */
	OK("f8e4m3fnuz[]", "(240)", "240");
	BAD("f8e4m3fnuz[]", "(256)", "value 256 is out of range for f8e4m3fnuz", "256");
	OK("f8e4m3fnuz[]", "(nan)", "-nan");
	BAD("f8e4m3fnuz[]", "(nan(0x2))", "f8e4m3fnuz does not support nan payloads (0x2)", "nan(");
	OK("f8e5m2fnuz[]", "(57344)", "5.7e+04");
	BAD("f8e5m2fnuz[]", "(65536)", "value 65536 is out of range for f8e5m2fnuz", "65536");
	OK("f8e5m2fnuz[]", "(-nan)", "-nan");
	BAD("f8e5m2fnuz[]", "(-nan(0x1))", "f8e5m2fnuz does not support nan payloads (0x1)", "-nan(");
	/* f8e3m4: IEEE-like, max 15.5, 4-bit payloads. */
	OK("f8e3m4[]", "(15.5)", "15.5");
	OK("f8e3m4[]", "(15.7)", "15.5");
	BAD("f8e3m4[]", "(15.75)", "value 15.75 is out of range for f8e3m4", "15.75");
	OK("f8e3m4[]", "(nan(0xf))", "nan(0xf)");
	OK("f8e3m4[]", "(nan(0x8))", "nan");
	BAD("f8e3m4[]", "(nan(0x10))", "nan payload 0x10 is out of range for f8e3m4 (at most 0xf)", "nan(");
	OK("f8e3m4[]", "(inf)", "inf");
	/* f8e8m0fnu: powers of two 2^-127..2^127, no zero, no sign, NaN only. */
	OK("f8e8m0fnu[]", "(1)", "1");
	OK("f8e8m0fnu[]", "(0.5)", "0.5");
	OK("f8e8m0fnu[]", "(3)", "2");   /* tie: to the even exponent */
	OK("f8e8m0fnu[]", "(6)", "8");
	OK("f8e8m0fnu[]", "(1.7014118346046923e38)", "1.7e+38");
	BAD("f8e8m0fnu[]", "(3e38)", "value 3e38 is out of range for f8e8m0fnu", "3e38");
	BAD("f8e8m0fnu[]", "(0)", "value 0 is out of range for f8e8m0fnu", "0");
	BAD("f8e8m0fnu[]", "(-1)", "value -1 is out of range for f8e8m0fnu", "-1");
	OK("f8e8m0fnu[]", "(nan)", "nan");
	OK("f8e8m0fnu[]", "(-nan)", "nan");
	OK("f8e8m0fnu[]", "(inf)", "nan");
	BAD("f8e8m0fnu[]", "(nan(0x1))", "f8e8m0fnu does not support nan payloads (0x1)", "nan(");
	/* f6 / f4: no NaN, no inf. */
	OK("f6e3m2fn[]", "(28)", "28");
	OK("f6e3m2fn[]", "(29)", "28");
	BAD("f6e3m2fn[]", "(30)", "value 30 is out of range for f6e3m2fn", "30");
	BAD("f6e3m2fn[]", "(nan)", "value nan is not representable in f6e3m2fn", "nan");
	BAD("f6e3m2fn[]", "(inf)", "value inf is not representable in f6e3m2fn", "inf");
	OK_NOT_FIXED("f6e3m2fn[]", "(-0.0)", "-0");
	OK("f6e2m3fn[]", "(7.5)", "7.5");
	BAD("f6e2m3fn[]", "(7.75)", "value 7.75 is out of range for f6e2m3fn", "7.75");
	OK("f6e2m3fn[]", "(0.1)", "0.125");
	OK("f4e2m1fn[]", "(6)", "6");
	OK("f4e2m1fn[]", "(6.9)", "6");
	BAD("f4e2m1fn[]", "(7)", "value 7 is out of range for f4e2m1fn", "7");
	OK("f4e2m1fn[]", "(0.25)", "0");
	OK("f4e2m1fn[]", "(0.75)", "1");
	BAD("f4e2m1fn[]", "(-nan)", "value -nan is not representable in f4e2m1fn", "-nan");
	BAD("f4e2m1fn[]", "(-inf)", "value -inf is not representable in f4e2m1fn", "-inf");
	BAD("f32[]", "(true)", "expected a number for f32, found 'true'", "true");
	BAD("f32[]", "((1, 2))", "unexpected '(' in literal: parentheses are only valid for complex values",
	    "(1");
}

static void literal_complex(void)
{
	OK("c64[]", "((1, 0))", "(1, 0)");
	OK("c64[]", "((0.1, -2.5e-3))", "(0.1, -0.0025)");
	OK("c128[]", "((0.1, 1e-300))", "(0.1, 1e-300)");
	OK("c64[]", "((nan(0x7f), -inf))", "(nan(0x7f), -inf)");
	/* Components are range-checked before rounding (unlike f32). */
	BAD("c64[]", "((3.4028235677973362e38, 0))",
	    "real part 3.4028235677973362e38 is out of range for c64", "3.40");
	BAD("c128[]", "((1e400, 0))", "real part 1e400 is out of range for c128", "1e400");
	BAD("c64[]", "((nan(0x800000), 0))",
	    "nan payload 0x800000 is out of range for c64 (at most 0x7fffff)", "nan(");
	BAD("c64[]", "(1)", "expected '(' to start a c64 value (re, im), found '1'", "1");
	BAD("c64[]", "((1 2))", "expected ',' between the real and imaginary parts, found '2'", "2)");
	BAD("c64[]", "((1, 2, 3))", "expected ')' after the imaginary part, found ','", ", 3");
	BAD("c64[]", "((true, 2))", "expected a floating-point value for c64, found 'true'", "true");
	OK("c64[2,2]", "({ {(1,2) (3,4)}, {(5,6), (7,8)} })", "{ { (1, 2), (3, 4) }, { (5, 6), (7, 8) } }");
}

static void literal_structure(void)
{
	OK("f32[2,0]", "({{},{}})", "{ {}, {} }");
	OK("f32[0,3]", "({})", "{  }");
	OK("f32[2,0,4,3]", "({{},{}})", "{ { /*i0=0*/ }, { /*i0=1*/ } }");
	OK("f32[2,1]", "({{1},{2}})", "{ {1}, {2} }");
	OK("f32[1,1,1,1,2]", "({{{{{1,2}}}}})",
	   "{ { /*i0=0*/ { /*i1=0*/ { /*i2=0*/ { 1, 2 } } } } }");
	OK("f32[2,1,1,1,1]", "({{{{{1}}}},{{{{2}}}}})",
	   "{ { /*i0=0*/ { /*i1=0*/ { /*i2=0*/ {1} } } }, { /*i0=1*/ { /*i1=0*/ { /*i2=0*/ {2} } } } }");
	OK("f32[1,2,0,1]", "({{{},{}}})", "{ { /*i0=0*/ { /*i1=0*/ }, { /*i1=1*/ } } }");
	OK("f32[3]", "({1 2 3})", "{1, 2, 3}");
	OK("f32[3]", "({1,,2,,3,})", "{1, 2, 3}");
	OK("f32[3]", "({,1-2 3})", "{1, -2, 3}");
	OK("f32[3]", "(\n{1 /* c, } */ , 2 // x }\n ,3}\r)", "{1, 2, 3}");
	OK("f32[2]", "({1, // first (one\n    2 /* second ) */})", "{1, 2}");
	OK("c64[]", "((1, // real part)\n    2))", "(1, 2)");
	OK("f32[2]", "({1, // cr ends it too\r2})", "{1, 2}");
	OK("f32[<=3]", "({1, 2, 3})", "{1, 2, 3}");
	BAD("f32[?]", "({1, 2, 3})", "constants cannot have an unbounded dynamic dimension", "{");
	BAD("token[]", "()", "constants of type token are not supported", ")");
	BAD("opaque[]", "(0)", "constants of type opaque are not supported", "0");
	/* Elision: only directly inside the outermost braces. */
	OK("f32[67,89]", "({...})", "{...}");
	OK("f32[2,3]", "({ {1, 2, 3}, ... })", "{...}");
	OK("f32[2]", "({1, ...})", "{...}");
	OK("f32[2]", "({......})", "{...}");
	OK("f32[0]", "({...})", "{...}");
	BAD("f32[2]", "({..., 1})", "expected 2 elements, found more", "1}");
	BAD("f32[2,3]", "({ {...}, {1, 2, 3} })",
	    "'...' may only appear inside the outermost braces of an array", "...");
	BAD("f32[]", "(...)", "'...' may only appear inside the outermost braces of an array", "...");
	BAD("f32[2]", "({. ..})", "unexpected character '.'", ". ..");
	BAD("f32[2]", "({1...})", "malformed number '1...'", "1...");
	/* Nesting and counts. */
	BAD("f32[2]", "({1})", "expected 2 elements, found 1", "})");
	BAD("f32[2]", "({1, 2, 3})", "expected 2 elements, found more", "3}");
	BAD("f32[2,3]", "({{1,2},{3,4,5}})", "expected 3 elements in element [0], found 2", "},{");
	BAD("f32[2,3]", "({{1,2,3},{3,4,5},{6,7,8}})", "expected 2 elements, found more", "{6");
	BAD("f32[2,2,2]", "({{{1,2},{3,4}},{{5,6},{7}}})",
	    "expected 2 elements in element [1,1], found 1", "}}}");
	BAD("f32[2]", "(1)", "expected '{' to start a rank-1 literal, found '1'", "1");
	BAD("f32[2]", "(,{1,2})", "expected '{' to start a rank-1 literal, found ','", ",");
	BAD("f32[]", "({1})", "expected a scalar value for f32[], found '{'", "{1");
	BAD("f32[]", "(,)", "expected a value for f32[], found ','", ",");
	BAD("f32[]", "()", "expected a value for f32[], found ')'", ")");
	BAD("f32[2]", "({1, 2)", "expected '}', found ')'", ")");
	BAD("f32[2]", "({1, 2}", "expected ')' after the literal, found end of literal", "");
	BAD("f32[]", "(1 2)", "expected ')' after the literal, found '2'", "2)");
	BAD("f32[]", "1", "expected '(' before the literal, found '1'", "1");
	BAD("f32[2]", "({1 /* x})", "unterminated comment", "/* x");
	BAD("f32[]", "(1x2)", "malformed number '1x2'", "1x2");
	BAD("f32[]", "(1e)", "malformed number '1e'", "1e");
	BAD("f32[]", "(1.5.3)", "malformed number '1.5.3'", "1.5.3");
	BAD("f32[]", "(.5)", "unexpected character '.'", ".5");
	BAD("f32[]", "(- 1)", "unexpected '-' in literal", "- 1");
	BAD("f32[]", "(NaN)", "unexpected 'NaN' in literal", "NaN");
	BAD("f32[]", "(infinity)", "unexpected 'infinity' in literal", "infinity");
	BAD("f32[]", "(-infinity)", "unexpected '-infinity' in literal", "-infinity");
	BAD("f32[]", "(+1)", "unexpected character '+' in literal", "+1");
	BAD("f32[]", "(1 / 2)", "unexpected character '/' in literal", "/ 2");
	BAD("f32[]", "(%x)", "unexpected character '%' in literal", "%x");
	{
		static const char nul[] = "({1, \0})";
		struct hlo_shape *s = shape_of("f32[2]");
		struct span sp = set_source(nul, sizeof nul - 1);
		struct literal_error err;
		CHECK(!literal_check(&file, sp, s, &err));
		CHECK_STR(err.msg, "unexpected byte 0x00 in literal");
		CHECK_INT(err.span.start, 5);
	}
}

static void literal_tuples(void)
{
	OK("((f32[], s32[2]), pred[])", "(((1, {2, 3}), true))", "( ( 1, {2, 3} ), true )");
	OK("(f32[2,1], f32[2])", "(( {{1},{2}} {2, 42} ))", "( { {1}, {2} }, {2, 42} )");
	OK("()", "(())", "(  )");
	OK("(f32[], (), s32[])", "((1, (), 2))", "( 1, (  ), 2 )");
	OK("(f32[100], s32[])", "(({...}, 2))", "( {...}, 2 )");
	OK("(((((((((((f32[])))))))))))", "((((((((((((0))))))))))))",
	   "( ( ( ( ( ( ( ( ( ( ( 0 ) ) ) ) ) ) ) ) ) ) )");
	/* XLA's parser rejects an elided tuple; we read it (JAX dumps print it). */
	OK("(f32[], f32[])", "({...})", "{...}");
	OK("(f32[], f32[])", "({ /* elided */ ... })", "{...}");
	BAD("(f32[], f32[])", "({...} 1)", "expected ')' after the literal, found '1'", "1)");
	BAD("(f32[], f32[])", "({... 1})", "expected '}' after '{...', found '1'", "1}");
	BAD("(f32[], f32[])", "({1})", "expected '(' to start a tuple literal, found '{'", "{1");
	BAD("(f32[], f32[])", "((1))", "expected a value for f32[], found ')'", "))");
	BAD("(f32[], f32[])", "((1, 2, 3))", "expected ')' after the 2 tuple elements, found ','", ", 3");
	BAD("(f32[], f32[])", "(1, 2)", "expected '(' to start a tuple literal, found '1'", "1");
	BAD("((f32[]), f32[])", "((1, 2))", "expected '(' to start a tuple element, found '1'", "1,");
	BAD("(f32[], s4[])", "((1, 8))", "value 8 is out of range for s4", "8)");
}

static void literal_elide_and_count(void)
{
	struct span sp;
	struct hlo_shape *s;
	char *p;
	bool el;

	s = shape_of("f32[11]");
	sp = set_source("({1,2,3,4,5,6,7,8,9,10,11})", 27);
	p = print_string(sp, s, true);
	CHECK_STR(p, "{...}");
	free(p);
	p = print_string(sp, s, false);
	CHECK_STR(p, "{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}");
	free(p);
	CHECK_INT(literal_count(&file, sp, s, &el), 11);
	CHECK(!el);

	s = shape_of("f32[10]");
	sp = set_source("({1,2,3,4,5,6,7,8,9,10})", 24);
	p = print_string(sp, s, true);
	CHECK_STR(p, "{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}");
	free(p);

	s = shape_of("f32[2,3,0]");
	sp = set_source("({{{},{},{}}{{},{},{}}})", 24);
	p = print_string(sp, s, true);
	CHECK_STR(p, "{ { {}, {}, {} }, { {}, {}, {} } }");
	free(p);
	CHECK_INT(literal_count(&file, sp, s, NULL), 0);

	s = shape_of("(f32[], s32[])");
	sp = set_source("((1, 2))", 8);
	p = print_string(sp, s, true);
	CHECK_STR(p, "{...}");
	free(p);
	CHECK_INT(literal_count(&file, sp, s, &el), 2);
	CHECK(!el);
	sp = set_source("({...})", 7);
	CHECK_INT(literal_count(&file, sp, s, &el), 0);
	CHECK(el);

	s = shape_of("f32[4]");
	sp = set_source("({1, 2, ...})", 13);
	CHECK_INT(literal_count(&file, sp, s, &el), 2);
	CHECK(el);
	p = print_string(sp, s, true);
	CHECK_STR(p, "{...}");
	free(p);

	s = shape_of("c64[3]");
	sp = set_source("({(1,2),(3,4),(5,6)})", 21);
	CHECK_INT(literal_count(&file, sp, s, NULL), 3);
}

static void literal_scalars(void)
{
	int64_t i;
	double d;
	struct span sp = set_source("(-7)", 4);
	CHECK(literal_scalar_int(&file, sp, shape_of("s32[]"), &i));
	CHECK_INT(i, -7);
	CHECK(!literal_scalar_float(&file, sp, shape_of("s32[]"), &d));
	CHECK(literal_scalar_float(&file, sp, shape_of("bf16[]"), &d));
	CHECK(d == -7.0);
	CHECK(!literal_scalar_int(&file, sp, shape_of("u8[]"), &i));
	sp = set_source("(true)", 6);
	CHECK(literal_scalar_int(&file, sp, shape_of("pred[]"), &i));
	CHECK_INT(i, 1);
	sp = set_source("(0.1)", 5);
	CHECK(literal_scalar_float(&file, sp, shape_of("f16[]"), &d));
	CHECK(d == 0.0999755859375);
	sp = set_source("({1})", 5);
	CHECK(!literal_scalar_int(&file, sp, shape_of("s32[1]"), &i));
}

/* Large and deep inputs stay linear and do not recurse. */
static void literal_big(void)
{
	enum { N = 1000000 };
	char *text = xmalloc(N * 3 + 8), *q = text;
	*q++ = '(';
	*q++ = '{';
	for (int k = 0; k < N; k++) {
		*q++ = (char)('0' + k % 10);
		*q++ = ',';
	}
	*q++ = '}';
	*q++ = ')';
	struct span sp = set_source(text, (size_t)(q - text));
	struct literal_error err;
	CHECK(literal_check(&file, sp, shape_of("s32[1000000]"), &err));
	CHECK_INT(literal_count(&file, sp, shape_of("s32[1000000]"), NULL), N);
	CHECK(!literal_check(&file, sp, shape_of("s32[999999]"), &err));
	/* 5000 nested tuple levels (deeper than any shape reader allows). */
	enum { D = 5000 };
	struct hlo_shape *s = shape_of("f32[]");
	for (int k = 0; k < D; k++) {
		struct hlo_shape *t = arena_alloc(&arena, sizeof *t);
		t->type = PT_TUPLE;
		t->rank = 1;
		t->elems = arena_alloc(&arena, sizeof *t->elems);
		t->elems[0] = s;
		s = t;
	}
	q = text;
	*q++ = '(';
	for (int k = 0; k < D; k++)
		*q++ = '(';
	*q++ = '1';
	for (int k = 0; k < D; k++)
		*q++ = ')';
	*q++ = ')';
	sp = set_source(text, (size_t)(q - text));
	CHECK(literal_check(&file, sp, s, &err));
	/* Rank 40 of ones: more levels than the small-rank fast path. */
	char shp[200] = "f32[";
	size_t r = 4;
	for (int k = 0; k < 40; k++) {
		if (k)
			shp[r++] = ',';
		shp[r++] = '1';
	}
	shp[r++] = ']';
	shp[r] = 0;
	q = text;
	*q++ = '(';
	for (int k = 0; k < 40; k++)
		*q++ = '{';
	*q++ = '5';
	for (int k = 0; k < 40; k++)
		*q++ = '}';
	*q++ = ')';
	sp = set_source(text, (size_t)(q - text));
	CHECK(literal_check(&file, sp, shape_of(shp), &err));
	char *p = print_string(sp, shape_of(shp), false);
	CHECK(strstr(p, "/*i37=0*/ {5}") != NULL);
	free(p);
	free(text);
}

/* A float -0 prints as "-0", which reads back as the integer 0 (XLA too). */
static bool has_negative_zero(const char *p)
{
	for (; (p = strstr(p, "-0")) != NULL; p += 2)
		if (!isdigit((unsigned char)p[2]) && p[2] != '.' && p[2] != 'e')
			return true;
	return false;
}

/* Mutations of valid literals: never crash; whatever is accepted prints to a
 * fixed point. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static uint32_t rng(void)
{
	rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(rng_state >> 33);
}

static void literal_fuzz(void)
{
	static const struct { const char *shape, *lit; } seeds[] = {
		{ "f32[2,3]", "({ { 1, 2.5, -3 }, { nan, -inf, 1e-05 } })" },
		{ "f32[3,2,1,1]", "({ { /*i0=0*/ { /*i1=0*/ {-1} }, { /*i1=1*/ {4.1} } }, { { {2} }, { {4.1} } }, { { {5} }, { {4.4} } } })" },
		{ "(f32[2,1], (s4[2], pred[]))", "(( { {1}, {2} }, ({-8, 7}, true) ))" },
		{ "c64[2]", "({(1, 2), (-inf, nan(0x7f))})" },
		{ "bf16[2]", "({-nan(0x7f), 3.39e+38})" },
		{ "u64[3]", "({-1, 18446744073709551615, 0})" },
		{ "f8e4m3fn[4]", "({448, -nan, inf, 0.1})" },
		{ "f32[2,0,4,3]", "({ { /*i0=0*/ }, { /*i0=1*/ } })" },
		{ "f32[67,89]", "({...})" },
		{ "pred[2,2]", "({ {0, 1}, {true, false} })" },
	};
	static const char alphabet[] = "{}(),.-0123456789eE+x/*naiftrue ...\n";
	char buf[256], m[300];
	int accepted = 0;
	for (int it = 0; it < 60000; it++) {
		unsigned k = rng() % (sizeof seeds / sizeof seeds[0]);
		struct hlo_shape *s = shape_of(seeds[k].shape);
		size_t n = strlen(seeds[k].lit);
		memcpy(buf, seeds[k].lit, n);
		int edits = 1 + (int)(rng() % 4);
		for (int e = 0; e < edits && n > 0; e++) {
			size_t at = rng() % n;
			switch (rng() % 4) {
			case 0:  /* replace */
				buf[at] = alphabet[rng() % (sizeof alphabet - 1)];
				break;
			case 1:  /* delete */
				memmove(buf + at, buf + at + 1, n - at - 1);
				n--;
				break;
			case 2:  /* insert */
				if (n + 1 < sizeof buf) {
					memmove(buf + at + 1, buf + at, n - at);
					buf[at] = alphabet[rng() % (sizeof alphabet - 1)];
					n++;
				}
				break;
			default:  /* random byte */
				buf[at] = (char)(rng() & 0xff);
			}
		}
		struct span sp = set_source(buf, n);
		struct literal_error err;
		bool ok = literal_check(&file, sp, s, &err);
		if (!ok) {
			if (err.span.start > src.len || err.span.end < err.span.start ||
			    err.span.end > src.len + 1 || !err.msg[0])
				unit_fail(__FILE__, __LINE__, "bad error span/message for \"%.*s\"", (int)n, buf);
			continue;
		}
		accepted++;
		char *p = print_string(sp, s, false);
		if (has_negative_zero(p) || strlen(p) + 3 > sizeof m) {
			free(p);
			continue;
		}
		snprintf(m, sizeof m, "(%s)", p);
		struct span sp2 = set_source(m, strlen(m));
		if (!literal_check(&file, sp2, s, &err)) {
			unit_fail(__FILE__, __LINE__, "printed form \"%s\" of \"%.*s\" rejected: %s", p,
				  (int)n, buf, err.msg);
		} else {
			char *p2 = print_string(sp2, s, false);
			if (strcmp(p, p2) != 0)
				unit_fail(__FILE__, __LINE__, "not a fixed point: \"%s\" -> \"%s\"", p, p2);
			free(p2);
		}
		free(p);
	}
	CHECK(accepted > 1000);
}

const struct unit_case unit_literal_cases[] = {
	{ "literal_xla_round_trips", literal_xla_round_trips },
	{ "literal_rejects_xla_bad_inputs", literal_rejects_xla_bad_inputs },
	{ "literal_integers", literal_integers },
	{ "literal_ieee_floats", literal_ieee_floats },
	{ "literal_small_floats", literal_small_floats },
	{ "literal_complex", literal_complex },
	{ "literal_structure", literal_structure },
	{ "literal_tuples", literal_tuples },
	{ "literal_elide_and_count", literal_elide_and_count },
	{ "literal_scalars", literal_scalars },
	{ "literal_big", literal_big },
	{ "literal_fuzz", literal_fuzz },
	{ NULL, NULL },
};

#ifdef LITERAL_TEST_MAIN
static int case_failed;

void unit_fail(const char *fl, int line, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s:%d: check failed: ", fl, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	case_failed = 1;
}

int main(void)
{
	int passed = 0, failed = 0;
	for (const struct unit_case *c = unit_literal_cases; c->name; c++) {
		case_failed = 0;
		c->fn();
		if (case_failed) {
			printf("[FAIL] unit/%s\n", c->name);
			failed++;
		} else {
			passed++;
		}
	}
	printf("literal: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
#endif
