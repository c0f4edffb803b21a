/* parse.h - entry points that run the scanner and grammar over a source.
 * parse_file builds, resolves and verifies every module in the input;
 * syntax and semantic errors go to the diagnostic sink with their spans. */
#ifndef HLO_PARSE_H
#define HLO_PARSE_H
#include <stdbool.h>
#include "diag.h"
#include "ir.h"

/* Parses all modules of src (which the returned file references but does not
 * own).  Never returns NULL; f->errors > 0 means at least one error was
 * reported to d and the modules with m->valid == false must not be analysed.
 * Free with parse_free. */
struct hlo_file *parse_file(struct source *src, struct diag_sink *d);
void parse_free(struct hlo_file *f);
/* With threads_set(n > 1) (threads.h), parse_file cuts a large input at
 * computation boundaries, parses the pieces at once and joins them; the
 * result is the same as a serial parse (any error, and the input is parsed
 * serially for its diagnostics). */
#endif
