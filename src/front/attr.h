/* attr.h - typed decoders over attribute values (lists, enums, windows,
 * metadata, aliasing...; shardings and replica groups are sharding.h's),
 * lazy and cache-free: the
 * caller picks the arena.  Errors come back in struct attr_error, never
 * printed; which opcode takes which attribute is verify.c's business. */
#ifndef HLO_ATTR_H
#define HLO_ATTR_H
#include <stdbool.h>
#include <stdint.h>
#include "ir.h"
#include "value.h"

struct attr_error {
	struct span span;       /* offending text, inside the attribute value */
	char msg[256];          /* lower case, no final period */
};

struct attr_ints {
	uint32_t n;
	int64_t *v;
};

/* ---- Generic access ---- */

/* Decodes the value of attribute at into a tree in arena a (value_parse with
 * no diagnostics).  Returns NULL and fills *err when the text does not
 * decode.  Do not use it for frontend_attributes or backend_config (raw
 * JSON): see metadata_frontend (metadata.h). */
struct hlo_value *attr_parse(struct hlo_file *f, const struct hlo_attr *at, struct arena *a,
			     struct attr_error *err);

/* Fast paths over the raw value text, no tree: true when the whole value is
 * exactly one such token (or a plain {1,2} list); false, without a message,
 * for anything else (comments, other forms, errors), so the caller falls
 * back to attr_parse and the tree decoders below for a precise message. */
/* The value of attribute key of i when it is one word (kind=kLoop) or a
 * plain quoted string (custom_call_target="MoveToHost"), without quotes:
 * *n bytes, not NUL-terminated; NULL when absent.  Escapes are not decoded
 * (these names never carry any; attr_string decodes in full). */
const char *attr_plain(const struct hlo_file *f, const struct hlo_instr *i, enum attr_key key, size_t *n);
/* The same for attribute a itself, always read from the text. */
const char *attr_plain_value(const struct hlo_file *f, const struct hlo_attr *a, size_t *n);
bool attr_plain_is(const struct hlo_file *f, const struct hlo_instr *i, enum attr_key key, const char *s);
bool attr_plain_starts(const struct hlo_file *f, const struct hlo_instr *i, enum attr_key key, const char *prefix);
/* A JSON value (backend_config) read as text: whether "name" appears as a
 * key, and {..."outer":{"inner":"12"}...}'s number (-1 when absent; only
 * the object right after "outer" is searched). */
bool attr_json_has_key(const struct hlo_file *f, const struct hlo_instr *i, enum attr_key key, const char *name);
int64_t attr_json_number(const struct hlo_file *f, const struct hlo_instr *i, enum attr_key key, const char *outer,
			 const char *inner);
bool attr_text_int(const struct hlo_file *f, struct span value, int64_t *out);
bool attr_text_bool(const struct hlo_file *f, struct span value, bool *out);
/* An identifier [A-Za-z_][A-Za-z0-9_.-]* or a %name; *s points into the source. */
bool attr_text_ident(const struct hlo_file *f, struct span value, const char **s, size_t *n);
bool attr_text_ints(const struct hlo_file *f, struct span value, struct arena *a, struct attr_ints *out);

/* Scalars.  attr_int32 also checks the int32 range XLA enforces for some
 * attributes; attr_float accepts ints, decimals, inf and -inf that fit a
 * float (as XLA's epsilon). */
bool attr_int(const struct hlo_value *v, int64_t *out, struct attr_error *err);
bool attr_int32(const struct hlo_value *v, int64_t *out, struct attr_error *err);
bool attr_bool(const struct hlo_value *v, bool *out, struct attr_error *err);
bool attr_float(const struct hlo_value *v, double *out, struct attr_error *err);
/* A quoted string, unescaped into a (NUL terminated; *len may be NULL). */
bool attr_string(const struct hlo_file *f, const struct hlo_value *v, struct arena *a, char **out,
		 size_t *len, struct attr_error *err);
