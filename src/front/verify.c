/* verify.c - checks a resolved module the way XLA's parser would reject it
 * (operand counts, per-opcode attributes and values, ROOT, literals, async
 * chains, cheap shape rules, header), each error at its span.  Linear: values
 * are decoded into per-instruction scratch; it never changes the IR. */
#include "verify.h"
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "attr.h"
#include "lex.h"
#include "literal.h"
#include "sharding.h"

/* ---- The attribute vocabulary ---- */

enum vkind {
	VK_NONE,           /* not an instruction attribute (a module's), or no name */
	VK_ANY,            /* not decoded (backend_config, origin, literal, ...) */
	VK_INT, VK_INT32, VK_BOOL, VK_FLOAT, VK_STRING, VK_INTS, VK_BOOLS,
	VK_COMP,           /* one computation (name or inline body) */
	VK_COMPS,          /* {comp, ...} */
	VK_CALLS,          /* calls=: one computation, or several comma separated */
	VK_ENUM, VK_SHARDING, VK_METADATA, VK_FRONTEND, VK_WINDOW, VK_SLICE, VK_PADDING,
	VK_DIM_LABELS, VK_REPLICA_GROUPS, VK_PAIRS, VK_SHAPES, VK_SHAPE, VK_OPERAND_ALIASING,
	VK_RESULT_ACCURACY, VK_DOMAIN, VK_STATISTICS, VK_PRECISION, VK_ALGORITHM,
	VK_SLICE_SIZES,    /* gather: {ints}; collective-permute: {{ints}...} */
};

static const char *const verify_directions[] = { "EQ", "NE", "GE", "GT", "LE", "LT", NULL };
static const char *const verify_compare_types[] = { "FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED", NULL };
static const char *const verify_fusion_kinds[] = { "kLoop", "kInput", "kOutput", "kCustom", NULL };
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
static bool verify_one_dimension(enum opcode op)
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

