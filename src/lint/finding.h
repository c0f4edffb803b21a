/* finding.h - the finding every rule of `hlolint check` emits and the sink
 * collecting them for a run.  Findings copy their strings (they outlive the
 * parsed file); only the text caret needs finding.src.  It does not format
 * output (report.h) or judge suppressions and baselines (config.h). */
#ifndef HLO_FINDING_H
#define HLO_FINDING_H
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include "arena.h"
#include "ir.h"

/* Ordered: a --fail-on level fails on everything at or above it. */
enum finding_severity { FINDING_NOTE, FINDING_WARNING, FINDING_ERROR };

/* The machine-readable fix a rule may attach (at most one per finding). */
enum finding_suggest {
	SUGGEST_NONE,
	SUGGEST_SHARDING,         /* {"sharding": "{devices=[8,1]<=[8]}"}  (text) */
	SUGGEST_MEMORY_SPACE,     /* {"memory_space": 5}                    (number) */
	SUGGEST_SHAPE,            /* {"shape": "f32[1024,128]{1,0}"}        (text) */
	SUGGEST_DONATE_PARAMETER, /* {"donate_parameter": 3}                (number) */
	SUGGEST_OFFLOAD_PARAMETER,/* {"offload_parameter": 0}: in S(5), copied in for its reads (number) */
};

/* A rule-specific field, emitted as an extra key of the finding in JSON and
 * in SARIF result properties (host-transfer: in_loop, trip_count, ...). */
enum finding_field_kind { FIELD_INT, FIELD_BYTES, FIELD_BOOL, FIELD_STRING, FIELD_NULL };
struct finding_field {
	const char *key;
	enum finding_field_kind kind;
	int64_t i;                  /* FIELD_INT value, FIELD_BOOL 0/1 */
	uint64_t u;                 /* FIELD_BYTES: a byte count, saturated at 2^64-1 */
	const char *s;              /* FIELD_STRING */
	struct finding_field *next;
};

/* What a note is to the reader.  Text output shows, under the headline,
 * the fact that decides and the fix (and a module-wide fact once per
 * module); every note shows with --verbose and in the machine formats. */
enum finding_note_role {
	NOTE_MORE,                  /* detail: --verbose */
	NOTE_FACT,                  /* the one fact that decides (the first is shown) */
	NOTE_FIX,                   /* what to change in the program (the first is shown) */
	NOTE_MODULE,                /* true of the whole module: shown once per module */
};

struct finding_note {
	const char *text;
	enum finding_note_role role;
	struct finding_note *next;
};

struct finding {
	const char *rule;           /* "host-transfer" (the pass name) */
	enum finding_severity severity;
	/* Location of the instruction in the HLO text (1-based, byte columns). */
	const char *path;           /* as given on the command line; "<stdin>" for '-' */
	struct source *src;         /* valid while the file is loaded, else NULL */
	struct span span;           /* the instruction's name (caret); none for module-level */
	uint64_t line, col, end_line, end_col;
	uint32_t file_index;        /* index of the input file in the run */
	uint32_t module_index;      /* index of the module summary in the run (report.h) */
	uint64_t order;             /* source offset, for sorting */
	const char *module;         /* module name */
	const char *computation;    /* "" for module-level findings */
	const char *instruction;    /* name without '%', "" for module-level */
	const char *opcode;         /* "custom-call", "" for module-level */
	const char *shape;          /* result shape as XLA prints it (with layout), "" if none */
	const char *shape_bare;     /* the same without layout (fingerprint input) */
	int64_t bytes;              /* rule-defined byte count (see the rule's doc); -1 unknown */
	const char *op_name;        /* metadata op_name, "" when absent */
	const char *source_file;    /* Python file (metadata or StackFrames), NULL when unknown */
	int64_t source_line;
	const char *source_via;     /* the user the source was taken from (no '%'), NULL: its own */
	bool source_user;           /* source_file is set and the user's own (metadata_user_file) */
	const char *message;        /* one line, lower case start, no final period */
	struct finding_note *notes, *notes_tail;
	enum finding_suggest suggest;
	const char *suggest_text;   /* SHARDING, SHAPE */
	int64_t suggest_int;        /* MEMORY_SPACE, DONATE_PARAMETER */
	struct finding_field *fields, *fields_tail;
	struct finding_also {       /* other places it is about (a recompilation's later compiles) */
		const char *path, *message;
		uint64_t line, col;
		struct finding_also *next;
	} *also;
	/* What other code reads of a finding (annotate --apply, hbm-over-budget),
	 * as members; the setters below also add them to the fields. */
	int64_t leaf;               /* leaf of the instruction's result it is about, -1 none */
	int64_t tuple_index;        /* loop-carried tuple element, -1 none */
	int64_t output_index;       /* entry output element it is reported for, -1 none */
	int64_t peak_saved;         /* bytes fixing it takes off the peak (upper bound), -1 none */
	const char *key;            /* rule-chosen stable discriminator mixed into the
				     * fingerprint (e.g. operand shapes), NULL none */
	char fingerprint[17];       /* 16 hex digits; filled by finding_sink_finish */
	/* Set by config.h after the rules ran. */
	bool suppressed;
	const char *suppress_reason; /* config entry's reason, or a description of it */
	bool baseline;              /* present in --baseline: reported, never fails */
};

