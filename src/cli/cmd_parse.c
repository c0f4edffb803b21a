/* cmd_parse.c - `hlolint parse FILE...`: parse and verify every module of
 * every file; print nothing on success, located errors otherwise (exit 2). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "jobs.h"

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

int cmd_parse(const struct args *a)
{
	struct cmd_lint_args l;
	struct cmd_inputs in;
	if (!cmd_lint_from(a, &l) || !cmd_inputs(a->files, a->nfiles, l.all_stages, &in))
		return 2;
	struct diag_sink d;
	diag_init(&d, stderr, l.max_errors);
	struct cmd_parse_run run = { &in, &d };
	struct jobs j = { in.n, l.jobs, &run, cmd_parse_work, cmd_parse_deliver, cmd_parse_drop };
	jobs_run(&j);
	cmd_inputs_free(&in);
	return d.errors ? 2 : 0;
}
