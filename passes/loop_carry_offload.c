/* loop_carry_offload.c - rule loop-carry-offload: scan residuals (stacked
 * carries written at the induction variable, read back by a later loop) in
 * device memory, with offload intent or a large share of HBM; left-over
 * offload annotations of a scheduled module.  Carries an annotation already
 * sends to the host are the compiler's to offload: not reported. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "attr.h"
#include "config.h"
#include "finding.h"
#include "loop.h"
#include "flow.h"
#include "mem.h"
#include "pass.h"
#include "peak.h"
#include "size.h"
#include "metadata.h"

#define LCO_RULE pass_name_loop_carry_offload   /* its name, from passes.def */

#define LCO_DEPTH 12

enum lco_annot { LCO_NOT, LCO_TO_HOST, LCO_TO_DEVICE, LCO_OTHER };

struct lco_state {
	struct hlo_module *m;
	struct pass_context *ctx;
	const struct mem_model *mm;
	const struct hlo_instr **whiles, **annots;
	uint32_t nwhiles, capwhiles, nannots, capannots;
	const struct hlo_instr *intent;  /* first instruction showing offload intent */
	const char *intent_what;
	bool intent_s5_buffer;           /* an S(5) buffer in the model */
	struct peak_set pk;              /* built on the first finding */
	bool have_peak;
	const struct hlo_instr **sole;   /* per carry slot of the current body (lco_slot_users) */
	uint32_t capsole;
	const struct hlo_instr *gte_w;   /* lco_reader's index of the while's result users */
	const struct hlo_instr **gte_of;
	uint32_t capgte;
	const struct hlo_comp *ds_body;  /* ... and of the reading body's slot readers */
	const struct hlo_instr **ds_of;
	uint32_t capds, nds;
	struct arena arena;              /* the leaf numbering's tables */
	struct alias_state al;
	int found;
};

/* ---- Offload annotations ---- */

/* i carries frontend_attributes={_xla_buffer_placement=...}, decoded. */
static bool lco_has_placement(const struct hlo_module *m, const struct hlo_instr *i)
{
	const struct hlo_attr *fa = ir_attr(i, ATTR_FRONTEND_ATTRIBUTES);
	if (!fa)
		return false;
	struct arena a;
	arena_init(&a);
	struct hlo_frontend_attrs attrs;
	bool has = metadata_frontend(m->file, ir_attr_value(fa), &a, &attrs, NULL) &&
		   metadata_frontend_get(&attrs, "_xla_buffer_placement");
	arena_free(&a);
	return has;
}

/* The placement a custom call asks for, from the memory model's reading. */
static enum lco_annot lco_annotation(const struct hlo_module *m, const struct hlo_instr *i)
{
	switch (flow_placement(m->file, i)) {
	case FLOW_PLACE_HOST: return LCO_TO_HOST;
	case FLOW_PLACE_DEVICE: return LCO_TO_DEVICE;
	case FLOW_PLACE_OTHER: return LCO_OTHER;
	case FLOW_PLACE_NONE: break;
	}
	return LCO_NOT;
}

static void lco_push(const struct hlo_instr ***v, uint32_t *n, uint32_t *cap, const struct hlo_instr *i)
{
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		*v = xreallocarray(*v, *cap, sizeof **v);
	}
	(*v)[(*n)++] = i;
}

/* Whiles and offload intent come from these kinds of instruction only. */
static bool lco_want(uint32_t contains, bool entry, void *arg)
{
	(void)entry;
	(void)arg;
	return contains & (IR_CONTAINS_WHILE | IR_CONTAINS_CUSTOM_CALL | IR_CONTAINS_HOST_SPACE | IR_CONTAINS_FRONTEND);
}

