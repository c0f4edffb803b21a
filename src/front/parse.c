/* parse.c - parses a file: the scanner and grammar over its buffer
 * (scan_run), then resolves and verifies each module.  Everything else
 * goes through parse_file (modules) or value_parse (one attribute value). */
#include "parse.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "build.h"
#include "scan.h"
#include "resolve.h"
#include "verify.h"

/* Inputs larger than this show progress: 256 MB; HLO_PROGRESS_BYTES
 * lets tests use small files (as HLO_SCAN_WINDOW does for windows). */
static uint64_t parse_progress_bytes(void)
{
	const char *e = getenv("HLO_PROGRESS_BYTES");
	return e && *e ? strtoull(e, NULL, 10) : 256ull << 20;
}

struct hlo_file *parse_file(struct source *src, struct diag_sink *d)
{
	struct hlo_file *f = xcalloc(1, sizeof *f);
	struct build_ctx ctx;
	f->src = src;
	arena_init(&f->arena);
	f->names = intern_new();
	/* computation names and shape keys: roughly one per 2 KiB of text */
	intern_reserve(f->names, (size_t)(src->len / 2048));
	build_ctx_init(&ctx, f, d, BUILD_MODULE, NULL);
	/* Progress on stderr for inputs over 256 MB, when a person watches it. */
	ctx.progress = src->len > parse_progress_bytes() && isatty(STDERR_FILENO);
	scan_run(&ctx, src->buf, src->len, 0);
	if (ctx.progress && ctx.progress_tick >= 0x10000)
		fputs("\r\033[K", stderr);   /* the progress line goes: diagnostics follow clean */
	/* A module cut short by a syntax error may still be open. */
	if (ctx.module) {
		ctx.module_errors++;
		build_module_end(&ctx, span_make(ctx.module->span.start, src->len));
	}
	f->errors = ctx.errors;
	build_ctx_fini(&ctx);
	for (struct hlo_module *m = f->modules; m; m = m->next) {
		if (!m->valid)
			continue;
		unsigned before = d->errors;
		resolve_module(m, d);
		if (d->errors == before)
			verify_module(m, d);
		m->valid = d->errors == before;
		f->errors += d->errors - before;
	}
	return f;
}

void parse_free(struct hlo_file *f)
{
	if (!f)
		return;
	arena_free(&f->arena);
	intern_free(f->names);
	free(f);
}
