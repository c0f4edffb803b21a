/* output.c - writes a finished result to a user-named path (output.h):
 * standard output, devices and pipes directly, symlinks through to their
 * target, files through a temporary file and a rename so a reader never
 * sees half a file.  Also whether a path may be written at all (never an
 * input of the run, a read-only file only with --force), and the signal
 * set-up that keeps a killed write from leaving its temporary file behind.
 * It never decides what to write. */
#include "output.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <dirent.h>
#include "arena.h"
#include "diag.h"
#include "source.h"

/* The temporary file being written, for the signal handler. */
static char *volatile output_tmp;

static void output_on_signal(int sig)
{
	char *t = output_tmp;
	if (t)
		unlink(t);
	signal(sig, SIG_DFL);
	raise(sig);
}

void output_init_signals(void)
{
	signal(SIGXFSZ, SIG_IGN);
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	for (size_t k = 0; k < sizeof sigs / sizeof sigs[0]; k++) {
		struct sigaction sa;
		memset(&sa, 0, sizeof sa);
		sigaction(sigs[k], NULL, &sa);
		if (sa.sa_handler == SIG_IGN)
			continue;   /* nohup and friends: keep ignoring */
		sa.sa_handler = output_on_signal;
		sigemptyset(&sa.sa_mask);
		sa.sa_flags = 0;
		sigaction(sigs[k], &sa, NULL);
	}
}

static bool output_write_fd(int fd, const char *data, size_t n)
{
	for (size_t off = 0; off < n;) {
		ssize_t w = write(fd, data + off, n - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (w == 0)
				errno = EIO;
			return false;
		}
		off += (size_t)w;
	}
	return true;
}

static char *output_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xmalloc(n), s, n);
}

/* Follows path's symlinks to the final target (at most 40, as the kernel
 * does).  *magic is set on reaching a /proc or /dev/fd link, whose text
 * ("pipe:[12]", a deleted file) is no path to write to.  Returns a malloc'd
 * path (possibly one that does not exist yet), or NULL with errno set. */
static char *output_follow(const char *path, bool *magic)
{
	char *cur = output_strdup(path);
	*magic = false;
	for (int hops = 0; hops < 40; hops++) {
		struct stat st;
		if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
			return cur;
		if (!strncmp(cur, "/proc/", 6) || !strncmp(cur, "/dev/fd/", 8)) {
			*magic = true;
			return cur;
		}
		size_t cap = (size_t)st.st_size + 2 > 256 ? (size_t)st.st_size + 2 : 256;
		char *to = xmalloc(cap);
		ssize_t got = readlink(cur, to, cap - 1);
		if (got < 0) {
			int e = errno;
			free(to);
			free(cur);
			errno = e;
			return NULL;
		}
		to[got] = 0;
		if (to[0] == '/') {
			free(cur);
			cur = to;
			continue;
		}
		const char *slash = strrchr(cur, '/');
		size_t dl = slash ? (size_t)(slash - cur) + 1 : 0;
		char *next = xmalloc(dl + (size_t)got + 1);
		memcpy(next, cur, dl);
		memcpy(next + dl, to, (size_t)got + 1);
		free(to);
		free(cur);
		cur = next;
	}
	free(cur);
	errno = ELOOP;
	return NULL;
}

/* Into an existing device, FIFO or magic link: appended, never renamed. */
static bool output_direct(const char *path, const char *data, size_t n)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return false;
	bool ok = output_write_fd(fd, data, n);
	int e = errno;
	if (close(fd) != 0 && ok)
		return false;
	errno = e;
	return ok;
}

/* Temporary files are named ".NAME.hlolint-PID-XXXXXX" beside NAME: a run
 * killed while writing (SIGKILL; other signals remove it) leaves one, and
 * the next run writing NAME removes those whose process is gone. */
