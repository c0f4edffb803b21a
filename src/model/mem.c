/* mem.c - the per-device memory model: buffers and their aliasing, live
 * ranges, one linear sweep per analysed computation, callee peaks added at
 * call sites (docs/memory-model.md).  It does not pack a heap, model
 * fragmentation or rematerialize, and never looks inside fusions. */
#include "mem_int.h"
#include "alloc.h"
#include "peak.h"
#include "prefault.h"
#include "sharding.h"
#include "threads.h"
#include "timing.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool mem_is_data(const struct hlo_shape *s)
{
	return ir_shape_is_array(s) || (s && s->type == PT_BUFFER);
}

/* ---- Memory spaces and kinds ---- */

enum mem_space_class mem_space_class(int64_t space)
{
	switch (space) {
	case IR_SPACE_DEVICE:
		return MEM_SPACE_DEVICE;
	case IR_SPACE_VMEM:
		return MEM_SPACE_VMEM;
	case IR_SPACE_PINNED_HOST:
	case IR_SPACE_UNPINNED_HOST:
		return MEM_SPACE_HOST;
	default:
		return MEM_SPACE_OTHER;
	}
}

const char *mem_space_name(int64_t space, char *buf)
{
	switch (space) {
	case 0:
		return "hbm";
	case 1:
		return "vmem";
	case 5:
		return "pinned-host";
	case 6:
		return "unpinned-host";
	default:
		snprintf(buf, 24, "S(%lld)", (long long)space);
		return buf;
	}
}

const char *mem_kind_name(enum mem_kind k)
{
	static const char *const names[] = { "argument", "output", "temp", "constant", "while-carried", "host" };
	return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "temp";
}

/* ---- Sizes ---- */

static void mem_size(const struct mem_internal *in, const struct hlo_shape *s, const int64_t *split,
		     uint64_t *padded, uint64_t *padded_max, uint64_t *unpadded, bool *default_tiled)
{
	struct size_array a;
	int64_t local[16];
	int64_t *dims = local;
	*padded = *padded_max = *unpadded = 0;
	if (default_tiled)
		*default_tiled = false;
	if (!mem_is_data(s))
		return;
	size_array_of(&a, s);
	if (split && a.rank) {
		if (a.rank > sizeof local / sizeof local[0])
			dims = xmalloc(a.rank * sizeof *dims);
		for (uint32_t d = 0; d < a.rank; d++) {
			int64_t v = a.dims[d] < 0 ? 0 : a.dims[d];
			dims[d] = split[d] > 1 ? (v + split[d] - 1) / split[d] : v;
		}
		a.dims = dims;
	}
	*unpadded = size_dense(&a);
	if (size_has_tiles(a.layout) || !in->tpu_default) {
		*padded = *padded_max = size_padded(&a);
	} else {
		size_tpu_default(&a, in->gen, padded, padded_max, unpadded);
		if (default_tiled)
			*default_tiled = true;
	}
	if (dims != local)
		free(dims);
}

void mem_array_size(const struct mem_model *mm, const struct hlo_shape *s, const int64_t *split,
		    uint64_t *padded, uint64_t *padded_max, uint64_t *unpadded)
{
	mem_size(mm->in, s, split, padded, padded_max, unpadded, NULL);
}

const int64_t *mem_buffer_split(const struct mem_model *mm, const struct mem_buffer *b)
{
	return mm->in->buf_split ? mm->in->buf_split[mem_buffer_id(mm, b)] : NULL;
}

void mem_buffer_dims(const struct mem_model *mm, const struct mem_buffer *b, int64_t *dims)
{
	const struct hlo_shape *s = b->shape;
	const int64_t *split = mem_buffer_split(mm, b);
	if (s->type == PT_BUFFER && s->elems)
		s = s->elems[0];
	for (uint32_t d = 0; d < s->rank; d++) {
		int64_t v = s->dims[d] < 0 ? 0 : s->dims[d];
		dims[d] = split && split[d] > 1 ? (v + split[d] - 1) / split[d] : v;
	}
}

/* ---- Growable tables ---- */

/* The walk's tables the prefault helper keeps ahead of it (prefault.h),
 * in two groups filled in step: per buffer and per leaf.  It is told
 * where the walk is every MEM_PF_EVERY entries. */
enum { MEM_PF_BUFS, MEM_PF_NEXT, MEM_PF_FWD, MEM_PF_BUF_SPLIT, MEM_PF_LEAF_BUF, MEM_PF_LEAF_SPLIT,
       MEM_PF_PACK /* and the next: alloc_tables_grow */ };
_Static_assert(MEM_PF_PACK + 2 <= PREFAULT_TABLES, "the walk's tables outnumber the helper's (prefault.h)");
enum { MEM_PF_BUFFERS, MEM_PF_LEAVES };
#define MEM_PF_EVERY 4096

static uint32_t mem_leaf_alloc(struct mem_ctx *x, uint32_t n)
{
	uint32_t first = x->nleaves;
	if ((uint64_t)x->nleaves + n >= UINT32_MAX - 1)
		fatal_out_of_memory();
	while (x->nleaves + n > x->capleaves) {
		x->capleaves = x->capleaves ? x->capleaves * 2 : 1024;
		prefault_hold(x->pf);
		x->leaf_buf = arena_vec_grow(x->leaf_buf, x->capleaves, sizeof *x->leaf_buf);
		prefault_set(x->pf, MEM_PF_LEAF_BUF, MEM_PF_LEAVES, x->leaf_buf, sizeof *x->leaf_buf, x->capleaves);
		if (!x->in->partitioned) {
			x->leaf_split = xreallocarray(x->leaf_split, x->capleaves, sizeof *x->leaf_split);
			prefault_set(x->pf, MEM_PF_LEAF_SPLIT, MEM_PF_LEAVES, x->leaf_split, sizeof *x->leaf_split,
				     x->capleaves);
		}
		prefault_release(x->pf);
	}
	if ((first + n) / MEM_PF_EVERY != first / MEM_PF_EVERY)
		prefault_used(x->pf, MEM_PF_LEAVES, first + n);
	for (uint32_t k = 0; k < n; k++) {
		x->leaf_buf[first + k] = NONE;
		if (x->leaf_split)
			x->leaf_split[first + k] = NULL;
	}
	x->nleaves += n;
	return first;
}

