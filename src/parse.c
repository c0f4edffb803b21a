/* parse.c - runs the flex scanner and bison grammar over a buffer, then
 * resolves and verifies each module.  This is the only file that talks to
 * the generated scanner's buffer API; everything else goes through
 * parse_file (modules) or value_parse (one attribute value). */
#include "parse.h"
#include <stdlib.h>
#include <string.h>
#include "build.h"
#include "scan.h"
#include "resolve.h"
#include "verify.h"

/* The generated scanner and parser (build/grammar/hlo.lex.c, hlo.tab.c). */
typedef void *yyscan_t;
struct yy_buffer_state;
int hlo_yylex_init_extra(struct scan_state *extra, yyscan_t *scanner);
struct yy_buffer_state *hlo_yy_scan_buffer(char *base, size_t size, yyscan_t scanner);
int hlo_yylex_destroy(yyscan_t scanner);
int hlo_yyparse(yyscan_t scanner, struct build_ctx *ctx);

#include "hlo.tab.h"

int build_run(struct build_ctx *ctx, char *buf, uint64_t len, uint64_t base)
{
	struct scan_state ss;
	yyscan_t scanner;
	memset(&ss, 0, sizeof ss);
	ss.ctx = ctx;
	ss.buf = buf;
	ss.base = base;
	ss.start_token = ctx->mode == BUILD_MODULE ? START_MODULE
			 : ctx->mode == BUILD_VALUE ? START_VALUE : START_SHAPE;
	/* A value decoded on its own starts right after its "name=": prime the
	 * raw JSON capture the scanner would have switched on there. */
	if (ctx->mode == BUILD_VALUE && ctx->value_attr == ATTR_BACKEND_CONFIG)
		ss.json_pending = true;
	else if (ctx->mode == BUILD_VALUE && ctx->value_attr == ATTR_FRONTEND_ATTRIBUTES)
		ss.fa_depth = 1;
	if (hlo_yylex_init_extra(&ss, &scanner))
		fatal_out_of_memory();
	uint64_t first = scan_first_window(&ss, buf, len);
	hlo_yy_scan_buffer(buf, (size_t)first + 2, scanner);
	int rc = hlo_yyparse(scanner, ctx);
	if (ss.window_end < len)  /* stopped early inside a window: restore the text */
		memcpy(buf + ss.window_end, ss.saved, 2);
	hlo_yylex_destroy(scanner);
	return rc;
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
	build_run(&ctx, src->buf, src->len, 0);
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
