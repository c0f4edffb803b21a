/* literal.h - constant(...) literals: validation against the declared shape
 * and XLA's canonical printing.  The module parse keeps a literal as the span
 * of its "( ... )" text; these functions re-lex that span on demand and never
 * build the literal's data in memory (they stream over the tokens). */
#ifndef HLO_LITERAL_H
#define HLO_LITERAL_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "ir.h"
#include "span.h"

struct literal_error {
	struct span span;   /* offending token, inside the literal span */
	char msg[256];      /* lower case, no final period */
};

/* Validates the literal text lit (from '(' to just after ')' in f->src->buf)
 * against shape, with XLA's rules: one brace level per dimension (a zero-size
 * dimension ends the nesting), exact element counts, optional commas, '{...}'
 * elision directly inside the outermost braces, per-type value ranges (floats
 * are rounded to the type first; u64 constant(-1) wraps; decimals that
 * overflow double are rejected while inf is fine), nan payloads that fit the
 * type, complex values as (re, im), tuples as ( elem, elem ), comments.
 * One deliberate leniency: a whole tuple constant may be "{...}" (what XLA's
 * default printer, hence JAX's as_text(), writes; XLA's parser rejects it).
 * Returns true when valid; otherwise fills *err (err may be NULL).
 * Linear in the literal length; uses no recursion. */
bool literal_check(const struct hlo_file *f, struct span lit, const struct hlo_shape *shape,
		   struct literal_error *err);

/* Number of element values written in a valid literal (0 for "{...}", the
 * sum over leaves for tuples; complex values count once).  *elided (may be
 * NULL) is set when some array or the whole tuple was written with "...".  Returns 0 when the
 * literal is invalid. */
uint64_t literal_count(const struct hlo_file *f, struct span lit, const struct hlo_shape *shape,
		       bool *elided);

/* Prints the literal the way XLA's constant printer does, WITHOUT the
 * surrounding "constant(" and ")": scalars "42", "-inf", "nan(0x7f)",
 * "true"; pred arrays as 0/1; arrays "{1, 2}", "{ { 1, 2 }, { 3, 4 } }",
 * rank > 3 with index comments (i0=0 in a block comment); complex "(1, 2)"; tuples
 * "( {1}, 2 )".  Floats use XLA's round-trip formatting (f32: %.6g else
 * %.9g; f64: %.15g else %.17g; narrower types %.<max_digits10>g).
 * With elide, arrays of more than 10 elements and all tuple constants print
 * as "{...}" (HloPrintOptions default); an array or tuple written with "..."
 * always prints "{...}".  An invalid literal is echoed verbatim. */
void literal_print(FILE *out, const struct hlo_file *f, struct span lit,
		   const struct hlo_shape *shape, bool elide);

/* Value of a valid rank-0 integer or pred constant (u64 values above
 * INT64_MAX come out negative, as in XLA's parser).  False otherwise. */
bool literal_scalar_int(const struct hlo_file *f, struct span lit, const struct hlo_shape *shape,
			int64_t *out);
/* Value of a valid rank-0 floating-point constant after rounding to its
 * type (nan, inf included).  False otherwise (also for complex). */
bool literal_scalar_float(const struct hlo_file *f, struct span lit, const struct hlo_shape *shape,
			  double *out);
#endif
