/* test_source.c - source loading (files, stdin, gzip, errors) and
 * offset -> line:col with LF, CRLF and missing final newlines. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <time.h>
#include <zlib.h>
#include "arena.h"
#include "source.h"
#include "unit.h"

static void check_pos(struct source *s, uint64_t off, uint64_t line, uint64_t col)
{
	uint64_t l, c;
	source_position(s, off, &l, &c);
	if (l != line || c != col)
		unit_fail(__FILE__, __LINE__, "offset %llu -> %llu:%llu, expected %llu:%llu",
			  (unsigned long long)off, (unsigned long long)l, (unsigned long long)c,
			  (unsigned long long)line, (unsigned long long)col);
}

static void check_line(struct source *s, uint64_t off, const char *text)
{
	uint64_t st, n;
	source_line(s, off, &st, &n);
	if (n != strlen(text) || memcmp(s->buf + st, text, n) != 0)
		unit_fail(__FILE__, __LINE__, "line at %llu is \"%.*s\", expected \"%s\"",
			  (unsigned long long)off, (int)n, s->buf + st, text);
}

static void source_lines_lf(void)
{
	const char *t = "ab\n\ncd\n";
	struct source *s = source_from_memory("m.hlo", t, strlen(t));
	CHECK_STR(s->path, "m.hlo");
	CHECK_INT(s->len, 7);
	CHECK(s->buf[7] == 0 && s->buf[8] == 0);
	CHECK(s->lines == NULL);   /* lazy */
	check_pos(s, 0, 1, 1);
	check_pos(s, 1, 1, 2);
	check_pos(s, 2, 1, 3);     /* the '\n' itself: just past the text */
	check_pos(s, 3, 2, 1);
	check_pos(s, 4, 3, 1);
	check_pos(s, 5, 3, 2);
	check_pos(s, 6, 3, 3);
	check_pos(s, 7, 3, 3);     /* end of input after a final newline */
	check_pos(s, 99, 3, 3);    /* past the end: clamped */
	CHECK_INT(s->nlines, 3);
	check_line(s, 0, "ab");
	check_line(s, 3, "");
	check_line(s, 5, "cd");
	check_line(s, 7, "cd");
	source_free(s);
}

static void source_lines_crlf(void)
{
	const char *t = "ab\r\ncd\r\nef";
	struct source *s = source_from_memory("m.hlo", t, strlen(t));
	check_pos(s, 2, 1, 3);     /* '\r' */
	check_pos(s, 3, 1, 3);     /* '\n' of CRLF, clamped to the text end */
	check_pos(s, 4, 2, 1);
	check_pos(s, 9, 3, 2);
	check_pos(s, 10, 3, 3);    /* end of input without final newline */
	check_line(s, 0, "ab");
	check_line(s, 5, "cd");
	check_line(s, 10, "ef");
	source_free(s);
}

static void source_lines_edge(void)
{
	struct source *s = source_from_memory("e", "", 0);
	check_pos(s, 0, 1, 1);
	check_line(s, 0, "");
	CHECK(s->buf[0] == 0 && s->buf[1] == 0);
	source_free(s);
	s = source_from_memory("n", "\n", 1);
	check_pos(s, 0, 1, 1);
	check_pos(s, 1, 1, 1);
	source_free(s);
	s = source_from_memory("x", "x", 1);
	check_pos(s, 1, 1, 2);
	source_free(s);
	/* Many lines: binary search. */
	enum { N = 10000 };
	char *big = malloc(N * 4);
	for (int i = 0; i < N; i++)
		memcpy(big + 4 * i, "abc\n", 4);
	s = source_from_memory("big", big, N * 4);
	check_pos(s, 4 * 5000 + 2, 5001, 3);
	check_pos(s, 4 * N - 1, N, 4);
	check_pos(s, 4 * N, N, 4);
	CHECK_INT(s->nlines, N);
	source_free(s);
	free(big);
}

static char *write_temp(const void *data, size_t n)
{
	char *path = malloc(64);
	strcpy(path, "/tmp/hlolint-unit-XXXXXX");
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	CHECK(write(fd, data, n) == (ssize_t)n);
	close(fd);
	return path;
}

static size_t gzip_bytes(const char *in, size_t n, unsigned char *out, size_t cap)
{
	z_stream z;
	memset(&z, 0, sizeof z);
	CHECK(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK);
	z.next_in = (Bytef *)(uintptr_t)in;
	z.avail_in = (uInt)n;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	CHECK(deflate(&z, Z_FINISH) == Z_STREAM_END);
	size_t len = cap - z.avail_out;
	deflateEnd(&z);
	return len;
}

