/* cmd_report.c - `hlolint report FILE -o report.html`: runs the pipeline
 * over FILE (a module, or a --xla_dump_to folder of one) and writes the
 * memory picture of each module (html.h) to one self-contained HTML file,
 * through a temporary file and a rename (output.h).  Options only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "html.h"
#include "lint.h"
#include "output.h"

static void cmd_report_help(FILE *out)
{
	fputs("usage: hlolint report [options] FILE [-o OUT.html]\n"
	      "\n"
	      "Writes the memory picture of every module of FILE as one HTML page that\n"
	      "fetches nothing from the network: live device bytes over program order stacked\n"
	      "by kind (arguments, outputs, temporaries, host) with the capacity and the peak,\n"
	      "the largest buffers' live ranges on the same axis, and the rules' findings\n"
	      "linking into the annotated module.  FILE may be a --xla_dump_to folder that\n"
	      "holds one module.\n"
	      "\n"
	      "options:\n"
	      "  -o, --output OUT     the page (default: standard output); never an input, nor a\n"
	      "                       read-only file without --force\n"
	      "  --target NAME, --hbm SIZE, --config FILE, --no-config, --all-stages, and the\n"
	      "                       rules' options, as for check\n"
	      "\n"
	      "exit status: 0 written, 2 usage, I/O or parse error.  See docs/report.md.\n",
	      out);
}

struct report_args {
	const char *file, *out;
	struct cmd_lint_args lint;
};

static bool cmd_report_scan(int argc, char **argv, void *args, bool *help)
{
	struct report_args *a = args;
	struct cmd_scan s = { .cmd = "report", .lint = &a->lint, .out = &a->out, .pos = &a->file, .maxpos = 1 };
	return cmd_scan_args(argc, argv, &s, help);
}

static bool cmd_report_apply(int argc, char **argv, struct config *c)
{
	static const char *const valued[] = { "-o", "--output", "--config", "--baseline", "--max-errors", NULL };
	static const char *const flags[] = { "--no-config", "--all-stages", NULL };
	return cmd_config_args(argc, argv, c, "report", valued, flags);
}

/* The modules and their models, as the pipeline meets them. */
struct cmd_report_mods {
	struct hlo_module **m;
	struct mem_model **mm;
	uint32_t n;
};

static uint32_t cmd_report_module(void *ctx, uint32_t k, struct hlo_module *m, struct mem_model *mm)
{
	struct cmd_report_mods *r = ctx;
	r->m = xreallocarray(r->m, r->n + 1, sizeof *r->m);
	r->mm = xreallocarray(r->mm, r->n + 1, sizeof *r->mm);
	r->m[r->n] = m;
	r->mm[r->n++] = mm;
	return k;
}

/* The page for the modules of f into a memory buffer. */
static char *cmd_report_page(const char *path, struct source *src, const struct cmd_report_mods *mods,
			     const struct finding_sink *sink, size_t *len)
{
	char *page = NULL;
	FILE *mem = open_memstream(&page, len);
	if (!mem)
		return NULL;
	const struct finding **fs = xcalloc(sink->n + 1, sizeof *fs);
	html_begin(mem, path);
	for (uint32_t k = 0; k < mods->n; k++) {
		const char *name = mods->m[k]->name ? mods->m[k]->name->str : "";
		uint32_t n = 0;
		for (uint32_t j = 0; j < sink->n; j++)
			if (!sink->items[j]->suppressed && !strcmp(sink->items[j]->module, name))
				fs[n++] = sink->items[j];
		html_module(mem, path, src, mods->m[k], mods->mm[k], fs, n);
	}
	html_end(mem);
	free(fs);
	if (fclose(mem) != 0) {
		free(page);
		return NULL;
	}
	return page;
}

static int cmd_report_run(void *args, struct config *cfg, struct diag_sink *d)
{
	const struct report_args *a = args;
	struct cmd_inputs in;
	if (a->out && (!output_allowed(a->out, false) || !output_not_input(a->out, &a->file, 1)))
		return 2;
	if (!cmd_input_one(a->file, a->lint.all_stages, &in))
		return 2;
	struct source *src;
	struct hlo_file *f = cmd_load(in.paths[0], d, &src);
	struct finding_sink sink;
	finding_sink_init(&sink);
	struct cmd_report_mods mods = { 0 };
	int rc = 2;
	if (f && !d->errors) {
		struct lint_hooks h = { &mods, cmd_report_module, NULL };
		size_t len;
		char *page;
		if (lint_file(f, src, 0, cfg, d, &sink, &h) && mods.n &&
		    (page = cmd_report_page(in.paths[0], src, &mods, &sink, &len))) {
			bool ok = !a->out || !strcmp(a->out, "-") ? fwrite(page, 1, len, stdout) == len && !fflush(stdout)
								  : output_write(a->out, page, len, "the report");
			rc = ok ? 0 : 2;
			free(page);
		}
	}
	free(mods.m);
	free(mods.mm);
	finding_sink_free(&sink);
	parse_free(f);
	source_free(src);
	cmd_inputs_free(&in);
	return rc;
}

/* Whether the one input was given (cmd_frame). */
static bool cmd_report_ready(const void *a)
{
	return ((const struct report_args *)a)->file != NULL;
}

int cmd_report(int argc, char **argv)
{
	struct report_args a = { .lint = { .max_errors = 20 } };
	struct cmd_frame fr = { &a, &a.lint, cmd_report_scan, cmd_report_help, cmd_report_ready,
				cmd_report_apply, cmd_report_run };
	return cmd_frame_run(argc, argv, &fr);
}
