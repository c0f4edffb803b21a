/* triage.c - decides what kind of out-of-memory failure a report is and
 * what fixes it.  The report's numbers come first (run time or compile
 * time, memory space, arguments, padding, how far over); with the module,
 * hlolint's model and the rules' findings add what the message cannot say
 * (a loop-carried stack, an offload XLA undid, callback evidence).  It
 * also finds each listed allocation's instruction.  It does not read logs
 * (oomlog.c) or print (cmd_oom.c). */
#include "triage.h"
#include <stdio.h>
#include <string.h>
#include "metadata.h"
#include "parse.h"
#include "size.h"

const char *triage_class_name(enum triage_class c)
{
#define TRIAGE_NAME(id, name) case TRIAGE_##id: return name;
	switch (c) { TRIAGE_CLASSES(TRIAGE_NAME) }
#undef TRIAGE_NAME
	return "?";
}

/* ---- Fixes (docs/oom.md), each written once; the lists pick them ---- */

static const char fix_batch[] = "lower the per-device batch size, or use more devices (a bigger topology)";
static const char fix_donate[] =
	"donate the inputs you do not need afterwards (jax.jit(..., donate_argnums=...); rule missed-donation)";
static const char fix_bf16[] = "keep activations and optimizer state in bf16 where accuracy allows";
static const char fix_remat[] = "rematerialize: jax.checkpoint / remat policies trade compute for activation memory";
static const char fix_offload[] =
	"offload scan residuals or optimizer state to host memory (rule loop-carry-offload; S(5))";
static const char fix_padding[] =
	"cut padding: shapes whose minor dimensions are not multiples of the TPU tile (rule padding-waste)";
static const char fix_callback[] =
	"remove the leftover jax.debug.print / host callback that keeps this whole array alive "
	"(hlolint check, rule host-transfer)";
static const char fix_shard[] =
	"shard it: a replicated or badly sharded array is full size on every device "
	"(rule replicated-oversized; with_sharding_constraint on the intermediate)";
static const char fix_shape[] =
	"check the shape: an accidental broadcast or outer product (x[:, None] * x[None, :], a missing "
	"reduction, vmap over the wrong axis, a static argument become a dimension) makes one array far "
	"larger than intended";
static const char fix_args_shard[] =
	"shard the parameters and optimizer state over the devices (FSDP: a PartitionSpec over the data "
	"axis for every weight, not only for the batch)";
static const char fix_args_host[] =
	"keep optimizer state in pinned host memory (memory_kind=\"pinned_host\" for the Adam moments) "
	"and bring each part in where the update uses it";
static const char fix_args_smaller[] = "store weights or moments in bf16, use a smaller model, or more devices";
static const char fix_args_donate[] =
	"donate the parameters and optimizer state (donate_argnums) so that the new ones reuse their memory";
static const char fix_host_stream[] =
	"stream it: keep the array in pinned host memory and bring one slice per step inside the scan "
	"(index it in the body, e.g. jax.device_put(xs[i], device) there), not the whole array before "
	"the loop";
static const char fix_host_shard[] = "or keep it on the device, sharded over more devices";
static const char fix_carry_offload[] =
	"offload the saved residuals to pinned host memory: jax.checkpoint with "
	"save_and_offload_only_these_names(..., offload_dst=\"pinned_host\") for the name kept in HBM "
	"(rule loop-carry-offload; hlolint annotate --apply writes S(5))";
static const char fix_carry_remat[] =
	"or save fewer residuals (a policy that saves less, jax.checkpoint_policies.nothing_saveable) and "
	"recompute them in the backward pass";
static const char fix_carry_smaller[] = "fewer layers per scan, a smaller per-device batch or sequence";
static const char fix_pad_first[] =
	"change the shape so that its minor dimensions are multiples of the TPU tile, or make the small "
	"dimension a major one (rule padding-waste prints the aligned layout)";
static const char fix_far_shape[] =
	"check the shapes first: no batch size explains this much; an accidental outer product or "
	"broadcast (x[:, None] * x[None, :]), a static argument become a dimension, vmap over the wrong "
	"axis";
static const char fix_kernel_block[] =
	"use smaller kernel blocks: the Pallas BlockSpec block_shape (or the kernel's block / page size) "
	"sets what each grid step keeps in VMEM; halve it along the largest dimension";
static const char fix_kernel_limit[] =
	"raise the kernel's scoped VMEM limit within the chip's VMEM: --xla_tpu_scoped_vmem_limit_kib=N "
	"(in LIBTPU_INIT_ARGS), or vmem_limit_bytes in the Pallas compiler_params";
static const char fix_kernel_seq[] =
	"for attention kernels: a shorter maximum sequence length, a smaller page size or fewer pages "
	"per block";
static const char fix_smem[] =
	"SMEM holds the scalars and index arrays a kernel reads (page tables, block indices): fewer "
	"sequences or pages per call, or smaller index arrays";
static const char fix_frag_order[] =
	"the free memory is in pieces: allocate the large arrays (and load the large program) first, "
	"or free and re-create arrays between phases (del, gc.collect(), jax.clear_caches())";
