/* unit.h - a minimal unit-test harness: CHECK macros record failures with
 * file:line and keep going; each suite is a table of named cases.
 * No fixtures, no forking: a crash stops the run (make check shows it). */
#ifndef HLO_UNIT_H
#define HLO_UNIT_H
#include <stdint.h>
#include <string.h>

struct unit_case {
	const char *name;
	void (*fn)(void);
};

void unit_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#define CHECK(c) do { if (!(c)) unit_fail(__FILE__, __LINE__, "%s", #c); } while (0)
#define CHECK_INT(a, b) do { \
	long long unit_a_ = (long long)(a), unit_b_ = (long long)(b); \
	if (unit_a_ != unit_b_) \
		unit_fail(__FILE__, __LINE__, "%s == %lld, expected %lld", #a, unit_a_, unit_b_); \
} while (0)
#define CHECK_STR(a, b) do { \
	const char *unit_a_ = (a), *unit_b_ = (b); \
	if (!unit_a_ || strcmp(unit_a_, unit_b_) != 0) \
		unit_fail(__FILE__, __LINE__, "%s ==\n\"%s\"\nexpected\n\"%s\"", #a, \
			  unit_a_ ? unit_a_ : "(null)", unit_b_); \
} while (0)

/* Suites (one per test_*.c), terminated by a { NULL, NULL } entry. */
extern const struct unit_case unit_arena_cases[];
extern const struct unit_case unit_intern_cases[];
extern const struct unit_case unit_source_cases[];
extern const struct unit_case unit_diag_cases[];
extern const struct unit_case unit_size_cases[];
extern const struct unit_case unit_literal_cases[];
extern const struct unit_case unit_alias_cases[];
extern const struct unit_case unit_prefault_cases[];
#endif
