/* build.h - the parse context shared by the grammar (grammar/hlo.y) and
 * the IR builders (build.c); the scanner's own state is in scan.h.
 * Grammar actions call exactly one build_* function each; builders never
 * look names up (that is resolve.c) and never print (diagnostics go
 * through the sink). */
#ifndef HLO_BUILD_H
#define HLO_BUILD_H
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include "diag.h"
#include "ir.h"
#include "value.h"

/* BUILD_SHAPE and BUILD_SIGNATURE re-parse one written shape or signature
 * to record where its leaves are (value_shape_text). */
enum build_mode { BUILD_MODULE, BUILD_VALUE, BUILD_SHAPE, BUILD_SIGNATURE };

/* Growable scratch vectors: lists under construction live here, with stack
 * discipline (a nested list is finished before its parent continues), and
 * are copied into the arena when the owner is built. */
struct build_vec {
	void *data;
	uint32_t len, cap;
};

struct build_layout;

struct build_ctx {
	struct hlo_file *file;
	struct source *src;
	struct diag_sink *diag;
	enum build_mode mode;
	struct arena *arena;        /* IR arena (module mode) or value arena */
	unsigned errors;            /* errors reported in this run */
	unsigned module_errors;     /* errors since the current module began */
	bool recovering;            /* after an error, until an instruction parses again */
	struct hlo_module *module;  /* module under construction */
	struct hlo_module **last_module;
	struct build_vec comps;     /* computations of the module under construction */
	struct build_vec comp_stack;/* open computations (inline bodies nest) */
	struct build_vec instrs;    /* instructions of open computations */
	struct build_vec operands;  /* struct hlo_operand */
	struct build_vec operand_extras; /* struct hlo_operand_extra, parallel to operands */
	struct build_vec attrs;     /* struct hlo_attr */
	struct build_vec ints;      /* int64_t */
	struct build_vec kinds;     /* uint8_t dim kinds, parallel to dims */
	struct build_vec shapes;    /* struct hlo_shape * */
	struct build_vec sig;       /* signature parameters */
	struct build_vec layouts;   /* struct build_layout * being built */
	struct build_vec tiles;     /* struct hlo_tile being built */
	struct build_vec splits;    /* struct hlo_split being built */
	struct build_vec stack_rows[4];/* FileNames, FunctionNames, FileLocations, StackFrames rows */
	struct hlo_comp *pending;   /* computation whose header was read, body not yet begun */
	struct hlo_value *value;    /* value mode: the result */
	struct hlo_shape *shape;    /* shape mode: the result */
	struct build_vec leaf_texts;/* shape modes: struct shape_leaf_text, leaf order */
	struct build_vec tops;      /* shape modes: uint32_t end of each top-level shape */
	struct shape_leaf_text layout_text; /* shape modes: the layout closed last */
	struct arena pending_instrs;/* instructions until their attributes are read (build.c) */
	struct arena_mark pending_mark;
	uint32_t npending;
	uint32_t anon_counter;
	int value_attr;             /* value mode: enum attr_key of the value, for raw JSON capture */
	bool progress;              /* module mode on a large input, stderr a terminal: show progress */
	uint32_t progress_tick;
	uint64_t progress_end;      /* end of the text this run parses (a piece of it, parse.c) */
	int nesting_limit;
	/* Module mode: called with each computation body as it closes, while
	 * its text was just read (parse.c binds its names then). */
	void (*body_done)(struct build_ctx *ctx, struct hlo_comp *c, void *arg);
	void *body_done_arg;
	/* A piece of a parse on threads (parse.c): set when a module header
	 * shows the file holds several modules (one is allowed while
	 * may_head, in the first piece); the scanner ends every piece's input
	 * at its next window then, and the file is parsed serially. */
	_Atomic bool *several;
	bool may_head;
};

/* The longest tuple shape text remembered for the scanner's fast path. */
#define BUILD_TUPLE_TEXT_MAX 4096

/* hlo_operand.reserved while building: how to finish the operand. */
enum { BUILD_OPERAND_NAME, BUILD_OPERAND_INT, BUILD_OPERAND_EXTRA };

void build_ctx_init(struct build_ctx *ctx, struct hlo_file *f, struct diag_sink *d,
		    enum build_mode mode, struct arena *a);
