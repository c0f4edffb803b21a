/* apply.h - `hlolint annotate --apply`: makes a finding's sharding or
 * memory-space suggestion in the HLO text through a rewrite buffer, on
 * every place that must agree (tuple shardings, the whole flow of a loop
 * carry).  It only edits text: the caller re-parses and re-checks. */
#ifndef HLO_APPLY_H
#define HLO_APPLY_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "alias.h"
#include "finding.h"
#include "ir.h"
#include "rewrite.h"

struct mem_model;

/* One edit made, for the "// hlolint: applied RULE: was ..." comment. */
struct apply_note {
	const struct hlo_instr *instr;  /* the edited instruction; NULL: the module header */
	const char *text;               /* "was sharding={replicated}" (no newline) */
	struct apply_note *next;
};

/* State shared by the findings applied to one file: the rewrite they all
 * go to, and which layouts were already changed (two findings about one
 * buffer change it once). */
struct apply_state {
	struct rewrite *rw;
	struct arena arena;         /* notes, tuple offsets */
	struct alias_state al;      /* leaf numbering (alias.h), for the file being rewritten */
	uint64_t *done;             /* open-addressed set of edited text offsets (+1; 0 = empty) */
	uint32_t done_n, done_cap;
};

void apply_init(struct apply_state *st, struct rewrite *rw);
void apply_free(struct apply_state *st);

/* Whether --apply can make f's kind of suggestion (sharding, memory space). */
bool apply_supported(const struct finding *f);

/* Makes the suggestion of finding f, located at instruction at of module m
 * (mm: m's memory model), in st->rw: every edit it needs, or none.  Returns
 * true and the edits' notes (allocated in st->arena, in text order) in
 * *notes, which stays NULL when an earlier finding already made the same
 * change; false with the reason (one line, lower case) in why. */
bool apply_finding(struct apply_state *st, struct hlo_module *m, const struct mem_model *mm,
		   const struct finding *f, struct hlo_instr *at, struct apply_note **notes, char *why,
		   size_t whylen);

/* Number of places in m where two values that must share a buffer (a while
 * and its body parameter, a GTE and its tuple element, a dynamic-update-
 * slice and its operand, a fusion operand and parameter, the entry and
 * entry_computation_layout, ...) disagree on the memory space.  The driver
 * checks that applying never makes it grow. */
uint64_t apply_space_mismatches(struct hlo_module *m);
#endif