static void source_file_plain(void)
{
	const char *t = "HloModule m\n";
	char *path = write_temp(t, strlen(t));
	char err[256] = "";
	struct source *s = source_load(path, err, sizeof err);
	CHECK(s != NULL);
	if (s) {
		CHECK_STR(s->path, path);
		CHECK_INT(s->len, strlen(t));
		CHECK(memcmp(s->buf, t, strlen(t)) == 0);
		CHECK(s->buf[s->len] == 0 && s->buf[s->len + 1] == 0);
		source_free(s);
	}
	unlink(path);
	free(path);
	/* Empty file. */
	path = write_temp("", 0);
	s = source_load(path, err, sizeof err);
	CHECK(s != NULL && s->len == 0 && s->buf[0] == 0);
	source_free(s);
	unlink(path);
	free(path);
}

/* A mapped file whose size is a multiple of the page, or one short of it,
 * still reads two NULs after its end. */
static void source_file_mapped(void)
{
	size_t sizes[] = { 4096, 8192, 4095, 8191, 12290 };
	for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
		char *t = xmalloc(sizes[k]);
		memset(t, 'x', sizes[k]);
		t[sizes[k] - 1] = '\n';
		char *path = write_temp(t, sizes[k]);
		char err[256] = "";
		struct source *s = source_load(path, err, sizeof err);
		CHECK(s != NULL);
		if (s) {
			CHECK(s->maplen > 0);
			CHECK_INT(s->len, sizes[k]);
			CHECK(memcmp(s->buf, t, sizes[k]) == 0);
			CHECK(s->buf[s->len] == 0 && s->buf[s->len + 1] == 0);
			source_free(s);
		}
		unlink(path);
		free(path);
		free(t);
	}
}

/* Pages of path in the page cache (mincore on a mapping never touched). */
static size_t cached_pages(const char *path, size_t n)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), np = (n + page - 1) / page, got = 0;
	int fd = open(path, O_RDONLY);
	void *p = fd >= 0 ? mmap(NULL, n, PROT_READ, MAP_SHARED, fd, 0) : MAP_FAILED;
	unsigned char *v = xmalloc(np);
	if (p != MAP_FAILED && mincore(p, n, v) == 0)
		for (size_t k = 0; k < np; k++)
			got += v[k] & 1;
	if (p != MAP_FAILED)
		munmap(p, n);
	if (fd >= 0)
		close(fd);
	free(v);
	return got;
}

/* Evicts path from the page cache; false when the kernel kept it. */
static bool evict(const char *path, size_t n)
{
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return false;
	fsync(fd);
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
	return cached_pages(path, n) < n / 4096 / 8;
}

/* A mapped file larger than one read-ahead step comes into the page cache
 * on the helper thread, without the caller touching a page; with
 * HLO_NO_READAHEAD set (the control) it does not. */
static void source_file_readahead(void)
{
	size_t n = (size_t)24 << 20, page = (size_t)sysconf(_SC_PAGESIZE);
	char *t = xmalloc(n);
	for (size_t k = 0; k < n; k++)
		t[k] = k % 64 == 63 ? '\n' : (char)('a' + k % 26);
	char *path = write_temp(t, n);
	char err[256] = "";
	if (!evict(path, n)) {
		printf("  (source_file_readahead: skipped, the kernel would not evict %s)\n", path);
		goto out;
	}
	setenv("HLO_NO_READAHEAD", "1", 1);
	struct source *s = source_load(path, err, sizeof err);
	unsetenv("HLO_NO_READAHEAD");
	CHECK(s && !s->ahead);
	struct timespec ms = { 0, 50 * 1000 * 1000 };
	nanosleep(&ms, NULL);
	CHECK(cached_pages(path, n) < n / page / 2);
	source_free(s);
	s = source_load(path, err, sizeof err);
	CHECK(s && s->ahead);
	size_t got = 0;
	for (int tries = 0; tries < 200 && (got = cached_pages(path, n)) < n / page; tries++)
		nanosleep(&ms, NULL);
	CHECK_INT(got, n / page);
	CHECK(s && memcmp(s->buf, t, n) == 0);
	source_free(s);
out:
	unlink(path);
	free(path);
	free(t);
}

/* source_drop gives back whole pages behind the mark, a batch (2 MiB) at
 * a time and never backwards; the text reads the same afterwards. */
