/* main.c - the hlolint driver: subcommand dispatch, options, exit status.
 * The library never exits; this file turns error counts into exit codes
 * (0 ok, 1 findings, 2 usage/I/O/parse error) and owns all stdout writing
 * decisions.  Subcommand logic lives in cmd_*.c files. */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "jobs.h"
#include "output.h"
#include "threads.h"
#include "timing.h"


static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
} main_commands[] = {
	{ "parse", cmd_parse, "parse and verify HLO modules; report errors" },
	{ "fmt", cmd_fmt, "print a module in XLA's canonical text (default, long or short style)" },
	{ "mem", cmd_mem, "estimate per-device memory: peak, breakdown, largest allocations" },
	{ "check", cmd_check, "run the rules (memory, sharding, host transfers) and report findings" },
	{ "rules", cmd_rules, "list the rules of check with a one-line summary and their options" },
	{ "annotate", cmd_annotate, "write the module back with findings as comments; --apply makes the fixes" },
	{ "report", cmd_report, "the memory picture as one self-contained HTML page" },
	{ "diff", cmd_diff, "what a change did to memory: two compiles compared, for CI" },
	{ "oom", cmd_oom, "from XLA's out-of-memory message to the culprit instruction and its fixes" },
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

static void main_usage(FILE *out)
{
	fprintf(out, "usage: hlolint <command> [options] FILE...\n\ncommands:\n");
	for (size_t i = 0; i < sizeof main_commands / sizeof main_commands[0]; i++)
		fprintf(out, "  %-9s %s\n", main_commands[i].name, main_commands[i].summary);
	fprintf(out, "\nRun 'hlolint <command> --help' for a command's options.\n"
		     "FILE may be '-' for standard input; .gz files are decompressed.  A folder\n"
		     "(XLA's --xla_dump_to) gives its after-optimizations modules; --all-stages adds\n"
		     "the before-optimizations ones.\n"
		     "HLOLINT_THREADS=N is the default of -j (else one thread per core).\n"
		     "Exit status: 0 ok, 1 findings, 2 usage, I/O or parse error.\n");
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
		main_usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		main_usage(stdout);
		return main_stdout_done(0);
	}
	if (!strcmp(argv[1], "--version")) {
		printf("hlolint %s\n", HLOLINT_VERSION);
		return main_stdout_done(0);
	}
	for (size_t i = 0; i < sizeof main_commands / sizeof main_commands[0]; i++)
		if (!strcmp(argv[1], main_commands[i].name)) {
			int rc = main_stdout_done(main_commands[i].run(argc - 1, argv + 1));
			timing_mark("output and exit");
			timing_report();
			return rc;
		}
	fprintf(stderr, "hlolint: error: unknown command '%s'\n", argv[1]);
	main_usage(stderr);
	return 2;
}
