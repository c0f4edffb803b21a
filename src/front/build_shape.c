/* build_shape.c - the builders of shapes and layouts: hash-consed per
 * file (one hlo_shape for every equal shape), with the leaves of the shape
 * mode (value_shape_text).  Instructions and computations are build.c's. */
#include "build_int.h"
#include "size.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- shapes (hash-consed) ---- */

uint32_t build_int_mark(struct build_ctx *ctx)
{
	return ctx->ints.len;
}

void build_int(struct build_ctx *ctx, int64_t v, uint8_t kind)
{
	*(int64_t *)build_vec_push(&ctx->ints, sizeof v) = v;
	*(uint8_t *)build_vec_push(&ctx->kinds, 1) = kind;
}

/* Key buffer for hash-consing: a tag byte, then the raw fields. */
struct build_key {
	unsigned char buf[512];
	size_t len;
	bool overflow;
};

static void build_key_put(struct build_key *k, const void *p, size_t n)
{
	if (!n)
		return;
	if (k->len + n > sizeof k->buf) {
		k->overflow = true;
		return;
	}
	memcpy(k->buf + k->len, p, n);
	k->len += n;
}

/* Returns the canonical copy of s: an equal shape built earlier, or s itself
 * (then copied to the arena).  Keys too long to buffer are not shared. */
static struct hlo_shape *build_intern_shape(struct build_ctx *ctx, const struct hlo_shape *s)
{
	struct build_key k = { .len = 0 };
	unsigned char tag = 1;
	build_key_put(&k, &tag, 1);
	build_key_put(&k, &s->type, sizeof s->type);
	build_key_put(&k, &s->rank, sizeof s->rank);
	build_key_put(&k, &s->layout, sizeof s->layout);
	if (s->type == PT_TUPLE || s->type == PT_BUFFER) {
		uint32_t n = s->type == PT_BUFFER ? 1 : s->rank;
		build_key_put(&k, s->elems, n * sizeof *s->elems);
	} else {
		build_key_put(&k, s->dims, s->rank * sizeof *s->dims);
		if (s->dim_kinds)
			build_key_put(&k, s->dim_kinds, s->rank);
	}
	struct interned *e = NULL;
	if (!k.overflow) {
		e = intern(ctx->file->names, (const char *)k.buf, k.len);
		if (e->data)
			return e->data;
	}
	struct arena *a = &ctx->file->arena;
	struct hlo_shape *c = arena_alloc(a, sizeof *c);
	*c = *s;
	if (s->type == PT_TUPLE || s->type == PT_BUFFER) {
		uint32_t n = s->type == PT_BUFFER ? 1 : s->rank;
		c->elems = arena_array(a, n, sizeof *c->elems);
		if (n)
			memcpy(c->elems, s->elems, n * sizeof *c->elems);
	} else {
		c->dims = arena_array(a, s->rank, sizeof *c->dims);
		if (s->rank)
			memcpy(c->dims, s->dims, s->rank * sizeof *c->dims);
		if (s->dim_kinds) {
			c->dim_kinds = arena_alloc(a, s->rank);
			memcpy(c->dim_kinds, s->dim_kinds, s->rank);
		}
	}
	if (e)
		e->data = c;
	return c;
}

/* Lets the scanner turn this exact text into one SHAPE token next time
 * (scan_shape_text).  Only compact text can match there; shapes written
 * with errors are not remembered. */
static void build_remember_shape_text(struct build_ctx *ctx, struct span sp, struct hlo_shape *c)
{
	const char *t = ctx->src->buf + sp.start;
	size_t n = (size_t)span_len(sp);
	if (ctx->module_errors || n > 200 || n == 0 || !(t[0] >= 'a' && t[0] <= 'z'))
		return;
	for (size_t i = 0; i < n; i++)
		if (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r' || t[i] == '/' || t[i] == '\'')
			return;
	struct interned *e = build_intern(ctx, t, n);
	if (!e->data)
		e->data = c;
}