uint32_t mem_find(struct mem_ctx *x, uint32_t b)
{
	while (b != NONE && x->fwd[b] != b)
		b = x->fwd[b] = x->fwd[x->fwd[b]];
	return b;
}

/* What mem_comp_of answers for a computation the model does not analyse
 * (fusion bodies: most of a large module); an entry for each would cost
 * more than the buffers. */
static const struct mem_comp mem_comp_none;

const struct mem_comp *mem_comp_of(const struct mem_internal *in, const struct hlo_comp *c)
{
	const struct mem_comp *cs = c ? in->comps[c->index] : NULL;
	return cs ? cs : &mem_comp_none;
}

struct mem_comp *mem_cs(struct mem_ctx *x, const struct hlo_comp *c)
{
	struct mem_comp **cs = &x->in->comps[c->index];
	if (!*cs)
		*cs = arena_alloc(x->a, sizeof **cs);
	return *cs;
}

/* Global leaf id of leaf j of instruction i (analysed computations only). */
uint32_t mem_leaf_id(struct mem_ctx *x, const struct hlo_instr *i, uint32_t j)
{
	return mem_cs(x, i->comp)->leaf_base[i->index] + j;
}

uint32_t mem_nleaves_of(struct mem_ctx *x, const struct hlo_instr *i)
{
	const uint32_t *b = mem_cs(x, i->comp)->leaf_base;
	return b[i->index + 1] - b[i->index];
}

/* XLA:TPU's buffer assignment gives a whole 4 KiB granule to an untiled
 * constant and to an untiled buffer in memory space S(4) or S(6):
 * "constant.123 s32[] size=4096", "s32[2]{0:S(4)} size=4096", "u32[]{:S(6)}
 * size=4096" in every generation's buffer assignment in corpora/xla, while
 * "u32[]{:T(128)S(6)}" is 512 as its tile says (docs/memory-model.md). */
#define MEM_TPU_GRANULE 4096

static void mem_tpu_granule(const struct mem_internal *in, const struct hlo_instr *def, const struct hlo_shape *s,
			    struct mem_buffer *b)
{
	if (!in->tpu_laid_out || !b->bytes)
		return;
	if (size_has_tiles(s->layout) ||
	    (def->op != OP_CONSTANT && b->memory_space != 4 && b->memory_space != IR_SPACE_UNPINNED_HOST))
		return;
	b->bytes = size_round_up(b->bytes, MEM_TPU_GRANULE);
	b->bytes_max = size_round_up(b->bytes_max, MEM_TPU_GRANULE);
}

/* The flags a buffer takes from its definer (enum mem_buffer_flag). */
static uint16_t mem_def_flags(const struct hlo_file *f, const struct hlo_instr *def)
{
	uint16_t fl = 0;
	if (def->op == OP_CONSTANT)
		fl |= MEM_BUF_CONSTANT;
	if (def->op == OP_DYNAMIC_UPDATE_SLICE || def->op == OP_SCATTER || flow_shares_operand(def))
		fl |= MEM_BUF_OVERWRITES;
	if (ir_attr(def, ATTR_ASYNC_EXECUTION_THREAD) && !attr_plain_is(f, def, ATTR_ASYNC_EXECUTION_THREAD, "main"))
		fl |= MEM_BUF_SIDE_THREAD;
	return fl;
}

/* The one place a buffer's memory space is set.  On a CPU target pinned
 * host memory S(5) is the device's own memory: XLA:CPU's memory_analysis
 * counts such arguments and outputs as device bytes (corpora/xla).  The
 * spaces with a meaning are small; one past int32 is kept as INT32_MAX,
 * another space without one. */
void mem_set_space(const struct mem_internal *in, struct mem_buffer *b, int64_t space)
{
	if (in->host_is_device && space == IR_SPACE_PINNED_HOST)
		space = 0;
	b->memory_space = space > INT32_MAX ? INT32_MAX : space < INT32_MIN ? INT32_MIN : (int32_t)space;
}

/* Buffer b lives the whole program (an argument or a constant): listed,
 * so that the entry's finish reads these without a walk over all its
 * buffers. */
void mem_make_global(struct mem_ctx *x, uint32_t b)
{
	x->bufs[b].flags |= MEM_BUF_GLOBAL;
	MEM_GROW(x->globals, x->nglobals, x->capglobals, 64);
	x->globals[x->nglobals++] = b;
}

/* The per-buffer tables, twice as large, with the helper held while
 * they move.  With a helper, the total allocation's as well: it faults
 * their pages in now rather than the packer after the walk. */
static void mem_grow_buffers(struct mem_ctx *x)
{
	x->capbufs = x->capbufs ? x->capbufs * 2 : 1024;
	prefault_hold(x->pf);
	x->bufs = arena_vec_grow(x->bufs, x->capbufs, sizeof *x->bufs);
	x->next = xreallocarray(x->next, x->capbufs, sizeof *x->next);
	x->fwd = xreallocarray(x->fwd, x->capbufs, sizeof *x->fwd);
	prefault_set(x->pf, MEM_PF_BUFS, MEM_PF_BUFFERS, x->bufs, sizeof *x->bufs, x->capbufs);
	prefault_set(x->pf, MEM_PF_NEXT, MEM_PF_BUFFERS, x->next, sizeof *x->next, x->capbufs);
	prefault_set(x->pf, MEM_PF_FWD, MEM_PF_BUFFERS, x->fwd, sizeof *x->fwd, x->capbufs);
	if (!x->in->partitioned) {
		x->buf_split = arena_vec_grow(x->buf_split, x->capbufs, sizeof *x->buf_split);
		prefault_set(x->pf, MEM_PF_BUF_SPLIT, MEM_PF_BUFFERS, x->buf_split, sizeof *x->buf_split,
			     x->capbufs);
	}
	if (x->pf)
		alloc_tables_grow(&x->pack, x->capbufs, x->pf, MEM_PF_PACK, MEM_PF_BUFFERS);
	prefault_release(x->pf);
}

