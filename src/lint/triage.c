/* triage.c - classifies an OOM report as the XLA TPU out-of-memory guide
 * does (SparseCore imbalance, one unexpectedly large allocation, an
 * aggregate over the limit) with its fixes, and finds each listed
 * allocation's instruction in a module.  It does not read logs (oomlog.c)
 * or print (cmd_oom.c). */
#include "triage.h"
#include <stdio.h>
#include <string.h>
#include "metadata.h"

/* ---- Classes and fixes (docs/oom.md) ---- */

const char *triage_class_name(enum triage_class c)
{
	switch (c) {
	case TRIAGE_SPARSECORE: return "sparsecore-imbalance";
	case TRIAGE_LARGE: return "large-allocation";
	case TRIAGE_AGGREGATE: return "aggregate";
	}
	return "?";
}

const char *triage_class_what(enum triage_class c)
{
	switch (c) {
	case TRIAGE_SPARSECORE:
		return "SparseCore and TensorCore together need more than the device has";
	case TRIAGE_LARGE:
		return "one allocation takes more than half of the limit: it is unexpected, not the sum";
	case TRIAGE_AGGREGATE:
		return "no single allocation dominates: the sum of many is over the limit";
	}
	return "";
}

/* The fixes, each written once; the lists below pick them. */
static const char triage_fix_batch[] = "lower the per-device batch size, or use more devices (a bigger topology)";
static const char triage_fix_donate[] =
	"donate the inputs you do not need afterwards (jax.jit(..., donate_argnums=...); rule missed-donation)";
static const char triage_fix_bf16[] = "keep activations and optimizer state in bf16 where accuracy allows";
static const char triage_fix_remat[] =
	"rematerialize: jax.checkpoint / remat policies trade compute for activation memory";
static const char triage_fix_offload[] =
	"offload scan residuals or optimizer state to host memory (rule loop-carry-offload; S(5))";
static const char triage_fix_padding[] =
	"cut padding: shapes whose minor dimensions are not multiples of the TPU tile (rule padding-waste)";
static const char triage_fix_callback[] =
	"look for a leftover jax.debug.print / host callback that keeps a whole array alive "
	"(hlolint check, rule host-transfer)";
static const char triage_fix_shard[] =
	"shard it: a replicated or badly sharded array is full size on every device "
	"(rule replicated-oversized; with_sharding_constraint on the intermediate)";
static const char triage_fix_shape[] =
	"check the shape: an accidental broadcast or outer product (a missing reduction, vmap over the "
	"wrong axis) makes one array far larger than intended";
static const char triage_fix_sc_pad[] =
	"pad narrow embedding features to 32 bytes: SparseCore rounds each row up, so a narrow table "
	"costs more than its size";
static const char triage_fix_sc_serial[] =
	"set --xla_sc_num_serialized_tables_to_optimize_hbm to serialize tables and lower SparseCore's peak";
static const char triage_fix_sc_iter[] =
	"lower maximum_parallel_iterations of the embedding loop (fewer iterations in flight)";
static const char triage_fix_sc_move[] =
	"move work or tables between SparseCore and TensorCore so neither side alone overflows";