/* XLA rejects a shape whose element count or byte size (padded to its
 * tiles) overflows int64 (ShapeUtil::ValidateShapeSize); the memory model
 * can then assume every buffer fits in int64. */
static void build_check_size(struct build_ctx *ctx, const struct hlo_shape *s, struct span sp)
{
	struct size_array a;
	size_array_of(&a, s);
	if (size_fits_int64(&a))
		return;
	build_error(ctx, sp, "size of shape %.*s overflows int64 (over 2^63-1 elements or bytes); XLA rejects it",
		    (int)(span_len(sp) > 120 ? 120 : span_len(sp)), ctx->src->buf + sp.start);
}

/* ---- Shape modes: where leaves are written (value_shape_text) ---- */

static void build_leaf_push(struct build_ctx *ctx, const struct shape_leaf_text *lt)
{
	*(struct shape_leaf_text *)build_vec_push(&ctx->leaf_texts, sizeof *lt) = *lt;
}

/* Drops the leaves recorded inside sp: those of a buffer's element or of a
 * layout's P(shape), which are not leaves of the written shape. */
static void build_leaf_drop_inside(struct build_ctx *ctx, struct span sp)
{
	while (ctx->leaf_texts.len &&
	       VEC_AT(ctx->leaf_texts, struct shape_leaf_text, ctx->leaf_texts.len - 1).start >= sp.start)
		ctx->leaf_texts.len--;
}

static void build_leaf_array(struct build_ctx *ctx, struct span sp, enum ptype t, bool has_layout)
{
	struct shape_leaf_text lt = { .layout = span_none(), .space = span_none(), .colon = UINT64_MAX,
				      .tail = UINT64_MAX };
	if (has_layout)
		lt = ctx->layout_text;
	lt.start = sp.start;
	lt.dims_end = has_layout ? lt.layout.start : sp.end;
	lt.array = t != PT_TOKEN && t != PT_OPAQUE;
	build_leaf_push(ctx, &lt);
}

/* The end of a signature parameter or of the whole shape text. */
void build_shape_top(struct build_ctx *ctx)
{
	*(uint32_t *)build_vec_push(&ctx->tops, sizeof(uint32_t)) = ctx->leaf_texts.len;
}

void build_shape_text_take(struct build_ctx *ctx, struct shape_text *out)
{
	out->leaves = ctx->leaf_texts.data;
	out->nleaves = ctx->leaf_texts.len;
	out->tops = ctx->tops.data;
	out->ntops = ctx->tops.len;
	memset(&ctx->leaf_texts, 0, sizeof ctx->leaf_texts);
	memset(&ctx->tops, 0, sizeof ctx->tops);
}

struct hlo_shape *build_array_shape(struct build_ctx *ctx, struct interned *type, struct span type_sp,
				    uint32_t dim_mark, struct hlo_layout *layout, struct span sp)
{
	struct hlo_shape s = { .type = (enum ptype)(type->type - 1) };  /* intern stores enum + 1 */
	(void)type_sp;
	s.rank = ctx->ints.len - dim_mark;
	s.dims = VEC_PTR(ctx->ints, int64_t, dim_mark);
	bool dynamic = false;
	for (uint32_t i = 0; i < s.rank; i++) {
		uint8_t kind = VEC_AT(ctx->kinds, uint8_t, dim_mark + i);
		if (kind)
			dynamic = true;
		else if (s.dims[i] < 0)
			build_error(ctx, sp, "dimension size %lld is negative", (long long)s.dims[i]);
	}
	if (dynamic)
		s.dim_kinds = VEC_PTR(ctx->kinds, uint8_t, dim_mark);
	s.layout = layout;
	if (layout && layout->rank != s.rank)
		build_error(ctx, sp, "layout has %u minor-to-major entries for a rank-%u shape",
			    layout->rank, s.rank);
	else
		build_check_size(ctx, &s, sp);
	struct hlo_shape *c = build_intern_shape(ctx, &s);
	ctx->ints.len = ctx->kinds.len = dim_mark;
	build_remember_shape_text(ctx, sp, c);
	if (ctx->mode >= BUILD_SHAPE)
		build_leaf_array(ctx, sp, c->type, layout != NULL);
	return c;
}