static const char fix_frag_less[] =
	"keep fewer arrays alive across steps so that the free memory stays in one piece: donate what "
	"the step replaces, delete what you no longer need";
static const char fix_live_what[] =
	"the program fitted when it was compiled: other arrays hold the memory: arrays your Python code "
	"still references (old parameters, earlier outputs, a cached dataset), another program loaded, "
	"outputs not donated into inputs; jax.live_arrays() lists them";
static const char fix_live_free[] =
	"delete what you no longer need (del x; jax.clear_caches()), donate the inputs a step replaces "
	"(donate_argnums), and do not keep a failed attempt's arrays when you retry";
static const char fix_gpu_live[] =
	"something else holds GPU memory: arrays your Python code still references (old parameters, "
	"earlier outputs, a cached dataset), outputs not donated into inputs, another process on the GPU; "
	"jax.live_arrays() lists JAX's";
static const char fix_gpu_share[] =
	"JAX preallocates 75% of the GPU (XLA_PYTHON_CLIENT_MEM_FRACTION): another process or framework "
	"on the same GPU gets only the rest; give each its own GPU or set the fraction";
static const char fix_gpu_frag[] =
	"XLA_PYTHON_CLIENT_PREALLOCATE=false grows the pool on demand; XLA_PYTHON_CLIENT_ALLOCATOR="
	"platform allocates exactly what is asked (slower, no fragmentation)";
static const char fix_gpu_program[] =
	"if the program alone is larger than the GPU: a smaller batch, jax.checkpoint, bf16";
static const char fix_warning[] =
	"nothing failed: the allocator retried or fell back and the step went on; if it repeats every "
	"step, memory is tight: a smaller batch or XLA_PYTHON_CLIENT_MEM_FRACTION";
static const char fix_sc_pad[] =
	"pad narrow embedding features to 32 bytes: SparseCore rounds each row up, so a narrow table costs "
	"more than its size";
static const char fix_sc_serial[] =
	"set --xla_sc_num_serialized_tables_to_optimize_hbm to serialize tables and lower SparseCore's peak";
static const char fix_sc_iter[] = "lower maximum_parallel_iterations of the embedding loop (fewer iterations in flight)";
static const char fix_sc_move[] =
	"move work or tables between SparseCore and TensorCore so neither side alone overflows";

const char *const *triage_fixes(const struct triage *t)
{
	static const char *const sc[] = { fix_sc_pad, fix_sc_serial, fix_sc_iter, fix_sc_move, NULL };
	static const char *const args[] = { fix_args_shard, fix_args_host, fix_args_smaller, fix_args_donate, NULL };
	static const char *const host[] = { fix_host_stream, fix_host_shard, NULL };
	static const char *const carry[] = { fix_carry_offload, fix_carry_remat, fix_carry_smaller, NULL };
	static const char *const pad[] = { fix_pad_first, fix_batch, fix_bf16, NULL };
	static const char *const far[] = { fix_far_shape, fix_shard, NULL };
	static const char *const large[] = { fix_shard, fix_shape, NULL };
	static const char *const large_cb[] = { fix_callback, fix_shard, fix_shape, NULL };
	static const char *const agg[] = { fix_batch, fix_donate, fix_bf16, fix_remat, fix_offload, fix_padding, NULL };
	static const char *const agg_gpu[] = { fix_batch, fix_donate, fix_bf16, fix_remat, fix_offload, NULL };
	static const char *const kernel[] = { fix_kernel_block, fix_kernel_limit, fix_kernel_seq, NULL };
	static const char *const smem[] = { fix_smem, fix_kernel_block, fix_kernel_seq, NULL };
	static const char *const frag[] = { fix_frag_order, fix_frag_less, NULL };
	static const char *const live[] = { fix_live_what, fix_live_free, NULL };
	static const char *const gpu[] = { fix_gpu_live, fix_gpu_share, fix_gpu_frag, fix_gpu_program, NULL };
	static const char *const warn[] = { fix_warning, NULL };
	switch (t->cls) {
	case TRIAGE_NOT_FAILURE: return warn;
	case TRIAGE_KERNEL: return t->r->space && !strcmp(t->r->space, "smem") ? smem : kernel;
	case TRIAGE_FRAGMENTED: return frag;
	case TRIAGE_LIVE: return live;
	case TRIAGE_GPU_RUNTIME: return gpu;
	case TRIAGE_SPARSECORE: return sc;
	case TRIAGE_ARGUMENTS: return args;
	case TRIAGE_HOST_UNDONE: return host;
	case TRIAGE_LOOP_CARRY: return carry;
	case TRIAGE_PADDING: return pad;
	case TRIAGE_FAR_OVER: return far;
	case TRIAGE_LARGE: return t->callback ? large_cb : large;
	case TRIAGE_AGGREGATE: break;
	}
	return oomlog_gpu(t->r->kind) ? agg_gpu : agg;
}

