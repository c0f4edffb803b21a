/* verify_attrs.c - the attribute vocabulary (from attrs.def), which
 * attributes each opcode allows and requires, and the checks of their
 * values (enums, lists, shardings, windows, computation references).  It
 * does not check what values mean for shapes (verify_shapes.c). */
#include "verify_int.h"
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "lex.h"
#include "metadata.h"
#include "sharding.h"

/* ---- The attribute vocabulary ---- */


static const char *const verify_directions[] = { "EQ", "NE", "GE", "GT", "LE", "LT", NULL };
static const char *const verify_compare_types[] = { "FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED", NULL };
static const char *const verify_fft_types[] = { "FFT", "IFFT", "RFFT", "IRFFT", NULL };
static const char *const verify_padding_types[] = { "PADDING_INVALID", "PADDING_VALID", "PADDING_SAME", NULL };
static const char *const verify_distributions[] = { "rng_uniform", "rng_normal", "rng_invalid", NULL };
static const char *const verify_conv_kinds[] = { "fprop", "wgrad", "dgrad", "unset", NULL };
static const char *const verify_schedules[] = { "SCHEDULE_NONE", "SCHEDULE_LATEST", "SCHEDULE_EARLIEST", NULL };
static const char *const verify_api_versions[] = {
	"API_VERSION_ORIGINAL", "API_VERSION_STATUS_RETURNING", "API_VERSION_STATUS_RETURNING_UNIFIED",
	"API_VERSION_TYPED_FFI", NULL
};
static const char *const verify_modes[] = { "cross_replica", "cross_partition", "cross_replica_and_partition",
					    "flattened_id", NULL };
static const char *const verify_transposes[] = { "NO_TRANSPOSE", "TRANSPOSE", "ADJOINT", NULL };
static const char *const verify_precisions[] = { "default", "high", "highest", "packed_nibble", NULL };
static const char *const verify_rng_algorithms[] = { "rng_default", "rng_three_fry", "rng_philox", NULL };

struct verify_attr {
	const char *name;
	enum vkind kind;
	const char *const *names;   /* VK_ENUM spellings */
	bool nocase;
	const char *what;           /* VK_ENUM: what the value names */
	bool generic;               /* accepted on every instruction */
};

/* How each attribute's value is checked, from attrs.def, by attr_key: the
 * keys are the bit positions in the per-opcode sets. */
