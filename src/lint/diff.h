/* diff.h - what a change did to one program's memory: two compiles of a
 * module compared by what survives recompiling (op_name, shape, leaf;
 * never instruction names), with their models and the rules' findings
 * (diff.c).  It prints nothing; cmd_diff.c does. */
#ifndef HLO_DIFF_H
#define HLO_DIFF_H
#include <stdbool.h>
#include <stdint.h>
#include "arena.h"
#include "finding.h"
#include "ir.h"
#include "mem.h"

/* One compile of the module: its model and the rules' findings on it. */
struct diff_side {
	const char *path;
	struct source *src;
	struct hlo_module *m;
	struct mem_model *mm;
	const struct finding **findings;
	uint32_t nfindings;
};

enum diff_kind {
	DIFF_NEW,          /* a large buffer with no counterpart before */
	DIFF_GROWN,        /* its counterpart was smaller */
	DIFF_SHRUNK,
	DIFF_GONE,         /* a large buffer before, none now */
	DIFF_LOST_SHARDING,/* split over devices before, not now */
	DIFF_GAINED_SHARDING,
	DIFF_LEFT_HOST,    /* in host memory (S(5)) before, in device memory now */
	DIFF_TO_HOST,
};

/* One change, with the buffer on each side (NULL where there is none). */
struct diff_change {
	enum diff_kind kind;
	const struct mem_buffer *old, *new;
	const char *label;          /* op_name, else the instruction's name */
};

struct diff_result {
	struct diff_change *changes;
	uint32_t nchanges;
	const struct finding **added, **resolved;   /* by fingerprint */
	uint32_t nadded, nresolved;
	uint32_t old_aliases, new_aliases;          /* input_output_alias entries (donation) */
};

/* Compares the top largest buffers of each side and every finding.
 * Arrays in a. */
void diff_run(const struct diff_side *old, const struct diff_side *new, uint32_t top, struct arena *a,
	      struct diff_result *out);
/* "new", "grown", "lost-sharding", ... */
const char *diff_kind_name(enum diff_kind k);
#endif
