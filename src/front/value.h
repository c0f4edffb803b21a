/* value.h - attribute values decoded on demand into a small tree.
 * The module parse keeps every attribute value as a span; value_parse runs
 * the same grammar over that span (START_VALUE mode) and builds this tree in
 * a caller-chosen arena.  Typed readers (attr.h) interpret the tree. */
#ifndef HLO_VALUE_H
#define HLO_VALUE_H
#include <stdbool.h>
#include <stdint.h>
#include "ir.h"

/* Where one leaf of a written shape sits in the source (value_shape_text):
 * what --apply edits to change a memory space. */
struct shape_leaf_text {
	uint64_t start;             /* element type (or "b(" of a buffer) */
	uint64_t dims_end;          /* after ']' (after ')' of a buffer) */
	struct span layout;         /* "{...}", or none */
	uint64_t colon;             /* the layout's ':', or UINT64_MAX */
	struct span space;          /* "S(n)" in the layout, or none */
	uint64_t tail;              /* first of SC(..), P(..), M(..), or UINT64_MAX */
	int64_t space_n;            /* n of S(n), 0 when none */
	bool array;                 /* not a token, opaque or buffer */
};

/* The leaves of one shape text in order (the order of ir_leaf_count), and
 * for a signature the end of each parameter's leaves, then the result's. */
struct shape_text {
	struct shape_leaf_text *leaves;  /* malloc'd */
	uint32_t nleaves;
	uint32_t *tops;                  /* malloc'd; tops[k] = one past the last leaf of shape k */
	uint32_t ntops;
};

enum value_kind {
	V_INT,        /* 42, -7; u64 values above INT64_MAX wrap (as XLA) */
	V_DECIMAL,    /* 1.5, 1e-05, nan, nan(0x7f), -nan; d holds the value */
	V_INF,        /* inf */
	V_NEGINF,     /* -inf */
	V_BOOL,       /* true / false; i is 0 or 1 */
	V_STRING,     /* "..." or '...'; span includes quotes, see value_string */
	V_JSON,       /* raw brace-balanced dict (backend_config, frontend attrs) */
	V_IDENT,      /* identifier or keyword: kLoop, replicated, mesh, T, ... */
	V_NAME,       /* %name */
	V_DXD,        /* 3x3 */
	V_PAD,        /* 1_1x0_0 */
	V_DIMLABELS,  /* b01f_01io->b01f */
	V_PUNCT,      /* '<=' ':' '?' '->' '*' '=' '#' '+' '~' '...'; see punct */
	V_PAIR,       /* key=value: key is the name, child the value */
	V_BRACE,      /* { items } */
	V_BRACKET,    /* [ items ] */
	V_PAREN,      /* ( items ) */
	V_SHAPE,      /* an array or buffer shape (tuples appear as V_PAREN) */
	V_TILE,       /* T(a,b): iota transpose permutation; child = ints */
	V_BODY,       /* an inline computation { instr... } */
	V_SEQ,        /* juxtaposed top-level items: [2,4]<=[8], mesh[..] {..}, f32[] 1 */
};

enum value_punct { P_LE = 1, P_COLON, P_QUESTION, P_ARROW, P_STAR, P_EQUAL,
		   P_HASH, P_PLUS, P_TILDE, P_ELLIPSIS };

struct hlo_value {
	enum value_kind kind;
	bool comma_before;          /* a ',' separated it from the previous item */
	struct span span;
	struct hlo_value *next;     /* next item in the enclosing group */
	struct hlo_value *child;    /* first item of a group; PAIR value; TILE ints */
	struct interned *key;       /* PAIR key; IDENT / NAME text */
	union {
		int64_t i;          /* INT, BOOL, PUNCT (enum value_punct) */
		double d;           /* DECIMAL */
		struct hlo_shape *shape;
		struct hlo_comp *comp;
	} u;
};

/* Parses the value text at sp (an attribute value span of file f) into a tree
 * allocated in arena a.  Returns NULL after reporting errors to d (may be NULL
 * to stay silent).  Inline computations become V_BODY nodes whose comp was
 * built by the module parse; value_parse finds it by span. */
struct diag_sink;
struct hlo_value *value_parse(struct hlo_file *f, struct span sp, struct arena *a,
			      struct diag_sink *d);
/* Same for the value of attribute at, decoded in its context (backend_config
 * and frontend attribute dict values are raw JSON captures). */
struct hlo_value *value_parse_attr(struct hlo_file *f, const struct hlo_attr *at, struct arena *a,
				   struct diag_sink *d);
/* Number of items in a group value. */
uint32_t value_count(const struct hlo_value *group);
/* Unescaped contents of a V_STRING (or raw text of V_JSON) in arena a;
 * *len gets the byte length.  Returns NULL on an invalid escape. */
char *value_string(const struct hlo_file *f, const struct hlo_value *v, struct arena *a, size_t *len);
/* Reads a brace group of INTs ({1,2,3}); returns false if v is not one.
 * *out is allocated in a. */
bool value_int_list(const struct hlo_value *v, struct arena *a, int64_t **out, uint32_t *n);

/* Parses the shape text at sp again, recording where its leaves are: sp
 * holds a shape or "= shape" (ir_instr_shape_text) with is_sig false, or a
 * signature "(name: shape, ...) -> shape" (hlo_comp.sig) with is_sig true.
 * False (out empty) when it does not parse.  Free with value_shape_text_free. */
bool value_shape_text(struct hlo_file *f, struct span sp, bool is_sig, struct shape_text *out);
void value_shape_text_free(struct shape_text *st);
#endif
