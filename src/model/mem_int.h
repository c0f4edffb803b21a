/* mem_int.h - what the memory model's files share (mem.c: buffers,
 * aliasing and the walk over computations, the driver; mem_live.c: the
 * entry's parameters and outputs, in-place merges, the liveness sweep and
 * the totals; mem_decide.c: how to read shapes).  Only for src/model/mem*. */
#ifndef HLO_MEM_INT_H
#define HLO_MEM_INT_H
#include <pthread.h>
#include "flow.h"
#include "alloc.h"
#include "mem.h"

#define NONE UINT32_MAX

struct mem_peak {
	uint64_t dev, dev_max, unpadded, temp, host, uhost, other;
	struct hlo_instr *at;
};

enum mem_comp_state { MEM_NEW, MEM_RUNNING, MEM_DONE };

struct mem_comp {
	uint32_t *leaf_base;      /* ninstrs + 1 global leaf ids; NULL when not analysed */
	uint32_t *gtime;          /* per instruction: its step on the flattened timeline */
	uint8_t state;
	uint32_t owned;           /* first owned buffer (linked through mem_ctx.next) */
	uint32_t owned_tail;
	uint32_t nowned;          /* how many it owns, and the largest bound among them: */
	uint64_t owned_max;       /* mem_sweep_shift's units without a walk over them */
	struct mem_peak peak;
};

struct mem_internal {
	struct mem_comp **comps;  /* by hlo_comp.index; NULL when not analysed */
	uint32_t *leaf_buf;       /* global leaf -> buffer id (NONE: no data) */
	uint32_t *leaf_val;       /* the same before in-place merges: the value's own buffer */
	const int64_t **leaf_split; /* global leaf -> split, NULL array when partitioned */
	const int64_t **buf_split;  /* buffer id -> split (mem_buffer_split), likewise */
	uint32_t nleaves;
	bool tpu_default;
	bool tpu_laid_out;          /* the dump carries TPU tiles: XLA:TPU's allocation rules apply */
	bool host_is_device;        /* CPU target: pinned host memory is the device's memory */
	bool share_elementwise;     /* TPU/GPU: results share dying operands' buffers (flow_shares_operand) */
	int gen;
	bool partitioned;
	bool packing;               /* alloc_pack runs on packer until mem_settle */
	pthread_t packer;
	struct alloc_tables pack;   /* made by the walk for alloc_pack, which frees them */
};

struct mem_frame {
	struct hlo_comp *c;
	uint32_t pos;             /* next instruction */
	uint32_t prepared;        /* pos + 1 of a call site whose results exist */
	uint32_t cand_start, site_start;
};

/* A dynamic-update-slice-like instruction that may update its operand in place. */
struct mem_cand {
	uint32_t pos, out_leaf, op_leaf;
	bool direct;              /* element-wise sharing: the operand must define the buffer */
};

struct mem_ctx {
	struct mem_model *mm;
	struct hlo_module *m;
	struct hlo_file *f;
	struct arena *a;
	struct arena scratch;     /* decoding, released with marks */
	struct arena keep;        /* tuple offsets and the entry layout, kept to the end */
	struct mem_internal *in;
	struct prefault *pf;      /* faults the tables below in ahead of the walk, or NULL */
	struct mem_buffer *bufs;
	uint32_t nbufs, capbufs;
	uint32_t *next;           /* per buffer: next buffer of the same owner */
	uint32_t *fwd;            /* per buffer: merged into, or itself */
	struct alloc_tables pack; /* per buffer: alloc_pack's, grown here while a helper faults pages in */
	const int64_t **buf_split; /* per buffer: its split, when not partitioned */
	uint32_t *leaf_buf;
	const int64_t **leaf_split;
	uint32_t nleaves, capleaves;
	struct mem_frame *frames;
	uint32_t nframes, capframes;
	struct mem_cand *cands;
	uint32_t ncands, capcands;
	uint32_t *sites;          /* call-site positions of the running computations */
	uint32_t nsites, capsites;
	uint32_t *globals;        /* buffers made MEM_BUF_GLOBAL (mem_make_global), all the entry's */
	uint32_t nglobals, capglobals;
	struct alias_state al;    /* tuple offsets (in keep) and the aliasing rules */
	struct hlo_program_shape ecl;
	bool has_ecl;
	struct hlo_comp *entry;
	uint32_t clock;           /* next step of the flattened timeline */
	/* loop-carry gaps (mem_carry_gaps): per buffer, its index among the
	 * carries of the body being looked at (NONE otherwise, restored) */
	uint32_t *carry_mark;
	uint32_t capmark;
	struct mem_gap *cgaps;
	uint32_t ncgaps, capcgaps;
	/* sweep scratch */
	int64_t *delta;
	uint32_t capdelta;
	struct mem_peak *site_peaks;  /* the callees' peak at each call site of the swept computation */
	uint32_t capsite_peaks;
};