bool triage_is_callback(const struct oom_alloc *al)
{
	static const char *const marks[] = { "callback", "debug_print", "debug.print", "host_callback",
					     "outfeed", "io_callback", NULL };
	const char *texts[] = { al->label, al->op_name, al->op_type };
	for (int t = 0; t < 3; t++)
		for (int k = 0; texts[t] && marks[k]; k++)
			if (strstr(texts[t], marks[k]))
				return true;
	return false;
}

const char *triage_alloc_fix(const struct triage *t, const struct triage_alloc *x)
{
	const struct oom_alloc *al = x->al;
	if (t->about >= 0 && x == &t->allocs[t->about]) {
		switch (t->cls) {
		case TRIAGE_LOOP_CARRY: return fix_carry_offload;
		case TRIAGE_HOST_UNDONE: return fix_host_stream;
		default: break;
		}
	}
	if (triage_is_callback(al))
		return fix_callback;
	if (al->unpadded != OOM_UNKNOWN && al->size != OOM_UNKNOWN && al->size > 2 * al->unpadded)
		return "most of it is TPU tile padding: make the minor dimensions multiples of the tile "
		       "(rule padding-waste)";
	if (al->type && (!strcmp(al->type, "parameter") || !strcmp(al->type, "argument")))
		return "an argument: shard it over more devices, keep it in bf16, or donate it if the step "
		       "replaces it (rule missed-donation)";
	return NULL;
}

/* ---- Finding the instructions ---- */

/* The report's shape without its layout ("f32[8,128]{1,0:T(8,128)}" ->
 * "f32[8,128]"); false for tuples and absent shapes. */
static bool triage_shape_key(const char *shape, char *buf, size_t cap)
{
	if (!shape || shape[0] == '(')
		return false;
	size_t n = strcspn(shape, "{ ");
	if (!n || n >= cap)
		return false;
	memcpy(buf, shape, n);
	buf[n] = 0;
	return true;
}

/* The instruction of m named name, in any computation. */
static struct hlo_instr *triage_by_name(struct hlo_module *m, const char *name)
{
	for (uint32_t c = 0; c < m->ncomps; c++) {
		struct hlo_instr *i = ir_find_instr(m->comps[c], name);
		if (i)
			return i;
	}
	return NULL;
}

/* Whether i's metadata op_name is op_name. */
static bool triage_op_name_is(struct hlo_module *m, const struct hlo_instr *i, const char *op_name,
			      struct arena *a)
{
	const struct hlo_attr *md = ir_attr(i, ATTR_METADATA);
	if (!md || !op_name)
		return false;
	struct arena_mark mk = arena_mark(a);
	struct hlo_metadata d;
	bool yes = metadata_decode(m->file, ir_attr_value(md), a, &d, NULL) && d.op_name && !strcmp(d.op_name, op_name);
	arena_release(a, mk);
	return yes;
}

/* Without a usable name: the first instruction of the same shape (and
 * op_name, when the report gives one) in the entry and what it calls,
 * fusion bodies left out. */
static struct hlo_instr *triage_by_shape(struct hlo_module *m, const struct oom_alloc *al, struct arena *a)
{
	char key[256], got[256];
	if (!triage_shape_key(al->shape, key, sizeof key))
		return NULL;
	for (uint32_t c = 0; c < m->ncomps; c++) {
		const struct hlo_comp *cp = m->comps[c];
		for (uint32_t k = 0; k < cp->ninstrs; k++) {
			struct hlo_instr *i = cp->instrs[k];
			if (!ir_shape_is_array(i->shape))
				continue;
			if (ir_shape_format(i->shape, false, got, sizeof got) >= sizeof got || strcmp(got, key))
				continue;
			if (al->op_name ? triage_op_name_is(m, i, al->op_name, a) : al->entry_parameter &&
			    i->op == OP_PARAMETER && cp == m->entry)
				return i;
		}
	}
	return NULL;
}

static struct hlo_instr *triage_find(struct hlo_module *m, const struct oom_alloc *al, struct arena *a,
				     const char **how)
{
	struct hlo_instr *i = al->name ? triage_by_name(m, al->name) : NULL;
	if (i) {
		*how = "its XLA label";
		return i;
	}
	i = triage_by_shape(m, al, a);
	*how = i ? al->op_name ? "its op_name and shape" : "its shape (an entry parameter)" : NULL;
	return i;
}

uint32_t triage_matches(const struct oom_report *r, struct hlo_module *m, struct arena *a)
{
	uint32_t n = 0;
	const char *how;
	for (uint32_t k = 0; k < r->nallocs; k++)
		n += triage_find(m, &r->allocs[k], a, &how) != NULL;
	return n;
}

/* ---- The allocations: the report's, XLA's buffer assignment's, or the model's ---- */

static void triage_from_report(struct triage *t, const struct triage_module *tm, struct arena *a)
{
	const struct oom_report *r = t->r;
	t->allocs = arena_array(a, r->nallocs ? r->nallocs : 1, sizeof *t->allocs);
	for (uint32_t k = 0; k < r->nallocs; k++) {
		struct triage_alloc *x = &t->allocs[k];
		x->al = &r->allocs[k];
		x->instr = tm->m ? triage_find(tm->m, x->al, a, &x->how) : NULL;
		t->mapped += x->instr != NULL;
	}
	t->nallocs = r->nallocs;
	t->from = TRIAGE_FROM_REPORT;
}

