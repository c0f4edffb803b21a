/* cmd.h - subcommand entry points and the option helpers they share
 * (cmd.c).
 * Each cmd_X(argc, argv) gets argv[0] = the command name and returns the
 * process exit status. */
#ifndef HLO_CMD_H
#define HLO_CMD_H
#include <stdbool.h>
#include <stdio.h>
#include "config.h"
#include "diag.h"
#include "parse.h"

/* The one version string (--version, SARIF's driver). */
#define HLOLINT_VERSION "0.1.0"

int cmd_parse(int argc, char **argv);
int cmd_fmt(int argc, char **argv);
int cmd_mem(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_rules(int argc, char **argv);
int cmd_annotate(int argc, char **argv);
int cmd_oom(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_report(int argc, char **argv);

/* argv[*i] is "--name VALUE" or "--name=VALUE": the value (advancing *i past
 * a separate value), or NULL after a usage message. */
const char *cmd_opt_value(int argc, char **argv, int *i, const char *name);
/* True when a is option name, alone or as name=... */
bool cmd_opt_is(const char *a, const char *name);
/* Parses an unsigned option value; prints a usage error and returns false on junk. */
bool cmd_uint_arg(const char *opt, const char *val, unsigned *out);
/* -j N, -jN, --jobs N, --jobs=N (N >= 1) into *jobs: 1 taken (*i past
 * its value), 0 not it, -1 after a usage message. */
int cmd_jobs_arg(int argc, char **argv, int *i, unsigned *jobs);
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
/* Hands argv's lint options (rule thresholds, --target, --hbm, --select,
 * --exit-zero, ...) to c, skipping the command's own: valued ones take a
 * value ("-o FILE", "--config FILE" or "--config=FILE"), flags do not.  An
 * option neither knows is an error naming cmd; false after saying why. */
bool cmd_config_args(int argc, char **argv, struct config *c, const char *cmd, const char *const *valued,
		     const char *const *flags);

/* The inputs of a command: the files as given, each --xla_dump_to folder
 * replaced by the modules dumpdir_list chooses in it (the
 * before-optimizations ones too with all_stages). */
struct cmd_inputs {
	char **paths;               /* n entries: argv's strings or malloc'd ones (owned) */
	int n;
	char **owned;
	int nowned;
};
/* False after an error message (a folder that cannot be read or holds no
 * module). */
bool cmd_inputs(char *const *files, int nfiles, bool all_stages, struct cmd_inputs *out);
void cmd_inputs_free(struct cmd_inputs *in);
/* One input (annotate, fmt): a folder must hold exactly one module. */
bool cmd_input_one(const char *file, bool all_stages, struct cmd_inputs *out);

/* The first pass over argv of a command that runs the pipeline (oom, diff,
 * report): cmd_lint_arg's options, --help, -o/--output (when out is set),
 * --format (when format is set; only the formats in the `formats` bit set),
 * the command's own options through own (1 taken, 0 not its, -1 error),
 * every other --option with its value (checked with the config later),
 * and up to maxpos positional arguments into pos.  False after a usage
 * message. */
struct cmd_scan {
	const char *cmd;
	struct cmd_lint_args *lint;
	const char **out;
	int *format;                /* an enum report_format */
	unsigned formats;           /* 1u << REPORT_* allowed */
	int (*own)(void *ctx, int argc, char **argv, int *i);
	void *ctx;
	const char **pos;
	int maxpos, npos;
};
bool cmd_scan_args(int argc, char **argv, struct cmd_scan *s, bool *help);

/* The frame of a command that runs on a configuration (oom, diff,
 * report): its first pass over argv, --help (usage on stderr, exit 2, when
 * a required input is missing), the project config with argv's options on
 * top (through apply), then run; the exit status.  args is the command's. */
struct cmd_frame {
	void *args;
	struct cmd_lint_args *lint;
	bool (*scan)(int argc, char **argv, void *args, bool *help);
	void (*help)(FILE *out);
	bool (*ready)(const void *args);
	bool (*apply)(int argc, char **argv, struct config *cfg);
	int (*run)(void *args, struct config *cfg, struct diag_sink *d);
};
int cmd_frame_run(int argc, char **argv, const struct cmd_frame *fr);

/* The options check and annotate read before the project config. */
struct cmd_lint_args {
	const char *config, *baseline;
	bool no_config;
	bool all_stages;            /* --all-stages: folders give before-optimizations modules too */
	unsigned max_errors;
	unsigned jobs;              /* -j: threads over the inputs, 0 = one per core */
};
/* Takes argv[*i] into a when it is one of them (--config, --no-config,
 * --baseline, --max-errors, -j, --exit-zero, applied later): 1 taken (*i past
 * its value), 0 not one of them, -1 after a usage message. */
int cmd_lint_arg(int argc, char **argv, int *i, struct cmd_lint_args *a);
/* The config file path, else the discovered one unless no_config, loaded
 * into cfg; false having reported why to d. */
bool cmd_config_load(const char *path, bool no_config, struct config *cfg, struct diag_sink *d);
/* The project config (a->config, else the discovered one unless
 * --no-config), then argv's options through apply, then the baseline;
 * false having said why. */
bool cmd_lint_config(const struct cmd_lint_args *a, struct config *cfg, struct diag_sink *d,
		     bool (*apply)(int argc, char **argv, struct config *cfg), int argc, char **argv);
#endif
