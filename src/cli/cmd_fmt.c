/* cmd_fmt.c - `hlolint fmt [--style=default|long|short] FILE`: print each
 * module from the IR in XLA's canonical text.  Nothing is printed when the
 * input has errors (exit 2): a partial module would mislead. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "print.h"
#include "threads.h"

int cmd_fmt(const struct args *a)
{
	enum print_style style = PRINT_DEFAULT;
	const char *v = args_value(a, FLAG_STYLE);
	struct cmd_lint_args l;
	if (!cmd_lint_from(a, &l))
		return 2;
	if (v && !strcmp(v, "long"))
		style = PRINT_LONG;
	else if (v && !strcmp(v, "short"))
		style = PRINT_SHORT;
	else if (v && strcmp(v, "default")) {
		fprintf(stderr, "hlolint: error: unknown style '%s' (default, long or short)\n", v);
		return 2;
	}
	const char *file = a->files[0];
	bool all_stages = l.all_stages;
	struct cmd_inputs in;
	if (!cmd_input_one(file, all_stages, &in))
		return 2;
	struct diag_sink d;
	diag_init(&d, stderr, l.max_errors);
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
