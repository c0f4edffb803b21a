/* annotate.h - the comment lines `hlolint annotate` adds (findings above
 * their instruction, "applied ... was" notes, a summary after HloModule)
 * and the unified diff of --diff.  Comments only: edits to the HLO itself
 * are apply.h's. */
#ifndef HLO_ANNOTATE_H
#define HLO_ANNOTATE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "apply.h"
#include "finding.h"
#include "ir.h"
#include "rewrite.h"

/* One finding as the output shows it. */
struct annotate_item {
	const struct finding *f;
	const struct hlo_instr *instr;  /* where its comment goes; NULL: the summary block */
	bool applied;                   /* --apply made its suggestion */
	const char *why_not;            /* --apply was asked for and could not: why; else NULL */
	bool resolved;                  /* not applied, but gone once the others were */
	struct apply_note *notes;       /* the edits made for it (applied only) */
};

struct annotate_summary {
	uint64_t total_before;          /* estimated total allocation per device (alloc.h) */
	uint64_t total_after;           /* the same with the suggestions applied */
	bool have_after;                /* total_after was measured (something applicable) */
	bool apply;                     /* --apply: the output holds the changes */
	uint32_t napplicable;           /* findings whose suggestion --apply can make */
	uint32_t napplied;              /* ... and made (with --apply), or would make */
	const char *target;             /* target name, or NULL when unknown */
	uint64_t hbm_bytes;             /* 0 when unknown */
};

/* Adds the comments of module m, whose findings are items[0, n) (any
 * order), to rw (a rewrite over m's source text).  Adds nothing when
 * n == 0, so a module without findings comes out byte for byte. */
void annotate_module(struct rewrite *rw, const struct hlo_module *m, const struct annotate_item *items, uint32_t n,
		     const struct annotate_summary *sum);

/* Removes from rw (a rewrite over f's source) the comments an earlier
 * annotate wrote (f->lint_comments): one alone on its line goes with the
 * line, one after code with the blanks before it.  Annotating again thus
 * replaces them instead of adding a second set. */
void annotate_strip(struct rewrite *rw, const struct hlo_file *f);

/* Whether f carries the comments of an earlier `annotate --apply` (its
 * summary line or a note on an edit it made). */
bool annotate_applied_before(const struct hlo_file *f);

/* Writes a unified diff (3 lines of context, "\ No newline at end of file"
 * markers) turning a into b, with the labels on the ---/+++ lines, to out.
 * Writes nothing when they are equal.  False on a write error. */
bool annotate_diff(FILE *out, const char *label_a, const char *label_b, const char *a, size_t alen, const char *b,
		   size_t blen);
#endif
