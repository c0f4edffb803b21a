/* flow.h - which positions (instruction, leaf) are one buffer: XLA's
 * aliasing rules, the one home of that knowledge (flow.c).  Adding an
 * opcode that aliases, calls or updates in place is a case here
 * (docs/ARCHITECTURE.md "How to add an opcode"). */
#ifndef HLO_FLOW_H
#define HLO_FLOW_H
#include <stdbool.h>
#include <stdint.h>
#include "alias.h"

/* One input_output_alias entry in leaves: the entry root's leaves
 * [output, output + n) share the buffers of parameter param's leaves
 * [param_leaf, param_leaf + n). */
struct flow_io {
	uint32_t output, param, param_leaf, n;
};
/* The entries of m's input_output_alias whose paths name subshapes of the
 * entry's root and of an existing parameter with the same leaf count, in
 * order, into *out (allocated in a); returns their count. */
uint32_t flow_io_pairs(struct alias_state *as, const struct hlo_module *m, struct arena *a, struct flow_io **out);

/* What a placement custom-call asks for: MoveToHost or
 * annotate_device_placement to pinned_host/unpinned_host (FLOW_PLACE_HOST),
 * MoveToDevice or a placement "device" (FLOW_PLACE_DEVICE), another memory
 * annotation (FLOW_PLACE_OTHER), or nothing (FLOW_PLACE_NONE).  The one place
 * that reads these calls; in an optimized module XLA has removed them. */
enum flow_placement { FLOW_PLACE_NONE, FLOW_PLACE_HOST, FLOW_PLACE_DEVICE, FLOW_PLACE_OTHER };
enum flow_placement flow_placement(const struct hlo_file *f, const struct hlo_instr *i);

/* When leaf j of i lives in another instruction's buffer (XLA's aliasing:
 * get-tuple-element, tuple, bitcast, while, the operand halves of async
 * starts, the done halves of async pairs, annotating custom-calls), sets
 * (*src, *sj). */
bool flow_source(struct alias_state *as, const struct hlo_instr *i, uint32_t j, const struct hlo_instr **src,
		  uint32_t *sj);
/* Instructions whose result is entirely other buffers and that read
 * nothing themselves: their operands' uses are their users' uses. */
bool flow_pure(struct alias_state *as, const struct hlo_instr *i);

/* Whether i may write its result into a dying operand of the same size
 * (XLA's CanShareOperandBufferWithUser for element-wise instructions,
 * select, clamp, loop and input fusions, all-reduce); dynamic-update-slice
 * and scatter update operand 0 (their inputs) and are modelled apart. */
bool flow_shares_operand(const struct hlo_instr *i);
/* dynamic-update-slice, scatter and sort: they write over their updated
 * operands (flow_updated_operand), dying or not (XLA copies when not). */
bool flow_updates_in_place(const struct hlo_instr *i);
/* flow_shares_operand or flow_updates_in_place: i may write over an
 * operand dying at it. */
bool flow_writes_in_place(const struct hlo_instr *i);
/* The operand that result leaf j of i (nl leaves) updates in place: a
 * dynamic-update-slice's operand 0, a scatter's input j, the parameter
 * a fusion's root updates (flow_inplace_param), a sort's operand j when
 * the sort is its only user (XLA's CanShareOperandBufferWithUser:
 * corpora/xla oom_kinds/far_over sorts 3.64T of keys and 3.64T of
 * indices in place); -1 when none. */
int64_t flow_updated_operand(const struct hlo_instr *i, uint32_t nl, uint32_t j);
/* The parameter a fused computation's root updates in place (a
 * dynamic-update-slice or scatter of it, through bitcasts), else -1. */
int64_t flow_inplace_param(const struct hlo_instr *root);

/* The computations a control-flow instruction hands buffers to, in the
 * order the model analyses them: each with the operand bound to its
 * parameter 0 (while: body and condition take operand 0; conditional:
 * branch k takes operand k+1) or -1 for "parameter n is operand n" (call,
 * fusion), and whether its root is the instruction's result (colocate:
 * the while body, every branch, a call's or fusion's computation). */
struct flow_callees {
	uint32_t n;
	struct hlo_comp *c[8];
	int32_t operand[8];
	bool colocate[8];
	struct hlo_comp **many;   /* branch_computations past 8 */
};

/* i's callees into *out; fusions: a fusion's computation too (its
 * parameters and root are the fusion's operands and result; the memory
 * model sizes a fusion as one instruction and leaves it out). */
void flow_callees_of(const struct hlo_instr *i, bool fusions, struct flow_callees *out);
/* How many callees *cl holds (branch_computations past the fixed array). */
uint32_t flow_callee_count(const struct hlo_instr *i, const struct flow_callees *cl);
/* The k-th of them. */
void flow_callee_at(const struct flow_callees *cl, uint32_t k, struct hlo_comp **c, int32_t *operand,
		    bool *colocate);
#endif
