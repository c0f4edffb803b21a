/* verify.c - checks on a resolved module (first cut: operand counts).
 * Reports located errors; never changes the IR. */
#include "verify.h"

unsigned verify_module(struct hlo_module *m, struct diag_sink *d)
{
	unsigned before = d->errors;
	for (uint32_t c = 0; c < m->ncomps; c++) {
		struct hlo_comp *comp = m->comps[c];
		for (uint32_t k = 0; k < comp->ninstrs; k++) {
			struct hlo_instr *i = comp->instrs[k];
			int arity = ir_opcode_arity(i->op);
			if (arity >= 0 && (int)i->noperands != arity && i->async_wrapped == OP_COUNT)
				diag_report(d, m->file->src, i->opcode_span, DIAG_ERROR,
					    "'%s' takes %d operand%s, got %u", ir_opcode_name(i->op), arity,
					    arity == 1 ? "" : "s", i->noperands);
		}
	}
	return d->errors - before;
}