uint32_t build_shape_mark(struct build_ctx *ctx)
{
	return ctx->shapes.len;
}

void build_shape_push(struct build_ctx *ctx, struct hlo_shape *s)
{
	*(struct hlo_shape **)build_vec_push(&ctx->shapes, sizeof s) = s;
}

/* A tuple shape's text for scan_tuple_text: one line, no comment or
 * string, at most BUILD_TUPLE_TEXT_MAX bytes; not after errors. */
static void build_remember_tuple_text(struct build_ctx *ctx, struct span sp, struct hlo_shape *c)
{
	const char *t = ctx->src->buf + sp.start;
	size_t n = (size_t)span_len(sp);
	if (ctx->module_errors || n > BUILD_TUPLE_TEXT_MAX || n < 2 || t[0] != '(' || t[n - 1] != ')' ||
	    ctx->mode >= BUILD_SHAPE)
		return;
	for (size_t i = 0; i < n; i++)
		if (t[i] == '\n' || t[i] == '\r' || t[i] == '/' || t[i] == '"' || t[i] == 0)
			return;
	struct interned *e = build_intern(ctx, t, n);
	if (!e->data)
		e->data = c;
}

struct hlo_shape *build_tuple_shape(struct build_ctx *ctx, uint32_t mark, struct span sp)
{
	struct hlo_shape s = { .type = PT_TUPLE };
	s.rank = ctx->shapes.len - mark;
	s.elems = VEC_PTR(ctx->shapes, struct hlo_shape *, mark);
	struct hlo_shape *c = build_intern_shape(ctx, &s);
	ctx->shapes.len = mark;
	build_remember_tuple_text(ctx, sp, c);
	return c;
}

struct hlo_shape *build_buffer_shape(struct build_ctx *ctx, struct hlo_shape *elem, struct span sp)
{
	struct hlo_shape s = { .type = PT_BUFFER, .rank = 1, .elems = &elem };
	if (ctx->mode >= BUILD_SHAPE) {
		build_leaf_drop_inside(ctx, sp);
		struct shape_leaf_text lt = { .start = sp.start, .dims_end = sp.end, .layout = span_none(),
					      .space = span_none(), .colon = UINT64_MAX, .tail = UINT64_MAX };
		build_leaf_push(ctx, &lt);
	}
	return build_intern_shape(ctx, &s);
}

struct hlo_shape *build_shape_like(struct hlo_file *f, const struct hlo_shape *like, enum ptype type)
{
	struct build_ctx ctx = { .file = f };
	struct hlo_shape s = *like;
	s.type = type;
	return build_intern_shape(&ctx, &s);
}

struct hlo_shape *build_shape_tuple(struct hlo_file *f, struct hlo_shape **elems, uint32_t n)
{
	struct build_ctx ctx = { .file = f };
	struct hlo_shape s = { .type = PT_TUPLE, .rank = n, .elems = elems };
	return build_intern_shape(&ctx, &s);
}

void build_shape_result(struct build_ctx *ctx, struct hlo_shape *s)
{
	ctx->shape = s;
	build_shape_top(ctx);
}

/* ---- layouts ---- */

/* XLA recognises layout attributes only in this order (HLO_TEXT_SYNTAX §3.4). */
enum build_layout_rank { LR_NONE, LR_D, LR_T, LR_L, LR_INDEX, LR_POINTER, LR_E, LR_S, LR_SC, LR_P, LR_M };

struct build_layout {
	struct hlo_layout l;
	struct span span;
	uint32_t int_mark;     /* minor_to_major starts here in ctx->ints */
	uint32_t tile_mark;    /* tiles of this layout in ctx->tiles */
	uint32_t split_mark;
	int last;              /* enum build_layout_rank of the previous attribute */
	uint64_t colon, tail;  /* where ':' and the first of SC, P, M are (value_shape_text) */
	struct span space;     /* S(n) */
};

