/* resolve.h - binds names after a module is parsed: operands and control
 * predecessors to instructions, callee attributes to computations, parameter
 * numbers to slots; fills users, callers, the entry, inferable shapes. */
#ifndef HLO_RESOLVE_H
#define HLO_RESOLVE_H
#include "diag.h"
#include "ir.h"

/* Resolves m in place; errors (undefined names, duplicates, cycles) go to d. */
void resolve_module(struct hlo_module *m, struct diag_sink *d);
/* The names local to computation c (its instructions', operands' and
 * control predecessors'), in f's arena, errors to d: the part of
 * resolve_module a piece of a parse can do on its own thread (parse.c).
 * True, and c marked so resolve_module skips that part, when all bound. */
bool resolve_names(struct hlo_comp *c, struct hlo_file *f, struct diag_sink *d);
#endif