static enum walk_result lco_scan(struct hlo_instr *i, void *arg)
{
	struct lco_state *st = arg;
	if (i->op == OP_WHILE)
		lco_push(&st->whiles, &st->nwhiles, &st->capwhiles, i);
	enum lco_annot a = lco_annotation(st->m, i);
	if (a != LCO_NOT) {
		lco_push(&st->annots, &st->nannots, &st->capannots, i);
		if (!st->intent) {
			st->intent = i;
			st->intent_what = a == LCO_TO_HOST ? "an offload to host" : "a memory placement annotation";
		}
	} else if (!st->intent) {
		if (ir_shape_in_host(i->shape)) {
			st->intent = i;
			st->intent_what = "a host-memory (S(5)) array";
		} else if (lco_has_placement(st->m, i)) {
			st->intent = i;
			st->intent_what = "an _xla_buffer_placement attribute";
		}
	}
	return WALK_CONTINUE;
}

/* ---- Following values ---- */

/* A fused computation's parameter seen from the fusion that calls it. */
static const struct hlo_instr *lco_outside(const struct hlo_instr *x)
{
	if (!x || x->op != OP_PARAMETER || x->comp->is_entry || ir_comp_ncallers(x->comp) != 1)
		return NULL;
	const struct hlo_instr *f = ir_comp_caller(x->comp, 0);
	if (f->op != OP_FUSION || x->number < 0 || (uint64_t)x->number >= f->noperands)
		return NULL;
	return ir_operands(f)[x->number].instr;
}

static const struct hlo_instr *lco_strip(const struct hlo_instr *x)
{
	for (int d = 0; x && d < LCO_DEPTH; d++) {
		if (x->op == OP_BITCAST && x->noperands)
			x = ir_operands(x)[0].instr;
		else if (x->op == OP_PARAMETER && lco_outside(x))
			x = lco_outside(x);
		else
			break;
	}
	return x;
}

/* True when x is computed from the induction variable (gte(p, iv) of body)
 * and constants only, through small arithmetic (select/compare/add/...). */
static bool lco_from_iv(const struct lco_state *st, const struct hlo_comp *body, int64_t iv,
			const struct hlo_instr *x, int depth, bool *saw)
{
	if (!x || depth > LCO_DEPTH)
		return false;
	if (x->op == OP_PARAMETER) {
		const struct hlo_instr *o = lco_outside(x);
		return o && lco_from_iv(st, body, iv, o, depth + 1, saw);
	}
	if (x->op == OP_GET_TUPLE_ELEMENT) {
		if (x->comp == body && loop_param_index(body, x) == iv) {
			*saw = true;
			return true;
		}
		return false;
	}
	if (x->op == OP_CONSTANT || x->op == OP_IOTA)
		return true;
	if (!x->shape || x->shape->type == PT_TUPLE || !x->noperands || x->ncallees)
		return false;
	for (uint32_t k = 0; k < x->noperands; k++)
		if (!lco_from_iv(st, body, iv, ir_operands(x)[k].instr, depth + 1, saw))
			return false;
	return true;
}

static bool lco_constant(const struct lco_state *st, const struct hlo_instr *x)
{
	int64_t v;
	x = lco_strip(x);
	return x && (loop_const_int(st->m, x, &v) || x->op == OP_CONSTANT);
}

/* The update of a carry slot: the body root's operand for slot k, a
 * dynamic-update-slice of gte(p, k) (or a fusion whose root is one).  Fills
 * the DUS as seen in the body (dus: the instruction to report), the
 * update value and the start indices' owner. */
struct lco_write {
	const struct hlo_instr *at;     /* root operand: the DUS or the fusion */
	const struct hlo_instr *dus;    /* the dynamic-update-slice (maybe fused) */
	const struct hlo_instr *base;   /* gte(p, k) */
	const struct hlo_instr *update; /* the slice written */
};

static bool lco_write_of(const struct hlo_comp *body, const struct hlo_instr *r, int64_t k, struct lco_write *w)
{
	memset(w, 0, sizeof *w);
	w->at = r;
	const struct hlo_instr *d = r;
	if (r->op == OP_FUSION && r->ncallees == 1 && ir_callees(r)[0]->root) {
		d = ir_callees(r)[0]->root;
		while (d && d->op == OP_BITCAST && d->noperands)
			d = ir_operands(d)[0].instr;
	}
	if (!d || d->op != OP_DYNAMIC_UPDATE_SLICE || d->noperands < 3)
		return false;
	const struct hlo_instr *base = lco_strip(ir_operands(d)[0].instr);
	if (!base || base->comp != body || loop_param_index(body, base) != k)
		return false;
	w->dus = d;
	w->base = base;
	w->update = ir_operands(d)[1].instr;
	return true;
}