static void source_file_drop(void)
{
	size_t n = (size_t)8 << 20, mib = (size_t)1 << 20;
	char *t = xmalloc(n);
	for (size_t k = 0; k < n; k++)
		t[k] = k % 64 == 63 ? '\n' : (char)('a' + k % 26);
	char *path = write_temp(t, n);
	char err[256] = "";
	struct source *s = source_load(path, err, sizeof err);
	CHECK(s != NULL && s->maplen > 0);
	if (s && s->maplen) {
		CHECK(memcmp(s->buf, t, n) == 0);    /* every page resident */
		CHECK_INT(source_resident_kib(s), 8192);
		uint64_t mark = 0;
		source_drop(s, &mark, mib);          /* under a batch: kept */
		CHECK_INT(mark, 0);
		CHECK_INT(source_resident_kib(s), 8192);
		source_drop(s, &mark, 3 * mib + 100);
		CHECK_INT(mark, 3 * mib + 100);
		CHECK_INT(source_resident_kib(s), 5120);
		source_drop(s, &mark, 2 * mib);      /* backwards: nothing */
		CHECK_INT(mark, 3 * mib + 100);
		CHECK(memcmp(s->buf, t, n) == 0);    /* dropped pages read again */
		CHECK_INT(source_resident_kib(s), 8192);
		source_drop_all(s);
		CHECK_INT(source_resident_kib(s), 0);
		CHECK(source_equals(s, t, n));
		CHECK_INT(source_resident_kib(s), 0);    /* compared and dropped behind */
		t[n - 2] = '!';
		CHECK(!source_equals(s, t, n));
		CHECK(!source_equals(s, t, n - 1));
		source_free(s);
	}
	struct source *m = source_from_memory("m.hlo", t, 4096);
	uint64_t mark = 0;
	source_drop(m, &mark, 4096);                 /* a read buffer: nothing to drop */
	CHECK_INT(mark, 0);
	source_free(m);
	unlink(path);
	free(path);
	free(t);
}

/* A mapped file cut short under us: reading past its new end is an I/O
 * error (exit 2 with a message), not a crash.  In a child process. */
static void source_file_truncated(void)
{
	size_t n = 3 * 4096;
	char *t = xmalloc(n);
	memset(t, 'x', n);
	char *path = write_temp(t, n);
	int pipefd[2];
	CHECK(pipe(pipefd) == 0);
	pid_t pid = fork();
	if (pid == 0) {
		dup2(pipefd[1], STDERR_FILENO);
		char err[256];
		struct source *s = source_load(path, err, sizeof err);
		if (!s || !s->maplen || truncate(path, 0) != 0)
			_exit(7);
		volatile char c = s->buf[n - 1];   /* faults: the page is gone */
		(void)c;
		_exit(0);
	}
	close(pipefd[1]);
	char msg[256] = "";
	ssize_t got = read(pipefd[0], msg, sizeof msg - 1);
	msg[got > 0 ? got : 0] = 0;
	close(pipefd[0]);
	int status = 0;
	waitpid(pid, &status, 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 2);
	CHECK(strstr(msg, "truncated while it was being read") != NULL);
	unlink(path);
	free(path);
	free(t);
}

/* The line table is built only as far as asked: positions asked in any
 * order over 3 MB of mixed line ends match a byte-by-byte count. */
static void source_lines_lazy(void)
{
	size_t n = 3u << 20;
	char *t = xmalloc(n);
	uint64_t *start = xmalloc((n + 1) * sizeof *start), nstart = 1;
	start[0] = 0;
	unsigned r = 12345;
	for (size_t i = 0; i < n; i++) {
		r = r * 1103515245u + 12345u;
		unsigned v = (r >> 16) % 64;
		/* lone CRs only in the second megabyte: the other two take memchr's path */
		t[i] = v == 0 ? '\n' : v == 1 && i >> 20 == 1 ? '\r' : 'a' + v % 26;
	}
	for (size_t i = 0; i < n; i++)
		if ((t[i] == '\n' || (t[i] == '\r' && (i + 1 == n || t[i + 1] != '\n'))) && i + 1 < n)
			start[nstart++] = i + 1;
	struct source *s = source_from_memory("lazy.hlo", t, n);
	check_pos(s, 10, 1, 11);
	CHECK(s->indexed < s->len);
	uint64_t probes[] = { n - 1, 5, (1u << 20) + 17, (2u << 20) - 3, (1u << 20) - 1, n / 2, 0,
			      (1u << 20) + 4099, n - 70000 };
	for (size_t k = 0; k < sizeof probes / sizeof *probes; k++) {
		uint64_t off = probes[k], lo = 0;
		while (lo + 1 < nstart && start[lo + 1] <= off)
			lo++;
		uint64_t e = lo + 1 < nstart ? start[lo + 1] : n;
		if (e > start[lo] && t[e - 1] == '\n')
			e--;
		if (e > start[lo] && t[e - 1] == '\r')
			e--;
		uint64_t c = off - start[lo] < e - start[lo] ? off - start[lo] : e - start[lo];
		check_pos(s, off, lo + 1, c + 1);
	}
	CHECK_INT(s->nlines, nstart);
	source_free(s);
	/* Line numbers to offsets, asked from a fresh table. */
	s = source_from_memory("lazy.hlo", t, n);
	CHECK_INT(source_line_offset(s, nstart), start[nstart - 1]);
	CHECK_INT(source_line_offset(s, nstart / 3), start[nstart / 3 - 1]);
	CHECK_INT(source_line_offset(s, 1), 0);
	CHECK_INT(source_line_offset(s, nstart + 5), start[nstart - 1]);
	source_free(s);
	free(start);
	free(t);
}

