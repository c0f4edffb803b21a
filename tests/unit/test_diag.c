/* test_diag.c - diagnostic rendering: location prefix, source line, caret
 * and underline (tabs, clipping, end of input, long lines) and the cap. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "diag.h"
#include "unit.h"

/* Renders one report into a string (caller frees). */
static char *render(struct source *src, uint64_t a, uint64_t b, enum diag_severity sev,
		    const char *msg)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	struct diag_sink d;
	diag_init(&d, f, 0);
	diag_report(&d, src, span_make(a, b), sev, "%s", msg);
	fclose(f);
	return buf;
}

#define CHECK_RENDER(src, a, b, sev, msg, expect) do { \
	char *r_ = render(src, a, b, sev, msg); \
	CHECK_STR(r_, expect); \
	free(r_); \
} while (0)

static void diag_caret(void)
{
	const char *t = "HloModule m\n\nENTRY %e {\n  %x = f32[] foo(1)\n}\n";
	struct source *s = source_from_memory("t.hlo", t, strlen(t));
	uint64_t foo = (uint64_t)(strstr(t, "foo") - t);
	CHECK_RENDER(s, foo, foo + 3, DIAG_ERROR, "unknown opcode 'foo'",
		     "t.hlo:4:14: error: unknown opcode 'foo'\n"
		     "  %x = f32[] foo(1)\n"
		     "             ^~~\n");
	/* Empty span: one caret. */
	CHECK_RENDER(s, foo, foo, DIAG_WARNING, "w",
		     "t.hlo:4:14: warning: w\n"
		     "  %x = f32[] foo(1)\n"
		     "             ^\n");
	/* Span running onto the next lines: clipped to the first. */
	CHECK_RENDER(s, foo, s->len, DIAG_NOTE, "n",
		     "t.hlo:4:14: note: n\n"
		     "  %x = f32[] foo(1)\n"
		     "             ^~~~~~\n");
	/* Column 1. */
	CHECK_RENDER(s, 0, 9, DIAG_ERROR, "e",
		     "t.hlo:1:1: error: e\n"
		     "HloModule m\n"
		     "^~~~~~~~~\n");
	/* The empty line. */
	CHECK_RENDER(s, 12, 13, DIAG_ERROR, "e",
		     "t.hlo:2:1: error: e\n"
		     "\n"
		     "^\n");
	/* End of input: the last line, caret after its text. */
	CHECK_RENDER(s, s->len, s->len, DIAG_ERROR, "expected '}' at end of input",
		     "t.hlo:5:2: error: expected '}' at end of input\n"
		     "}\n"
		     " ^\n");
	/* No location. */
	CHECK_RENDER(NULL, 0, 0, DIAG_ERROR, "cannot open 'x': No such file or directory",
		     "hlolint: error: cannot open 'x': No such file or directory\n");
	CHECK_RENDER(s, SPAN_NONE_OFF, SPAN_NONE_OFF, DIAG_ERROR, "module has no entry",
		     "t.hlo: error: module has no entry\n");
	source_free(s);
}

static void diag_tabs_crlf(void)
{
	const char *t = "\t%x = \tf32[] bar()\r\nnext\r\n";
	struct source *s = source_from_memory("tab.hlo", t, strlen(t));
	uint64_t bar = (uint64_t)(strstr(t, "bar") - t);
	CHECK_RENDER(s, bar, bar + 3, DIAG_ERROR, "e",
		     "tab.hlo:1:14: error: e\n"
		     "\t%x = \tf32[] bar()\n"
		     "\t     \t      ^~~\n");
	/* The CR never reaches the output; a span over it is clipped. */
	uint64_t close = (uint64_t)(strstr(t, ")") - t);
	CHECK_RENDER(s, close, close + 4, DIAG_ERROR, "e",
		     "tab.hlo:1:18: error: e\n"
		     "\t%x = \tf32[] bar()\n"
		     "\t     \t          ^\n");
	source_free(s);
}

