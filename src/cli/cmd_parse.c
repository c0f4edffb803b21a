/* cmd_parse.c - `hlolint parse FILE...`: parse and verify every module of
 * every file; print nothing on success, located errors otherwise (exit 2). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "jobs.h"

static void cmd_parse_help(FILE *out)
{
	fprintf(out, "usage: hlolint parse [--max-errors N] [--all-stages] [-j N] FILE...\n\n"
		     "Parses and verifies every module in each FILE ('-' = stdin, .gz accepted; a\n"
		     "--xla_dump_to folder gives its after-optimizations modules, --all-stages the\n"
		     "before-optimizations ones too).\n"
		     "Prints nothing and exits 0 when all are valid; otherwise prints\n"
		     "'path:line:col: error: message' with the source line and a caret, exit 2.\n\n"
		     "  --max-errors N   stop after N errors per run (default 20, 0 = no limit)\n"
		     "  -j N, --jobs N   parse N files at once (default: one per core)\n");
}

/* -j: a worker parses one input into a deferred sink; the delivery prints
 * its diagnostics in input order. */
struct cmd_parse_run {
	struct cmd_inputs *in;
	struct diag_sink *d;
};

static void *cmd_parse_work(void *ctx, int k)
{
	struct cmd_parse_run *r = ctx;
	struct cmd_loaded *l = xcalloc(1, sizeof *l);
	cmd_load_deferred(r->in->paths[k], r->d, l);
	parse_free(l->f);           /* only its diagnostics are delivered */
	l->f = NULL;
	return l;
}

static void cmd_parse_drop(void *ctx, int k, void *res)
{
	(void)ctx, (void)k;
	cmd_loaded_free(res);
	free(res);
}

static bool cmd_parse_deliver(void *ctx, int k, void *res)
{
	struct cmd_parse_run *r = ctx;
	diag_replay(r->d, &((struct cmd_loaded *)res)->d);
	cmd_parse_drop(ctx, k, res);
	return !diag_full(r->d);
}

int cmd_parse(int argc, char **argv)
{
	unsigned max_errors = 20, jobs = 0;
	bool all_stages = false;
	int nfiles = 0;
	char **files = calloc((size_t)argc, sizeof *files);
	for (int i = 1; i < argc; i++) {
		int r = cmd_jobs_arg(argc, argv, &i, &jobs);
		if (r < 0) {
			free(files);
			return 2;
		} else if (r) {
			continue;
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			cmd_parse_help(stdout);
			free(files);
			return 0;
		} else if (!strcmp(argv[i], "--max-errors")) {
			if (!cmd_uint_arg(argv[i], argv[i + 1], &max_errors)) {
				free(files);
				return 2;
			}
			i++;
		} else if (!strncmp(argv[i], "--max-errors=", 13)) {
			if (!cmd_uint_arg("--max-errors", argv[i] + 13, &max_errors)) {
				free(files);
				return 2;
			}
		} else if (!strcmp(argv[i], "--all-stages")) {
			all_stages = true;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "hlolint: error: unknown option '%s' for parse\n", argv[i]);
			free(files);
			return 2;
		} else {
			files[nfiles++] = argv[i];
		}
	}
	if (!nfiles) {
		cmd_parse_help(stderr);
		free(files);
		return 2;
	}
	struct cmd_inputs in;
	if (!cmd_inputs(files, nfiles, all_stages, &in)) {
		free(files);
		return 2;
	}
	struct diag_sink d;
	diag_init(&d, stderr, max_errors);
	struct cmd_parse_run run = { &in, &d };
	struct jobs j = { in.n, jobs, &run, cmd_parse_work, cmd_parse_deliver, cmd_parse_drop };
	jobs_run(&j);
	cmd_inputs_free(&in);
	free(files);
	return d.errors ? 2 : 0;
}
