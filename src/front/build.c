/* build.c - IR builders called by the grammar actions, one per action.
 * Lists under construction sit in scratch vectors with stack discipline and
 * are copied into the arena when their owner is complete.  Shapes and
 * layouts are build_shape.c's.  Names are not looked up here: operands
 * keep their interned name until resolve.c binds them. */
#include "build_int.h"
#include "size.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "attr.h"
#include "compname.h"
#include "lex.h"
#include "literal.h"

void build_ctx_init(struct build_ctx *ctx, struct hlo_file *f, struct diag_sink *d,
		    enum build_mode mode, struct arena *a)
{
	memset(ctx, 0, sizeof *ctx);
	ctx->file = f;
	ctx->src = f->src;
	ctx->diag = d;
	ctx->mode = mode;
	ctx->arena = a ? a : &f->arena;
	ctx->last_module = &f->modules;
	while (*ctx->last_module)
		ctx->last_module = &(*ctx->last_module)->next;
}

void build_ctx_fini(struct build_ctx *ctx)
{
	arena_free(&ctx->pending_instrs);
	/* layouts left open by a syntax error */
	for (uint32_t i = 0; i < ctx->layouts.len; i++)
		free(VEC_AT(ctx->layouts, struct build_layout *, i));
	struct build_vec *vecs[] = { &ctx->comps, &ctx->comp_stack, &ctx->instrs, &ctx->operands,
				     &ctx->operand_extras,
				     &ctx->attrs, &ctx->ints, &ctx->kinds, &ctx->shapes, &ctx->sig,
				     &ctx->layouts, &ctx->tiles, &ctx->splits, &ctx->stack_rows[0],
				     &ctx->stack_rows[1], &ctx->stack_rows[2], &ctx->stack_rows[3],
				     &ctx->leaf_texts, &ctx->tops };
	for (size_t i = 0; i < sizeof vecs / sizeof vecs[0]; i++) {
		free(vecs[i]->data);
		vecs[i]->data = NULL;
		vecs[i]->len = vecs[i]->cap = 0;
	}
}

void build_verror(struct build_ctx *ctx, struct span sp, const char *fmt, va_list ap)
{
	ctx->errors++;
	ctx->module_errors++;
	if (ctx->diag)
		diag_vreport(ctx->diag, ctx->src, sp, DIAG_ERROR, fmt, ap);
}

void build_error(struct build_ctx *ctx, struct span sp, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	build_verror(ctx, sp, fmt, ap);
	va_end(ap);
}

bool build_should_stop(struct build_ctx *ctx)
{
	return ctx->diag && diag_full(ctx->diag);
}

struct interned *build_intern(struct build_ctx *ctx, const char *s, size_t n)
{
	return intern(ctx->file->names, s, n);
}

/* ---- modules ---- */

/* True when the source holds only whitespace and comments. */
static bool build_blank(const struct source *src)
{
	bool open = false;
	return lex_skip_blank(src->buf, (size_t)src->len, 0, &open) == src->len && !open;
}

void build_lint_comment(struct build_ctx *ctx, struct span sp)
{
	struct hlo_file *f = ctx->file;
	if (ctx->mode != BUILD_MODULE)
		return;
	if (f->nlint_comments == f->lint_comments_cap)
		f->lint_comments = xreallocarray(f->lint_comments, f->lint_comments_cap = f->lint_comments_cap
									? 2 * f->lint_comments_cap : 16,
						sizeof *f->lint_comments);
	f->lint_comments[f->nlint_comments++] = sp;
}

void build_empty_input(struct build_ctx *ctx, struct span sp)
{
	/* The grammar reduces the empty file before it sees a bad first token;
	 * only a really blank input gets this message (the other gets a syntax
	 * error right after). */
	(void)sp;
	if (build_ir(ctx) && build_blank(ctx->src))
		build_error(ctx, span_make(0, 0), "empty input: expected 'HloModule' or a computation");
}

static struct hlo_module *build_current_module(struct build_ctx *ctx, struct span sp)
{
	if (!ctx->module) {
		struct hlo_module *m = arena_alloc(&ctx->file->arena, sizeof *m);
		m->file = ctx->file;
		m->num_partitions = 1;
		m->replica_count = 1;
		m->span = sp;
		m->header = span_none();
		ctx->module = m;
		ctx->module_errors = 0;
	}
	return ctx->module;
}