/* The root of a call's callee, or NULL. */
static const struct hlo_instr *lco_callee_root(const struct hlo_instr *x)
{
	return x && x->op == OP_CALL && x->ncallees == 1 ? ir_callees(x)[0]->root : NULL;
}

/* The value written comes from an offload annotation: back through
 * reshapes, bitcasts, copies, converts, fusion boundaries, calls (the
 * callee's root), tuples, get-tuple-elements and opt-barriers, as XLA
 * sees it once calls are inlined. */
static bool lco_annotated(const struct lco_state *st, const struct hlo_instr *x)
{
	int64_t elem = -1;   /* pending get-tuple-element index */
	for (int d = 0; x && d < 4 * LCO_DEPTH; d++) {
		if (elem < 0 && lco_annotation(st->m, x) == LCO_TO_HOST)
			return true;
		switch (x->op) {
		case OP_PARAMETER:
			if (elem >= 0)
				return false;
			x = lco_outside(x);
			continue;
		case OP_GET_TUPLE_ELEMENT:
			if (elem >= 0 || !x->noperands)
				return false;
			elem = x->number;
			x = ir_operands(x)[0].instr;
			continue;
		case OP_TUPLE:
			if (elem < 0 || (uint64_t)elem >= x->noperands)
				return false;
			x = ir_operands(x)[elem].instr;
			elem = -1;
			continue;
		case OP_CALL:
			x = lco_callee_root(x);
			continue;
		case OP_OPT_BARRIER:
			x = x->noperands == 1 ? ir_operands(x)[0].instr : NULL;
			continue;
		case OP_RESHAPE:
		case OP_BITCAST:
		case OP_COPY:
		case OP_CONVERT:
		case OP_TRANSPOSE:
		case OP_BROADCAST:
			if (elem >= 0 || x->noperands != 1)
				return false;
			x = ir_operands(x)[0].instr;
			continue;
		default:
			return false;
		}
	}
	return false;
}

#define LCO_MANY ((const struct hlo_instr *)&lco_many)
static const char lco_many;

/* For every carry slot k of body, the one instruction that uses it
 * (through get-tuple-elements and bitcasts): sole[k], NULL when unused,
 * LCO_MANY when used by several or when the whole carry is used (then
 * nothing can be told apart).  One pass over the parameter's users. */
static void lco_slot_users(struct lco_state *st, const struct hlo_comp *body, uint32_t nslots)
{
	if (nslots > st->capsole) {
		st->capsole = nslots;
		st->sole = xreallocarray(st->sole, nslots, sizeof *st->sole);
	}
	for (uint32_t k = 0; k < nslots; k++)
		st->sole[k] = NULL;
	const struct hlo_instr *p = body->params[0];
	for (uint32_t u = 0; u < p->nusers; u++) {
		const struct hlo_instr *g = ir_user(p, u);
		if (g->op != OP_GET_TUPLE_ELEMENT) {
			for (uint32_t k = 0; k < nslots; k++)
				st->sole[k] = LCO_MANY;
			return;
		}
		if (g->number < 0 || (uint64_t)g->number >= nslots)
			continue;
		const struct hlo_instr **slot = &st->sole[g->number];
		for (uint32_t j = 0; j < g->nusers; j++) {
			const struct hlo_instr *x = ir_user(g, j);
			while (x->op == OP_BITCAST && x->nusers == 1)
				x = ir_user(x, 0);
			*slot = !*slot || *slot == x ? x : LCO_MANY;
		}
	}
}

/* gte(p, k) of body is only written, never read: its one user is the
 * write (the dynamic-update-slice or the fusion doing it). */
static bool lco_write_only(const struct lco_state *st, int64_t k, const struct lco_write *w)
{
	const struct hlo_instr *x = st->sole[k];
	return x == w->at || x == w->dus;
}

/* first[k] = the first user of v with get-tuple-element index k (n
 * slots), in one pass over v's users. */
