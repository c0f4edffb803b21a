/* source.c - loads an input and maps offsets to line:col.  A regular file
 * is mapped read-only (nothing copied, no anonymous memory for the text)
 * and its pages are given back behind each stage (source_drop); pipes and
 * stdin are read into a growing buffer; gzip data is inflated with zlib.
 * Two NULs follow the text.  The line table is built only when asked. */
#include "source.h"
#include <stdatomic.h>
#include <stdbool.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <pthread.h>
#include "arena.h"
#include "intern.h"

/* Largest single read()/inflate() step: Linux caps read() near 2 GiB and
 * zlib counts in 32-bit uInt. */
#define SOURCE_CHUNK ((size_t)1 << 30)

static struct source *source_new(const char *path)
{
	const char *shown = strcmp(path, "-") == 0 ? "<stdin>" : path;
	size_t n = strlen(shown) + 1;
	struct source *s = xcalloc(1, sizeof *s + n);
	char *copy = (char *)(s + 1);
	memcpy(copy, shown, n);
	s->path = copy;
	return s;
}

/* A mapped file cut short by another program while we read it: the
 * pages past its new end fault with SIGBUS.  That is an I/O error. */
static void source_sigbus(int sig)
{
	(void)sig;
	static const char msg[] = "hlolint: error: an input file was truncated while it was being read\n";
	ssize_t w = write(STDERR_FILENO, msg, sizeof msg - 1);
	(void)w;
	_exit(2);
}

static void source_on_sigbus(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = source_sigbus;
	sigaction(SIGBUS, &sa, NULL);
}

/* A regular file is mapped read-only, not read: its pages stay the page
 * cache's (shared, not anonymous memory; nothing is copied), and the
 * scanner copies a window at a time instead of writing into it.  The
 * mapping sits at the start of a reservation one page longer than the
 * file, so the two bytes after the end read as NUL like a read buffer's.
 * NULL when the file cannot be mapped (the caller reads it). */
static char *source_map(int fd, uint64_t size, size_t *maplen)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	if (size == 0 || size > SIZE_MAX - 2 * page)
		return NULL;
	size_t file_span = (size_t)((size + page - 1) / page * page);
	size_t total = (size_t)((size + 2 + page - 1) / page * page);
	char *base = mmap(NULL, total, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED)
		return NULL;
	if (mmap(base, file_span, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0) == MAP_FAILED) {
		munmap(base, total);
		return NULL;
	}
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, source_on_sigbus);
	*maplen = total;
	return base;
}

/* Read-ahead of a mapped file on a helper thread.  A page of the mapping
 * not in the page cache costs the parse a synchronous read when first
 * touched, a few hundred KiB at a time; files not read for a while (old
 * dumps, a cold disk, or a guest whose kernel pages out cold page cache,
 * as this project's VM does: docs/bench.md) lose pages.  One
 * POSIX_FADV_WILLNEED over the whole file reads only a window of it
 * (the kernel caps a request at the device's read-ahead size), so the
 * thread asks SOURCE_AHEAD at a time, in file order, ahead of the
 * scanner: about 4 ms a GiB when every page is cached.  It owns a dup of
 * the descriptor and stops early when the source is freed. */
#define SOURCE_AHEAD ((off_t)8 << 20)

struct source_ahead {
	pthread_t thread;
	int fd;
	off_t size;
	atomic_bool stop;
};

static void *source_ahead_run(void *arg)
{
	struct source_ahead *a = arg;
	for (off_t off = 0; off < a->size && !atomic_load_explicit(&a->stop, memory_order_relaxed);
	     off += SOURCE_AHEAD)
		posix_fadvise(a->fd, off, SOURCE_AHEAD, POSIX_FADV_WILLNEED);
	close(a->fd);
	return NULL;
}

/* A file of one window or less gets no thread: the kernel's own read-around
 * on the first fault covers it.  Failing to start is not an error. */
static struct source_ahead *source_ahead_start(int fd, uint64_t size)
{
	if (size <= (uint64_t)SOURCE_AHEAD || getenv("HLO_NO_READAHEAD"))
		return NULL;
	struct source_ahead *a = xcalloc(1, sizeof *a);
	a->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	a->size = (off_t)size;
	if (a->fd >= 0 && pthread_create(&a->thread, NULL, source_ahead_run, a) == 0)
		return a;
	if (a->fd >= 0)
		close(a->fd);
	free(a);
	return NULL;
}

