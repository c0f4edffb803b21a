/* missed_donation.c - rule missed-donation: entry parameters neither
 * aliased nor donors whose shape and layout match an output computed at or
 * after their last use, paired greedily per shape, reported when together
 * they save enough.  Positions are the schedule, else definition order. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "alias.h"
#include "attr.h"
#include "config.h"
#include "finding.h"
#include "mem.h"
#include "pass.h"
#include "peak.h"
#include "size.h"

#define MD_RULE pass_name_missed_donation   /* its name, from passes.def */

#define MD_NONE UINT32_MAX
#define MD_WANT (UINT32_MAX - 1)   /* a parameter's last use, still to be found */

/* A parameter leaf or an output leaf that may pair up. */
struct md_item {
	const char *key;                /* shape with layout (scratch) */
	const struct mem_buffer *b;
	const struct hlo_instr *at;     /* parameter; or the instruction computing the output */
	uint32_t pos;                   /* param: last use; output: where it is computed */
	uint32_t leaf;                  /* leaf index in the parameter / the result */
	int64_t param;                  /* parameter number (params) */
	const struct hlo_instr *loop;   /* output carried out of this while (param buffer), or NULL */
	uint32_t match;                 /* params: index of the paired output, MD_NONE */
	bool unused;                    /* params: never read */
	const char *path;               /* index path of the leaf, scratch */
};

struct md_state {
	struct hlo_module *m;
	struct pass_context *ctx;
	const struct mem_model *mm;
	struct arena *scratch;
	struct hlo_program_shape ecl;
	bool has_ecl;
	bool donates;                   /* some parameter is in input_output_alias/buffer_donor */
	uint64_t total;                 /* bytes all the pairs save */
	uint32_t nmatch;
	int found;
};

#define MD_PATH 160

/* One leaf of a shape: the subshape and its index path ("{1,0}"). */
struct md_leaf {
	const struct hlo_shape *s;
	const char *path;               /* scratch */
};

/* The leaves of the layout the runtime uses (entry_computation_layout's
 * shape when it has as many leaves), else of the instruction's shape,
 * with their indexes (alias.c: a deep index ends in ",...}"). */
static void md_leaves(struct md_state *st, const struct hlo_shape *ecl, const struct hlo_shape *own, struct md_leaf *out,
		      uint32_t n)
{
	const struct hlo_shape *s = ecl && ir_leaf_count(ecl) == n ? ecl : own;
	struct alias_state as;
	alias_init(&as, st->m->file, st->scratch);
	for (uint32_t j = 0; j < n; j++) {
		char path[MD_PATH];
		out[j].s = alias_leaf_path(&as, s, j, path, sizeof path);
		out[j].path = arena_strndup(st->scratch, path, strlen(path));
	}
	alias_free(&as);
}

static const char *md_key(struct md_state *st, const struct hlo_shape *s)
{
	char buf[512];
	size_t n = ir_shape_format(s, true, buf, sizeof buf);
	if (n >= sizeof buf)
		n = sizeof buf - 1;
	return arena_strndup(st->scratch, buf, n);
}

/* What computes output leaf j: through the root tuple and
 * get-tuple-elements of tuples (and bitcasts). */
static const struct hlo_instr *md_producer(const struct hlo_instr *root, uint32_t j)
{
	const struct hlo_instr *x = root;
	if (root->op == OP_TUPLE && root->noperands == ir_leaf_count(root->shape)) {
		if (j >= root->noperands)
			return NULL;
		x = ir_operands(root)[j].instr;
	}
	for (int d = 0; x && d < 16; d++) {
		if (x->op == OP_BITCAST && x->noperands == 1)
			x = ir_operands(x)[0].instr;
		else if (x->op == OP_GET_TUPLE_ELEMENT && x->noperands && ir_operands(x)[0].instr &&
			 ir_operands(x)[0].instr->op == OP_TUPLE && x->number >= 0 &&
			 (uint64_t)x->number < ir_operands(x)[0].instr->noperands)
			x = ir_operands(ir_operands(x)[0].instr)[x->number].instr;
		else
			break;
	}
	return x;
}

