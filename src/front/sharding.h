/* sharding.h - shardings and replica groups: their structures, decoding
 * and validation as XLA's parser does (from attribute value trees, through
 * attr.h's helpers), and the counts the model reads off them.  It does not
 * propagate shardings or size arrays (mem.c, size.c). */
#ifndef HLO_SHARDING_H
#define HLO_SHARDING_H
#include "attr.h"

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
 * The iota form is never expanded; sharding_tile_device computes one entry. */
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
bool sharding_decode(const struct hlo_file *f, const struct hlo_value *v, struct arena *a,
		     struct hlo_sharding *out, struct attr_error *err);
/* Decodes the sharding= attribute of an instruction; false when it has none
 * (err->msg empty) or it does not decode. */
bool sharding_of(struct hlo_file *f, const struct hlo_instr *i, struct arena *a,
		 struct hlo_sharding *out, struct attr_error *err);
/* Into how many pieces array dimension dim is split: tile dims for tiled
 * shardings (1 beyond the data rank), the product of the sizes of the axes
 * sharding that dimension for named ones, 1 for replicated, maximal, manual,
 * unknown, unreduced and tuples (pick the element first). */
int64_t sharding_tile_count(const struct hlo_sharding *s, uint32_t dim);
/* Number of devices named by the sharding: product of tile dims, mesh size,
 * 1 for maximal, the largest element for tuples, 0 when it names none
 * (replicated, manual, unknown, unreduced). */
int64_t sharding_num_devices(const struct hlo_sharding *s);
/* Tiled (devices=[...]) or named (mesh[...]) anywhere, a tuple's elements included. */
bool sharding_tiled_or_named(const struct hlo_sharding *s);
/* Array dimensions the sharding tiles: tile rank minus subgroup dims, or
 * the number of named dimension shardings; 0 for other kinds. */
uint32_t sharding_data_rank(const struct hlo_sharding *s);
/* Device at row-major position index of a tile assignment (explicit or
 * iota); -1 when index is out of range. O(rank). */
int64_t sharding_tile_device(const struct hlo_tile_assignment *t, uint64_t index);
/* Size of a mesh (product of axis sizes; 1 for an empty or maximal mesh). */
int64_t sharding_mesh_size(const struct hlo_mesh *m);

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
bool sharding_replica_groups(const struct hlo_file *f, const struct hlo_value *v, struct arena *a,
			     struct hlo_replica_groups *out, struct attr_error *err);
/* domain={kind="sharding", entry={...}, exit={...}} (shardings checked). */
bool sharding_domain(const struct hlo_file *f, const struct hlo_value *v, struct arena *a,
		     struct attr_error *err);
#endif