#define MEM_GROW(ptr, n, cap, min)                                                       \
	do {                                                                             \
		if ((n) >= (cap)) {                                                      \
			(cap) = (cap) ? (cap) * 2 : (min);                               \
			(ptr) = xreallocarray((ptr), (cap), sizeof *(ptr));              \
		}                                                                        \
	} while (0)

/* A walk over a computation's owned buffers (cs->owned, linked through
 * x->next in increasing ids) that starts loading the one MEM_AHEAD
 * links on: on a large module the table is far larger than the caches,
 * and the ids of one computation are strided by its callees'.  The
 * links themselves are 4 bytes a buffer and stay cached. */
#define MEM_AHEAD 8
struct mem_owned_walk {
	uint32_t b, ahead;
};

static inline uint32_t mem_owned_first(const struct mem_ctx *x, uint32_t first, struct mem_owned_walk *w)
{
	w->b = w->ahead = first;
	for (int k = 0; k < MEM_AHEAD && w->ahead != NONE; k++)
		w->ahead = x->next[w->ahead];
	return first;
}

static inline uint32_t mem_owned_next(const struct mem_ctx *x, struct mem_owned_walk *w)
{
	if (w->ahead != NONE) {
		const char *p = (const char *)&x->bufs[w->ahead];
		__builtin_prefetch(p);
		__builtin_prefetch(p + 64);
		w->ahead = x->next[w->ahead];
	}
	return w->b = x->next[w->b];
}

void mem_colocate(struct mem_ctx *x, struct hlo_comp *c, uint32_t j, uint32_t b);
/* c's analysis, made when first asked for (mem_push and later). */
struct mem_comp *mem_cs(struct mem_ctx *x, const struct hlo_comp *c);
/* c's analysis when it has one, else an empty one (state MEM_NEW, no leaves). */
const struct mem_comp *mem_comp_of(const struct mem_internal *in, const struct hlo_comp *c);
bool mem_definer(struct mem_ctx *x, const struct hlo_instr *i, uint32_t j, const struct hlo_instr **d,
	uint32_t *dj);
void mem_entry_aliasing(struct mem_ctx *x, struct hlo_comp *c);
void mem_entry_params(struct mem_ctx *x, struct hlo_comp *c);
uint32_t mem_find(struct mem_ctx *x, uint32_t b);
void mem_finish(struct mem_ctx *x, struct mem_frame *fr);
void mem_globalize(struct mem_ctx *x);
bool mem_is_data(const struct hlo_shape *s);
uint32_t mem_leaf_id(struct mem_ctx *x, const struct hlo_instr *i, uint32_t j);
/* A buffer for leaf `leaf` of def's result (its owner is
 * mem_buffer_owner's), live from pos. */
uint32_t mem_new_buffer(struct mem_ctx *x, struct hlo_instr *def, uint32_t pos, uint32_t leaf,
	const struct hlo_shape *s, const int64_t *split);
uint32_t mem_nleaves_of(struct mem_ctx *x, const struct hlo_instr *i);
void mem_set_space(const struct mem_internal *in, struct mem_buffer *b, int64_t space);
void mem_make_global(struct mem_ctx *x, uint32_t b);
void mem_splits_for(struct mem_ctx *x, const struct hlo_instr *i, uint32_t nl, const int64_t **out);
void mem_totals(struct mem_ctx *x);
void mem_decide_reading(struct mem_ctx *x, const struct mem_options *o);
#endif
