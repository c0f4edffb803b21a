/* recompilation.c - rule recompilation (a folder rule): in one dump
 * folder, the same jit function compiled more than once.  Modules are
 * grouped by jit name in file (module id, compile) order; modules of one
 * name whose op_names have less than half in common are different
 * functions, not recompiles.  For each function compiled more than once,
 * one finding says what changed between the compiles, in the order a user
 * fixes it: the devices, an argument's shape, dtype, sharding or memory
 * space, donation, the output, constants baked in, the program;
 * nothing: the jit object itself was made again.  It reads signatures
 * (compile.h), never modules. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compile.h"
#include "finding.h"
#include "pass.h"

#define RC_RULE pass_name_recompilation   /* its name, from passes.def */

/* Below this share of op_names in common, one name is two functions;
 * below RC_SURE of it, say the call was close. */
#define RC_SAME 0.5
#define RC_SURE 0.7
#define RC_TEXT 1024
#define RC_SEEN 6

struct rc_state {
	struct folder_context *fc;
	struct compile_sig **g;     /* one function's compiles, in order */
	uint32_t n;
	char fact[RC_TEXT], fix[RC_TEXT], head[RC_TEXT];
	const char *kind;
	char also[RC_TEXT];         /* the other arguments' changes ("; "-separated facts), "" none */
	char kinds[256];            /* every change found, ","-separated */
	struct finding *f;
	double closest;             /* the lowest overlap that still joined the group */
};

/* Per-device dimensions that differ under one sharding: a new sharding
 * changes them too, and is the cause then. */
static bool rc_dims_differ(const struct compile_param *a, const struct compile_param *b)
{
	return a->type == b->type && a->rank == b->rank && a->rank && !strcmp(a->sharding, b->sharding) &&
	       memcmp(a->dims, b->dims, a->rank * sizeof *a->dims) != 0;
}

/* An argument's name for a message: its pytree path, else its number. */
static void rc_arg(const struct compile_sig *s, uint32_t k, char *out, size_t cap)
{
	const char *p = s->params[k].path;
	if (p[0])
		snprintf(out, cap, strchr(p, '\'') ? "%s" : "'%s'", p);
	else
		snprintf(out, cap, "%u", k);
}

/* "parameter 1" and, when its metadata gives one, its Python line. */
static const char *rc_where(const struct compile_sig *s, int64_t k, char *out, size_t cap)
{
	const char *src = s->params[k].source;
	snprintf(out, cap, "parameter %lld%s%s", (long long)k, src[0] ? ", from " : "", src);
	return out;
}

/* "512, 1024, 2048": the distinct values of dimension d of argument k
 * over the compiles, in the order seen. */
static void rc_dims_seen(const struct rc_state *st, uint32_t k, uint32_t d, char *out, size_t cap)
{
	int64_t seen[RC_SEEN];
	uint32_t ns = 0;
	size_t w = 0;
	out[0] = 0;
	for (uint32_t j = 0; j < st->n && w < cap; j++) {
		if (d >= st->g[j]->params[k].rank)
			continue;
		int64_t v = st->g[j]->params[k].dims[d];
		bool dup = false;
		for (uint32_t e = 0; e < ns; e++)
			dup |= seen[e] == v;
		if (dup)
			continue;
		if (ns == RC_SEEN) {
			w += (size_t)snprintf(out + w, cap - w, ", ...");
			break;
		}
		seen[ns++] = v;
		w += (size_t)snprintf(out + w, cap - w, "%s%lld", ns > 1 ? ", " : "", (long long)v);
	}
}

/* The distinct strings field(j) over the compiles, quoted, in order. */
static void rc_seen(const struct rc_state *st, const char *(*field)(const struct compile_sig *, uint32_t), uint32_t k,
		    char *out, size_t cap)
{
	size_t w = 0;
	out[0] = 0;
	for (uint32_t j = 0, ns = 0; j < st->n && w < cap; j++) {
		const char *v = field(st->g[j], k);
		bool dup = false;
		for (uint32_t e = 0; e < j; e++)
			dup |= !strcmp(field(st->g[e], k), v);
		if (dup)
			continue;
		w += (size_t)snprintf(out + w, cap - w, "%s%s", ns++ ? " then " : "", v[0] ? v : "(none)");
	}
}

