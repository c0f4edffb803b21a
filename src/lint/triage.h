/* triage.h - what an OOM report (oomlog.h) means: its class in the XLA TPU
 * out-of-memory guide's terms, with the fixes that match, and which HLO
 * instruction each listed allocation is in a module of the same program
 * (triage.c).  It prints nothing; cmd_oom.c does. */
#ifndef HLO_TRIAGE_H
#define HLO_TRIAGE_H
#include <stdbool.h>
#include <stdint.h>
#include "arena.h"
#include "ir.h"
#include "mem.h"
#include "oomlog.h"

/* The guide's three kinds of failure. */
enum triage_class {
	TRIAGE_SPARSECORE,   /* TensorCore vs SparseCore imbalance */
	TRIAGE_LARGE,        /* one allocation over half of the limit */
	TRIAGE_AGGREGATE,    /* many allocations together over the limit */
};

/* One listed allocation and where it is in the module. */
struct triage_alloc {
	const struct oom_alloc *al; /* the report's, or one made from the model */
	struct hlo_instr *instr;    /* NULL when not found */
	const char *how;            /* "name", "op_name and shape", ... */
};

struct triage {
	const struct oom_report *r;
	enum triage_class cls;
	uint64_t limit;             /* capacity, OOM_UNKNOWN when the report gives none */
	const struct oom_alloc *big;/* TRIAGE_LARGE: the largest allocation */
	struct triage_alloc *allocs;/* in report order (NULL before triage_map) */
	uint32_t nallocs;
	uint32_t mapped;            /* allocations found in the module */
	bool from_model;            /* allocs are hlolint's largest buffers (triage_from_model) */
};

/* Classifies r (capacity, largest allocation, SparseCore share). */
void triage_classify(const struct oom_report *r, struct triage *t);
/* Maps every allocation of t->r to its instruction in m: by the name in the
 * XLA label, else by op_name and shape (labels XLA cut short, XLA:GPU's
 * labels that are only an opcode).  Arrays in a. */
void triage_map(struct triage *t, struct hlo_module *m, struct arena *a);
/* When the report lists no allocations (XLA:TPU's short form): the n
 * largest buffers of hlolint's model of the module take their place, and
 * the class is decided again with them.  Arrays in a. */
void triage_from_model(struct triage *t, const struct mem_model *mm, uint32_t n, struct arena *a);
/* How many of r's allocations name an instruction of m (choosing among the
 * modules of a dump folder). */
uint32_t triage_matches(const struct oom_report *r, struct hlo_module *m, struct arena *a);

const char *triage_class_name(enum triage_class c);
/* One line on what the class means. */
const char *triage_class_what(enum triage_class c);
/* The fixes for class c on the backend of report kind k (NULL-terminated),
 * most likely first. */
const char *const *triage_fixes(enum triage_class c, enum oom_kind k);
/* Whether an allocation looks like a leftover host callback (jax.debug.print
 * and friends): its label or operator names one. */
bool triage_is_callback(const struct oom_alloc *al);
#endif
