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

struct report_args {
	const char *file, *out;
	struct cmd_lint_args lint;
};

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
		struct lint_hooks h = { &mods, cmd_report_module, NULL, NULL };
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

int cmd_report(const struct args *g)
{
	struct report_args a = { .file = g->files[0], .out = args_value(g, FLAG_OUTPUT) };
	struct cmd_frame fr = { g, &a, &a.lint, cmd_report_run };
	return cmd_frame_run(&fr);
}
