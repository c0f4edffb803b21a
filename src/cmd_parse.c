/* cmd_parse.c - `hlolint parse FILE...`: parse and verify every module of
 * every file; print nothing on success, located errors otherwise (exit 2). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"

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

static void cmd_parse_help(FILE *out)
{
	fprintf(out, "usage: hlolint parse [--max-errors N] FILE...\n\n"
		     "Parses and verifies every module in each FILE ('-' = stdin, .gz accepted).\n"
		     "Prints nothing and exits 0 when all are valid; otherwise prints\n"
		     "'path:line:col: error: message' with the source line and a caret, exit 2.\n\n"
		     "  --max-errors N   stop after N errors per run (default 20, 0 = no limit)\n");
}

int cmd_parse(int argc, char **argv)
{
	unsigned max_errors = 20;
	int nfiles = 0;
	char **files = calloc((size_t)argc, sizeof *files);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
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
	struct diag_sink d;
	diag_init(&d, stderr, max_errors);
	for (int i = 0; i < nfiles && !diag_full(&d); i++) {
		struct source *src;
		struct hlo_file *f = cmd_load(files[i], &d, &src);
		parse_free(f);
		source_free(src);
	}
	free(files);
	return d.errors ? 2 : 0;
}
