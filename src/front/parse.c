/* parse.c - parses a file: the scanner and grammar over its buffer
 * (scan_run), then resolves and verifies each module.  A large input is
 * cut at computation boundaries and its pieces built on threads, then
 * joined into one module before resolve; any error and it is parsed again
 * serially, so diagnostics never depend on the cut.  Everything else goes
 * through parse_file (modules) or value_parse (one attribute value). */
#include "parse.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "build.h"
#include "compname.h"
#include "scan.h"
#include "resolve.h"
#include "threads.h"
#include "timing.h"
#include "verify.h"

/* Inputs larger than this show progress: 256 MB; HLO_PROGRESS_BYTES
 * lets tests use small files (as HLO_SCAN_WINDOW does for windows). */
static uint64_t parse_progress_bytes(void)
{
	const char *e = getenv("HLO_PROGRESS_BYTES");
	return e && *e ? strtoull(e, NULL, 10) : 256ull << 20;
}

/* Parses src->buf[start, end) into f (its arena and names set up by the
 * caller) as one run of the grammar; the errors it reported.  body_done,
 * when given, is called with each computation as it closes (build.h). */
static unsigned parse_text(struct hlo_file *f, struct diag_sink *d, uint64_t start, uint64_t end, bool progress,
			   void (*body_done)(struct build_ctx *, struct hlo_comp *, void *), void *arg,
			   _Atomic bool *several)
{
	struct build_ctx ctx;
	build_ctx_init(&ctx, f, d, BUILD_MODULE, NULL);
	ctx.body_done = body_done;
	ctx.body_done_arg = arg;
	ctx.several = several;
	ctx.may_head = start == 0;
	/* Progress on stderr for inputs over 256 MB, when a person watches it. */
	ctx.progress = progress && f->src->len > parse_progress_bytes() && isatty(STDERR_FILENO);
	ctx.progress_end = end;
	scan_run(&ctx, f->src->buf + start, end - start, start);
	if (ctx.progress && ctx.progress_tick >= 0x10000)
		fputs("\r\033[K", stderr);   /* the progress line goes: diagnostics follow clean */
	/* A module cut short by a syntax error may still be open. */
	if (ctx.module) {
		ctx.module_errors++;
		build_module_end(&ctx, span_make(ctx.module->span.start, end));
	}
	unsigned errors = ctx.errors;
	build_ctx_fini(&ctx);
	return errors;
}

static void parse_file_init(struct hlo_file *f, struct source *src, uint64_t len)
{
	f->src = src;
	arena_init(&f->arena);
	f->names = intern_new();
	/* computation names and shape keys: roughly one per 2 KiB of text */
	intern_reserve(f->names, (size_t)(len / 2048));
}

/* ---- Pieces: one large module parsed on threads ---- */

struct parse_piece {
	struct hlo_file f;          /* its own arena and names; the source is shared */
	struct diag_sink d;         /* counts only: an error sends the input to the serial parse */
	uint64_t start, end;
	unsigned errors, names_errors;
	bool first;
	_Atomic bool *several;      /* shared: the file holds several modules (build_ctx) */
};

/* Whether a piece may start at p + 3 after the "}" at p: a computation's
 * closing "}" in column 0, a blank line, and the next computation's
 * header.  The piece before ends after the "}"; the two newlines become
 * its NULs.  A cut inside a comment or string leaves the piece before
 * unterminated: an error, and the serial parse. */
static bool parse_pieces_at_cut(const char *p)
{
	return p[-1] == '\n' && p[1] == '\n' && p[2] == '\n' && (p[3] == '%' || !memcmp(p + 3, "ENTRY ", 6));
}

/* Where the piece after offset `from` may start: the first cut after it
 * or, when none follows (a module ending in one huge computation, such as
 * an entry holding most of the text in constants), the last cut before it
 * and after `low`, so that the huge one is a piece of its own.  0 when
 * there is none.  The pages searched forward go back behind it. */
static uint64_t parse_pieces_cut(const struct source *src, uint64_t low, uint64_t from)
{
	const char *buf = src->buf, *p = buf + (from ? from : 1), *end = buf + src->len;
	uint64_t mark = from;
	while (end - p > 9 && (p = memchr(p, '}', (size_t)(end - p - 9)))) {
		if (parse_pieces_at_cut(p))
			return (uint64_t)(p - buf) + 1;
		source_drop(src, &mark, (uint64_t)(p - buf));
		p++;
	}
	for (p = buf + (from < src->len - 9 ? from : src->len - 9); p > buf + low + 1; p--)
		if (*p == '}' && parse_pieces_at_cut(p))
			return (uint64_t)(p - buf) + 1;
	return 0;
}