static void lco_index_users(const struct hlo_instr *v, const struct hlo_instr **first, uint32_t n, bool reader)
{
	for (uint32_t k = 0; k < n; k++)
		first[k] = NULL;
	for (uint32_t u = 0; u < v->nusers; u++) {
		const struct hlo_instr *g = ir_user(v, u);
		if (g->op != OP_GET_TUPLE_ELEMENT || g->number < 0 || (uint64_t)g->number >= n || first[g->number])
			continue;
		if (!reader) {
			first[g->number] = g;
			continue;
		}
		/* A body's slot: its dynamic-slice (or fusion) reader. */
		for (uint32_t z = 0; z < g->nusers && !first[g->number]; z++)
			if (ir_user(g, z)->op == OP_DYNAMIC_SLICE || ir_user(g, z)->op == OP_FUSION)
				first[g->number] = ir_user(g, z);
	}
}

static const struct hlo_instr **lco_grow(const struct hlo_instr **v, uint32_t *cap, uint32_t n)
{
	if (n > *cap) {
		*cap = n;
		v = xreallocarray(v, n, sizeof *v);
	}
	return v;
}

/* A later while that takes the loop's slot k as its slot k2 and reads it
 * with a dynamic-slice: that dynamic-slice, or NULL.  The slot users of
 * w and of the reading body are indexed once (wide carries stay linear). */
static const struct hlo_instr *lco_reader(struct lco_state *st, const struct hlo_instr *w, int64_t k,
					  const struct hlo_instr **w2out)
{
	uint32_t nw = w->shape->rank;
	if (st->gte_w != w) {
		st->gte_of = lco_grow(st->gte_of, &st->capgte, nw);
		lco_index_users(w, st->gte_of, nw, false);
		st->gte_w = w;
	}
	const struct hlo_instr *g = (uint64_t)k < nw ? st->gte_of[k] : NULL;
	if (!g)
		return NULL;
	const struct hlo_instr *frontier[8];
	uint32_t nf = 0;
	frontier[nf++] = g;
	for (uint32_t f = 0; f < nf; f++) {
		const struct hlo_instr *v = frontier[f];
		for (uint32_t j = 0; j < v->nusers; j++) {
			const struct hlo_instr *x = ir_user(v, j);
			if ((x->op == OP_BITCAST || x->op == OP_COPY) && nf < 8) {
				frontier[nf++] = x;
				continue;
			}
			if (x->op != OP_TUPLE || x->nusers != 1 || ir_user(x, 0)->op != OP_WHILE)
				continue;
			const struct hlo_instr *w2 = ir_user(x, 0);
			struct hlo_comp *b2 = ir_callee(w2, ATTR_BODY);
			if (!b2 || !b2->nparams || !b2->params[0])
				continue;
			if (st->ds_body != b2) {
				st->ds_of = lco_grow(st->ds_of, &st->capds, x->noperands);
				lco_index_users(b2->params[0], st->ds_of, x->noperands, true);
				st->ds_body = b2;
				st->nds = x->noperands;
			}
			/* Its position in the tuple: usually the same slot. */
			uint32_t pos = (uint64_t)k < x->noperands && ir_operands(x)[k].instr == v ? (uint32_t)k : UINT32_MAX;
			for (uint32_t q = 0; q < x->noperands && pos == UINT32_MAX; q++)
				if (ir_operands(x)[q].instr == v)
					pos = q;
			if (pos < st->nds && st->ds_of[pos]) {
				*w2out = w2;
				return st->ds_of[pos];
			}
		}
	}
	return NULL;
}

/* The loop's slot k reaches the entry's result (through bitcasts, copies
 * and the root tuple): a stacked scan output returned to the caller. */
static bool lco_to_output(const struct lco_state *st, const struct hlo_instr *w, int64_t k)
{
	if (w->comp != st->m->entry)
		return false;
	for (uint32_t u = 0; u < w->nusers; u++) {
		const struct hlo_instr *g = ir_user(w, u);
		if (g->op != OP_GET_TUPLE_ELEMENT || g->number != k)
			continue;
		const struct hlo_instr *frontier[8];
		uint32_t nf = 0;
		frontier[nf++] = g;
		for (uint32_t f = 0; f < nf; f++) {
			const struct hlo_instr *v = frontier[f];
			if (ir_is_root(v))
				return true;
			for (uint32_t j = 0; j < v->nusers && nf < 8; j++) {
				const struct hlo_instr *x = ir_user(v, j);
				if (x->op == OP_BITCAST || x->op == OP_COPY || (x->op == OP_TUPLE && ir_is_root(x)))
					frontier[nf++] = x;
			}
		}
	}
	return false;
}

