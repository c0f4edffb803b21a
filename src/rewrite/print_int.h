/* print_int.h - what the printer's files share (print.c: structure and
 * attribute order; print_value.c: one attribute's value; print_sharding.c:
 * shardings and tile assignments).  Not for use outside src/rewrite/print*. */
#ifndef HLO_PRINT_INT_H
#define HLO_PRINT_INT_H
#include <stdio.h>
#include "attr.h"
#include "metadata.h"
#include "print.h"
#include "sharding.h"

/* Tile assignments with more dimensions than this are printed as written. */
#define PRINT_MAX_DIMS 32
/* Explicit device lists longer than this are not re-sorted (as written). */
#define PRINT_MAX_SORT_DEVICES (1u << 20)

struct print_ctx {
	FILE *out;
	struct hlo_module *m;
	struct hlo_file *f;
	enum print_style style;
	struct arena scratch;       /* decoded values; released per instruction */
};

/* Where an attribute goes in XLA's printing order (HI:4097-4214, 4310-4554). */
enum print_group {
	PG_OPCODE, PG_CALLEE, PG_SHARDING, PG_FRONTEND, PG_CONTROL, PG_STATISTICS,
	PG_ACCURACY, PG_ORIGIN, PG_METADATA, PG_BACKEND, PG_UNKNOWN
};

/* How a value is printed. */
enum print_fmt {
	PF_TEXT,        /* normalised text */
	PF_COMPACT,     /* text without whitespace (XLA joins with ",") */
	PF_INT,         /* decimal; dropped when equal to dflt (if any) */
	PF_INTS,        /* {1,2}; dropped when empty if dflt is "{}" */
	PF_INT_LISTS,   /* {{0,1},{2,3}} (or a plain int list) */
	PF_TRUE_ONLY,   /* true, or dropped when false */
	PF_BOOLS,       /* {true,false} */
	PF_FLOAT,       /* %g with six digits (absl::StrCat of a float) */
	PF_STRING,      /* C-escaped, double quoted; dropped when equal to dflt */
	PF_RAW_STRING,  /* unescaped, double quoted (XLA prints it raw) */
	PF_LOWER,       /* enum printed in lower case */
	PF_UPPER,       /* enum printed in upper case; dropped when equal to dflt */
	PF_CALLEE,      /* %name, {%a, %b} or %a, %b */
	PF_CONTROL,     /* {%a, %b} from the resolved predecessors */
	PF_SHARDING,
	PF_METADATA,
	PF_FRONTEND,
	PF_BACKEND,
	PF_WINDOW,
	PF_SLICE,
	PF_PADDING,
	PF_REPLICA_GROUPS,
	PF_ALIASING,    /* output_to_operand_aliasing */
	PF_SHAPES,      /* operand_layout_constraints */
	PF_SHAPE,       /* outfeed_shape */
	PF_COMPARE_TYPE,
	PF_PRECISION,   /* operand_precision */
	PF_ALGORITHM,
	PF_ACCURACY,    /* result_accuracy */
};

struct print_attr_info {
	const char *name;
	uint8_t group;
	uint8_t fmt;
	const char *dflt;   /* the value XLA does not print, or NULL */
};

struct print_tiles {
	uint32_t rank;
	int64_t dims[PRINT_MAX_DIMS];
	int64_t *devices;           /* explicit list (count entries), or NULL for iota */
	uint64_t count;
	uint32_t iota_rank;
	int64_t reshape[PRINT_MAX_DIMS];
	int64_t perm[PRINT_MAX_DIMS];
};

void print_attr_as_text(struct print_ctx *p, const struct hlo_attr *a, bool names, bool compact);
/* The name of an attribute a typed printer prints: those are known keys
 * (an unknown attribute is printed as written, print_attr_as_text). */
static inline const char *print_attr_name(const struct hlo_attr *a)
{
	return ir_attr_name((enum attr_key)a->key);
}
struct hlo_value *print_decode(struct print_ctx *p, const struct hlo_attr *a);
bool print_decode_bool(struct print_ctx *p, const struct hlo_attr *a, bool *out);
bool print_decode_int(struct print_ctx *p, const struct hlo_attr *a, int64_t *out);
bool print_decode_metadata(struct print_ctx *p, struct span sp, struct hlo_metadata *md);
void print_frontend_attr(struct print_ctx *p, const struct hlo_attr *a);
void print_i64s(FILE *out, const int64_t *v, uint32_t n, const char *sep);
void print_instr_attr(struct print_ctx *p, const struct hlo_instr *i, const struct hlo_attr *a,
		      const struct print_attr_info *info);
void print_metadata_body(FILE *out, const struct hlo_metadata *md);
void print_name(struct print_ctx *p, const char *name, size_t len);
void print_quoted(FILE *out, const char *s, size_t n, bool escape);
void print_shape(struct print_ctx *p, const struct hlo_shape *s, bool with_layout);
void print_shape_index(FILE *out, const struct attr_ints *idx);
void print_sharding_attr(struct print_ctx *p, const struct hlo_attr *a);
void print_tiles(FILE *out, const struct print_tiles *t);
bool print_tiles_from(struct print_tiles *t, const struct hlo_tile_assignment *a, const int64_t *dims,
		      uint32_t rank);
void print_value_text(struct print_ctx *p, struct span sp, bool names, bool compact);
#endif