static const struct verify_attr verify_attrs[ATTR_COUNT] = {
#define ATTR(e, text, generic, vk, names, nocase, what, pg, pf, dflt) \
	[ATTR_##e] = { text, vk, names, nocase, what, generic },
#include "attrs.def"
#undef ATTR
};
#define VERIFY_NATTRS (sizeof verify_attrs / sizeof verify_attrs[0])
#define VERIFY_WORDS ((VERIFY_NATTRS + 63) / 64)

struct verify_set {
	uint64_t w[VERIFY_WORDS];
};

static bool verify_set_has(const struct verify_set *s, unsigned k)
{
	return s->w[k / 64] >> (k % 64) & 1;
}

static void verify_set_add(struct verify_set *s, unsigned k)
{
	s->w[k / 64] |= (uint64_t)1 << (k % 64);
}

/* ---- Per-opcode rules: "name" allowed, "!name" required ---- */

struct verify_rule_src {
	enum opcode op;
	const char *attrs;
};

static const struct verify_rule_src verify_rule_srcs[] = {
	{ OP_IOTA, "!iota_dimension" },
	{ OP_TOPK, "!k largest is_stable" },
	{ OP_ALL_GATHER, "!dimensions replica_groups channel_id constrain_layout use_global_device_ids" },
	{ OP_ALL_GATHER_START, "!dimensions replica_groups channel_id constrain_layout use_global_device_ids" },
	{ OP_ALL_REDUCE, "!to_apply replica_groups channel_id constrain_layout use_global_device_ids mode" },
	{ OP_ALL_REDUCE_START, "!to_apply replica_groups channel_id constrain_layout use_global_device_ids mode" },
	{ OP_REDUCE_SCATTER, "!to_apply !dimensions replica_groups channel_id constrain_layout "
			     "use_global_device_ids mode" },
	{ OP_ALL_TO_ALL, "replica_groups channel_id dimensions constrain_layout" },
	{ OP_RAGGED_ALL_TO_ALL, "replica_groups channel_id dimensions" },
	{ OP_COLLECTIVE_BROADCAST, "replica_groups channel_id has_dynamic_root" },
	{ OP_COLLECTIVE_PERMUTE, "!source_target_pairs channel_id slice_sizes" },
	{ OP_COLLECTIVE_PERMUTE_START, "!source_target_pairs channel_id slice_sizes" },
	{ OP_ASYNC_START, "!calls async_execution_thread output_to_operand_aliasing" },
	{ OP_ASYNC_UPDATE, "calls async_execution_thread" },
	{ OP_ASYNC_DONE, "calls async_execution_thread" },
	{ OP_COPY_START, "cross_program_prefetch_index" },
	{ OP_RESHAPE, "inferred_dimension" },
	{ OP_SORT, "!dimensions !to_apply is_stable" },
	{ OP_WHILE, "!condition !body" },
	{ OP_RECV, "channel_id is_host_transfer" },
	{ OP_RECV_DONE, "channel_id is_host_transfer" },
	{ OP_SEND, "channel_id is_host_transfer" },
	{ OP_SEND_DONE, "channel_id is_host_transfer" },
	{ OP_GET_TUPLE_ELEMENT, "!index" },
	{ OP_CALL, "!to_apply is_composite" },
	{ OP_REDUCE_WINDOW, "!to_apply window" },
	{ OP_CONVOLUTION, "!dim_labels window feature_group_count batch_group_count convolution_kind "
			  "operand_precision algorithm sparsity_config" },
	{ OP_FFT, "!fft_type !fft_length" },
	{ OP_TRIANGULAR_SOLVE, "left_side lower unit_diagonal transpose_a" },
	{ OP_COMPARE, "!direction type" },
	{ OP_CHOLESKY, "lower" },
	{ OP_BROADCAST, "dimensions" },
	{ OP_CONCATENATE, "!dimensions" },
	{ OP_MAP, "!to_apply dimensions" },
	{ OP_SCAN, "!to_apply !dimensions !num_carries is_reverse is_associative" },
	{ OP_REDUCE, "!to_apply !dimensions" },
	{ OP_REVERSE, "!dimensions" },
	{ OP_TRANSPOSE, "!dimensions" },
	{ OP_SELECT_AND_SCATTER, "!select !scatter window" },
	{ OP_SLICE, "!slice" },
	{ OP_DYNAMIC_SLICE, "!dynamic_slice_sizes" },
	{ OP_BATCH_NORM_TRAINING, "!epsilon !feature_index" },
	{ OP_BATCH_NORM_INFERENCE, "!epsilon !feature_index" },
	{ OP_BATCH_NORM_GRAD, "!epsilon !feature_index" },
	{ OP_PAD, "!padding" },
	{ OP_FUSION, "!calls !kind output_to_operand_aliasing" },
	{ OP_INFEED, "infeed_config" },
	{ OP_OUTFEED, "outfeed_config outfeed_shape" },
	{ OP_RNG, "!distribution" },
	{ OP_RNG_GET_AND_UPDATE_STATE, "!delta" },
	{ OP_RNG_BIT_GENERATOR, "!algorithm" },
	{ OP_REDUCE_PRECISION, "!exponent_bits !mantissa_bits" },
	{ OP_CONDITIONAL, "true_computation false_computation branch_computations" },
	{ OP_CUSTOM_CALL, "!custom_call_target window dim_labels feature_group_count batch_group_count "
			  "operand_layout_constraints custom_call_has_side_effect to_apply called_computations "
			  "output_to_operand_aliasing padding_type literal operand_precision schedule api_version" },
	{ OP_DOT, "lhs_batch_dims lhs_contracting_dims rhs_batch_dims rhs_contracting_dims operand_precision "
		  "algorithm" },
	{ OP_RAGGED_DOT, "lhs_batch_dims lhs_contracting_dims rhs_batch_dims rhs_contracting_dims "
			 "lhs_ragged_dims rhs_group_dims operand_precision" },
	{ OP_SCALED_DOT, "lhs_batch_dims lhs_contracting_dims rhs_batch_dims rhs_contracting_dims "
			 "operand_precision algorithm" },
	{ OP_GATHER, "!offset_dims !collapsed_slice_dims !start_index_map !index_vector_dim !slice_sizes "
		     "indices_are_sorted operand_batching_dims start_indices_batching_dims" },
	{ OP_SCATTER, "!update_window_dims !inserted_window_dims !scatter_dims_to_operand_dims "
		      "!index_vector_dim !to_apply indices_are_sorted unique_indices input_batching_dims "
		      "scatter_indices_batching_dims" },
	{ OP_DOMAIN, "!domain" },
	{ OP_GET_DIMENSION_SIZE, "!dimensions" },
	{ OP_SET_DIMENSION_SIZE, "!dimensions" },
};

/* Unary ops that also take result_accuracy (XLA's transcendental list). */
static const enum opcode verify_accuracy_ops[] = {
	OP_ACOS, OP_ACOSH, OP_ASIN, OP_ASINH, OP_ATANH, OP_EXPONENTIAL_MINUS_ONE, OP_LOG, OP_LOG_PLUS_ONE,
	OP_LOGISTIC, OP_SQRT, OP_CBRT, OP_RSQRT, OP_TANH, OP_ERF, OP_SINE, OP_SINH, OP_COSINE, OP_COSH,
	OP_TAN, OP_EXPONENTIAL,
};

/* dimensions= holds exactly one entry for these. */
bool verify_one_dimension(enum opcode op)
{
	switch (op) {
	case OP_ALL_GATHER: case OP_ALL_GATHER_START: case OP_REDUCE_SCATTER: case OP_ALL_TO_ALL:
	case OP_RAGGED_ALL_TO_ALL: case OP_SORT: case OP_CONCATENATE: case OP_SCAN:
	case OP_GET_DIMENSION_SIZE: case OP_SET_DIMENSION_SIZE:
		return true;
	default:
		return false;
	}
}

struct verify_rule {
	struct verify_set allowed, required;
};

/* Built once from the tables above (pthread_once: -j workers verify at the
 * same time); read-only afterwards. */
static struct verify_tables {
	struct verify_rule rules[OP_COUNT];
	const char *bad_rule;       /* a rule names an attribute missing from verify_attrs */
} verify_tab;

/* The key of an instruction attribute named s[0..n), or -1 (the rules'
 * names are read once, at start-up). */
static int verify_lookup(const char *s, size_t n)
{
	for (unsigned k = 1; k < VERIFY_NATTRS; k++)
		if (verify_attrs[k].kind != VK_NONE && !strncmp(verify_attrs[k].name, s, n) && !verify_attrs[k].name[n])
			return (int)k;
	return -1;
}

/* The verify_attrs entry of an instruction's attribute: its key, or -1. */
static int verify_key(const struct hlo_attr *at)
{
	return at->key != ATTR_UNKNOWN && at->key < ATTR_COUNT && verify_attrs[at->key].kind != VK_NONE ? at->key : -1;
}

static void verify_attrs_build(void)
{
	for (unsigned op = 0; op < OP_COUNT; op++)
		for (unsigned k = 1; k < VERIFY_NATTRS; k++)
			if (verify_attrs[k].generic)
				verify_set_add(&verify_tab.rules[op].allowed, k);
	int acc = ATTR_RESULT_ACCURACY;
	for (size_t k = 0; k < sizeof verify_accuracy_ops / sizeof verify_accuracy_ops[0]; k++)
		verify_set_add(&verify_tab.rules[verify_accuracy_ops[k]].allowed, (unsigned)acc);
	for (size_t r = 0; r < sizeof verify_rule_srcs / sizeof verify_rule_srcs[0]; r++) {
		struct verify_rule *rule = &verify_tab.rules[verify_rule_srcs[r].op];
		for (const char *p = verify_rule_srcs[r].attrs; *p;) {
			while (*p == ' ')
				p++;
			bool req = *p == '!';
			p += req;
			size_t n = strcspn(p, " ");
			if (!n)
				break;
			int k = verify_lookup(p, n);
			if (k < 0) {
				verify_tab.bad_rule = p;  /* reported by verify_module */
				p += n;
				continue;
			}
			verify_set_add(&rule->allowed, (unsigned)k);
			if (req)
				verify_set_add(&rule->required, (unsigned)k);
			p += n;
		}
	}
}

/* Builds the rule tables once; the first rule naming an unknown attribute, or NULL. */
const char *verify_attrs_init(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, verify_attrs_build);
	return verify_tab.bad_rule;
}