uint32_t mem_new_buffer(struct mem_ctx *x, struct hlo_instr *def, uint32_t pos, uint32_t leaf, const struct hlo_shape *s, const int64_t *split)
{
	if (x->nbufs >= x->capbufs)
		mem_grow_buffers(x);
	if (x->nbufs == UINT32_MAX - 1)
		fatal_out_of_memory();
	uint32_t id = x->nbufs++;
	if (id % MEM_PF_EVERY == 0)
		prefault_used(x->pf, MEM_PF_BUFFERS, id);
	struct mem_buffer *b = &x->bufs[id];
	memset(b, 0, sizeof *b);
	b->def = def;
	b->shape = s;
	b->flags = mem_def_flags(x->f, def);
	if (x->buf_split)
		x->buf_split[id] = split;
	b->leaf = leaf;
	b->def_pos = b->last_pos = pos;
	/* Until mem_globalize: hole_from is an aliased parameter's last read
	 * and hole_to the entry position of the output written into it; for
	 * another buffer hole_to is where its own value ended when a result
	 * was merged into it (mem_merge). */
	b->hole_to = NONE;
	b->shares = NONE;
	b->param = -1;
	mem_set_space(x->in, b, s->layout ? s->layout->memory_space : 0);
	if (s->type == PT_BUFFER && s->elems && s->elems[0] && s->elems[0]->layout)
		mem_set_space(x->in, b, s->elems[0]->layout->memory_space);
	if (flow_placement(x->f, def) == FLOW_PLACE_HOST)
		mem_set_space(x->in, b, IR_SPACE_PINNED_HOST);   /* a pre-optimization offload */
	bool dflt;
	mem_size(x->in, s, split, &b->bytes, &b->bytes_max, &b->unpadded, &dflt);
	if (dflt)
		b->flags |= MEM_BUF_DEFAULT_TILED;
	mem_tpu_granule(x->in, def, s, b);
	x->fwd[id] = id;
	x->next[id] = NONE;
	struct mem_comp *cs = mem_cs(x, mem_buffer_owner(b));
	if (cs->owned == NONE)
		cs->owned = id;
	else
		x->next[cs->owned_tail] = id;
	cs->owned_tail = id;
	cs->nowned++;
	uint64_t bound = b->bytes > b->bytes_max ? b->bytes : b->bytes_max;
	if (bound > cs->owned_max)
		cs->owned_max = bound;   /* sizes are final here: nothing changes them later */
	return id;
}

/* ---- Shardings (only for modules that are not yet partitioned) ---- */

/* Per-dim pieces of leaf shape s under sharding sh; NULL when undivided. */
static const int64_t *mem_split_of(struct mem_ctx *x, const struct hlo_sharding *sh, const struct hlo_shape *s)
{
	if (!ir_shape_is_array(s) || !s->rank)
		return NULL;
	if (sh->kind != SHARDING_TILED && sh->kind != SHARDING_NAMED)
		return NULL;
	int64_t *v = NULL;
	for (uint32_t d = 0; d < s->rank; d++) {
		int64_t n = sharding_tile_count(sh, d);
		if (n > 1 && !v)
			v = arena_array(x->a, s->rank, sizeof *v);
		if (v)
			v[d] = n > 1 ? n : 1;
	}
	if (v)
		for (uint32_t d = 0; d < s->rank; d++)
			if (!v[d])
				v[d] = 1;
	return v;
}

static uint64_t mem_split_product(const int64_t *split, uint32_t rank)
{
	uint64_t p = 1;
	for (uint32_t d = 0; split && d < rank; d++)
		p = size_mul(p, (uint64_t)split[d]);
	return p;
}

/* Pieces spread over the dims of array shape s from the most major, as
 * many on each as it has elements; NULL when undivided. */
static const int64_t *mem_split_spread(struct mem_ctx *x, const struct hlo_shape *s, uint64_t pieces)
{
	if (pieces <= 1)
		return NULL;
	int64_t *v = arena_array(x->a, s->rank, sizeof *v);
	for (uint32_t d = 0; d < s->rank; d++) {
		uint64_t dim = s->dims[d] > 0 ? (uint64_t)s->dims[d] : 1;
		uint64_t f = pieces < dim ? pieces : dim;
		v[d] = (int64_t)(f ? f : 1);
		pieces = (pieces + v[d] - 1) / (uint64_t)v[d];
	}
	return v;
}

/* An unannotated value in a global-shape module: sharding propagation is
 * not modelled, so it takes the split of an operand with the same dims,
 * else the largest operand split spread over its dims from the most major
 * (an approximation, docs/memory-model.md). */
static const int64_t *mem_split_inherit(struct mem_ctx *x, const struct hlo_instr *i, const struct hlo_shape *s)
{
	if (!ir_shape_is_array(s) || !s->rank)
		return NULL;
	uint64_t best = 1;
	for (uint32_t k = 0; k < i->noperands; k++) {
		const struct hlo_instr *o = ir_operands(i)[k].instr;
		if (!o || !ir_shape_is_array(o->shape))
			continue;
		const int64_t *sp = x->leaf_split[mem_leaf_id(x, o, 0)];
		if (!sp)
			continue;
		if (o->shape->rank == s->rank && !memcmp(o->shape->dims, s->dims, s->rank * sizeof *s->dims))
			return sp;
		uint64_t p = mem_split_product(sp, o->shape->rank);
		if (p > best)
			best = p;
	}
	return mem_split_spread(x, s, best);
}

