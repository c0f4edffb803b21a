/* main.c - runs every unit-test suite, or only the cases whose name
 * contains one of the arguments.  Prints failures and one summary line
 * "unit: N passed, M failed"; exits 1 when anything failed.  A case that
 * runs past UNIT_SECONDS aborts the run with its name (a hang must fail). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "unit.h"
#include "../watchdog.h"

#define UNIT_SECONDS 120   /* the whole of a case, sanitizers included */

static int case_failed;

void unit_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s:%d: check failed: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	case_failed = 1;
}

static int selected(const char *name, int argc, char **argv)
{
	if (argc < 2)
		return 1;
	for (int i = 1; i < argc; i++)
		if (strstr(name, argv[i]))
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	static const struct unit_case *const suites[] = {
		unit_arena_cases, unit_intern_cases, unit_source_cases, unit_diag_cases, unit_literal_cases,
		unit_size_cases, unit_alias_cases, unit_prefault_cases,
	};
	int passed = 0, failed = 0;
	for (size_t s = 0; s < sizeof suites / sizeof suites[0]; s++) {
		for (const struct unit_case *c = suites[s]; c->name; c++) {
			if (!selected(c->name, argc, argv))
				continue;
			case_failed = 0;
			watchdog_arm("unit", c->name, UNIT_SECONDS);
			c->fn();
			watchdog_disarm();
			if (case_failed) {
				printf("[FAIL] unit/%s\n", c->name);
				failed++;
			} else {
				passed++;
			}
		}
	}
	printf("unit: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
