/* report.h - output of `hlolint check`: text (clang-style, HLO line, caret,
 * notes, summary), JSON schema 1, SARIF 2.1.0, GitHub annotations.  Text and
 * github stream per file (the caret needs its source); JSON and SARIF are
 * written at the end.  It does not decide suppressions or the exit status. */
#ifndef HLO_REPORT_H
#define HLO_REPORT_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "diag.h"
#include "finding.h"
#include "ir.h"
#include "pass.h"

enum report_format { REPORT_TEXT, REPORT_JSON, REPORT_SARIF, REPORT_GITHUB, REPORT_CONCISE };

/* "text", "json", "sarif", "github", "concise" (one line per finding);
 * false for anything else. */
bool report_format_parse(const char *name, enum report_format *out);

struct report;
struct mem_model;

/* A report writing to out; version is the tool's, for SARIF. */
struct report *report_new(enum report_format fmt, FILE *out, const char *version);
void report_free(struct report *r);
/* Where the rule documents are (SARIF's helpUri): --docs-url / docs-url =
 * ...; NULL keeps CONFIG_DOCS_URL. */
void report_set_docs_url(struct report *r, const char *url);
/* Text: every note of each finding (--verbose), not only the fact that
 * decides and the fix. */
void report_set_verbose(struct report *r, bool verbose);

/* Registers the summary of a checked module (path as given; mm may be NULL
 * when no memory model was built) and returns its index, which the driver
 * stores in finding_sink.module_index before running the rules. */
uint32_t report_module(struct report *r, const char *path, const struct hlo_module *m,
		       const struct mem_model *mm);

/* Called after the findings [from, s->n) of one input file are final
 * (sorted, suppressions and baseline applied) and while their source is
 * still loaded: text and github print them now. */
void report_file(struct report *r, const struct finding_sink *s, uint32_t from);

/* How many modules were registered. */
uint32_t report_modules(const struct report *r);
/* How many registered modules have a memory model but no capacity (no
 * --target or --hbm given, none inferred): --require-target fails on them. */
unsigned report_unknown_capacity(const struct report *r);

/* Writes what remains: the JSON or SARIF document, or the text summary
 * line (which mentions bad_files, the inputs that could not be read or
 * parsed).  rules lists the rules that ran (NULL-terminated), for SARIF's
 * rule table.  errs (may be NULL) holds the recorded input errors: JSON
 * "errors", SARIF toolExecutionNotifications, GitHub ::error lines.
 * Returns false when the output could not be written. */
bool report_finish(struct report *r, const struct finding_sink *s, const struct pass *const *rules,
		   unsigned bad_files, const struct diag_sink *errs);

/* Records that rule could not run on module module_index (why: static
 * text).  Text output says so in one note line before the summary; JSON
 * lists it in the module's "rules_not_run". */
void report_not_run(struct report *r, uint32_t module_index, const char *rule, const char *why);

struct json_writer;
/* The "errors" member of a JSON document (also `mem --format json`). */
void report_json_errors(struct json_writer *w, const struct diag_sink *errs);

/* Prints prefix then text, wrapped at spaces so that no line passes 100
 * columns (text output's width); continuation lines are indented by
 * indent spaces.  A word longer than a line is printed whole. */
void report_wrap(FILE *out, const char *prefix, const char *text, unsigned indent);
#endif