static int md_cmp(const void *pa, const void *pb)
{
	const struct md_item *a = pa, *b = pb;
	int c = strcmp(a->key, b->key);
	if (c)
		return c;
	if (a->pos != b->pos)
		return a->pos < b->pos ? -1 : 1;
	if (a->leaf != b->leaf)
		return a->leaf < b->leaf ? -1 : 1;
	return a->param < b->param ? -1 : a->param > b->param;   /* ties in parameter order */
}

static int md_cmp_param(const void *pa, const void *pb)
{
	const struct md_item *a = pa, *b = pb;
	if (a->param != b->param)
		return a->param < b->param ? -1 : 1;
	return a->leaf < b->leaf ? -1 : a->leaf > b->leaf;
}


/* Whether s is shape like, or a tuple holding it: a step of an update
 * (elementwise ops, fusions, copies keep the array's shape). */
static bool md_same_array(const struct hlo_shape *s, const struct hlo_shape *like)
{
	if (!s)
		return false;
	if (s->type == PT_TUPLE) {
		for (uint32_t k = 0; k < s->rank; k++)
			if (md_same_array(s->elems[k], like))
				return true;
		return false;
	}
	return ir_shape_equal(s, like, false);
}

/* Whether out is parameter p updated: p reaches it through operands of
 * the shape like (the paired leaf's) (w2 = w - lr * g, a fused update, a copy), walking back through
 * the entry computation, as a train step's weights and optimizer state
 * are.  An output that only depends on p through a reduction, a dot or a
 * reshape (an evaluation's input, a batch) is not: the caller may still
 * want that argument, which the module cannot say. */
static bool md_derives(const struct hlo_instr *out, const struct hlo_instr *p, const struct hlo_shape *like)
{
	const struct hlo_comp *c = out->comp;
	if (p->comp != c)
		return false;
	uint8_t *seen = xcalloc(c->ninstrs ? c->ninstrs : 1, 1);
	const struct hlo_instr **stack = xcalloc(c->ninstrs ? c->ninstrs : 1, sizeof *stack);
	uint32_t n = 0;
	bool found = false;
	stack[n++] = out;
	seen[out->index] = 1;
	while (n && !found) {
		const struct hlo_instr *i = stack[--n];
		found = i == p;
		for (uint32_t k = 0; k < i->noperands && !found; k++) {
			const struct hlo_instr *x = ir_operands(i)[k].instr;
			if (x && x->comp == c && x->index < c->ninstrs && !seen[x->index] &&
			    md_same_array(x->shape, like)) {
				seen[x->index] = 1;
				stack[n++] = x;
			}
		}
	}
	free(stack);
	free(seen);
	return found;
}

