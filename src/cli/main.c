/* main.c - the hlolint driver: subcommand dispatch, options, exit status.
 * The library never exits; this file turns error counts into exit codes
 * (0 ok, 1 findings, 2 usage/I/O/parse error) and owns all stdout writing
 * decisions.  Each command's options are parsed here, one way for all
 * (args.h); subcommand logic lives in cmd_*.c files. */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "args.h"
#include "cmd.h"
#include "help.h"
#include "jobs.h"
#include "output.h"
#include "threads.h"
#include "timing.h"

/* Each command's entry point, in commands.def's order. */
static int (*const main_run[CMD_COUNT])(const struct args *) = {
#define COMMAND(id, name, minpos, maxpos, files, summary, about, exits) cmd_##name,
#include "commands.def"
#undef COMMAND
};

/* The one place a failed write to standard output is told (a full disk,
 * a closed pipe, /dev/full): exit 2 with one line, whatever the command
 * returned, --help and --version too. */
static int main_stdout_done(int rc)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return rc;
	fprintf(stderr, "hlolint: error: cannot write output\n");
	return 2;
}

/* `hlolint help [COMMAND | --man]`. */
static int main_help(int argc, char **argv)
{
	enum cmd_id c = argc > 2 ? args_command(argv[2]) : CMD_COUNT;
	if (argc > 2 && !strcmp(argv[2], "--man")) {
		help_man(stdout);
	} else if (c < CMD_COUNT) {
		help_command(stdout, c);
	} else if (argc > 2) {
		fprintf(stderr, "hlolint: error: no command '%s' to help with\n", argv[2]);
		return 2;
	} else {
		help_overview(stdout);
	}
	return main_stdout_done(0);
}

/* Parses argv for cmd and runs it; --help prints its help. */
static int main_command_run(enum cmd_id cmd, int argc, char **argv)
{
	struct args a;
	int rc = 2;
	if (args_parse(cmd, argc, argv, &a)) {
		output_set_force(args_has(&a, FLAG_FORCE));
		if (a.help) {
			help_command(stdout, cmd);
			rc = 0;
		} else {
			rc = main_run[cmd](&a);
		}
	}
	args_free(&a);
	return main_stdout_done(rc);
}

int main(int argc, char **argv)
{
	timing_start();
	output_init_signals();
	mallopt(M_MMAP_THRESHOLD, 128 * 1024);
	if (!jobs_env_ok())
		return 2;
	threads_set(jobs_default());   /* one large input: parsed in pieces, one per core */
	if (argc < 2) {
		help_overview(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help"))
		return main_help(argc, argv);
	if (!strcmp(argv[1], "--version")) {
		printf("hlolint %s\n", HLOLINT_VERSION);
		return main_stdout_done(0);
	}
	enum cmd_id cmd = args_command(argv[1]);
	if (cmd < CMD_COUNT) {
		int rc = main_command_run(cmd, argc - 1, argv + 1);
		timing_mark("output and exit");
		timing_report();
		return rc;
	}
	const char *near = args_suggest_command(argv[1]);
	if (near)
		fprintf(stderr, "hlolint: error: unknown command '%s'; did you mean '%s'?\n", argv[1], near);
	else
		fprintf(stderr, "hlolint: error: unknown command '%s' (see 'hlolint --help')\n", argv[1]);
	return 2;
}
