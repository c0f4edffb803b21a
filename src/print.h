/* print.h - the IR printer: modules back to HLO text in XLA's canonical
 * styles.  The inverse of the parser: parse -> print -> parse -> print is a
 * fixed point. */
#ifndef HLO_PRINT_H
#define HLO_PRINT_H
#include <stdio.h>
#include "ir.h"

enum print_style {
	PRINT_DEFAULT, /* HloModule::ToString(): compiled.as_text() */
	PRINT_LONG,    /* default + operand shapes + large constants */
	PRINT_SHORT,   /* ShortParsable: no %, no operand shapes, no metadata, no signatures */
};

void print_module(FILE *out, struct hlo_module *m, enum print_style style);
#endif