static void md_report(struct md_state *st, const struct md_item *p, const struct md_item *o, const struct peak_set *pk)
{
	struct finding_sink *fs = st->ctx->findings;
	const struct hlo_instr *param = p->at;
	const struct hlo_comp *entry = st->m->entry;
	const char *ppath = p->path, *opath = o->path;
	char hb[16], pb[16];
	uint64_t bytes = o->b->bytes;
	size_human(bytes, hb);
	bool whole = !strcmp(ppath, "{}");
	char pname[MD_PATH + 48];
	if (whole)
		snprintf(pname, sizeof pname, "parameter %lld", (long long)p->param);
	else
		snprintf(pname, sizeof pname, "parameter %lld at %s", (long long)p->param, ppath);
	uint64_t peak_saved = o->b->param < 0 && peak_live(pk, o->b) ? bytes : 0;
	bool updated = o->loop || md_derives(o->at, param, p->b->shape);
	/* Advice to donate what the caller may need is never more than a note. */
	enum finding_severity sev = updated ? pass_saving_severity(st->ctx, peak_saved, CONFIG_OPT_DONATION_WARN_FRACTION,
								     CONFIG_OPT_DONATION_WARN_SAVING)
					    : FINDING_NOTE;
	struct finding *f = finding_add(fs, MD_RULE, sev, st->m, param,
					"%s is not donated: output %s could reuse its %s", pname, opath, hb);
	finding_set_bytes(f, (int64_t)bytes);
	char key[2 * MD_PATH + 8];
	snprintf(key, sizeof key, "%s->%s", ppath, opath);
	finding_set_key(fs, f, key);
	finding_suggest_donation(f, p->param);
	const struct hlo_instr *last = NULL;
	if (!p->unused && p->pos < entry->ninstrs)
		last = entry->instrs[p->pos];
	if (updated)
		finding_fact(fs, f, "output %s is the parameter updated: computed from it after its last use", opath);
	else
		finding_fact(fs, f, "output %s has the parameter's shape but is not computed from it: the caller may "
			     "still need the argument (an evaluation's input)", opath);
	if (last)
		finding_note(fs, f, "last use of the parameter: %%%.*s; output %s is computed by %%%.*s%s", IR_NM(last), opath,
			     IR_NM(o->at), st->mm->scheduled ? "" : " (definition order: the module has no schedule)");
	else
		finding_note(fs, f, "the parameter is never read; output %s is computed by %%%.*s", opath, IR_NM(o->at));
	if (o->loop)
		finding_note(fs, f, "output %s comes out of the loop %%%.*s, which carries a parameter: without donation "
			     "XLA copies the parameter into the loop's buffer", opath, IR_NM(o->loop));
	finding_fix(fs, f, "fix in JAX: %sjax.jit(f, donate_argnums=...) (or donate_argnames) for the argument "
		     "holding parameter %lld (entry parameters are the flattened arguments), and do not use that "
		     "argument after the call; XLA then writes output %s into its buffer",
		     updated ? "" : "only if the caller is done with the argument: ", (long long)p->param, opath);
	if (st->nmatch > 1) {
		char tb[16];
		finding_module_note(fs, f, "%u parameters of this module could be donated, saving %s per device in all",
			     st->nmatch, size_human(st->total, tb));
	}
	if (st->donates)
		finding_note(fs, f, "the module donates other parameters: this one was left out");
	else
		finding_note(fs, f, "donate it if the caller no longer needs the argument after the call");
	if (peak_saved)
		finding_note(fs, f, "the output is live at the estimated peak: donation lowers it by up to %s",
			     size_human(peak_saved, pb));
	finding_field_int(fs, f, "parameter", p->param);
	finding_field_bool(fs, f, "updated", updated);
	finding_field_string(fs, f, "parameter_index", ppath);
	finding_field_string(fs, f, "output_index", opath);
	finding_field_bytes(fs, f, "bytes_saved", bytes);
	finding_set_peak_saved(fs, f, (int64_t)peak_saved);
	st->found++;
}

/* What md_run gathers: per buffer, whether a parameter is returned as it
 * is; the candidate outputs and the undonated parameters. */
struct md_sets {
	uint8_t *passthrough;
	struct md_item *outs, *params;
	uint32_t no, np;
};

/* Whether a leaf of x (in the entry) is in a buffer md_last_uses looks for. */
static bool md_holds_wanted(const struct mem_model *mm, const struct hlo_instr *x, const uint32_t *last)
{
	uint32_t nl = mem_leaf_count(mm, x);
	for (uint32_t j = 0; j < nl; j++) {
		const struct mem_buffer *b = mem_buffer_at(mm, x, j);
		if (b && last[mem_buffer_id(mm, b)])
			return true;
	}
	return false;
}

