/* idle.c - the reads of the entry's buffers on the flattened timeline, in
 * one pass over the entry: per buffer the last read.  Only the
 * entry's own buffers: a loop's carried values are loop.h's and
 * loop-carry-offload's. */
#include "idle.h"
#include <stdlib.h>
#include <string.h>
#include "flow.h"

/* XLA's end-of-program prefetch: a copy whose done half nothing reads,
 * made only to have a cross-program-prefetched argument in fast memory for
 * the next execution.  Not a read the program needs. */
static bool idle_dead_done(const struct hlo_instr *i)
{
	return i->op == OP_COPY_DONE && !i->nusers && !ir_is_root(i);
}

static bool idle_dead_copy(const struct hlo_instr *i)
{
	if (idle_dead_done(i))
		return true;
	if (i->op != OP_COPY_START)
		return false;
	for (uint32_t k = 0; k < i->nusers; k++)
		if (!idle_dead_done(ir_user(i, k)))
			return false;
	return true;
}

/* Entry steps only grow, so the latest read is the last. */
static void idle_read(struct idle_use *u, uint32_t hi, const struct hlo_instr *i)
{
	u->nuses++;
	u->last = hi;
	u->last_user = i;
}

void idle_uses(const struct mem_model *mm, struct idle_use *out)
{
	for (uint32_t b = 0; b < mm->nbuffers; b++)
		out[b] = (struct idle_use){ 0 };
	const struct hlo_comp *e = mm->module->entry;
	if (!e)
		return;
	struct arena keep;
	arena_init(&keep);
	struct alias_state as;
	alias_init(&as, mm->module->file, &keep);
	uint32_t *seen = xcalloc(mm->nbuffers ? mm->nbuffers : 1, sizeof *seen);
	for (uint32_t k = 0; k < e->ninstrs; k++) {
		const struct hlo_instr *i = e->instrs[k];
		uint32_t hi = mem_step_at(mm, i);
		if (hi == UINT32_MAX)
			continue;
		if (flow_pure(&as, i) || idle_dead_copy(i))
			continue;
		for (uint32_t o = 0; o < i->noperands; o++) {
			const struct hlo_instr *op = ir_operands(i)[o].instr;
			uint32_t n = op ? mem_leaf_count(mm, op) : 0;
			for (uint32_t j = 0; j < n; j++) {
				const struct mem_buffer *b = mem_buffer_at(mm, op, j);
				if (!b || mem_buffer_owner(b) != e || seen[mem_buffer_id(mm, b)] == k + 1)
					continue;
				seen[mem_buffer_id(mm, b)] = k + 1;
				idle_read(&out[mem_buffer_id(mm, b)], hi, i);
			}
		}
	}
	free(seen);
	alias_free(&as);
	arena_free(&keep);
}