static void diag_long_line(void)
{
	size_t n = 5000;
	char *t = malloc(n + 1);
	memset(t, 'a', n);
	memcpy(t + 3000, "BAD", 3);
	t[n] = '\n';
	struct source *s = source_from_memory("long.hlo", t, n + 1);
	char *r = render(s, 3000, 3003, DIAG_ERROR, "e");
	/* Window: "..." + the output's width less 6, a third of it before the
	 * caret, + "..." (the width is 100, or the terminal's). */
	size_t room = diag_width() - 6;
	const char *l2 = strchr(r, '\n') + 1;
	const char *l3 = strchr(l2, '\n') + 1;
	CHECK(strncmp(r, "long.hlo:1:3001: error: e\n", 26) == 0);
	CHECK_INT(l3 - l2, 3 + room + 3 + 1);
	CHECK(strncmp(l2, "...", 3) == 0);
	CHECK(strncmp(l2 + 3 + room / 3, "BAD", 3) == 0);
	CHECK(strncmp(l3 - 4, "...\n", 4) == 0);
	CHECK_INT(strspn(l3, " "), 3 + room / 3);
	CHECK(strcmp(l3 + 3 + room / 3, "^~~\n") == 0);
	free(r);
	/* Near the start: no leading marks. */
	r = render(s, 10, 11, DIAG_ERROR, "e");
	l2 = strchr(r, '\n') + 1;
	CHECK(l2[0] == 'a');
	free(r);
	/* At the very end of the long line. */
	r = render(s, n, n, DIAG_ERROR, "e");
	l2 = strchr(r, '\n') + 1;
	l3 = strchr(l2, '\n') + 1;
	CHECK(strncmp(l2, "...", 3) == 0);
	CHECK_INT(strlen(l3), 3 + room + 2);
	free(r);
	source_free(s);
	free(t);
}

static void diag_cap(void)
{
	const char *t = "a b c d\n";
	struct source *s = source_from_memory("c.hlo", t, strlen(t));
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	struct diag_sink d;
	diag_init(&d, f, 2);
	CHECK(!diag_full(&d));
	diag_report(&d, s, span_make(0, 1), DIAG_ERROR, "one");
	diag_report(&d, s, span_make(2, 3), DIAG_WARNING, "warn");
	CHECK(!diag_full(&d));
	diag_report(&d, s, span_make(2, 3), DIAG_ERROR, "two");
	CHECK(diag_full(&d));
	CHECK(d.capped);
	diag_report(&d, s, span_make(4, 5), DIAG_ERROR, "three");
	diag_report(&d, s, span_make(4, 5), DIAG_NOTE, "note after cap");
	fclose(f);
	CHECK_INT(d.errors, 3);
	CHECK_STR(buf,
		  "c.hlo:1:1: error: one\na b c d\n^\n"
		  "c.hlo:1:3: warning: warn\na b c d\n  ^\n"
		  "c.hlo:1:3: error: two\na b c d\n  ^\n"
		  "hlolint: error: too many errors, stopping\n");
	free(buf);

	/* Quiet: counts, prints nothing, still caps. */
	buf = NULL;
	f = open_memstream(&buf, &n);
	diag_init(&d, f, 1);
	d.quiet = true;
	diag_report(&d, s, span_make(0, 1), DIAG_ERROR, "x");
	diag_report(&d, s, span_make(0, 1), DIAG_ERROR, "y");
	fclose(f);
	CHECK_INT(d.errors, 2);
	CHECK(diag_full(&d));
	CHECK_STR(buf, "");
	free(buf);

	/* Unlimited. */
	diag_init(&d, NULL, 0);
	for (int i = 0; i < 1000; i++)
		diag_report(&d, s, span_make(0, 1), DIAG_ERROR, "x");
	CHECK(!diag_full(&d));
	CHECK_INT(d.errors, 1000);
	source_free(s);
}

const struct unit_case unit_diag_cases[] = {
	{ "diag_caret", diag_caret },
	{ "diag_tabs_crlf", diag_tabs_crlf },
	{ "diag_long_line", diag_long_line },
	{ "diag_cap", diag_cap },
	{ NULL, NULL },
};