struct finding_sink {
	struct arena arena;         /* every finding and string of the run */
	struct finding **items;
	uint32_t n, cap;
	/* Current context, set by the driver before running the rules of a
	 * module: findings added now belong to this file and module summary. */
	const char *path;
	struct source *src;
	uint32_t file_index, module_index;
	uint32_t module_first;      /* index of the current module's first finding: a
				     * rule late in passes.def (hbm-over-budget) can
				     * read the findings of earlier rules there */
	bool baseline_given;        /* a --baseline was read (SARIF baselineState on every result) */
};

/* A name without what changes from one compile to the next: ".123"
 * uniquifying suffixes and, with dump_prefix, a "module_0042." prefix.
 * The stem is [*start, *start + returned length) within name[0..n). */
size_t finding_stem(const char *name, size_t n, bool dump_prefix, const char **start);

void finding_sink_init(struct finding_sink *s);
void finding_sink_free(struct finding_sink *s);
/* Appends from's findings to s, which takes their memory (from ends empty;
 * a -j worker's sink joins the run's in input order). */
void finding_sink_move(struct finding_sink *s, struct finding_sink *from);

/* Adds a finding of rule at instruction i of module m (i may be NULL for a
 * module-level finding, located at the module header).  Fills the location,
 * module, computation, instruction, opcode, shape, op_name and Python source
 * (metadata source_file/source_line or the StackFrames tables) from the IR;
 * bytes starts at -1.  The message is printf-formatted, one line.  Returns the
 * finding for the rule to complete with the setters below; the pointer stays
 * valid for the whole run. */
/* The Python source of i: its metadata's, else that of its nearest user
 * that has one (breadth first through users; *via gets that user's name,
 * else NULL).  Strings in s's arena; false when none is found.  A buffer
 * made by a broadcast or a constant thus gets a line ("via %name"). */
bool finding_source(struct finding_sink *s, const struct hlo_module *m, const struct hlo_instr *i,
		    const char **file, int64_t *line, const char **via);

/* " from FILE:LINE[ via %user]" (finding_source; the file's last component)
 * for a note that names i, or "" when it has no source. */
void finding_from(struct finding_sink *s, const struct hlo_module *m, const struct hlo_instr *i, char *out,
		  size_t cap);

