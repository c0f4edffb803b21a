/* compile.h - what one compile of a jit function looked like, kept after
 * its module is freed: the jit name and dump id, the entry parameters
 * (pytree path, dtype, dimensions, sharding, memory space), the outputs,
 * donation, partitions and replicas, a hash of the program without its
 * constants and one of the constants, and the op_names it was traced from.
 * Folder rules (pass.h) compare these; compile.c takes them from a loaded
 * module.  It judges nothing. */
#ifndef HLO_COMPILE_H
#define HLO_COMPILE_H
#include <stdint.h>
#include "ir.h"

struct compile_param {
	const char *path;           /* the parameter's op_name (jax's pytree path), "" none */
	const char *source;         /* "file.py:12" of its metadata, "" none */
	const char *shape;          /* "f32[512,4096]", no layout */
	enum ptype type;
	uint32_t rank;
	int64_t *dims;
	const char *sharding;       /* as written, "" none */
	int64_t space;              /* S(n) of the layout, 0 none */
};

struct compile_const {
	const char *name, *value;   /* a constant's name and literal (at most COMPILE_VALUE_MAX) */
	const char *op_name, *source; /* its op_name and "file.py:12", "" none */
};

/* Everything in it is its own (compile_sig_free). */
struct compile_sig {
	const char *path;           /* the module's file */
	const char *name;           /* HloModule name: "jit_train_step" */
	int64_t id;                 /* module_NNNN of XLA's dump name, -1 none */
	uint64_t line, col;         /* the ENTRY computation's header */
	const char *entry;          /* its name */
	uint32_t nparams;
	struct compile_param *params;
	const char *outputs;        /* the root's shape, no layout */
	const char *donation;       /* input_output_alias and buffer_donor as written, "" none */
	int64_t partitions, replicas;
	uint64_t program;           /* every instruction's opcode, shape and operand count */
	uint32_t nconsts;           /* array constants and scalars, in program order */
	struct compile_const *consts;
	uint32_t nops;
	uint64_t *ops;              /* distinct op_name hashes, less the jit(...)/ prefix, sorted */
	uint32_t file_index, module_index;  /* the run's (finding.h) */
	char **strs;                /* the strings above, for compile_sig_free */
	uint32_t nstrs, capstrs;
};

#define COMPILE_VALUE_MAX 64

/* m's signature (compile_sig_free it; NULL for a module without an entry). */
struct compile_sig *compile_sig_take(const struct hlo_module *m, const char *path);
void compile_sig_free(struct compile_sig *s);
/* The share of the op_names of a and b they have in common (1: the same
 * set, 0: none in common or neither has any). */
double compile_ops_overlap(const struct compile_sig *a, const struct compile_sig *b);
#endif
