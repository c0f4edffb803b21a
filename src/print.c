#include "print.h"
void print_module(FILE *out, struct hlo_module *m, enum print_style style) { (void)out; (void)m; (void)style; }