static struct build_layout *build_cur_layout(struct build_ctx *ctx)
{
	return VEC_AT(ctx->layouts, struct build_layout *, ctx->layouts.len - 1);
}

void build_layout_begin(struct build_ctx *ctx, struct span sp)
{
	struct build_layout *b = xcalloc(1, sizeof *b);
	b->span = sp;
	b->int_mark = ctx->ints.len;
	b->tile_mark = ctx->tiles.len;
	b->split_mark = ctx->splits.len;
	b->l.tail_padding = 1;
	b->colon = b->tail = UINT64_MAX;
	b->space = span_none();
	*(struct build_layout **)build_vec_push(&ctx->layouts, sizeof b) = b;
}

void build_layout_colon(struct build_ctx *ctx, struct span sp)
{
	build_cur_layout(ctx)->colon = sp.start;
}

void build_layout_m2m(struct build_ctx *ctx, int64_t v)
{
	build_int(ctx, v, 0);
	build_cur_layout(ctx)->l.rank++;
}

static void build_layout_order(struct build_ctx *ctx, int rank, const char *what, struct span sp)
{
	struct build_layout *b = build_cur_layout(ctx);
	if (rank <= b->last)
		build_error(ctx, sp, "layout attribute %s is out of order (expected D, T, L, #, *, E, S, SC, P, M)",
			    what);
	b->last = rank;
	if (rank > LR_S && b->tail == UINT64_MAX)
		b->tail = sp.start;
}

/* A tile dimension: positive, or -1 for '*' (sp none: the grammar's '*';
 * XLA's ValidateLayout rejects 0 and negative sizes, a literal -1 too). */
void build_layout_tile_dim(struct build_ctx *ctx, int64_t v, struct span sp)
{
	if (!span_is_none(sp) && v <= 0)
		build_error(ctx, sp, "tile dimension %lld must be positive (or '*')", (long long)v);
	build_int(ctx, v, 0);
}

void build_layout_tile_end(struct build_ctx *ctx, struct span sp)
{
	struct build_layout *b = build_cur_layout(ctx);
	uint32_t start = b->int_mark + b->l.rank;
	struct hlo_tile t;
	if (b->last != LR_T)
		build_layout_order(ctx, LR_T, "T", sp);
	t.dims = build_vec_take(ctx, &ctx->ints, start, sizeof *t.dims, &t.rank);
	ctx->kinds.len = start;
	*(struct hlo_tile *)build_vec_push(&ctx->tiles, sizeof t) = t;
}

/* Letters of layout attributes are plain identifiers compared by text. */
static bool build_is_letter(struct build_ctx *ctx, struct span sp, const char *l)
{
	size_t n = strlen(l);
	return span_len(sp) == n && !memcmp(ctx->src->buf + sp.start, l, n);
}

void build_layout_int(struct build_ctx *ctx, struct span letter_sp, int64_t v, struct span sp)
{
	struct build_layout *b = build_cur_layout(ctx);
	char l[8];
	snprintf(l, sizeof l, "%.*s", (int)(span_len(letter_sp) < 7 ? span_len(letter_sp) : 7),
		 ctx->src->buf + letter_sp.start);
	/* XLA's ValidateLayout: a tail padding alignment of at least 1 element,
	 * element sizes and memory spaces not negative. */
	if ((!strcmp(l, "L") && v < 1) || ((!strcmp(l, "E") || !strcmp(l, "S")) && v < 0))
		build_error(ctx, sp, "layout attribute %s(%lld) is out of range (%s)", l, (long long)v,
			    !strcmp(l, "L") ? "at least 1" : "not negative");
	if (!strcmp(l, "L")) {
		build_layout_order(ctx, LR_L, l, letter_sp);
		b->l.tail_padding = v;
	} else if (!strcmp(l, "E")) {
		build_layout_order(ctx, LR_E, l, letter_sp);
		b->l.element_bits = v;
	} else if (!strcmp(l, "S")) {
		build_layout_order(ctx, LR_S, l, letter_sp);
		b->l.memory_space = v;
		b->space = sp;
	} else if (!strcmp(l, "M")) {
		build_layout_order(ctx, LR_M, l, letter_sp);
		b->l.dynamic_prefix = v;
	} else {
		build_error(ctx, sp, "unknown layout attribute '%s'", l);
	}
}