/* Text of a name token: "%x" -> "x", "x:" -> "x". */
struct span build_name_text(struct build_ctx *ctx, struct span sp)
{
	const char *t = ctx->src->buf;
	if (span_len(sp) && t[sp.start] == '%')
		sp.start++;
	if (span_len(sp) && t[sp.end - 1] == ':')
		sp.end--;
	return sp;
}

struct interned *build_intern_span(struct build_ctx *ctx, struct span sp)
{
	return build_intern(ctx, ctx->src->buf + sp.start, (size_t)span_len(sp));
}

void build_module_header(struct build_ctx *ctx, struct span name_sp, uint32_t attr_mark, struct span sp)
{
	if (!build_ir(ctx))
		return;
	ctx->module = NULL;
	ctx->recovering = false;  /* a new module: its errors are not cascades */
	if (ctx->several) {
		if (!ctx->may_head)
			atomic_store(ctx->several, true);
		ctx->may_head = false;
	}
	struct hlo_module *m = build_current_module(ctx, sp);
	m->name = build_intern_span(ctx, build_name_text(ctx, name_sp));
	m->has_header = true;
	m->header = sp;
	m->attrs = build_vec_take(ctx, &ctx->attrs, attr_mark, sizeof *m->attrs, &m->nattrs);
}

void build_stack_name(struct build_ctx *ctx, int table, int64_t index, struct span str)
{
	(void)index;
	if (build_ir(ctx))
		*(struct span *)build_vec_push(&ctx->stack_rows[table], sizeof str) = str;
}

void build_stack_entry(struct build_ctx *ctx, int table, int64_t index, struct span group)
{
	(void)index;
	if (build_ir(ctx))
		*(struct span *)build_vec_push(&ctx->stack_rows[table], sizeof group) = group;
}

/* The stack tables' rows; resolve decodes the {key=value ...} groups. */
static void build_stack_tables(struct build_ctx *ctx, struct hlo_module *m)
{
	struct hlo_stack_tables *t = &m->stack;
	t->file_names = build_vec_take(ctx, &ctx->stack_rows[0], 0, sizeof(struct span), &t->nfile_names);
	t->function_names = build_vec_take(ctx, &ctx->stack_rows[1], 0, sizeof(struct span),
					   &t->nfunction_names);
	t->location_rows = build_vec_take(ctx, &ctx->stack_rows[2], 0, sizeof(struct span), &t->nlocation_rows);
	t->frame_rows = build_vec_take(ctx, &ctx->stack_rows[3], 0, sizeof(struct span), &t->nframe_rows);
}

void build_module_end(struct build_ctx *ctx, struct span sp)
{
	if (!build_ir(ctx))
		return;
	struct hlo_module *m = build_current_module(ctx, sp);
	if (!m->has_header)
		m->span = sp;
	else
		m->span.end = sp.end;
	build_stack_tables(ctx, m);
	m->comps = build_vec_take(ctx, &ctx->comps, 0, sizeof *m->comps, &m->ncomps);
	for (uint32_t i = 0; i < m->ncomps; i++) {
		m->comps[i]->module = m;
		m->comps[i]->index = i;
		m->ninstrs_total += m->comps[i]->ninstrs;
	}
	m->valid = ctx->module_errors == 0;
	*ctx->last_module = m;
	ctx->last_module = &m->next;
	ctx->file->nmodules++;
	ctx->module = NULL;
	ctx->module_errors = 0;
}

/* ---- computations ---- */

struct build_open_comp {
	struct hlo_comp *comp;
	uint32_t instr_mark;
};

uint32_t build_sig_mark(struct build_ctx *ctx)
{
	return ctx->sig.len;
}

struct build_sig_param {
	struct span span;
	struct hlo_shape *shape;
};

void build_sig_param(struct build_ctx *ctx, struct span sp, struct hlo_shape *shape)
{
	struct build_sig_param *p = build_vec_push(&ctx->sig, sizeof *p);
	p->span = sp;
	p->shape = shape;
	if (ctx->mode >= BUILD_SHAPE)
		build_shape_top(ctx);
}

