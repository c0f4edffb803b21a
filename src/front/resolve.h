/* resolve.h - binds names after a module is parsed: operands and control
 * predecessors to instructions, callee attributes to computations, parameter
 * numbers to slots; fills users, callers, the entry, inferable shapes. */
#ifndef HLO_RESOLVE_H
#define HLO_RESOLVE_H
#include "diag.h"
#include "ir.h"

/* Resolves m in place; errors (undefined names, duplicates, cycles) go to d. */
void resolve_module(struct hlo_module *m, struct diag_sink *d);
#endif
