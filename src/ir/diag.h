/* diag.h - located diagnostics: "path:line:col: severity: message", the
 * source line and a caret.  The library never exits: errors are counted in
 * the sink and the driver picks the exit status.  --max-errors caps output. */
#ifndef HLO_DIAG_H
#define HLO_DIAG_H
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include "source.h"
#include "span.h"

enum diag_severity { DIAG_NOTE, DIAG_WARNING, DIAG_ERROR };

/* One error as machine outputs list it (JSON "errors", SARIF notifications). */
struct diag_record {
	char *path;          /* NULL when the error belongs to no input */
	uint64_t line, col;  /* 0 when it has no location */
	char *msg;
};

struct diag_sink {
	FILE *out;           /* stderr normally */
	unsigned errors;     /* errors reported (also those past the cap) */
	unsigned max_errors; /* 0 = unlimited */
	bool capped;         /* "too many errors" already printed */
	bool quiet;          /* count only (fuzzing, probing) */
	bool keep;           /* also record errors (up to the cap) in recs */
	const char *input;   /* the input being read: the path of errors without a source */
	struct diag_record *recs;
	uint32_t nrecs, caprecs;
	/* A deferred sink (diag_init_deferred) renders into a buffer and keeps
	 * where each diagnostic ends, for diag_replay in input order. */
	bool deferred;
	char *buf;
	size_t buflen;
	struct diag_event *events;
	uint32_t nevents, capevents;
};

void diag_init(struct diag_sink *d, FILE *out, unsigned max_errors);
/* A sink for work on another thread (-j): diagnostics are rendered into
 * memory, errors recorded when keep, nothing printed until diag_replay.
 * max_errors bounds the work as the real sink would. */
void diag_init_deferred(struct diag_sink *d, unsigned max_errors, bool keep);
/* Hands what deferred sink from saw to d as if d had seen it: the same
 * text, the same --max-errors cap and "too many errors" line, the same
 * records and error count.  from stays to be freed. */
void diag_replay(struct diag_sink *d, struct diag_sink *from);
/* Frees the recorded errors (and a deferred sink's buffer). */
void diag_free(struct diag_sink *d);
/* Reports at span of src (src may be NULL: no location). */
void diag_report(struct diag_sink *d, struct source *src, struct span sp,
		 enum diag_severity sev, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void diag_vreport(struct diag_sink *d, struct source *src, struct span sp,
		  enum diag_severity sev, const char *fmt, va_list ap);
/* Writes s[0..n) as text for a terminal or a CI log: C0 controls but tab,
 * DEL and bytes that are not UTF-8 as \xNN, C1 controls and bidi overrides
 * as \uNNNN (as ripgrep shows them), so no byte of an input sets a title,
 * clears the screen or starts a line (a "::error" workflow command). */
void diag_put(FILE *out, const char *s, size_t n);
/* The same escaping, handed to put piece by piece (a buffer's writer). */
void diag_escape(const char *s, size_t n, void (*put)(void *ctx, const char *p, size_t n), void *ctx);
/* fprintf for one line of text output that holds input text: all of it
 * is written through diag_put but a final newline of fmt. */
void diag_line(FILE *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void diag_vline(FILE *out, const char *fmt, va_list ap);
/* Prints the source line holding sp and a caret line under the span (the
 * part of a diagnostic after its first line) to out; counts nothing.  For
 * reports that format their own first line (hlolint check findings). */
void diag_print_line(FILE *out, struct source *src, struct span sp);
/* The width text output fits: the terminal's when standard output is one
 * (at least 40 columns), else 100.  Long source lines are windowed to it,
 * notes wrapped at it (report_wrap). */
unsigned diag_width(void);
/* True once max_errors has been reached: callers stop early. */
bool diag_full(const struct diag_sink *d);
#endif