/* The names local to a computation are bound on the piece's thread as
 * it closes, its text still in the cache: the serial resolve is left the
 * module-wide part.  Not after an error (the input is parsed again), nor
 * for a body the grammar met without a header before any module began
 * (a syntax error the scanner reported): names are read through the
 * module (ir_name). */
static void parse_pieces_body(struct build_ctx *ctx, struct hlo_comp *c, void *arg)
{
	struct parse_piece *p = arg;
	if (!ctx->errors && !p->d.errors && c->module)
		p->names_errors += !resolve_names(c, &p->f, &p->d);
}

static void *parse_pieces_run(void *arg)
{
	struct parse_piece *p = arg;
	parse_file_init(&p->f, p->f.src, p->end - p->start);
	diag_init(&p->d, NULL, 1);
	p->errors = parse_text(&p->f, &p->d, p->start, p->end, p->first, parse_pieces_body, p, p->several) +
		    p->names_errors;
	return NULL;
}

/* Whether every piece parsed cleanly into one module, the first with the
 * header, the others headerless parts of it. */
static bool parse_pieces_ok(const struct parse_piece *p, unsigned n)
{
	for (unsigned k = 0; k < n; k++) {
		const struct hlo_module *m = p[k].f.modules;
		if (p[k].errors || p[k].d.errors || p[k].f.nmodules != 1 || !m->valid || (k && m->has_header))
			return false;
	}
	return true;
}

/* Joins the pieces into f: the first piece's module with every piece's
 * computations in source order, names bound in the first piece's table. */
/* Moves the piece's hlolint comments after f's (pieces join in order). */
static void parse_pieces_comments(struct hlo_file *f, struct hlo_file *piece)
{
	if (!piece->nlint_comments)
		return;
	f->lint_comments = xreallocarray(f->lint_comments, (size_t)f->nlint_comments + piece->nlint_comments,
					 sizeof *f->lint_comments);
	memcpy(f->lint_comments + f->nlint_comments, piece->lint_comments,
	       piece->nlint_comments * sizeof *f->lint_comments);
	f->nlint_comments += piece->nlint_comments;
	f->lint_comments_cap = f->nlint_comments;
	free(piece->lint_comments);
	piece->lint_comments = NULL;
	piece->nlint_comments = 0;
}

/* Moves what c of a later piece interned (its name, custom-call targets)
 * into f's table, so that the piece's table can go.  Only custom calls
 * have targets: the join reads no other computation's instructions (each
 * a cache miss on a large module). */
static void parse_pieces_reintern(struct hlo_file *f, struct hlo_comp *c)
{
	if (!(c->contains & IR_CONTAINS_CUSTOM_CALL))
		return;
	for (uint32_t k = 0; k < c->ninstrs; k++) {
		struct hlo_instr_extra *x = ir_extra(c->instrs[k]);
		if (x && x->target)
			x->target = intern(f->names, x->target->str, x->target->len);
	}
}

static void parse_pieces_join(struct hlo_file *f, struct parse_piece *p, unsigned n)
{
	struct hlo_module *m = p[0].f.modules;
	uint32_t total = 0;
	for (unsigned k = 0; k < n; k++)
		total += p[k].f.modules->ncomps;
	struct hlo_comp **comps = arena_array(&p[0].f.arena, total, sizeof *comps);
	f->names = p[0].f.names;
	uint32_t j = 0;
	m->ninstrs_total = 0;
	m->names_resolved = true;
	/* what resolve and verify_begin ask of each computation, read while
	 * the join has it at hand */
	m->contains = arena_array(&p[0].f.arena, total ? total : 1, 1);
	for (unsigned k = 0; k < n; k++) {
		struct hlo_module *pm = p[k].f.modules;
		for (uint32_t c = 0; c < pm->ncomps; c++, j++) {
			comps[j] = pm->comps[c];
			comps[j]->module = m;
			comps[j]->index = j;
			m->ninstrs_total += comps[j]->ninstrs;
			m->contains[j] = (uint8_t)comps[j]->contains;
			m->names_resolved &= comps[j]->names_resolved;
			if (k)   /* resolve binds names in f->names */
				parse_pieces_reintern(f, comps[j]);
		}
		if (k && pm->stack.span.end > pm->stack.span.start && m->stack.span.end <= m->stack.span.start)
			m->stack = pm->stack;
		if (k) {
			compname_join(&m->compnames, &pm->compnames);
			intern_free(p[k].f.names);
			p[k].f.names = NULL;
		}
		arena_adopt(&f->arena, &p[k].f.arena);
		parse_pieces_comments(f, &p[k].f);
	}
	m->comps = comps;
	m->ncomps = total;
	m->span.end = p[n - 1].f.modules->span.end;
	m->file = f;
	f->src = p[0].f.src;
	f->modules = m;
	f->nmodules = 1;
}

