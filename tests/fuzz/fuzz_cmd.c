/* fuzz_cmd.c - the command fuzz targets' runner: the input goes to one
 * temporary file (rewritten for every input) whose path ends the argv, and
 * stdout is sent to /dev/null once.  It only drives commands; what they
 * check lives in src/. */
#include "fuzz_cmd.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char fuzz_cmd_path[4096];
static int fuzz_cmd_fd = -1;

static void fuzz_cmd_cleanup(void)
{
	if (fuzz_cmd_fd >= 0)
		unlink(fuzz_cmd_path);
}

static void fuzz_cmd_init(void)
{
	const char *dir = getenv("TMPDIR");
	snprintf(fuzz_cmd_path, sizeof fuzz_cmd_path, "%s/hlolint-fuzz-XXXXXX.hlo", dir && *dir ? dir : "/tmp");
	fuzz_cmd_fd = mkstemps(fuzz_cmd_path, 4);
	if (fuzz_cmd_fd < 0 || !freopen("/dev/null", "w", stdout)) {
		perror("fuzz_cmd: set-up");
		abort();
	}
	atexit(fuzz_cmd_cleanup);
}

/* cmd with argv = args and path, as main runs it; aborts on a status
 * outside 0, 1, 2. */
static int fuzz_cmd_call(int (*cmd)(const struct args *), const char *const *args, const char *path)
{
	char *argv[64];
	int argc = 0;
	for (; args[argc] && argc < 62; argc++)
		argv[argc] = (char *)args[argc];
	argv[argc++] = (char *)path;
	argv[argc] = NULL;
	struct args a;
	int rc = 2;
	if (args_parse(args_command(args[0]), argc, argv, &a))
		rc = cmd(&a);
	args_free(&a);
	fflush(stdout);
	if (rc < 0 || rc > 2) {
		fprintf(stderr, "fuzz_cmd: %s returned %d (want 0, 1 or 2)\n", args[0], rc);
		abort();
	}
	return rc;
}

int fuzz_cmd_run(int (*cmd)(const struct args *), const char *const *args, const uint8_t *data, size_t size)
{
	if (fuzz_cmd_fd < 0)
		fuzz_cmd_init();
	if (ftruncate(fuzz_cmd_fd, 0) != 0 || pwrite(fuzz_cmd_fd, data, size, 0) != (ssize_t)size) {
		perror("fuzz_cmd: write input");
		abort();
	}
	return fuzz_cmd_call(cmd, args, fuzz_cmd_path);
}

static char fuzz_cmd_dir[4096];

static void fuzz_cmd_dir_cleanup(void)
{
	char path[4200];
	for (int k = 0; k < 2; k++) {
		snprintf(path, sizeof path, "%s/module_000%d.jit_f.after_optimizations.txt", fuzz_cmd_dir, k);
		unlink(path);
	}
	rmdir(fuzz_cmd_dir);
}

int fuzz_cmd_run_folder(int (*cmd)(const struct args *), const char *const *args, const uint8_t *data,
			size_t size)
{
	if (!fuzz_cmd_dir[0]) {
		const char *dir = getenv("TMPDIR");
		snprintf(fuzz_cmd_dir, sizeof fuzz_cmd_dir, "%s/hlolint-fuzz-XXXXXX", dir && *dir ? dir : "/tmp");
		if (!mkdtemp(fuzz_cmd_dir)) {
			perror("fuzz_cmd: set-up");
			abort();
		}
		atexit(fuzz_cmd_dir_cleanup);
	}
	char path[4200];
	for (int k = 0; k < 2; k++) {
		snprintf(path, sizeof path, "%s/module_000%d.jit_f.after_optimizations.txt", fuzz_cmd_dir, k);
		FILE *f = fopen(path, "wb");
		if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) {
			perror("fuzz_cmd: write input");
			abort();
		}
	}
	return fuzz_cmd_call(cmd, args, fuzz_cmd_dir);
}