/* The split of a leaf of shape to that shares the buffer of a leaf of
 * shape from, split: the same when the dims are, else its pieces spread
 * anew (a bitcast or reshape): a split has one entry per dim of the shape
 * it was made for, and is read with that many. */
static const int64_t *mem_split_carry(struct mem_ctx *x, const struct hlo_shape *from, const struct hlo_shape *to,
				      const int64_t *split)
{
	if (!split || from == to)
		return split;
	if (!to || !ir_shape_is_array(to) || !to->rank || !from)
		return NULL;
	if (from->rank == to->rank && !memcmp(from->dims, to->dims, to->rank * sizeof *to->dims))
		return split;
	return mem_split_spread(x, to, mem_split_product(split, from->rank));
}

/* Splits of every leaf of i into out (nl entries). */
void mem_splits_for(struct mem_ctx *x, const struct hlo_instr *i, uint32_t nl, const int64_t **out)
{
	for (uint32_t j = 0; j < nl; j++)
		out[j] = NULL;
	if (x->in->partitioned)
		return;
	struct arena_mark mk = arena_mark(&x->scratch);
	struct hlo_sharding sh;
	if (ir_attr(i, ATTR_SHARDING) && sharding_of(x->f, i, &x->scratch, &sh, NULL)) {
		for (uint32_t j = 0; j < nl; j++) {
			const struct hlo_sharding *e = &sh;
			if (sh.kind == SHARDING_TUPLE)
				e = j < sh.nelems ? &sh.elems[j] : NULL;
			if (e)
				out[j] = mem_split_of(x, e, alias_leaf_shape(&x->al, i->shape, j));
		}
	} else if (nl == 1) {
		out[0] = mem_split_inherit(x, i, i->shape);
	}
	arena_release(&x->scratch, mk);
}

/* ---- Aliasing (flow.c) ---- */

/* Follows leaf j of i back through aliases to the instruction that defines
 * its buffer; false when it reaches a parameter (the value passes through). */
bool mem_definer(struct mem_ctx *x, const struct hlo_instr *i, uint32_t j, const struct hlo_instr **d,
			uint32_t *dj)
{
	const struct hlo_instr *src;
	uint32_t sj;
	while (flow_source(&x->al, i, j, &src, &sj)) {
		i = src;
		j = sj;
	}
	if (i->op == OP_PARAMETER)
		return false;
	*d = i;
	*dj = j;
	return true;
}

/* Makes the root's leaf j of c live in buffer b: the value flowing there
 * is written straight into it (loop carry, conditional/call result,
 * donated parameter).  Left alone when something already claimed it. */
void mem_colocate(struct mem_ctx *x, struct hlo_comp *c, uint32_t j, uint32_t b)
{
	const struct hlo_instr *d;
	uint32_t dj;
	if (b == NONE || !c->root || !mem_definer(x, c->root, j, &d, &dj))
		return;
	uint32_t leaf = mem_leaf_id(x, d, dj);
	if (x->leaf_buf[leaf] == NONE)
		x->leaf_buf[leaf] = b;
	/* A call's or conditional's result is written inside the callee, by
	 * its root's definer: the first one met is where the value starts on
	 * the flattened timeline (mem_globalize). */
	struct mem_buffer *bf = &x->bufs[b];
	if (!bf->writer && (bf->def->op == OP_CALL || bf->def->op == OP_CONDITIONAL) && d->comp == c)
		bf->writer = d;
	/* The buffer now holds what an offload to host writes. */
	if (flow_placement(x->f, d) == FLOW_PLACE_HOST)
		mem_set_space(x->in, &x->bufs[b], IR_SPACE_PINNED_HOST);
}

/* ---- Computations ---- */

/* Starts analysing c: leaf table, parameter bindings, root colocation. */
static void mem_push(struct mem_ctx *x, struct hlo_comp *c)
{
	struct mem_comp *cs = mem_cs(x, c);
	cs->state = MEM_RUNNING;
	cs->owned = cs->owned_tail = NONE;
	cs->nowned = 0;
	cs->owned_max = 0;
	cs->leaf_base = arena_array(x->a, (size_t)c->ninstrs + 1, sizeof *cs->leaf_base);
	cs->gtime = arena_array(x->a, c->ninstrs ? c->ninstrs : 1, sizeof *cs->gtime);
	uint32_t total = 0;
	for (uint32_t k = 0; k < c->ninstrs; k++) {
		cs->leaf_base[k] = total;
		uint32_t n = alias_leaves(&x->al, c->instrs[k]->shape);
		if (total + (uint64_t)n >= UINT32_MAX / 2)
			fatal_out_of_memory();
		total += n;
	}
	cs->leaf_base[c->ninstrs] = total;
	uint32_t first = mem_leaf_alloc(x, total);
	for (uint32_t k = 0; k <= c->ninstrs; k++)
		cs->leaf_base[k] += first;
	MEM_GROW(x->frames, x->nframes, x->capframes, 16);
	struct mem_frame *fr = &x->frames[x->nframes++];
	memset(fr, 0, sizeof *fr);
	fr->c = c;
	fr->cand_start = x->ncands;
	fr->site_start = x->nsites;
	x->mm->nanalysed++;
}

/* Leaf tj of t is leaf fj of f: its buffer, and its split carried over
 * (mem_split_carry). */