static bool verify_enum_text(const struct verify_attr *va, const char *s, size_t n)
{
	for (int k = 0; va->names[k]; k++) {
		const char *name = va->names[k];
		if (strlen(name) != n)
			continue;
		if (!va->nocase ? !memcmp(name, s, n) : !strncasecmp(name, s, n))
			return true;
	}
	return false;
}

/* True when the value text at sp starts an inline computation body
 * "{ [ROOT] name = ..." rather than a list "{%a, %b}".  Looks at the first
 * two tokens only: re-reading nested bodies once per enclosing level would
 * be quadratic. */
static bool verify_text_is_body(const struct verify_ctx *v, struct span sp)
{
	const char *p = v->f->src->buf + sp.start, *end = v->f->src->buf + sp.end;
	if (p >= end || *p++ != '{')
		return false;
	for (int tok = 0; tok < 2; tok++) {
		p += lex_skip_blank(p, (size_t)(end - p), 0, NULL);
		if (tok == 0) {
			p += p < end && *p == '%';
			const char *q = p;
			while (q < end && lex_is_name_char(*q))
				q++;
			if (q == p)
				return false;
			if (q - p == 4 && !memcmp(p, "ROOT", 4))
				return true;
			p = q;
		} else {
			return p < end && *p == '=';
		}
	}
	return false;
}

