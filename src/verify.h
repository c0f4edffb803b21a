/* verify.h - structural and semantic checks on a resolved module (ir_verify
 * in the brief): operand counts, required attributes, tuple indices, callee
 * arity, literals, a single ROOT and entry.  Errors are located like syntax
 * errors; the verifier never changes the IR. */
#ifndef HLO_VERIFY_H
#define HLO_VERIFY_H
#include "diag.h"
#include "ir.h"

/* Checks m; returns the number of errors reported to d. */
unsigned verify_module(struct hlo_module *m, struct diag_sink *d);
#endif
