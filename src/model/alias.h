/* alias.h - the leaf numbering of tuple shapes (cached per hash-consed
 * shape) and ShapeIndex paths.  Which positions are one buffer (XLA's
 * aliasing rules) is flow.h's; it assigns no buffers and knows no
 * liveness (mem.h) or placement policy of --apply (apply.h). */
#ifndef HLO_ALIAS_H
#define HLO_ALIAS_H
#include <stdbool.h>
#include <stdint.h>
#include "arena.h"
#include "attr.h"
#include "ir.h"

/* Leaf offsets of a tuple shape: off[k] = first leaf of element k, off[rank] = count;
 * leaf[j] = the shape of leaf j, listed when first asked for (alias_leaf_shape). */
struct alias_tup {
	const struct hlo_shape *shape;
	uint32_t *off;
	const struct hlo_shape **leaf;
};

/* The cache of tuple offsets; offsets live in keep, the table is malloc'd. */
struct alias_state {
	const struct hlo_file *f;
	struct arena *keep;
	struct alias_tup *tup;      /* open-addressed by shape pointer */
	uint32_t ntup, captup;
};

void alias_init(struct alias_state *as, const struct hlo_file *f, struct arena *keep);
void alias_free(struct alias_state *as);

/* ir_leaf_count(s) through the cache. */
uint32_t alias_leaves(struct alias_state *as, const struct hlo_shape *s);
/* Offsets of tuple s's elements (s must be a tuple). */
const uint32_t *alias_offsets(struct alias_state *as, const struct hlo_shape *s);
/* The element of tuple s holding leaf j, *sub = j within it; false past the end. */
bool alias_elem_of(struct alias_state *as, const struct hlo_shape *s, uint32_t j, uint32_t *e, uint32_t *sub);
/* First leaf and leaf count of element e of tuple s. */
bool alias_elem_range(struct alias_state *as, const struct hlo_shape *s, uint32_t e, uint32_t *first,
		      uint32_t *count);
/* Leaf j of s (s itself for a non-tuple), or NULL. */
const struct hlo_shape *alias_leaf_shape(struct alias_state *as, const struct hlo_shape *s, uint32_t j);
/* Leaf j of s, its ShapeIndex ("{1,0}") into buf when not NULL. */
const struct hlo_shape *alias_leaf_path(struct alias_state *as, const struct hlo_shape *s, uint32_t j, char *buf,
					size_t cap);
/* First leaf and leaf count of the subshape at path (a ShapeIndex). */
bool alias_path_leaves(struct alias_state *as, const struct hlo_shape *s, const struct attr_ints *path,
		       uint32_t *first, uint32_t *count);

#endif