/* Items of a computation list value {a, b, ...} without decoding it: flat
 * lists are counted by commas; lists holding inline bodies use the callees
 * resolve.c found (bodies always resolve).  -1 when it is not a list. */
int64_t verify_comp_list_count(const struct verify_ctx *v, const struct hlo_instr *i, struct span sp)
{
	const char *p = v->f->src->buf + sp.start, *end = v->f->src->buf + sp.end;
	if (end - p < 2 || *p != '{' || end[-1] != '}')
		return -1;
	int64_t n = 0;
	bool item = false;
	for (const char *q = p + 1; q < end - 1; q++) {
		size_t rest = (size_t)(end - 1 - q);
		if (lex_at_comment(q, rest, 0)) {
			q += lex_comment_end(q, rest, 0, NULL) - 1;
			continue;
		}
		if (*q == '{')
			return i ? (int64_t)i->ncallees : -1;
		if (*q == ',') {
			n += item;
			item = false;
		} else if (*q != ' ' && *q != '\t' && *q != '\n' && *q != '\r') {
			item = true;
		}
	}
	return n + item;
}

/* Cheap checks on the raw text of the common attribute kinds; true when
 * the value is certainly fine, false to take the tree path. */
static bool verify_fast_value(struct verify_ctx *v, const struct verify_attr *va, struct span sp)
{
	const char *s;
	size_t n;
	int64_t x;
	bool b;
	struct attr_ints l;
	struct attr_int_lists ll;
	struct hlo_slice sl;
	struct hlo_aliases al;
	switch (va->kind) {
	case VK_INT:
		return attr_text_int(v->f, sp, &x);
	case VK_INT32:
		return attr_text_int(v->f, sp, &x) && x >= INT32_MIN && x <= INT32_MAX;
	case VK_BOOL:
		return attr_text_bool(v->f, sp, &b);
	case VK_ENUM:
		return attr_text_ident(v->f, sp, &s, &n) && s[0] != '%' && verify_enum_text(va, s, n);
	case VK_COMP:
	case VK_CALLS:
		return attr_text_ident(v->f, sp, &s, &n) || verify_text_is_body(v, sp);
	case VK_COMPS:
		/* resolve.c already rejected items that are not computations;
		 * lists with inline bodies are not re-read (nesting). */
		s = ir_text(v->f, sp);
		return span_len(sp) >= 2 && s[0] == '{' && (memchr(s + 1, '{', span_len(sp) - 1) ||
							    !memchr(s + 1, '=', span_len(sp) - 1));
	case VK_INTS:
		return attr_text_ints(v->f, sp, &v->scratch, &l);
	case VK_REPLICA_GROUPS:
		/* The list spelling; iota and mesh groups are parsed. */
		return attr_text_int_lists(v->f, sp, &v->scratch, &ll);
	case VK_PAIRS:
		if (!attr_text_int_lists(v->f, sp, &v->scratch, &ll))
			return false;
		for (uint32_t k = 0; k < ll.n; k++)
			if (ll.lists[k].n != 2)
				return false;
		return true;
	case VK_OPERAND_ALIASING:
		return attr_text_aliases(v->f, sp, &v->scratch, &al);
	case VK_SLICE:
		/* verify_shape_slice reads the ranges from the text again. */
		return attr_text_slice(v->f, sp, &v->scratch, &sl);
	case VK_STRING:
		/* The scanner already checked the string token itself. */
		s = ir_text(v->f, sp);
		return span_len(sp) >= 2 && (s[0] == '"' || s[0] == '\'') && s[span_len(sp) - 1] == s[0];
	default:
		return false;
	}
}