/* c's name is the source slice without '%' or ':' (ir_comp_name). */
static void build_comp_name(struct build_ctx *ctx, struct hlo_comp *c, struct span written)
{
	struct span n = build_name_text(ctx, written);
	c->name_pct = n.start > written.start;
	c->name_colon = n.end < written.end;
	c->name_off = n.start;
	if (span_len(n) > IR_COMP_NAME_MAX) {
		build_error(ctx, written, "computation name longer than %u bytes", IR_COMP_NAME_MAX);
		n.end = n.start + IR_COMP_NAME_MAX;
	}
	c->name_len = span_len(n);
}

/* A computation's span and signature are lengths of 32 bits or fewer (struct hlo_comp). */
static bool build_comp_fits(struct build_ctx *ctx, struct span sp, uint64_t len, uint64_t max, const char *what)
{
	if (len <= max)
		return true;
	build_error(ctx, span_make(sp.start, sp.start), "%s longer than %llu bytes", what, (unsigned long long)max);
	return false;
}

/* The module's copies of computation names (compname.h), made on first use. */
static struct compnames *build_compnames(struct build_ctx *ctx)
{
	struct hlo_module *m = ctx->module;
	if (m && !m->compnames)
		m->compnames = xcalloc(1, sizeof *m->compnames);
	return m ? m->compnames : NULL;
}

static struct hlo_comp *build_new_comp(struct build_ctx *ctx)
{
	struct hlo_comp *c = arena_alloc(&ctx->file->arena, sizeof *c);
	c->module = ctx->module;   /* ir_name reads the source through it */
	return c;
}

struct hlo_comp *build_comp_head(struct build_ctx *ctx, bool entry, struct span name_sp,
				 uint32_t sig_mark, struct hlo_shape *result, struct span sig)
{
	if (!build_ir(ctx))
		return NULL;
	build_current_module(ctx, name_sp);
	struct hlo_comp *c = build_new_comp(ctx);
	build_comp_name(ctx, c, name_sp);
	c->is_entry = entry;
	struct compnames *cn = build_compnames(ctx);
	if (cn)
		compname_add(&cn->heads, c->name_off, c->name_len, ir_comp_name(c), ir_comp_name_len(c));
	if (!span_is_none(sig) && build_comp_fits(ctx, sig, sig.end - c->name_off, UINT32_MAX, "signature")) {
		c->has_signature = true;
		c->sig_off = (uint32_t)(sig.start - c->name_off);
		c->sig_len = (uint32_t)span_len(sig);
	}
	c->sig_result = result;
	ctx->sig.len = sig_mark;
	ctx->pending = c;
	return c;
}

struct hlo_comp *build_body_begin(struct build_ctx *ctx)
{
	if (!build_ir(ctx))
		return NULL;
	struct hlo_comp *c = ctx->pending;
	ctx->pending = NULL;
	if (!c) {
		/* An inline body (to_apply={...}): anonymous, named after the
		 * convention XLA's parser uses for it. */
		c = build_new_comp(ctx);
		c->inline_body = true;
	}
	struct build_open_comp *o = build_vec_push(&ctx->comp_stack, sizeof *o);
	o->comp = c;
	o->instr_mark = ctx->instrs.len;
	return c;
}

struct hlo_comp *build_body_end(struct build_ctx *ctx, struct hlo_comp *c, struct span sp)
{
	if (!build_ir(ctx) || !c)
		return NULL;
	struct build_open_comp o = VEC_AT(ctx->comp_stack, struct build_open_comp, ctx->comp_stack.len - 1);
	ctx->comp_stack.len--;
	if (!ctx->comp_stack.len && ctx->npending) {   /* left by a syntax error */
		ctx->npending = 0;
		arena_release(&ctx->pending_instrs, ctx->pending_mark);
	}
	c->instrs = build_vec_take(ctx, &ctx->instrs, o.instr_mark, sizeof *c->instrs, &c->ninstrs);
	for (uint32_t i = 0; i < c->ninstrs; i++) {
		struct hlo_instr *in = c->instrs[i];
		in->index = i;
		ir_comp_note(in);
		if (ir_is_root(in) && !c->root)
			c->root = in;  /* a second ROOT is the verifier's to report */
	}
	if (!c->root && c->ninstrs)
		c->root = c->instrs[c->ninstrs - 1];
	if (c->inline_body) {
		c->name_off = sp.start;
		c->span_len = build_comp_fits(ctx, sp, span_len(sp), UINT32_MAX, "computation") ? (uint32_t)span_len(sp) : 0;
	}
	*(struct hlo_comp **)build_vec_push(&ctx->comps, sizeof c) = c;
	if (ctx->body_done)
		ctx->body_done(ctx, c, ctx->body_done_arg);
	return c;
}

