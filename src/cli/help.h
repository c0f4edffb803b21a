/* help.h - what hlolint says about itself, generated from the tables
 * (commands.def, flags.def, passes/options.def, passes.def): the
 * overview, each command's --help and the man page, so that none can
 * leave an option out.  Prints only. */
#ifndef HLO_HELP_H
#define HLO_HELP_H
#include <stdio.h>
#include "args.h"

void help_overview(FILE *out);
void help_command(FILE *out, enum cmd_id cmd);
/* The man page (docs/hlolint.1, `make man`) in troff. */
void help_man(FILE *out);
#endif
