/* attr.h - typed decoders over attribute values (lists, enums, shardings,
 * replica groups, windows, metadata, aliasing...), lazy and cache-free: the
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
 * JSON): see attr_frontend_attributes. */
struct hlo_value *attr_parse(struct hlo_file *f, const struct hlo_attr *at, struct arena *a,
			     struct attr_error *err);

/* Fast paths over the raw value text, no tree: true when the whole value is
 * exactly one such token (or a plain {1,2} list); false, without a message,
 * for anything else (comments, other forms, errors), so the caller falls
 * back to attr_parse and the tree decoders below for a precise message. */
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

/* ---- Shardings (HLO_TEXT_SYNTAX 5.12, MEMORY_FACTS 5) ---- */

enum sharding_kind {
	SHARDING_REPLICATED, SHARDING_MANUAL, SHARDING_MAXIMAL, SHARDING_UNKNOWN,
	SHARDING_UNREDUCED, SHARDING_TILED, SHARDING_TUPLE, SHARDING_NAMED
};
/* What the trailing tile dimensions of a tiled sharding stand for
 * (last_tile_dims={...}; last_tile_dim_replicate is one SUBGROUP_REPLICATED). */
enum sharding_subgroup { SUBGROUP_REPLICATED, SUBGROUP_MANUAL, SUBGROUP_UNREDUCED, SUBGROUP_MAXIMAL };
enum sharding_group { SHARD_GROUP_NONE, SHARD_GROUP_AS, SHARD_GROUP_LIKE };

/* devices=[dims] followed by an explicit device list or an iota
 * "<=[reshape]T(perm)": arange(N).reshape(reshape).transpose(perm).reshape(dims).
 * The iota form is never expanded; attr_tile_device computes one entry. */
struct hlo_tile_assignment {
	uint32_t rank;
	int64_t *dims;
	uint64_t count;             /* product of dims */
	int64_t *devices;           /* explicit list of count ids, or NULL for iota */
	uint32_t iota_rank;
	int64_t *iota_dims;         /* reshape dims */
	int64_t *iota_perm;         /* transpose permutation, NULL = identity */
};

struct hlo_mesh_axis {
	char *name;                 /* unescaped axis name */
	size_t len;
	int64_t size;
	struct span span;           /* the quoted name in the source */
};

/* A (sub-)axis reference: axis index into the mesh, and for 'x':(pre)size a
 * sub-axis of size `size` after `pre_size` (pre_size 1 and size = the
 * axis size for a whole axis). */
struct hlo_axis_ref {
	uint32_t axis;
	int64_t pre_size, size;
	bool sub;
};

struct hlo_axis_list {
	uint32_t n;
	struct hlo_axis_ref *refs;
	bool open;                  /* dimension sharding ends with '?' */
};

struct hlo_mesh {
	uint32_t naxes;
	struct hlo_mesh_axis *axes;
	bool maximal;               /* maximal_mesh[device_id=N] */
	int64_t device;             /* for maximal */
	bool has_device_ids;        /* device_ids=(...) given; else iota over the mesh */
	struct hlo_tile_assignment device_ids;  /* rank 1, count = product of axis sizes */
	struct hlo_mesh_axis **by_name;         /* axes sorted by name (lookups) */
};

enum named_whole { NAMED_DIMS, NAMED_REPLICATED, NAMED_UNREDUCED, NAMED_MANUAL };

struct hlo_sharding {
	enum sharding_kind kind;
	struct span span;
	/* SHARDING_TILED */
	struct hlo_tile_assignment tiles;
	uint32_t nsubgroups;
	enum sharding_subgroup *subgroups;
	/* SHARDING_MAXIMAL */
	int64_t device;
	/* shard_as N / shard_like N (legacy) */
	enum sharding_group group;
	int64_t group_id;
	bool has_metadata;
	/* SHARDING_TUPLE: flat list of leaf shardings */
	uint32_t nelems;
	struct hlo_sharding *elems;
	/* SHARDING_NAMED */
	struct hlo_mesh mesh;
	enum named_whole whole;     /* {mesh[..], replicated|unreduced|manual} */
	uint32_t ndims;             /* [{...}, {...}] per array dimension */
	struct hlo_axis_list *dims;
	struct hlo_axis_list replicated, unreduced, manual;
	int unreduced_op;           /* 0 none, 1 sum, 2 max, 3 min */
};

/* Decodes and validates a sharding as XLA's parser does: one kind keyword,
 * maximal needs exactly one device=, other kinds none; devices= needs
 * product(dims) explicit ids (at least two) or an iota whose reshape product
 * matches and whose T(...) is a permutation; named axes must exist in the
 * mesh (by name or index) and sub-axes must divide them; device_ids count
 * must equal the mesh size.  v is the value of sharding= (a brace group). */
bool attr_sharding(const struct hlo_file *f, const struct hlo_value *v, struct arena *a,
		   struct hlo_sharding *out, struct attr_error *err);
/* Decodes the sharding= attribute of an instruction; false when it has none
 * (err->msg empty) or it does not decode. */
bool attr_instr_sharding(struct hlo_file *f, const struct hlo_instr *i, struct arena *a,
			 struct hlo_sharding *out, struct attr_error *err);
