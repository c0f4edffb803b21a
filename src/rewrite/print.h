/* print.h - the IR printer: modules back to HLO text as XLA's
 * HloModule::ToString would print them after parsing (canonical order and
 * values, defaults dropped), in three styles.  parse -> print -> parse ->
 * print is a fixed point, and XLA's own output comes back byte for byte. */
#ifndef HLO_PRINT_H
#define HLO_PRINT_H
#include <stdio.h>
#include "ir.h"

enum print_style {
	PRINT_DEFAULT, /* HloModule::ToString(): compiled.as_text() */
	PRINT_LONG,    /* default + operand shapes + large constants */
	PRINT_SHORT,   /* ShortParsable: no %, no operand shapes, no metadata,
			* backend config, control predecessors or signatures */
};

/* Prints module m to out.  Computations come in source order; instructions
 * in post order (HloComputation::MakeInstructionPostOrder) unless the
 * module is scheduled (then non-fusion computations keep their order).
 * Attributes come in XLA's order (opcode attributes, callees, sharding,
 * frontend_attributes, control-predecessors, statistics, result_accuracy,
 * origin, metadata, backend_config, then unknown ones as written), each
 * value rebuilt from its decoded form (attr.h); a value that does not
 * decode is copied from its text, whitespace normalised, comments dropped.
 * Decoded values live in a private scratch arena released per instruction. */
void print_module(FILE *out, struct hlo_module *m, enum print_style style);
#endif