static void source_ahead_stop(struct source_ahead *a)
{
	if (!a)
		return;
	atomic_store(&a->stop, true);
	pthread_join(a->thread, NULL);
	free(a);
}

/* Reads all of fd into *bufp (2 spare bytes kept for the NULs).  Returns 0 or
 * an errno value. */
static bool source_is_gzip(const char *buf, uint64_t len)
{
	return len >= 2 && (unsigned char)buf[0] == 0x1f && (unsigned char)buf[1] == 0x8b;
}

/* Reads fd to its end, or only its first bytes when they are binary. */
static int source_read_fd(int fd, char **bufp, uint64_t *lenp)
{
	struct stat st;
	size_t cap = 64 * 1024, len = 0;
	if (fstat(fd, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return EISDIR;
		/* +1 so a regular file is known complete after one extra read of 0. */
		if (S_ISREG(st.st_mode) && (uint64_t)st.st_size < SIZE_MAX - 64)
			cap = (size_t)st.st_size + 3;
	}
	char *buf = xmalloc(cap);
	for (;;) {
		if (cap - len < 3) {
			if (cap > SIZE_MAX / 2)
				fatal_out_of_memory();
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
		size_t want = cap - len - 2;
		if (want > SOURCE_CHUNK)
			want = SOURCE_CHUNK;
		ssize_t got = read(fd, buf + len, want);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			free(buf);
			return e;
		}
		if (got == 0)
			break;
		bool first = len < 4096;
		len += (size_t)got;
		/* /dev/zero and /dev/urandom never end: decide from the first
		 * bytes (gzip data is binary until inflated). */
		if (first && len >= 4096 && !source_is_gzip(buf, len) && source_binary(buf, len))
			break;
	}
	*bufp = buf;
	*lenp = len;
	return 0;
}

/* HLO text compresses 10-20 times (corpora/xla: 15 at most); deflate can
 * reach 1032.  Past 100 times (and 64 MiB) the input is not taken for
 * text: a 12 MB file of 4 GB of comment lines stops at 1.2 GB. */
#define SOURCE_GZIP_RATIO 100
#define SOURCE_GZIP_RATIO_TEXT "100"
#define SOURCE_GZIP_FREE ((uint64_t)64 << 20)

/* Inflates a gzip buffer (several concatenated members allowed, as gzip
 * itself does).  Returns NULL and sets *why on corrupt or truncated data
 * or past the ratio; stops early, returning the first bytes, at binary data. */
static char *source_gunzip(const char *in, uint64_t inlen, uint64_t *outlen, const char **why)
{
	z_stream z;
	memset(&z, 0, sizeof z);
	if (inflateInit2(&z, 15 + 16) != Z_OK)
		fatal_out_of_memory();
	/* ISIZE (last 4 bytes) is the size mod 4 GiB of the last member: a good
	 * first guess that avoids regrowing for the common single-member file. */
	uint64_t guess = 0;
	if (inlen >= 18) {
		const unsigned char *t = (const unsigned char *)in + inlen - 4;
		guess = (uint64_t)t[0] | (uint64_t)t[1] << 8 | (uint64_t)t[2] << 16 | (uint64_t)t[3] << 24;
	}
	/* Deflate cannot expand more than ~1032:1: a larger ISIZE is garbage. */
	if (guess < inlen * 2 || guess / 1032 > inlen)
		guess = inlen * 4;
	if (guess < 4096)
		guess = 4096;
	size_t cap = (size_t)guess + 3, len = 0;
	char *out = xmalloc(cap);
	uint64_t used = 0;   /* input consumed */
	int rc = Z_OK;
	*why = NULL;
	for (;;) {
		if (z.avail_in == 0 && used < inlen) {
			uint64_t left = inlen - used;
			z.next_in = (Bytef *)(uintptr_t)(in + used);
			z.avail_in = (uInt)(left > SOURCE_CHUNK ? SOURCE_CHUNK : left);
			used += z.avail_in;
		}
		if (cap - len < 3) {
			if (cap > SIZE_MAX / 2)
				fatal_out_of_memory();
			cap *= 2;
			out = xrealloc(out, cap);
		}
		/* Small steps first and at most 64 MiB later, so the binary check
		 * and the ratio stop it early. */
		size_t room = cap - len - 2, step = len < 4096 ? 65536 : (size_t)SOURCE_GZIP_FREE;
		if (room > step)
			room = step;
		z.next_out = (Bytef *)out + len;
		z.avail_out = (uInt)room;
		rc = inflate(&z, Z_NO_FLUSH);
		bool first = len < 4096;
		len += room - z.avail_out;
		/* Zeros (a gzip bomb) or other binary data: decide from the first
		 * bytes, as source_read_fd does. */
		if (first && len >= 4096 && source_binary(out, len))
			break;
		if (len > SOURCE_GZIP_RATIO * inlen && len > SOURCE_GZIP_FREE) {
			*why = "it inflates to more than " SOURCE_GZIP_RATIO_TEXT " times its size (README \"Limits\"; "
			       "gunzip it first if it is HLO text)";
			break;
		}
		if (rc == Z_STREAM_END) {
			/* Another member follows: keep going.  Anything else after the
			 * end (tar padding, zeros) is ignored, like gzip -d does. */
			uint64_t pos = used - z.avail_in;
			if (inlen - pos >= 2 && (unsigned char)in[pos] == 0x1f &&
			    (unsigned char)in[pos + 1] == 0x8b) {
				inflateReset(&z);
				continue;
			}
			break;
		}
		if (rc == Z_MEM_ERROR)
			fatal_out_of_memory();
		if (rc == Z_BUF_ERROR) {
			if (z.avail_in == 0 && used >= inlen) {
				*why = "unexpected end of gzip data";
				break;
			}
			continue;   /* output buffer was full: grow and retry */
		}
		if (rc != Z_OK) {
			*why = "invalid gzip data";
			break;
		}
	}
	inflateEnd(&z);
	if (*why) {
		free(out);
		return NULL;
	}
	*outlen = len;
	return out;
}

/* Reads a protobuf varint at *p (at most 3 bytes: lengths under 2 MiB). */
static bool source_varint(const unsigned char **p, const unsigned char *end, uint64_t *v)
{
	*v = 0;
	for (int k = 0; k < 3 && *p < end; k++) {
		unsigned char b = *(*p)++;
		*v |= (uint64_t)(b & 0x7f) << (7 * k);
		if (!(b & 0x80))
			return true;
	}
	return false;
}

/* A serialized HloModuleProto starts with field 1 (name, wire type 2):
 * 0x0a, a length, the printable module name, then field 2 or 3 (0x12
 * entry_computation_name, 0x1a computations).  An HloProto or HloSnapshot
 * wraps it in one more field-1 message.  Text never has 0x12 or 0x1a. */
static bool source_is_hlo_proto(const unsigned char *p, const unsigned char *end)
{
	for (int depth = 0; depth < 2; depth++) {
		uint64_t len;
		if (p >= end || *p++ != 0x0a || !source_varint(&p, end, &len) || !len)
			return false;
		if (p < end && *p == 0x0a)
			continue;   /* the outer message: look at the inner one */
		if (len > 1024 || (uint64_t)(end - p) <= len)
			return false;
		for (uint64_t k = 0; k < len; k++)
			if (p[k] < 0x20 || p[k] >= 0x7f)
				return false;
		return p[len] == 0x12 || p[len] == 0x1a;
	}
	return false;
}

const char *source_binary(const char *buf, uint64_t len)
{
	const unsigned char *p = (const unsigned char *)buf;
	uint64_t n = len < 4096 ? len : 4096;
	if (n >= 4 && !memcmp(p, "\x7f" "ELF", 4))
		return "binary file (an ELF executable or library), not HLO text";
	if (source_is_hlo_proto(p, p + n))
		return "binary file: a serialized HloModuleProto ('.pb' dump), not HLO text; use the '.txt' "
		       "dump beside it";
	uint64_t ctrl = 0;
	for (uint64_t k = 0; k < n; k++)
		ctrl += (p[k] < 0x20 && p[k] != '\t' && p[k] != '\n' && p[k] != '\r' && p[k] != '\f' &&
			 p[k] != '\v') || p[k] == 0x7f;
	if (ctrl >= 8 || (ctrl && ctrl * 16 > n))
		return "binary file, not HLO text";
	return NULL;
}

/* Frees a read buffer or unmaps a mapped file (maplen > 0). */
static void source_unload(const char *buf, size_t maplen)
{
	if (maplen)
		munmap((void *)(uintptr_t)buf, maplen);
	else
		free((void *)(uintptr_t)buf);
}

/* Pages are dropped 2 MiB at a time at least (one madvise call per batch,
 * not per computation); HLO_DROP_BYTES (>= 4096) lets tests drop often. */
static uint64_t source_drop_batch(void)
{
	const char *e = getenv("HLO_DROP_BYTES");
	uint64_t b = e ? strtoull(e, NULL, 10) : 0;
	return b >= 4096 ? b : (uint64_t)2 << 20;
}

long source_resident_kib(const struct source *s)
{
	FILE *f = s->maplen ? fopen("/proc/self/smaps", "r") : NULL;
	char line[512];
	long rss = -1;
	bool in = false;
	uintptr_t a = (uintptr_t)s->buf;
	while (f && fgets(line, sizeof line, f)) {
		unsigned long lo, hi;
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' '))
			in = a >= lo && a < hi;
		else if (in && sscanf(line, "Rss: %ld kB", &rss) == 1)
			break;
	}
	if (f)
		fclose(f);
	return rss;
}