/* An identifier among names (NULL terminated), compared exactly or
 * ignoring ASCII case.  Returns its index, or -1 (and *err) when it is not
 * one of them; what names the enum in the message ("comparison direction"). */
int attr_enum(const struct hlo_value *v, const char *const *names, bool nocase, const char *what,
	      struct attr_error *err);

struct attr_int_lists {
	uint32_t n;
	struct attr_ints *lists;
};
/* {1,2,3} (commas required, as XLA) and {{0,1},{2,3}}. */
bool attr_ints(const struct hlo_value *v, struct arena *a, struct attr_ints *out, struct attr_error *err);
bool attr_int_lists(const struct hlo_value *v, struct arena *a, struct attr_int_lists *out,
		    struct attr_error *err);
/* {{0,1},{2,3}} read from the text (a fast path, as attr_text_ints). */
bool attr_text_int_lists(const struct hlo_file *f, struct span value, struct arena *a, struct attr_int_lists *out);
/* source_target_pairs: a list of lists with exactly two entries each. */
bool attr_source_target_pairs(const struct hlo_value *v, struct arena *a, struct attr_int_lists *out,
			      struct attr_error *err);
/* true, or {true,false,...} (parameter_replication, allow_spmd_...). */
struct attr_bools {
	uint32_t n;
	bool *v;
	bool braced;
};
bool attr_bools(const struct hlo_value *v, struct arena *a, struct attr_bools *out, struct attr_error *err);
/* {f32[2]{0}, s32[]} (operand_layout_constraints) or one shape. */
struct attr_shapes {
	uint32_t n;
	struct hlo_shape **shapes;
	struct span *spans;
};
bool attr_shapes(const struct hlo_value *v, struct arena *a, struct attr_shapes *out, struct attr_error *err);

/* ---- For decoders built on these (sharding.c) ---- */

