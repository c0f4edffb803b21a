/* lint.h - the one pipeline `check` and `annotate` share: for every valid
 * module of a parsed file, its memory model, then the enabled rules that
 * can run on it (pass_unmet), then the file's findings finished,
 * suppressed and baselined.  Commands parse options and print; they do
 * not run rules themselves. */
#ifndef HLO_LINT_H
#define HLO_LINT_H
#include <stdbool.h>
#include "config.h"
#include "diag.h"
#include "finding.h"
#include "ir.h"
#include "mem.h"
#include "source.h"

struct compile_sig;

/* What the command does with each module as the pipeline meets it. */
struct lint_hooks {
	void *ctx;
	/* Module m (its k-th valid one) and its model: returns the index its
	 * findings carry (check: the report's module number).  The model's
	 * total allocation may still be in the making (mem_settle): keep mm,
	 * read it once lint_run has returned. */
	uint32_t (*module)(void *ctx, uint32_t k, struct hlo_module *m, struct mem_model *mm);
	/* Rule `rule` cannot run on module `index`, for reason why; may be NULL. */
	void (*not_run)(void *ctx, uint32_t index, const char *rule, const char *why);
	/* Module m before the model reads it, all its text still mapped (a
	 * folder input's signature, compile.h); may be NULL. */
	void (*loaded)(void *ctx, const struct hlo_module *m);
};

/* Runs the pipeline over f (read from src, file number file_index) into
 * sink, models allocated in f's arena.  Returns false when a rule failed
 * or the diagnostics gained an error. */
bool lint_file(struct hlo_file *f, struct source *src, uint32_t file_index, struct config *c,
	       struct diag_sink *d, struct finding_sink *sink, const struct lint_hooks *h);
/* lint_file in two halves for -j: lint_run (models, rules, findings
 * finished) reads c only and can run on a worker; lint_settle applies the
 * suppressions and baseline, which count what they matched in c, so it
 * runs in input order on the calling thread. */
bool lint_run(struct hlo_file *f, struct source *src, uint32_t file_index, const struct config *c,
	      struct diag_sink *d, struct finding_sink *sink, const struct lint_hooks *h);
void lint_settle(struct config *c, struct finding_sink *sink, uint32_t from);
/* True when an enabled rule is a folder rule (pass.h): then take the
 * modules' signatures. */
bool lint_wants_folder(const struct config *c);
/* The enabled folder rules over the signatures of one input folder, into
 * sink (its findings finished, not yet settled).  False when a rule
 * failed. */
bool lint_folder(const struct config *c, const char *folder, struct compile_sig *const *sigs, uint32_t n,
		 struct finding_sink *sink);
#endif