/* For HLO_DROP_TRACE (tests): calls of madvise, and the most of the text
 * resident when one was made, so that a stage reading pages all over the
 * file (and keeping them) shows. */
static _Atomic unsigned long source_drops;
static _Atomic long source_resident_peak;

static void source_trace_resident(const struct source *s)
{
	long kib = source_resident_kib(s);
	for (long seen = source_resident_peak; kib > seen;)
		if (atomic_compare_exchange_weak(&source_resident_peak, &seen, kib))
			break;
}

/* Gives back the pages wholly in [from, to). */
static void source_drop_pages(const struct source *s, uint64_t from, uint64_t to)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	from = (from + page - 1) / page * page;
	to = to / page * page;
	if (to > from) {
		if (s->trace)
			source_trace_resident(s);
		madvise((void *)(uintptr_t)(s->buf + from), (size_t)(to - from), MADV_DONTNEED);
		source_drops++;
	}
}

void source_drop(const struct source *s, uint64_t *mark, uint64_t to)
{
	if (!s->drop_batch || to > s->len || to < *mark || to - *mark < s->drop_batch)
		return;
	source_drop_pages(s, *mark, to);
	*mark = to;
}

void source_drop_below(const struct source *s, uint64_t *mark, uint64_t from)
{
	if (!s->drop_batch || *mark > s->len || from > *mark || *mark - from < s->drop_batch)
		return;
	source_drop_pages(s, from, *mark);
	*mark = from;
}

