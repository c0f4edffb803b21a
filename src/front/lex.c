/* lex.c - HLO's lexical blank outside the scanner (lex.h).  Byte loops
 * only: no allocation, no diagnostics (callers report an unclosed comment
 * where it matters). */
#include "lex.h"
#include <ctype.h>
#include <string.h>

/* The name characters (lex.h); the C locale's isalpha and isalnum, as hlo.l. */
#define B (LEX_NAME_START | LEX_NAME_CHAR)
#define C LEX_NAME_CHAR
const unsigned char lex_name_class[256] = {
	['a'] = B, ['b'] = B, ['c'] = B, ['d'] = B, ['e'] = B, ['f'] = B, ['g'] = B, ['h'] = B, ['i'] = B,
	['j'] = B, ['k'] = B, ['l'] = B, ['m'] = B, ['n'] = B, ['o'] = B, ['p'] = B, ['q'] = B, ['r'] = B,
	['s'] = B, ['t'] = B, ['u'] = B, ['v'] = B, ['w'] = B, ['x'] = B, ['y'] = B, ['z'] = B, ['A'] = B,
	['B'] = B, ['C'] = B, ['D'] = B, ['E'] = B, ['F'] = B, ['G'] = B, ['H'] = B, ['I'] = B, ['J'] = B,
	['K'] = B, ['L'] = B, ['M'] = B, ['N'] = B, ['O'] = B, ['P'] = B, ['Q'] = B, ['R'] = B, ['S'] = B,
	['T'] = B, ['U'] = B, ['V'] = B, ['W'] = B, ['X'] = B, ['Y'] = B, ['Z'] = B, ['_'] = B, ['0'] = C,
	['1'] = C, ['2'] = C, ['3'] = C, ['4'] = C, ['5'] = C, ['6'] = C, ['7'] = C, ['8'] = C, ['9'] = C,
	['.'] = C, ['-'] = C,
};
#undef B
#undef C

size_t lex_comment_end(const char *s, size_t n, size_t i, bool *open)
{
	if (s[i + 1] == '/') {
		while (i < n && s[i] && s[i] != '\n' && s[i] != '\r')
			i++;
		return i;
	}
	for (i += 2; i + 1 < n && s[i] && !(s[i] == '*' && s[i + 1] == '/'); i++)
		;
	if (i + 1 < n && s[i])
		return i + 2;
	if (open)
		*open = true;
	return i < n && !s[i] ? i : n;
}

size_t lex_skip_blank(const char *s, size_t n, size_t i, bool *open)
{
	while (i < n) {
		char c = s[i];
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
			i++;
		else if ((unsigned char)c == 0xc2 && i + 1 < n && (unsigned char)s[i + 1] == 0xa0)
			i += 2;
		else if (lex_at_comment(s, n, i)) {
			bool unclosed = false;
			size_t e = lex_comment_end(s, n, i, &unclosed);
			if (unclosed) {
				if (open)
					*open = true;
				break;
			}
			i = e;
		} else {
			break;
		}
	}
	return i;
}

unsigned lex_module_names(const char *s, size_t n, void (*each)(void *ctx, const char *name, size_t len), void *ctx)
{
	static const char kw[] = "HloModule";
	const size_t kl = sizeof kw - 1;
	unsigned count = 0;
	for (size_t i = 0; i < n;) {
		const char *nl = memchr(s + i, '\n', n - i);
		size_t end = nl ? (size_t)(nl - s) : n, p = i;
		while (p < end && (s[p] == ' ' || s[p] == '\t'))
			p++;
		if (end - p > kl && !memcmp(s + p, kw, kl) && (s[p + kl] == ' ' || s[p + kl] == '\t')) {
			p += kl;
			while (p < end && (s[p] == ' ' || s[p] == '\t'))
				p++;
			size_t e = p;
			while (e < end && lex_is_name_char(s[e]))
				e++;
			if (e > p) {
				each(ctx, s + p, e - p);
				count++;
			}
		}
		i = end + 1;
	}
	return count;
}
