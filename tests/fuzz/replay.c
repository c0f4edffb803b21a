/* replay.c - plain main() that feeds files (or every file of the given
 * directories, dot files and README* excepted) to LLVMFuzzerTestOneInput,
 * so saved crashers run in `make check` without clang or libFuzzer.
 * Prints one summary line; a failing input aborts or trips a sanitizer, and
 * one running past REPLAY_SECONDS (libFuzzer's -timeout) aborts naming it. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "arena.h"
#include "fuzz.h"
#include "../watchdog.h"

/* Generous beside the fuzzers' 10 s: sanitizer builds are slower. */
#define REPLAY_SECONDS 60

static unsigned replayed;

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return 1;
	}
	size_t cap = 4096, n = 0, got;
	char *buf = xmalloc(cap);
	while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap)
			buf = xreallocarray(buf, cap *= 2, 1);
	}
	fclose(f);
	watchdog_arm("replay", path, REPLAY_SECONDS);
	LLVMFuzzerTestOneInput((const uint8_t *)buf, n);
	watchdog_disarm();
	free(buf);
	replayed++;
	return 0;
}

static int replay_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int replay_path(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return 0;   /* an absent directory is an empty one */
	if (!S_ISDIR(st.st_mode))
		return replay_file(path);
	DIR *dir = opendir(path);
	if (!dir) {
		perror(path);
		return 1;
	}
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	while ((de = readdir(dir)) != NULL) {
		if (de->d_name[0] == '.' || strncmp(de->d_name, "README", 6) == 0)
			continue;
		if (n == cap)
			names = xreallocarray(names, cap = cap ? cap * 2 : 64, sizeof *names);
		size_t len = strlen(path) + strlen(de->d_name) + 2;
		names[n] = xmalloc(len);
		snprintf(names[n++], len, "%s/%s", path, de->d_name);
	}
	closedir(dir);
	if (n)
		qsort(names, n, sizeof *names, replay_cmp);
	int rc = 0;
	for (size_t i = 0; i < n; i++) {
		rc |= replay_path(names[i]);
		free(names[i]);
	}
	free(names);
	return rc;
}

int main(int argc, char **argv)
{
	int rc = 0;
	for (int i = 1; i < argc; i++)
		rc |= replay_path(argv[i]);
	const char *self = strrchr(argv[0], '/');
	fprintf(stderr, "%s: %u inputs replayed\n", self ? self + 1 : argv[0], replayed);
	return rc;
}
