/* scan.h - the C half of the scanner: its state, the keywords, scan_run
 * (scanner and grammar over a buffer), classification of the words flex
 * matches (numbers, dim labels, keywords, definitions), string checks, and
 * error reporting.  flex rules stay patterns; decisions live here. */
#ifndef HLO_SCAN_H
#define HLO_SCAN_H
#include <stdbool.h>
#include <stddef.h>
#include "build.h"
#include "lex.h"
#ifndef HLO_YYSTYPE
#include "hlo.tab.h"
#endif

enum keyword {
	KW_NONE,
#define KEYWORD(e, text) KW_##e,
#include "keywords.def"
#undef KEYWORD
	KW_COUNT
};

/* Scanner state, reached from flex actions through yyextra. */
struct scan_state {
	struct build_ctx *ctx;
	const char *buf;        /* start of the scanned buffer */
	uint64_t base;          /* source offset of buf[0] */
	int start_token;        /* emitted once before the first real token */
	int prev;               /* previous token kind (layout '{' detection) */
	int depth;              /* open brackets of all kinds */
	int brace_depth;        /* open '{' */
	int instr_depth;        /* depth of the instruction being scanned (its attributes) */
	int fa_depth;           /* brace depth inside frontend_attributes={, or 0 */
	bool json_pending;      /* next '{' starts a raw JSON dict */
	bool literal_pending;   /* next '(' starts a raw constant literal */
	size_t def_skip;        /* scan_word's last DEFNAME: bytes to its '=' and past */
	bool md_pending;        /* next '{' starts a metadata block, captured whole */
	int cap_depth;          /* raw capture nesting */
	uint64_t cap_start;     /* raw capture start offset */
	uint64_t comment_start; /* block comment start offset */
	int comment_ret;        /* start condition a block comment returns to */
	bool lex_error;         /* the scanner reported an error for this token */
	bool fatal;             /* a lexical error ended the input */
	/* The text is scanned a window at a time, each window copied with two
	 * NULs after it into one of two buffers, so flex never writes into the
	 * source (a read-only mapping); see scan_set_window. */
	const char *whole;      /* the full text being scanned (source offset whole_base) */
	uint64_t whole_base;
	uint64_t whole_len;
	uint64_t window_end;    /* offset in whole where the current window stops */
	char *win[2];           /* window buffers, used in turn: small or heap */
	unsigned win_cur;
	char small[2][256];     /* short texts (one attribute value) need no malloc */
	char *heap[2];
	size_t heap_cap[2];
	uint64_t drop_mark;     /* source text before this is dropped (source_drop) */
	uint64_t window;        /* bytes a window aims at (scan_window_size) */
	uint64_t max_line;      /* SCAN_MAX_LINE, or HLO_SCAN_MAX_LINE's */
};

/* Runs the scanner and the grammar over text[0..len) whose first byte is
 * at source offset base; ctx->mode selects the start symbol.  The text is
 * only read (it may be a read-only mapping) and needs no NULs after it.
 * The only user of the generated code's buffer API. */
int scan_run(struct build_ctx *ctx, const char *text, uint64_t len, uint64_t base);

/* Deepest bracket nesting accepted (XLA's max_recursion_depth is 8192). */
#define SCAN_MAX_DEPTH 8192
/* The longest line, and the longest string, read (README "Limits"): flex
 * keeps a buffer's length in an int, so a window must stay under 2 GiB;
 * one holds at most a string and a line.  HLO_SCAN_MAX_LINE (bytes,
 * >= 4096) lowers it for tests. */
#define SCAN_MAX_LINE ((uint64_t)512 << 20)

struct interned *scan_intern(struct scan_state *ss, const char *s, size_t n);
/* An attribute name s[0..n) ("name=" without '='): notes what it implies for
 * the next '{' (raw JSON capture) and returns it interned, or NULL inside a
 * bracket during the module parse (the value is decoded later if needed). */
