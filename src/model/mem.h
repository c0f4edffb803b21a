/* mem.h - the per-device memory model of one module: buffers, aliasing,
 * live ranges, the peak and where it happens, a breakdown like JAX's
 * compiled.memory_analysis(), and accessors later passes reuse.  An
 * estimate (docs/memory-model.md); printing is cmd_mem.c's. */
#ifndef HLO_MEM_H
#define HLO_MEM_H
#include <stdbool.h>
#include <stdint.h>
#include "arena.h"
#include "attr.h"
#include "ir.h"
#include "size.h"
#include "target.h"

enum mem_kind {
	MEM_ARGUMENT,       /* entry parameter */
	MEM_OUTPUT,         /* part of the entry result */
	MEM_TEMP,           /* anything else the program allocates */
	MEM_CONSTANT,       /* constant(...) outside fusions: a global allocation */
	MEM_WHILE_CARRIED,  /* a temporary carried by a while loop */
	MEM_HOST,           /* in host memory, S(5) or S(6), whatever its role */
};

/* Where a memory space S(n) lives (MEMORY_FACTS §2). */
enum mem_space_class {
	MEM_SPACE_DEVICE,   /* S(0): HBM */
	MEM_SPACE_VMEM,     /* S(1): on-chip fast memory, not HBM */
	MEM_SPACE_HOST,     /* S(5) pinned host, S(6) unpinned host */
	MEM_SPACE_OTHER,    /* S(2), S(3), S(4), ...: meaning not public */
};

enum mem_buffer_flag {
	MEM_BUF_OUTPUT = 1,       /* an entry output leaf lives in it */
	MEM_BUF_ALIASED = 2,      /* entry parameter that an output shares (donation) */
	MEM_BUF_DONATED = 4,      /* entry parameter in input_output_alias / buffer_donor */
	MEM_BUF_CARRIED = 8,      /* carried by a while loop */
	MEM_BUF_MERGED = 16,      /* updated in place into another buffer: owns nothing */
	MEM_BUF_GLOBAL = 32,      /* lives the whole program (arguments, constants) */
	MEM_BUF_DEFAULT_TILED = 64, /* sized with the target's default TPU tiling */
	MEM_BUF_ROOT = 128,       /* an entry output leaf is this very value (not one merged into it) */
	/* What the allocation (alloc.c) asks of the definer, kept here so
	 * that its passes over the whole table read no instruction. */
	MEM_BUF_CONSTANT = 256,   /* defined by a constant */
	MEM_BUF_OVERWRITES = 512, /* its definer may write it over an operand (flow_shares_operand,
				   * dynamic-update-slice, scatter) */
	MEM_BUF_SIDE_THREAD = 1024, /* written by an async start on an execution thread other than
				     * "main" */
};

/* One allocation.  Its live range is [def_pos, last_pos] in its owner's
 * instruction order (the schedule, else definition order).  96 bytes: a
 * big module has tens of thousands, so nothing that can be computed is
 * kept (its owner, mem_buffer_owner; its id, mem_buffer_id; its split,
 * mem_buffer_split). */
struct mem_buffer {
	struct hlo_instr *def;        /* instruction whose result leaf defines it */
	const struct hlo_shape *shape;/* the leaf shape as written in the dump */
	const struct hlo_instr *writer; /* aliased parameter: what writes the output into it;
					 * call or conditional result: the callee root's definer
					 * that writes it first */
	uint32_t leaf;                /* leaf index in def's result (0 for arrays) */
	uint32_t def_pos, last_pos;
	uint32_t gdef, glast;         /* the same on the module's flattened timeline (callees
				       * inlined before their call site, as XLA's HloLiveRange) */
	uint32_t gown;                /* end of its own value there: glast, or where a result
				       * merged into it took over */
	uint32_t shares;              /* MEM_BUF_MERGED: id of the operand's buffer it was written
				       * over in place, else UINT32_MAX */
	uint32_t hole_from, hole_to;  /* aliased parameter: global steps in which its allocation
				       * holds nothing (after the last read, before the output is
				       * written); hole_from > hole_to when there is none */
	int32_t param;                /* entry parameter number, else -1 */
	int32_t memory_space;         /* S(n), after entry_computation_layout (mem_set_space:
				       * one past int32 is INT32_MAX, a space without a meaning) */
	uint16_t flags;               /* enum mem_buffer_flag */
	uint8_t kind;                 /* enum mem_kind */
	uint64_t bytes;               /* padded per-device bytes (lower bound under default tiling) */
	uint64_t bytes_max;           /* upper bound when the default tiling is uncertain, else bytes */
	uint64_t unpadded;            /* dense per-device bytes */
};
_Static_assert(sizeof(struct mem_buffer) == 96, "struct mem_buffer is 96 bytes");

/* The computation across whose program points b lives: its definer's, or
 * the entry for a constant (a global allocation). */