bool source_equals(const struct source *s, const char *data, size_t n)
{
	if (n != s->len)
		return false;
	uint64_t mark = 0;
	for (uint64_t off = 0; off < n;) {
		uint64_t k = n - off < ((uint64_t)4 << 20) ? n - off : (uint64_t)4 << 20;
		if (memcmp(s->buf + off, data + off, (size_t)k))
			return false;
		off += k;
		source_drop(s, &mark, off);
	}
	return true;
}

void source_drop_all(const struct source *s)
{
	if (s && s->maplen) {
		madvise((void *)(uintptr_t)s->buf, s->maplen, MADV_DONTNEED);
	}
}

/* The inputs of this run, by device and inode (a scratch intern table of
 * those bytes), so that no output replaces one (output_allowed asks
 * source_is_input).  -j workers load files at once: a lock. */
static struct intern_table *source_read_set;
static pthread_mutex_t source_read_lock = PTHREAD_MUTEX_INITIALIZER;

static void source_file_key(uint64_t dev, uint64_t ino, unsigned char key[16])
{
	memcpy(key, &dev, 8);
	memcpy(key + 8, &ino, 8);
}

void source_note_input(const struct source *s)
{
	if (!s || (!s->dev && !s->ino))
		return;
	unsigned char key[16];
	source_file_key(s->dev, s->ino, key);
	pthread_mutex_lock(&source_read_lock);
	if (!source_read_set)
		source_read_set = intern_new_empty();
	intern(source_read_set, (const char *)key, sizeof key);
	pthread_mutex_unlock(&source_read_lock);
}