static void mem_leaf_share(struct mem_ctx *x, const struct hlo_instr *t, uint32_t tj, const struct hlo_instr *f,
			   uint32_t fj)
{
	uint32_t tl = mem_leaf_id(x, t, tj), fl = mem_leaf_id(x, f, fj);
	x->leaf_buf[tl] = x->leaf_buf[fl];
	if (x->leaf_split)
		x->leaf_split[tl] = mem_split_carry(x, alias_leaf_shape(&x->al, f->shape, fj),
						    alias_leaf_shape(&x->al, t->shape, tj), x->leaf_split[fl]);
}

/* Binds parameter `param` of callee c to leaves of caller operand o. */
static void mem_bind(struct mem_ctx *x, struct hlo_comp *c, uint32_t param, const struct hlo_instr *o)
{
	if (!o || param >= c->nparams || !c->params[param])
		return;
	const struct hlo_instr *p = c->params[param];
	uint32_t n = mem_nleaves_of(x, p);
	if (n != mem_nleaves_of(x, o))
		return;
	for (uint32_t j = 0; j < n; j++)
		mem_leaf_share(x, p, j, o, j);
}

/* Colocates c's root leaves with the buffers of instruction i's leaves. */
static void mem_colocate_root(struct mem_ctx *x, struct hlo_comp *c, const struct hlo_instr *i)
{
	if (!c->root)
		return;
	uint32_t n = mem_nleaves_of(x, c->root);
	if (n != mem_nleaves_of(x, i))
		return;
	uint32_t il = mem_leaf_id(x, i, 0);
	for (uint32_t j = 0; j < n; j++)
		mem_colocate(x, c, j, x->leaf_buf[il + j]);
}

static void mem_use(struct mem_ctx *x, const struct hlo_comp *c, const struct hlo_instr *o, uint32_t pos)
{
	if (!o)
		return;
	uint32_t l = mem_leaf_id(x, o, 0), n = mem_nleaves_of(x, o);
	for (uint32_t j = 0; j < n; j++) {
		uint32_t b = x->leaf_buf[l + j];
		if (b == NONE || mem_buffer_owner(&x->bufs[b]) != c)
			continue;
		struct mem_buffer *bf = &x->bufs[b];
		if (bf->last_pos < pos)
			bf->last_pos = pos;
		/* A read of a donated parameter up to the instruction that writes
		 * the output into it (which may read it in place). */
		if ((bf->flags & MEM_BUF_ALIASED) && bf->hole_to != NONE && pos <= bf->hole_to && bf->hole_from < pos)
			bf->hole_from = pos;
	}
}

static void mem_candidate(struct mem_ctx *x, uint32_t pos, uint32_t out_leaf, const struct hlo_instr *o,
			  bool direct)
{
	if (!o || mem_nleaves_of(x, o) != 1)
		return;
	MEM_GROW(x->cands, x->ncands, x->capcands, 64);
	x->cands[x->ncands++] = (struct mem_cand){ pos, out_leaf, mem_leaf_id(x, o, 0), direct };
}

static void mem_candidates(struct mem_ctx *x, const struct hlo_instr *i, uint32_t pos, uint32_t base, uint32_t nl)
{
	if (x->in->share_elementwise && i->op != OP_DYNAMIC_UPDATE_SLICE && i->op != OP_SCATTER &&
	    (nl == 1 || i->op == OP_FUSION) && flow_shares_operand(i)) {
		/* Each result leaf (a multi-output loop fusion has several)
		 * may take a dying operand of its shape, but XLA's heap shares
		 * an operand only with the instruction that defined it, not
		 * through copy-done, get-tuple-element or bitcast (its buffer
		 * assignments of the Adam updates in corpora/xla/host_offload). */
		for (uint32_t j = 0; j < nl; j++) {
			const struct hlo_shape *s = nl == 1 ? i->shape : alias_leaf_shape(&x->al, i->shape, j);
			for (uint32_t k = 0; k < i->noperands && s; k++) {
				const struct hlo_instr *o = ir_operands(i)[k].instr;
				if (o && o->shape && ir_shape_is_array(o->shape))
					mem_candidate(x, pos, base + j, o, true);
			}
		}
		if (i->op != OP_FUSION)
			return;
	}
	for (uint32_t j = 0; j < nl; j++) {
		int64_t k = flow_updated_operand(i, nl, j);
		if (k >= 0)
			mem_candidate(x, pos, base + j, ir_operands(i)[k].instr, false);
	}
}

/* output_to_operand_aliasing={ {out}: (operand, {index}) }: those output
 * leaves are the operand's buffers (custom calls, fusions). */
static void mem_operand_aliasing(struct mem_ctx *x, const struct hlo_instr *i, uint32_t base)
{
	const struct hlo_attr *at = ir_attr(i, ATTR_OUTPUT_TO_OPERAND_ALIASING);
	if (!at)
		return;
	struct arena_mark mk = arena_mark(&x->scratch);
	struct hlo_aliases al;
	struct hlo_value *v = NULL;
	if (attr_text_aliases(x->f, ir_attr_value(at), &x->scratch, &al) ||
	    ((v = attr_parse(x->f, at, &x->scratch, NULL)) && attr_aliases(v, &x->scratch, false, &al, NULL))) {
		for (uint32_t k = 0; k < al.n; k++) {
			const struct hlo_alias *e = &al.items[k];
			uint32_t of, on, pf, pn;
			if (e->number < 0 || (uint64_t)e->number >= i->noperands || !ir_operands(i)[e->number].instr)
				continue;
			const struct hlo_instr *o = ir_operands(i)[e->number].instr;
			if (!alias_path_leaves(&x->al, i->shape, &e->output_index, &of, &on) ||
			    !alias_path_leaves(&x->al, o->shape, &e->index, &pf, &pn) || on != pn)
				continue;
			for (uint32_t j = 0; j < on; j++)
				if (x->leaf_buf[base + of + j] == NONE)
					mem_leaf_share(x, i, of + j, o, pf + j);
		}
	}
	arena_release(&x->scratch, mk);
}