/* What the builder left on f's modules outside the arena. */
static void parse_free_modules(struct hlo_file *f)
{
	for (struct hlo_module *m = f->modules; m; m = m->next)
		compname_free(&m->compnames);
}

static void parse_pieces_free(struct parse_piece *p, unsigned n)
{
	for (unsigned k = 0; k < n; k++) {
		parse_free_modules(&p[k].f);
		arena_free(&p[k].f.arena);
		intern_free(p[k].f.names);
		free(p[k].f.lint_comments);
	}
}

/* Parses src in pieces on threads_get() threads into f when it is large
 * and splits cleanly; false (f untouched) otherwise, and the caller parses
 * it serially, which also gives errors their diagnostics. */
static bool parse_pieces_parse(struct hlo_file *f, struct source *src)
{
	unsigned n = threads_for(src->len);
	if (n < 2 || src->len < threads_min_bytes() || src->binary)
		return false;
	struct parse_piece *p = xcalloc(n, sizeof *p);
	unsigned np = 0;
	for (uint64_t start = 0; start < src->len && np < n; np++) {
		uint64_t cut = np + 1 < n ? parse_pieces_cut(src, start, start + (src->len - start) / (n - np)) : 0;
		p[np] = (struct parse_piece){ .f.src = src, .start = start, .end = cut ? cut : src->len, .first = !np };
		start = cut ? cut + 2 : src->len;
	}
	if (np < 2) {
		free(p);
		return false;
	}
	pthread_t *t = xcalloc(np, sizeof *t);
	bool *started = xcalloc(np, sizeof *started);
	/* A second module ends every piece's parse early (build_module_header):
	 * such a file cannot be cut into parts of one module. */
	_Atomic bool several = false;
	for (unsigned k = 0; k < np; k++)
		p[k].several = &several;
	for (unsigned k = 1; k < np; k++)
		started[k] = pthread_create(&t[k], NULL, parse_pieces_run, &p[k]) == 0;
	parse_pieces_run(&p[0]);
	for (unsigned k = 1; k < np; k++) {
		if (started[k])
			pthread_join(t[k], NULL);
		else
			parse_pieces_run(&p[k]);
	}
	bool ok = parse_pieces_ok(p, np);
	if (ok)
		parse_pieces_join(f, p, np);
	else
		parse_pieces_free(p, np);
	if (getenv("HLO_PARSE_PIECES_TRACE"))   /* tests: was the input split? */
		fprintf(stderr, "hlolint: %s: %u pieces%s\n", src->path, np,
			ok ? "" : atomic_load(&several) ? ", several modules: parsed serially" : ", parsed again serially");
	for (unsigned k = 0; k < np; k++)
		diag_free(&p[k].d);
	free(started);
	free(t);
	free(p);
	return ok;
}

struct hlo_file *parse_file(struct source *src, struct diag_sink *d)
{
	struct hlo_file *f = xcalloc(1, sizeof *f);
	timing_mark("load");
	if (!parse_pieces_parse(f, src)) {
		parse_file_init(f, src, src->len);
		f->errors = parse_text(f, d, 0, src->len, true, NULL, NULL, NULL);
	}
	timing_mark("parse");
	for (struct hlo_module *m = f->modules; m; m = m->next) {
		if (!m->valid)
			continue;
		unsigned before = d->errors;
		struct verify_run *run = verify_begin(m);   /* beside resolve, on threads */
		resolve_module(m, d);
		timing_mark("resolve");
		if (d->errors == before)
			verify_module(m, d, run);
		else
			verify_cancel(run);
		timing_mark("verify");
		m->valid = d->errors == before;
		f->errors += d->errors - before;
	}
	source_drop_all(src);
	return f;
}

void parse_free(struct hlo_file *f)
{
	if (!f)
		return;
	parse_free_modules(f);
	arena_free(&f->arena);
	intern_free(f->names);
	free(f->lint_comments);
	free(f);
}
