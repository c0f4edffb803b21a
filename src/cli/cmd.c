/* cmd.c - what the subcommands share: option spelling (--name VALUE or
 * --name=VALUE), unsigned values, loading an input, and handing the lint
 * options that check and annotate both take to the configuration.  Commands
 * parse options and print; nothing here runs an analysis. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "output.h"
#include "dumpdir.h"
#include "report.h"
#include "threads.h"

const char *cmd_opt_value(int argc, char **argv, int *i, const char *name)
{
	const char *a = argv[*i];
	size_t n = strlen(name);
	if (!strncmp(a, name, n) && a[n] == '=')
		return a + n + 1;
	if (*i + 1 >= argc) {
		fprintf(stderr, "hlolint: error: option '%s' needs a value\n", name);
		return NULL;
	}
	return argv[++*i];
}

bool cmd_opt_is(const char *a, const char *name)
{
	size_t n = strlen(name);
	return !strncmp(a, name, n) && (a[n] == 0 || a[n] == '=');
}

bool cmd_uint_arg(const char *opt, const char *val, unsigned *out)
{
	char *end;
	if (!val) {
		fprintf(stderr, "hlolint: error: option '%s' needs a value\n", opt);
		return false;
	}
	unsigned long v = strtoul(val, &end, 10);
	if (*val == '-' || end == val || *end || v > 1000000000ul) {
		fprintf(stderr, "hlolint: error: option '%s' expects a number, got '%s'\n", opt, val);
		return false;
	}
	*out = (unsigned)v;
	return true;
}

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

int cmd_jobs_arg(int argc, char **argv, int *i, unsigned *jobs)
{
	const char *s = argv[*i], *v;
	if (!strncmp(s, "-j", 2) && s[2])
		v = s + 2;                                  /* -j4 */
	else if (!strcmp(s, "-j") || cmd_opt_is(s, "--jobs"))
		v = cmd_opt_value(argc, argv, i, s[1] == 'j' ? "-j" : "--jobs");
	else
		return 0;
	if (!v || !cmd_uint_arg(s[1] == 'j' ? "-j" : "--jobs", v, jobs))
		return -1;
	if (*jobs == 0) {
		fprintf(stderr, "hlolint: error: -j needs at least 1 job\n");
		return -1;
	}
	return 1;
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

/* name in the NULL-terminated list. */
static bool cmd_listed(const char *const *list, const char *name)
{
	for (; list && *list; list++)
		if (!strcmp(*list, name))
			return true;
	return false;
}

bool cmd_config_args(int argc, char **argv, struct config *c, const char *cmd, const char *const *valued,
		     const char *const *flags)
{
	char err[512];
	for (int i = 1; i < argc; i++) {
		const char *s = argv[i];
		unsigned jobs;
		if (cmd_jobs_arg(argc, argv, &i, &jobs))
			continue;   /* checked in the first pass */
		if (s[0] == '-' && s[1] != '-' && cmd_listed(valued, s)) {
			i++;        /* a short option's value ("-o FILE") */
			continue;
		}
		if (s[0] != '-' || s[1] != '-' || cmd_listed(flags, s))
			continue;
		if (!strcmp(s, "--exit-zero")) {
			c->exit_zero = true;
			continue;
		}
		if (!strcmp(s, "--require-target") || !strcmp(s, "--no-require-target")) {
			c->require_target = s[2] == 'r';
			continue;
		}
		if (!strcmp(s, "--force")) {
			output_set_force(true);   /* -o, --in-place, --write-baseline over a read-only file */
			continue;
		}
		/* Split --name[=value]. */
		char name[128];
		const char *eq = strchr(s, '=');
		size_t n = eq ? (size_t)(eq - s) : strlen(s);
		if (n >= sizeof name)
			n = sizeof name - 1;
		memcpy(name, s, n);
		name[n] = 0;
		const char *v = eq ? eq + 1 : argv[++i];
		if (cmd_listed(valued, name))
			continue;
		int r = config_set_arg(c, name, v, err, sizeof err);
		if (r < 0) {
			fprintf(stderr, "hlolint: error: unknown option '%s' for %s (see 'hlolint %s --help' and "
					"'hlolint rules')\n", name, cmd, cmd);
			return false;
		}
		if (!r) {
			fprintf(stderr, "hlolint: error: %s\n", err);
			return false;
		}
	}
	return true;
}

