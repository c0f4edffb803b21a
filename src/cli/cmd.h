/* cmd.h - subcommand entry points and the option helpers they share
 * (cmd.c).
 * Each cmd_X(argc, argv) gets argv[0] = the command name and returns the
 * process exit status. */
#ifndef HLO_CMD_H
#define HLO_CMD_H
#include <stdbool.h>
#include <stdio.h>
#include "args.h"
#include "config.h"
#include "diag.h"
#include "parse.h"

/* The one version string (--version, SARIF's driver). */
#define HLOLINT_VERSION "0.1.0"

/* Each command (commands.def), on its parsed command line. */
#define COMMAND(id, name, minpos, maxpos, files, summary, about, exits) int cmd_##name(const struct args *a);
#include "commands.def"
#undef COMMAND

/* Loads and parses path; on failure reports and returns NULL (the source too). */
struct hlo_file *cmd_load(const char *path, struct diag_sink *d, struct source **src_out);
/* An input loaded on a -j worker (jobs.h): its diagnostics deferred until
 * the delivery replays them (diag_replay), its source and parse. */
struct cmd_loaded {
	struct diag_sink d;
	struct source *src;
	struct hlo_file *f;         /* NULL when it could not be read */
};
/* cmd_load of path into l, the sink deferred with like's cap and keep. */
void cmd_load_deferred(const char *path, const struct diag_sink *like, struct cmd_loaded *l);
void cmd_loaded_free(struct cmd_loaded *l);
/* The inputs of a command: the files as given, each --xla_dump_to folder
 * replaced by the modules dumpdir_list chooses in it (the
 * before-optimizations ones too with all_stages). */
struct cmd_inputs {
	char **paths;               /* n entries: argv's strings or malloc'd ones (owned) */
	int n;
	char **owned;
	int nowned;
	int *folder;                /* by path: the argument (a folder) it was listed from, -1 a file */
};
/* False after an error message (a folder that cannot be read or holds no
 * module). */
bool cmd_inputs(char *const *files, int nfiles, bool all_stages, struct cmd_inputs *out);
void cmd_inputs_free(struct cmd_inputs *in);
/* One input (annotate, fmt): a folder must hold exactly one module. */
bool cmd_input_one(const char *file, bool all_stages, struct cmd_inputs *out);

/* The options check and annotate read before the project config. */
struct cmd_lint_args {
	const char *config, *baseline;
	bool no_config;
	bool all_stages;            /* --all-stages: folders give before-optimizations modules too */
	unsigned max_errors;
	unsigned jobs;              /* -j: threads over the inputs, 0 = one per core */
};
/* The FLAGK_LINT options of a into l (max_errors 20 unless given); -j
 * also sets the pieces of one large input.  False after an error line. */
bool cmd_lint_from(const struct args *a, struct cmd_lint_args *l);
/* The config file path, else the discovered one unless no_config, loaded
 * into cfg; false having reported why to d. */
bool cmd_config_load(const char *path, bool no_config, struct config *cfg, struct diag_sink *d);
/* The project config (l->config, else the discovered one unless
 * --no-config), then a's settings over it (args_config), then the
 * baseline; false having said why. */
bool cmd_lint_config(const struct cmd_lint_args *l, const struct args *a, struct config *cfg, struct diag_sink *d);

/* The frame of a command that runs on a configuration (oom, diff,
 * report): the lint options, the project config with the command line's
 * settings on top, then run; the exit status. */
struct cmd_frame {
	const struct args *a;
	void *args;
	struct cmd_lint_args *lint;
	int (*run)(void *args, struct config *cfg, struct diag_sink *d);
};
int cmd_frame_run(const struct cmd_frame *fr);
#endif
