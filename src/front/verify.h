/* verify.h - structural and semantic checks on a resolved module, close to
 * what XLA's parser rejects: operand counts, the attributes each opcode
 * takes and their values (decoded with attr.h), a single ROOT, literals,
 * async chains, cheap shape rules, module header attributes.  Errors are
 * located like syntax errors; the verifier never changes the IR. */
#ifndef HLO_VERIFY_H
#define HLO_VERIFY_H
#include "diag.h"
#include "ir.h"

struct verify_run;

/* Checks m (resolved without errors) and reports to d: errors for what XLA
 * rejects, warnings for what only newer or older XLA versions write
 * (unknown attribute or metadata field names, API_VERSION_UNSPECIFIED).
 * Returns the number of errors.  Linear in the module size; scratch memory
 * is freed before returning.  run, when not NULL, is verify_begin's for m,
 * which this finishes. */
unsigned verify_module(struct hlo_module *m, struct diag_sink *d, struct verify_run *run);
/* Before resolve_module(m): when m is large and its pieces resolved their
 * own names (parse.c), starts checking, on threads beside resolve, the
 * computations resolve leaves alone; NULL otherwise.  Then verify_module
 * finishes it, or verify_cancel (resolve failed) stops it unreported. */
struct verify_run *verify_begin(struct hlo_module *m);
void verify_cancel(struct verify_run *run);
#endif
