/* alias.h - where a result leaf lives: the leaf numbering of tuple shapes
 * (cached per hash-consed shape) and XLA's aliasing rules, the one answer
 * to "which operand leaf is this result leaf".  It assigns no buffers and
 * knows no liveness (mem.h) or placement policy of --apply (apply.h). */
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

/* One input_output_alias entry in leaves: the entry root's leaves
 * [output, output + n) share the buffers of parameter param's leaves
 * [param_leaf, param_leaf + n). */
struct alias_io {
	uint32_t output, param, param_leaf, n;
};
/* The entries of m's input_output_alias whose paths name subshapes of the
 * entry's root and of an existing parameter with the same leaf count, in
 * order, into *out (allocated in a); returns their count. */
uint32_t alias_io_pairs(struct alias_state *as, const struct hlo_module *m, struct arena *a, struct alias_io **out);

/* What a placement custom-call asks for: MoveToHost or
 * annotate_device_placement to pinned_host/unpinned_host (ALIAS_PLACE_HOST),
 * MoveToDevice or a placement "device" (ALIAS_PLACE_DEVICE), another memory
 * annotation (ALIAS_PLACE_OTHER), or nothing (ALIAS_PLACE_NONE).  The one place
 * that reads these calls; in an optimized module XLA has removed them. */
enum alias_placement { ALIAS_PLACE_NONE, ALIAS_PLACE_HOST, ALIAS_PLACE_DEVICE, ALIAS_PLACE_OTHER };
enum alias_placement alias_placement(const struct hlo_file *f, const struct hlo_instr *i);

/* When leaf j of i lives in another instruction's buffer (XLA's aliasing:
 * get-tuple-element, tuple, bitcast, while, the operand halves of async
 * starts, the done halves of async pairs, annotating custom-calls), sets
 * (*src, *sj). */
bool alias_source(struct alias_state *as, const struct hlo_instr *i, uint32_t j, const struct hlo_instr **src,
		  uint32_t *sj);
/* Instructions whose result is entirely other buffers and that read
 * nothing themselves: their operands' uses are their users' uses. */
bool alias_pure(struct alias_state *as, const struct hlo_instr *i);
#endif