static const char *rc_shape(const struct compile_sig *s, uint32_t k) { return s->params[k].shape; }
static const char *rc_sharding(const struct compile_sig *s, uint32_t k) { return s->params[k].sharding; }
static const char *rc_output(const struct compile_sig *s, uint32_t k) { (void)k; return s->outputs; }
static const char *rc_donation(const struct compile_sig *s, uint32_t k) { (void)k; return s->donation; }

/* Which argument differs first by test, over every pair of compiles. */
static int64_t rc_param_where(const struct rc_state *st, bool (*differ)(const struct compile_param *,
									 const struct compile_param *))
{
	const struct compile_sig *a = st->g[0];
	for (uint32_t j = 1; j < st->n; j++) {
		const struct compile_sig *b = st->g[j];
		if (b->nparams != a->nparams)
			continue;
		for (uint32_t k = 0; k < a->nparams; k++)
			if (differ(&a->params[k], &b->params[k]))
				return k;
	}
	return -1;
}

static bool rc_type_differs(const struct compile_param *a, const struct compile_param *b)
{
	return a->type != b->type;
}

static bool rc_sharding_differs(const struct compile_param *a, const struct compile_param *b)
{
	return strcmp(a->sharding, b->sharding) != 0;
}

static bool rc_space_differs(const struct compile_param *a, const struct compile_param *b)
{
	return a->space != b->space;
}

static bool rc_all(const struct rc_state *st, bool (*same)(const struct compile_sig *, const struct compile_sig *))
{
	for (uint32_t j = 1; j < st->n; j++)
		if (!same(st->g[0], st->g[j]))
			return false;
	return true;
}

static bool rc_same_nparams(const struct compile_sig *a, const struct compile_sig *b) { return a->nparams == b->nparams; }
static bool rc_same_outputs(const struct compile_sig *a, const struct compile_sig *b) { return !strcmp(a->outputs, b->outputs); }
static bool rc_same_donation(const struct compile_sig *a, const struct compile_sig *b) { return !strcmp(a->donation, b->donation); }
static bool rc_same_program(const struct compile_sig *a, const struct compile_sig *b) { return a->program == b->program; }
static bool rc_same_devices(const struct compile_sig *a, const struct compile_sig *b)
{
	return a->partitions == b->partitions && a->replicas == b->replicas;
}

/* The first constant whose value differs between compile 0 and another of
 * the same program: *j that compile, the index returned (-1 none). */
static int64_t rc_const_where(const struct rc_state *st, uint32_t *jj)
{
	const struct compile_sig *a = st->g[0];
	for (uint32_t j = 1; j < st->n; j++) {
		const struct compile_sig *b = st->g[j];
		if (b->program != a->program || b->nconsts != a->nconsts)
			continue;
		for (uint32_t k = 0; k < a->nconsts; k++)
			if (strcmp(a->consts[k].value, b->consts[k].value)) {
				*jj = j;
				return k;
			}
	}
	return -1;
}

/* Each cause below fills st->head and st->fact when it holds. */

static bool rc_cause_arguments(struct rc_state *st)
{
	if (rc_all(st, rc_same_nparams))
		return false;
	snprintf(st->head, sizeof st->head, "the number of arguments changes");
	snprintf(st->fact, sizeof st->fact, "the compiles take different numbers of arguments (a pytree whose "
		 "structure changes: an optional field, a list of varying length)");
	return true;
}

static bool rc_cause_shape(struct rc_state *st)
{
	const struct compile_sig *a = st->g[0];
	int64_t k = rc_param_where(st, rc_dims_differ);
	if (k < 0)
		return false;
	const struct compile_param *p = &a->params[k];
	uint32_t d = UINT32_MAX;
	for (uint32_t j = 1; j < st->n && d == UINT32_MAX; j++)
		for (uint32_t e = 0; e < p->rank && d == UINT32_MAX; e++)
			if (st->g[j]->params[k].rank == p->rank && st->g[j]->params[k].dims[e] != p->dims[e])
				d = e;
	d = d == UINT32_MAX ? 0 : d;
	char arg[160], seen[RC_TEXT / 2], where[200];
	rc_arg(a, (uint32_t)k, arg, sizeof arg);
	rc_dims_seen(st, (uint32_t)k, d, seen, sizeof seen);
	snprintf(st->head, sizeof st->head, "argument %.24s dimension %u changes", arg, d);
	snprintf(st->fact, sizeof st->fact, "argument %s (%s) has dimension %u = %s per device in successive compiles",
		 arg, rc_where(a, k, where, sizeof where), d, seen);
	return true;
}