void build_ctx_fini(struct build_ctx *ctx);
/* Reports an error at sp and counts it. */
void build_verror(struct build_ctx *ctx, struct span sp, const char *fmt, va_list ap);
void build_error(struct build_ctx *ctx, struct span sp, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* True once the error cap is reached: the grammar stops recovering. */
bool build_should_stop(struct build_ctx *ctx);

/* Shapes made after parsing (inferred result shapes), hash-consed with the rest. */
struct hlo_shape *build_shape_like(struct hlo_file *f, const struct hlo_shape *like, enum ptype type);
struct hlo_shape *build_shape_tuple(struct hlo_file *f, struct hlo_shape **elems, uint32_t n);

/* ---- token classification (scanner) ---- */
struct interned *build_intern(struct build_ctx *ctx, const char *s, size_t n);
/* The same for the text of sp. */
struct interned *build_intern_span(struct build_ctx *ctx, struct span sp);
/* A name's span without its '%' and a definition's ':'. */
struct span build_name_text(struct build_ctx *ctx, struct span sp);
/* Whether the actions build the module IR (module mode), not a value. */
static inline bool build_ir(const struct build_ctx *ctx)
{
	return ctx->mode == BUILD_MODULE;
}

/* ---- builders, one per grammar action; see hlo.y for the rules ---- */
struct hlo_stack_tables;
void build_empty_input(struct build_ctx *ctx, struct span sp);
/* A line comment that starts with IR_LINT_COMMENT, at sp (without its line end). */
void build_lint_comment(struct build_ctx *ctx, struct span sp);
void build_module_header(struct build_ctx *ctx, struct span name_sp, uint32_t attr_mark, struct span sp);
void build_module_end(struct build_ctx *ctx, struct span sp);
void build_stack_name(struct build_ctx *ctx, int table, int64_t index, struct span str);
void build_stack_entry(struct build_ctx *ctx, int table, int64_t index, struct span group);
struct hlo_comp *build_comp_head(struct build_ctx *ctx, bool entry, struct span name_sp,
				 uint32_t sig_mark, struct hlo_shape *result, struct span sig);
uint32_t build_sig_mark(struct build_ctx *ctx);
void build_sig_param(struct build_ctx *ctx, struct span sp, struct hlo_shape *shape);
struct hlo_comp *build_body_begin(struct build_ctx *ctx);
struct hlo_comp *build_body_end(struct build_ctx *ctx, struct hlo_comp *c, struct span sp);
void build_comp_end(struct build_ctx *ctx, struct hlo_comp *head, struct hlo_comp *body,
		    struct span exec_thread, struct span sp);
void build_instr(struct build_ctx *ctx, bool root, struct span name_sp, struct hlo_instr *rhs,
		 uint32_t attr_mark, struct span sp);
struct hlo_instr *build_op(struct build_ctx *ctx, struct interned *opcode, struct span op_sp,
			   uint32_t operand_mark, struct span sp);
struct hlo_instr *build_op_literal(struct build_ctx *ctx, struct interned *opcode,
				   struct span op_sp, struct span lit, struct span sp);
struct hlo_instr *build_rhs_shape(struct build_ctx *ctx, struct hlo_instr *rhs,
				  struct hlo_shape *shape, struct span sp);
uint32_t build_operand_mark(struct build_ctx *ctx);
void build_operand(struct build_ctx *ctx, struct hlo_shape *declared, struct span declared_sp,
		   struct span name_sp, uint32_t gte_mark);
void build_operand_nested(struct build_ctx *ctx, struct hlo_instr *rhs, struct span sp);
void build_operand_int(struct build_ctx *ctx, int64_t value, struct span sp);
uint32_t build_attr_mark(struct build_ctx *ctx);
void build_attr(struct build_ctx *ctx, struct interned *name, struct span name_sp,
		struct span value_sp);
void build_attr_continue(struct build_ctx *ctx, struct span sp);
/* shapes */
uint32_t build_int_mark(struct build_ctx *ctx);
void build_int(struct build_ctx *ctx, int64_t v, uint8_t kind);
struct hlo_shape *build_array_shape(struct build_ctx *ctx, struct interned *type, struct span type_sp,
				    uint32_t dim_mark, struct hlo_layout *layout, struct span sp);
uint32_t build_shape_mark(struct build_ctx *ctx);
void build_shape_push(struct build_ctx *ctx, struct hlo_shape *s);
struct hlo_shape *build_tuple_shape(struct build_ctx *ctx, uint32_t mark, struct span sp);
struct hlo_shape *build_buffer_shape(struct build_ctx *ctx, struct hlo_shape *elem, struct span sp);
void build_shape_result(struct build_ctx *ctx, struct hlo_shape *s);
/* layouts */
/* Shape modes: hands the recorded leaves and tops to out (malloc'd). */
void build_shape_text_take(struct build_ctx *ctx, struct shape_text *out);
void build_layout_begin(struct build_ctx *ctx, struct span sp);
void build_layout_colon(struct build_ctx *ctx, struct span sp);
struct hlo_layout *build_layout_end(struct build_ctx *ctx, struct span sp);
void build_layout_m2m(struct build_ctx *ctx, int64_t v);
void build_layout_tile_dim(struct build_ctx *ctx, int64_t v, struct span sp);
void build_layout_tile_end(struct build_ctx *ctx, struct span sp);
void build_layout_int(struct build_ctx *ctx, struct span letter, int64_t v, struct span sp);
void build_layout_type(struct build_ctx *ctx, int which, struct interned *type, struct span sp);
void build_layout_split(struct build_ctx *ctx, int64_t dim, uint32_t int_mark, struct span sp);
void build_layout_splits_end(struct build_ctx *ctx, struct span letter, struct span sp);
void build_layout_dlt(struct build_ctx *ctx, struct span letter, uint32_t count, struct span sp);
void build_layout_dlt_item(struct build_ctx *ctx, struct span sp);
void build_layout_physical(struct build_ctx *ctx, struct span letter, struct hlo_shape *shape,
			   struct span sp);
/* values (module mode: return NULL, the value stays a span) */
struct hlo_value *build_value_atom(struct build_ctx *ctx, enum value_kind kind, int64_t i,
				   struct interned *id, struct span sp);
struct hlo_value *build_value_shape(struct build_ctx *ctx, struct hlo_shape *s, struct span sp);
struct hlo_value *build_value_pair(struct build_ctx *ctx, struct interned *key, struct hlo_value *v,
				   struct span sp);
struct hlo_value *build_value_group(struct build_ctx *ctx, enum value_kind kind,
				    struct hlo_value *items_tail, struct span sp);
struct hlo_value *build_value_body(struct build_ctx *ctx, struct hlo_comp *c, struct span sp);
/* Appends item to the circular list whose tail is tail; returns the new tail. */
struct hlo_value *build_value_append(struct build_ctx *ctx, struct hlo_value *tail,
				     struct hlo_value *item, bool comma);
void build_value_result(struct build_ctx *ctx, struct hlo_value *tail);
#endif