bool source_is_input(const struct stat *st)
{
	unsigned char key[16];
	source_file_key((uint64_t)st->st_dev, (uint64_t)st->st_ino, key);
	pthread_mutex_lock(&source_read_lock);
	bool r = source_read_set && intern_find(source_read_set, (const char *)key, sizeof key);
	pthread_mutex_unlock(&source_read_lock);
	return r;
}

struct source *source_load(const char *path, char *err, size_t errlen)
{
	int is_stdin = strcmp(path, "-") == 0;
	int fd = is_stdin ? 0 : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "cannot open '%s': %s", path, strerror(errno));
		return NULL;
	}
	char *buf = NULL;
	uint64_t len = 0;
	size_t maplen = 0;
	struct stat st;
	struct source_ahead *ahead = NULL;
	bool regular = !is_stdin && fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
	if (regular && (buf = source_map(fd, (uint64_t)st.st_size, &maplen))) {
		len = (uint64_t)st.st_size;
		ahead = source_ahead_start(fd, len);
	}
	int e = buf ? 0 : source_read_fd(fd, &buf, &len);
	if (!is_stdin)
		close(fd);
	if (e) {
		snprintf(err, errlen, "cannot read '%s': %s", is_stdin ? "<stdin>" : path, strerror(e));
		return NULL;
	}
	if (source_is_gzip(buf, len)) {
		const char *why;
		uint64_t outlen = 0;
		char *out = source_gunzip(buf, len, &outlen, &why);
		source_ahead_stop(ahead);
		ahead = NULL;
		source_unload(buf, maplen);
		if (!out) {
			snprintf(err, errlen, "cannot decompress '%s': %s",
				 is_stdin ? "<stdin>" : path, why);
			return NULL;
		}
		buf = out;
		len = outlen;
		maplen = 0;
	}
	if (!maplen)
		buf[len] = buf[len + 1] = 0;
	struct source *s = source_new(path);
	s->buf = buf;
	s->len = len;
	s->maplen = maplen;
	s->ahead = ahead;
	s->drop_batch = maplen ? source_drop_batch() : 0;
	s->trace = maplen && getenv("HLO_DROP_TRACE");
	s->binary = source_binary(buf, len);
	if (regular) {
		s->dev = (uint64_t)st.st_dev;
		s->ino = (uint64_t)st.st_ino;
	}
	return s;
}

struct source *source_from_memory(const char *path, const char *data, size_t n)
{
	if (n > SIZE_MAX - 2)
		fatal_out_of_memory();
	struct source *s = source_new(path);
	char *buf = xmalloc(n + 2);
	if (n)
		memcpy(buf, data, n);
	buf[n] = buf[n + 1] = 0;
	s->buf = buf;
	s->len = n;
	return s;
}

void source_free(struct source *s)
{
	if (!s)
		return;
	if (s->maplen && getenv("HLO_DROP_TRACE"))
		fprintf(stderr, "hlolint: %s: pages dropped %lu times; at most %ld KiB of %llu resident at a drop\n",
			s->path, (unsigned long)source_drops, (long)source_resident_peak,
			(unsigned long long)(s->len + 1023) / 1024);
	source_ahead_stop(s->ahead);
	source_unload(s->buf, s->maplen);
	free(s->lines);
	free(s);
}

/* Line starts: offset 0 and every byte after a line end ("\n", "\r\n" or a
 * lone "\r", which old Mac files and XLA's lexer accept) that is not the end
 * of the input (a final newline does not open an empty last line, so "end
 * of input" errors land on the last real line).  The table is built on the
 * first diagnostic and only as far as the offsets asked for (a finding
 * near the top never reads the rest of a large file), with memchr. */
static void source_add_line(struct source *s, uint64_t start)
{
	if (start >= s->len)
		return;
	if (s->nlines == s->lines_cap)
		s->lines = xreallocarray(s->lines, s->lines_cap = s->lines_cap ? 2 * s->lines_cap : 1024,
					 sizeof *s->lines);
	s->lines[s->nlines++] = start;
}

