/* loop.h - while-loop facts the rules of `hlolint check` share: a while's
 * body and condition, its induction variable (a tuple index of the carry)
 * and trip count (backend_config known_trip_count, else inferred from an
 * "i < N" condition, a constant start and a constant step).  Pure queries
 * over the IR: no allocation, no findings, no memory sizes (mem.h). */
#ifndef HLO_LOOP_H
#define HLO_LOOP_H
#include <stdint.h>
#include "ir.h"

/* k when i is get-tuple-element(parameter 0 of c), index=k; else -1. */
int64_t loop_param_index(const struct hlo_comp *c, const struct hlo_instr *i);

/* The tuple index of w's induction variable: backend_config
 * known_induction_variable, else the carry slot the body's root tuple sets
 * to "gte(p, k) +/- constant", else the slot the condition compares; -1
 * when none is found. */
int64_t loop_induction_index(const struct hlo_module *m, const struct hlo_instr *w);

/* Trip count of w: backend_config known_trip_count, else inferred from
 * the condition "gte(p, k) <dir> constant", the init tuple's constant at k
 * and the body's "gte(p, k) +/- constant"; -1 when unknown. */
int64_t loop_trip_count(const struct hlo_module *m, const struct hlo_instr *w);

/* True when i is a constant scalar integer; its value in *v. */
bool loop_const_int(const struct hlo_module *m, const struct hlo_instr *i, int64_t *v);
#endif