/* ---- Attribute values ---- */

static bool verify_is_comp_ref(const struct hlo_value *c)
{
	return c && (c->kind == V_NAME || c->kind == V_IDENT || c->kind == V_BODY);
}

static bool verify_sharding_rank(const struct hlo_shape *shape, const struct hlo_sharding *sh,
				 struct attr_error *e)
{
	uint32_t rank = sharding_data_rank(sh);
	bool tiles = sh->kind == SHARDING_TILED || (sh->kind == SHARDING_NAMED && sh->ndims);
	if (!tiles || !ir_shape_is_array(shape) || rank == shape->rank)
		return true;
	e->span = sh->span;
	snprintf(e->msg, sizeof e->msg, "sharding tiles %u dimension%s but the shape has rank %u", rank,
		 rank == 1 ? "" : "s", shape->rank);
	return false;
}

/* A non-tuple sharding on an array must tile its rank (XLA's
 * HloSharding::Validate).  Tuple shardings are not counted against leaves:
 * real dumps put {{..},{..}} on outfeed tokens and one element on (). */
/* A sharding the devices of module m can hold (HloSharding::Validate):
 * no negative device, and, where the header gives num_partitions or
 * replica_count, no more tiles than partitions x replicas (an iota
 * naming 10^12 devices on a 4-way module). */
static bool verify_sharding_devices(const struct hlo_module *m, const struct hlo_value *val,
				    const struct hlo_sharding *sh, struct attr_error *e)
{
	if (sh->kind == SHARDING_MAXIMAL && sh->device < 0) {
		e->span = val->span;
		snprintf(e->msg, sizeof e->msg, "maximal sharding device %lld is negative", (long long)sh->device);
		return false;
	}
	uint64_t n = (uint64_t)(m->num_partitions > 0 ? m->num_partitions : 1) *
		     (uint64_t)(m->replica_count > 0 ? m->replica_count : 1);
	bool stated = ir_module_attr(m, ATTR_NUM_PARTITIONS) || ir_module_attr(m, ATTR_REPLICA_COUNT);
	if (stated && sh->kind == SHARDING_TILED && sh->tiles.count > n) {
		e->span = val->span;
		snprintf(e->msg, sizeof e->msg,
			 "the tile assignment names %llu devices; the module has %llu (num_partitions x replica_count)",
			 (unsigned long long)sh->tiles.count, (unsigned long long)n);
		return false;
	}
	return true;
}

static bool verify_sharding_fits(const struct hlo_instr *i, const struct hlo_sharding *sh, struct attr_error *e,
				 const struct hlo_value *val)
{
	const struct hlo_shape *shape = i->shape;
	/* HloSharding::Validate: "Sharding is tuple-shaped but validation
	 * shape is not"; an outfeed's token result is sharded as its
	 * (operand, token) pair (real modules in ../shared/corpora). */
	if (shape && sh->kind == SHARDING_TUPLE && shape->type != PT_TUPLE && i->op != OP_OUTFEED) {
		e->span = val->span;
		snprintf(e->msg, sizeof e->msg, "a tuple sharding on an array result");
		return false;
	}
	return !shape || sh->kind == SHARDING_TUPLE || shape->type == PT_TUPLE ||
	       verify_sharding_rank(shape, sh, e);
}