const char *const *triage_fixes(enum triage_class c, enum oom_kind k)
{
	static const char *const sc[] = { triage_fix_sc_pad, triage_fix_sc_serial, triage_fix_sc_iter,
					  triage_fix_sc_move, NULL };
	static const char *const large[] = { triage_fix_callback, triage_fix_shard, triage_fix_shape, NULL };
	static const char *const agg[] = { triage_fix_batch, triage_fix_donate, triage_fix_bf16, triage_fix_remat,
					   triage_fix_offload, triage_fix_padding, NULL };
	/* GPUs pad no tiles. */
	static const char *const agg_gpu[] = { triage_fix_batch, triage_fix_donate, triage_fix_bf16,
					       triage_fix_remat, triage_fix_offload, NULL };
	switch (c) {
	case TRIAGE_SPARSECORE: return sc;
	case TRIAGE_LARGE: return large;
	case TRIAGE_AGGREGATE: break;
	}
	return k == OOM_GPU ? agg_gpu : agg;
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

void triage_classify(const struct oom_report *r, struct triage *t)
{
	memset(t, 0, sizeof *t);
	t->r = r;
	t->limit = r->capacity;
	t->cls = TRIAGE_AGGREGATE;
	if (r->kind == OOM_TPU_SC && r->sparsecore != OOM_UNKNOWN && r->sparsecore > 0) {
		t->cls = TRIAGE_SPARSECORE;
		return;
	}
	for (uint32_t k = 0; k < r->nallocs; k++)
		if (!t->big || r->allocs[k].size > t->big->size)
			t->big = &r->allocs[k];
	if (t->big && t->limit != OOM_UNKNOWN && t->big->size > t->limit / 2)
		t->cls = TRIAGE_LARGE;
	else
		t->big = NULL;
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

void triage_map(struct triage *t, struct hlo_module *m, struct arena *a)
{
	const struct oom_report *r = t->r;
	t->allocs = arena_array(a, r->nallocs ? r->nallocs : 1, sizeof *t->allocs);
	t->mapped = 0;
	for (uint32_t k = 0; k < r->nallocs; k++) {
		struct triage_alloc *x = &t->allocs[k];
		x->al = &r->allocs[k];
		x->instr = m ? triage_find(m, x->al, a, &x->how) : NULL;
		t->mapped += x->instr != NULL;
	}
	t->nallocs = r->nallocs;
}

uint32_t triage_matches(const struct oom_report *r, struct hlo_module *m, struct arena *a)
{
	uint32_t n = 0;
	const char *how;
	for (uint32_t k = 0; k < r->nallocs; k++)
		n += triage_find(m, &r->allocs[k], a, &how) != NULL;
	return n;
}

/* ---- Without a list: the model's largest buffers ---- */

void triage_from_model(struct triage *t, const struct mem_model *mm, uint32_t n, struct arena *a)
{
	if (t->r->nallocs || !mm || !mm->nbuffers)
		return;
	/* The report is about device memory: host buffers (S(5), S(6)) are left out. */
	const struct mem_buffer **all = arena_array(a, mm->nbuffers, sizeof *all);
	uint32_t nall = mem_largest(mm, all, 0), m = 0;
	const struct mem_buffer **top = arena_array(a, n, sizeof *top);
	for (uint32_t k = 0; k < nall && m < n; k++)
		if (mem_space_class(all[k]->memory_space) == MEM_SPACE_DEVICE)
			top[m++] = all[k];
	n = m;
	t->allocs = arena_array(a, n ? n : 1, sizeof *t->allocs);
	t->big = NULL;
	for (uint32_t k = 0; k < n; k++) {
		struct oom_alloc *al = arena_alloc(a, sizeof *al);
		memset(al, 0, sizeof *al);
		al->rank = k + 1;
		al->line = t->r->line;
		al->size = top[k]->bytes;
		al->unpadded = top[k]->unpadded;
		al->padding = top[k]->bytes > top[k]->unpadded ? top[k]->bytes - top[k]->unpadded : 0;
		char buf[512];
		ir_shape_format(top[k]->shape, true, buf, sizeof buf);
		al->shape = arena_strndup(a, buf, strlen(buf));
		al->type = mem_kind_name((enum mem_kind)top[k]->kind);
		al->name = arena_strndup(a, ir_name(top[k]->def), ir_name_len(top[k]->def));
		t->allocs[k] = (struct triage_alloc){ al, top[k]->def, "hlolint's model (the report lists none)" };
		if (!t->big || al->size > t->big->size)
			t->big = al;
	}
	t->nallocs = n;
	t->mapped = n;
	t->from_model = true;
	if (t->cls != TRIAGE_SPARSECORE)
		t->cls = t->big && t->limit != OOM_UNKNOWN && t->big->size > t->limit / 2 ? TRIAGE_LARGE
											 : TRIAGE_AGGREGATE;
	if (t->cls != TRIAGE_LARGE)
		t->big = NULL;
}
