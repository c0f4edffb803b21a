/* idle.h - when the entry computation's buffers are read: their last read
 * on the memory model's flattened timeline, and by what.  It
 * reads the model (mem.h) and changes nothing; what moving a buffer off
 * the device would free is alloc.h's. */
#ifndef HLO_IDLE_H
#define HLO_IDLE_H
#include <stdint.h>
#include "mem.h"

struct idle_use {
	uint32_t nuses;                     /* instructions that read it */
	uint32_t last;                      /* step of the last read */
	const struct hlo_instr *last_user;
};

/* Fills out[b] (mm->nbuffers entries) for every buffer the entry owns
 * (others get nuses 0).  Reads go through get-tuple-element, tuple,
 * bitcast and the other alias-only instructions to the instructions that
 * read the data; a while, call or conditional reads its operands up to
 * its own step, which follows its callees'. */
void idle_uses(const struct mem_model *mm, struct idle_use *out);
#endif
