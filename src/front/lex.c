/* lex.c - HLO's lexical blank outside the scanner (lex.h).  Byte loops
 * only: no allocation, no diagnostics (callers report an unclosed comment
 * where it matters). */
#include "lex.h"
#include <ctype.h>
#include <string.h>

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
			while (e < end && (isalnum((unsigned char)s[e]) || s[e] == '_' || s[e] == '.' || s[e] == '-'))
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