/* Built once from the tables above; read-only afterwards. */
static struct verify_tables {
	bool ready;
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

static void verify_init_tables(void)
{
	if (verify_tab.ready)
		return;
	for (unsigned op = 0; op < OP_COUNT; op++)
		for (unsigned k = 1; k < VERIFY_NATTRS; k++)
			if (verify_attrs[k].generic)
				verify_set_add(&verify_tab.rules[op].allowed, k);
	int acc = verify_lookup("result_accuracy", 15);
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
	verify_tab.ready = true;
}

/* ---- Context and reporting ---- */

struct verify_found {
	int idx;                    /* verify_attrs index */
	const struct hlo_attr *attr;
	struct hlo_value *value;    /* decoded tree (scratch), NULL until needed */
	bool bad;                   /* the value was reported invalid */
};

struct verify_ctx {
	struct hlo_module *m;
	struct hlo_file *f;
	struct diag_sink *d;
	struct arena scratch;       /* decoded values, released per instruction */
	unsigned errors;
	struct hlo_instr **chain;   /* per computation: async-start of each async op */
	uint32_t nchain;
	/* the attributes of the instruction being checked */
	struct verify_found *found;
	uint32_t nfound, capfound;
	/* Warnings are not capped by --max-errors: each kind is reported once
	 * per module (a newer XLA may put a new attribute on every line). */
	const char *warned[32];
	size_t warned_len[32];
	uint32_t nwarned;
};

/* True the first time key (len bytes) is seen in this module. */
static bool verify_first_warning(struct verify_ctx *v, const char *key, size_t len)
{
	for (uint32_t k = 0; k < v->nwarned; k++)
		if (v->warned_len[k] == len && !memcmp(v->warned[k], key, len))
			return false;
	if (v->nwarned == sizeof v->warned / sizeof v->warned[0])
		return false;
	v->warned[v->nwarned] = key;
	v->warned_len[v->nwarned++] = len;
	return true;
}

static void verify_error(struct verify_ctx *v, struct span sp, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void verify_error(struct verify_ctx *v, struct span sp, const char *fmt, ...)
{
	va_list ap;
	v->errors++;
	va_start(ap, fmt);
	diag_vreport(v->d, v->f->src, sp, DIAG_ERROR, fmt, ap);
	va_end(ap);
}

static void verify_warning(struct verify_ctx *v, struct span sp, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void verify_warning(struct verify_ctx *v, struct span sp, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vreport(v->d, v->f->src, sp, DIAG_WARNING, fmt, ap);
	va_end(ap);
}

/* Reports a decoder error at its span (the whole value when it has none). */
static void verify_attr_error(struct verify_ctx *v, const struct hlo_attr *at, const struct attr_error *e)
{
	struct span sp = span_is_none(e->span) ? ir_attr_value(at) : e->span;
	verify_error(v, sp, "invalid '%s': %s", at->name->str, e->msg);
}

static const char *verify_op_name(const struct hlo_instr *i)
{
	return ir_opcode_name((enum opcode)i->op);
}

/* The opcode whose attributes i carries: the wrapped one for <op>-start. */
static enum opcode verify_effective_op(const struct hlo_instr *i)
{
	return i->op == OP_ASYNC_START && i->async_wrapped != OP_COUNT ? (enum opcode)i->async_wrapped
									: (enum opcode)i->op;
}

/* The written result shape of i ("f32[2]{0}" before the opcode). */
static struct span verify_shape_span(const struct verify_ctx *v, const struct hlo_instr *i)
{
	const char *buf = v->f->src->buf;
	uint64_t a = i->start + i->name_off + i->name_len, b = i->start + i->op_off;
	while (a < b && buf[a] != '=')
		a++;
	if (a < b)
		a++;
	while (a < b && (buf[a] == ' ' || buf[a] == '\t' || buf[a] == '\n' || buf[a] == '\r'))
		a++;
	while (b > a && (buf[b - 1] == ' ' || buf[b - 1] == '\t' || buf[b - 1] == '\n' || buf[b - 1] == '\r'))
		b--;
	return a < b ? span_make(a, b) : ir_instr_opcode_span(i);
}

static const char *verify_shape_str(const struct hlo_shape *s, char *buf, size_t cap)
{
	ir_shape_format(s, false, buf, cap);
	return buf;
}

static struct verify_found *verify_find(struct verify_ctx *v, const char *name)
{
	for (uint32_t k = 0; k < v->nfound; k++)
		if (!strcmp(verify_attrs[v->found[k].idx].name, name))
			return &v->found[k];
	return NULL;
}

/* The decoded tree of a found attribute (parsed on first use); NULL when
 * its value was invalid (already reported). */
static struct hlo_value *verify_value(struct verify_ctx *v, struct verify_found *fo)
{
	if (!fo || fo->bad)
		return NULL;
	if (!fo->value)
		fo->value = attr_parse(v->f, fo->attr, &v->scratch, NULL);
	return fo->value;
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
			while (q < end && (isalnum((unsigned char)*q) || *q == '_' || *q == '.' || *q == '-'))
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
static int64_t verify_comp_list_count(const struct verify_ctx *v, const struct hlo_instr *i, struct span sp)
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
static bool verify_sharding_fits(const struct hlo_shape *shape, const struct hlo_sharding *sh,
				 struct attr_error *e)
{
	return !shape || sh->kind == SHARDING_TUPLE || shape->type == PT_TUPLE ||
	       verify_sharding_rank(shape, sh, e);
}

/* Decodes and checks one attribute value by kind; keeps the tree in *out. */
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
		if (!attr_metadata(v->f, ir_attr_value(at), NULL, &md, &e))
			verify_attr_error(v, at, &e);
		else if (!span_is_none(md.unknown_key) &&
			 verify_first_warning(v, ir_text(v->f, md.unknown_key), (size_t)span_len(md.unknown_key)))
			verify_warning(v, md.unknown_key, "unknown metadata field '%.*s' (reported once)",
				       (int)span_len(md.unknown_key), ir_text(v->f, md.unknown_key));
		return;
	}
	case VK_FRONTEND: {
		struct hlo_frontend_attrs fa;
		if (!attr_frontend_attributes(v->f, ir_attr_value(at), a, &fa, &e))
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
	bool ok = true;
	int64_t x;
	bool b;
	double d;
	char *s;
	switch (va->kind) {
	case VK_INT:
		ok = attr_int(val, &x, &e);
		break;
	case VK_INT32:
		ok = attr_int32(val, &x, &e);
		break;
	case VK_BOOL:
		ok = attr_bool(val, &b, &e);
		break;
	case VK_FLOAT:
		ok = attr_float(val, &d, &e);
		break;
	case VK_STRING:
		ok = attr_string(v->f, val, a, &s, NULL, &e);
		break;
	case VK_INTS: {
		struct attr_ints l;
		ok = attr_ints(val, a, &l, &e);
		break;
	}
	case VK_SLICE_SIZES: {
		struct attr_int_lists ll;
		struct attr_ints l;
		ok = verify_effective_op(i) == OP_GATHER ? attr_ints(val, a, &l, &e) : attr_int_lists(val, a, &ll, &e);
		break;
	}
	case VK_BOOLS: {
		struct attr_bools l;
		ok = attr_bools(val, a, &l, &e);
		break;
	}
	case VK_COMP:
		if (!verify_is_comp_ref(val)) {
			ok = false;
			e.span = val->span;
			snprintf(e.msg, sizeof e.msg, "expected one computation");
		}
		break;
	case VK_CALLS:
		if (val->kind == V_SEQ && (i->op == OP_FUSION || i->op == OP_ASYNC_START)) {
			ok = false;
			e.span = val->span;
			snprintf(e.msg, sizeof e.msg, "'%s' calls exactly one computation", verify_op_name(i));
		}
		for (const struct hlo_value *c = val->kind == V_SEQ ? val->child : val; c && ok;
		     c = val->kind == V_SEQ ? c->next : NULL)
			if (!verify_is_comp_ref(c)) {
				ok = false;
				e.span = c->span;
				snprintf(e.msg, sizeof e.msg, "expected a computation");
			}
		break;
	case VK_COMPS:
		if (val->kind != V_BRACE) {
			ok = false;
			e.span = val->span;
			snprintf(e.msg, sizeof e.msg, "expected a list of computations like {%%a, %%b}");
		}
		for (const struct hlo_value *c = ok ? val->child : NULL; c && ok; c = c->next)
			if (!verify_is_comp_ref(c) || (c != val->child && !c->comma_before)) {
				ok = false;
				e.span = c->span;
				snprintf(e.msg, sizeof e.msg, "expected a comma-separated list of computations");
			}
		break;
	case VK_ENUM:
		if (va->names == verify_api_versions && val->kind == V_IDENT &&
		    !strcmp(val->key->str, "API_VERSION_UNSPECIFIED")) {
			/* Older XLA printed it (torch-neuron dumps); current XLA rejects it. */
			if (verify_first_warning(v, val->key->str, val->key->len))
				verify_warning(v, val->span, "API_VERSION_UNSPECIFIED is rejected by current XLA (reported once)");
			break;
		}
		ok = attr_enum(val, va->names, va->nocase, va->what, &e) >= 0;
		break;
	case VK_PRECISION:
		if (val->kind != V_BRACE) {
			ok = false;
			e.span = val->span;
			snprintf(e.msg, sizeof e.msg, "expected a list like {default,default}");
		}
		for (const struct hlo_value *c = ok ? val->child : NULL; c && ok; c = c->next)
			ok = attr_enum(c, verify_precisions, true, "operand precision", &e) >= 0;
		break;
	case VK_ALGORITHM:
		if (verify_effective_op(i) == OP_RNG_BIT_GENERATOR) {
			ok = attr_enum(val, verify_rng_algorithms, true, "random algorithm", &e) >= 0;
		} else if (val->kind != V_IDENT || (strncmp(val->key->str, "dot_", 4) &&
						    strncmp(val->key->str, "DOT_", 4) &&
						    strcmp(val->key->str, "unset"))) {
			/* Dot algorithms grow with every XLA release: accept the family. */
			ok = false;
			e.span = val->span;
			snprintf(e.msg, sizeof e.msg, "expected a dot algorithm like dot_bf16_bf16_f32");
		}
		break;
	case VK_SHARDING: {
		struct hlo_sharding sh;
		ok = sharding_decode(v->f, val, a, &sh, &e) && verify_sharding_fits(i->shape, &sh, &e);
		break;
	}
	case VK_WINDOW: {
		struct hlo_window w;
		ok = attr_window(v->f, val, a, &w, &e);
		break;
	}
	case VK_SLICE: {
		struct hlo_slice sl;
		ok = attr_slice(val, a, &sl, &e);
		break;
	}
	case VK_PADDING: {
		struct hlo_padding p;
		ok = attr_padding(v->f, val, a, &p, &e);
		break;
	}
	case VK_DIM_LABELS: {
		struct hlo_conv_dims cd;
		ok = attr_dim_labels(v->f, val, a, &cd, &e);
		break;
	}
	case VK_REPLICA_GROUPS: {
		struct hlo_replica_groups rg;
		ok = sharding_replica_groups(v->f, val, a, &rg, &e);
		break;
	}
	case VK_PAIRS: {
		struct attr_int_lists l;
		ok = attr_source_target_pairs(val, a, &l, &e);
		break;
	}
	case VK_SHAPES: {
		struct attr_shapes sh;
		ok = attr_shapes(val, a, &sh, &e);
		break;
	}
	case VK_SHAPE:
		if (val->kind != V_SHAPE && val->kind != V_PAREN) {
			ok = false;
			e.span = val->span;
			snprintf(e.msg, sizeof e.msg, "expected a shape");
		}
		break;
	case VK_OPERAND_ALIASING: {
		struct hlo_aliases al;
		ok = attr_aliases(val, a, false, &al, &e);
		break;
	}
	case VK_RESULT_ACCURACY:
		ok = attr_result_accuracy(val, &e);
		break;
	case VK_DOMAIN:
		ok = sharding_domain(v->f, val, a, &e);
		break;
	case VK_STATISTICS:
		ok = attr_statistics(val, &e);
		break;
	default:
		break;
	}
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
		const struct hlo_attr *at = &i->attrs[k];
		int idx = verify_key(at);
		if (idx < 0) {
			/* Unknown to every opcode: maybe a newer XLA; XLA itself rejects it.
			 * Duplicates among unknown names: pairwise, for the first 64 only
			 * (bounded work on absurd inputs). */
			bool dup = false;
			for (uint32_t j = 0; j < k && k < 64 && !dup; j++)
				dup = i->attrs[j].name == at->name;
			if (dup)
				verify_error(v, ir_attr_name_span(at), "attribute '%s' already exists", at->name->str);
			else if (verify_first_warning(v, at->name->str, at->name->len))
				verify_warning(v, ir_attr_name_span(at), "unknown attribute '%s' for '%s' (reported once)",
					       at->name->str, opname);
			continue;
		}
		if (!verify_set_has(&rule->allowed, (unsigned)idx)) {
			verify_error(v, ir_attr_name_span(at), "attribute '%s' is not allowed for '%s'", at->name->str,
				     opname);
			continue;
		}
		if (verify_set_has(&seen, (unsigned)idx)) {
			verify_error(v, ir_attr_name_span(at), "attribute '%s' already exists", at->name->str);
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

/* ---- Operand counts ---- */

/* name: the opcode as written (sugar like custom-call-done included). */
static void verify_operand_count(struct verify_ctx *v, const struct hlo_instr *i, const char *name)
{
	enum opcode op = (enum opcode)i->op;
	uint32_t n = i->noperands;
	struct span sp = ir_instr_opcode_span(i);
	if (i->async_wrapped != OP_COUNT && op == OP_ASYNC_START)
		return;  /* <op>-start: late binding allows any operand count */
	int arity = ir_opcode_arity(op);
	if (arity >= 0) {
		if ((int)n != arity)
			verify_error(v, sp, "'%s' takes %d operand%s, got %u", name, arity, arity == 1 ? "" : "s", n);
		return;
	}
	switch (op) {
	case OP_REDUCE:
	case OP_REDUCE_WINDOW:
		if (n < 2 || n % 2)
			verify_error(v, sp, "'%s' takes an even number of operands (at least 2), got %u", name, n);
		break;
	case OP_SCATTER:
		if (n < 3 || n % 2 == 0)
			verify_error(v, sp, "'scatter' takes an odd number of operands (at least 3), got %u", n);
		break;
	case OP_CONDITIONAL: case OP_DYNAMIC_RESHAPE: case OP_SORT: case OP_CONCATENATE: case OP_MAP:
	case OP_DYNAMIC_SLICE: case OP_DYNAMIC_UPDATE_SLICE: case OP_COLLECTIVE_PERMUTE:
	case OP_COLLECTIVE_PERMUTE_START:
		if (n < 1)
			verify_error(v, sp, "'%s' needs at least one operand", name);
		break;
	case OP_ASYNC_UPDATE:
	case OP_ASYNC_DONE:
		if (n < 1)
			verify_error(v, sp, "'%s' needs the previous async op as its operand, got no operands", name);
		break;
	default:
		break;
	}
}

/* ---- Opcode-specific checks ---- */

static bool verify_ints_of(struct verify_ctx *v, const char *name, struct attr_ints *out)
{
	struct verify_found *fo = verify_find(v, name);
	if (!fo || fo->bad)
		return false;
	if (attr_text_ints(v->f, ir_attr_value(fo->attr), &v->scratch, out))
		return true;
	struct hlo_value *val = verify_value(v, fo);
	return val && attr_ints(val, &v->scratch, out, NULL);
}

static struct hlo_shape *verify_operand_shape(const struct hlo_instr *i, uint32_t k)
{
	return k < i->noperands && i->operands[k].instr ? i->operands[k].instr->shape : NULL;
}

static bool verify_is_scalar(const struct hlo_shape *s)
{
	return ir_shape_is_array(s) && s->rank == 0;
}

static void verify_conditional(struct verify_ctx *v, const struct hlo_instr *i)
{
	struct hlo_shape *p = verify_operand_shape(i, 0);
	char buf[128];
	if (!p)
		return;
	if (!verify_is_scalar(p)) {
		verify_error(v, ir_operand_span(&i->operands[0]),
			     "the first operand of 'conditional' must be a scalar, got %s",
			     verify_shape_str(p, buf, sizeof buf));
		return;
	}
	if (p->type != PT_PRED && p->type != PT_S32) {
		verify_error(v, ir_operand_span(&i->operands[0]),
			     "the first operand of 'conditional' must be a scalar of pred or s32, got %s",
			     verify_shape_str(p, buf, sizeof buf));
		return;
	}
	struct verify_found *t = verify_find(v, "true_computation"), *fa = verify_find(v, "false_computation");
	struct verify_found *br = verify_find(v, "branch_computations");
	uint32_t nbranches = 0;
	if (p->type == PT_PRED) {
		if (br)
			verify_error(v, ir_attr_name_span(br->attr),
				     "attribute 'branch_computations' is not allowed for a conditional with a pred operand "
				     "(use true_computation and false_computation)");
		if (!t || !fa)
			verify_error(v, ir_instr_opcode_span(i),
				     "a conditional with a pred operand needs attributes 'true_computation' and 'false_computation'");
		nbranches = 2;
	} else {
		for (struct verify_found *x = t ? t : fa; x; x = x == t && fa ? fa : NULL)
			verify_error(v, ir_attr_name_span(x->attr),
				     "attribute '%s' is not allowed for a conditional with an s32 operand (use branch_computations)",
				     verify_attrs[x->idx].name);
		if (!br) {
			verify_error(v, ir_instr_opcode_span(i),
				     "a conditional with an s32 operand needs attribute 'branch_computations'");
			return;
		}
		if (br->bad)
			return;
		int64_t nb = verify_comp_list_count(v, i, ir_attr_value(br->attr));
		if (nb < 0)
			return;
		nbranches = (uint32_t)nb;
		if (!nbranches) {
			verify_error(v, ir_attr_value(br->attr), "'branch_computations' must not be empty");
			return;
		}
	}
	if (i->noperands != nbranches + 1)
		verify_error(v, ir_instr_opcode_span(i),
			     "'conditional' with %u branches takes %u operands (the index and one per branch), got %u",
			     nbranches, nbranches + 1, i->noperands);
}

static void verify_gte(struct verify_ctx *v, const struct hlo_instr *i)
{
	struct hlo_shape *t = verify_operand_shape(i, 0);
	char a[128], b[128];
	if (!t || i->number < 0)
		return;
	const struct verify_found *fo = verify_find(v, "index");
	struct span sp = fo ? ir_attr_value(fo->attr) : ir_instr_opcode_span(i);
	if (t->type != PT_TUPLE) {
		verify_error(v, ir_operand_span(&i->operands[0]), "get-tuple-element operand must be a tuple, got %s",
			     verify_shape_str(t, a, sizeof a));
		return;
	}
	if (i->number >= (int64_t)t->rank) {
		verify_error(v, sp, "tuple index %lld is out of range for a tuple of %u elements", (long long)i->number,
			     t->rank);
		return;
	}
	if (i->shape && (i->flags & IR_SHAPE_WRITTEN) && !ir_shape_equal(i->shape, t->elems[i->number], false))
		verify_error(v, verify_shape_span(v, i), "get-tuple-element shape %s does not match tuple element %lld, %s",
			     verify_shape_str(i->shape, a, sizeof a), (long long)i->number,
			     verify_shape_str(t->elems[i->number], b, sizeof b));
}

static void verify_dimensions(struct verify_ctx *v, const struct hlo_instr *i)
{
	struct attr_ints dims;
	struct verify_found *fo = verify_find(v, "dimensions");
	if (!fo || !verify_ints_of(v, "dimensions", &dims))
		return;
	if (verify_one_dimension((enum opcode)i->op) && dims.n != 1)
		verify_error(v, ir_attr_value(fo->attr), "'dimensions' must have exactly 1 entry for '%s', got %u",
			     verify_op_name(i), dims.n);
}

static void verify_broadcast(struct verify_ctx *v, const struct hlo_instr *i)
{
	struct hlo_shape *s = verify_operand_shape(i, 0);
	if (!verify_find(v, "dimensions") && s && !verify_is_scalar(s))
		verify_error(v, ir_instr_opcode_span(i),
			     "'broadcast' needs attribute 'dimensions' (its operand is not a scalar)");
}

static void verify_dynamic_slice(struct verify_ctx *v, const struct hlo_instr *i)
{
	bool update = i->op == OP_DYNAMIC_UPDATE_SLICE;
	struct hlo_shape *s = verify_operand_shape(i, 0);
	uint32_t fixed = update ? 2 : 1;
	if (!ir_shape_is_array(s) || i->noperands < fixed)
		return;
	if (i->noperands != fixed + s->rank && i->noperands != fixed + 1)
		verify_error(v, ir_instr_opcode_span(i), "'%s' takes %u+rank (%u) or %u operands, got %u",
			     verify_op_name(i), fixed, fixed + s->rank, fixed + 1, i->noperands);
	struct attr_ints sizes;
	struct verify_found *fo = verify_find(v, "dynamic_slice_sizes");
	if (!update && fo && verify_ints_of(v, "dynamic_slice_sizes", &sizes) && sizes.n != s->rank)
		verify_error(v, ir_attr_value(fo->attr), "'dynamic_slice_sizes' needs one size per operand dimension (%u), got %u",
			     s->rank, sizes.n);
}

static void verify_tuple_shape_needed(struct verify_ctx *v, const struct hlo_instr *i)
{
	const struct hlo_shape *s = i->shape;
	if (s && (s->type != PT_TUPLE || s->rank == 0))
		verify_error(v, (i->flags & IR_SHAPE_WRITTEN) ? verify_shape_span(v, i) : ir_instr_opcode_span(i),
			     "'%s' must have a non-empty tuple shape", verify_op_name(i));
}

static void verify_layout_constraints(struct verify_ctx *v, const struct hlo_instr *i)
{
	struct verify_found *fo = verify_find(v, "operand_layout_constraints");
	struct attr_shapes sh;
	char a[128], b[128];
	if (!verify_value(v, fo) || !attr_shapes(fo->value, &v->scratch, &sh, NULL))
		return;
	if (sh.n != i->noperands) {
		verify_error(v, ir_attr_value(fo->attr), "expected %u operand layout constraints, %u given",
			     i->noperands, sh.n);
		return;
	}
	for (uint32_t k = 0; k < sh.n; k++) {
		struct hlo_shape *os = verify_operand_shape(i, k);
		if (os && !ir_shape_equal(sh.shapes[k], os, false))
			verify_error(v, sh.spans[k], "operand layout constraint %s is not compatible with operand %u shape %s",
				     verify_shape_str(sh.shapes[k], a, sizeof a), k, verify_shape_str(os, b, sizeof b));
		else if (ir_shape_is_array(sh.shapes[k]) && sh.shapes[k]->rank && !sh.shapes[k]->layout)
			verify_error(v, sh.spans[k], "operand layout constraint %u has no layout", k);
	}
}

static void verify_parameter_replication(struct verify_ctx *v, const struct hlo_instr *i)
{
	struct verify_found *fo = verify_find(v, "parameter_replication");
	struct attr_bools bl;
	if (!i->shape || !verify_value(v, fo) || !attr_bools(fo->value, &v->scratch, &bl, NULL))
		return;
	uint64_t leaves = ir_leaf_count(i->shape);
	if (bl.n != leaves)
		verify_error(v, ir_attr_value(fo->attr), "parameter has %llu leaf buffers, but parameter_replication has %u elements",
			     (unsigned long long)leaves, bl.n);
}

static void verify_collectives(struct verify_ctx *v, const struct hlo_instr *i)
{
	struct verify_found *g = verify_find(v, "use_global_device_ids");
	bool on;
	if (g && !g->bad && attr_text_bool(v->f, ir_attr_value(g->attr), &on) && on && !verify_find(v, "channel_id"))
		verify_error(v, ir_attr_name_span(g->attr), "use_global_device_ids=true requires a channel_id");
	struct verify_found *ss = verify_find(v, "slice_sizes");
	if ((i->op == OP_COLLECTIVE_PERMUTE || i->op == OP_COLLECTIVE_PERMUTE_START) && ss && i->noperands != 4)
		verify_error(v, ir_instr_opcode_span(i), "'%s' with slice_sizes takes 4 operands, got %u",
			     verify_op_name(i), i->noperands);
}

static void verify_iota(struct verify_ctx *v, const struct hlo_instr *i)
{
	struct verify_found *fo = verify_find(v, "iota_dimension");
	int64_t d;
	if (fo && !fo->bad && attr_text_int(v->f, ir_attr_value(fo->attr), &d) && ir_shape_is_array(i->shape) &&
	    (d < 0 || d >= (int64_t)i->shape->rank))
		verify_error(v, ir_attr_value(fo->attr), "iota_dimension %lld is out of range for rank %u",
			     (long long)d, i->shape->rank);
}

static void verify_literal(struct verify_ctx *v, const struct hlo_instr *i)
{
	struct span lit = ir_instr_literal(i);
	struct literal_error le;
	if (span_is_none(lit) || !i->shape)
		return;
	if (!literal_check(v->f, lit, i->shape, &le))
		verify_error(v, span_is_none(le.span) ? lit : le.span, "%s", le.msg);
}

/* ---- Cheap shape checks (dims only; dynamic dimensions are not judged) ---- */

static bool verify_dim_static(const struct hlo_shape *s, uint32_t k)
{
	return !s->dim_kinds || s->dim_kinds[k] == DIM_STATIC;
}

/* Same rank and the same static dimension sizes; true when not arrays. */
static bool verify_same_dims(const struct hlo_shape *a, const struct hlo_shape *b)
{
	if (!ir_shape_is_array(a) || !ir_shape_is_array(b))
		return true;
	if (a->rank != b->rank)
		return false;
	for (uint32_t k = 0; k < a->rank; k++)
		if (verify_dim_static(a, k) && verify_dim_static(b, k) && a->dims[k] != b->dims[k])
			return false;
	return true;
}

/* The dimension list of i must name distinct dimensions below rank. */
static bool verify_dims_in_range(struct verify_ctx *v, const struct hlo_instr *i, const char *name,
				 const struct attr_ints *d, uint32_t rank, bool unique)
{
	struct verify_found *fo = verify_find(v, name);
	bool *seen = arena_array(&v->scratch, rank + 1, sizeof *seen);
	for (uint32_t k = 0; k < d->n; k++) {
		if (d->v[k] < 0 || d->v[k] >= (int64_t)rank) {
			verify_error(v, ir_attr_value(fo->attr), "'%s' entry %lld is out of range for rank %u",
				     name, (long long)d->v[k], rank);
			return false;
		}
		if (unique && seen[d->v[k]]) {
			verify_error(v, ir_attr_value(fo->attr), "'%s' repeats dimension %lld", name, (long long)d->v[k]);
			return false;
		}
		seen[d->v[k]] = true;
	}
	(void)i;
	return true;
}

static void verify_shapes(struct verify_ctx *v, const struct hlo_instr *i)
{
	enum opcode op = (enum opcode)i->op;
	const struct hlo_shape *r = i->shape;
	const struct hlo_shape *a0 = verify_operand_shape(i, 0), *a1 = verify_operand_shape(i, 1);
	struct span rs = (i->flags & IR_SHAPE_WRITTEN) ? verify_shape_span(v, i) : ir_instr_opcode_span(i);
	char b0[128], b1[128];
	struct attr_ints d;
	if (ir_op_elementwise_binary(op) && i->noperands == 2) {
		if (!verify_same_dims(a0, a1))
			verify_error(v, ir_operand_span(&i->operands[1]), "operands of '%s' have different dimensions: %s and %s",
				     verify_op_name(i), verify_shape_str(a0, b0, sizeof b0), verify_shape_str(a1, b1, sizeof b1));
		else if (!verify_same_dims(r, a0))
			verify_error(v, rs, "'%s' result %s does not have the dimensions of its operands %s",
				     verify_op_name(i), verify_shape_str(r, b0, sizeof b0), verify_shape_str(a0, b1, sizeof b1));
		return;
	}
	if (ir_op_elementwise_unary(op) && i->noperands == 1) {
		if (!verify_same_dims(r, a0))
			verify_error(v, rs, "'%s' result %s does not have the dimensions of its operand %s",
				     verify_op_name(i), verify_shape_str(r, b0, sizeof b0), verify_shape_str(a0, b1, sizeof b1));
		return;
	}
	if (!ir_shape_is_array(a0))
		return;
	switch (op) {
	case OP_TRANSPOSE:
		if (verify_ints_of(v, "dimensions", &d)) {
			if (d.n != a0->rank) {
				verify_error(v, ir_attr_value(verify_find(v, "dimensions")->attr),
					     "'transpose' needs one dimension per operand dimension (%u), got %u", a0->rank, d.n);
				break;
			}
			if (!verify_dims_in_range(v, i, "dimensions", &d, a0->rank, true) || !ir_shape_is_array(r))
				break;
			for (uint32_t k = 0; k < d.n && r->rank == d.n; k++)
				if (verify_dim_static(r, k) && verify_dim_static(a0, (uint32_t)d.v[k]) &&
				    r->dims[k] != a0->dims[d.v[k]]) {
					verify_error(v, rs, "'transpose' result %s does not match operand %s permuted by the dimensions",
						     verify_shape_str(r, b0, sizeof b0), verify_shape_str(a0, b1, sizeof b1));
					break;
				}
		}
		break;
	case OP_BROADCAST:
		if (verify_ints_of(v, "dimensions", &d) && ir_shape_is_array(r)) {
			if (d.n != a0->rank) {
				verify_error(v, ir_attr_value(verify_find(v, "dimensions")->attr),
					     "'broadcast' needs one dimension per operand dimension (%u), got %u", a0->rank, d.n);
				break;
			}
			if (!verify_dims_in_range(v, i, "dimensions", &d, r->rank, true))
				break;
			for (uint32_t k = 0; k < d.n; k++)
				if (verify_dim_static(r, (uint32_t)d.v[k]) && verify_dim_static(a0, k) &&
				    r->dims[d.v[k]] != a0->dims[k]) {
					verify_error(v, rs, "'broadcast' result %s does not contain operand %s at the given dimensions",
						     verify_shape_str(r, b0, sizeof b0), verify_shape_str(a0, b1, sizeof b1));
					break;
				}
		}
		break;
	case OP_REDUCE:
	case OP_REVERSE:
		if (verify_ints_of(v, "dimensions", &d))
			verify_dims_in_range(v, i, "dimensions", &d, a0->rank, true);
		break;
	case OP_CONCATENATE:
	case OP_SORT:
	case OP_GET_DIMENSION_SIZE:
	case OP_SET_DIMENSION_SIZE:
		if (verify_ints_of(v, "dimensions", &d) && d.n == 1)
			verify_dims_in_range(v, i, "dimensions", &d, a0->rank, true);
		break;
	case OP_SLICE: {
		struct verify_found *fo = verify_find(v, "slice");
		struct hlo_value *val = verify_value(v, fo);
		struct hlo_slice sl;
		if (!val || !attr_slice(val, &v->scratch, &sl, NULL))
			break;
		if (sl.rank != a0->rank) {
			verify_error(v, ir_attr_value(fo->attr), "'slice' needs one range per operand dimension (%u), got %u", a0->rank,
				     sl.rank);
			break;
		}
		for (uint32_t k = 0; k < sl.rank; k++) {
			struct hlo_slice_dim *x = &sl.dims[k];
			if (x->start < 0 || x->start > x->limit || x->stride < 1 ||
			    (verify_dim_static(a0, k) && x->limit > a0->dims[k])) {
				verify_error(v, ir_attr_value(fo->attr), "slice range %u [%lld:%lld:%lld] is not valid for dimension size %lld",
					     k, (long long)x->start, (long long)x->limit, (long long)x->stride,
					     (long long)a0->dims[k]);
				break;
			}
			if (ir_shape_is_array(r) && r->rank == sl.rank && verify_dim_static(r, k) &&
			    r->dims[k] != (x->limit - x->start + x->stride - 1) / x->stride) {
				verify_error(v, rs, "'slice' result %s does not match the slice of %s",
					     verify_shape_str(r, b0, sizeof b0), verify_shape_str(a0, b1, sizeof b1));
				break;
			}
		}
		break;
	}
	case OP_PAD: {
		struct verify_found *fo = verify_find(v, "padding");
		struct hlo_value *val = verify_value(v, fo);
		struct hlo_padding pd;
		if (val && attr_padding(v->f, val, &v->scratch, &pd, NULL) && pd.rank != a0->rank)
			verify_error(v, ir_attr_value(fo->attr), "'padding' rank %u does not match the operand rank %u",
				     pd.rank, a0->rank);
		break;
	}
	case OP_RESHAPE:
		if (ir_shape_is_array(r) && !r->dim_kinds && !a0->dim_kinds &&
		    ir_shape_elements(r) != ir_shape_elements(a0))
			verify_error(v, rs, "'reshape' result %s does not have the element count of its operand %s",
				     verify_shape_str(r, b0, sizeof b0), verify_shape_str(a0, b1, sizeof b1));
		break;
	case OP_CONVOLUTION: {
		struct verify_found *fo = verify_find(v, "dim_labels");
		struct hlo_value *val = verify_value(v, fo);
		struct hlo_conv_dims cd;
		if (!val || !attr_dim_labels(v->f, val, &v->scratch, &cd, NULL))
			break;
		if (cd.lhs_rank != a0->rank || (ir_shape_is_array(a1) && cd.rhs_rank != a1->rank) ||
		    (ir_shape_is_array(r) && cd.out_rank != r->rank)) {
			verify_error(v, ir_attr_value(fo->attr), "dim_labels ranks (%u, %u, %u) do not match the operand and result ranks",
				     cd.lhs_rank, cd.rhs_rank, cd.out_rank);
			break;
		}
		struct verify_found *wo = verify_find(v, "window");
		struct hlo_value *wv = verify_value(v, wo);
		struct hlo_window w;
		if (wv && attr_window(v->f, wv, &v->scratch, &w, NULL) && w.rank != cd.nspatial)
			verify_error(v, ir_attr_value(wo->attr), "window rank %u does not match the number of spatial dimensions (%u)", w.rank,
				     cd.nspatial);
		break;
	}
	case OP_REDUCE_WINDOW: {
		struct verify_found *wo = verify_find(v, "window");
		struct hlo_value *wv = verify_value(v, wo);
		struct hlo_window w;
		if (wv && attr_window(v->f, wv, &v->scratch, &w, NULL) && w.rank != a0->rank)
			verify_error(v, ir_attr_value(wo->attr), "window rank %u does not match the operand rank %u", w.rank,
				     a0->rank);
		break;
	}
	default:
		break;
	}
}

static void verify_tuple(struct verify_ctx *v, const struct hlo_instr *i)
{
	if (i->shape && (i->flags & IR_SHAPE_WRITTEN) &&
	    (i->shape->type != PT_TUPLE || i->shape->rank != i->noperands))
		verify_error(v, verify_shape_span(v, i), "'tuple' of %u operands must have a tuple shape of %u elements",
			     i->noperands, i->noperands);
}

/* Callee attributes in attribute order become i->callees (resolve.c); for
 * while (condition and body, one computation each) the position of the
 * condition attribute is its callee index when both resolved. */
static void verify_while(struct verify_ctx *v, const struct hlo_instr *i)
{
	char buf[128];
	uint32_t pos = 0, ncallee_attrs = 0;
	const struct hlo_attr *cond = NULL;
	for (uint32_t k = 0; k < i->nattrs; k++) {
		if (i->attrs[k].key == ATTR_CONDITION) {
			cond = &i->attrs[k];
			pos = ncallee_attrs;
		}
		ncallee_attrs += i->attrs[k].key == ATTR_CONDITION || i->attrs[k].key == ATTR_BODY;
	}
	if (!cond || ncallee_attrs != 2 || i->ncallees != 2)
		return;
	const struct hlo_instr *root = i->callees[pos]->root;
	if (root && root->shape && !(ir_shape_is_array(root->shape) && root->shape->type == PT_PRED &&
				     root->shape->rank == 0))
		verify_error(v, ir_attr_value(cond), "while condition '%s' must return pred[], it returns %s",
			     i->callees[pos]->name->str, verify_shape_str(root->shape, buf, sizeof buf));
}

/* ---- Async chains ---- */

static bool verify_async_shape_ok(const struct hlo_shape *s)
{
	return s && s->type == PT_TUPLE && s->rank >= 2 && s->elems[0]->type == PT_TUPLE;
}

/* The async_execution_thread of i, or "main". */
static const char *verify_thread_of(struct verify_ctx *v, const struct hlo_instr *i)
{
	const struct hlo_attr *at = ir_attr(i, ATTR_ASYNC_EXECUTION_THREAD);
	char *s;
	struct hlo_value *val = at ? attr_parse(v->f, at, &v->scratch, NULL) : NULL;
	if (val && attr_string(v->f, val, &v->scratch, &s, NULL, NULL))
		return s;
	return "main";
}

/* The computation an async-start calls, and the opcode it wraps. */
static struct hlo_comp *verify_async_comp(const struct hlo_instr *start)
{
	return start->async_wrapped == OP_COUNT && start->ncallees ? start->callees[0] : NULL;
}

static int verify_async_wrapped_op(const struct hlo_instr *start)
{
	if (start->async_wrapped != OP_COUNT)
		return start->async_wrapped;
	struct hlo_comp *c = verify_async_comp(start);
	return c && c->root ? c->root->op : -1;
}

static void verify_async(struct verify_ctx *v, struct hlo_instr *i)
{
	char buf[128];
	if (i->op != OP_ASYNC_DONE && i->shape && !verify_async_shape_ok(i->shape)) {
		verify_error(v, (i->flags & IR_SHAPE_WRITTEN) ? verify_shape_span(v, i) : ir_instr_opcode_span(i),
			     "async-start and async-update need a shape ((operand shapes...), output shape, ...), got %s",
			     verify_shape_str(i->shape, buf, sizeof buf));
		return;
	}
	if (i->op == OP_ASYNC_START) {
		if (i->index < v->nchain)
			v->chain[i->index] = i;
		return;
	}
	if (!i->noperands || !i->operands[0].instr)
		return;
	struct hlo_instr *prev = i->operands[0].instr;
	if (prev->op != OP_ASYNC_START && prev->op != OP_ASYNC_UPDATE) {
		verify_error(v, ir_operand_span(&i->operands[0]),
			     "async-update and async-done expect an async-start or async-update as their first operand, got '%s'",
			     verify_op_name(prev));
		return;
	}
	struct hlo_instr *start = prev->op == OP_ASYNC_START ? prev
				  : prev->comp == i->comp && prev->index < v->nchain ? v->chain[prev->index] : NULL;
	if (i->index < v->nchain)
		v->chain[i->index] = start;
	if (!start)
		return;
	int wrapped = verify_async_wrapped_op(start);
	if (i->async_wrapped != OP_COUNT && wrapped >= 0 && wrapped != i->async_wrapped)
		verify_error(v, ir_instr_opcode_span(i), "expected async wrapped opcode to be '%s', but got '%s'",
			     ir_opcode_name((enum opcode)wrapped), ir_opcode_name((enum opcode)i->async_wrapped));
	struct verify_found *calls = verify_find(v, "calls");
	if (calls && i->ncallees) {
		struct hlo_comp *want = verify_async_comp(start);
		if (want != i->callees[0])
			verify_error(v, ir_attr_value(calls->attr),
				     "expected async wrapped computation to be '%s', but got '%s'",
				     want ? want->name->str : "<the wrapped computation of the async-start>",
				     i->callees[0]->name->str);
	}
	if (verify_find(v, "async_execution_thread")) {
		const char *mine = verify_thread_of(v, i), *theirs = verify_thread_of(v, start);
		if (strcmp(mine, theirs))
			verify_error(v, ir_attr_value(verify_find(v, "async_execution_thread")->attr),
				     "expected async_execution_thread to be \"%s\" (as in the async-start), but got \"%s\"",
				     theirs, mine);
	}
}

/* An async computation must be called by exactly one async-start. */
static void verify_async_callers(struct verify_ctx *v, const struct hlo_comp *c)
{
	const struct hlo_instr *first = NULL;
	for (uint32_t k = 0; k < c->ncallers; k++) {
		const struct hlo_instr *i = c->callers[k];
		if (i->op != OP_ASYNC_START || i->async_wrapped != OP_COUNT)
			continue;
		if (!first) {
			first = i;
			continue;
		}
		const struct hlo_attr *at = ir_attr(i, ATTR_CALLS);
		verify_error(v, at ? ir_attr_value(at) : ir_instr_opcode_span(i),
			     "computation '%s' is called by more than one async-start (also by '%.*s')", c->name->str,
			     (int)first->name_len, first->name);
	}
}

/* ---- Instructions ---- */

static void verify_instr(struct verify_ctx *v, struct hlo_instr *i)
{
	if (i->op >= OP_COUNT)
		return;
	struct arena_mark mk = arena_mark(&v->scratch);
	const struct verify_rule *rule = &verify_tab.rules[i->op];
	struct verify_rule sugar;
	const char *opname = verify_op_name(i);
	char sugar_name[64];
	if (i->async_wrapped != OP_COUNT) {
		/* <op>-start carries the wrapped op's attributes; -update/-done
		 * only the async ones.  Messages name the opcode as written. */
		snprintf(sugar_name, sizeof sugar_name, "%.*s", (int)i->op_len,
			 ir_text(v->f, ir_instr_opcode_span(i)));
		opname = sugar_name;
		if (i->op == OP_ASYNC_START) {
			sugar = verify_tab.rules[i->async_wrapped];
			verify_set_add(&sugar.allowed, (unsigned)verify_lookup("async_execution_thread", 22));
			rule = &sugar;
		}
	}
	bool synthesized_gte = i->op == OP_GET_TUPLE_ELEMENT && (i->flags & IR_ANONYMOUS) && !i->nattrs &&
			       i->number >= 0;
	if (synthesized_gte) {
		v->nfound = 0;
	} else {
		verify_attrs_of(v, i, rule, opname);
		verify_operand_count(v, i, opname);
	}
	if (i->async_wrapped == OP_COUNT || i->op != OP_ASYNC_START) {
		switch (i->op) {
		case OP_CONDITIONAL:
			verify_conditional(v, i);
			break;
		case OP_GET_TUPLE_ELEMENT:
			verify_gte(v, i);
			break;
		case OP_BROADCAST:
			verify_broadcast(v, i);
			break;
		case OP_DYNAMIC_SLICE:
		case OP_DYNAMIC_UPDATE_SLICE:
			verify_dynamic_slice(v, i);
			break;
		case OP_RECV:
		case OP_INFEED:
			verify_tuple_shape_needed(v, i);
			break;
		case OP_CUSTOM_CALL:
			verify_layout_constraints(v, i);
			break;
		case OP_IOTA:
			verify_iota(v, i);
			break;
		case OP_CONSTANT:
			verify_literal(v, i);
			break;
		case OP_TUPLE:
			verify_tuple(v, i);
			break;
		case OP_WHILE:
			verify_while(v, i);
			break;
		case OP_ALL_GATHER: case OP_ALL_GATHER_START: case OP_ALL_REDUCE: case OP_ALL_REDUCE_START:
		case OP_REDUCE_SCATTER: case OP_COLLECTIVE_PERMUTE: case OP_COLLECTIVE_PERMUTE_START:
			verify_collectives(v, i);
			break;
		default:
			break;
		}
		verify_dimensions(v, i);
		verify_shapes(v, i);
	}
	if (i->op == OP_ASYNC_START || i->op == OP_ASYNC_UPDATE || i->op == OP_ASYNC_DONE)
		verify_async(v, i);
	verify_parameter_replication(v, i);
	arena_release(&v->scratch, mk);
}

static void verify_comp(struct verify_ctx *v, struct hlo_comp *c)
{
	const struct hlo_instr *root = NULL;
	if (c->ninstrs > v->nchain) {
		free(v->chain);
		v->nchain = c->ninstrs;
		v->chain = xcalloc(v->nchain, sizeof *v->chain);
	}
	for (uint32_t k = 0; k < c->ninstrs; k++) {
		struct hlo_instr *i = c->instrs[k];
		if (ir_is_root(i)) {
			if (root)
				verify_error(v, span_make(i->start, i->start + 4),
					     "computation '%s' has more than one ROOT instruction (the first is '%.*s')",
					     c->name->str, (int)root->name_len, root->name);
			else
				root = i;
		}
		v->chain[k] = NULL;
		verify_instr(v, i);
		if (diag_full(v->d))
			return;
	}
}

/* ---- Module header ---- */

static void verify_module_attrs(struct verify_ctx *v)
{
	struct hlo_module *m = v->m;
	struct hlo_comp *entry = m->entry;
	char a[128], b[128];
	for (uint32_t k = 0; k < m->nattrs; k++) {
		const struct hlo_attr *at = &m->attrs[k];
		for (uint32_t j = 0; j < k && k < 64; j++)
			if (m->attrs[j].name == at->name) {
				verify_error(v, ir_attr_name_span(at), "module attribute '%s' already exists", at->name->str);
				break;
			}
		struct arena_mark mk = arena_mark(&v->scratch);
		struct attr_error e = { .span = span_none(), .msg = "" };
		struct arena *ar = &v->scratch;
		bool ok = true;
		switch (at->key) {
		case ATTR_FRONTEND_ATTRIBUTES: {
			struct hlo_frontend_attrs fa;
			ok = attr_frontend_attributes(v->f, ir_attr_value(at), ar, &fa, &e);
			break;
		}
		case ATTR_ORIGIN_RECOVERY_TABLE:
			break;
		case ATTR_DEBUG_ATTRIBUTES: {
			struct hlo_value *val = attr_parse(v->f, at, ar, &e);
			ok = val && attr_debug_attributes(val, &e);
			break;
		}
		case ATTR_IS_SCHEDULED:
		case ATTR_ALIAS_PASSTHROUGH_PARAMS: {
			struct hlo_value *val = attr_parse(v->f, at, ar, &e);
			bool on;
			ok = val && attr_bool(val, &on, &e);
			break;
		}
		case ATTR_ALLOW_SPMD_PARAMS:
		case ATTR_ALLOW_SPMD_OUTPUT: {
			struct hlo_value *val = attr_parse(v->f, at, ar, &e);
			struct attr_bools bl;
			ok = val && attr_bools(val, ar, &bl, &e);
			break;
		}
		case ATTR_NUM_PARTITIONS:
		case ATTR_REPLICA_COUNT: {
			struct hlo_value *val = attr_parse(v->f, at, ar, &e);
			int64_t x;
			ok = val && attr_int(val, &x, &e);
			if (ok && x < 1) {
				ok = false;
				e.span = val->span;
				snprintf(e.msg, sizeof e.msg, "must be at least 1, got %lld", (long long)x);
			}
			break;
		}
		case ATTR_INPUT_OUTPUT_ALIAS:
		case ATTR_BUFFER_DONOR: {
			struct hlo_value *val = attr_parse(v->f, at, ar, &e);
			struct hlo_aliases al;
			bool io = at->key == ATTR_INPUT_OUTPUT_ALIAS;
			ok = val && (io ? attr_aliases(val, ar, true, &al, &e) : attr_buffer_donors(val, ar, &al, &e));
			for (uint32_t n = 0; ok && entry && n < al.n; n++) {
				struct hlo_alias *x = &al.items[n];
				if (x->number < 0 || x->number >= (int64_t)entry->nparams)
					verify_error(v, x->span, "parameter number %lld is out of range (the entry computation takes %u)",
						     (long long)x->number, entry->nparams);
				else if (!attr_index_valid(entry->params[x->number]->shape, &x->index))
					verify_error(v, x->span, "shape index is not valid for parameter %lld of shape %s",
						     (long long)x->number,
						     verify_shape_str(entry->params[x->number]->shape, a, sizeof a));
				if (io && entry->root && !attr_index_valid(entry->root->shape, &x->output_index))
					verify_error(v, x->span, "output shape index is not valid for the entry result %s",
						     verify_shape_str(entry->root->shape, a, sizeof a));
			}
			break;
		}
		case ATTR_ENTRY_COMPUTATION_LAYOUT: {
			struct hlo_value *val = attr_parse(v->f, at, ar, &e);
			struct hlo_program_shape ps;
			ok = val && attr_program_shape(val, ar, &ps, &e);
			if (ok && entry) {
				if (ps.nparams != entry->nparams) {
					verify_error(v, ir_attr_value(at),
						     "entry_computation_layout has %u parameters, the entry computation has %u",
						     ps.nparams, entry->nparams);
					break;
				}
				for (uint32_t n = 0; n < ps.nparams; n++)
					if (entry->params[n] && !ir_shape_equal(ps.params[n], entry->params[n]->shape, false))
						verify_error(v, ps.param_spans[n],
							     "entry_computation_layout parameter %u, %s, does not match parameter shape %s",
							     n, verify_shape_str(ps.params[n], a, sizeof a),
							     verify_shape_str(entry->params[n]->shape, b, sizeof b));
				if (entry->root && !ir_shape_equal(ps.result, entry->root->shape, false))
					verify_error(v, ps.result_span,
						     "entry_computation_layout result %s does not match the entry result %s",
						     verify_shape_str(ps.result, a, sizeof a),
						     verify_shape_str(entry->root->shape, b, sizeof b));
			}
			break;
		}
		default:
			verify_error(v, ir_attr_name_span(at), "unknown module attribute '%s'", at->name->str);
			break;
		}
		if (!ok)
			verify_attr_error(v, at, &e);
		arena_release(&v->scratch, mk);
	}
}

unsigned verify_module(struct hlo_module *m, struct diag_sink *d)
{
	struct verify_ctx v = { .m = m, .f = m->file, .d = d };
	verify_init_tables();
	if (verify_tab.bad_rule)
		verify_error(&v, span_none(), "internal: the verifier's rule table names an unknown attribute at '%.20s'",
			     verify_tab.bad_rule);
	arena_init(&v.scratch);
	verify_module_attrs(&v);
	for (uint32_t c = 0; c < m->ncomps && !diag_full(d); c++)
		verify_comp(&v, m->comps[c]);
	/* After the instructions, so that chain errors come first in source order. */
	for (uint32_t c = 0; c < m->ncomps && !diag_full(d); c++)
		verify_async_callers(&v, m->comps[c]);
	arena_free(&v.scratch);
	free(v.chain);
	free(v.found);
	return v.errors;
}