/* ---- Findings ---- */

static void lco_report(struct lco_state *st, const struct hlo_instr *w, int64_t k, int64_t trips,
		       const struct lco_write *wr, uint64_t bytes, bool intent, const struct mem_buffer *b,
		       const struct peak_set *pk, const struct hlo_instr *ds, const struct hlo_instr *w2)
{
	struct finding_sink *fs = st->ctx->findings;
	const struct mem_model *mm = st->mm;
	const struct hlo_shape *s = wr->base->shape;
	char shape[256], hb[16], cb[16];
	ir_shape_format(s, false, shape, sizeof shape);
	size_human(bytes, hb);
	char steps[48] = "";
	if (trips >= 0)
		snprintf(steps, sizeof steps, ", %lld step%s", (long long)trips, trips == 1 ? "" : "s");
	struct finding *f = finding_add(fs, LCO_RULE, FINDING_WARNING, st->m, wr->at,
					"stacked loop carry %s in device memory: %s", shape, hb);
	finding_set_bytes(f, (int64_t)bytes);
	char key[320];
	size_t kn = (size_t)snprintf(key, sizeof key, "%lld:", (long long)k);
	ir_shape_format(s, false, key + kn, sizeof key - kn);
	finding_set_key(fs, f, key);
	if (intent && st->intent)
		finding_note(fs, f, "the module asks for host offload elsewhere: %s, %%%.*s in %.*s", st->intent_what,
			     IR_NM(st->intent), IR_CNM(st->intent->comp));
	else if (intent)
		finding_note(fs, f, "the module already has buffers in host memory (S(5))");
	if (mm->hbm_bytes)
		finding_note(fs, f, "%s is %.1f%% of the %s of device memory", hb, 100.0 * (double)bytes /
			     (double)mm->hbm_bytes, size_human(mm->hbm_bytes, cb));

	/* The instructions that carry it. */
	const struct hlo_instr *init = w->noperands ? ir_operands(w)[0].instr : NULL;
	const struct hlo_instr *init_k = init && init->op == OP_TUPLE && k < init->noperands ? ir_operands(init)[k].instr : NULL;
	char carried[512];
	size_t n = 0;
	if (init_k) {
		char from[320];
		finding_from(fs, st->m, init_k, from, sizeof from);
		finding_note(fs, f, "initialized by %%%.*s (operand %lld of %%%.*s)%s", IR_NM(init_k), (long long)k, IR_NM(init),
			     from);
		n += (size_t)snprintf(carried + n, sizeof carried - n, "%.*s,", IR_NM(init_k));
	}
	finding_fact(fs, f, "carried as tuple index %lld of %%%.*s%s (body %.*s), read as %%%.*s and written each step by "
		     "%%%.*s at the induction variable", (long long)k, IR_NM(w), steps, IR_CNM(wr->base->comp), IR_NM(wr->base),
		     IR_NM(wr->at));
	if (n < sizeof carried)
		n += (size_t)snprintf(carried + n, sizeof carried - n, "%.*s:%lld,%.*s,%.*s", IR_NM(w), (long long)k,
				      IR_NM(wr->base), IR_NM(wr->at));
	if (ds) {
		finding_note(fs, f, "read back slice by slice by %%%.*s in the body of %%%.*s (%.*s): a residual of the "
			     "backward pass", IR_NM(ds), IR_NM(w2), IR_CNM(ds->comp));
		if (n < sizeof carried)
			snprintf(carried + n, sizeof carried - n, ",%.*s", IR_NM(ds));
	} else {
		finding_note(fs, f, "returned by the module as a stacked scan output");
	}
	finding_suggest_memory_space(f, IR_SPACE_PINNED_HOST);
	uint64_t peak_saved = peak_live(pk, b) ? bytes : 0;
	finding_note(fs, f, "in memory space 5 (pinned host) it would free %s of device memory per device%s", hb,
		     peak_saved ? ", and it is live at the estimated peak" : "");
	if (ds)
		finding_fix(fs, f, "fix in JAX: name the residual inside the scanned function with "
			     "jax.ad_checkpoint.checkpoint_name(x, 'name') and remat it with policy="
			     "jax.checkpoint_policies.save_and_offload_only_these_names(names_which_can_be_saved=[], "
			     "names_which_can_be_offloaded=['name'], offload_src='device', offload_dst='pinned_host'); "
			     "the name must be on the value the scan stacks, or nothing is offloaded (jax#23869)");
	else
		finding_fix(fs, f, "fix in JAX: jax.device_put the scanned value to a sharding with "
			     "memory_kind='pinned_host' inside the scan body, or give the output out_shardings with "
			     "memory_kind='pinned_host'");
	finding_set_tuple_index(fs, f, k);
	if (trips >= 0)
		finding_field_int(fs, f, "trip_count", trips);
	else
		finding_field_null(fs, f, "trip_count");
	finding_field_string(fs, f, "carried_by", carried);
	finding_field_bool(fs, f, "offload_intent", intent);
	finding_field_bytes(fs, f, "bytes_saved", bytes);
	finding_set_peak_saved(fs, f, (int64_t)peak_saved);
	st->found++;
}