struct interned *scan_attr_name(struct scan_state *ss, const char *s, size_t n, const char *after);
/* Classifies "word>..." text: DIMLABELS when it is a full dim-label token, else -1. */
int scan_dim_labels(struct scan_state *ss, const char *s, size_t n);
/* Classifies an identifier: keyword tokens, TYPE, DECIMAL (nan), DEFNAME, IDENT.
 * For DEFNAME, ss->def_skip is scan_definition_end's answer. */
int scan_word(struct scan_state *ss, const char *s, size_t n, HLO_YYSTYPE *lval);
/* When only blank separates after from an '=' (a definition "x = ..."):
 * the offset past that '=' and the blank after it, else 0.  DEFNAME takes
 * the '=' with it (one token fewer an instruction: the scanner resumes at
 * the result shape). */
size_t scan_definition_end(const char *after);
/* Value of a nan with payload text "0x..)" (sign applied). */
double scan_nan_payload(const char *hex, bool negative);
/* "-inf", "-nan": NEGINF / DECIMAL, or -1. */
int scan_negative_word(const char *s, size_t n, HLO_YYSTYPE *lval);
/* Number-like text: INT, DECIMAL, DXD, PAD, DIMLABELS, '?', or -1. */
int scan_number(struct scan_state *ss, const char *s, size_t n, HLO_YYSTYPE *lval);
/* Length of the quoted string starting at q (quote to quote, escapes
 * honoured), or 0 when it is not terminated.  It may end past the current
 * window (scan_window_at). */
size_t scan_string_len(struct scan_state *ss, const char *q);
/* Validates escapes and UTF-8 of a quoted string; reports and returns false on error. */
bool scan_check_string(struct scan_state *ss, const char *s, size_t n, HLO_YYLTYPE *loc);
/* An opening bracket: returns the token ('{', LAYOUT_OPEN, '(', '[') or -1 when too deep. */
int scan_open(struct scan_state *ss, int c, const char *after);
void scan_close(struct scan_state *ss, int c);
/* A line comment s[0..n) at sp: reports an IR_LINT_COMMENT one to the builder. */
void scan_line_comment(struct scan_state *ss, const char *s, size_t n, struct span sp);
/* True for a "// -----" line separating modules. */
bool scan_is_split(struct scan_state *ss, const char *s, size_t n);
/* The next window after the current one: *start gets its first byte (NULL
 * at the end of the text); returns its length. */
uint64_t scan_next_window(struct scan_state *ss, char **start);
/* A window that starts at p (in the current window) and holds at least n
 * bytes: p itself when the current one does, else a new window whose first
 * byte is p's (*moved set; the caller switches flex to it). */
char *scan_window_at(struct scan_state *ss, const char *p, uint64_t n, uint64_t *len, bool *moved);

/* The shape built earlier from exactly this text, or NULL (scanner fast path). */
struct hlo_shape *scan_shape_text(struct scan_state *ss, const char *s, size_t n);
/* The same for the tuple shape whose '(' is at s, within the window and on
 * one line; *n gets its length up to the matching ')'. */
struct hlo_shape *scan_tuple_text(struct scan_state *ss, const char *s, size_t *n);
/* Length of the leading [a-z][a-z0-9]* word of s. */
size_t scan_word_len(const char *s);

void scan_error(struct scan_state *ss, struct span sp, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Whether the string at source offset start, n bytes long, is within
 * SCAN_MAX_LINE; else reports it and ends the input (ss->fatal). */
bool scan_string_fits(struct scan_state *ss, uint64_t start, uint64_t n);
/* Reports c, a character that cannot start a token, at sp. */
void scan_bad_char(struct scan_state *ss, struct span sp, int c);
_Noreturn void scan_fatal(const char *msg);
/* Reports a syntax error at loc in PostgreSQL's shape. */
void scan_syntax_error(struct build_ctx *ctx, void *scanner, struct span loc, bool eof,
		       bool after_lex_error, const char **expected, int nexpected);
#endif
