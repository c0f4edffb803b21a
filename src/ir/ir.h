/* ir.h - the HLO module IR: modules, computations, instructions, shapes,
 * layouts and attribute records, all allocated in the file's arena with
 * interned names.  Builders live in build.c, name resolution in resolve.c,
 * checks in verify.c; this header is what every later stage reads.
 * Attribute values are kept as source spans and decoded on demand (value.h,
 * attr.h), so the IR stays small next to the text it came from. */
#ifndef HLO_IR_H
#define HLO_IR_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "arena.h"
#include "intern.h"
#include "source.h"
#include "span.h"

enum opcode {
#define OP(e, text, arity) OP_##e,
#include "opcodes.def"
#undef OP
	OP_COUNT
};

enum ptype {
	PT_INVALID,
#define TYPE(e, text, bits) PT_##e,
#include "types.def"
#undef TYPE
	PT_TUPLE,
	PT_BUFFER,
	PT_COUNT
};

enum attr_key {
	ATTR_UNKNOWN,
#define ATTR(e, text, generic, vk, names, nocase, what, pg, pf, dflt) ATTR_##e,
#include "attrs.def"
#undef ATTR
	ATTR_COUNT
};

/* An attribute's value kind (attrs.def's vk column): how verify checks it. */
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

/* Opcode table. */
const char *ir_opcode_name(enum opcode op);
/* Whether op moves data between devices (all-reduce, all-gather,
 * reduce-scatter, all-to-all, collective-permute and their async starts). */
bool ir_op_is_collective(enum opcode op);
int ir_opcode_arity(enum opcode op);  /* >=0 fixed, -1 variadic, -2 special */
const char *ir_type_name(enum ptype t);
int ir_type_bits(enum ptype t);       /* element bits, 0 for token/opaque/tuple */
bool ir_type_is_float(enum ptype t);
bool ir_type_is_complex(enum ptype t);
bool ir_type_is_signed_int(enum ptype t);
bool ir_type_is_unsigned_int(enum ptype t);  /* u* (not pred) */
const char *ir_attr_name(enum attr_key k);
/* Whether the attribute names computations (calls=, to_apply=, body=,
 * branch_computations=, ...): resolve makes them the instruction's callees. */
bool ir_attr_is_callee(enum attr_key k);

/* ---- Shapes and layouts (immutable, hash-consed per file or per piece) ---- */

struct hlo_tile {
	uint32_t rank;
	int64_t *dims;          /* -1 = '*' (combine dimension) */
};

struct hlo_split {
	int64_t dim;
	uint32_t n;
	int64_t *indices;
};

struct hlo_layout {
	uint32_t rank;              /* entries in minor_to_major */
	int64_t *minor_to_major;
	uint32_t ntiles;
	struct hlo_tile *tiles;
	uint32_t ndim_level_types;  /* D(...): parsed, never printed */
	int64_t tail_padding;       /* L(n); 1 when absent */
	enum ptype index_type;      /* #(u32); PT_INVALID when absent */
	enum ptype pointer_type;    /* *(u64) */
	int64_t element_bits;       /* E(n); 0 when absent */
	int64_t memory_space;       /* S(n); 0 when absent */
	uint32_t nsplits;
	struct hlo_split *splits;   /* SC(d:i,j) */
	struct hlo_shape *physical; /* P(shape) */
	int64_t dynamic_prefix;     /* M(n); 0 when absent */
};

enum dim_kind { DIM_STATIC = 0, DIM_BOUNDED = 1, DIM_UNBOUNDED = 2 };

struct hlo_shape {
	enum ptype type;            /* PT_TUPLE / PT_BUFFER for the structured kinds */
	uint32_t rank;              /* array rank, or tuple element count */
	int64_t *dims;              /* array dims; bound for '<=N'; -1 for '?' */
	uint8_t *dim_kinds;         /* NULL when all static */
	struct hlo_layout *layout;  /* NULL when none was written */
	struct hlo_shape **elems;   /* tuple elements / the buffer's element */
};