/* Leaves of i not yet bound: aliases, else new buffers. */
static void mem_define(struct mem_ctx *x, struct hlo_instr *i, uint32_t pos)
{
	uint32_t base = mem_leaf_id(x, i, 0), nl = mem_nleaves_of(x, i);
	if (!nl)
		return;
	mem_operand_aliasing(x, i, base);
	const int64_t *one[1];
	const int64_t **splits = NULL;
	bool need_split = x->leaf_split != NULL;
	for (uint32_t j = 0; j < nl; j++) {
		uint32_t l = base + j;
		if (x->leaf_buf[l] != NONE)
			continue;
		const struct hlo_instr *src;
		uint32_t sj;
		if (flow_source(&x->al, i, j, &src, &sj)) {
			mem_leaf_share(x, i, j, src, sj);
			continue;
		}
		const struct hlo_shape *s = alias_leaf_shape(&x->al, i->shape, j);
		if (!mem_is_data(s))
			continue;
		const int64_t *sp = NULL;
		if (need_split) {
			if (!splits) {
				splits = nl == 1 ? one : xmalloc(nl * sizeof *splits);
				mem_splits_for(x, i, nl, splits);
			}
			sp = splits[j];
			x->leaf_split[l] = sp;
		}
		uint32_t b = mem_new_buffer(x, i, i->op == OP_CONSTANT ? 0 : pos, j, s, sp);
		if (i->op == OP_CONSTANT)
			mem_make_global(x, b);
		x->leaf_buf[l] = b;
	}
	if (splits && splits != one)
		free(splits);
}

/* Processes the instruction at the frame's position.  Returns false when
 * it started a callee first (the frame resumes at the same instruction). */
static bool mem_step(struct mem_ctx *x, struct mem_frame *fr)
{
	struct hlo_comp *c = fr->c;
	uint32_t pos = fr->pos;
	struct hlo_instr *i = c->instrs[pos];
	if (i->op == OP_WHILE || i->op == OP_CONDITIONAL || i->op == OP_CALL) {
		struct flow_callees cl;
		flow_callees_of(i, false, &cl);
		if (fr->prepared != pos + 1) {
			fr->prepared = pos + 1;
			/* The conditional's and call's results are new buffers the
			 * callees' roots write into; a while's result is its carry. */
			if (i->op != OP_WHILE)
				mem_define(x, i, pos);
		}
		uint32_t nc = flow_callee_count(i, &cl);
		for (uint32_t k = 0; k < nc; k++) {
			struct hlo_comp *callee;
			int32_t operand;
			bool colocate;
			flow_callee_at(&cl, k, &callee, &operand, &colocate);
			if (mem_comp_of(x->in, callee)->state != MEM_NEW)
				continue;
			mem_push(x, callee);
			if (operand >= 0) {
				if ((uint32_t)operand < i->noperands)
					mem_bind(x, callee, 0, ir_operands(i)[operand].instr);
			} else {
				for (uint32_t n = 0; n < i->noperands; n++)
					mem_bind(x, callee, n, ir_operands(i)[n].instr);
			}
			if (colocate) {
				/* While: the body's root writes the carry (operand 0). */
				const struct hlo_instr *target = i->op == OP_WHILE ? ir_operands(i)[0].instr : i;
				if (target)
					mem_colocate_root(x, callee, target);
			}
			return false;
		}
		for (uint32_t k = 0; k < i->noperands; k++)
			mem_use(x, c, ir_operands(i)[k].instr, pos);
		if (i->op == OP_WHILE) {
			mem_define(x, i, pos);
			const struct hlo_instr *o = i->noperands ? ir_operands(i)[0].instr : NULL;
			if (o) {
				uint32_t l = mem_leaf_id(x, o, 0), n = mem_nleaves_of(x, o);
				for (uint32_t j = 0; j < n; j++)
					if (x->leaf_buf[l + j] != NONE)
						x->bufs[x->leaf_buf[l + j]].flags |= MEM_BUF_CARRIED;
			}
		}
		if (nc) {
			MEM_GROW(x->sites, x->nsites, x->capsites, 64);
			x->sites[x->nsites++] = pos;
		}
		return true;
	}
	if (!flow_pure(&x->al, i))
		for (uint32_t k = 0; k < i->noperands; k++)
			mem_use(x, c, ir_operands(i)[k].instr, pos);
	/* Parameters of callees were bound by the caller; a leaf left unbound
	 * (caller shape mismatch) gets a buffer of its own here. */
	mem_define(x, i, pos);
	uint32_t nl = mem_nleaves_of(x, i);
	if (nl)
		mem_candidates(x, i, pos, mem_leaf_id(x, i, 0), nl);
	return true;
}

/* ---- Driver ---- */

/* Hands the tables to the model's arena, merged buffers resolved. */
static void mem_hand_over(struct mem_ctx *x)
{
	struct mem_model *mm = x->mm;
	struct arena *a = x->a;
	mm->nbuffers = x->nbufs;
	if (x->nbufs) {
		mm->buffers = arena_vec_give(a, x->bufs, x->nbufs * sizeof *x->bufs);
		x->in->buf_split = arena_vec_give(a, x->buf_split, x->nbufs * sizeof *x->buf_split);
		x->bufs = NULL;
		x->buf_split = NULL;
	} else {
		mm->buffers = arena_array(a, 1, sizeof *mm->buffers);
	}
	x->in->nleaves = x->nleaves;
	/* The walk's leaf table is the values' as it is (no copy at the peak). */
	x->in->leaf_buf = arena_array(a, x->nleaves ? x->nleaves : 1, sizeof *x->in->leaf_buf);
	for (uint32_t l = 0; l < x->nleaves; l++)
		x->in->leaf_buf[l] = mem_find(x, x->leaf_buf[l]);
	x->in->leaf_val = x->nleaves ? arena_vec_give(a, x->leaf_buf, x->nleaves * sizeof *x->leaf_buf)
				     : arena_array(a, 1, sizeof *x->in->leaf_val);
	if (x->nleaves)
		x->leaf_buf = NULL;
	if (x->leaf_split) {
		x->in->leaf_split = arena_array(a, x->nleaves ? x->nleaves : 1, sizeof *x->in->leaf_split);
		memcpy(x->in->leaf_split, x->leaf_split, x->nleaves * sizeof *x->leaf_split);
	}
}