/* An argument's dtype, sharding or memory space (what), told by differ,
 * its values seen by field (NULL: not listed). */
static bool rc_cause_arg(struct rc_state *st, bool (*differ)(const struct compile_param *, const struct compile_param *),
			 const char *(*field)(const struct compile_sig *, uint32_t), const char *what, const char *verb)
{
	const struct compile_sig *a = st->g[0];
	int64_t k = rc_param_where(st, differ);
	if (k < 0)
		return false;
	char arg[160], seen[RC_TEXT / 2], where[200];
	rc_arg(a, (uint32_t)k, arg, sizeof arg);
	if (field)
		rc_seen(st, field, (uint32_t)k, seen, sizeof seen);
	snprintf(st->head, sizeof st->head, "argument %.24s changes %s", arg, what);
	snprintf(st->fact, sizeof st->fact, "argument %s (%s) %s%s", arg, rc_where(a, k, where, sizeof where), verb,
		 field ? seen : "");
	return true;
}

static bool rc_cause_dtype(struct rc_state *st)
{
	return rc_cause_arg(st, rc_type_differs, rc_shape, "dtype", "is ");
}

static bool rc_cause_sharding(struct rc_state *st)
{
	return rc_cause_arg(st, rc_sharding_differs, rc_sharding, "sharding", "arrives ");
}

static bool rc_cause_space(struct rc_state *st)
{
	return rc_cause_arg(st, rc_space_differs, NULL, "memory kind",
			    "is in device memory in one compile and in host memory (S(5)) in another");
}

static bool rc_cause_donation(struct rc_state *st)
{
	if (rc_all(st, rc_same_donation))
		return false;
	char seen[RC_TEXT / 2];
	rc_seen(st, rc_donation, 0, seen, sizeof seen);
	snprintf(st->head, sizeof st->head, "donation changes");
	snprintf(st->fact, sizeof st->fact, "input_output_alias is %s", seen);
	return true;
}

static bool rc_cause_output(struct rc_state *st)
{
	if (rc_all(st, rc_same_outputs))
		return false;
	char seen[RC_TEXT / 2];
	rc_seen(st, rc_output, 0, seen, sizeof seen);
	snprintf(st->head, sizeof st->head, "the output changes, the arguments do not");
	snprintf(st->fact, sizeof st->fact, "the output is %s with the same arguments: a weak-typed Python scalar "
		 "argument (dtype decided by the other operand) or a static argument", seen);
	return true;
}

static bool rc_cause_devices(struct rc_state *st)
{
	if (rc_all(st, rc_same_devices))
		return false;
	char seen[RC_TEXT / 2];
	size_t w = 0;
	seen[0] = 0;
	for (uint32_t j = 0; j < st->n && w < sizeof seen; j++) {
		const struct compile_sig *b = st->g[j];
		bool dup = false;
		for (uint32_t e = 0; e < j; e++)
			dup |= rc_same_devices(st->g[e], b);
		if (!dup)
			w += (size_t)snprintf(seen + w, sizeof seen - w, "%s%lld x %lld", w ? " then " : "",
					      (long long)b->partitions, (long long)b->replicas);
	}
	snprintf(st->head, sizeof st->head, "the number of devices changes");
	snprintf(st->fact, sizeof st->fact, "partitions x replicas: %s (every sharding and per-device shape "
		 "changes with them)", seen);
	return true;
}

static bool rc_cause_constants(struct rc_state *st)
{
	uint32_t j = 0;
	int64_t c = rc_const_where(st, &j);
	if (c < 0)
		return false;
	const struct compile_const *x = &st->g[0]->consts[c], *y = &st->g[j]->consts[c];
	snprintf(st->head, sizeof st->head, "only a constant changes (%.8s, %.8s)", x->value, y->value);
	snprintf(st->fact, sizeof st->fact, "same arguments and program; constant %%%s is %s, then %s%s%s%s%s", x->name,
		 x->value, y->value, x->op_name[0] ? " from " : "", x->op_name, x->source[0] ? " at " : "", x->source);
	return true;
}

