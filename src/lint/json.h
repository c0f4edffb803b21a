/* json.h - a small streaming JSON writer: objects, arrays, keys, strings
 * (escaped, invalid UTF-8 replaced by U+FFFD so the output always parses),
 * integers, booleans and null, compact or indented.  It writes to a FILE
 * and keeps only a nesting stack; it never builds a document in memory and
 * does not read JSON. */
#ifndef HLO_JSON_H
#define HLO_JSON_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 64

struct json_writer {
	FILE *out;
	int indent;                       /* spaces per level; 0 = one line */
	int depth;
	bool first[JSON_MAX_DEPTH];       /* no member written yet at this level */
	bool after_key;                   /* a key was written; the value follows */
};

/* Starts a writer on out; indent 0 writes everything on one line. */
void json_init(struct json_writer *w, FILE *out, int indent);
void json_begin_object(struct json_writer *w);
void json_end_object(struct json_writer *w);
void json_begin_array(struct json_writer *w);
void json_end_array(struct json_writer *w);
/* Writes "key": inside an object; the next call writes its value. */
void json_key(struct json_writer *w, const char *key);
void json_string(struct json_writer *w, const char *s);
void json_string_n(struct json_writer *w, const char *s, size_t n);
void json_int(struct json_writer *w, int64_t v);
void json_uint(struct json_writer *w, uint64_t v);
void json_bool(struct json_writer *w, bool v);
void json_null(struct json_writer *w);
/* Ends the document with a newline (after the outermost value). */
void json_finish(struct json_writer *w);
/* Writes s as a JSON string body (no quotes) to out. */
void json_escape(FILE *out, const char *s, size_t n);
#endif