/* An allocation for a buffer the module defines (XLA's or the model's). */
static struct oom_alloc *triage_made(struct triage *t, uint32_t rank, uint64_t size, const char *shape,
				     const char *type, const char *name, struct arena *a)
{
	struct oom_alloc *al = arena_alloc(a, sizeof *al);
	memset(al, 0, sizeof *al);
	al->rank = rank;
	al->line = t->r->line;
	al->size = size;
	al->unpadded = OOM_UNKNOWN;
	al->shape = shape;
	al->type = type;
	al->name = name;
	return al;
}

/* XLA's buffer assignment: its largest device allocations, each by the
 * instruction of its largest value. */
static void triage_from_xla(struct triage *t, const struct triage_module *tm, struct arena *a)
{
	const struct xla_assignment *xa = tm->xa;
	t->allocs = arena_array(a, xa->n, sizeof *t->allocs);
	for (uint32_t k = 0; k < xa->n; k++) {
		const struct xla_allocation *x = &xa->allocs[k];
		const char *type = x->parameter >= 0 ? "parameter" : x->constant ? "constant"
				   : x->live_out ? "output" : "HLO temp";
		struct oom_alloc *al = triage_made(t, k + 1, x->size, x->shape, type, x->value, a);
		struct hlo_instr *i = x->value ? triage_by_name(tm->m, x->value) : NULL;
		t->allocs[k] = (struct triage_alloc){ al, i, "XLA's buffer assignment (the report lists none)" };
		t->mapped += i != NULL;
	}
	t->nallocs = xa->n;
	t->from = TRIAGE_FROM_XLA;
}

/* hlolint's model: the n largest device buffers.  Host buffers (S(5),
 * S(6)) are left out: the report is about device memory. */
static void triage_from_model(struct triage *t, const struct mem_model *mm, uint32_t n, struct arena *a)
{
	const struct mem_buffer **all = arena_array(a, mm->nbuffers, sizeof *all);
	uint32_t nall = mem_largest(mm, all, 0), m = 0;
	t->allocs = arena_array(a, n ? n : 1, sizeof *t->allocs);
	for (uint32_t k = 0; k < nall && m < n; k++) {
		const struct mem_buffer *b = all[k];
		if (mem_space_class(b->memory_space) != MEM_SPACE_DEVICE)
			continue;
		char buf[512];
		ir_shape_format(b->shape, true, buf, sizeof buf);
		struct oom_alloc *al = triage_made(t, m + 1, b->bytes, arena_strndup(a, buf, strlen(buf)),
						   mem_kind_name((enum mem_kind)b->kind),
						   arena_strndup(a, ir_name(b->def), ir_name_len(b->def)), a);
		al->unpadded = b->unpadded;
		al->padding = b->bytes > b->unpadded ? b->bytes - b->unpadded : 0;
		t->allocs[m++] = (struct triage_alloc){ al, b->def, "hlolint's model (the report lists none)" };
	}
	t->nallocs = t->mapped = m;
	t->from = TRIAGE_FROM_MODEL;
}

/* ---- Evidence ---- */

/* The buffer of i's first leaf in the model, or NULL. */
static const struct mem_buffer *triage_buffer(const struct triage_module *tm, const struct hlo_instr *i)
{
	return tm->mm && i && mem_leaf_count(tm->mm, i) ? mem_buffer_at(tm->mm, i, 0) : NULL;
}

/* Device bytes of the entry's arguments in the model. */
static uint64_t triage_model_args(const struct mem_model *mm)
{
	uint64_t n = 0;
	for (uint32_t k = 0; k < mm->nbuffers; k++) {
		const struct mem_buffer *b = &mm->buffers[k];
		if (b->param >= 0 && !(b->flags & MEM_BUF_MERGED) &&
		    mem_space_class(b->memory_space) == MEM_SPACE_DEVICE)
			n = size_add(n, b->bytes);
	}
	return n;
}

/* An entry parameter in host memory that a copy brings whole into device
 * memory (copy-start or copy of the parameter itself, not of a slice). */
static bool triage_host_undone(struct triage *t, const struct triage_module *tm)
{
	const struct hlo_comp *e = tm->m->entry;
	for (uint32_t k = 0; e && k < e->ninstrs; k++) {
		struct hlo_instr *p = e->instrs[k];
		const struct mem_buffer *b = p->op == OP_PARAMETER ? triage_buffer(tm, p) : NULL;
		if (!b || mem_space_class(b->memory_space) != MEM_SPACE_HOST)
			continue;
		for (uint32_t u = 0; u < p->nusers; u++) {
			struct hlo_instr *c = ir_user(p, u);
			if (c->op != OP_COPY_START && c->op != OP_COPY)
				continue;
			uint64_t padded, padded_max, unpadded;
			mem_instr_size(tm->mm, p, &padded, &padded_max, &unpadded);
			if (t->limit != OOM_UNKNOWN && padded < t->limit / 8)
				continue;
			t->host_param = p;
			t->host_copy = c;
			t->host_bytes = padded;
			return true;
		}
	}
	return false;
}

