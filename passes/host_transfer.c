/* host_transfer.c - rule host-transfer: device<->host transfers (MEMORY_FACTS
 * §4): Python callbacks in every lowering, TPU pjrt send/recv, outfeed/infeed,
 * other host send/recv; bytes, loop and trip count, gathering shardings.
 * It does not look at offload annotations or S(5) (loop-carry-offload). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "attr.h"
#include "config.h"
#include "finding.h"
#include "literal.h"
#include "loop.h"
#include "pass.h"
#include "sharding.h"
#include "size.h"
#include "metadata.h"

#define HT_RULE pass_name_host_transfer   /* its name, from passes.def */

/* What a transfer is, from the custom-call target, op_name and handler. */
enum ht_mech {
	HT_DEBUG_PRINT,     /* op_name .../debug_print (jax >= 0.7.2) */
	HT_DEBUG_CALLBACK,  /* .../debug_callback: jax.debug.callback or an older debug.print */
	HT_IO_CALLBACK,
	HT_PURE_CALLBACK,
	HT_PY_CALLBACK,     /* a callback target whose op_name says nothing more */
	HT_OUTFEED,
	HT_INFEED,
	HT_HOST_SEND,       /* send/recv with is_host_transfer=true, other handler */
	HT_MULTISLICE,      /* handler xla_megascale_runtime: a DCN collective */
	HT_TF_HOST,         /* TF outside compilation (tf_rendezvous, host_compute_channel_*) */
};

static const char *const ht_mech_key[] = {
	"debug_print", "debug_callback", "io_callback", "pure_callback", "python_callback",
	"outfeed", "infeed", "host_send_recv", "multislice", "tf_host_compute",
};
static const char *const ht_mech_text[] = {
	"jax.debug.print", "jax.debug.print/callback", "io_callback",
	"pure_callback", "a Python host callback", "outfeed (lax.outfeed/host_callback)",
	"infeed (lax.infeed/host_callback)", "host send/recv",
	"multislice (DCN) transfer", "TF host-compute transfer",
};

/* Loop context of a computation: the innermost enclosing while. */
struct ht_loop {
	const struct hlo_instr *loop;   /* NULL: not inside a loop */
	uint32_t depth;
	int64_t trips;                  /* innermost loop's trip count, -1 unknown */
	int64_t total;                  /* product over the nest, -1 unknown */
};

/* One transfer, possibly several host sends/recvs of one TPU callback. */
struct ht_item {
	const struct hlo_instr *at;     /* first instruction */
	enum ht_mech mech;
	const char *target;             /* custom_call_target or handler (scratch), may be NULL */
	const char *op_name;            /* scratch, "" when none */
	uint64_t to_host, from_host;
	uint32_t nsend, nrecv;
	int64_t gather_device;          /* maximal sharding device, -1 none */
	bool manual;                    /* {manual}: each device sends its shard */
};

struct ht_state {
	struct hlo_module *m;
	struct pass_context *ctx;
	struct arena *scratch;
	struct ht_loop *loops;          /* per computation index, built on first use */
	struct ht_item *items;          /* of the current computation */
	uint32_t nitems, cap;
	int found;
};

/* ---- Bytes ---- */

/* Dense bytes of every array leaf (tokens and empty tuples are 0). */
static uint64_t ht_bytes(const struct hlo_shape *s)
{
	if (!s)
		return 0;
	if (s->type == PT_TUPLE) {
		uint64_t sum = 0;
		for (uint32_t k = 0; k < s->rank; k++) {
			sum = size_add(sum, ht_bytes(s->elems[k]));
		}
		return sum;
	}
	struct size_array a;
	size_array_of(&a, s);
	return size_dense(&a);
}

static uint64_t ht_operand_bytes(const struct hlo_instr *i, uint32_t from)
{
	uint64_t sum = 0;
	for (uint32_t k = from; k < i->noperands; k++)
		if (ir_operands(i)[k].instr)
			sum = size_add(sum, ht_bytes(ir_operands(i)[k].instr->shape));
	return sum;
}

/* ---- Attribute helpers ---- */

static bool ht_is(const char *s, size_t n, const char *lit)
{
	return s && strlen(lit) == n && !memcmp(s, lit, n);
}