/* ---- Attributes ---- */

/* One "name=value" after an instruction or in the module header.  The value
 * is kept as its source text and decoded on demand (value.h, attr.h). */
struct hlo_attr {
	uint64_t value_off : 40;    /* source offset of the value text */
	uint64_t name_gap : 24;     /* blanks between "name=" and the value */
	uint32_t value_len;         /* continuation values (calls=%a, %b) included */
	uint16_t key;               /* enum attr_key; ATTR_UNKNOWN when not in attrs.def */
	uint16_t name_len;          /* without the '='; longer names are refused (build.c) */
};
#define IR_ATTR_NAME_MAX 0xffffu
#define IR_ATTR_GAP_MAX 0xffffffu

static inline struct span ir_attr_value(const struct hlo_attr *a)
{
	return span_make(a->value_off, a->value_off + a->value_len);
}
/* "name=" (the scanner makes it one token), blanks included. */
static inline struct span ir_attr_name_span(const struct hlo_attr *a)
{
	return span_make(a->value_off - a->name_gap - a->name_len - 1, a->value_off);
}

/* ---- Instructions ---- */

struct hlo_instr;
struct hlo_comp;
struct hlo_module;

/* Operands are 16 bytes: a big dump has about as many of them as
 * instructions.  The span is packed (1 TiB of offsets, 4 MiB of length:
 * a longer nested operand is clamped; spans are only for diagnostics). */
struct hlo_operand {
	struct hlo_instr *instr;    /* NULL until resolved */
	uint64_t off : 40;          /* source offset of the operand name (no '%'), or of a nested instruction */
	uint64_t len : 22;
	uint64_t reserved : 2;      /* build.c's scratch state */
};
#define IR_OPERAND_MAX_LEN ((1u << 22) - 1)

/* Rare operand details, kept out of line (old typed form, compact GTE). */
struct hlo_operand_extra {
	struct hlo_shape *declared; /* "f32[] %x": the written shape, else NULL */
	struct span declared_span;  /* its text */
	uint32_t ngte;              /* "%p#1#0" suffixes */
	int64_t *gte;
};

/* Rarely used instruction parts, present only when IR_HAS_EXTRA is set. */
struct hlo_instr_extra {
	struct hlo_operand_extra *operands;  /* noperands entries, or NULL */
	uint32_t lit_off, lit_len;           /* constant "(...)": offset from start, length */
	uint32_t ncontrol;
	uint32_t name_len;                   /* the name's length when name_len_short is IR_NAME_LONG */
	struct hlo_instr **control;          /* control-predecessors, resolved */
	struct interned *target;             /* custom_call_target, unquoted (attr_plain) */
	const char *name;                    /* an IR_ANONYMOUS instruction's generated name */
};

enum instr_flag {
	IR_ROOT = 1,          /* written with ROOT */
	IR_ANONYMOUS = 2,     /* nested instruction or synthesized GTE: its name is generated */
	IR_SHAPE_WRITTEN = 4, /* result shape present in the text */
	IR_FUSION_SHIFT = 3,  /* bits 3-5: a fusion's enum fusion_kind */
	IR_ONE_CALLEE_PER_ATTR = 64, /* callees[k] is the k-th callee attribute's (resolve) */
	IR_SCALAR_NUMBER = 128, /* a rank-0 integer or pred constant whose value is number */
};
enum instr_xflag {
	IR_HAS_EXTRA = 1,     /* an hlo_instr_extra follows the attributes (ir_extra) */
	IR_LIT_INLINE = 2,    /* a constant's literal: lit_len, and bits 2-7 the blanks
			       * between opcode and "(" (ir_instr_literal) */
	IR_LIT_GAP_SHIFT = 2,
	IR_CALLS_UPDATE = 4,  /* not a constant: a callee's root_updates, so that the memory
			       * model need not read every fused computation's root */
	IR_NAMES_COMPS = 8,   /* no literal: an attribute names computations (ir_attr_is_callee),
			       * so that resolve need not read every instruction's attributes */
};
#define IR_LIT_GAP_MAX 63u