void build_comp_end(struct build_ctx *ctx, struct hlo_comp *head, struct hlo_comp *body,
		    struct span exec_thread, struct span sp)
{
	(void)head;
	if (!build_ir(ctx) || !body)
		return;
	/* sp: from ENTRY or the name on (build_comp_name), to "}" or to
	 * "}, execution_thread=\"main\"". */
	uint64_t back = body->name_off - body->name_pct - sp.start;
	if (!build_comp_fits(ctx, sp, span_len(sp), UINT32_MAX, "computation") ||
	    !build_comp_fits(ctx, sp, back, IR_COMP_BACK_MAX, "text between ENTRY and the name"))
		return;
	body->span_back = (uint32_t)back;
	body->span_len = (uint32_t)span_len(sp);
	if (!span_is_none(exec_thread))
		body->exec_len = (uint32_t)span_len(exec_thread);   /* it ends sp (hlo.y) */
}

static struct hlo_comp *build_open_comp(struct build_ctx *ctx)
{
	if (!ctx->comp_stack.len)
		return NULL;
	return VEC_AT(ctx->comp_stack, struct build_open_comp, ctx->comp_stack.len - 1).comp;
}

/* ---- instructions ---- */

static bool build_is_async_excluded(enum opcode op)
{
	return op == OP_ALL_GATHER || op == OP_ALL_REDUCE || op == OP_COLLECTIVE_PERMUTE ||
	       op == OP_COPY || op == OP_RECV || op == OP_SEND;
}

/* Maps an opcode word to an opcode, handling the "<op>-start/-update/-done"
 * async sugar (HLO_TEXT_SYNTAX §4.2).  Returns false when unknown. */
static bool build_opcode(struct build_ctx *ctx, struct interned *word, struct span sp,
			 enum opcode *op, enum opcode *wrapped)
{
	*wrapped = OP_COUNT;
	if (word && word->opcode) {
		*op = (enum opcode)(word->opcode - 1);
		return true;
	}
	const char *text = ctx->src->buf + sp.start;
	size_t len = (size_t)span_len(sp);
	static const struct { const char *suffix; enum opcode op; } sugar[] = {
		{ "-start", OP_ASYNC_START }, { "-update", OP_ASYNC_UPDATE }, { "-done", OP_ASYNC_DONE },
	};
	for (size_t k = 0; k < 3; k++) {
		size_t sl = strlen(sugar[k].suffix);
		if (len <= sl || memcmp(text + len - sl, sugar[k].suffix, sl))
			continue;
		struct interned *base = intern_find(ctx->file->names, text, len - sl);
		if (!base || !base->opcode)
			return false;
		enum opcode b = (enum opcode)(base->opcode - 1);
		if (build_is_async_excluded(b))
			return false;
		*op = sugar[k].op;
		*wrapped = b;
		return true;
	}
	return false;
}

/* An instruction until its attributes are read (or, nested, until it is
 * an operand): the IR record is made then, in one allocation with its
 * parts after it (ir.h), by build_finish.  The bison value is &b->i. */
struct build_pending {
	struct hlo_instr i;              /* first */
	struct hlo_operand *operands;    /* i.noperands, in ctx->pending_instrs */
	struct hlo_instr_extra extra;    /* kept when i.xflags has IR_HAS_EXTRA */
};

static struct build_pending *build_pending(struct hlo_instr *i)
{
	return (struct build_pending *)i;
}

static struct hlo_instr *build_new_instr(struct build_ctx *ctx, struct interned *opcode,
					 struct span op_sp, struct span sp)
{
	if (!ctx->npending++) {
		if (!ctx->pending_instrs.head)   /* a block to come back to: no malloc per instruction */
			arena_alloc(&ctx->pending_instrs, 1);
		ctx->pending_mark = arena_mark(&ctx->pending_instrs);
	}
	struct build_pending *b = arena_alloc(&ctx->pending_instrs, sizeof *b);
	struct hlo_instr *i = &b->i;
	enum opcode op, wrapped;
	i->start = sp.start;
	i->len = (uint32_t)span_len(sp);
	if (op_sp.start - sp.start >= (1u << 24))
		build_error(ctx, op_sp, "opcode more than 16 MiB after the start of its instruction");
	i->op_off = (uint32_t)(op_sp.start - sp.start) & ((1u << 24) - 1);
	i->op_len = span_len(op_sp) < IR_OP_LEN_MAX ? (uint32_t)span_len(op_sp) : IR_OP_LEN_MAX;
	i->number = -1;
	i->comp = build_open_comp(ctx);
	if (!build_opcode(ctx, opcode, op_sp, &op, &wrapped)) {
		build_error(ctx, op_sp, "unknown opcode '%.*s'", (int)span_len(op_sp), ctx->src->buf + op_sp.start);
		op = OP_COUNT;
	}
	i->op = (uint8_t)op;
	i->async_wrapped = (uint8_t)wrapped;
	return i;
}