static bool ht_bool_attr(const struct hlo_module *m, const struct hlo_instr *i, enum attr_key key)
{
	const struct hlo_attr *at = ir_attr(i, key);
	bool v = false;
	return at && attr_text_bool(m->file, ir_attr_value(at), &v) && v;
}

static const char *ht_op_name(struct ht_state *st, const struct hlo_instr *i)
{
	const struct hlo_attr *at = ir_attr(i, ATTR_METADATA);
	struct hlo_metadata md;
	if (at && metadata_decode(st->m->file, ir_attr_value(at), st->scratch, &md, NULL) && md.op_name)
		return md.op_name;
	return "";
}

static enum ht_mech ht_callback_kind(const char *op_name)
{
	if (strstr(op_name, "debug_print"))
		return HT_DEBUG_PRINT;
	if (strstr(op_name, "debug_callback"))
		return HT_DEBUG_CALLBACK;
	if (strstr(op_name, "io_callback"))
		return HT_IO_CALLBACK;
	if (strstr(op_name, "pure_callback"))
		return HT_PURE_CALLBACK;
	return HT_PY_CALLBACK;
}

/* Maximal (gather to one device) or manual sharding of the instruction. */
static void ht_sharding(struct ht_state *st, const struct hlo_instr *i, struct ht_item *it)
{
	struct hlo_sharding s;
	it->gather_device = -1;
	if (!sharding_of(st->m->file, i, st->scratch, &s, NULL))
		return;
	const struct hlo_sharding *leaf = &s;
	uint32_t n = 1;
	if (s.kind == SHARDING_TUPLE) {
		leaf = s.elems;
		n = s.nelems;
	}
	for (uint32_t k = 0; k < n; k++) {
		if (leaf[k].kind == SHARDING_MAXIMAL && it->gather_device < 0)
			it->gather_device = leaf[k].device;
		if (leaf[k].kind == SHARDING_MANUAL)
			it->manual = true;
	}
}

/* ---- Classification ---- */

static const char *const ht_callback_targets[] = {
	"xla_ffi_python_cpu_callback", "xla_ffi_python_gpu_callback",
	"xla_ffi_partitioned_python_cpu_callback", "xla_ffi_partitioned_python_gpu_callback",
	"xla_python_cpu_callback", "xla_python_gpu_callback", NULL,
};

static bool ht_custom_call(struct ht_state *st, const struct hlo_instr *i, struct ht_item *it)
{
	size_t n;
	const char *t = attr_plain(st->m->file, i, ATTR_CUSTOM_CALL_TARGET, &n);
	int which = -1;
	for (int k = 0; ht_callback_targets[k] && which < 0; k++)
		if (ht_is(t, n, ht_callback_targets[k]))
			which = k;
	if (which < 0)
		return false;
	it->target = ht_callback_targets[which];
	it->op_name = ht_op_name(st, i);
	it->mech = ht_callback_kind(it->op_name);
	/* Legacy (api_version=2) callbacks pass a u64 descriptor first. */
	uint32_t first = 0;
	if (which >= 4 && i->noperands && ir_operands(i)[0].instr) {
		const struct hlo_shape *s0 = ir_operands(i)[0].instr->shape;
		if (s0 && s0->rank == 0 && (s0->type == PT_U64 || s0->type == PT_S64))
			first = 1;
	}
	it->to_host = ht_operand_bytes(i, first);
	const struct hlo_shape *res = i->shape;
	if (i->op == OP_ASYNC_START)    /* ((operands), result, context) */
		res = ir_shape_tuple_elem(i->shape, 1);
	it->from_host = ht_bytes(res);
	return true;
}