/* Decodes and checks one attribute value by kind; keeps the tree in *out. */
/* A computation reference (a name or an inline body), several after calls=, or a {list}. */
static bool verify_value_comps(const struct hlo_instr *i, const struct verify_attr *va, const struct hlo_value *val,
			       struct attr_error *err)
{
	bool ok = true;
	switch (va->kind) {
	case VK_COMP:
		if (!verify_is_comp_ref(val)) {
			ok = false;
			err->span = val->span;
			snprintf(err->msg, sizeof err->msg, "expected one computation");
		}
		break;
	case VK_CALLS:
		if (val->kind == V_SEQ && (i->op == OP_FUSION || i->op == OP_ASYNC_START)) {
			ok = false;
			err->span = val->span;
			snprintf(err->msg, sizeof err->msg, "'%s' calls exactly one computation", verify_op_name(i));
		}
		for (const struct hlo_value *c = val->kind == V_SEQ ? val->child : val; c && ok;
		     c = val->kind == V_SEQ ? c->next : NULL)
			if (!verify_is_comp_ref(c)) {
				ok = false;
				err->span = c->span;
				snprintf(err->msg, sizeof err->msg, "expected a computation");
			}
		break;
	case VK_COMPS:
		if (val->kind != V_BRACE) {
			ok = false;
			err->span = val->span;
			snprintf(err->msg, sizeof err->msg, "expected a list of computations like {%%a, %%b}");
		}
		for (const struct hlo_value *c = ok ? val->child : NULL; c && ok; c = c->next)
			if (!verify_is_comp_ref(c) || (c != val->child && !c->comma_before)) {
				ok = false;
				err->span = c->span;
				snprintf(err->msg, sizeof err->msg, "expected a comma-separated list of computations");
			}
		break;
	default:
		break;
	}
	return ok;
}

/* An enum, a list of operand precisions, or a random or dot algorithm. */
static bool verify_value_enum(struct verify_ctx *v, const struct hlo_instr *i, const struct verify_attr *va,
			      const struct hlo_value *val, struct attr_error *err)
{
	bool ok = true;
	switch (va->kind) {
	case VK_ENUM:
		if (va->names == verify_api_versions && val->kind == V_IDENT &&
		    !strcmp(val->key->str, "API_VERSION_UNSPECIFIED")) {
			/* Older XLA printed it (torch-neuron dumps); current XLA rejects it. */
			if (verify_first_warning(v, val->key->str, val->key->len))
				verify_warning(v, val->span, "API_VERSION_UNSPECIFIED is rejected by current XLA (reported once)");
			break;
		}
		ok = attr_enum(val, va->names, va->nocase, va->what, err) >= 0;
		break;
	case VK_PRECISION:
		if (val->kind != V_BRACE) {
			ok = false;
			err->span = val->span;
			snprintf(err->msg, sizeof err->msg, "expected a list like {default,default}");
		}
		for (const struct hlo_value *c = ok ? val->child : NULL; c && ok; c = c->next)
			ok = attr_enum(c, verify_precisions, true, "operand precision", err) >= 0;
		break;
	case VK_ALGORITHM:
		if (verify_effective_op(i) == OP_RNG_BIT_GENERATOR) {
			ok = attr_enum(val, verify_rng_algorithms, true, "random algorithm", err) >= 0;
		} else if (val->kind != V_IDENT || (strncmp(val->key->str, "dot_", 4) &&
						    strncmp(val->key->str, "DOT_", 4) &&
						    strcmp(val->key->str, "unset"))) {
			/* Dot algorithms grow with every XLA release: accept the family. */
			ok = false;
			err->span = val->span;
			snprintf(err->msg, sizeof err->msg, "expected a dot algorithm like dot_bf16_bf16_f32");
		}
		break;
	default:
		break;
	}
	return ok;
}