/* The IR record of pending instruction rhs with its attributes; the
 * pending ones are dropped once none is left open. */
static struct hlo_instr *build_finish(struct build_ctx *ctx, struct hlo_instr *rhs, const struct hlo_attr *attrs,
				      uint32_t nattrs)
{
	struct build_pending *b = build_pending(rhs);
	bool extra = b->i.xflags & IR_HAS_EXTRA;
	size_t n = sizeof b->i + (size_t)b->i.noperands * sizeof *b->operands + (size_t)nattrs * sizeof *attrs +
		   (extra ? sizeof b->extra : 0);
	struct hlo_instr *i = arena_alloc(&ctx->file->arena, n);
	*i = b->i;
	i->nattrs = (uint16_t)nattrs;
	if (i->noperands)
		memcpy(ir_operands(i), b->operands, (size_t)i->noperands * sizeof *b->operands);
	if (nattrs)
		memcpy(ir_attrs(i), attrs, (size_t)nattrs * sizeof *attrs);
	if (extra)
		*ir_extra(i) = b->extra;
	if (ctx->npending && !--ctx->npending)
		arena_release(&ctx->pending_instrs, ctx->pending_mark);
	return i;
}

uint32_t build_operand_mark(struct build_ctx *ctx)
{
	return ctx->operands.len;
}

struct hlo_instr *build_op(struct build_ctx *ctx, struct interned *opcode, struct span op_sp,
			   uint32_t operand_mark, struct span sp)
{
	if (!build_ir(ctx))
		return NULL;
	struct hlo_instr *i = build_new_instr(ctx, opcode, op_sp, sp);
	struct build_pending *b = build_pending(i);
	struct hlo_operand *ops = VEC_PTR(ctx->operands, struct hlo_operand, operand_mark);
	struct hlo_operand_extra *xs = VEC_PTR(ctx->operand_extras, struct hlo_operand_extra, operand_mark);
	uint32_t n = ctx->operands.len - operand_mark, kept = 0;
	bool extras = false;
	/* parameter(N): the operand list holds the parameter number. */
	for (uint32_t k = 0; k < n; k++) {
		struct hlo_operand *o = &ops[k];
		if (o->reserved != BUILD_OPERAND_INT) {
			extras |= o->reserved == BUILD_OPERAND_EXTRA;
			o->reserved = 0;
			xs[kept] = xs[k];
			ops[kept++] = *o;
			continue;
		}
		const char *t = ctx->src->buf + o->off;
		if (i->op == OP_PARAMETER && n == 1) {
			int64_t v = strtoll(t, NULL, 10);
			if (v < 0)
				build_error(ctx, ir_operand_span(o), "parameter number must be >= 0");
			else if (v > INT32_MAX)
				build_error(ctx, ir_operand_span(o), "parameter number %lld is too large", (long long)v);
			i->number = v < 0 || v > INT32_MAX ? -1 : (int32_t)v;
		} else if (i->op != OP_COUNT) {  /* an unknown opcode was reported already */
			build_error(ctx, ir_operand_span(o), "expected an operand name, got '%.*s'", (int)o->len, t);
		}
	}
	i->noperands = kept;
	if (kept) {
		b->operands = arena_array(&ctx->pending_instrs, kept, sizeof *b->operands);
		memcpy(b->operands, ops, kept * sizeof *ops);
	}
	if (extras) {
		b->extra.operands = arena_array(&ctx->file->arena, kept, sizeof *b->extra.operands);
		memcpy(b->extra.operands, xs, kept * sizeof *xs);
		i->xflags |= IR_HAS_EXTRA;
	}
	ctx->operands.len = ctx->operand_extras.len = operand_mark;
	if (i->op == OP_PARAMETER && i->number < 0 && !ctx->module_errors)
		build_error(ctx, sp, "parameter needs its number: parameter(N)");
	return i;
}