/* Kinds of instruction a computation contains (hlo_comp.contains), so
 * that a rule looking for rare ones (host transfers, whiles, shardings)
 * skips the computations without any instead of reading every instruction. */
enum ir_contains {
	IR_CONTAINS_WHILE = 1,
	IR_CONTAINS_CONSTANT = 2,
	IR_CONTAINS_CUSTOM_CALL = 4,  /* or an async op wrapping one: what has a target */
	IR_CONTAINS_HOST_IO = 8,      /* send, recv, infeed, outfeed */
	IR_CONTAINS_SHARDING = 16,    /* a sharding= attribute */
	IR_CONTAINS_FRONTEND = 32,    /* a frontend_attributes= attribute */
	IR_CONTAINS_HOST_SPACE = 64,  /* a non-tuple result in memory space 5 (S(5)) */
	IR_CONTAINS_UNRESOLVED = 128, /* one naming computations, or without a written shape:
				       * what the module-wide resolve completes */
};

/* A fusion's kind= (XLA's FusionKind), decoded when the instruction is
 * built: the memory model asks it of every fusion, and reading it from the
 * text then would bring the whole file back into memory. */
enum fusion_kind { FUSION_UNKNOWN, FUSION_LOOP, FUSION_INPUT, FUSION_OUTPUT, FUSION_CUSTOM };
/* Their names, in enum order from FUSION_LOOP, NULL-terminated. */
extern const char *const ir_fusion_kinds[];
/* The kind an unquoted kind= value names (attr_plain_value unquotes);
 * FUSION_UNKNOWN when none. */
enum fusion_kind ir_fusion_kind_of(const char *text, size_t n);

/* 64 bytes, the IR of a big dump being mostly instructions: no pointer that
 * can be computed.  One allocation holds the instruction, then its
 * noperands operands, its nattrs attributes and, with IR_HAS_EXTRA, its
 * hlo_instr_extra (ir_operands, ir_attrs, ir_extra).  Users and callees
 * sit in per-module arrays (ir_user, ir_callees); a constant's literal
 * span is kept here (ir_instr_literal).  The name is a slice
 * of the source, not interned (names are unique per computation, so
 * interning would cost more than the text), or for an IR_ANONYMOUS
 * instruction a generated one (ir_name).  Use the accessors below. */
struct hlo_instr {
	uint8_t op;                 /* enum opcode; OP_COUNT when unknown */
	uint8_t async_wrapped;      /* op of "<op>-start" sugar, else OP_COUNT */
	uint8_t flags;              /* enum instr_flag */
	uint8_t xflags;             /* enum instr_xflag */
	uint32_t index;             /* position in comp->instrs (program order) */
	uint64_t start : 40;        /* source span: name (or ROOT) to end of attributes */
	uint64_t name_off : 8;      /* name offset from start (source names): 0, 1, 5 or 6 */
	uint64_t name_len_short : 16; /* ir_name_len; IR_NAME_LONG: the length is in the extra part */
	uint32_t len;
	uint32_t op_off : 24;       /* opcode offset from start */
	uint32_t op_len : 8;        /* clamped (only unknown opcodes are longer) */
	uint16_t nattrs;
	uint16_t ncallees;
	uint32_t noperands;
	uint32_t nusers;
	uint32_t users_at;          /* first user in comp->users (ir_user) */
	union {
		uint32_t callees_at;    /* first callee in comp->module->callees, in attribute order */
		uint32_t lit_len;       /* IR_LIT_INLINE (no callees): the literal's length */
	};
	int32_t number;             /* parameter(N) number, get-tuple-element index, the value
				     * of an IR_SCALAR_NUMBER constant, else -1 */
	struct hlo_shape *shape;    /* result shape (inferred when not written) */
	struct hlo_comp *comp;
};
#define IR_NAME_LONG 0xffffu
#define IR_OP_LEN_MAX 0xffu

