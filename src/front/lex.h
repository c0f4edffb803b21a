/* lex.h - HLO's lexical blank for code that steps over text the scanner
 * already accepted (attribute values kept raw, literals, comment-aware
 * printing and rewriting): spaces, tabs, line breaks, U+00A0, "//" and
 * block comments, as grammar/hlo.l reads them.  The only comment skipper
 * besides the scanner; it does not tokenize anything else (hex digits,
 * name characters and the "HloModule NAME" header lines aside). */
#ifndef HLO_LEX_H
#define HLO_LEX_H
#include <stdbool.h>
#include <stddef.h>

/* s[i] starts a comment ("//" or a block comment). */
static inline bool lex_at_comment(const char *s, size_t n, size_t i)
{
	return i + 1 < n && s[i] == '/' && (s[i + 1] == '/' || s[i + 1] == '*');
}

/* The offset past the comment starting at s[i] (lex_at_comment): a line
 * comment ends before its line break, a block comment after its close.
 * An unclosed block comment sets *open (may be NULL) and ends at n or at
 * a NUL byte. */
size_t lex_comment_end(const char *s, size_t n, size_t i, bool *open);

/* The offset past the blank (spaces, tabs, line breaks, U+00A0, comments)
 * from s[i] on, stopping at n and at a NUL byte.  An unclosed block
 * comment is not blank: the offset returned is its start, and *open (may
 * be NULL) is set. */
size_t lex_skip_blank(const char *s, size_t n, size_t i, bool *open);

/* Calls each(ctx, name, n) for the name after every "HloModule" that
 * starts a line (after blanks), in order: the modules a file holds, found
 * without parsing it (diff pairs the modules of two folders before loading
 * them).  A string holding such a line may add a name: callers match the
 * parsed modules by name.  Returns how many. */
unsigned lex_module_names(const char *s, size_t n, void (*each)(void *ctx, const char *name, size_t len), void *ctx);

/* HLO's name characters, as hlo.l's ID: [A-Za-z_] start a name,
 * [A-Za-z0-9_.-] continue it.  One table (lex.c) for every reader of names
 * in raw text: names are read often (metadata keys, operand lists). */
extern const unsigned char lex_name_class[256];
#define LEX_NAME_START 1
#define LEX_NAME_CHAR 2
static inline bool lex_is_name_start(char c)
{
	return lex_name_class[(unsigned char)c] & LEX_NAME_START;
}
static inline bool lex_is_name_char(char c)
{
	return lex_name_class[(unsigned char)c] & LEX_NAME_CHAR;
}

/* The value of hex digit c (0-9, a-f, A-F), or -1: string escapes and nan
 * payloads in text the scanner accepted. */
static inline int lex_hex(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}
#endif