struct hlo_instr *build_op_literal(struct build_ctx *ctx, struct interned *opcode,
				   struct span op_sp, struct span lit, struct span sp)
{
	if (!build_ir(ctx))
		return NULL;
	struct hlo_instr *i = build_new_instr(ctx, opcode, op_sp, sp);
	struct build_pending *b = build_pending(i);
	uint64_t gap = lit.start - op_sp.end;
	if (gap <= IR_LIT_GAP_MAX && span_len(op_sp) < IR_OP_LEN_MAX && span_len(lit) <= UINT32_MAX) {
		i->xflags |= (uint8_t)(IR_LIT_INLINE | gap << IR_LIT_GAP_SHIFT);
		i->lit_len = (uint32_t)span_len(lit);
		return i;
	}
	i->xflags |= IR_HAS_EXTRA;
	b->extra.lit_off = (uint32_t)(lit.start - sp.start);
	b->extra.lit_len = (uint32_t)span_len(lit);
	return i;
}

/* Moves a pending instruction's start back to sp.start, keeping inner offsets. */
static void build_rebase(struct hlo_instr *i, struct span sp)
{
	uint32_t shift = (uint32_t)(i->start - sp.start);
	i->start = sp.start;
	i->len = (uint32_t)span_len(sp);
	i->op_off += shift;
	if (build_pending(i)->extra.lit_len)
		build_pending(i)->extra.lit_off += shift;
}

struct hlo_instr *build_rhs_shape(struct build_ctx *ctx, struct hlo_instr *rhs,
				  struct hlo_shape *shape, struct span sp)
{
	if (!build_ir(ctx) || !rhs)
		return rhs;
	/* offsets inside the instruction are relative to its start: rebase */
	build_rebase(rhs, sp);
	rhs->shape = shape;
	rhs->flags |= IR_SHAPE_WRITTEN;
	return rhs;
}

/* "parsing path: 42%" on stderr every 64K instructions of a large input
 * (the line is cleared to its end: -j workers take turns on it). */
static void build_progress(struct build_ctx *ctx, struct span sp)
{
	if (!ctx->progress || (++ctx->progress_tick & 0xffff))
		return;
	fprintf(stderr, "\rhlolint: parsing %s: %3u%%\033[K", ctx->src->path,
		(unsigned)(sp.end * 100 / (ctx->progress_end ? ctx->progress_end : 1)));
	fflush(stderr);
}

/* A pending instruction's literal (ir_instr_literal would look for the
 * extra part where the final record will have it). */
static struct span build_literal(struct hlo_instr *i)
{
	const struct hlo_instr_extra *x = &build_pending(i)->extra;
	if (i->xflags & IR_LIT_INLINE)
		return ir_instr_literal(i);
	return x->lit_len ? span_make(i->start + x->lit_off, i->start + x->lit_off + x->lit_len) : span_none();
}

/* What later stages ask of many instructions, decoded while the text is
 * still in memory (source_drop): a custom call's target (in the extra
 * part, made here, as for control-predecessors, which resolve fills),
 * a fusion's kind, a scalar integer constant's value (loop bounds), a
 * get-tuple-element's index, whether an attribute names computations
 * (resolve reads no others). */
