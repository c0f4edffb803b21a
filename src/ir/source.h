/* source.h - one input file held in memory, and offset -> line:col.
 * Regular files are mapped read-only, and the stages drop the pages they
 * are done with; stdin, pipes and gzip (zlib) are read into a buffer.  Two
 * NUL bytes follow the text either way.  The line table is built lazily. */
#ifndef HLO_SOURCE_H
#define HLO_SOURCE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct source {
	const char *path;   /* as given by the user; "<stdin>" for "-" */
	const char *buf;    /* len bytes + 2 NULs; read-only when mapped */
	uint64_t len;
	size_t maplen;      /* bytes mapped (0: buf is malloc'd) */
	uint64_t *lines;    /* start offset of each line, built lazily and only */
	uint64_t nlines;    /* as far as asked (indexed bytes) */
	uint64_t lines_cap, indexed;
	uint64_t lines_dropped; /* text indexed and dropped (source_drop) */
	uint64_t drop_batch; /* source_drop's unit (mapped files only) */
	const char *binary; /* NULL for text, else why the input is not HLO text */
	bool trace;         /* HLO_DROP_TRACE: source_drop watches the resident text */
	struct source_ahead *ahead; /* read-ahead of a mapped file (source.c), or NULL */
	uint64_t dev, ino;  /* the file's identity; both 0 for stdin and pipes */
};

/* Loads path ("-" = stdin); gunzips when the data starts with the gzip magic.
 * Returns NULL and writes "path: error: ..." to *err (static text) on failure. */
struct source *source_load(const char *path, char *err, size_t errlen);
/* Notes s as an input of this run (a module or a log, not a baseline or a
 * config file a run may be asked to rewrite), and whether the file st
 * describes is one (same device and inode, whatever name or link led to
 * it): no output replaces an input (output_allowed). */
void source_note_input(const struct source *s);
struct stat;
bool source_is_input(const struct stat *st);
/* Wraps a caller buffer (copied, NUL padded). */
struct source *source_from_memory(const char *path, const char *data, size_t n);
void source_free(struct source *s);
/* Why the input is binary rather than text (an ELF file, a serialized
 * HloModuleProto, many control bytes in its first 4 KiB), or NULL.  One
 * stray NUL in text is not binary: the scanner reports it in place.  Set
 * in s->binary by source_load; diagnostics never print a binary line. */
const char *source_binary(const char *buf, uint64_t len);
/* A mapped file's pages count in the process's resident memory once read.
 * A stage that walks the text in order drops the pages it is done with:
 * those wholly in [*mark, to), when that is a batch (2 MiB) or more, and
 * moves *mark to `to`.  Nothing is lost: reading a dropped page again maps
 * it from the page cache (a minor fault).  No-op for read buffers, and
 * safe while other threads read the same pages. */
void source_drop(const struct source *s, uint64_t *mark, uint64_t to);
/* The same for a stage walking back: the pages wholly in [from, *mark),
 * when a batch or more, and *mark moves down to from. */
void source_drop_below(const struct source *s, uint64_t *mark, uint64_t from);
/* Whether the text is data[0, n), compared a few MiB at a time and
 * dropping what was compared. */
bool source_equals(const struct source *s, const char *data, size_t n);
/* KiB of a mapped file resident in this process (the mapping's "Rss:" in
 * /proc/self/smaps; mincore would tell the page cache's), or -1. */
long source_resident_kib(const struct source *s);
/* Drops every page of a mapped file (the end of a stage). */
void source_drop_all(const struct source *s);
/* 1-based line and column (bytes) of offset. */
void source_position(struct source *s, uint64_t off, uint64_t *line, uint64_t *col);
/* Start offset of 1-based line (the last line's for a larger number). */
uint64_t source_line_offset(struct source *s, uint64_t line);
/* Start and length of the line holding offset, without the line end. */
void source_line(struct source *s, uint64_t off, uint64_t *start, uint64_t *len);
#endif
