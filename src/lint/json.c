/* json.c - the streaming JSON writer: commas, indentation and string
 * escaping.  Escapes '"', '\\' and control characters, keeps valid UTF-8
 * as is and replaces each invalid byte with U+FFFD.  Nesting deeper than
 * JSON_MAX_DEPTH is a caller bug; it is clamped, never overflowed. */
#include "json.h"
#include <string.h>

void json_init(struct json_writer *w, FILE *out, int indent)
{
	w->out = out;
	w->indent = indent;
	w->depth = 0;
	w->first[0] = true;
	w->after_key = false;
}

static void json_newline(struct json_writer *w)
{
	if (!w->indent)
		return;
	fputc('\n', w->out);
	for (int i = 0; i < w->depth * w->indent; i++)
		fputc(' ', w->out);
}

/* Separator and indentation before a value or a key. */
static void json_before(struct json_writer *w)
{
	if (w->after_key) {
		w->after_key = false;
		return;
	}
	if (w->depth > 0) {
		if (!w->first[w->depth])
			fputc(',', w->out);
		json_newline(w);
	}
	w->first[w->depth] = false;
}

static void json_open(struct json_writer *w, char c)
{
	json_before(w);
	fputc(c, w->out);
	if (w->depth < JSON_MAX_DEPTH - 1)
		w->depth++;
	w->first[w->depth] = true;
}

static void json_close(struct json_writer *w, char c)
{
	bool empty = w->first[w->depth];
	if (w->depth > 0)
		w->depth--;
	if (!empty)
		json_newline(w);
	fputc(c, w->out);
}

void json_begin_object(struct json_writer *w)
{
	json_open(w, '{');
}

void json_end_object(struct json_writer *w)
{
	json_close(w, '}');
}

void json_begin_array(struct json_writer *w)
{
	json_open(w, '[');
}

void json_end_array(struct json_writer *w)
{
	json_close(w, ']');
}

/* Length of the valid UTF-8 sequence at s (n bytes left), 0 if invalid. */
static size_t json_utf8_len(const unsigned char *s, size_t n)
{
	unsigned c = s[0];
	size_t len;
	unsigned min;
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2;
		min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		min = 0x10000;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	unsigned cp = c & (0x3f >> (len - 1));
	for (size_t k = 1; k < len; k++) {
		if ((s[k] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[k] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

void json_escape(FILE *out, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;
	while (i < n) {
		unsigned c = p[i];
		switch (c) {
		case '"':
			fputs("\\\"", out);
			break;
		case '\\':
			fputs("\\\\", out);
			break;
		case '\n':
			fputs("\\n", out);
			break;
		case '\r':
			fputs("\\r", out);
			break;
		case '\t':
			fputs("\\t", out);
			break;
		case '\b':
			fputs("\\b", out);
			break;
		case '\f':
			fputs("\\f", out);
			break;
		default:
			if (c < 0x20 || c == 0x7f) {
				fprintf(out, "\\u%04x", c);
			} else if (c >= 0x80) {
				size_t len = json_utf8_len(p + i, n - i);
				if (!len) {
					fputs("\\ufffd", out);
					break;
				}
				fwrite(p + i, 1, len, out);
				i += len;
				continue;
			} else {
				fputc((int)c, out);
			}
		}
		i++;
	}
}

void json_key(struct json_writer *w, const char *key)
{
	json_before(w);
	fputc('"', w->out);
	json_escape(w->out, key, strlen(key));
	fputs(w->indent ? "\": " : "\":", w->out);
	w->after_key = true;
}

void json_string_n(struct json_writer *w, const char *s, size_t n)
{
	json_before(w);
	fputc('"', w->out);
	json_escape(w->out, s, n);
	fputc('"', w->out);
}

void json_string(struct json_writer *w, const char *s)
{
	json_string_n(w, s, strlen(s));
}

void json_int(struct json_writer *w, int64_t v)
{
	json_before(w);
	fprintf(w->out, "%lld", (long long)v);
}

void json_uint(struct json_writer *w, uint64_t v)
{
	json_before(w);
	fprintf(w->out, "%llu", (unsigned long long)v);
}

void json_bool(struct json_writer *w, bool v)
{
	json_before(w);
	fputs(v ? "true" : "false", w->out);
}

void json_null(struct json_writer *w)
{
	json_before(w);
	fputs("null", w->out);
}

void json_finish(struct json_writer *w)
{
	fputc('\n', w->out);
}
