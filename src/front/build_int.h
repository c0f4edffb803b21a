/* build_int.h - what the builder's files share (build.c: modules,
 * computations, instructions; build_shape.c: shapes and layouts): the
 * scratch vectors.  Not for use outside src/front/build*. */
#ifndef HLO_BUILD_INT_H
#define HLO_BUILD_INT_H
#include <string.h>
#include "build.h"

static inline void *build_vec_push(struct build_vec *v, size_t size)
{
	if (v->len == v->cap) {
		v->cap = v->cap ? v->cap * 2 : 64;
		v->data = xreallocarray(v->data, v->cap, size);
	}
	return (char *)v->data + (size_t)v->len++ * size;
}

#define VEC_AT(v, type, i) (((type *)(v).data)[i])
/* Address of element i, or NULL for an empty vector (no arithmetic on NULL). */
#define VEC_PTR(v, type, i) ((v).data ? &((type *)(v).data)[i] : (type *)NULL)

/* Copies elements [mark, len) into the arena and pops them. */
static inline void *build_vec_take(struct build_ctx *ctx, struct build_vec *v, uint32_t mark, size_t size,
			    uint32_t *n)
{
	*n = v->len - mark;
	void *out = NULL;
	if (*n && v->data) {
		out = arena_array(&ctx->file->arena, *n, size);
		memcpy(out, (char *)v->data + (size_t)mark * size, (size_t)*n * size);
	}
	v->len = mark;
	return out;
}

/* After a signature parameter's or result's shape: the shape-mode leaves
 * of the top shape (build_shape.c). */
void build_shape_top(struct build_ctx *ctx);
#endif
