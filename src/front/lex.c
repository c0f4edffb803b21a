/* lex.c - HLO's lexical blank outside the scanner (lex.h).  Byte loops
 * only: no allocation, no diagnostics (callers report an unclosed comment
 * where it matters). */
#include "lex.h"

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
