/* pass.h - the pass interface.  A pass is one file in passes/ exporting a
 * `const struct pass`; passes/passes.def lists them once and pass.c builds
 * the table.  Passes read the IR through the walker (ir_walk) and the typed
 * decoders, never by re-parsing text; analysis passes leave the IR unchanged. */
#ifndef HLO_PASS_H
#define HLO_PASS_H
#include <stdbool.h>
#include "diag.h"
#include "ir.h"

struct pass_context {
	struct hlo_module *module;
	struct diag_sink *diag;
	void *data;            /* command-specific state (findings, options) */
};

struct pass {
	const char *name;      /* command-line name, e.g. "host-transfer" */
	const char *summary;   /* one line, shown by `hlolint rules` */
	bool rewrites;         /* false: analysis only, IR unchanged */
	int (*run)(struct hlo_module *m, struct pass_context *ctx);
};

/* All passes in passes.def order, NULL-terminated. */
extern const struct pass *const pass_table[];
/* The pass named name, or NULL. */
const struct pass *pass_find(const char *name);
/* Runs the passes in order; stops at the first that returns < 0.  With
 * verify_each, the module is re-verified after every pass that rewrites. */
int pass_run_all(const struct pass *const *passes, struct hlo_module *m, struct pass_context *ctx,
		 bool verify_each);
#endif