static void lco_while(struct lco_state *st, const struct hlo_instr *w, bool intent)
{
	const struct config *cfg = st->ctx->config;
	const struct mem_model *mm = st->mm;
	struct hlo_comp *body = ir_callee(w, ATTR_BODY);
	if (!body || !body->root || body->root->op != OP_TUPLE || !body->nparams || !body->params[0] || !w->shape ||
	    w->shape->type != PT_TUPLE)
		return;
	int64_t iv = loop_induction_index(st->m, w);
	if (iv < 0)
		return;
	int64_t trips = loop_trip_count(st->m, w);
	int64_t min_bytes = config_int(cfg, CONFIG_OPT_LOOP_CARRY_MIN_BYTES);
	double frac = config_double(cfg, CONFIG_OPT_LOOP_CARRY_MIN_FRACTION);
	const struct hlo_instr *root = body->root;
	uint32_t nslots = root->noperands < w->shape->rank ? root->noperands : w->shape->rank;
	lco_slot_users(st, body, nslots);
	for (uint32_t k = 0; k < nslots; k++) {
		if ((int64_t)k == iv || !ir_operands(root)[k].instr)
			continue;
		struct lco_write wr;
		if (!lco_write_of(body, ir_operands(root)[k].instr, k, &wr))
			continue;
		const struct hlo_shape *s = wr.base->shape;
		if (!ir_shape_is_array(s) || !s->rank || ir_shape_in_host(s) || ir_shape_in_host(w->shape->elems[k]))
			continue;
		if (trips >= 0 && s->dims[0] != trips)
			continue;
		/* Start index 0 at the induction variable, the others constant. */
		bool saw = false;
		if (!lco_from_iv(st, body, iv, ir_operands(wr.dus)[2].instr, 0, &saw) || !saw)
			continue;
		bool rest = true;
		for (uint32_t j = 3; j < wr.dus->noperands && rest; j++)
			rest = lco_constant(st, ir_operands(wr.dus)[j].instr);
		if (!rest || !lco_write_only(st, k, &wr))
			continue;
		/* Written from an offload annotation: the compiler will offload it. */
		if (lco_annotated(st, wr.update))
			continue;
		uint32_t leaf, nleaves;
		const struct mem_buffer *b = alias_elem_range(&st->al, w->shape, (uint32_t)k, &leaf, &nleaves)
						     ? mem_buffer_at(mm, w, leaf) : NULL;
		if (b && mem_space_class(b->memory_space) != MEM_SPACE_DEVICE)
			continue;
		uint64_t bytes, bmax, unp;
		if (b)
			bytes = b->bytes;
		else
			mem_array_size(mm, s, NULL, &bytes, &bmax, &unp);
		bool big = mm->hbm_bytes && (double)bytes >= frac * (double)mm->hbm_bytes;
		if (!(intent && (int64_t)bytes >= min_bytes) && !big)
			continue;
		/* A residual is read back slice by slice by a later loop (or
		 * returned); a stacked result consumed whole right away, such
		 * as per-layer gradients, gains nothing from host memory. */
		const struct hlo_instr *w2 = NULL;
		const struct hlo_instr *ds = lco_reader(st, w, k, &w2);
		if (!ds && !lco_to_output(st, w, k))
			continue;
		if (!st->have_peak) {
			peak_init(&st->pk, mm);
			st->have_peak = true;
		}
		lco_report(st, w, k, trips, &wr, bytes, intent, b, &st->pk, ds, w2);
	}
}