static bool rc_cause_program(struct rc_state *st)
{
	if (rc_all(st, rc_same_program))
		return false;
	snprintf(st->head, sizeof st->head, "the program changes, its arguments do not");
	snprintf(st->fact, sizeof st->fact, "same arguments and outputs, different programs: a static argument or "
		 "closed-over value that changes the computation");
	return true;
}

static bool rc_cause_identical(struct rc_state *st)
{
	snprintf(st->head, sizeof st->head, "identical compiles");
	snprintf(st->fact, sizeof st->fact, "the compiles are the same program with the same arguments: the jit "
		 "function object was made again (jax.jit in a loop, a new lambda or functools.partial per call)");
	return true;
}

/* What can change between compiles, in the order a user fixes it (the
 * first that holds is reported; JSON "change" is its kind). */
static const struct rc_cause {
	const char *kind;
	bool (*holds)(struct rc_state *st);
	bool listed;    /* also listed when another comes first (a batch and a dtype changed
			 * together); the others follow from any change of the arguments */
	const char *fix;
} rc_causes[] = {
	{ "arguments", rc_cause_arguments, false, "keep the argument pytree's structure fixed between calls" },
	/* Another device count changes every sharding and per-device shape. */
	{ "devices", rc_cause_devices, false, "compile for one mesh; a changing device count recompiles" },
	{ "shape", rc_cause_shape, true, "pad a changing batch or sequence length to a few bucket sizes (powers of two), "
				   "so each size compiles once" },
	{ "dtype", rc_cause_dtype, true, "cast it before the call: jnp.asarray(x, dtype)" },
	{ "sharding", rc_cause_sharding, true, "pin in_shardings in jax.jit, or jax.device_put the argument with one "
					 "sharding before every call" },
	{ "memory-space", rc_cause_space, true, "pin in_shardings with the memory kind (memory_kind='device' or "
					  "'pinned_host')" },
	{ "donation", rc_cause_donation, true, "jit the function once with its donate_argnums, and call that" },
	{ "output", rc_cause_output, false, "pass scalars as jnp.asarray(x, dtype), and make static values arguments" },
	{ "constants", rc_cause_constants, false, "a static argument or a closed-over Python value changes: pass it as a "
					   "traced argument" },
	{ "program", rc_cause_program, false, "make the changing value an argument, or keep it fixed" },
	{ "identical", rc_cause_identical, false, "create the jitted function once and reuse it" },
};

/* The cause a user fixes first: headline, fact and fix; the other listed
 * causes that hold in st->also and st->kinds. */
static void rc_explain(struct rc_state *st)
{
	char head[RC_TEXT], fact[RC_TEXT];
	size_t na = 0, nk = 0;
	st->kind = NULL;
	st->also[0] = st->kinds[0] = 0;
	for (size_t k = 0; k < sizeof rc_causes / sizeof *rc_causes && !(st->kind && !strcmp(st->kind, "devices"));
	     k++) {
		if ((st->kind && !rc_causes[k].listed) || !rc_causes[k].holds(st))
			continue;
		nk += (size_t)snprintf(st->kinds + nk, nk < sizeof st->kinds ? sizeof st->kinds - nk : 0, "%s%s",
				       nk ? "," : "", rc_causes[k].kind);
		if (!st->kind) {
			st->kind = rc_causes[k].kind;
			snprintf(st->fix, sizeof st->fix, "fix: %s", rc_causes[k].fix);
			memcpy(head, st->head, sizeof head);
			memcpy(fact, st->fact, sizeof fact);
		} else if (na < sizeof st->also) {
			na += (size_t)snprintf(st->also + na, sizeof st->also - na, "%s%s", na ? "; " : "", st->fact);
		}
	}
	memcpy(st->head, head, sizeof head);
	memcpy(st->fact, fact, sizeof fact);
}

