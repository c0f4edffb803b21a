/* triage.h - what an OOM report (oomlog.h) means: which kind of failure it
 * is, decided from the report's numbers and, when the program's module is
 * at hand, from hlolint's model of it and the rules' findings; the one fact
 * that decides the fix, the fixes ranked by that evidence, and which HLO
 * instruction each listed allocation is (triage.c).  It prints nothing;
 * cmd_oom.c does.  docs/oom.md has the table of classes. */
#ifndef HLO_TRIAGE_H
#define HLO_TRIAGE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "arena.h"
#include "finding.h"
#include "ir.h"
#include "mem.h"
#include "oomlog.h"
#include "xlastats.h"

/* The kinds of failure, in the order they are tried: the first that the
 * evidence shows wins (docs/oom.md). */
#define TRIAGE_CLASSES(X) \
	X(NOT_FAILURE, "allocator-warning") \
	X(KERNEL, "kernel-memory") \
	X(FRAGMENTED, "fragmentation") \
	X(LIVE, "live-arrays") \
	X(GPU_RUNTIME, "gpu-runtime") \
	X(SPARSECORE, "sparsecore-imbalance") \
	X(ARGUMENTS, "arguments") \
	X(HOST_UNDONE, "host-offload-undone") \
	X(LOOP_CARRY, "loop-carry") \
	X(FAR_OVER, "far-over") \
	X(PADDING, "padding") \
	X(LARGE, "large-allocation") \
	X(AGGREGATE, "aggregate")
#define TRIAGE_ENUM(id, name) TRIAGE_##id,
enum triage_class { TRIAGE_CLASSES(TRIAGE_ENUM) };
#undef TRIAGE_ENUM

/* One listed allocation and where it is in the module. */
struct triage_alloc {
	const struct oom_alloc *al; /* the report's, or one made from XLA's sidecars or the model */
	struct hlo_instr *instr;    /* NULL when not found */
	const char *how;            /* "its XLA label", "its op_name and shape", ... */
};

/* Where the allocations come from. */
enum triage_source { TRIAGE_FROM_REPORT, TRIAGE_FROM_XLA, TRIAGE_FROM_MODEL };

/* The module, its model and the rules' findings, when the program is at
 * hand (all NULL otherwise). */
struct triage_module {
	struct hlo_module *m;
	const struct mem_model *mm;
	const struct finding_sink *sink;
	const struct xla_assignment *xa;   /* XLA's own buffer assignment, or NULL */
};

struct triage {
	const struct oom_report *r;
	enum triage_class cls;
	uint64_t limit;             /* the device's (or space's) limit, OOM_UNKNOWN when unknown */
	uint64_t need;              /* what the program asks for, OOM_UNKNOWN when unknown */
	uint64_t over;              /* need beyond the limit, OOM_UNKNOWN when unknown */
	uint64_t args;              /* device bytes of the arguments, OOM_UNKNOWN when unknown */
	struct triage_alloc *allocs;/* in report order */
	uint32_t nallocs;
	uint32_t mapped;            /* allocations found in the module */
	enum triage_source from;
	int32_t about;              /* index in allocs of the allocation the class is about, -1 none */
	bool callback;              /* evidence of a host callback on the largest allocation */
	/* TRIAGE_HOST_UNDONE: the host parameter and the copy that brings it in */
	struct hlo_instr *host_param, *host_copy;
	uint64_t host_bytes;
	/* TRIAGE_PADDING: what pads, when the shape could be read */
	char pad_what[200];
};

/* Maps every allocation of r to its instruction in tm->m (when given): by
 * the name in the XLA label, else by op_name and shape (labels XLA cut
 * short, XLA:GPU's labels that are only an opcode).  When the report lists
 * none, XLA's own buffer assignment's largest allocations stand in, else
 * hlolint's model's (n at most).  Then decides the class.  Arrays in a. */
void triage_run(struct triage *t, const struct oom_report *r, const struct triage_module *tm, uint64_t limit,
		uint32_t n, struct arena *a);
/* How many of r's allocations name an instruction of m (choosing among the
 * modules of a dump folder). */
uint32_t triage_matches(const struct oom_report *r, struct hlo_module *m, struct arena *a);

const char *triage_class_name(enum triage_class c);
/* The one line that decides the fix, with the numbers, into buf. */
void triage_fact(const struct triage *t, char *buf, size_t cap);
/* The fixes, most likely first (NULL-terminated). */
const char *const *triage_fixes(const struct triage *t);
/* A fix for one allocation when it looks like something in particular
 * (a callback, mostly padding, an argument); NULL otherwise. */
const char *triage_alloc_fix(const struct triage *t, const struct triage_alloc *x);
/* Whether finding f is on i or on an instruction whose result shares i's
 * buffer (a scan's stack: the pad that makes it, the update that writes
 * it): one buffer, one fix. */
bool triage_finding_on(const struct triage_module *tm, const struct finding *f, const struct hlo_instr *i);
/* Whether an allocation looks like a leftover host callback (jax.debug.print
 * and friends): its label or operator names one. */
bool triage_is_callback(const struct oom_alloc *al);
#endif