static inline struct hlo_instr_extra *ir_extra(const struct hlo_instr *i);
static inline uint32_t ir_name_len(const struct hlo_instr *i);

static inline struct span ir_instr_span(const struct hlo_instr *i)
{
	return span_make(i->start, i->start + i->len);
}
static inline struct span ir_instr_name_span(const struct hlo_instr *i)
{
	return span_make(i->start + i->name_off, i->start + i->name_off + ir_name_len(i));
}
static inline struct span ir_instr_opcode_span(const struct hlo_instr *i)
{
	return span_make(i->start + i->op_off, i->start + i->op_off + i->op_len);
}
/* The result shape as written, with the "=" before it ("= f32[8]{0}"; a
 * nested instruction has none); span_none() when the shape is inferred.
 * value_shape_text finds its leaves. */
static inline struct span ir_instr_shape_text(const struct hlo_instr *i)
{
	if (!(i->flags & IR_SHAPE_WRITTEN))
		return span_none();
	uint64_t from = i->flags & IR_ANONYMOUS ? i->start : i->start + i->name_off + ir_name_len(i);
	return span_make(from, i->start + i->op_off);
}
static inline struct hlo_operand *ir_operands(const struct hlo_instr *i)
{
	return (struct hlo_operand *)(i + 1);
}
static inline struct hlo_attr *ir_attrs(const struct hlo_instr *i)
{
	return (struct hlo_attr *)(ir_operands(i) + i->noperands);
}
static inline struct hlo_instr_extra *ir_extra(const struct hlo_instr *i)
{
	return i->xflags & IR_HAS_EXTRA ? (struct hlo_instr_extra *)(ir_attrs(i) + i->nattrs) : NULL;
}
/* The "( ... )" of a constant; span_none() when there is none.  Most are
 * kept in the instruction (IR_LIT_INLINE): a dump has about as many
 * constants as fusions, and an extra part each was 48 bytes. */
static inline struct span ir_instr_literal(const struct hlo_instr *i)
{
	if (i->xflags & IR_LIT_INLINE) {
		uint64_t from = i->start + i->op_off + i->op_len + (i->xflags >> IR_LIT_GAP_SHIFT);
		return span_make(from, from + i->lit_len);
	}
	const struct hlo_instr_extra *x = ir_extra(i);
	return x && x->lit_len ? span_make(i->start + x->lit_off, i->start + x->lit_off + x->lit_len) : span_none();
}
static inline struct span ir_operand_span(const struct hlo_operand *o)
{
	return span_make((uint64_t)o->off, (uint64_t)o->off + (uint64_t)o->len);
}
static inline bool ir_is_root(const struct hlo_instr *i) { return i->flags & IR_ROOT; }
static inline bool ir_is_anonymous(const struct hlo_instr *i) { return i->flags & IR_ANONYMOUS; }
/* Whether an attribute of i names computations (a literal's blanks share the bit). */
static inline bool ir_names_comps(const struct hlo_instr *i)
{
	return !(i->xflags & IR_LIT_INLINE) && (i->xflags & IR_NAMES_COMPS);
}
/* Whether resolve has work on i once its names are bound: it names
 * computations, or its shape is to be inferred (IR_CONTAINS_UNRESOLVED). */
static inline bool ir_instr_unresolved(const struct hlo_instr *i)
{
	return !i->shape || ir_names_comps(i);
}
static inline enum fusion_kind ir_fusion_kind(const struct hlo_instr *i)
{
	return (enum fusion_kind)((i->flags >> IR_FUSION_SHIFT) & 7);
}
static inline uint32_t ir_name_len(const struct hlo_instr *i)
{
	return i->name_len_short != IR_NAME_LONG ? i->name_len_short : ir_extra(i)->name_len;
}
/* i's name (ir_name_len bytes, no '%', not NUL-terminated); inline below. */
static inline const char *ir_name(const struct hlo_instr *i);
/* printf arguments for "%.*s" of i's name. */
#define IR_NM(i) (int)ir_name_len(i), ir_name(i)
/* True when the instruction's name is exactly s. */
bool ir_name_is(const struct hlo_instr *i, const char *s);