static void lco_survivor(struct lco_state *st, const struct hlo_instr *i)
{
	struct finding_sink *fs = st->ctx->findings;
	bool cpu = st->mm->target && st->mm->target->kind == TARGET_CPU;
	enum lco_annot a = lco_annotation(st->m, i);
	size_t n;
	const char *t = attr_plain(st->m->file, i, ATTR_CUSTOM_CALL_TARGET, &n);
	int tn = t ? (int)n : 1;
	struct finding *f = finding_add(fs, LCO_RULE, cpu ? FINDING_NOTE : FINDING_WARNING, st->m, i,
					"offload annotation %.*s was not applied", tn, t ? t : "?");
	finding_set_key(fs, f, a == LCO_TO_HOST ? "survivor:to-host" : a == LCO_TO_DEVICE ? "survivor:to-device"
											 : "survivor");
	uint64_t p, px, u;
	mem_instr_size(st->mm, i, &p, &px, &u);
	finding_set_bytes(f, (int64_t)p);
	finding_fact(fs, f, "XLA's host offloader removes every MoveToHost/MoveToDevice/annotate_device_placement it "
		     "handles; one left in an optimized module means the value %s (docs/rules/loop-carry-offload.md)",
		     a == LCO_TO_DEVICE ? "was not brought back from host memory as asked" : "stays in device memory");
	if (cpu)
		finding_note(fs, f, "expected on CPU, which has no host offloading");
	else
		finding_fix(fs, f, "check that the annotated value is what the scan stacks (a residual), and that the "
			     "backend supports host offload");
	finding_field_bool(fs, f, "survivor", true);
	finding_field_int(fs, f, "bytes_saved", 0);
	finding_set_peak_saved(fs, f, 0);
	st->found++;
}

static int lco_run(struct hlo_module *m, struct pass_context *ctx)
{
	if (!ctx->findings || !ctx->mem)
		return 0;
	const struct mem_model *mm = ctx->mem;
	struct lco_state st = { .m = m, .ctx = ctx, .mm = mm };
	arena_init(&st.arena);
	alias_init(&st.al, m->file, &st.arena);
	static const struct ir_visitor v = { .want = lco_want, .instr = lco_scan };
	ir_walk(m, &v, &st);
	st.intent_s5_buffer = mm->has_s5_buffer;
	bool intent = st.intent || st.intent_s5_buffer;
	uint64_t mark = 0;   /* whiles are in source order: their backend_config text read */
	for (uint32_t k = 0; k < st.nwhiles; k++) {
		lco_while(&st, st.whiles[k], intent);
		source_drop(m->file->src, &mark, st.whiles[k]->start);
	}
	if (st.have_peak)
		peak_free(&st.pk);
	if (m->is_scheduled)
		for (uint32_t k = 0; k < st.nannots; k++)
			lco_survivor(&st, st.annots[k]);
	free(st.whiles);
	free(st.annots);
	alias_free(&st.al);
	arena_free(&st.arena);
	free(st.sole);
	free(st.gte_of);
	free(st.ds_of);
	return st.found;
}

const struct pass pass_loop_carry_offload = {
	.name = LCO_RULE,
	.summary = "scan residuals stacked in a while carry in device memory (offload candidates), offload "
		   "annotations the compiler left",
	.rewrites = false,
	.run = lco_run,
};