static inline struct hlo_comp *mem_buffer_owner(const struct mem_buffer *b)
{
	return b->def->op == OP_CONSTANT ? b->def->comp->module->entry : b->def->comp;
}

struct mem_options {
	const struct target *target;  /* NULL: inferred from the dump */
	const char *target_how;       /* where target came from; NULL: "given with --target" */
	uint64_t hbm_bytes;           /* 0: the target's capacity */
	int partitioned;              /* -1 decide (MEMORY_FACTS §5.4), 0 global shapes, 1 per-device */
	const char *path;             /* input file name, a §5.4 signal; may be NULL */
	uint64_t xla_total_bytes;     /* XLA's own total from the dump's sidecars (xlastats.h), 0 unknown */
	bool pack_later;              /* the total allocation of a large module may still be in the
				       * making on a thread when mem_analyze returns (mem_settle) */
};

struct mem_internal;
struct peak_set;

/* Steps [from, to] in which buffer buf's allocation holds nothing: a loop
 * carry between its last read in the while body and the body's new value,
 * which writer writes (XLA's buffer assignment lets other values live
 * there; docs/memory-model.md §5b). */
struct mem_gap {
	uint32_t buf, from, to;
	const struct hlo_instr *writer;
};

/* The model's figures in machine output (mem and check JSON), in order:
 * X(field of struct mem_model, which is also the JSON key). */
#define MEM_FIGURES(X) \
	X(total_bytes) X(total_bytes_max) X(heap_bytes) X(heap_live_bytes) X(total_live_bytes) X(reused_bytes) \
	X(constant_bytes) X(peak_bytes) \
	X(argument_bytes) X(output_bytes) X(alias_bytes) X(temp_bytes) X(host_bytes) X(padding_bytes)
/* Figures written only when known (non-zero): the key is absent otherwise. */
#define MEM_FIGURES_KNOWN(X) X(xla_total_bytes)
#define MEM_FIGURE_COUNT_ONE(f) +1
enum { MEM_NFIGURES = 0 MEM_FIGURES(MEM_FIGURE_COUNT_ONE) };

struct mem_model {
	struct hlo_module *module;
	const struct target *target;
	char target_reason[320];      /* "given with --target" or target_infer's reason */
	uint64_t hbm_bytes;           /* capacity per device, 0 = unknown */
	bool hbm_given;               /* from --hbm */
	bool partitioned;             /* shapes taken as per-device */
	char partition_reason[320];   /* why, e.g. "is_scheduled=true: an optimized module, MEMORY_FACTS §5.4" */
	bool scheduled;               /* order is the module's schedule */
	bool unoptimized;             /* a before-optimizations dump (no schedule, no fusion, and its name or
				       * a pre-partitioning construct says so): the peak is an upper bound */
	bool default_tiling;          /* untiled module sized with the target's default TPU tiling */
	bool shares_in_place;         /* results may take dying operands' buffers (flow_shares_operand);
				       * not on XLA:CPU, whose buffer assignment in corpora/xla never does */
	bool has_s5_buffer;           /* a buffer (not merged) in memory space 5, pinned host */
	bool has_donated_argument;    /* an argument buffer with MEM_BUF_DONATED */
	/* Per device, device memory (S(0)) unless said otherwise. */
	uint64_t total_bytes;         /* XLA's total allocation (alloc.h): the headline figure */
	uint64_t xla_total_bytes;     /* what XLA itself said (mem_options), 0 unknown */
	uint64_t total_bytes_max;     /* same with the upper default tiling (== total_bytes if certain) */
	struct mem_gap *gaps;         /* loop-carry gaps on the flattened timeline, by buf then from */
	uint32_t ngaps;
	uint64_t heap_bytes;          /* temporaries' heap within total_bytes, as XLA places them */
	uint64_t heap_live_bytes;     /* their liveness peak (alloc.h): heap_bytes less fragmentation */
	uint64_t total_live_bytes;    /* total_bytes with the heap at heap_live_bytes: XLA:TPU's
				       * "required for HLO temporaries" when it stops early */
	uint64_t reused_bytes;        /* temporaries placed in output or donated allocations */
	uint64_t constant_bytes;      /* constants' allocations within total_bytes */
	uint32_t nsteps;              /* length of the flattened timeline */
	uint64_t peak_bytes;          /* liveness peak: max over program points of live padded bytes */
	uint64_t peak_bytes_max;      /* same with the upper default tiling (== peak_bytes if certain) */
	uint64_t argument_bytes;      /* all entry parameters */
	uint64_t output_bytes;        /* all entry outputs, aliased ones included */
	uint64_t alias_bytes;         /* outputs that share a parameter's buffer */
	uint64_t output_bytes_max, alias_bytes_max; /* the same with the upper default tiling */
	uint64_t temp_bytes;          /* peak of live temporaries (incl. constants, loop carries) */
	uint64_t padding_bytes;       /* padded - unpadded bytes live at the peak */
	uint64_t host_bytes;          /* peak of live S(5) bytes: host as XLA's memory_analysis() counts it */
	uint64_t unpinned_host_bytes; /* peak of live S(6) (unpinned host) bytes, apart */
	uint64_t other_bytes;         /* peak of live S(1)..S(4) and unknown spaces */
	struct hlo_instr *peak_at;    /* innermost instruction at the peak; NULL if nothing is live */
	uint32_t nbuffers;
	struct mem_buffer *buffers;   /* definition order; MEM_BUF_MERGED ones own nothing */
	const struct peak_set *peak;  /* the buffers live at the peak (peak.h), built with the model */
	uint32_t nanalysed;           /* computations analysed (entry and control flow) */
	uint32_t nskipped;            /* control-flow computations left out (nesting too deep) */
	struct mem_internal *in;
};