/* A listed allocation that is a while loop's carried buffer and a large
 * part of the limit: the index, or -1. */
static int32_t triage_loop_carry(const struct triage *t, const struct triage_module *tm)
{
	for (uint32_t k = 0; k < t->nallocs; k++) {
		const struct triage_alloc *x = &t->allocs[k];
		const struct mem_buffer *b = triage_buffer(tm, x->instr);
		if (!b || !(b->kind == MEM_WHILE_CARRIED || (b->flags & MEM_BUF_CARRIED)))
			continue;
		uint64_t size = x->al->size != OOM_UNKNOWN ? x->al->size : b->bytes;
		if (t->limit != OOM_UNKNOWN && size >= t->limit / 4)
			return (int32_t)k;
	}
	return -1;
}

/* The allocation padding makes the difference with: expanded 2x or more,
 * and its padding at least a quarter of the excess (an eighth of the limit
 * when the excess is unknown).  The index, or -1. */
static int32_t triage_padded(const struct triage *t)
{
	uint64_t want = t->over != OOM_UNKNOWN ? t->over / 4
			: t->limit != OOM_UNKNOWN ? t->limit / 8 : OOM_UNKNOWN;
	for (uint32_t k = 0; k < t->nallocs && want != OOM_UNKNOWN; k++) {
		const struct oom_alloc *al = t->allocs[k].al;
		if (al->size == OOM_UNKNOWN || al->unpadded == OOM_UNKNOWN || al->padding == 0)
			continue;
		if (al->size >= 2 * al->unpadded && al->padding >= want)
			return (int32_t)k;
	}
	return -1;
}

/* The largest listed allocation: the index, or -1. */
static int32_t triage_largest(const struct triage *t)
{
	int32_t big = -1;
	for (uint32_t k = 0; k < t->nallocs; k++) {
		uint64_t s = t->allocs[k].al->size;
		if (s != OOM_UNKNOWN && (big < 0 || s > t->allocs[big].al->size))
			big = (int32_t)k;
	}
	return big;
}

/* Whether a finding of rule on i's buffer exists. */
static bool triage_has_finding(const struct triage_module *tm, const struct hlo_instr *i, const char *rule)
{
	for (uint32_t k = 0; tm->sink && i && k < tm->sink->n; k++) {
		const struct finding *f = tm->sink->items[k];
		if (!strcmp(f->rule, rule) && triage_finding_on(tm, f, i))
			return true;
	}
	return false;
}

bool triage_finding_on(const struct triage_module *tm, const struct finding *f, const struct hlo_instr *i)
{
	if (f->suppressed || !f->computation[0] || !tm->m)
		return false;
	const struct hlo_comp *c = ir_find_comp(tm->m, f->computation);
	const struct hlo_instr *fi = c ? ir_find_instr(c, f->instruction) : NULL;
	if (!fi)
		return false;
	if (fi == i)
		return true;
	const struct mem_buffer *a = triage_buffer(tm, i), *b = triage_buffer(tm, fi);
	return a && a == b;
}

static void triage_padding_what(struct triage *t, int32_t k);

/* ---- Deciding ---- */

static enum triage_class triage_run_time(struct triage *t)
{
	const struct oom_report *r = t->r;
	uint64_t want = r->requested;
	if (r->kind == OOM_GPU_BFC && r->not_failure)
		return TRIAGE_NOT_FAILURE;
	if (r->kind == OOM_TPU_RESERVE || r->kind == OOM_TPU_BUFFER) {
		uint64_t piece = r->kind == OOM_TPU_RESERVE ? r->reservable : r->largest_free;
		bool enough = want != OOM_UNKNOWN && r->free_bytes != OOM_UNKNOWN && r->free_bytes >= want;
		return enough && piece != OOM_UNKNOWN && piece < want ? TRIAGE_FRAGMENTED : TRIAGE_LIVE;
	}
	return TRIAGE_GPU_RUNTIME;
}

/* The compile-time classes, tried in the order of enum triage_class. */
static enum triage_class triage_compile_time(struct triage *t, const struct triage_module *tm)
{
	const struct oom_report *r = t->r;
	if (r->kind == OOM_TPU_SC && r->sparsecore != OOM_UNKNOWN && r->sparsecore > 0)
		return TRIAGE_SPARSECORE;
	if (t->args != OOM_UNKNOWN && t->limit != OOM_UNKNOWN && t->args >= t->limit)
		return TRIAGE_ARGUMENTS;
	if (tm->m && tm->mm && triage_host_undone(t, tm))
		return TRIAGE_HOST_UNDONE;
	if ((t->about = triage_loop_carry(t, tm)) >= 0)
		return TRIAGE_LOOP_CARRY;
	if (t->need != OOM_UNKNOWN && t->limit != OOM_UNKNOWN && t->limit && t->need / 16 >= t->limit)
		return TRIAGE_FAR_OVER;
	/* One allocation alone at the limit decides before any padding does
	 * (unless it is the padded one). */
	int32_t big = triage_largest(t), padded = triage_padded(t);
	if (big >= 0 && t->limit != OOM_UNKNOWN && t->allocs[big].al->size >= t->limit && padded != big) {
		t->about = big;
		return TRIAGE_LARGE;
	}
	if ((t->about = padded) >= 0)
		return TRIAGE_PADDING;
	if (big >= 0 && t->limit != OOM_UNKNOWN && t->allocs[big].al->size > t->limit / 2) {
		t->about = big;
		return TRIAGE_LARGE;
	}
	return TRIAGE_AGGREGATE;
}