/* Into how many pieces array dimension dim is split: tile dims for tiled
 * shardings (1 beyond the data rank), the product of the sizes of the axes
 * sharding that dimension for named ones, 1 for replicated, maximal, manual,
 * unknown, unreduced and tuples (pick the element first). */
int64_t attr_sharding_tile_count(const struct hlo_sharding *s, uint32_t dim);
/* Number of devices named by the sharding: product of tile dims, mesh size,
 * 1 for maximal, the largest element for tuples, 0 when it names none
 * (replicated, manual, unknown, unreduced). */
int64_t attr_sharding_num_devices(const struct hlo_sharding *s);
/* Array dimensions the sharding tiles: tile rank minus subgroup dims, or
 * the number of named dimension shardings; 0 for other kinds. */
uint32_t attr_sharding_data_rank(const struct hlo_sharding *s);
/* Device at row-major position index of a tile assignment (explicit or
 * iota); -1 when index is out of range. O(rank). */
int64_t attr_tile_device(const struct hlo_tile_assignment *t, uint64_t index);
/* Size of a mesh (product of axis sizes; 1 for an empty or maximal mesh). */
int64_t attr_mesh_size(const struct hlo_mesh *m);

/* ---- Collectives ---- */

enum replica_groups_kind { RG_LIST, RG_IOTA, RG_MESH };

struct hlo_replica_groups {
	enum replica_groups_kind kind;
	uint64_t ngroups;           /* group count */
	uint64_t group_size;        /* size of every group; for lists the first one */
	bool uniform;               /* all groups have group_size members */
	struct attr_int_lists list; /* RG_LIST */
	struct hlo_tile_assignment iota;  /* RG_IOTA: dims = [ngroups, group_size] */
	struct hlo_mesh mesh;       /* RG_MESH: groups span the listed axes */
	struct hlo_axis_list axes;
};
/* {{0,1},{2,3}}, [G,S]<=[N]T(...) or mesh['x'=2,'y'=2] {'x'} /
 * maximal_mesh[device_id=N] {}. */
bool attr_replica_groups(const struct hlo_file *f, const struct hlo_value *v, struct arena *a,
			 struct hlo_replica_groups *out, struct attr_error *err);

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

/* ---- Metadata and frontend attributes (scanned from the source text) ---- */

struct hlo_metadata {
	char *op_type, *op_name, *source_file, *deduplicated_name, *scheduling_name;
	int64_t source_line, source_end_line, source_column, source_end_column;
	int64_t stack_frame_id;     /* 1-based into module->stack.frames; 0 none */
	bool preserve_layout;
	struct attr_ints profile_type;
	struct span unknown_key;    /* first key XLA does not know, or none */
};
/* Decodes metadata={op_type="..." op_name="..." source_line=3 ...} from the
 * attribute value span (items separated by spaces and/or commas).  Unknown
 * keys are skipped and the first one recorded in out->unknown_key.  With a
 * NULL arena it only validates: string fields and profile_type stay empty. */
bool attr_metadata(const struct hlo_file *f, struct span value, struct arena *a,
		   struct hlo_metadata *out, struct attr_error *err);
/* Where an instruction came from: source_file/source_line when present,
 * else the innermost frame of stack_frame_id that has a file (walking parent
 * frames only while a frame has none) through module->stack.  *file is
 * unescaped into a.  False when nothing is known. */
bool attr_metadata_source(const struct hlo_module *m, const struct hlo_metadata *md, struct arena *a,
			  const char **file, int64_t *line);

struct hlo_frontend_attr {
	char *key;
	size_t key_len;
	char *value;                /* unescaped string, or the raw {...} JSON text */
	size_t len;
	bool json;
	struct span span;           /* key=value */
};
struct hlo_frontend_attrs {
	uint32_t n;
	struct hlo_frontend_attr *items;
};
/* frontend_attributes={key="value", key={json...}} from the value span. */
bool attr_frontend_attributes(const struct hlo_file *f, struct span value, struct arena *a,
			      struct hlo_frontend_attrs *out, struct attr_error *err);
/* The entry for key, or NULL. */
const struct hlo_frontend_attr *attr_frontend_get(const struct hlo_frontend_attrs *fa, const char *key);

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

/* result_accuracy={mode=highest} or {tolerance={atol=.. rtol=.. ulps=..}}. */
bool attr_result_accuracy(const struct hlo_value *v, struct attr_error *err);
/* domain={kind="sharding", entry={...}, exit={...}} (shardings checked). */
bool attr_domain(const struct hlo_file *f, const struct hlo_value *v, struct arena *a,
		 struct attr_error *err);
/* Module debug_attributes={ {"instr" {index}?}:({log_mode=default,
 * callback_id=1, op_id=2, partitioned=true}, ...), ... }. */
bool attr_debug_attributes(const struct hlo_value *v, struct attr_error *err);
/* statistics={visualizing_index=N, name=number, ...}. */
bool attr_statistics(const struct hlo_value *v, struct attr_error *err);

/* Number of leaf buffers of a shape (1 for arrays, sum over tuple elements). */
uint64_t attr_leaf_count(const struct hlo_shape *s);
/* True when index is a valid path into s (every step a tuple element). */
bool attr_index_valid(const struct hlo_shape *s, const struct attr_ints *index);
#endif