/* x's wanted buffers are used at position pos (last: 1 + the use). */
static void md_used_at(const struct mem_model *mm, const struct hlo_instr *x, uint32_t pos, uint32_t *last)
{
	uint32_t nl = mem_leaf_count(mm, x);
	for (uint32_t j = 0; j < nl; j++) {
		const struct mem_buffer *b = mem_buffer_at(mm, x, j);
		uint32_t *l = b ? &last[mem_buffer_id(mm, b)] : NULL;
		if (l && *l && (*l == MD_WANT || *l < pos + 1))
			*l = pos + 1;
	}
}

/* Last use in the entry of the parameters' buffers that may pair with an
 * output (ms->params with pos MD_WANT; uses inside called computations
 * count at the call site); get-tuple-element and tuple only name buffers,
 * their users are the uses.  Follows users from those parameters through
 * the instructions holding one of their buffers (a value takes a
 * parameter's buffer only from an operand holding it), not every operand
 * of the entry: a large entry has hundreds of thousands. */
static void md_last_uses(struct md_state *st, struct md_sets *ms)
{
	const struct mem_model *mm = st->mm;
	const struct hlo_comp *entry = st->m->entry;
	uint32_t want = 0;
	for (uint32_t k = 0; k < ms->np; k++)
		want += ms->params[k].pos == MD_WANT;
	if (!want)
		return;
	/* 0: not looked for; MD_WANT: no use yet; else 1 + the last use. */
	uint32_t *last = xcalloc(mm->nbuffers ? mm->nbuffers : 1, sizeof *last);
	uint8_t *seen = xcalloc(entry->ninstrs, 1);
	uint32_t *todo = xmalloc((size_t)entry->ninstrs * sizeof *todo), ntodo = 0;   /* each once */
	for (uint32_t k = 0; k < ms->np; k++)
		if (ms->params[k].pos == MD_WANT)
			last[mem_buffer_id(mm, ms->params[k].b)] = MD_WANT;
	for (uint32_t k = 0; k < ms->np; k++) {
		const struct hlo_instr *p = ms->params[k].at;   /* an entry parameter */
		if (ms->params[k].pos != MD_WANT || seen[p->index])
			continue;
		seen[p->index] = 1;
		todo[ntodo++] = p->index;
	}
	while (ntodo) {
		const struct hlo_instr *x = entry->instrs[todo[--ntodo]];
		uint32_t use = MD_NONE;   /* users are in program order: the last one counts */
		for (uint32_t k = 0; k < x->nusers; k++) {
			const struct hlo_instr *u = ir_user(x, k);
			if (u->op != OP_GET_TUPLE_ELEMENT && u->op != OP_TUPLE)
				use = u->index;
			if (!seen[u->index] && md_holds_wanted(mm, u, last)) {
				seen[u->index] = 1;
				todo[ntodo++] = u->index;
			}
		}
		if (use != MD_NONE)
			md_used_at(mm, x, use, last);
	}
	for (uint32_t k = 0; k < ms->np; k++) {
		struct md_item *it = &ms->params[k];
		if (it->pos != MD_WANT)
			continue;
		uint32_t l = last[mem_buffer_id(mm, it->b)];
		it->unused = l == MD_WANT;
		it->pos = it->unused ? 0 : l - 1;
	}
	free(todo);
	free(seen);
	free(last);
}

/* Outputs: leaves in a buffer of their own (or carried out of a loop from
 * a parameter), each buffer once.  Marks parameters returned as they are. */