static void *mem_pack_run(void *p)
{
	struct mem_model *mm = p;
	alloc_pack(mm, &mm->in->pack);
	return NULL;
}

/* The total allocation reads the finished model and writes only its own
 * figures (alloc.c); on a large module it is the longest pass after the
 * walk, over tables far larger than the caches.  With a thread to spare
 * it runs beside peak_build and the rules that do not read it (pass.h,
 * PASS_NEEDS_TOTALS), from the size at which the parse goes in pieces. */
static void mem_pack(struct mem_model *mm, const struct mem_options *o)
{
	struct mem_internal *in = mm->in;
	in->packing = o->pack_later && threads_get() > 1 && span_len(mm->module->span) >= threads_min_bytes() &&
		      pthread_create(&in->packer, NULL, mem_pack_run, mm) == 0;
	if (!in->packing)
		alloc_pack(mm, &in->pack);
}

void mem_settle(const struct mem_model *mm)
{
	if (mm && mm->in->packing) {
		pthread_join(mm->in->packer, NULL);
		mm->in->packing = false;
	}
}

struct mem_model *mem_analyze(struct hlo_module *m, const struct mem_options *o, struct arena *a)
{
	struct mem_model *mm = arena_alloc(a, sizeof *mm);
	struct mem_ctx x = { .mm = mm, .m = m, .f = m->file, .a = a, .entry = m->entry };
	arena_init(&x.scratch);
	arena_init(&x.keep);
	alias_init(&x.al, m->file, &x.keep);
	mm->module = m;
	mm->scheduled = m->is_scheduled;
	mm->xla_total_bytes = o->xla_total_bytes;
	x.in = mm->in = arena_alloc(a, sizeof *mm->in);
	x.in->comps = arena_array(a, m->ncomps ? m->ncomps : 1, sizeof *x.in->comps);

	mem_decide_reading(&x, o);

	const struct hlo_attr *ecl = ir_module_attr(m, ATTR_ENTRY_COMPUTATION_LAYOUT);
	if (ecl) {
		struct hlo_value *val = attr_parse(x.f, ecl, &x.keep, NULL);
		x.has_ecl = val && attr_program_shape(val, &x.keep, &x.ecl, NULL);
	}

	/* A module large enough to be parsed in pieces has a core to spare
	 * during the walk; on this VM the walk's fresh pages cost more than a
	 * third of it at 1 GB (docs/bench.md, "A helper that faults pages in"). */
	if (threads_get() > 1 && span_len(m->span) >= threads_min_bytes())
		x.pf = prefault_start();
	if (m->entry) {
		mem_push(&x, m->entry);
		mem_entry_params(&x, m->entry);
		mem_entry_aliasing(&x, m->entry);
		while (x.nframes) {
			struct mem_frame *fr = &x.frames[x.nframes - 1];
			if (fr->pos >= fr->c->ninstrs) {
				mem_finish(&x, fr);
				x.nframes--;
				continue;
			}
			if (mem_step(&x, fr)) {
				/* Callees were stepped first: XLA's flattened order. */
				fr = &x.frames[x.nframes - 1];
				mem_cs(&x, fr->c)->gtime[fr->pos] = x.clock++;
				fr->pos++;
			}
		}
		const struct mem_peak *pk = &mem_cs(&x, m->entry)->peak;
		mm->peak_bytes = pk->dev;
		mm->peak_bytes_max = pk->dev_max > pk->dev ? pk->dev_max : pk->dev;
		mm->padding_bytes = size_sub(pk->dev, pk->unpadded);
		mm->temp_bytes = pk->temp;
		mm->host_bytes = pk->host;
		mm->unpinned_host_bytes = pk->uhost;
		mm->other_bytes = pk->other;
		mm->peak_at = pk->at;
	}
	prefault_stop(x.pf);
	x.pf = NULL;
	mem_globalize(&x);
	mem_totals(&x);

	mem_hand_over(&x);
	if (x.pack.cap) {   /* the links are done with: the packer's roots, 4 bytes a buffer */
		x.pack.root = x.next;
		x.next = NULL;
	}
	x.in->pack = x.pack;
	arena_vec_free(x.bufs);
	arena_vec_free(x.buf_split);
	free(x.next);
	free(x.fwd);
	arena_vec_free(x.leaf_buf);
	free(x.leaf_split);
	free(x.frames);
	free(x.cands);
	free(x.sites);
	free(x.globals);
	alias_free(&x.al);
	free(x.delta);
	free(x.site_peaks);
	free(x.carry_mark);
	free(x.cgaps);
	arena_free(&x.scratch);
	arena_free(&x.keep);
	mem_pack(mm, o);
	peak_build(mm, a);
	timing_mark("model");
	return mm;
}

/* ---- Accessors ---- */

static const struct mem_buffer *mem_leaf_lookup(const struct mem_model *mm, const uint32_t *table,
						const struct hlo_instr *i, uint32_t leaf)
{
	if (!i->comp || i->comp->module != mm->module)
		return NULL;
	const struct mem_comp *cs = mem_comp_of(mm->in, i->comp);
	if (!cs->leaf_base)
		return NULL;
	uint32_t l = cs->leaf_base[i->index];
	if (leaf >= cs->leaf_base[i->index + 1] - l)
		return NULL;
	uint32_t b = table[l + leaf];
	return b == NONE ? NULL : &mm->buffers[b];
}