static void output_remove_stale(const char *dir, const char *base)
{
	DIR *d = opendir(*dir ? dir : ".");
	if (!d)
		return;
	size_t bl = strlen(base);
	struct dirent *e;
	while ((e = readdir(d))) {
		const char *n = e->d_name;
		if (n[0] != '.' || strncmp(n + 1, base, bl) || strncmp(n + 1 + bl, ".hlolint-", 9))
			continue;
		char *end;
		long pid = strtol(n + 1 + bl + 9, &end, 10);
		if (pid <= 0 || *end != '-' || strlen(end) != 7 || pid == (long)getpid() ||
		    kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		size_t len = strlen(dir) + strlen(n) + 1;
		char *path = xmalloc(len);
		snprintf(path, len, "%s%s", dir, n);
		if (unlink(path) == 0)
			fprintf(stderr, "hlolint: note: removed '%s', left by an interrupted run (process %ld)\n", path, pid);
		free(path);
	}
	closedir(d);
}

/* A regular file or a new one: temporary file beside it, then rename. */
static bool output_replace(const char *path, const char *data, size_t n)
{
	size_t pl = strlen(path);
	const char *slash = strrchr(path, '/');
	size_t dl = slash ? (size_t)(slash - path) + 1 : 0;
	char *dir = xmalloc(dl + 1);
	memcpy(dir, path, dl);
	dir[dl] = 0;
	output_remove_stale(dir, path + dl);
	free(dir);
	char *tmp = xmalloc(pl + 48);
	snprintf(tmp, pl + 48, "%.*s.%s.hlolint-%ld-XXXXXX", (int)dl, path, path + dl, (long)getpid());
	/* Known to the signal handler before the file exists: mkstemp writes
	 * the name into tmp, then creates it, so a signal between the two
	 * no longer leaves the file behind (seen under ASan in
	 * robust/test_output_targets). */
	output_tmp = tmp;
	int fd = mkstemp(tmp);
	if (fd < 0) {
		output_tmp = NULL;
		free(tmp);
		return false;
	}
	struct stat st;
	mode_t mode;
	if (stat(path, &st) == 0) {
		mode = st.st_mode & 07777;
	} else {
		mode_t um = umask(0);
		umask(um);
		mode = 0666 & ~um;
	}
	bool ok = output_write_fd(fd, data, n) && fchmod(fd, mode) == 0 && fsync(fd) == 0;
	int e = errno;
	if (close(fd) != 0 && ok)
		ok = false, e = errno;
	if (ok && rename(tmp, path) != 0)
		ok = false, e = errno;
	if (!ok)
		unlink(tmp);
	output_tmp = NULL;
	free(tmp);
	errno = e;
	return ok;
}

static bool output_is_stdout(const char *path)
{
	return !strcmp(path, "-") || !strcmp(path, "/dev/stdout") || !strcmp(path, "/dev/fd/1") ||
	       !strcmp(path, "/proc/self/fd/1");
}

static bool output_force;

void output_set_force(bool force)
{
	output_force = force;
}

bool output_allowed(const char *path, bool in_place)
{
	struct stat st;
	if (output_is_stdout(path) || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return true;
	if (!in_place && source_is_input(&st)) {
		diag_line(stderr, "hlolint: error: '%s' is an input of this run; not overwriting it\n", path);
		return false;
	}
	if (!output_force && (!(st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) || access(path, W_OK) != 0)) {
		diag_line(stderr, "hlolint: error: '%s' is read-only; not replacing it (--force does)\n", path);
		return false;
	}
	return true;
}

bool output_same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	if (!strcmp(a, b))
		return true;
	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

bool output_not_input(const char *path, const char *const *inputs, uint32_t n)
{
	if (output_is_stdout(path))
		return true;
	for (uint32_t k = 0; k < n; k++)
		if (strcmp(inputs[k], "-") && output_same_file(path, inputs[k])) {
			diag_line(stderr, "hlolint: error: '%s' is an input of this run; not overwriting it\n", path);
			return false;
		}
	return true;
}

static bool output_write_as(const char *path, const char *data, size_t n, const char *what, bool in_place)
{
	if (!output_allowed(path, in_place))
		return false;
	const char *sp = what ? " " : "";
	what = what ? what : "";
	if (output_is_stdout(path)) {
		/* A failed standard output is told once, by the command line's
		 * main (main_stdout_done), whatever wrote to it. */
		return fwrite(data, 1, n, stdout) == n && fflush(stdout) == 0;
	}
	bool magic, ok = false;
	char *target = output_follow(path, &magic);
	if (target) {
		struct stat st;
		bool exists = stat(target, &st) == 0;
		if (magic || (exists && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)))
			ok = output_direct(target, data, n);
		else if (exists && S_ISDIR(st.st_mode))
			errno = EISDIR;
		else
			ok = output_replace(target, data, n);
	}
	if (!ok) {
		int e = errno;
		if (target && strcmp(target, path))
			fprintf(stderr, "hlolint: error: cannot write %s%s'%s' (the target of '%s'): %s\n", what, sp, target,
				path, strerror(e));
		else
			fprintf(stderr, "hlolint: error: cannot write %s%s'%s': %s\n", what, sp, path, strerror(e));
	}
	free(target);
	return ok;
}

bool output_write(const char *path, const char *data, size_t n, const char *what)
{
	return output_write_as(path, data, n, what, false);
}

bool output_write_in_place(const char *path, const char *data, size_t n)
{
	return output_write_as(path, data, n, NULL, true);
}