/* A decoded value against its kind (verify_attrs). */
static bool verify_value_decoded(struct verify_ctx *v, const struct hlo_instr *i, const struct verify_attr *va,
				 struct hlo_value *val, struct attr_error *err)
{
	struct arena *a = &v->scratch;
	bool ok = true;
	int64_t x;
	bool b;
	double d;
	char *s;
	switch (va->kind) {
	case VK_INT:
		ok = attr_int(val, &x, err);
		break;
	case VK_INT32:
		ok = attr_int32(val, &x, err);
		break;
	case VK_BOOL:
		ok = attr_bool(val, &b, err);
		break;
	case VK_FLOAT:
		ok = attr_float(val, &d, err);
		break;
	case VK_STRING:
		ok = attr_string(v->f, val, a, &s, NULL, err);
		break;
	case VK_INTS: {
		struct attr_ints l;
		ok = attr_ints(val, a, &l, err);
		break;
	}
	case VK_SLICE_SIZES: {
		struct attr_int_lists ll;
		struct attr_ints l;
		ok = verify_effective_op(i) == OP_GATHER ? attr_ints(val, a, &l, err) : attr_int_lists(val, a, &ll, err);
		break;
	}
	case VK_BOOLS: {
		struct attr_bools l;
		ok = attr_bools(val, a, &l, err);
		break;
	}
	case VK_COMP:
	case VK_CALLS:
	case VK_COMPS:
		ok = verify_value_comps(i, va, val, err);
		break;
	case VK_ENUM:
	case VK_PRECISION:
	case VK_ALGORITHM:
		ok = verify_value_enum(v, i, va, val, err);
		break;
	case VK_SHARDING: {
		struct hlo_sharding sh;
		ok = sharding_decode(v->f, val, a, &sh, err) && verify_sharding_fits(i, &sh, err, val) &&
		     verify_sharding_devices(v->m, val, &sh, err);
		break;
	}
	case VK_WINDOW: {
		struct hlo_window w;
		ok = attr_window(v->f, val, a, &w, err);
		break;
	}
	case VK_SLICE: {
		struct hlo_slice sl;
		ok = attr_slice(val, a, &sl, err);
		break;
	}
	case VK_PADDING: {
		struct hlo_padding p;
		ok = attr_padding(v->f, val, a, &p, err);
		break;
	}
	case VK_DIM_LABELS: {
		struct hlo_conv_dims cd;
		ok = attr_dim_labels(v->f, val, a, &cd, err);
		break;
	}
	case VK_REPLICA_GROUPS: {
		struct hlo_replica_groups rg;
		ok = sharding_replica_groups(v->f, val, a, &rg, err);
		break;
	}
	case VK_PAIRS: {
		struct attr_int_lists l;
		ok = attr_source_target_pairs(val, a, &l, err);
		break;
	}
	case VK_SHAPES: {
		struct attr_shapes sh;
		ok = attr_shapes(val, a, &sh, err);
		break;
	}
	case VK_SHAPE:
		if (val->kind != V_SHAPE && val->kind != V_PAREN) {
			ok = false;
			err->span = val->span;
			snprintf(err->msg, sizeof err->msg, "expected a shape");
		}
		break;
	case VK_OPERAND_ALIASING: {
		struct hlo_aliases al;
		ok = attr_aliases(val, a, false, &al, err);
		break;
	}
	case VK_RESULT_ACCURACY:
		ok = attr_result_accuracy(val, err);
		break;
	case VK_DOMAIN:
		ok = sharding_domain(v->f, val, a, err);
		break;
	case VK_STATISTICS:
		ok = attr_statistics(val, err);
		break;
	default:
		break;
	}
	return ok;
}