/* Analyses m (which must be valid: m->valid) and returns the model,
 * allocated in a together with everything it points to (a must outlive it;
 * the module's arena may be used).  Linear in the module: every
 * instruction of the entry and of the computations it reaches through
 * while/conditional/call is visited a bounded number of times.  Never
 * returns NULL. */
struct mem_model *mem_analyze(struct hlo_module *m, const struct mem_options *o, struct arena *a);

/* Waits for the total allocation (total_bytes, total_bytes_max,
 * heap_bytes, reused_bytes, constant_bytes) when mem_options.pack_later
 * let it go on after mem_analyze returned; at once otherwise, or for a
 * NULL mm.  The rest of the model is complete either way. */
void mem_settle(const struct mem_model *mm);

/* The buffer holding leaf `leaf` of i's result, after in-place merging;
 * NULL for leaves that hold no data (tokens, empty tuples) and for
 * instructions the model does not allocate for (inside fusions, reducers,
 * sort comparators, async wrapped computations). */
const struct mem_buffer *mem_buffer_at(const struct mem_model *mm, const struct hlo_instr *i, uint32_t leaf);

/* The same before in-place merges: the buffer of the value leaf `leaf`
 * of i holds, which may be MEM_BUF_MERGED (its memory is then that of
 * mem_buffer_at). */
const struct mem_buffer *mem_value_at(const struct mem_model *mm, const struct hlo_instr *i, uint32_t leaf);

/* How many leaves of i's result the model numbers (0 when it does not
 * analyse i's computation): the leaves mem_buffer_at takes. */
uint32_t mem_leaf_count(const struct mem_model *mm, const struct hlo_instr *i);
/* Whether the model analysed c: the entry, and what it reaches through
 * while, conditional and call (the others are never walked). */
bool mem_analysed(const struct mem_model *mm, const struct hlo_comp *c);

/* i's step on the model's flattened timeline (the steps of gdef and
 * glast; a call site comes after its callees' steps), or UINT32_MAX when
 * the model does not analyse i's computation. */
uint32_t mem_step_at(const struct mem_model *mm, const struct hlo_instr *i);

/* Size of i's own result per device (the sum over its array leaves),
 * whether or not i defines a buffer: what `i` would take if materialized. */
void mem_instr_size(const struct mem_model *mm, const struct hlo_instr *i, uint64_t *padded,
		    uint64_t *padded_max, uint64_t *unpadded);

/* Per-device size of one array shape under this model's sizing rules
 * (layout tiles, else the target's default tiling) with optional split
 * (NULL = undivided). */
void mem_array_size(const struct mem_model *mm, const struct hlo_shape *s, const int64_t *split,
		    uint64_t *padded, uint64_t *padded_max, uint64_t *unpadded);

/* b's index in mm->buffers (definition order). */
static inline uint32_t mem_buffer_id(const struct mem_model *mm, const struct mem_buffer *b)
{
	return (uint32_t)(b - mm->buffers);
}
/* The per-dim pieces b is divided into by a sharding (b->shape->rank
 * entries), or NULL: undivided, or shapes taken as per-device. */
const int64_t *mem_buffer_split(const struct mem_model *mm, const struct mem_buffer *b);
/* Per-device dims of buffer b into dims (b->shape->rank entries). */
void mem_buffer_dims(const struct mem_model *mm, const struct mem_buffer *b, int64_t *dims);

/* The n largest live buffers (merged ones excluded) by bytes, ties in
 * definition order, into out; n == 0 means all.  Returns the count.
 * out must hold n entries (mm->nbuffers when n == 0). */
uint32_t mem_largest(const struct mem_model *mm, const struct mem_buffer **out, uint32_t n);

/* "argument", "output", "temp", "constant", "while-carried", "host". */
const char *mem_kind_name(enum mem_kind k);
enum mem_space_class mem_space_class(int64_t space);
/* "hbm", "vmem", "pinned-host", "unpinned-host", "S(n)". buf >= 24 bytes. */
const char *mem_space_name(int64_t space, char *buf);
#endif