static bool triage_kernel_space(const struct oom_report *r)
{
	return r->kind == OOM_TPU_SCOPED || (r->space && (!strcmp(r->space, "vmem") || !strcmp(r->space, "smem") ||
							   !strcmp(r->space, "cmem") || !strcmp(r->space, "sflag")));
}

static void triage_decide(struct triage *t, const struct triage_module *tm)
{
	const struct oom_report *r = t->r;
	t->about = -1;
	if (triage_kernel_space(r)) {
		t->cls = TRIAGE_KERNEL;
		t->about = t->nallocs ? 0 : -1;
	} else if (oomlog_run_time(r->kind) && !(r->kind == OOM_GPU && t->limit != OOM_UNKNOWN &&
						  r->gpu_total != OOM_UNKNOWN && r->gpu_total > t->limit)) {
		t->cls = triage_run_time(t);
	} else {
		t->cls = triage_compile_time(t, tm);
	}
	int32_t big = triage_largest(t);
	if (big >= 0)
		t->callback = triage_is_callback(t->allocs[big].al) ||
			      triage_has_finding(tm, t->allocs[big].instr, "host-transfer");
}

/* What the program asks for in the report's terms. */
static uint64_t triage_need(const struct oom_report *r)
{
	if (r->kind == OOM_GPU && r->gpu_total != OOM_UNKNOWN)
		return r->gpu_total;
	if (r->used != OOM_UNKNOWN)
		return r->used;
	if (r->requirement != OOM_UNKNOWN)
		return r->requirement;
	return r->gpu_total;
}

void triage_run(struct triage *t, const struct oom_report *r, const struct triage_module *tm, uint64_t limit,
		uint32_t n, struct arena *a)
{
	memset(t, 0, sizeof *t);
	t->r = r;
	t->limit = limit;
	t->need = triage_need(r);
	t->over = r->exceeded;
	if (t->over == OOM_UNKNOWN && t->need != OOM_UNKNOWN && limit != OOM_UNKNOWN && t->need > limit)
		t->over = t->need - limit;
	t->args = r->arguments;
	if (t->args == OOM_UNKNOWN && tm->mm && !oomlog_run_time(r->kind))
		t->args = triage_model_args(tm->mm);
	if (r->nallocs || !tm->m)
		triage_from_report(t, tm, a);
	else if (tm->xa && tm->xa->n)
		triage_from_xla(t, tm, a);
	else if (tm->mm && tm->mm->nbuffers)
		triage_from_model(t, tm->mm, n, a);
	else
		triage_from_report(t, tm, a);
	triage_decide(t, tm);
	if (t->cls == TRIAGE_PADDING)
		triage_padding_what(t, t->about);
}

/* ---- Padding: which dimension, the shape as held ---- */

/* The array shape text reads through the HLO parser (the one reader of
 * shapes): a module of one parameter.  NULL when it does not read. */
static const struct hlo_shape *triage_parse_shape(const char *text, struct source **src, struct hlo_file **f)
{
	char buf[700];
	int n = snprintf(buf, sizeof buf, "HloModule m\n\nENTRY e {\n  ROOT p = %s parameter(0)\n}\n", text);
	if (n <= 0 || (size_t)n >= sizeof buf || strchr(text, '\n'))
		return NULL;
	*src = source_from_memory("<shape>", buf, (size_t)n);
	struct diag_sink d;
	diag_init_deferred(&d, 1, false);
	*f = parse_file(*src, &d);
	bool ok = !d.errors && *f && (*f)->modules && (*f)->modules->valid && (*f)->modules->entry;
	diag_free(&d);
	if (!ok)
		return NULL;
	const struct hlo_comp *e = (*f)->modules->entry;
	const struct hlo_shape *s = e->ninstrs ? e->instrs[e->ninstrs - 1]->shape : NULL;
	return s && ir_shape_is_array(s) ? s : NULL;
}

/* "dimension 1 (10) pads to 128 under the tile T(8,128): held as
 * s32[29360128,128]" for the dims the first tile rounds up. */