void build_layout_type(struct build_ctx *ctx, int which, struct interned *type, struct span sp)
{
	struct build_layout *b = build_cur_layout(ctx);
	enum ptype t = (enum ptype)(type->type - 1);
	build_layout_order(ctx, which ? LR_POINTER : LR_INDEX, which ? "*" : "#", sp);
	if (!ir_type_is_unsigned_int(t))
		build_error(ctx, sp, "%s type in a layout must be an unsigned integer type, got %s",
			    which ? "pointer" : "index", type->str);
	if (which)
		b->l.pointer_type = t;
	else
		b->l.index_type = t;
}

void build_layout_split(struct build_ctx *ctx, int64_t dim, uint32_t int_mark, struct span sp)
{
	(void)sp;
	struct hlo_split s = { .dim = dim };
	s.indices = build_vec_take(ctx, &ctx->ints, int_mark, sizeof *s.indices, &s.n);
	ctx->kinds.len = int_mark;
	*(struct hlo_split *)build_vec_push(&ctx->splits, sizeof s) = s;
}

void build_layout_splits_end(struct build_ctx *ctx, struct span letter, struct span sp)
{
	if (!build_is_letter(ctx, letter, "SC"))
		build_error(ctx, sp, "unknown layout attribute '%.*s'", (int)span_len(letter),
			    ctx->src->buf + letter.start);
	else
		build_layout_order(ctx, LR_SC, "SC", sp);
}

void build_layout_dlt(struct build_ctx *ctx, struct span letter, uint32_t count, struct span sp)
{
	if (!build_is_letter(ctx, letter, "D")) {
		build_error(ctx, sp, "unknown layout attribute '%.*s'", (int)span_len(letter),
			    ctx->src->buf + letter.start);
		return;
	}
	build_layout_order(ctx, LR_D, "D", letter);
	build_cur_layout(ctx)->l.ndim_level_types = count;
}

/* D(...) entries: dense, compressed, singleton, loose-compressed (XLA's D/C/S/H). */
void build_layout_dlt_item(struct build_ctx *ctx, struct span sp)
{
	const char *t = ctx->src->buf + sp.start;
	if (span_len(sp) != 1 || !strchr("DCSH", t[0]))
		build_error(ctx, sp, "unknown dim level type '%.*s' (expected D, C, S or H)",
			    (int)span_len(sp), t);
}

void build_layout_physical(struct build_ctx *ctx, struct span letter, struct hlo_shape *shape,
			   struct span sp)
{
	if (!build_is_letter(ctx, letter, "P")) {
		build_error(ctx, sp, "unknown layout attribute '%.*s'", (int)span_len(letter),
			    ctx->src->buf + letter.start);
		return;
	}
	build_layout_order(ctx, LR_P, "P", letter);
	build_cur_layout(ctx)->l.physical = shape;
	if (ctx->mode >= BUILD_SHAPE)
		build_leaf_drop_inside(ctx, sp);
	/* XLA accepts P(...) only on sparse layouts, which dense text cannot express. */
	if (!build_cur_layout(ctx)->l.ndim_level_types)
		build_error(ctx, sp, "physical shape P(...) is only valid for sparse layouts");
}