int cmd_lint_arg(int argc, char **argv, int *i, struct cmd_lint_args *a)
{
	const char *s = argv[*i], *v;
	int r = cmd_jobs_arg(argc, argv, i, &a->jobs);
	if (r > 0)
		threads_set(a->jobs);   /* annotate, report: the pieces of their one input */
	if (r)
		return r;
	if (cmd_opt_is(s, "--config"))
		return (a->config = cmd_opt_value(argc, argv, i, "--config")) ? 1 : -1;
	if (cmd_opt_is(s, "--baseline"))
		return (a->baseline = cmd_opt_value(argc, argv, i, "--baseline")) ? 1 : -1;
	if (cmd_opt_is(s, "--max-errors"))
		return (v = cmd_opt_value(argc, argv, i, "--max-errors")) &&
		       cmd_uint_arg("--max-errors", v, &a->max_errors) ? 1 : -1;
	if (!strcmp(s, "--no-config")) {
		a->no_config = true;
		return 1;
	}
	if (!strcmp(s, "--all-stages")) {
		a->all_stages = true;
		return 1;
	}
	/* Flags applied with the config (cmd_config_args). */
	return !strcmp(s, "--exit-zero") || !strcmp(s, "--require-target") || !strcmp(s, "--no-require-target") ||
	       !strcmp(s, "--force");
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

bool cmd_lint_config(const struct cmd_lint_args *a, struct config *cfg, struct diag_sink *d,
		     bool (*apply)(int argc, char **argv, struct config *cfg), int argc, char **argv)
{
	if (!cmd_config_load(a->config, a->no_config, cfg, d) || !apply(argc, argv, cfg))
		return false;
	config_apply_source_root(cfg);
	return !a->baseline || config_baseline_load(cfg, a->baseline, d);
}

bool cmd_inputs(char *const *files, int nfiles, bool all_stages, struct cmd_inputs *out)
{
	memset(out, 0, sizeof *out);
	int cap = nfiles + 1;
	out->paths = xcalloc((size_t)cap, sizeof *out->paths);
	for (int k = 0; k < nfiles; k++) {
		if (!dumpdir_is_dir(files[k])) {
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
		out->owned = xreallocarray(out->owned, (size_t)out->nowned + dd.n, sizeof *out->owned);
		for (uint32_t j = 0; j < dd.n; j++) {
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
	memset(in, 0, sizeof *in);
}

int cmd_frame_run(int argc, char **argv, const struct cmd_frame *fr)
{
	struct config cfg;
	config_init(&cfg);
	struct diag_sink d;
	diag_init(&d, stderr, 20);
	bool help = false;
	int rc = 2;
	if (!fr->scan(argc, argv, fr->args, &help))
		goto done;
	if (help || !fr->ready(fr->args)) {
		fr->help(help ? stdout : stderr);
		rc = help ? 0 : 2;
		goto done;
	}
	d.max_errors = fr->lint->max_errors;
	if (cmd_lint_config(fr->lint, &cfg, &d, fr->apply, argc, argv))
		rc = fr->run(fr->args, &cfg, &d);
done:
	config_free(&cfg);
	diag_free(&d);
	return rc;
}

/* --format NAME into *s->format when allowed; -1 after a usage message. */
static int cmd_scan_format(int argc, char **argv, int *i, struct cmd_scan *s)
{
	const char *v = cmd_opt_value(argc, argv, i, "--format");
	enum report_format f;
	if (!v)
		return -1;
	if (!report_format_parse(v, &f) || !(s->formats & (1u << f))) {
		fprintf(stderr, "hlolint: error: %s cannot write '%s' output\n", s->cmd, v);
		return -1;
	}
	*s->format = (int)f;
	return 1;
}

/* One argument of cmd_scan_args: 1 taken, -1 error. */
static int cmd_scan_one(int argc, char **argv, int *i, struct cmd_scan *s, bool *help)
{
	const char *a = argv[*i];
	int r = cmd_lint_arg(argc, argv, i, s->lint);
	if (r)
		return r;
	if (s->own && (r = s->own(s->ctx, argc, argv, i)))
		return r;
	if (!strcmp(a, "--help") || !strcmp(a, "-h"))
		*help = true;
	else if (s->out && (!strcmp(a, "-o") || cmd_opt_is(a, "--output")))
		return (*s->out = cmd_opt_value(argc, argv, i, a[1] == 'o' ? "-o" : "--output")) ? 1 : -1;
	else if (s->format && cmd_opt_is(a, "--format"))
		return cmd_scan_format(argc, argv, i, s);
	else if (a[0] == '-' && a[1] == '-') {
		if (!strchr(a, '=') && ++*i >= argc) {   /* a lint option: checked with the config */
			fprintf(stderr, "hlolint: error: option '%s' needs a value\n", a);
			return -1;
		}
	} else if (a[0] == '-' && a[1]) {
		fprintf(stderr, "hlolint: error: unknown option '%s' for %s\n", a, s->cmd);
		return -1;
	} else if (s->npos < s->maxpos) {
		s->pos[s->npos++] = a;
	} else {
		fprintf(stderr, "hlolint: error: %s takes %d file argument%s, got '%s' too\n", s->cmd, s->maxpos,
			s->maxpos == 1 ? "" : "s", a);
		return -1;
	}
	return 1;
}

bool cmd_scan_args(int argc, char **argv, struct cmd_scan *s, bool *help)
{
	for (int i = 1; i < argc && !*help; i++)
		if (cmd_scan_one(argc, argv, &i, s, help) < 0)
			return false;
	return true;
}