static void build_decode(struct build_ctx *ctx, struct hlo_instr *i, const struct hlo_attr *attrs, uint32_t n)
{
	const struct hlo_attr *t = i->op == OP_CUSTOM_CALL || i->async_wrapped == OP_CUSTOM_CALL
					   ? ir_attr_in(attrs, n, ATTR_CUSTOM_CALL_TARGET) : NULL;
	const struct hlo_attr *kind = i->op == OP_FUSION ? ir_attr_in(attrs, n, ATTR_KIND) : NULL;
	size_t len;
	const char *p;
	if (t) {
		p = attr_plain_value(ctx->file, t, &len);
		build_pending(i)->extra.target = build_intern(ctx, p, len);
	}
	if (t || ir_attr_in(attrs, n, ATTR_CONTROL_PREDECESSORS))
		i->xflags |= IR_HAS_EXTRA;
	for (uint32_t k = 0; k < n && !(i->xflags & (IR_LIT_INLINE | IR_NAMES_COMPS)); k++)
		if (ir_attr_is_callee(attrs[k].key))
			i->xflags |= IR_NAMES_COMPS;
	/* resolve reads again only what this does not take ("+1", out of range). */
	const struct hlo_attr *ix = i->op == OP_GET_TUPLE_ELEMENT ? ir_attr_in(attrs, n, ATTR_INDEX) : NULL;
	int64_t v;
	if (ix && attr_text_int(ctx->file, ir_attr_value(ix), &v) && v >= 0 && v <= INT32_MAX)
		i->number = (int32_t)v;
	if (kind) {
		p = attr_plain_value(ctx->file, kind, &len);
		i->flags |= (uint8_t)(ir_fusion_kind_of(p, len) << IR_FUSION_SHIFT);
	}
	struct span lit = build_literal(i);
	if (i->op == OP_CONSTANT && i->shape && i->shape->type != PT_TUPLE && i->shape->rank == 0 &&
	    literal_scalar_int(ctx->file, lit, i->shape, &v) && v >= INT32_MIN && v <= INT32_MAX) {
		i->number = (int32_t)v;
		i->flags |= IR_SCALAR_NUMBER;
	}
}

void build_instr(struct build_ctx *ctx, bool root, struct span name_sp, struct hlo_instr *rhs,
		 uint32_t attr_mark, struct span sp)
{
	build_progress(ctx, sp);
	if (!build_ir(ctx) || !rhs) {
		ctx->attrs.len = attr_mark;
		return;
	}
	ctx->recovering = false;  /* a whole instruction parsed: report errors again */
	struct span n = build_name_text(ctx, name_sp);
	build_rebase(rhs, sp);
	if (span_len(n) >= IR_NAME_LONG) {
		rhs->name_len_short = IR_NAME_LONG;
		build_pending(rhs)->extra.name_len = (uint32_t)span_len(n);
		rhs->xflags |= IR_HAS_EXTRA;
	} else {
		rhs->name_len_short = span_len(n);
	}
	rhs->name_off = (uint32_t)(n.start - sp.start) & 0xff;  /* after "ROOT " and '%' at most */
	if (root)
		rhs->flags |= IR_ROOT;
	uint32_t nattrs = ctx->attrs.len - attr_mark;
	if (nattrs > UINT16_MAX) {
		build_error(ctx, sp, "more than %u attributes on one instruction", UINT16_MAX);
		nattrs = UINT16_MAX;
	}
	const struct hlo_attr *attrs = VEC_PTR(ctx->attrs, struct hlo_attr, attr_mark);
	build_decode(ctx, rhs, attrs, nattrs);
	struct hlo_instr *i = build_finish(ctx, rhs, attrs, nattrs);
	ctx->attrs.len = attr_mark;
	*(struct hlo_instr **)build_vec_push(&ctx->instrs, sizeof i) = i;
}

void build_operand(struct build_ctx *ctx, struct hlo_shape *declared, struct span declared_sp,
		   struct span name_sp, uint32_t gte_mark)
{
	if (!build_ir(ctx)) {
		ctx->ints.len = ctx->kinds.len = gte_mark;
		return;
	}
	struct span n = build_name_text(ctx, name_sp);
	struct hlo_operand *o = build_vec_push(&ctx->operands, sizeof *o);
	memset(o, 0, sizeof *o);
	o->off = n.start;
	o->len = span_len(n) < IR_OPERAND_MAX_LEN ? span_len(n) : IR_OPERAND_MAX_LEN;
	struct hlo_operand_extra *x = build_vec_push(&ctx->operand_extras, sizeof *x);
	memset(x, 0, sizeof *x);
	x->declared = declared;
	x->declared_span = declared_sp;
	x->gte = build_vec_take(ctx, &ctx->ints, gte_mark, sizeof *x->gte, &x->ngte);
	ctx->kinds.len = gte_mark;
	if (declared || x->ngte)
		o->reserved = BUILD_OPERAND_EXTRA;
}

