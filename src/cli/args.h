/* args.h - the command line of every command, read one way: the options
 * of flags.def (and the rules' options of passes/options.def) through
 * getopt_long, so --opt=value and --opt value, -oFILE, combined short
 * options, unambiguous prefixes and "--" work alike everywhere.  An
 * unknown, ambiguous or incomplete option is one error line naming it.
 * Parses only: the commands read the values (args_value), the lint
 * options (args_lint) and the settings over the config (args_config). */
#ifndef HLO_ARGS_H
#define HLO_ARGS_H
#include <stdbool.h>
#include "config.h"

enum cmd_id {
#define COMMAND(id, name, minpos, maxpos, files, summary, about, exits) CMD_##id,
#include "commands.def"
#undef COMMAND
	CMD_COUNT
};
#define CMDS(id) (1u << CMD_##id)
#define CMDS_ALL ((1u << CMD_COUNT) - 1)
/* The commands that run the rules, that build the memory model, and that
 * read HLO inputs. */
#define CMDS_RULES (CMDS(CHECK) | CMDS(ANNOTATE) | CMDS(REPORT) | CMDS(DIFF) | CMDS(OOM))
#define CMDS_MODEL (CMDS_RULES | CMDS(MEM))
#define CMDS_INPUTS (CMDS_MODEL | CMDS(PARSE) | CMDS(FMT))

enum flag_kind { FLAGK_OWN, FLAGK_LINT, FLAGK_CONFIG };

enum flag_id {
#define FLAG(id, c, name, arg, cmds, kind, help) FLAG_##id,
#include "flags.def"
#undef FLAG
	FLAG_COUNT,
	FLAG_RULE = FLAG_COUNT      /* a rule's option (passes/options.def) */
};

struct flag_info {
	int c;                      /* short option, or 0 */
	const char *name, *arg, *help;
	unsigned cmds;
	enum flag_kind kind;
};
extern const struct flag_info flag_table[FLAG_COUNT];

struct command_info {
	const char *name, *files, *summary, *about, *exits;
	int minpos, maxpos;         /* file arguments; maxpos -1: any number */
};
extern const struct command_info command_table[CMD_COUNT];

/* One option as given, in command-line order. */
struct arg {
	enum flag_id flag;
	int rule_option;            /* FLAG_RULE: its enum config_option */
	const char *value;          /* NULL for a flag without one */
};

struct args {
	enum cmd_id cmd;
	struct arg *opts;
	int nopts;
	char **files;               /* the file arguments, in order */
	int nfiles;
	bool help;
};

/* Parses argv (argv[0] the command's name; argv is permuted) into a: true,
 * or false after one error line.  The count of files is checked unless
 * --help was given. */
bool args_parse(enum cmd_id cmd, int argc, char **argv, struct args *a);
void args_free(struct args *a);
/* Whether flag was given; its last value (NULL when not given). */
bool args_has(const struct args *a, enum flag_id flag);
const char *args_value(const struct args *a, enum flag_id flag);
/* The last value of flag as a number (0 to 10^9) into *out, unchanged when
 * not given; false after an error line. */
bool args_uint(const struct args *a, enum flag_id flag, unsigned *out);
/* The FLAGK_CONFIG options and the rules' options, in order, over c;
 * false after an error line. */
bool args_config(const struct args *a, struct config *c);
/* The command named word, or CMD_COUNT. */
enum cmd_id args_command(const char *word);
/* The command whose name is closest to word, or NULL: "did you mean". */
const char *args_suggest_command(const char *word);
#endif