/* send/recv with is_host_transfer=true, classified by handler name. */
static bool ht_send_recv(struct ht_state *st, const struct hlo_instr *i, struct ht_item *it)
{
	if (!ht_bool_attr(st->m, i, ATTR_IS_HOST_TRANSFER))
		return false;
	it->op_name = ht_op_name(st, i);
	if (i->op == OP_SEND) {
		it->nsend = 1;
		it->to_host = i->noperands && ir_operands(i)[0].instr ? ht_bytes(ir_operands(i)[0].instr->shape) : 0;
	} else {
		it->nrecv = 1;
		it->from_host = ht_bytes(ir_shape_tuple_elem(i->shape, 0));
	}
	const char *handler = NULL, *rendezvous = NULL;
	const struct hlo_attr *at = ir_attr(i, ATTR_FRONTEND_ATTRIBUTES);
	struct hlo_frontend_attrs fa;
	if (at && metadata_frontend(st->m->file, ir_attr_value(at), st->scratch, &fa, NULL)) {
		const struct hlo_frontend_attr *h = metadata_frontend_get(&fa, "_xla_host_transfer_handler_name");
		const struct hlo_frontend_attr *r = metadata_frontend_get(&fa, "_xla_host_transfer_rendezvous");
		handler = h && !h->json ? h->value : NULL;
		rendezvous = r && !r->json ? r->value : NULL;
	}
	it->target = handler;
	if (handler && !strcmp(handler, "pjrt_rendezvous"))
		it->mech = ht_callback_kind(it->op_name);
	else if (handler && !strcmp(handler, "xla_megascale_runtime"))
		it->mech = HT_MULTISLICE;
	else if ((handler && !strcmp(handler, "tf_rendezvous")) || (!handler && rendezvous))
		/* TF outside compilation names its channels host_compute_channel_*,
		 * if_predicate_channel_*; JAX always sets a handler. */
		it->mech = HT_TF_HOST;
	else
		it->mech = HT_HOST_SEND;
	return true;
}

static bool ht_classify(struct ht_state *st, const struct hlo_instr *i, struct ht_item *it)
{
	memset(it, 0, sizeof *it);
	it->at = i;
	it->op_name = "";
	bool ok = false;
	switch (i->op) {
	case OP_CUSTOM_CALL:
		ok = ht_custom_call(st, i, it);
		break;
	case OP_ASYNC_START:
		ok = i->async_wrapped == OP_CUSTOM_CALL && ht_custom_call(st, i, it);
		break;
	case OP_SEND:
	case OP_RECV:
		ok = ht_send_recv(st, i, it);
		break;
	case OP_OUTFEED:
		it->mech = HT_OUTFEED;
		it->to_host = i->noperands && ir_operands(i)[0].instr ? ht_bytes(ir_operands(i)[0].instr->shape) : 0;
		it->op_name = ht_op_name(st, i);
		ok = true;
		break;
	case OP_INFEED:
		it->mech = HT_INFEED;
		it->from_host = ht_bytes(ir_shape_tuple_elem(i->shape, 0));
		it->op_name = ht_op_name(st, i);
		ok = true;
		break;
	default:
		break;
	}
	if (ok)
		ht_sharding(st, i, it);
	return ok;
}

/* ---- Loops and trip counts (src/model/loop.c) ---- */


/* Loop context of every computation, callers before callees (Kahn's order
 * over the call graph, so deep nests need no recursion).  A computation
 * reached from several places takes its deepest loop context. */
static void ht_loops_build(struct ht_state *st)
{
	struct hlo_module *m = st->m;
	uint32_t n = m->ncomps;
	st->loops = xcalloc(n + 1, sizeof *st->loops);
	uint32_t *indeg = xcalloc(n + 1, sizeof *indeg);
	uint32_t *queue = xcalloc(n + 1, sizeof *queue);
	for (uint32_t c = 0; c < n; c++) {
		st->loops[c].trips = st->loops[c].total = -1;
		for (uint32_t k = 0; k < m->comps[c]->ninstrs; k++) {
			const struct hlo_instr *i = m->comps[c]->instrs[k];
			for (uint32_t j = 0; j < i->ncallees; j++)
				indeg[ir_callees(i)[j]->index]++;
		}
	}
	uint32_t head = 0, tail = 0;
	for (uint32_t c = 0; c < n; c++)
		if (!indeg[c])
			queue[tail++] = c;
	while (head < tail) {
		uint32_t c = queue[head++];
		const struct hlo_comp *comp = m->comps[c];
		const struct ht_loop outer = st->loops[c];
		for (uint32_t k = 0; k < comp->ninstrs; k++) {
			const struct hlo_instr *i = comp->instrs[k];
			if (!i->ncallees)
				continue;
			struct ht_loop inner = outer;
			if (i->op == OP_WHILE) {
				inner.loop = i;
				inner.depth = outer.depth + 1;
				inner.trips = loop_trip_count(m, i);
				inner.total = inner.trips < 0 || (outer.depth && outer.total < 0) ? -1
					      : outer.depth ? (int64_t)size_mul((uint64_t)outer.total, (uint64_t)inner.trips)
							    : inner.trips;
				if (inner.total > INT64_MAX / 2)
					inner.total = -1;
			}
			for (uint32_t j = 0; j < i->ncallees; j++) {
				uint32_t d = ir_callees(i)[j]->index;
				if (inner.depth > st->loops[d].depth)
					st->loops[d] = inner;
				if (--indeg[d] == 0)
					queue[tail++] = d;
			}
		}
	}
	free(indeg);
	free(queue);
}

