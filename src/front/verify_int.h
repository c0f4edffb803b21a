/* verify_int.h - what the verifier's files share (verify.c: context,
 * reporting, instructions, async chains, the header; verify_attrs.c: the
 * attribute vocabulary and values; verify_shapes.c: cheap shape rules;
 * verify_run.c: computations on threads).
 * Not for use outside src/front/verify*. */
#ifndef HLO_VERIFY_INT_H
#define HLO_VERIFY_INT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "attr.h"
#include "verify.h"

struct verify_found {
	int idx;                    /* enum attr_key */
	const struct hlo_attr *attr;
	struct hlo_value *value;    /* decoded tree (scratch), NULL until needed */
	bool bad;                   /* the value was reported invalid */
};

struct verify_ctx {
	struct hlo_module *m;
	struct hlo_file *f;
	struct diag_sink *d;
	struct arena scratch;       /* decoded values, released per instruction */
	unsigned errors, warnings;
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
	uint64_t drop_mark;         /* source_drop: the text of instructions checked */
	struct verify_run *run;     /* on threads: large literals go to whichever side is free */
};

/* Checks computation c's instructions (verify.c). */
void verify_comp(struct verify_ctx *v, struct hlo_comp *c);
void verify_ctx_free(struct verify_ctx *v);
/* Finishes run (verify_begin's) or, when NULL, checks m's computations on
 * threads when m is large (verify_run.c): true when all were checked and
 * none had anything to say; otherwise the caller checks them serially. */
bool verify_run_finish(struct hlo_module *m, struct verify_run *run);
/* Literals of at least this many bytes are checked by whichever of a
 * run's sides is free (verify_run_share): one computation may hold most of
 * a module's text in constants. */
#define VERIFY_SHARED_LITERAL 4096
/* Takes i's literal to be checked on any side of run; false when it cannot
 * (the caller checks it). */
bool verify_run_share(struct verify_run *run, const struct hlo_instr *i);
void verify_attr_error(struct verify_ctx *v, const struct hlo_attr *at, const struct attr_error *e);
const char *verify_attrs_init(void);
int64_t verify_comp_list_count(const struct verify_ctx *v, const struct hlo_instr *i, struct span sp);
enum opcode verify_effective_op(const struct hlo_instr *i);
void verify_error(struct verify_ctx *v, struct span sp, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
struct verify_found *verify_find(struct verify_ctx *v, enum attr_key key);
bool verify_first_warning(struct verify_ctx *v, const char *key, size_t len);
void verify_instr_attrs(struct verify_ctx *v, const struct hlo_instr *i, const char *opname);
bool verify_ints_of(struct verify_ctx *v, enum attr_key key, struct attr_ints *out);
bool verify_one_dimension(enum opcode op);
const char *verify_op_name(const struct hlo_instr *i);
struct hlo_shape *verify_operand_shape(const struct hlo_instr *i, uint32_t k);
struct span verify_shape_span(const struct verify_ctx *v, const struct hlo_instr *i);
const char *verify_shape_str(const struct hlo_shape *s, char *buf, size_t cap);
void verify_shapes(struct verify_ctx *v, const struct hlo_instr *i);
struct hlo_value *verify_value(struct verify_ctx *v, struct verify_found *fo);
void verify_warning(struct verify_ctx *v, struct span sp, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
#endif
