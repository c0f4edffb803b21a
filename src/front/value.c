/* value.c - decodes one attribute value on demand by running the grammar
 * from START_VALUE over the value's span, and small readers over the tree.
 * The module parse never builds these trees; only their users pay for them. */
#include "value.h"
#include <stdlib.h>
#include <string.h>
#include "build.h"
#include "lex.h"
#include "scan.h"

static struct hlo_value *value_parse_as(struct hlo_file *f, struct span sp, int key, struct arena *a,
					struct diag_sink *d);

struct hlo_value *value_parse(struct hlo_file *f, struct span sp, struct arena *a,
			      struct diag_sink *d)
{
	return value_parse_as(f, sp, ATTR_UNKNOWN, a, d);
}

struct hlo_value *value_parse_attr(struct hlo_file *f, const struct hlo_attr *at, struct arena *a,
				   struct diag_sink *d)
{
	return value_parse_as(f, ir_attr_value(at), at->key, a, d);
}

static struct hlo_value *value_parse_as(struct hlo_file *f, struct span sp, int key, struct arena *a,
					struct diag_sink *d)
{
	struct build_ctx ctx;
	build_ctx_init(&ctx, f, d, BUILD_VALUE, a);
	ctx.value_attr = key;
	int rc = scan_run(&ctx, f->src->buf + sp.start, span_len(sp), sp.start);
	struct hlo_value *v = rc == 0 && ctx.errors == 0 ? ctx.value : NULL;
	build_ctx_fini(&ctx);
	if (!v || !v->next)
		return v;
	/* Several comma-separated values (calls=%a, %b): wrap them. */
	struct hlo_value *w = arena_alloc(a, sizeof *w);
	w->kind = V_SEQ;
	w->span = sp;
	w->child = v;
	return w;
}

bool value_shape_text(struct hlo_file *f, struct span sp, bool is_sig, struct shape_text *out)
{
	memset(out, 0, sizeof *out);
	struct arena a;
	arena_init(&a);
	struct build_ctx ctx;
	build_ctx_init(&ctx, f, NULL, is_sig ? BUILD_SIGNATURE : BUILD_SHAPE, &a);
	bool ok = scan_run(&ctx, f->src->buf + sp.start, span_len(sp), sp.start) == 0 && ctx.errors == 0 &&
		  ctx.shape;
	if (ok) {
		build_shape_text_take(&ctx, out);
	}
	build_ctx_fini(&ctx);
	arena_free(&a);
	return ok;
}

void value_shape_text_free(struct shape_text *st)
{
	free(st->leaves);
	free(st->tops);
	memset(st, 0, sizeof *st);
}

uint32_t value_count(const struct hlo_value *group)
{
	uint32_t n = 0;
	for (const struct hlo_value *v = group ? group->child : NULL; v; v = v->next)
		n++;
	return n;
}

char *value_string(const struct hlo_file *f, const struct hlo_value *v, struct arena *a, size_t *len)
{
	const char *s = f->src->buf + v->span.start;
	size_t n = (size_t)span_len(v->span);
	if (v->kind == V_JSON || v->kind == V_IDENT || v->kind == V_NAME) {
		*len = n;
		return arena_strndup(a, s, n);
	}
	if (v->kind != V_STRING || n < 2)
		return NULL;
	char *out = arena_alloc(a, n);
	size_t o = 0;
	for (size_t i = 1; i + 1 < n; i++) {
		if (s[i] != '\\') {
			out[o++] = s[i];
			continue;
		}
		char e = s[++i];
		switch (e) {
		case 'n': out[o++] = '\n'; break;
		case 't': out[o++] = '\t'; break;
		case 'r': out[o++] = '\r'; break;
		case 'a': out[o++] = '\a'; break;
		case 'b': out[o++] = '\b'; break;
		case 'f': out[o++] = '\f'; break;
		case 'v': out[o++] = '\v'; break;
		case 'x': {
			int c = 0;
			while (i + 2 < n && lex_hex(s[i + 1]) >= 0) {
				int h = lex_hex(s[++i]);
				c = c > 0xff ? c : c * 16 + h;   /* over 0xff is an error the scanner reports */
			}
			out[o++] = (char)c;
			break;
		}
		default:
			if (e >= '0' && e <= '7') {
				int c = e - '0';
				for (int k = 0; k < 2 && i + 2 < n && s[i + 1] >= '0' && s[i + 1] <= '7'; k++)
					c = c * 8 + (s[++i] - '0');
				out[o++] = (char)c;
			} else {
				out[o++] = e;
			}
		}
	}
	out[o] = 0;
	*len = o;
	return out;
}

bool value_int_list(const struct hlo_value *v, struct arena *a, int64_t **out, uint32_t *n)
{
	if (!v || v->kind != V_BRACE)
		return false;
	uint32_t k = 0;
	for (const struct hlo_value *c = v->child; c; c = c->next) {
		if (c->kind != V_INT)
			return false;
		k++;
	}
	*n = k;
	*out = arena_array(a, k, sizeof **out);
	k = 0;
	for (const struct hlo_value *c = v->child; c; c = c->next)
		(*out)[k++] = c->u.i;
	return true;
}
