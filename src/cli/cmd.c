/* cmd.c - what the subcommands share: loading an input, the inputs of a
 * folder, the lint options (where the configuration comes from) and the
 * configuration with the command line's settings on top.  Commands read
 * their options (args.h) and print; nothing here runs an analysis. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "output.h"
#include "dumpdir.h"
#include "report.h"
#include "threads.h"

struct hlo_file *cmd_load(const char *path, struct diag_sink *d, struct source **src_out)
{
	char err[512];
	struct source *src = source_load(path, err, sizeof err);
	*src_out = src;
	source_note_input(src);
	if (!src) {
		diag_report(d, NULL, span_none(), DIAG_ERROR, "%s", err);
		return NULL;
	}
	if (src->binary) {
		diag_report(d, src, span_make(0, 0), DIAG_ERROR, "%s", src->binary);
		return NULL;
	}
	return parse_file(src, d);
}

void cmd_load_deferred(const char *path, const struct diag_sink *like, struct cmd_loaded *l)
{
	diag_init_deferred(&l->d, like->max_errors, like->keep);
	l->d.input = path;
	l->f = cmd_load(path, &l->d, &l->src);
}

void cmd_loaded_free(struct cmd_loaded *l)
{
	parse_free(l->f);
	source_free(l->src);
	diag_free(&l->d);
	l->f = NULL;
	l->src = NULL;
}

bool cmd_lint_from(const struct args *a, struct cmd_lint_args *l)
{
	memset(l, 0, sizeof *l);
	l->max_errors = 20;
	l->config = args_value(a, FLAG_CONFIG);
	l->baseline = args_value(a, FLAG_BASELINE);
	l->no_config = args_has(a, FLAG_NO_CONFIG);
	l->all_stages = args_has(a, FLAG_ALL_STAGES);
	if (!args_uint(a, FLAG_MAX_ERRORS, &l->max_errors) || !args_uint(a, FLAG_JOBS, &l->jobs))
		return false;
	if (args_has(a, FLAG_JOBS) && !l->jobs) {
		fprintf(stderr, "hlolint: error: -j needs at least 1 job\n");
		return false;
	}
	if (l->jobs)
		threads_set(l->jobs);   /* the pieces of one large input too */
	return true;
}

bool cmd_config_load(const char *path, bool no_config, struct config *cfg, struct diag_sink *d)
{
	char *found = NULL;
	if (!path && !no_config)
		path = found = config_discover();
	bool ok = !path || config_load(cfg, path, d);
	free(found);
	return ok;
}

bool cmd_lint_config(const struct cmd_lint_args *l, const struct args *a, struct config *cfg, struct diag_sink *d)
{
	if (!cmd_config_load(l->config, l->no_config, cfg, d) || !args_config(a, cfg))
		return false;
	config_apply_source_root(cfg);
	return !l->baseline || config_baseline_load(cfg, l->baseline, d);
}

bool cmd_inputs(char *const *files, int nfiles, bool all_stages, struct cmd_inputs *out)
{
	memset(out, 0, sizeof *out);
	int cap = nfiles + 1;
	out->paths = xcalloc((size_t)cap, sizeof *out->paths);
	out->folder = xcalloc((size_t)cap, sizeof *out->folder);
	for (int k = 0; k < nfiles; k++) {
		if (!dumpdir_is_dir(files[k])) {
			out->folder[out->n] = -1;
			out->paths[out->n++] = files[k];
			continue;
		}
		struct dumpdir dd;
		char err[512];
		bool ok = dumpdir_list(files[k], all_stages, &dd, err, sizeof err);
		if (ok && !dd.n)
			snprintf(err, sizeof err, "%s: error: no module in this folder (expected XLA's "
				 "module_*.after_optimizations.txt)", files[k]);
		if (!ok || !dd.n) {
			fprintf(stderr, "%s\n", err);
			dumpdir_free(&dd);
			cmd_inputs_free(out);
			return false;
		}
		cap += (int)dd.n;
		out->paths = xreallocarray(out->paths, (size_t)cap, sizeof *out->paths);
		out->folder = xreallocarray(out->folder, (size_t)cap, sizeof *out->folder);
		out->owned = xreallocarray(out->owned, (size_t)out->nowned + dd.n, sizeof *out->owned);
		for (uint32_t j = 0; j < dd.n; j++) {
			out->folder[out->n] = k;
			out->paths[out->n++] = dd.paths[j];
			out->owned[out->nowned++] = dd.paths[j];
		}
		free(dd.paths);
	}
	return true;
}

bool cmd_input_one(const char *file, bool all_stages, struct cmd_inputs *out)
{
	char *const files[] = { (char *)file };
	if (!cmd_inputs(files, 1, all_stages, out))
		return false;
	if (out->n == 1)
		return true;
	fprintf(stderr, "%s: error: this folder holds %d modules; name one of them\n", file, out->n);
	cmd_inputs_free(out);
	return false;
}

void cmd_inputs_free(struct cmd_inputs *in)
{
	for (int k = 0; k < in->nowned; k++)
		free(in->owned[k]);
	free(in->owned);
	free(in->paths);
	free(in->folder);
	memset(in, 0, sizeof *in);
}

int cmd_frame_run(const struct cmd_frame *fr)
{
	struct config cfg;
	config_init(&cfg);
	struct diag_sink d;
	diag_init(&d, stderr, 20);
	int rc = 2;
	if (cmd_lint_from(fr->a, fr->lint)) {
		d.max_errors = fr->lint->max_errors;
		if (cmd_lint_config(fr->lint, fr->a, &cfg, &d))
			rc = fr->run(fr->args, &cfg, &d);
	}
	config_free(&cfg);
	diag_free(&d);
	return rc;
}