/* ---- Findings ---- */

static bool ht_is_note(enum ht_mech k)
{
	return k == HT_MULTISLICE || k == HT_TF_HOST;
}

static const char *ht_fix(enum ht_mech k, bool in_loop)
{
	switch (k) {
	case HT_DEBUG_PRINT:
	case HT_DEBUG_CALLBACK:
		return in_loop ? "fix: remove the jax.debug.print/debug.callback, or move it out of the scan or "
				 "loop body (print the stacked result once after the loop)"
			       : "fix: remove the leftover jax.debug.print/debug.callback, or guard it with a "
				 "Python-level flag so production traces do not contain it";
	case HT_IO_CALLBACK:
	case HT_PURE_CALLBACK:
	case HT_PY_CALLBACK:
		return in_loop ? "fix: call back once after the loop on values collected in the carry, or "
				 "replace the callback with jax.numpy code that stays on the device"
			       : "fix: replace the callback with jax.numpy code that stays on the device, or "
				 "make sure the transfer is intended";
	case HT_OUTFEED:
	case HT_INFEED:
		return "fix: the legacy jax.experimental.host_callback (removed in jax 0.4.35) emitted "
		       "outfeed/infeed; use jax.debug.callback or io_callback, or drop the transfer";
	default:
		return NULL;
	}
}

/* Fingerprint key: mechanism, what goes out and what comes back (shapes
 * without layout), e.g. "outfeed:f32[64]->".  A custom call's own result
 * "()" or an outfeed's token[] would not tell two transfers apart. */
static void ht_set_key(struct ht_state *st, struct finding *f, const struct ht_item *it)
{
	char key[512];
	size_t n = (size_t)snprintf(key, sizeof key, "%s:", ht_mech_key[it->mech]);
	const struct hlo_instr *i = it->at;
	for (uint32_t k = 0; k < i->noperands && n + 1 < sizeof key; k++) {
		if (k)
			key[n++] = ',';
		if (ir_operands(i)[k].instr)
			n += ir_shape_format(ir_operands(i)[k].instr->shape, false, key + n, sizeof key - n);
	}
	if (n < sizeof key)
		n += (size_t)snprintf(key + n, sizeof key - n, "->");
	if (n < sizeof key && i->op != OP_SEND && i->op != OP_OUTFEED)
		ir_shape_format(i->shape, false, key + n, sizeof key - n);
	key[sizeof key - 1] = 0;
	finding_set_key(st->ctx->findings, f, key);
}