/* Indexes buf[from, to): to is a line start or the end. */
static void source_scan_lines(struct source *s, uint64_t from, uint64_t to)
{
	const char *p = s->buf + from, *end = s->buf + to;
	if (!memchr(p, '\r', (size_t)(end - p))) {
		for (const char *q; (q = memchr(p, '\n', (size_t)(end - p))); p = q + 1)
			source_add_line(s, (uint64_t)(q + 1 - s->buf));
		return;
	}
	for (const char *q = p; q < end; q++) {
		if (*q != '\n' && *q != '\r')
			continue;
		if (*q == '\r' && q + 1 < s->buf + s->len && q[1] == '\n')
			q++;
		source_add_line(s, (uint64_t)(q + 1 - s->buf));
	}
}

/* Extends the table until a line start lies past off (or the input ends). */
static void source_index(struct source *s, uint64_t off)
{
	if (!s->lines)
		source_add_line(s, 0);
	if (!s->nlines) {           /* empty input: one empty line */
		s->indexed = s->len;
		return;
	}
	while (s->indexed < s->len && s->lines[s->nlines - 1] <= off) {
		uint64_t to = off + (64 << 10) > s->indexed + (1 << 20) ? off + (64 << 10) : s->indexed + (1 << 20);
		if (to >= s->len) {
			to = s->len;
		} else {
			const char *nl = memchr(s->buf + to, '\n', (size_t)(s->len - to));
			to = nl ? (uint64_t)(nl - s->buf) + 1 : s->len;
		}
		source_scan_lines(s, s->indexed, to);
		source_drop(s, &s->lines_dropped, s->indexed);   /* indexed: read no more */
		s->indexed = to;
	}
}

/* Index of the line holding off (offsets past the end map to the last line). */
static uint64_t source_line_index(struct source *s, uint64_t off)
{
	source_index(s, off);
	uint64_t lo = 0, hi = s->nlines;   /* lines[lo] <= off < lines[hi] */
	while (hi > 1 && hi - lo > 1) {
		uint64_t mid = lo + (hi - lo) / 2;
		if (s->lines[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

static void source_line_at(struct source *s, uint64_t i, uint64_t *start, uint64_t *len)
{
	uint64_t b = s->nlines ? s->lines[i] : 0;
	uint64_t e = i + 1 < s->nlines ? s->lines[i + 1] : s->len;
	if (e > b && s->buf[e - 1] == '\n')
		e--;
	if (e > b && s->buf[e - 1] == '\r')
		e--;  /* CRLF, or a lone CR */
	*start = b;
	*len = e - b;
}

/* The table grows on demand, and threads parsing pieces of one input may
 * report at once: one lock (diagnostics are few; it is never contended). */
static pthread_mutex_t source_lines_lock = PTHREAD_MUTEX_INITIALIZER;

void source_position(struct source *s, uint64_t off, uint64_t *line, uint64_t *col)
{
	if (off > s->len)
		off = s->len;
	pthread_mutex_lock(&source_lines_lock);
	uint64_t i = source_line_index(s, off), start, len;
	source_line_at(s, i, &start, &len);
	pthread_mutex_unlock(&source_lines_lock);
	/* Offsets in the line terminator (or at a final newline's end) point
	 * just past the text, where an editor would put the cursor. */
	uint64_t c = off - start;
	if (c > len)
		c = len;
	*line = i + 1;
	*col = c + 1;
}

uint64_t source_line_offset(struct source *s, uint64_t line)
{
	pthread_mutex_lock(&source_lines_lock);
	source_index(s, 0);
	while (s->nlines < line && s->indexed < s->len)
		source_index(s, s->lines[s->nlines - 1]);
	uint64_t off = !s->nlines || !line ? 0 : s->lines[(line < s->nlines ? line : s->nlines) - 1];
	pthread_mutex_unlock(&source_lines_lock);
	return off;
}

void source_line(struct source *s, uint64_t off, uint64_t *start, uint64_t *len)
{
	if (off > s->len)
		off = s->len;
	pthread_mutex_lock(&source_lines_lock);
	source_line_at(s, source_line_index(s, off), start, len);
	pthread_mutex_unlock(&source_lines_lock);
}