struct finding *finding_add(struct finding_sink *s, const char *rule, enum finding_severity sev,
			    const struct hlo_module *m, const struct hlo_instr *i, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
/* Where a finding of a folder rule goes: a module no longer loaded (its
 * text gone: no caret), at a line and column of its file. */
struct finding_place {
	const char *path, *module, *computation;
	uint64_t line, col;
	uint32_t file_index, module_index;
};
struct finding *finding_add_at(struct finding_sink *s, const char *rule, enum finding_severity sev,
			       const struct finding_place *at, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* Another place f is about: path:line:col, with a short message (SARIF
 * related locations). */
void finding_also(struct finding_sink *s, struct finding *f, const char *path, uint64_t line, uint64_t col,
		  const char *message);
/* Appends a note line (printf-formatted; shown as "note: ..." in text):
 * a detail, the deciding fact, the fix, or a fact of the whole module
 * (enum finding_note_role). */
void finding_note(struct finding_sink *s, struct finding *f, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void finding_fact(struct finding_sink *s, struct finding *f, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void finding_fix(struct finding_sink *s, struct finding *f, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void finding_module_note(struct finding_sink *s, struct finding *f, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The first note of role, or NULL. */
const char *finding_note_of(const struct finding *f, enum finding_note_role role);
void finding_set_bytes(struct finding *f, int64_t bytes);
/* Suggestions: text is copied. */
void finding_suggest_sharding(struct finding_sink *s, struct finding *f, const char *sharding);
void finding_suggest_shape(struct finding_sink *s, struct finding *f, const char *shape);
void finding_suggest_memory_space(struct finding *f, int64_t space);
void finding_suggest_donation(struct finding *f, int64_t parameter);
void finding_suggest_offload(struct finding *f, int64_t parameter);
/* Rule-specific fields, in the order added (key is copied). */
void finding_field_int(struct finding_sink *s, struct finding *f, const char *key, int64_t v);
/* A byte count (uint64_t, the model's saturated sizes): never written as
 * a negative number, as an int64 cast of 2^63 or more would be. */
void finding_field_bytes(struct finding_sink *s, struct finding *f, const char *key, uint64_t v);
void finding_field_bool(struct finding_sink *s, struct finding *f, const char *key, bool v);
void finding_field_string(struct finding_sink *s, struct finding *f, const char *key, const char *v);
void finding_field_null(struct finding_sink *s, struct finding *f, const char *key);
/* f's field named key, or NULL. */
const struct finding_field *finding_field_get(const struct finding *f, const char *key);
/* The typed members, X(member, "field"): finding_set_<member>(s, f, v)
 * sets one and adds it as that field where it is called. */
#define FINDING_TYPED(X) \
	X(leaf, "leaf") X(tuple_index, "tuple_index") X(output_index, "output_index") \
	X(peak_saved, "peak_saved_bytes")
#define FINDING_SETTER_DECL(member, key) void finding_set_##member(struct finding_sink *s, struct finding *f, int64_t v);
FINDING_TYPED(FINDING_SETTER_DECL)
#undef FINDING_SETTER_DECL
/* Sets f->key (copied): what tells two findings of the rule apart when
 * op_name, shape and source are the same, e.g. the transferred shapes.
 * Must be stable across recompiles: never instruction names or ids. */
void finding_set_key(struct finding_sink *s, struct finding *f, const char *key);
/* Copies a string into the sink's arena (for rules building text). */
const char *finding_strdup(struct finding_sink *s, const char *str);

/* Completes the findings added since index from: computes fingerprints and
 * sorts them by (file, offset, rule) with a stable order. */
void finding_sink_finish(struct finding_sink *s, uint32_t from);
/* Forgets the source of the findings from index from (before it is freed). */
void finding_sink_detach(struct finding_sink *s, uint32_t from);

/* "note", "warning", "error". */
const char *finding_severity_name(enum finding_severity sev);
/* Parses a severity name; false when it is none of them. */
bool finding_severity_parse(const char *name, enum finding_severity *out);
/* Whether f counts towards the exit status at level fail_on (not suppressed,
 * not in the baseline, severity >= fail_on). */
bool finding_fails(const struct finding *f, enum finding_severity fail_on);

/* The fingerprint (FNV-1a 64) of: rule, module name without compile-unique
 * prefixes and suffixes (module_0042., .123), op_name (or, when there is
 * none, the opcode and the instruction name with its numeric suffixes
 * dropped: "send.121" -> "send"), the shape without layout, the rule's key,
 * the Python source basename and line.  Never an instruction id.  Writes
 * 16 hex digits and a NUL into out. */
void finding_fingerprint(const struct finding *f, char out[17]);
#endif