static void ht_report(struct ht_state *st, const struct ht_item *it)
{
	struct pass_context *ctx = st->ctx;
	const struct config *cfg = ctx->config;
	const struct hlo_instr *i = it->at;
	uint64_t bytes = it->to_host > UINT64_MAX - it->from_host ? UINT64_MAX : it->to_host + it->from_host;
	if (cfg && (int64_t)bytes < config_int(cfg, CONFIG_OPT_HOST_TRANSFER_MIN_BYTES))
		return;
	if (!st->loops)
		ht_loops_build(st);
	const struct ht_loop *lp = &st->loops[i->comp->index];
	bool in_loop = lp->loop != NULL;
	int64_t loop_error = cfg ? config_int(cfg, CONFIG_OPT_HOST_TRANSFER_LOOP_ERROR_BYTES) : INT64_MAX;
	enum finding_severity sev = ht_is_note(it->mech) ? FINDING_NOTE
				    : in_loop && (int64_t)bytes >= loop_error ? FINDING_ERROR
									      : FINDING_WARNING;
	char hb[16], tb[16], fb[16];
	size_human(bytes, hb);
	/* Direction from the bytes; a 0-byte transfer from what moves it. */
	bool in = it->from_host || (!it->to_host && (it->mech == HT_INFEED || it->nrecv));
	const char *verb = it->to_host && it->from_host ? "moves" : in ? "receives" : "sends";
	const char *dir = it->to_host && it->from_host ? "to/from the host"
			  : in ? "from the host" : "to the host";
	const char *what = ht_mech_text[it->mech];
	struct finding_sink *fs = ctx->findings;
	struct finding *f;
	if (ht_is_note(it->mech))
		f = finding_add(fs, HT_RULE, sev, st->m, i, "%s %s %s %s%s", what, verb, hb, dir,
				in_loop ? " on every loop step" : "");
	else if (in_loop && lp->trips >= 0)
		f = finding_add(fs, HT_RULE, sev, st->m, i, "%s %s %s %s on %lld loop steps", what, verb, hb, dir,
				(long long)lp->trips);
	else if (in_loop)
		f = finding_add(fs, HT_RULE, sev, st->m, i, "%s %s %s %s on every loop step", what, verb, hb, dir);
	else
		f = finding_add(fs, HT_RULE, sev, st->m, i, "%s %s %s %s", what, verb, hb, dir);
	finding_set_bytes(f, (int64_t)(bytes > INT64_MAX ? INT64_MAX : bytes));
	ht_set_key(st, f, it);

	/* Notes: mechanism, sizes, loop, sharding, fix. */
	if (it->nsend + it->nrecv > 1)
		finding_note(fs, f, "%u host send%s and %u recv%s of one callback (handler %s)", it->nsend,
			     it->nsend == 1 ? "" : "s", it->nrecv, it->nrecv == 1 ? "" : "s",
			     it->target ? it->target : "none");
	else if (it->target && in_loop)
		finding_note(fs, f, "%s %s", it->nsend + it->nrecv ? "host transfer handler" : "custom_call_target",
			     it->target);
	else if (it->target)
		finding_fact(fs, f, "%s %s", it->nsend + it->nrecv ? "host transfer handler" : "custom_call_target",
			     it->target);
	if (it->to_host && it->from_host)
		finding_note(fs, f, "%s to the host, %s back", size_human(it->to_host, tb),
			     size_human(it->from_host, fb));
	if (in_loop) {
		char total[16];
		int wn = (int)ir_name_len(lp->loop);
		const char *wname = ir_name(lp->loop);
		char outer[64] = "";
		if (lp->depth > 1)
			snprintf(outer, sizeof outer, " inside %u more loop%s", lp->depth - 1, lp->depth > 2 ? "s" : "");
		if (lp->total >= 0 && lp->depth > 1)
			finding_fact(fs, f, "the enclosing while %%%.*s runs %lld times%s (%lld executions in all): "
				     "%s moved in total", wn, wname, (long long)lp->trips, outer, (long long)lp->total,
				     size_human(size_mul(bytes, (uint64_t)lp->total), total));
		else if (lp->total >= 0)
			finding_fact(fs, f, "the enclosing while %%%.*s runs %lld times: %s moved in total", wn, wname,
				     (long long)lp->trips, size_human(size_mul(bytes, (uint64_t)lp->total), total));
		else if (lp->trips >= 0)
			finding_fact(fs, f, "the enclosing while %%%.*s runs %lld times%s whose trip count is unknown",
				     wn, wname, (long long)lp->trips, outer);
		else
			finding_fact(fs, f, "the enclosing while %%%.*s has no known trip count (no known_trip_count "
				     "and no 'i < N' condition)%s", wn, wname, outer);
		if (!ht_is_note(it->mech))
			finding_note(fs, f, "each step waits for the host round trip, serializing the loop");
	}
	if (it->gather_device >= 0 && (st->m->num_partitions > 1 || st->m->replica_count > 1))
		finding_note(fs, f, "sharding={maximal device=%lld}: the whole array is gathered to device %lld "
			     "before it goes to the host", (long long)it->gather_device, (long long)it->gather_device);
	else if (it->manual)
		finding_note(fs, f, "sharding={manual}: every device sends its own shard");
	const char *fix = ht_fix(it->mech, in_loop);
	if (fix)
		finding_fix(fs, f, "%s", fix);

	finding_field_string(fs, f, "mechanism", ht_mech_key[it->mech]);
	finding_field_bytes(fs, f, "to_host_bytes", it->to_host);
	finding_field_bytes(fs, f, "from_host_bytes", it->from_host);
	finding_field_bool(fs, f, "in_loop", in_loop);
	if (in_loop && lp->trips >= 0)
		finding_field_int(fs, f, "trip_count", lp->trips);
	else
		finding_field_null(fs, f, "trip_count");
	if (in_loop)
		finding_field_bytes(fs, f, "bytes_per_step", bytes);
	else
		finding_field_null(fs, f, "bytes_per_step");
	if (!in_loop)
		finding_field_bytes(fs, f, "total_bytes", bytes);
	else if (lp->total >= 0)
		finding_field_bytes(fs, f, "total_bytes", size_mul(bytes, (uint64_t)lp->total));
	else
		finding_field_null(fs, f, "total_bytes");
	if (it->gather_device >= 0)
		finding_field_int(fs, f, "gather_device", it->gather_device);
	else
		finding_field_null(fs, f, "gather_device");
	st->found++;
}