struct hlo_layout *build_layout_end(struct build_ctx *ctx, struct span sp)
{
	struct build_layout *b = build_cur_layout(ctx);
	ctx->layouts.len--;
	if (ctx->mode >= BUILD_SHAPE)
		ctx->layout_text = (struct shape_leaf_text){ .layout = sp, .colon = b->colon, .space = b->space,
							     .tail = b->tail, .space_n = b->l.memory_space };
	struct hlo_layout *l = &b->l;
	l->minor_to_major = VEC_PTR(ctx->ints, int64_t, b->int_mark);
	l->tiles = ctx->tiles.len > b->tile_mark ? VEC_PTR(ctx->tiles, struct hlo_tile, b->tile_mark) : NULL;
	l->ntiles = ctx->tiles.len - b->tile_mark;
	l->splits = ctx->splits.len > b->split_mark ? VEC_PTR(ctx->splits, struct hlo_split, b->split_mark) : NULL;
	l->nsplits = ctx->splits.len - b->split_mark;
	for (uint32_t i = 0; i < l->rank; i++) {
		if (l->minor_to_major[i] < 0 || (uint64_t)l->minor_to_major[i] >= l->rank) {
			build_error(ctx, sp, "layout minor-to-major entry %lld is out of range",
				    (long long)l->minor_to_major[i]);
			continue;
		}
		/* A permutation of the dimensions (rank is small: a scan back). */
		for (uint32_t j = 0; j < i; j++)
			if (l->minor_to_major[j] == l->minor_to_major[i]) {
				build_error(ctx, sp, "layout minor-to-major names dimension %lld twice",
					    (long long)l->minor_to_major[i]);
				break;
			}
	}
	/* Hash-cons: key over every field (tiles and splits by value). */
	struct build_key k = { .len = 0 };
	unsigned char tag = 2;
	build_key_put(&k, &tag, 1);
	build_key_put(&k, &l->rank, sizeof l->rank);
	build_key_put(&k, l->minor_to_major, l->rank * sizeof(int64_t));
	build_key_put(&k, &l->ntiles, sizeof l->ntiles);
	for (uint32_t i = 0; i < l->ntiles; i++) {
		build_key_put(&k, &l->tiles[i].rank, sizeof l->tiles[i].rank);
		build_key_put(&k, l->tiles[i].dims, l->tiles[i].rank * sizeof(int64_t));
	}
	build_key_put(&k, &l->ndim_level_types, sizeof l->ndim_level_types);
	build_key_put(&k, &l->tail_padding, sizeof l->tail_padding);
	build_key_put(&k, &l->index_type, sizeof l->index_type);
	build_key_put(&k, &l->pointer_type, sizeof l->pointer_type);
	build_key_put(&k, &l->element_bits, sizeof l->element_bits);
	build_key_put(&k, &l->memory_space, sizeof l->memory_space);
	build_key_put(&k, &l->nsplits, sizeof l->nsplits);
	for (uint32_t i = 0; i < l->nsplits; i++) {
		build_key_put(&k, &l->splits[i].dim, sizeof l->splits[i].dim);
		build_key_put(&k, &l->splits[i].n, sizeof l->splits[i].n);
		build_key_put(&k, l->splits[i].indices, l->splits[i].n * sizeof(int64_t));
	}
	build_key_put(&k, &l->physical, sizeof l->physical);
	build_key_put(&k, &l->dynamic_prefix, sizeof l->dynamic_prefix);
	struct interned *e = NULL;
	struct hlo_layout *c = NULL;
	if (!k.overflow) {
		e = intern(ctx->file->names, (const char *)k.buf, k.len);
		c = e->data;
	}
	if (!c) {
		struct arena *a = &ctx->file->arena;
		c = arena_alloc(a, sizeof *c);
		*c = *l;
		c->minor_to_major = arena_array(a, l->rank, sizeof(int64_t));
		if (l->rank)
			memcpy(c->minor_to_major, l->minor_to_major, l->rank * sizeof(int64_t));
		c->tiles = arena_array(a, l->ntiles, sizeof *c->tiles);
		if (l->ntiles)
			memcpy(c->tiles, l->tiles, l->ntiles * sizeof *c->tiles);
		c->splits = arena_array(a, l->nsplits, sizeof *c->splits);
		if (l->nsplits)
			memcpy(c->splits, l->splits, l->nsplits * sizeof *c->splits);
		if (e)
			e->data = c;
	}
	ctx->ints.len = ctx->kinds.len = b->int_mark;
	ctx->tiles.len = b->tile_mark;
	ctx->splits.len = b->split_mark;
	free(b);
	return c;
}
