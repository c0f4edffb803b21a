/* config.h - what `hlolint check` is asked to do: rules, per-rule options
 * (passes/options.def), target, fail level, suppressions, baseline; from
 * defaults, then .hlolint.toml (a line-based TOML subset, located errors),
 * then the command line.  It does not run rules or print findings. */
#ifndef HLO_CONFIG_H
#define HLO_CONFIG_H
#include <stdbool.h>
#include <stdint.h>
#include "arena.h"
#include "diag.h"
#include "finding.h"
#include "pass.h"
#include "target.h"

#define CONFIG_FILE_NAME ".hlolint.toml"
/* Where the rule documents are online (SARIF's helpUri, the JSON's docs
 * links) unless --docs-url or docs-url = ... says otherwise. */
#define CONFIG_DOCS_URL "https://github.com/hlolint/hlolint/blob/main"

enum config_option_kind { OPTK_BYTES, OPTK_INT, OPTK_RATIO, OPTK_FRACTION };

enum config_option {
#define OPTION(id, rule, name, kind, def, help) CONFIG_OPT_##id,
#include "options.def"
#undef OPTION
	CONFIG_OPT_COUNT
};

struct config_option_info {
	const char *rule, *name, *def, *help;
	enum config_option_kind kind;
};
/* The options.def table, CONFIG_OPT_COUNT entries. */
extern const struct config_option_info config_options[];
/* What a value of kind k looks like in help: BYTES, N, RATIO, FRACTION. */
const char *config_kind_name(enum config_option_kind k);

struct config_suppression {
	const char *rule;           /* glob over the rule name; "*" when not given */
	const char *op_name;        /* glob over metadata op_name, or NULL */
	const char *source_file;    /* Python file: glob, matched against the whole
				     * path or any '/'-suffix of it; NULL when not given */
	int64_t source_line;        /* 0 = any line */
	const char *module;         /* glob over the module name, or NULL */
	const char *reason;         /* "reason = ..." or "<file>:<line>" of the entry */
	unsigned used;              /* findings it suppressed in this run */
};

/* Rule selection patterns as given (file or command line). */
struct config_rules {
	const char **select, **ignore;
	uint32_t nselect, nignore;
	bool has_select;
};

struct config {
	struct arena arena;         /* strings of the config file and baseline */
	const char *path;           /* the config file read, or NULL */
	/* Rule selection: one flag per pass_table entry, recomputed from the
	 * patterns of the file (rules[0]) and the command line (rules[1]). */
	bool *enabled;
	uint32_t npasses;
	struct config_rules rules[2];
	const struct target *target; /* --target / target = ...; NULL: infer from the dump */
	const char *target_how;     /* "given with --target" or "from <config file>" */
	int64_t hbm_bytes;          /* --hbm / hbm = ...; 0: the target's */
	int partitioned;            /* --partitioned: -1 auto (default), 0 no, 1 yes (mem.h) */
	enum finding_severity fail_on;   /* default FINDING_WARNING */
	bool exit_zero;
	/* --require-target: exit 1 when a module's capacity stays unknown. */
	bool require_target;
	const char *source_root;    /* --source-root / source-root = ...; NULL: the git work tree */
	const char *docs_url;       /* --docs-url / docs-url = ...; NULL: CONFIG_DOCS_URL */
	int64_t opt_int[CONFIG_OPT_COUNT];   /* BYTES, INT */
	double opt_double[CONFIG_OPT_COUNT]; /* RATIO, FRACTION */
	struct config_suppression *supp;
	uint32_t nsupp;
	/* Baseline fingerprints (sorted), each usable once per run. */
	char (*baseline)[17];
	uint32_t nbaseline;
	bool *baseline_used;
	bool has_baseline;
};

/* Defaults: every analysis pass enabled, options at their defaults. */
void config_init(struct config *c);
void config_free(struct config *c);

/* Walks up from the working directory looking for CONFIG_FILE_NAME; stops
 * after the first directory that holds a .git entry (the project root) or
 * at /.  Returns a malloc'd path (caller frees) or NULL. */
char *config_discover(void);
/* The git work tree holding the working directory (the nearest directory
 * upward with a .git entry), malloc'd, or NULL outside one. */
char *config_project_root(void);
/* The source root in force: c->source_root, else the git work tree, handed
 * to metadata_set_source_root (the Python lines findings name). */
void config_apply_source_root(const struct config *c);
/* Reads a config file and applies it on top of c.  Errors are reported to d
 * located in the file; returns false when there was any. */
bool config_load(struct config *c, const char *path, struct diag_sink *d);

/* Command-line setters, with the file's validation.  On error they write a
 * lower-case message (no "hlolint: error:" prefix) into err. */
/* RULES: comma-separated names or globs ("all" = every rule).  select
 * replaces the selection; ignore disables rules. */
bool config_select(struct config *c, const char *rules, bool select, char *err, size_t errlen);
/* Sets an options.def option by name from its text value. */
bool config_set_option(struct config *c, const char *name, const char *value, char *err, size_t errlen);
bool config_set_hbm(struct config *c, const char *value, char *err, size_t errlen);
/* yes, no or auto (mem_options.partitioned). */
bool config_set_partitioned(struct config *c, const char *value, char *err, size_t errlen);
/* A target preset name (target.h). */
bool config_set_target(struct config *c, const char *value, char *err, size_t errlen);
bool config_set_fail_on(struct config *c, const char *value, char *err, size_t errlen);
/* A directory (--source-root): must exist; kept absolute. */
bool config_set_source_root(struct config *c, const char *value, char *err, size_t errlen);
/* An http(s) or file URL (--docs-url), no trailing slash kept. */
bool config_set_docs_url(struct config *c, const char *value, char *err, size_t errlen);
/* The options.def entry called name (without "--"), or -1. */
int config_option_find(const char *name);
/* One command-line setting shared by check and annotate, by option name
 * with its "--" (--select, --ignore, --fail-on, --target, --hbm,
 * --partitioned, --source-root, --docs-url, or a rule option).  Returns 1 when set, 0 on a bad value
 * (message in err, as the setters above), -1 when name is none of them. */
int config_set_arg(struct config *c, const char *name, const char *value, char *err, size_t errlen);

/* Parses a byte count as target_parse_size does (16M, 1GiB, 80GB, 4096;
 * K/M/G/T and KiB.. are powers of 1024, KB/MB/GB/TB powers of 1000), and
 * also 0. */
bool config_parse_bytes(const char *text, int64_t *out);

/* Option values for rules. */
int64_t config_int(const struct config *c, enum config_option id);
double config_double(const struct config *c, enum config_option id);
bool config_rule_enabled(const struct config *c, const struct pass *p);

/* Marks findings [from, n) matched by a suppression as suppressed. */
void config_apply_suppressions(struct config *c, struct finding_sink *s, uint32_t from);

/* Baseline file: one finding per line, "FINGERPRINT rule path:line op_name";
 * only the first field counts, '#' lines are comments.  Load reports
 * located errors to d. */
bool config_baseline_load(struct config *c, const char *path, struct diag_sink *d);
/* Marks findings [from, n) whose fingerprint is in the baseline (each entry
 * matches one finding: two identical findings need two lines). */
void config_baseline_apply(struct config *c, struct finding_sink *s, uint32_t from);
/* Writes every finding that is not suppressed (whole or not at all, through
 * output_write), their count in *written; false after an error message on
 * I/O error. */
bool config_baseline_write(const struct finding_sink *s, const char *path, uint32_t *written);
#endif