static void verify_attr_value(struct verify_ctx *v, const struct hlo_instr *i, const struct hlo_attr *at,
			      int idx, struct hlo_value **out)
{
	const struct verify_attr *va = &verify_attrs[idx];
	struct attr_error e = { .span = span_none(), .msg = "" };
	struct arena *a = &v->scratch;
	*out = NULL;
	if (verify_fast_value(v, va, ir_attr_value(at)))
		return;
	switch (va->kind) {
	case VK_ANY:
		return;
	case VK_METADATA: {
		struct hlo_metadata md;
		if (!metadata_decode(v->f, ir_attr_value(at), NULL, &md, &e))
			verify_attr_error(v, at, &e);
		else if (!span_is_none(md.unknown_key) &&
			 verify_first_warning(v, ir_text(v->f, md.unknown_key), (size_t)span_len(md.unknown_key)))
			verify_warning(v, md.unknown_key, "unknown metadata field '%.*s' (reported once)",
				       (int)span_len(md.unknown_key), ir_text(v->f, md.unknown_key));
		return;
	}
	case VK_FRONTEND: {
		struct hlo_frontend_attrs fa;
		if (!metadata_frontend(v->f, ir_attr_value(at), a, &fa, &e))
			verify_attr_error(v, at, &e);
		return;
	}
	default:
		break;
	}
	struct hlo_value *val = attr_parse(v->f, at, a, &e);
	if (!val) {
		verify_attr_error(v, at, &e);
		return;
	}
	*out = val;
	bool ok = verify_value_decoded(v, i, va, val, &e);
	if (!ok) {
		verify_attr_error(v, at, &e);
		*out = NULL;
	}
}

/* Collects and checks the attributes of i against rule; fills v->found. */
static void verify_attrs_of(struct verify_ctx *v, const struct hlo_instr *i, const struct verify_rule *rule,
			    const char *opname)
{
	struct verify_set seen = { { 0 } };
	v->nfound = 0;
	if (i->nattrs > v->capfound) {
		v->capfound = i->nattrs;
		v->found = xreallocarray(v->found, v->capfound, sizeof *v->found);
	}
	for (uint32_t k = 0; k < i->nattrs; k++) {
		const struct hlo_attr *at = &ir_attrs(i)[k];
		int idx = verify_key(at);
		if (idx < 0) {
			/* Unknown to every opcode: maybe a newer XLA; XLA itself rejects it.
			 * Duplicates among unknown names: pairwise, for the first 64 only
			 * (bounded work on absurd inputs). */
			bool dup = false;
			for (uint32_t j = 0; j < k && k < 64 && !dup; j++)
				dup = ir_attr_same_name(v->f, &ir_attrs(i)[j], at);
			if (dup)
				verify_error(v, ir_attr_name_span(at), "attribute '%.*s' already exists", IR_ANM(v->f, at));
			else if (verify_first_warning(v, ir_attr_name_text(v->f, at), at->name_len))
				verify_warning(v, ir_attr_name_span(at), "unknown attribute '%.*s' for '%s' (reported once)",
					       IR_ANM(v->f, at), opname);
			continue;
		}
		if (!verify_set_has(&rule->allowed, (unsigned)idx)) {
			verify_error(v, ir_attr_name_span(at), "attribute '%.*s' is not allowed for '%s'", IR_ANM(v->f, at),
				     opname);
			continue;
		}
		if (verify_set_has(&seen, (unsigned)idx)) {
			verify_error(v, ir_attr_name_span(at), "attribute '%.*s' already exists", IR_ANM(v->f, at));
			continue;
		}
		verify_set_add(&seen, (unsigned)idx);
		struct verify_found *fo = &v->found[v->nfound++];
		unsigned before = v->errors;
		fo->idx = idx;
		fo->attr = at;
		verify_attr_value(v, i, at, idx, &fo->value);
		fo->bad = v->errors != before;
	}
	for (unsigned w = 0; w < VERIFY_WORDS; w++) {
		uint64_t missing = rule->required.w[w] & ~seen.w[w];
		for (unsigned b = 0; missing; b++, missing >>= 1)
			if (missing & 1)
				verify_error(v, ir_instr_opcode_span(i), "'%s' needs attribute '%s'", opname,
					     verify_attrs[w * 64 + b].name);
	}
}

/* The attributes of i against its opcode's rule: <op>-start sugar takes
 * the wrapped op's and async_execution_thread; -update/-done only the
 * async ones. */
void verify_instr_attrs(struct verify_ctx *v, const struct hlo_instr *i, const char *opname)
{
	const struct verify_rule *rule = &verify_tab.rules[i->op];
	struct verify_rule sugar;
	if (i->async_wrapped != OP_COUNT && i->op == OP_ASYNC_START) {
		sugar = verify_tab.rules[i->async_wrapped];
		verify_set_add(&sugar.allowed, ATTR_ASYNC_EXECUTION_THREAD);
		rule = &sugar;
	}
	verify_attrs_of(v, i, rule, opname);
}
