/* pass.h - the pass interface.  A pass is one file in passes/ exporting a
 * `const struct pass`; passes/passes.def lists them once and pass.c builds
 * the table.  Passes read the IR through the walker (ir_walk) and the typed
 * decoders, never by re-parsing text; analysis passes leave the IR unchanged. */
#ifndef HLO_PASS_H
#define HLO_PASS_H
#include <stdbool.h>
#include "diag.h"
#include "finding.h"
#include "ir.h"

struct finding_sink;
struct config;
struct mem_model;

struct pass_context {
	struct hlo_module *module;
	struct diag_sink *diag;
	/* Set by the lint pipeline (lint.c; NULL elsewhere, a rule then does
	 * nothing).  Rules add findings with finding_add (finding.h), read
	 * thresholds with config_int/config_double (config.h) and sizes,
	 * buffers and the peak from the module's memory model (mem.h), which
	 * the pipeline computes once per module with the run's target and HBM. */
	struct finding_sink *findings;
	const struct config *config;
	const struct mem_model *mem;
};

/* What a rule needs of the module's memory model to run at all. */
enum pass_need {
	PASS_NEEDS_CAPACITY = 1,   /* a device capacity: --target, --hbm, or one inferred */
	PASS_NEEDS_BACKEND = 2,    /* a known backend (its tiling decides the padding) */
	PASS_NEEDS_TOTALS = 4,     /* the total allocation (mem_settle): the rules before may run
				    * while it is computed */
};

/* A folder rule's input: the signatures of every module of one input
 * folder (a --xla_dump_to folder is one program run), in file order. */
struct compile_sig;
struct folder_context {
	const char *folder;
	struct compile_sig *const *sigs;
	uint32_t n;
	struct finding_sink *findings;
	const struct config *config;
};

struct pass {
	const char *name;      /* command-line name, e.g. "host-transfer" */
	const char *summary;   /* one line, shown by `hlolint rules` */
	bool rewrites;         /* false: analysis only, IR unchanged */
	int (*run)(struct hlo_module *m, struct pass_context *ctx);   /* a module rule */
	unsigned needs;        /* enum pass_need bits */
	/* A folder rule (run NULL): once per input folder, after its modules
	 * (lint_folder), over their signatures (compile.h). */
	int (*folder)(struct folder_context *fc);
};

/* Each rule's name, pass_name_<c_name> ("host-transfer"), defined in
 * pass.c from passes.def, the only place a rule's name is written: the
 * rule's `.name`, its findings and its options (options.def) use these. */
#define PASS(c, name) extern const char pass_name_##c[];
#include "passes.def"
#undef PASS

/* How severe a saving of `saved` bytes is (missed-donation,
 * offload-candidate): a warning when the module's total allocation (XLA's
 * figure when known) is at least the option near_opt's fraction of the
 * device's memory, or the saving at least the option share_opt's fraction
 * of it; a note otherwise, and always without a capacity.  The options
 * are enum config_option values. */
enum finding_severity pass_saving_severity(const struct pass_context *ctx, uint64_t saved, int near_opt,
					   int share_opt);

/* All passes in passes.def order, NULL-terminated. */
extern const struct pass *const pass_table[];
/* The pass named name, or NULL. */
const struct pass *pass_find(const char *name);
/* Why p cannot run on a module with memory model mm (a short reason that
 * says what to pass), or NULL when it can. */
const char *pass_unmet(const struct pass *p, const struct mem_model *mm);
/* Runs the passes in order; stops at the first that returns < 0.  With
 * verify_each, the module is re-verified after every pass that rewrites. */
int pass_run_all(const struct pass *const *passes, struct hlo_module *m, struct pass_context *ctx,
		 bool verify_each);
#endif