const struct mem_buffer *mem_buffer_at(const struct mem_model *mm, const struct hlo_instr *i, uint32_t leaf)
{
	return mem_leaf_lookup(mm, mm->in->leaf_buf, i, leaf);
}

const struct mem_buffer *mem_value_at(const struct mem_model *mm, const struct hlo_instr *i, uint32_t leaf)
{
	return mem_leaf_lookup(mm, mm->in->leaf_val, i, leaf);
}

bool mem_analysed(const struct mem_model *mm, const struct hlo_comp *c)
{
	return c && c->module == mm->module && mem_comp_of(mm->in, c)->leaf_base;
}

uint32_t mem_leaf_count(const struct mem_model *mm, const struct hlo_instr *i)
{
	if (!i->comp || i->comp->module != mm->module)
		return 0;
	const struct mem_comp *cs = mem_comp_of(mm->in, i->comp);
	return cs->leaf_base ? cs->leaf_base[i->index + 1] - cs->leaf_base[i->index] : 0;
}

uint32_t mem_step_at(const struct mem_model *mm, const struct hlo_instr *i)
{
	if (!i->comp || i->comp->module != mm->module)
		return UINT32_MAX;
	const struct mem_comp *cs = mem_comp_of(mm->in, i->comp);
	return cs->gtime && cs->leaf_base && i->index < i->comp->ninstrs ? cs->gtime[i->index] : UINT32_MAX;
}

/* Adds the sizes of s's leaves, numbered from *j, to acc. */
static void mem_each_leaf(const struct mem_model *mm, const struct hlo_shape *s, const int64_t *const *splits,
			  uint32_t *j, uint64_t *acc)
{
	if (!s)
		return;
	if (s->type == PT_TUPLE) {
		for (uint32_t k = 0; k < s->rank; k++)
			mem_each_leaf(mm, s->elems[k], splits, j, acc);
		return;
	}
	uint64_t p, px, u;
	mem_size(mm->in, s, splits ? splits[*j] : NULL, &p, &px, &u, NULL);
	acc[0] += p;
	acc[1] += px;
	acc[2] += u;
	(*j)++;
}

void mem_instr_size(const struct mem_model *mm, const struct hlo_instr *i, uint64_t *padded, uint64_t *padded_max,
		    uint64_t *unpadded)
{
	uint64_t acc[3] = { 0, 0, 0 };
	uint32_t j = 0;
	const struct mem_comp *cs = mem_comp_of(mm->in, i->comp);
	if (!mm->in->leaf_split) {
		mem_each_leaf(mm, i->shape, NULL, &j, acc);
	} else if (cs && cs->leaf_base) {
		mem_each_leaf(mm, i->shape, mm->in->leaf_split + cs->leaf_base[i->index], &j, acc);
	} else {
		/* Outside the analysed computations: the instruction's own
		 * sharding, for arrays and flat tuples. */
		struct mem_ctx x = { .in = mm->in };
		arena_init(&x.keep);
		x.a = &x.keep;
		struct hlo_sharding sh;
		uint32_t nl = ir_leaf_count(i->shape);
		const int64_t **own = xcalloc(nl ? nl : 1, sizeof *own);
		if (ir_attr(i, ATTR_SHARDING) && sharding_of(i->comp->module->file, i, &x.keep, &sh, NULL)) {
			for (uint32_t k = 0; k < nl; k++) {
				const struct hlo_sharding *e = &sh;
				if (sh.kind == SHARDING_TUPLE)
					e = k < sh.nelems ? &sh.elems[k] : NULL;
				const struct hlo_shape *s = i->shape;
				if (s->type == PT_TUPLE)
					s = k < s->rank ? s->elems[k] : NULL;
				own[k] = e && s ? mem_split_of(&x, e, s) : NULL;
			}
		}
		mem_each_leaf(mm, i->shape, own, &j, acc);
		free(own);
		arena_free(&x.keep);
	}
	*padded = acc[0];
	*padded_max = acc[1];
	*unpadded = acc[2];
}

static bool mem_bigger(const struct mem_buffer *a, const struct mem_buffer *b)
{
	return a->bytes != b->bytes ? a->bytes > b->bytes : a < b;   /* one array: definition order */
}

static int mem_cmp(const void *pa, const void *pb)
{
	const struct mem_buffer *a = *(const struct mem_buffer *const *)pa, *b = *(const struct mem_buffer *const *)pb;
	return mem_bigger(a, b) ? -1 : mem_bigger(b, a) ? 1 : 0;
}

uint32_t mem_largest(const struct mem_model *mm, const struct mem_buffer **out, uint32_t n)
{
	uint32_t k = 0;
	if (!n || n >= mm->nbuffers) {
		for (uint32_t b = 0; b < mm->nbuffers; b++)
			if (!(mm->buffers[b].flags & MEM_BUF_MERGED))
				out[k++] = &mm->buffers[b];
		if (k)
			qsort(out, k, sizeof *out, mem_cmp);
		return n && k > n ? n : k;
	}
	/* Top n by insertion: the list is short, most buffers fail the first test. */
	for (uint32_t b = 0; b < mm->nbuffers; b++) {
		const struct mem_buffer *bf = &mm->buffers[b];
		if (bf->flags & MEM_BUF_MERGED)
			continue;
		if (k == n && !mem_bigger(bf, out[k - 1]))
			continue;
		uint32_t at = k < n ? k++ : n - 1;
		while (at > 0 && mem_bigger(bf, out[at - 1])) {
			out[at] = out[at - 1];
			at--;
		}
		out[at] = bf;
	}
	return k;
}