struct hlo_comp {
	uint32_t index;             /* position in module->comps */
	uint32_t ninstrs;
	uint32_t nparams;
	uint32_t exec_len;          /* ", execution_thread=..." value, which ends the span
				     * (ir_comp_exec_thread); 0: none */
	uint64_t name_off : 40;     /* the name in the source, without '%' or ':' (ir_comp_name) */
	uint64_t name_len : 22;     /* longer names are refused (build.c) */
	uint64_t name_pct : 1;      /* written with '%' */
	uint64_t name_colon : 1;    /* written with ':' */
	uint32_t span_len;          /* ir_comp_span: its length */
	uint32_t sig_off, sig_len;  /* ir_comp_sig: "(name: shape, ...) -> shape", from name_off */
	uint32_t span_back : 19;    /* the span's start before the name's: "ENTRY %main" */
	uint32_t contains : 8;      /* enum ir_contains of its instructions (ir_comp_note) */
	uint32_t root_updates : 1;  /* its root is a dynamic-update-slice or scatter, or a tuple
				     * of one (resolve; a fusion calling it gets IR_CALLS_UPDATE) */
	uint32_t is_entry : 1;      /* marked ENTRY, or the entry by default */
	uint32_t has_signature : 1;
	uint32_t inline_body : 1;   /* written inline as an attribute value */
	uint32_t names_resolved : 1; /* resolve_names already bound its instructions' names */
	struct hlo_module *module;
	struct hlo_instr **instrs;  /* program order (the schedule when scheduled) */
	struct hlo_instr *root;
	struct hlo_instr **params;  /* by parameter number (NULL holes are errors) */
	uint32_t *users;            /* its instructions' users, positions in instrs (ir_user) */
	struct hlo_shape *sig_result; /* parameters in a signature are syntax only (as in XLA) */
	struct hlo_instr **pending; /* names_resolved: its ir_instr_unresolved instructions, which the
				     * serial resolve still reads (NULL-terminated, program order) */
};
/* 96 bytes: a dump has a computation for every fusion (46,499 in the
 * bench module).  Spans are lengths from the name, callers a slice of one
 * module-wide array (ir_comp_caller). */
_Static_assert(sizeof(struct hlo_comp) == 96, "struct hlo_comp is 96 bytes");

#define IR_COMP_BACK_MAX ((1u << 19) - 1)
/* From ENTRY or the name (its '%' included; an inline body's '{') to the
 * closing brace, or to the execution_thread value after it.  Until the
 * closing brace is built: the name's start, empty. */
static inline struct span ir_comp_span(const struct hlo_comp *c)
{
	uint64_t start = c->name_off - (c->inline_body ? 0 : c->name_pct) - c->span_back;
	return span_make(start, start + c->span_len);
}
/* The signature as written, or span_none(). */
static inline struct span ir_comp_sig(const struct hlo_comp *c)
{
	return c->has_signature ? span_make(c->name_off + c->sig_off, c->name_off + c->sig_off + c->sig_len)
				: span_none();
}
#define IR_COMP_NAME_MAX ((1u << 22) - 1)
/* The execution_thread value written after c's body, or span_none(). */
static inline struct span ir_comp_exec_thread(const struct hlo_comp *c)
{
	uint64_t end = ir_comp_span(c).end;
	return c->exec_len ? span_make(end - c->exec_len, end) : span_none();
}
/* The name as written, for diagnostics; an inline body's is its '{'. */
static inline struct span ir_comp_name_span(const struct hlo_comp *c)
{
	if (c->inline_body)
		return span_make(c->name_off, c->name_off + 1);
	return span_make(c->name_off - c->name_pct, c->name_off + c->name_len + c->name_colon);
}
/* c's name (ir_comp_name_len bytes, not NUL-terminated): a slice of the
 * source, as instruction names are; an inline body is named "_", as XLA's
 * parser names it. */