static void source_file_gzip(void)
{
	/* Compressible and bigger than the first output guess (4x input). */
	size_t n = 1 << 20;
	char *text = malloc(n);
	for (size_t i = 0; i < n; i++)
		text[i] = "ENTRY %main { ROOT %x = f32[] constant(0) }\n"[i % 44];
	size_t cap = n + 1024;
	unsigned char *gz = malloc(2 * cap);
	size_t m = gzip_bytes(text, n, gz, cap);
	CHECK(gz[0] == 0x1f && gz[1] == 0x8b);
	char *path = write_temp(gz, m);
	char err[256] = "";
	struct source *s = source_load(path, err, sizeof err);
	CHECK(s != NULL);
	if (s) {
		CHECK_INT(s->len, n);
		CHECK(memcmp(s->buf, text, n) == 0);
		CHECK(s->buf[n] == 0 && s->buf[n + 1] == 0);
		source_free(s);
	}
	unlink(path);
	free(path);

	/* Two concatenated members decode to the concatenation (as gzip -d). */
	size_t m2 = gzip_bytes("tail\n", 5, gz + m, cap);
	path = write_temp(gz, m + m2);
	s = source_load(path, err, sizeof err);
	CHECK(s != NULL);
	if (s) {
		CHECK_INT(s->len, n + 5);
		CHECK(memcmp(s->buf + n, "tail\n", 5) == 0);
		source_free(s);
	}
	unlink(path);
	free(path);

	/* Truncated stream. */
	path = write_temp(gz, m / 2);
	s = source_load(path, err, sizeof err);
	CHECK(s == NULL);
	CHECK(strncmp(err, "cannot decompress '", 19) == 0);
	CHECK(strstr(err, "unexpected end of gzip data") != NULL);
	unlink(path);
	free(path);

	/* Corrupt body. */
	for (size_t i = 20; i < 60; i++)
		gz[i] ^= 0x5a;
	path = write_temp(gz, m);
	s = source_load(path, err, sizeof err);
	CHECK(s == NULL);
	CHECK(strstr(err, "gzip data") != NULL);
	unlink(path);
	free(path);
	free(gz);
	free(text);
}

static void source_errors(void)
{
	char err[256] = "";
	struct source *s = source_load("/nonexistent/dir/x.hlo", err, sizeof err);
	CHECK(s == NULL);
	CHECK_STR(err, "cannot open '/nonexistent/dir/x.hlo': No such file or directory");
	s = source_load("/tmp", err, sizeof err);
	CHECK(s == NULL);
	CHECK_STR(err, "cannot read '/tmp': Is a directory");
}

static void source_stdin(void)
{
	/* Feed "-" from a pipe bigger than a pipe buffer, written by a child. */
	size_t n = 300000;
	int p[2];
	CHECK(pipe(p) == 0);
	pid_t pid = fork();
	if (pid == 0) {
		close(p[0]);
		char chunk[1000];
		memset(chunk, 'x', sizeof chunk);
		chunk[sizeof chunk - 1] = '\n';
		for (size_t i = 0; i < n / sizeof chunk; i++)
			if (write(p[1], chunk, sizeof chunk) != (ssize_t)sizeof chunk)
				_exit(1);
		_exit(0);
	}
	close(p[1]);
	int saved = dup(0);
	dup2(p[0], 0);
	close(p[0]);
	char err[256] = "";
	struct source *s = source_load("-", err, sizeof err);
	dup2(saved, 0);
	close(saved);
	int status = 0;
	waitpid(pid, &status, 0);
	CHECK(s != NULL);
	if (s) {
		CHECK_STR(s->path, "<stdin>");
		CHECK_INT(s->len, n);
		CHECK(s->buf[n] == 0 && s->buf[n + 1] == 0);
		check_pos(s, 1000, 2, 1);
		source_free(s);
	}
}

const struct unit_case unit_source_cases[] = {
	{ "source_lines_lf", source_lines_lf },
	{ "source_lines_crlf", source_lines_crlf },
	{ "source_lines_edge", source_lines_edge },
	{ "source_file_plain", source_file_plain },
	{ "source_file_mapped", source_file_mapped },
	{ "source_file_drop", source_file_drop },
	{ "source_file_readahead", source_file_readahead },
	{ "source_file_truncated", source_file_truncated },
	{ "source_lines_lazy", source_lines_lazy },
	{ "source_file_gzip", source_file_gzip },
	{ "source_errors", source_errors },
	{ "source_stdin", source_stdin },
	{ NULL, NULL },
};
