/* measure.c - runs one command RUNS times (fork/exec, stdout to /dev/null)
 * and prints one row of `make bench`'s table: its best wall time as MB/s
 * over FILE, that time as a multiple of a base command's (wc -l), peak RSS
 * (wait4's ru_maxrss) and peak anonymous memory (RssAnon of
 * /proc/PID/status, sampled every millisecond) as multiples of FILE, and
 * whether the targets given with -t are met.  It does no warm-up.
 *
 * usage: measure [-r RUNS] [-b BASE_SECONDS] [-o SECONDS_FILE]
 *                [-t MIN_MBPS,MAX_RSS,MAX_ANON] LABEL FILE COMMAND [ARGS...]
 *   -o writes the best time to SECONDS_FILE (the base of later rows);
 *   a target of 0 is not checked.
 * Exit status: the command's when it failed, 3 when a target was missed. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double measure_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* RssAnon of pid in bytes, 0 when it cannot be read (the process ended). */
static double measure_anon(pid_t pid)
{
	char path[64], line[256];
	snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
	FILE *f = fopen(path, "r");
	double kb = 0;
	if (!f)
		return 0;
	while (fgets(line, sizeof line, f))
		if (!strncmp(line, "RssAnon:", 8)) {
			kb = strtod(line + 8, NULL);
			break;
		}
	fclose(f);
	return kb * 1024;
}

struct measure_run {
	double secs, rss, anon;
	int code;
};

/* One run of argv; false when it could not be started. */
static int measure_once(char **argv, struct measure_run *r)
{
	fflush(stdout);
	double t0 = measure_now();
	pid_t pid = fork();
	if (pid < 0) {
		perror("measure: fork");
		return 0;
	}
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);
		if (fd >= 0)
			dup2(fd, 1);
		execvp(argv[0], argv);
		fprintf(stderr, "measure: cannot run '%s': %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	int status;
	struct rusage ru;
	r->anon = 0;
	for (;;) {
		pid_t w = wait4(pid, &status, WNOHANG, &ru);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			perror("measure: wait4");
			return 0;
		}
		double a = measure_anon(pid);
		if (a > r->anon)
			r->anon = a;
		struct timespec ms = { 0, 1000000 };
		nanosleep(&ms, NULL);
	}
	r->secs = measure_now() - t0;
	r->rss = (double)ru.ru_maxrss * 1024;   /* ru_maxrss is KiB on Linux */
	r->code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	return 1;
}

static void measure_usage(void)
{
	fprintf(stderr, "usage: measure [-r RUNS] [-b BASE_SECONDS] [-o SECONDS_FILE] "
			"[-t MIN_MBPS,MAX_RSS,MAX_ANON] LABEL FILE COMMAND [ARGS...]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	int runs = 1, i = 1;
	double base = 0, want_mbps = 0, want_rss = 0, want_anon = 0;
	const char *out = NULL;
	for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
		if (!strcmp(argv[i], "-r"))
			runs = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "-b"))
			base = atof(argv[i + 1]);
		else if (!strcmp(argv[i], "-o"))
			out = argv[i + 1];
		else if (!strcmp(argv[i], "-t"))
			sscanf(argv[i + 1], "%lf,%lf,%lf", &want_mbps, &want_rss, &want_anon);
		else
			measure_usage();
	}
	if (argc - i < 3 || runs < 1)
		measure_usage();
	const char *label = argv[i], *file = argv[i + 1];
	struct stat st;
	if (stat(file, &st) != 0) {
		fprintf(stderr, "measure: cannot stat '%s': %s\n", file, strerror(errno));
		return 2;
	}
	double mb = (double)st.st_size / 1e6;
	struct measure_run best = { 0 }, r;
	for (int k = 0; k < runs; k++) {
		if (!measure_once(argv + i + 2, &r))
			return 2;
		if (r.code) {
			printf("%-12s exit %d\n", label, r.code);
			return r.code;
		}
		if (!k || r.secs < best.secs)
			best.secs = r.secs;
		best.rss = r.rss > best.rss ? r.rss : best.rss;
		best.anon = r.anon > best.anon ? r.anon : best.anon;
	}
	double mbps = best.secs > 0 ? mb / best.secs : 0, rss = best.rss / 1e6 / mb, anon = best.anon / 1e6 / mb;
	char vs[32] = "-";
	if (base > 0)
		snprintf(vs, sizeof vs, "%.0fx", best.secs / base);
	printf("%-9s %7.1f %7.2f s %7s %7.2fx %7.2fx", label, mbps, best.secs, vs, rss, anon);
	int missed = 0;
	if (want_mbps > 0 || want_rss > 0 || want_anon > 0) {
		const char *sep = "  [";
		if (want_mbps > 0) {
			printf("%s>=%.0f %s", sep, want_mbps, mbps >= want_mbps ? "ok" : (missed = 1, "MISSED"));
			sep = ", ";
		}
		if (want_rss > 0) {
			printf("%s<=%.2gx %s", sep, want_rss, rss <= want_rss ? "ok" : (missed = 1, "MISSED"));
			sep = ", ";
		}
		if (want_anon > 0)
			printf("%s<=%.2gx %s", sep, want_anon, anon <= want_anon ? "ok" : (missed = 1, "MISSED"));
		putchar(']');
	}
	putchar('\n');
	if (out) {
		FILE *f = fopen(out, "w");
		if (!f || fprintf(f, "%.6f\n", best.secs) < 0 || fclose(f) != 0) {
			fprintf(stderr, "measure: cannot write '%s'\n", out);
			return 2;
		}
	}
	return missed ? 3 : 0;
}