static inline const char *ir_comp_name(const struct hlo_comp *c);
static inline uint32_t ir_comp_name_len(const struct hlo_comp *c)
{
	return c->inline_body ? 1 : (uint32_t)c->name_len;
}
/* printf arguments for "%.*s" of c's name. */
#define IR_CNM(c) (int)ir_comp_name_len(c), ir_comp_name(c)

struct hlo_file_location {
	int64_t file_name_id, function_name_id, line, end_line, column, end_column;
};
struct hlo_stack_frame {
	int64_t file_location_id;   /* 1-based, 0 = none */
	/* As XLA writes it: the parent frame's 1-based id plus one, so 1 (or 0
	 * in hand-written text) is no parent.  A module compiled from f -> g ->
	 * h prints "3 {file_location_id=3 parent_frame_id=3}" for h, whose
	 * caller g is frame 2.  Kept as written (fmt prints it back);
	 * metadata_source is its one reader. */
	int64_t parent_frame_id;
};

struct hlo_stack_tables {
	uint32_t nfile_names, nfunction_names, nfile_locations, nframes;
	struct span *file_names;            /* STRING tokens (quoted) */
	struct span *function_names;
	struct hlo_file_location *file_locations;
	struct hlo_stack_frame *frames;
	struct span *location_rows;         /* the {...} groups, decoded by resolve */
	struct span *frame_rows;
	uint32_t nlocation_rows, nframe_rows;
	struct span span;                   /* whole table block */
};

struct hlo_module {
	struct hlo_file *file;
	struct interned *name;
	struct span span;           /* header (or first computation) to last '}' */
	struct span header;         /* "HloModule ..." line; none when headerless */
	bool has_header;
	bool is_scheduled;
	int64_t num_partitions;     /* 1 when absent */
	int64_t replica_count;      /* 1 when absent */
	uint32_t nattrs;
	struct hlo_attr *attrs;     /* header attributes in source order */
	struct hlo_stack_tables stack;  /* all zero when absent */
	uint32_t ncomps;
	struct hlo_comp **comps;    /* source order; inline bodies included */
	struct hlo_comp *entry;
	struct hlo_module *next;
	struct hlo_comp **callees;  /* every instruction's callees (ir_callees), from resolve */
	struct hlo_instr **callers; /* every computation's callers (ir_comp_caller), from resolve */
	uint32_t *callers_at;       /* by computation index, ncomps + 1: where its callers start
				     * (NULL until resolve has them): computations are not written,
				     * each a cache miss on a large module */
	uint32_t ninstrs_total;
	bool valid;                 /* parsed, resolved and verified without error */
	struct compnames *compnames; /* computation names the builder copied for resolve
				      * (compname.h); freed by resolve */
	uint8_t *contains;          /* by computation index, each one's contains (resolve): a walk
				     * skips computations unread (ir_visitor.want) */
	bool names_resolved;        /* every computation's (the pieces of a parse joined) */
};

/* The comments `hlolint annotate` writes start with this; the scanner
 * records where they are (hlo_file.lint_comments) so that annotating again
 * replaces them and `annotate --strip` removes them. */
#define IR_LINT_COMMENT "// hlolint:"

/* One parsed input: every module in it shares the arena and intern table. */
struct hlo_file {
	struct source *src;
	struct arena arena;
	struct intern_table *names;
	struct hlo_module *modules;  /* linked through next */
	uint32_t nmodules;
	unsigned errors;             /* errors reported while parsing/verifying */
	struct span *lint_comments;  /* IR_LINT_COMMENT comments, in source order (xmalloc'd) */
	uint32_t nlint_comments, lint_comments_cap;
};

