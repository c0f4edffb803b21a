/* cmd_fmt.c - `hlolint fmt [--style=default|long|short] FILE`: print each
 * module from the IR in XLA's canonical text.  Nothing is printed when the
 * input has errors (exit 2): a partial module would mislead. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "print.h"
#include "threads.h"

static void cmd_fmt_help(FILE *out)
{
	fprintf(out, "usage: hlolint fmt [--style=default|long|short] [--all-stages] [-j N] FILE\n\n"
		     "FILE may be a --xla_dump_to folder that holds one module.\n"
		     "Prints every module of FILE from the parsed IR:\n"
		     "  default  what JAX's compiled.as_text() prints\n"
		     "  long     default plus operand shapes and large constants\n"
		     "  short    XLA's ShortParsable form: no %%, no operand shapes, no metadata,\n"
		     "           no computation signatures\n"
		     "-j N parses a large FILE in N pieces at once (default: one per core).\n");
}

int cmd_fmt(int argc, char **argv)
{
	enum print_style style = PRINT_DEFAULT;
	const char *file = NULL;
	bool all_stages = false;
	unsigned jobs = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int r = cmd_jobs_arg(argc, argv, &i, &jobs);
		if (r < 0)
			return 2;
		if (r) {
			threads_set(jobs);   /* the pieces of a large input */
			continue;
		}
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			cmd_fmt_help(stdout);
			return 0;
		} else if (!strncmp(a, "--style=", 8) || (!strcmp(a, "--style") && i + 1 < argc)) {
			const char *v = a[7] == '=' ? a + 8 : argv[++i];
			if (!strcmp(v, "default"))
				style = PRINT_DEFAULT;
			else if (!strcmp(v, "long"))
				style = PRINT_LONG;
			else if (!strcmp(v, "short"))
				style = PRINT_SHORT;
			else {
				fprintf(stderr, "hlolint: error: unknown style '%s' (default, long or short)\n", v);
				return 2;
			}
		} else if (!strcmp(a, "--all-stages")) {
			all_stages = true;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "hlolint: error: unknown option '%s' for fmt\n", a);
			return 2;
		} else if (file) {
			fprintf(stderr, "hlolint: error: fmt takes one FILE\n");
			return 2;
		} else {
			file = a;
		}
	}
	if (!file) {
		cmd_fmt_help(stderr);
		return 2;
	}
	struct cmd_inputs in;
	if (!cmd_input_one(file, all_stages, &in))
		return 2;
	struct diag_sink d;
	diag_init(&d, stderr, 20);
	struct source *src;
	struct hlo_file *f = cmd_load(in.paths[0], &d, &src);
	int rc = 0;
	if (d.errors)
		rc = 2;
	else
		for (struct hlo_module *m = f->modules; m; m = m->next)
			print_module(stdout, m, style);
	if (fflush(stdout) != 0)
		rc = 2;   /* said by main_stdout_done */
	parse_free(f);
	source_free(src);
	cmd_inputs_free(&in);
	return rc;
}