void build_operand_nested(struct build_ctx *ctx, struct hlo_instr *rhs, struct span sp)
{
	if (!build_ir(ctx) || !rhs)
		return;
	/* XLA names a nested instruction "<opcode>.anon"; resolve.c makes the
	 * name unique within the computation. */
	build_rebase(rhs, sp);
	struct span op = ir_instr_opcode_span(rhs);
	char buf[96];
	int n = snprintf(buf, sizeof buf, "%.*s.anon", (int)span_len(op), ctx->src->buf + op.start);
	n = n < (int)sizeof buf ? n : (int)sizeof buf - 1;
	build_pending(rhs)->extra.name = arena_strndup(&ctx->file->arena, buf, (size_t)n);
	rhs->xflags |= IR_HAS_EXTRA;
	rhs->name_len_short = (uint32_t)n;
	rhs->name_off = 0;  /* a generated name: its span is the instruction's start */
	rhs->flags |= IR_ANONYMOUS;
	struct hlo_instr *i = build_finish(ctx, rhs, NULL, 0);
	*(struct hlo_instr **)build_vec_push(&ctx->instrs, sizeof i) = i;
	struct hlo_operand *o = build_vec_push(&ctx->operands, sizeof *o);
	memset(o, 0, sizeof *o);
	o->instr = i;
	o->off = sp.start;
	o->len = span_len(sp) < IR_OPERAND_MAX_LEN ? span_len(sp) : IR_OPERAND_MAX_LEN;
	struct hlo_operand_extra *x = build_vec_push(&ctx->operand_extras, sizeof *x);
	memset(x, 0, sizeof *x);
}

void build_operand_int(struct build_ctx *ctx, int64_t value, struct span sp)
{
	(void)value;
	if (!build_ir(ctx))
		return;
	struct hlo_operand *o = build_vec_push(&ctx->operands, sizeof *o);
	memset(o, 0, sizeof *o);
	o->off = sp.start;
	o->len = span_len(sp) < IR_OPERAND_MAX_LEN ? span_len(sp) : IR_OPERAND_MAX_LEN;
	o->reserved = BUILD_OPERAND_INT;
	struct hlo_operand_extra *x = build_vec_push(&ctx->operand_extras, sizeof *x);
	memset(x, 0, sizeof *x);
}

uint32_t build_attr_mark(struct build_ctx *ctx)
{
	return ctx->attrs.len;
}

void build_attr(struct build_ctx *ctx, struct interned *name, struct span name_sp,
		struct span value_sp)
{
	if (!build_ir(ctx))
		return;
	if (!name)  /* inside an inline body: the scanner left it for us */
		name = build_intern(ctx, ctx->src->buf + name_sp.start, (size_t)span_len(name_sp) - 1);
	/* MeshAxesReplicaGroupList prints its mesh with a non-iota device order
	 * as "replica_groups=mesh['x'=4,'y'=2], device_ids=([2,4]T(1,0)) {'x'}":
	 * the ", device_ids=..." belongs to the replica_groups value. */
	if (ctx->attrs.len && name->len == 10 && !memcmp(name->str, "device_ids", 10)) {
		struct hlo_attr *prev = &VEC_AT(ctx->attrs, struct hlo_attr, ctx->attrs.len - 1);
		if (prev->key == ATTR_REPLICA_GROUPS) {
			prev->value_len = (uint32_t)(value_sp.end - prev->value_off);
			return;
		}
	}
	if (name->len > IR_ATTR_NAME_MAX || value_sp.start - name_sp.end > IR_ATTR_GAP_MAX) {
		build_error(ctx, name_sp, "attribute name longer than %u bytes or %u bytes before its value",
			    IR_ATTR_NAME_MAX, IR_ATTR_GAP_MAX);
		return;
	}
	struct hlo_attr *a = build_vec_push(&ctx->attrs, sizeof *a);
	a->name_len = (uint16_t)name->len;
	a->name_gap = value_sp.start - name_sp.end;
	a->key = (uint16_t)(name->attr ? name->attr - 1 : ATTR_UNKNOWN);
	a->value_off = value_sp.start;
	a->value_len = (uint32_t)span_len(value_sp);
	const char *callee;
	size_t n;
	struct compnames *cn;
	if (ir_attr_is_callee((enum attr_key)a->key) &&
	    compname_of_value(ctx->src->buf + a->value_off, a->value_len, &callee, &n) && (cn = build_compnames(ctx)))
		compname_add(&cn->callees, a->value_off, a->value_len, callee, n);
}

void build_attr_continue(struct build_ctx *ctx, struct span sp)
{
	if (!build_ir(ctx) || !ctx->attrs.len)
		return;
	struct hlo_attr *a = &VEC_AT(ctx->attrs, struct hlo_attr, ctx->attrs.len - 1);
	a->value_len = (uint32_t)(sp.end - a->value_off);
}