_Static_assert(sizeof(struct hlo_instr) == 64, "struct hlo_instr is 64 bytes");

static inline const char *ir_comp_name(const struct hlo_comp *c)
{
	return c->inline_body ? "_" : c->module->file->src->buf + c->name_off;
}
static inline const char *ir_name(const struct hlo_instr *i)
{
	return i->flags & IR_ANONYMOUS ? ir_extra(i)->name : i->comp->module->file->src->buf + i->start + i->name_off;
}
/* The k-th of the nusers instructions that use i as an operand, in
 * program order.  They are in i's computation, which keeps their 32-bit
 * positions (comp->users), not pointers. */
static inline struct hlo_instr *ir_user(const struct hlo_instr *i, uint32_t k)
{
	return i->comp->instrs[i->comp->users[i->users_at + k]];
}
/* The computations i calls, in attribute order (ncallees of them). */
static inline struct hlo_comp **ir_callees(const struct hlo_instr *i)
{
	struct hlo_comp **c = i->comp->module->callees;
	return c ? c + i->callees_at : NULL;
}
/* How many instructions call computation number index of m (0 before
 * resolve has them), without reading the computation. */
static inline uint32_t ir_module_ncallers(const struct hlo_module *m, uint32_t index)
{
	const uint32_t *at = m ? m->callers_at : NULL;
	return at ? at[index + 1] - at[index] : 0;
}
/* How many instructions call c; 0 before resolve found them. */
static inline uint32_t ir_comp_ncallers(const struct hlo_comp *c)
{
	return ir_module_ncallers(c->module, c->index);
}
/* The k-th of the ir_comp_ncallers instructions that call c, in module order. */
static inline struct hlo_instr *ir_comp_caller(const struct hlo_comp *c, uint32_t k)
{
	return c->module->callers[c->module->callers_at[c->index] + k];
}
/* Adds what i is (enum ir_contains) to its computation's contains: the
 * builder for every instruction, resolve for those it makes or gives a shape. */
void ir_comp_note(struct hlo_instr *i);

/* ---- Walker ---- */

/* Visitor return: keep going, skip the children, or stop the walk. */
enum walk_result { WALK_CONTINUE, WALK_SKIP, WALK_STOP };

struct ir_visitor {
	/* Asked before a computation is read, with what it contains (enum
	 * ir_contains) and whether it is the entry: false skips it.  On a
	 * large module every computation read is a cache miss. */
	bool (*want)(uint32_t contains, bool entry, void *ctx);
	enum walk_result (*module)(struct hlo_module *m, void *ctx);
	enum walk_result (*comp)(struct hlo_comp *c, void *ctx);
	enum walk_result (*instr)(struct hlo_instr *i, void *ctx);
	void (*comp_end)(struct hlo_comp *c, void *ctx);
};

/* Walks every computation of m in order (callees first for a well-formed
 * module) and every instruction in program order.  Returns false if stopped. */
bool ir_walk(struct hlo_module *m, const struct ir_visitor *v, void *ctx);
/* Walks the instructions of one computation. */
bool ir_walk_comp(struct hlo_comp *c, const struct ir_visitor *v, void *ctx);

/* ---- Queries ---- */

/* The first of attrs[0..n) with this key; NULL if absent.  The one
 * lookup by key: ir_attr (an instruction's), ir_module_attr, the builder's. */
const struct hlo_attr *ir_attr_in(const struct hlo_attr *attrs, uint32_t n, enum attr_key key);
/* Finds an instruction's attribute by key; NULL if absent. */
const struct hlo_attr *ir_attr(const struct hlo_instr *i, enum attr_key key);
const struct hlo_attr *ir_attr_named(const struct hlo_file *f, const struct hlo_attr *attrs, uint32_t n,
				     const char *name);