/* ---- Walk ---- */

static bool ht_want(uint32_t contains, bool entry, void *arg)
{
	(void)entry;
	(void)arg;
	return contains & (IR_CONTAINS_CUSTOM_CALL | IR_CONTAINS_HOST_IO);
}

static enum walk_result ht_comp(struct hlo_comp *c, void *arg)
{
	(void)c;
	struct ht_state *st = arg;
	st->nitems = 0;
	return WALK_CONTINUE;
}

static enum walk_result ht_instr(struct hlo_instr *i, void *arg)
{
	struct ht_state *st = arg;
	struct ht_item it;
	if (!ht_classify(st, i, &it))
		return WALK_CONTINUE;
	/* The host sends and recvs of one TPU callback share its op_name:
	 * report them once, at the first. */
	if ((it.nsend || it.nrecv) && it.op_name[0] && !ht_is_note(it.mech))
		for (uint32_t k = 0; k < st->nitems; k++) {
			struct ht_item *g = &st->items[k];
			if ((g->nsend || g->nrecv) && g->mech == it.mech && !strcmp(g->op_name, it.op_name)) {
				g->to_host += it.to_host;
				g->from_host += it.from_host;
				g->nsend += it.nsend;
				g->nrecv += it.nrecv;
				if (g->gather_device < 0)
					g->gather_device = it.gather_device;
				return WALK_CONTINUE;
			}
		}
	if (st->nitems == st->cap) {
		st->cap = st->cap ? st->cap * 2 : 8;
		st->items = xreallocarray(st->items, st->cap, sizeof *st->items);
	}
	st->items[st->nitems++] = it;
	return WALK_CONTINUE;
}

static void ht_comp_end(struct hlo_comp *c, void *arg)
{
	(void)c;
	struct ht_state *st = arg;
	for (uint32_t k = 0; k < st->nitems; k++)
		ht_report(st, &st->items[k]);
	st->nitems = 0;
}

static int ht_run(struct hlo_module *m, struct pass_context *ctx)
{
	if (!ctx->findings)
		return 0;
	struct ht_state st = { .m = m, .ctx = ctx, .scratch = &m->file->arena };
	/* op_name strings of the current computation's items live in scratch
	 * until its findings are emitted (they copy what they keep). */
	struct arena_mark mark = arena_mark(st.scratch);
	static const struct ir_visitor v = { .want = ht_want, .comp = ht_comp, .instr = ht_instr, .comp_end = ht_comp_end };
	ir_walk(m, &v, &st);
	arena_release(st.scratch, mark);
	free(st.items);
	free(st.loops);
	return st.found;
}

const struct pass pass_host_transfer = {
	.name = HT_RULE,
	.summary = "device<->host transfers: debug prints, Python callbacks, outfeed/infeed, host send/recv",
	.rewrites = false,
	.run = ht_run,
};