/* Fills err (when not NULL) with a printf message at sp; returns false. */
bool attr_fail(struct attr_error *err, struct span sp, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The text of sp in f's source, and an excerpt length for messages. */
const char *attr_text(const struct hlo_file *f, struct span sp);
int attr_excerpt_len(struct span sp);
/* Tree node tests: kind, identifier s, punctuation p, "key=" pair. */
bool attr_is(const struct hlo_value *v, enum value_kind k);
bool attr_is_ident(const struct hlo_value *v, const char *s);
bool attr_is_punct(const struct hlo_value *v, enum value_punct p);
bool attr_is_pair(const struct hlo_value *v, const char *key);
/* *acc *= x, false on overflow past 2^63 or a negative x. */
bool attr_mul(uint64_t *acc, int64_t x);
/* Whether a list item must be preceded by a comma (XLA requires them). */
bool attr_need_comma(const struct hlo_value *item, const struct hlo_value *first, struct attr_error *err);

/* ---- Windows, slices, padding, convolution dimension labels ---- */

struct hlo_window_dim {
	int64_t size, stride, pad_lo, pad_hi, lhs_dilate, rhs_dilate;
	bool reversal;
};
struct hlo_window {
	uint32_t rank;
	struct hlo_window_dim *dims;
};
/* {size=3x3 stride=2x2 pad=1_1x1_1 lhs_dilate=.. rhs_dilate=.. rhs_reversal=1x0}:
 * fields space separated (no commas), each at most once, all of size's rank,
 * pad exactly low_high per dimension, reversal 0/1. */
bool attr_window(const struct hlo_file *f, const struct hlo_value *v, struct arena *a,
		 struct hlo_window *out, struct attr_error *err);

struct hlo_slice_dim {
	int64_t start, limit, stride;
};
struct hlo_slice {
	uint32_t rank;
	struct hlo_slice_dim *dims;
};
/* {[start:limit(:stride)], ...}; stride defaults to 1. */
bool attr_slice(const struct hlo_value *v, struct arena *a, struct hlo_slice *out, struct attr_error *err);
/* The same read from the text, for the simple spelling only (the fast
 * paths above: false means "parse it"). */
bool attr_text_slice(const struct hlo_file *f, struct span value, struct arena *a, struct hlo_slice *out);

struct hlo_pad_dim {
	int64_t lo, hi, interior;
};
struct hlo_padding {
	uint32_t rank;
	struct hlo_pad_dim *dims;
};
/* The pad instruction's padding=lo_hi(_interior)x...; interior >= 0. */
bool attr_padding(const struct hlo_file *f, const struct hlo_value *v, struct arena *a,
		  struct hlo_padding *out, struct attr_error *err);

/* dim_labels=b01f_01io->b01f.  Positions of each label (-1 for '?' slots
 * that were not given); spatial arrays have nspatial entries. */
struct hlo_conv_dims {
	uint32_t lhs_rank, rhs_rank, out_rank, nspatial;
	int64_t lhs_batch, lhs_feature, rhs_input, rhs_output, out_batch, out_feature;
	int64_t *lhs_spatial, *rhs_spatial, *out_spatial;
};
/* Validates as XLA: lhs/out use b f 0-9 ?, rhs i o 0-9 ?; labels unique in
 * a part ('?' may repeat); digits below that part's length; every part has
 * the same number of spatial dimensions. */
bool attr_dim_labels(const struct hlo_file *f, const struct hlo_value *v, struct arena *a,
		     struct hlo_conv_dims *out, struct attr_error *err);

/* ---- Aliasing and program shapes ---- */

enum alias_kind { ALIAS_NONE, ALIAS_MAY, ALIAS_MUST };

struct hlo_alias {
	struct attr_ints output_index;  /* empty for buffer_donor */
	int64_t number;                 /* parameter (or operand) number */
	struct attr_ints index;         /* index inside that parameter */
	enum alias_kind kind;
	struct span span;
};
struct hlo_aliases {
	uint32_t n;
	struct hlo_alias *items;
};
/* input_output_alias={ {0}: (0, {}, may-alias), ... } and the instruction
 * attribute output_to_operand_aliasing={ {0}: (1, {}) } (with_kind false:
 * no alias kind allowed). */
bool attr_aliases(const struct hlo_value *v, struct arena *a, bool with_kind, struct hlo_aliases *out,
		  struct attr_error *err);
/* output_to_operand_aliasing's simple spelling read from the text (a fast
 * path, as attr_text_ints: false means "parse it"); no alias kinds. */
bool attr_text_aliases(const struct hlo_file *f, struct span value, struct arena *a, struct hlo_aliases *out);
/* buffer_donor={ (0, {}), (1, {0}) }: number + index, no output index. */
bool attr_buffer_donors(const struct hlo_value *v, struct arena *a, struct hlo_aliases *out,
			struct attr_error *err);

struct hlo_program_shape {
	uint32_t nparams;
	struct hlo_shape **params;
	struct span *param_spans;
	struct hlo_shape *result;
	struct span result_span;
};
/* entry_computation_layout={(shape, ...)->shape}. */
bool attr_program_shape(const struct hlo_value *v, struct arena *a, struct hlo_program_shape *out,
			struct attr_error *err);

/* ---- Small structured values ---- */

/* Module debug_attributes={ {"instr" {index}?}:({log_mode=default,
 * callback_id=1, op_id=2, partitioned=true}, ...), ... }. */
bool attr_debug_attributes(const struct hlo_value *v, struct attr_error *err);
/* statistics={visualizing_index=N, name=number, ...}. */
bool attr_statistics(const struct hlo_value *v, struct attr_error *err);

/* True when index is a valid path into s (every step a tuple element). */
bool attr_index_valid(const struct hlo_shape *s, const struct attr_ints *index);
/* result_accuracy={mode=highest} or {tolerance={atol=.. rtol=.. ulps=..}}. */
bool attr_result_accuracy(const struct hlo_value *v, struct attr_error *err);
#endif