static void md_outputs(struct md_state *st, struct md_sets *ms)
{
	const struct mem_model *mm = st->mm;
	const struct hlo_comp *entry = st->m->entry;
	const struct hlo_instr *root = entry->root;
	uint32_t nout = ir_leaf_count(root->shape);
	ms->outs = xcalloc(nout ? nout : 1, sizeof *ms->outs);
	struct md_leaf *rl = xcalloc(nout ? nout : 1, sizeof *rl);
	md_leaves(st, st->has_ecl ? st->ecl.result : NULL, root->shape, rl, nout);
	uint8_t *seen = xcalloc(mm->nbuffers ? mm->nbuffers : 1, 1);
	for (uint32_t j = 0; j < nout; j++) {
		const struct mem_buffer *b = mem_buffer_at(mm, root, j);
		if (!b)
			continue;
		uint32_t id = (uint32_t)(b - mm->buffers);
		const struct hlo_instr *x = md_producer(root, j);
		const struct hlo_instr *loop = NULL;
		if (b->param >= 0) {
			/* A loop-carried parameter is copied unless donated; a
			 * parameter returned as it is stays where it is. */
			if (x && x->op == OP_GET_TUPLE_ELEMENT && x->noperands && ir_operands(x)[0].instr &&
			    ir_operands(x)[0].instr->op == OP_WHILE)
				loop = ir_operands(x)[0].instr;
			else {
				ms->passthrough[id] = 1;
				continue;
			}
		}
		if (seen[id] || (b->param < 0 && (mem_buffer_owner(b) != entry || b->def->op == OP_CONSTANT)) ||
		    mem_space_class(b->memory_space) != MEM_SPACE_DEVICE || !b->bytes)
			continue;
		if (b->param >= 0 && (b->flags & MEM_BUF_DONATED))
			continue;
		seen[id] = 1;
		const struct hlo_shape *s = rl[j].s;
		if (!s || !ir_shape_is_array(s))
			continue;
		struct md_item *it = &ms->outs[ms->no++];
		it->key = md_key(st, s);
		it->path = rl[j].path;
		it->b = b;
		it->at = loop ? loop : x ? x : root;
		/* Where the output value is computed, not where its buffer's
		 * in-place chain starts: donating lets XLA end the chain in the
		 * parameter's buffer (the last in-place step writes into it). */
		it->pos = loop ? loop->index : x && x->comp == entry ? x->index : b->def_pos;
		it->leaf = j;
		it->loop = loop;
		it->param = -1;
	}
	free(seen);
	free(rl);
}

/* Parameters not donated, in device memory. */
static void md_params(struct md_state *st, struct md_sets *ms)
{
	const struct mem_model *mm = st->mm;
	const struct hlo_comp *entry = st->m->entry;
	uint32_t cap = 16;
	ms->params = xcalloc(cap, sizeof *ms->params);
	for (uint32_t n = 0; n < entry->nparams && ms->no; n++) {
		const struct hlo_instr *p = entry->params[n];
		if (!p)
			continue;
		uint32_t nl = ir_leaf_count(p->shape);
		struct md_leaf one, *pl = nl > 1 ? xcalloc(nl, sizeof *pl) : &one;
		const struct hlo_shape *ecl_p = st->has_ecl && (uint64_t)n < st->ecl.nparams ? st->ecl.params[n] : NULL;
		md_leaves(st, ecl_p, p->shape, pl, nl);
		for (uint32_t j = 0; j < nl; j++) {
			const struct mem_buffer *b = mem_buffer_at(mm, p, j);
			if (!b || b->param < 0 || (b->flags & MEM_BUF_DONATED) || ms->passthrough[b - mm->buffers] ||
			    mem_space_class(b->memory_space) != MEM_SPACE_DEVICE || !b->bytes)
				continue;
			const struct hlo_shape *s = pl[j].s;
			if (!s || !ir_shape_is_array(s))
				continue;
			if (ms->np == cap) {
				cap *= 2;
				ms->params = xreallocarray(ms->params, cap, sizeof *ms->params);
			}
			struct md_item *it = &ms->params[ms->np++];
			memset(it, 0, sizeof *it);
			it->key = md_key(st, s);
			it->b = b;
			it->at = p;
			it->pos = MD_WANT;      /* md_keep_pairable, md_last_uses */
			it->leaf = j;
			it->param = (int64_t)n;
			it->match = MD_NONE;
			it->path = pl[j].path;
		}
		if (pl != &one)
			free(pl);
	}
}

/* Leaves MD_WANT only on the parameters with the shape and layout of some
 * output (both sorted by md_cmp): the others cannot pair, and their last
 * use is not looked for. */
