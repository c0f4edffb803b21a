/* build_value.c - the grammar's actions in value mode: the hlo_value tree
 * of one attribute value, decoded on demand (value_parse).  In module mode
 * they build nothing: the IR keeps attribute values as spans (build.c). */
#include "build.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "scan.h"

static struct hlo_value *build_value_new(struct build_ctx *ctx, enum value_kind kind, struct span sp)
{
	struct hlo_value *v = arena_alloc(ctx->arena, sizeof *v);
	v->kind = kind;
	v->span = sp;
	return v;
}

struct hlo_value *build_value_atom(struct build_ctx *ctx, enum value_kind kind, int64_t i,
				   struct interned *id, struct span sp)
{
	if (build_ir(ctx))
		return NULL;
	if (kind == V_IDENT && !id) {
		/* A keyword: booleans and inf get their own kinds. */
		if (i == KW_TRUE || i == KW_FALSE) {
			struct hlo_value *b = build_value_new(ctx, V_BOOL, sp);
			b->u.i = i == KW_TRUE;
			return b;
		}
		if (i == KW_INF)
			return build_value_new(ctx, V_INF, sp);
		id = build_intern(ctx, ctx->src->buf + sp.start, span_len(sp));
	}
	if (!id && (kind == V_IDENT || kind == V_NAME))
		id = build_intern_span(ctx, build_name_text(ctx, sp));
	struct hlo_value *v = build_value_new(ctx, kind, sp);
	v->key = id;
	if (kind == V_INT || kind == V_PUNCT)
		v->u.i = i;
	if (kind == V_DECIMAL) {
		char tmp[128];
		size_t n = span_len(sp) < sizeof tmp - 1 ? span_len(sp) : sizeof tmp - 1;
		memcpy(tmp, ctx->src->buf + sp.start, n);
		tmp[n] = 0;
		v->u.d = strtod(tmp, NULL);
		if (!strncmp(tmp, "nan", 3) || !strncmp(tmp, "-nan", 4))
			v->u.d = tmp[0] == '-' ? -NAN : NAN;
	}
	return v;
}

struct hlo_value *build_value_shape(struct build_ctx *ctx, struct hlo_shape *s, struct span sp)
{
	if (build_ir(ctx))
		return NULL;
	struct hlo_value *v = build_value_new(ctx, V_SHAPE, sp);
	v->u.shape = s;
	return v;
}

struct hlo_value *build_value_pair(struct build_ctx *ctx, struct interned *key, struct hlo_value *val,
				   struct span sp)
{
	if (build_ir(ctx))
		return NULL;
	struct hlo_value *v = build_value_new(ctx, V_PAIR, sp);
	v->key = key;
	v->child = val;
	return v;
}

struct hlo_value *build_value_append(struct build_ctx *ctx, struct hlo_value *tail,
				     struct hlo_value *item, bool comma)
{
	(void)ctx;
	if (!item)
		return tail;
	item->comma_before = comma;
	if (!tail) {
		item->next = item;  /* circular: tail->next is the head */
		return item;
	}
	item->next = tail->next;
	tail->next = item;
	return item;
}

struct hlo_value *build_value_group(struct build_ctx *ctx, enum value_kind kind,
				    struct hlo_value *items_tail, struct span sp)
{
	if (build_ir(ctx))
		return NULL;
	struct hlo_value *v = build_value_new(ctx, kind, sp);
	if (items_tail) {
		v->child = items_tail->next;
		items_tail->next = NULL;
	}
	return v;
}

struct hlo_value *build_value_body(struct build_ctx *ctx, struct hlo_comp *c, struct span sp)
{
	if (build_ir(ctx))
		return NULL;
	(void)c;
	struct hlo_value *v = build_value_new(ctx, V_BODY, sp);
	/* The computation was built by the module parse; find it by position. */
	for (struct hlo_module *m = ctx->file->modules; m && !v->u.comp; m = m->next)
		for (uint32_t i = 0; i < m->ncomps; i++)
			if (m->comps[i]->inline_body && ir_comp_span(m->comps[i]).start == sp.start) {
				v->u.comp = m->comps[i];
				break;
			}
	return v;
}

void build_value_result(struct build_ctx *ctx, struct hlo_value *tail)
{
	if (build_ir(ctx) || !tail)
		return;
	struct hlo_value *head = tail->next;
	tail->next = NULL;
	ctx->value = head;
}
