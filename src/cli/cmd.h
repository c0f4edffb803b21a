/* cmd.h - subcommand entry points and the option helpers they share
 * (cmd.c).
 * Each cmd_X(argc, argv) gets argv[0] = the command name and returns the
 * process exit status. */
#ifndef HLO_CMD_H
#define HLO_CMD_H
#include <stdbool.h>
#include "config.h"
#include "diag.h"
#include "parse.h"

int cmd_parse(int argc, char **argv);
int cmd_fmt(int argc, char **argv);
int cmd_mem(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_rules(int argc, char **argv);
int cmd_annotate(int argc, char **argv);

/* argv[*i] is "--name VALUE" or "--name=VALUE": the value (advancing *i past
 * a separate value), or NULL after a usage message. */
const char *cmd_opt_value(int argc, char **argv, int *i, const char *name);
/* True when a is option name, alone or as name=... */
bool cmd_opt_is(const char *a, const char *name);
/* Parses an unsigned option value; prints a usage error and returns false on junk. */
bool cmd_uint_arg(const char *opt, const char *val, unsigned *out);
/* Loads and parses path; on failure reports and returns NULL (the source too). */
struct hlo_file *cmd_load(const char *path, struct diag_sink *d, struct source **src_out);
/* Hands argv's lint options (rule thresholds, --target, --hbm, --select,
 * --exit-zero, ...) to c, skipping the command's own: valued ones take a
 * value ("-o FILE", "--config FILE" or "--config=FILE"), flags do not.  An
 * option neither knows is an error naming cmd; false after saying why. */
bool cmd_config_args(int argc, char **argv, struct config *c, const char *cmd, const char *const *valued,
		     const char *const *flags);
#endif