static void triage_pad_text(const struct hlo_shape *s, char *buf, size_t cap)
{
	const struct hlo_layout *l = s->layout;
	buf[0] = 0;
	if (!l || !l->ntiles || !l->tiles[0].rank || l->rank != s->rank || s->rank > 16)
		return;
	const struct hlo_tile *tl = &l->tiles[0];
	int64_t held[16];
	memcpy(held, s->dims, s->rank * sizeof *held);
	size_t o = 0;
	for (uint32_t k = 0; k < tl->rank && k < s->rank; k++) {
		int64_t d = l->minor_to_major[k], ts = tl->dims[tl->rank - 1 - k];
		if (d < 0 || d >= (int64_t)s->rank || ts <= 0 || s->dims[d] < 0 || s->dims[d] % ts == 0)
			continue;
		held[d] = (s->dims[d] + ts - 1) / ts * ts;
		o += (size_t)snprintf(buf + o, o < cap ? cap - o : 0, "%sdimension %lld (%lld) pads to %lld",
				      o ? ", " : "", (long long)d, (long long)s->dims[d], (long long)held[d]);
	}
	if (!o || o >= cap)
		return;
	o += (size_t)snprintf(buf + o, cap - o, " under the tile T(");
	for (uint32_t k = 0; k < tl->rank && o < cap; k++)
		o += (size_t)snprintf(buf + o, cap - o, "%s%lld", k ? "," : "", (long long)tl->dims[k]);
	o += (size_t)snprintf(buf + o, o < cap ? cap - o : 0, "): held as %s[", ir_type_name(s->type));
	for (uint32_t k = 0; k < s->rank && o < cap; k++)
		o += (size_t)snprintf(buf + o, cap - o, "%s%lld", k ? "," : "", (long long)held[k]);
	if (o < cap)
		snprintf(buf + o, cap - o, "]");
}

static void triage_padding_what(struct triage *t, int32_t k)
{
	const struct triage_alloc *x = &t->allocs[k];
	struct source *src = NULL;
	struct hlo_file *f = NULL;
	const struct hlo_shape *s = x->instr && ir_shape_is_array(x->instr->shape) ? x->instr->shape : NULL;
	if (!s && x->al->shape)
		s = triage_parse_shape(x->al->shape, &src, &f);
	if (s)
		triage_pad_text(s, t->pad_what, sizeof t->pad_what);
	if (f)
		parse_free(f);
	source_free(src);
}

/* ---- The deciding fact ---- */

static const char *triage_h(uint64_t v, char *buf)
{
	return v == OOM_UNKNOWN ? "an unknown size" : size_human(v, buf);
}

/* "allocation 2 (f32[4,128]) " or "" */
static void triage_alloc_name(const struct triage *t, char *buf, size_t cap)
{
	buf[0] = 0;
	if (t->about < 0)
		return;
	const struct oom_alloc *al = t->allocs[t->about].al;
	int n = al->shape ? (int)strcspn(al->shape, "{") : 0;
	snprintf(buf, cap, "%s %u%s%.*s%s", t->from == TRIAGE_FROM_REPORT ? "allocation" : "buffer", al->rank,
		 n ? " (" : "", n, n ? al->shape : "", n ? ")" : "");
}

static void triage_fact_run(const struct triage *t, char *buf, size_t cap)
{
	const struct oom_report *r = t->r;
	char a[24], b[24], c[24];
	const char *what = r->program ? "loading program" : "the runtime";
	switch (t->cls) {
	case TRIAGE_NOT_FAILURE:
		snprintf(buf, cap, "the allocator asked for %s more and says this is not a failure: the step went on",
			 triage_h(r->requested, a));
		return;
	case TRIAGE_FRAGMENTED:
		snprintf(buf, cap, "%s%s%s needs %s in one piece; %s is free but the largest piece is %s: "
			 "fragmentation, not a full device", what, r->program ? " " : "", r->program ? r->program : "",
			 triage_h(r->requested, a), triage_h(r->free_bytes, b),
			 triage_h(r->kind == OOM_TPU_RESERVE ? r->reservable : r->largest_free, c));
		return;
	case TRIAGE_LIVE:
		if (r->free_bytes == OOM_UNKNOWN)
			snprintf(buf, cap, "%s%s%s needs %s and the device has less free: the program fitted when it "
				 "was compiled; arrays already on the device hold the rest", what, r->program ? " " : "",
				 r->program ? r->program : "", triage_h(r->requested, a));
		else
			snprintf(buf, cap, "%s%s%s needs %s but only %s is free: the program fitted when it was "
				 "compiled; arrays already on the device hold the rest", what, r->program ? " " : "",
				 r->program ? r->program : "", triage_h(r->requested, a), size_human(r->free_bytes, b));
		return;
	default:
		break;
	}
	size_t o = (size_t)snprintf(buf, cap, "at run time the allocator could not give %s more",
				    r->requested == OOM_UNKNOWN ? "memory" : size_human(r->requested, a));
	if (r->in_use != OOM_UNKNOWN && r->capacity != OOM_UNKNOWN && o < cap)
		o += (size_t)snprintf(buf + o, cap - o, " (%s in use of its %s limit)", size_human(r->in_use, a),
				      size_human(r->capacity, b));
	if (r->gpu_total == OOM_UNKNOWN || o >= cap)
		return;
	o += (size_t)snprintf(buf + o, cap - o, "; the program's buffers total %s", size_human(r->gpu_total, c));
	if (o < cap && t->limit == OOM_UNKNOWN)
		snprintf(buf + o, cap - o, ": whether that alone is over the GPU decides the fix (give --target "
			 "or --hbm)");
	else if (o < cap)
		snprintf(buf + o, cap - o, ", which fits the %s limit: other allocations hold the rest",
			 size_human(t->limit, a));
}