/* a's name as written (name_len bytes, not NUL-terminated): attrs.def's
 * text for a known one (no read of the source), else the source's. */
const char *ir_attr_name_text(const struct hlo_file *f, const struct hlo_attr *a);
/* printf arguments for "%.*s" of a's name. */
#define IR_ANM(f, a) (int)(a)->name_len, ir_attr_name_text((f), (a))
bool ir_attr_same_name(const struct hlo_file *f, const struct hlo_attr *a, const struct hlo_attr *b);
const struct hlo_attr *ir_module_attr(const struct hlo_module *m, enum attr_key key);
struct hlo_comp *ir_find_comp(const struct hlo_module *m, const char *name);
/* The computation attribute key of i names (body=, condition=, to_apply=,
 * true_computation=, ...): by name, '%' or not, or the inline body written
 * there; NULL when absent or not among i's resolved callees.  The one
 * callee lookup. */
struct hlo_comp *ir_callee(const struct hlo_instr *i, enum attr_key key);
struct hlo_instr *ir_find_instr(const struct hlo_comp *c, const char *name);
/* control-predecessors of i (count in *n); NULL when none. */
struct hlo_instr **ir_control(const struct hlo_instr *i, uint32_t *n);
/* XLA's post order of c's instructions (HloComputation::
 * MakeInstructionPostOrder) into order (c->ninstrs of them); control: follow
 * control predecessors too.  The printer's order and the buffer
 * assigner's tie-break (alloc.c) are both this. */
void ir_post_order(const struct hlo_comp *c, bool control, struct hlo_instr **order);
/* Number of elements of an array shape (1 for scalars, 0 for tuples). */
uint64_t ir_shape_elements(const struct hlo_shape *s);
bool ir_shape_is_array(const struct hlo_shape *s);
/* The memory spaces S(n) of a layout that mean something (MEMORY_FACTS
 * §2): the one home of those numbers. */
enum ir_space {
	IR_SPACE_DEVICE = 0,        /* HBM */
	IR_SPACE_VMEM = 1,          /* on-chip fast memory */
	IR_SPACE_PINNED_HOST = 5,   /* what memory_kind="pinned_host" lowers to */
	IR_SPACE_UNPINNED_HOST = 6,
};
/* A non-tuple shape in pinned host memory (S(5)). */
static inline bool ir_shape_in_host(const struct hlo_shape *s)
{
	return s && s->type != PT_TUPLE && s->layout && s->layout->memory_space == IR_SPACE_PINNED_HOST;
}
/* Number of leaves (non-tuple subshapes, tokens included) of s; 0 for NULL.
 * The memory model caches it per shape (alias.h). */
uint32_t ir_leaf_count(const struct hlo_shape *s);
/* Layouts equal by content (NULL equals only NULL). */
bool ir_layout_equal(const struct hlo_layout *a, const struct hlo_layout *b);
bool ir_shape_equal(const struct hlo_shape *a, const struct hlo_shape *b, bool with_layout);
/* Element shape at tuple index (NULL when out of range or not a tuple). */
struct hlo_shape *ir_shape_tuple_elem(const struct hlo_shape *s, int64_t index);
/* Writes the shape as XLA prints it (with_layout) into buf; returns length
 * that would have been written (snprintf style). */
size_t ir_shape_format(const struct hlo_shape *s, bool with_layout, char *buf, size_t cap);
/* Same, with XLA's index=N comments before every 5th tuple element. */
size_t ir_shape_format_ex(const struct hlo_shape *s, bool with_layout, bool index_comments,
			  char *buf, size_t cap);
/* The text of a span in the module's source (not NUL terminated). */
const char *ir_text(const struct hlo_file *f, struct span sp);
/* Element-wise opcodes, as XLA's HloInstruction::IsElementwise counts them
 * (compare and complex included; select and clamp are neither). */
bool ir_op_elementwise_unary(enum opcode op);
bool ir_op_elementwise_binary(enum opcode op);
#endif