static void md_keep_pairable(struct md_sets *ms)
{
	qsort(ms->outs, ms->no, sizeof *ms->outs, md_cmp);
	qsort(ms->params, ms->np, sizeof *ms->params, md_cmp);
	for (uint32_t pi = 0, oi = 0; pi < ms->np; pi++) {
		int c = 1;
		while (oi < ms->no && (c = strcmp(ms->outs[oi].key, ms->params[pi].key)) < 0)
			oi++;
		if (c)
			ms->params[pi].pos = 0;
	}
}

/* Pairs them shape by shape: outputs in order of computation, each with
 * the parameter whose last use came first among those already dead
 * (greedy, a maximum matching for these intervals).  Sets st's totals. */
static void md_pair(struct md_state *st, struct md_sets *ms)
{
	struct md_item *outs = ms->outs, *params = ms->params;
	uint32_t no = ms->no, np = ms->np;
	qsort(params, np, sizeof *params, md_cmp);   /* by last use now; md_keep_pairable sorted outs */
	for (uint32_t oi = 0, pi = 0; oi < no;) {
		const char *key = outs[oi].key;
		uint32_t oe = oi;
		while (oe < no && !strcmp(outs[oe].key, key))
			oe++;
		while (pi < np && strcmp(params[pi].key, key) < 0)
			pi++;
		uint32_t pe = pi;
		while (pe < np && !strcmp(params[pe].key, key))
			pe++;
		uint32_t avail = pi, head = pi;
		for (uint32_t o = oi; o < oe; o++) {
			while (avail < pe && params[avail].pos <= outs[o].pos)
				avail++;
			if (head < avail) {
				params[head++].match = o;
				st->nmatch++;
				st->total = size_add(st->total, outs[o].b->bytes);
			}
		}
		oi = oe;
		pi = pe;
	}
}

static int md_run(struct hlo_module *m, struct pass_context *ctx)
{
	if (!ctx->findings || !ctx->mem || !m->entry || !m->entry->root)
		return 0;
	const struct mem_model *mm = ctx->mem;
	int64_t min_bytes = config_int(ctx->config, CONFIG_OPT_DONATION_MIN_BYTES);
	struct md_state st = { .m = m, .ctx = ctx, .mm = mm, .scratch = &m->file->arena,
			       .donates = mm->has_donated_argument };
	struct arena_mark mark = arena_mark(st.scratch);
	const struct hlo_attr *ecl = ir_module_attr(m, ATTR_ENTRY_COMPUTATION_LAYOUT);
	if (ecl) {
		struct hlo_value *v = attr_parse(m->file, ecl, st.scratch, NULL);
		st.has_ecl = v && attr_program_shape(v, st.scratch, &st.ecl, NULL);
	}
	struct md_sets ms = { 0 };
	ms.passthrough = xcalloc(mm->nbuffers ? mm->nbuffers : 1, 1);
	md_outputs(&st, &ms);
	md_params(&st, &ms);
	md_keep_pairable(&ms);
	md_last_uses(&st, &ms);
	md_pair(&st, &ms);
	if (st.nmatch && st.total >= (uint64_t)(min_bytes > 0 ? min_bytes : 0)) {
		struct peak_set pk;
		peak_init(&pk, mm);
		/* Report in parameter order. */
		qsort(ms.params, ms.np, sizeof *ms.params, md_cmp_param);
		for (uint32_t k = 0; k < ms.np; k++)
			if (ms.params[k].match != MD_NONE)
				md_report(&st, &ms.params[k], &ms.outs[ms.params[k].match], &pk);
		peak_free(&pk);
	}
	free(ms.passthrough);
	free(ms.outs);
	free(ms.params);
	arena_release(st.scratch, mark);
	return st.found;
}

const struct pass pass_missed_donation = {
	.name = MD_RULE,
	.summary = "entry parameters that are not donated although an output of the same shape could reuse them",
	.rewrites = false,
	.run = md_run,
};