static void triage_fact_compile(const struct triage *t, char *buf, size_t cap)
{
	const struct oom_report *r = t->r;
	char a[24], b[24], c[24], who[300];
	triage_alloc_name(t, who, sizeof who);
	const struct oom_alloc *al = t->about >= 0 ? t->allocs[t->about].al : NULL;
	double pct = al && t->limit != OOM_UNKNOWN && t->limit && al->size != OOM_UNKNOWN
		     ? 100.0 * (double)al->size / (double)t->limit : 0;
	switch (t->cls) {
	case TRIAGE_KERNEL:
		if (t->need == OOM_UNKNOWN || t->limit == OOM_UNKNOWN)
			snprintf(buf, cap, "a kernel's %s (on-chip memory, not HBM) ran out%s%s", r->space,
				 r->culprit ? " in " : "", r->culprit ? r->culprit : "");
		else
			snprintf(buf, cap, "a kernel's %s%s (on-chip memory, not HBM): %s asked of %s%s%s",
				 r->kind == OOM_TPU_SCOPED ? "scoped " : "", r->space, size_human(t->need, a),
				 size_human(t->limit, b), r->culprit ? " in " : "", r->culprit ? r->culprit : "");
		return;
	case TRIAGE_SPARSECORE:
		snprintf(buf, cap, "SparseCore needs %s beside TensorCore's %s, over the %s available",
			 triage_h(r->sparsecore, a), triage_h(r->tensorcore, b), triage_h(t->limit, c));
		return;
	case TRIAGE_ARGUMENTS:
		snprintf(buf, cap, "the arguments alone take %s of the %s limit: the parameters and optimizer "
			 "state do not fit, whatever the batch size", size_human(t->args, a), size_human(t->limit, b));
		return;
	case TRIAGE_HOST_UNDONE:
		snprintf(buf, cap, "%%%.*s (%s in pinned host memory) is copied whole into HBM by %%%.*s before "
			 "it is used: the offload saves nothing", IR_NM(t->host_param), size_human(t->host_bytes, a),
			 IR_NM(t->host_copy));
		return;
	case TRIAGE_LOOP_CARRY:
		snprintf(buf, cap, "a while loop carries %s in HBM, %s, for its whole run: residuals stacked over "
			 "the scan's steps", who, triage_h(al->size, a));
		return;
	case TRIAGE_PADDING:
		snprintf(buf, cap, "%s takes %s for %s of data (%.1fx): its padding, %s, is %s of the excess%s%s",
			 who, size_human(al->size, a), size_human(al->unpadded, b),
			 al->unpadded ? (double)al->size / (double)al->unpadded : 0.0, size_human(al->padding, c),
			 t->over != OOM_UNKNOWN && t->over && al->padding >= t->over ? "more than all"
			 : "a large share", t->pad_what[0] ? "; " : "", t->pad_what);
		return;
	case TRIAGE_FAR_OVER: {
		double x = (double)t->need / (double)t->limit;
		char times[40];
		snprintf(times, sizeof times, x < 1000 ? "%.0fx" : "more than 1000x", x);
		snprintf(buf, cap, "the program asks for %s, %s the %s limit: a shape is wrong, not the budget",
			 size_human(t->need, a), times, size_human(t->limit, b));
		return;
	}
	case TRIAGE_LARGE:
		snprintf(buf, cap, "%s alone takes %s, %.0f%% of the %s limit", who, size_human(al->size, a), pct,
			 size_human(t->limit, b));
		return;
	default:
		break;
	}
	int32_t big = triage_largest(t);
	if (big >= 0 && t->limit != OOM_UNKNOWN && t->limit)
		snprintf(buf, cap, "no single allocation dominates (the largest, %s, is %.0f%% of the limit): "
			 "the sum is over by %s", size_human(t->allocs[big].al->size, a),
			 100.0 * (double)t->allocs[big].al->size / (double)t->limit, triage_h(t->over, b));
	else if (t->limit == OOM_UNKNOWN)
		snprintf(buf, cap, "the limit is not in this part of the report (its first line, or --target / "
			 "--hbm, gives it): nothing shows one cause, so the general fixes follow");
	else
		snprintf(buf, cap, "the program's memory together is over the limit by %s", triage_h(t->over, b));
}

void triage_fact(const struct triage *t, char *buf, size_t cap)
{
	switch (t->cls) {
	case TRIAGE_NOT_FAILURE:
	case TRIAGE_FRAGMENTED:
	case TRIAGE_LIVE:
	case TRIAGE_GPU_RUNTIME:
		triage_fact_run(t, buf, cap);
		return;
	default:
		triage_fact_compile(t, buf, cap);
	}
}