static int rc_report(struct rc_state *st)
{
	const struct compile_sig *a = st->g[0];
	rc_explain(st);
	struct finding_place at = { a->path, a->name, a->entry, a->line, a->col, a->file_index, a->module_index };
	struct finding *f = finding_add_at(st->fc->findings, RC_RULE, FINDING_WARNING, &at, "%.20s compiled %u times: %s",
					   a->name, st->n, st->head);
	struct finding_sink *s = st->fc->findings;
	st->f = f;
	finding_fact(s, f, "%s", st->fact);
	finding_fix(s, f, "%s", st->fix);
	char list[RC_TEXT];
	size_t w = 0;
	list[0] = 0;
	for (uint32_t j = 0; j < st->n && w < sizeof list; j++) {
		const char *b = strrchr(st->g[j]->path, '/');
		w += (size_t)snprintf(list + w, sizeof list - w, "%s%s", j ? ", " : "", b ? b + 1 : st->g[j]->path);
	}
	finding_note(s, f, "compiles, in order: %s", list);
	for (uint32_t j = 1; j < st->n; j++) {
		char msg[64];
		snprintf(msg, sizeof msg, "compile %u of %u", j + 1, st->n);
		finding_also(s, f, st->g[j]->path, st->g[j]->line, st->g[j]->col, msg);
	}
	if (st->closest < RC_SURE)
		finding_note(s, f, "taken as one function although only %.0f%% of their op_names are shared",
			     st->closest * 100);
	finding_field_int(s, f, "compiles", st->n);
	finding_field_string(s, f, "change", st->kind);
	finding_field_string(s, f, "changes", st->kinds);
	if (st->also[0])
		finding_note(s, f, "also: %s", st->also);
	finding_field_string(s, f, "modules", list);
	finding_set_key(s, f, a->name);
	return 1;
}

/* Compiles by jit name, then in file order. */
struct rc_key {
	const char *name;
	uint32_t index;
};

static int rc_key_cmp(const void *pa, const void *pb)
{
	const struct rc_key *a = pa, *b = pb;
	int c = strcmp(a->name, b->name);
	return c ? c : a->index < b->index ? -1 : a->index > b->index;
}

/* One name's compiles keys[from, to): each group of one function. */
static uint32_t rc_name(struct folder_context *fc, const struct rc_key *keys, uint32_t from, uint32_t to, uint8_t *done,
			struct compile_sig **g)
{
	uint32_t found = 0;
	for (uint32_t i = from; i < to; i++) {
		if (done[i])
			continue;
		const struct compile_sig *first = fc->sigs[keys[i].index];
		struct rc_state st = { .fc = fc, .g = g, .closest = 1 };
		g[st.n++] = fc->sigs[keys[i].index];
		for (uint32_t j = i + 1; j < to; j++) {
			const struct compile_sig *b = fc->sigs[keys[j].index];
			bool any = first->nops || b->nops;
			double o = compile_ops_overlap(first, b);
			if (done[j] || (any && o < RC_SAME))
				continue;   /* another function of the same name */
			st.closest = any && o < st.closest ? o : st.closest;
			g[st.n++] = fc->sigs[keys[j].index];
			done[j] = 1;
		}
		if (st.n > 1)
			found += (uint32_t)rc_report(&st);
	}
	return found;
}

static int rc_folder(struct folder_context *fc)
{
	uint32_t n = fc->n, found = 0;
	struct rc_key *keys = xmalloc((n + 1) * sizeof *keys);
	for (uint32_t k = 0; k < n; k++)
		keys[k] = (struct rc_key){ fc->sigs[k]->name, k };
	qsort(keys, n, sizeof *keys, rc_key_cmp);
	uint8_t *done = xcalloc(n + 1, 1);
	struct compile_sig **g = xmalloc((n + 1) * sizeof *g);
	for (uint32_t from = 0, to; from < n; from = to) {
		for (to = from + 1; to < n && !strcmp(keys[to].name, keys[from].name); to++)
			;
		if (to - from > 1)
			found += rc_name(fc, keys, from, to, done, g);
	}
	free(keys);
	free(done);
	free(g);
	return (int)found;
}

const struct pass pass_recompilation = {
	.name = RC_RULE,
	.summary = "a dump folder holds the same jit function compiled more than once, and what changed",
	.rewrites = false,
	.folder = rc_folder,
};
