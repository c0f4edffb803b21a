/* dumpdir.c - chooses the modules of an XLA dump folder: XLA names them
 * module_<id>.<name>.<stage>.txt beside many sidecars; we keep, per module
 * id, the newest after-optimizations module (and the before-optimizations
 * one when asked).  It does not parse them. */
#include "dumpdir.h"
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "arena.h"

bool dumpdir_is_dir(const char *path)
{
	struct stat st;
	return path && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool dumpdir_ends(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && !strcmp(s + n - k, suffix);
}

/* A text module by its extension (gzip allowed). */
static bool dumpdir_is_text(const char *name)
{
	static const char *const ext[] = { ".txt", ".hlo", ".hlotxt", ".txt.gz", ".hlo.gz", NULL };
	for (int k = 0; ext[k]; k++)
		if (dumpdir_ends(name, ext[k]))
			return true;
	return false;
}

/* Files XLA writes beside the modules. */
static bool dumpdir_is_sidecar(const char *name)
{
	/* Since libtpu 0.0.4x a TPU dump also holds the module before and after
	 * buffer assignment under after_optimizations_* names, its live ranges
	 * and the compile's arguments: sidecars too (tests/dumps/tpu-v5e). */
	static const char *const marks[] = { "buffer-assignment", "memory-usage-report", "tpu_comp_env",
					     "debug_options", "execution_options", "autotune", ".ir-", "-ptx",
					     "thunk_sequence", "live-range", "_buffer_assignment", "target_arguments",
					     "hlo_module_config", "transfer_stats", "basic_compiler_metadata",
					     "flagfile", "after_codegen", NULL };
	for (int k = 0; marks[k]; k++)
		if (strstr(name, marks[k]))
			return true;
	return false;
}

enum dumpdir_stage { STAGE_NONE, STAGE_BEFORE, STAGE_AFTER };

static enum dumpdir_stage dumpdir_stage(const char *name)
{
	if (strstr(name, "after_optimizations"))
		return STAGE_AFTER;
	if (strstr(name, "before_optimizations"))
		return STAGE_BEFORE;
	return STAGE_NONE;
}

struct dumpdir_entry {
	char *name;
	char id[64];                /* "module_0012" or the whole name */
	enum dumpdir_stage stage;
	struct timespec mtime;
	bool keep;
};

static int dumpdir_cmp(const void *pa, const void *pb)
{
	const struct dumpdir_entry *a = pa, *b = pb;
	return strcmp(a->name, b->name);
}

static bool dumpdir_newer(const struct dumpdir_entry *a, const struct dumpdir_entry *b)
{
	return a->mtime.tv_sec != b->mtime.tv_sec ? a->mtime.tv_sec > b->mtime.tv_sec
						  : a->mtime.tv_nsec > b->mtime.tv_nsec;
}

/* Reads dir's text files that are not sidecars. */
static bool dumpdir_read(const char *dir, struct dumpdir_entry **out, uint32_t *n, char *err, size_t errlen)
{
	DIR *d = opendir(dir);
	if (!d) {
		snprintf(err, errlen, "%s: error: cannot read the folder: %s", dir, strerror(errno));
		return false;
	}
	uint32_t cap = 0;
	*out = NULL;
	*n = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || !dumpdir_is_text(de->d_name) || dumpdir_is_sidecar(de->d_name))
			continue;
		size_t plen = strlen(dir) + strlen(de->d_name) + 2;
		char *path = xmalloc(plen);
		snprintf(path, plen, "%s/%s", dir, de->d_name);
		struct stat st;
		bool file = stat(path, &st) == 0 && S_ISREG(st.st_mode);
		free(path);
		if (!file)
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 32;
			*out = xreallocarray(*out, cap, sizeof **out);
		}
		struct dumpdir_entry *e = &(*out)[(*n)++];
		memset(e, 0, sizeof *e);
		e->name = xstrdup(de->d_name);
		e->stage = dumpdir_stage(e->name);
		e->mtime = st.st_mtim;
		size_t idn = !strncmp(e->name, "module_", 7) ? strcspn(e->name, ".") : strlen(e->name);
		snprintf(e->id, sizeof e->id, "%.*s", (int)(idn < sizeof e->id ? idn : sizeof e->id - 1), e->name);
	}
	closedir(d);
	return true;
}

/* Orders entries by stage and id, the newest first (then in name order,
 * which v is in): the first of each (stage, id) group is the one kept. */
static int dumpdir_group_cmp(const void *pa, const void *pb)
{
	const struct dumpdir_entry *a = *(const struct dumpdir_entry *const *)pa;
	const struct dumpdir_entry *b = *(const struct dumpdir_entry *const *)pb;
	if (a->stage != b->stage)
		return a->stage < b->stage ? -1 : 1;
	int c = strcmp(a->id, b->id);
	if (c)
		return c;
	if (dumpdir_newer(a, b) || dumpdir_newer(b, a))
		return dumpdir_newer(a, b) ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* Keeps the newest entry per (id, stage) among the stages wanted (v is
 * in name order; sorting a copy keeps it n log n for 40,000 files). */
static void dumpdir_choose(struct dumpdir_entry *v, uint32_t n, bool all_stages)
{
	bool staged = false;
	for (uint32_t k = 0; k < n; k++)
		staged |= v[k].stage != STAGE_NONE;
	for (uint32_t k = 0; k < n; k++)
		v[k].keep = staged ? v[k].stage == STAGE_AFTER || (all_stages && v[k].stage == STAGE_BEFORE) : true;
	if (!staged || n < 2)
		return;
	struct dumpdir_entry **by = xcalloc(n, sizeof *by);
	for (uint32_t k = 0; k < n; k++)
		by[k] = &v[k];
	qsort(by, n, sizeof *by, dumpdir_group_cmp);
	for (uint32_t k = 1; k < n; k++)
		if (by[k]->stage == by[k - 1]->stage && !strcmp(by[k]->id, by[k - 1]->id))
			by[k]->keep = false;
	free(by);
}

bool dumpdir_list(const char *dir, bool all_stages, struct dumpdir *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	struct dumpdir_entry *v;
	uint32_t n;
	if (!dumpdir_read(dir, &v, &n, err, errlen))
		return false;
	if (n)
		qsort(v, n, sizeof *v, dumpdir_cmp);
	dumpdir_choose(v, n, all_stages);
	out->paths = xcalloc(n ? n : 1, sizeof *out->paths);
	for (uint32_t k = 0; k < n; k++) {
		if (v[k].keep) {
			size_t dn = strlen(dir);
			while (dn > 1 && dir[dn - 1] == '/')
				dn--;
			size_t plen = dn + strlen(v[k].name) + 2;
			char *p = xmalloc(plen);
			snprintf(p, plen, "%.*s/%s", (int)dn, dir, v[k].name);
			out->paths[out->n++] = p;
		}
		free(v[k].name);
	}
	free(v);
	return true;
}

void dumpdir_free(struct dumpdir *d)
{
	for (uint32_t k = 0; k < d->n; k++)
		free(d->paths[k]);
	free(d->paths);
	memset(d, 0, sizeof *d);
}

static char *dumpdir_exists(const char *a, const char *b, const char *c)
{
	size_t n = strlen(a) + strlen(b) + strlen(c) + 1;
	char *p = xmalloc(n);
	snprintf(p, n, "%s%s%s", a, b, c);
	struct stat st;
	if (stat(p, &st) == 0 && S_ISREG(st.st_mode))
		return p;
	free(p);
	return NULL;
}

/* One module per folder (corpora/xla/out): <dir>/<what>.txt (or .txt.gz
 * when gz) beside a file named after_optimizations.*, never beside any
 * other; malloc'd path or NULL. */
static char *dumpdir_in_folder(const char *path, const char *what, bool gz)
{
	const char *slash = strrchr(path, '/'), *name = slash ? slash + 1 : path;
	if (strncmp(name, "after_optimizations.", 20))
		return NULL;
	char *dir = slash ? xstrdup(path) : xstrdup("."), sep[80];
	if (slash)
		dir[slash - path] = 0;
	snprintf(sep, sizeof sep, "/%s", what);
	char *p = dumpdir_exists(dir, sep, ".txt");
	if (!p && gz)
		p = dumpdir_exists(dir, sep, ".txt.gz");
	free(dir);
	return p;
}

char *dumpdir_module_file(const char *path, const char *what)
{
	/* XLA: <prefix>.after_optimizations.txt -> <prefix>.<what>.txt */
	static const char *const stages[] = { ".after_optimizations.txt", ".after_optimizations.txt.gz",
					      ".before_optimizations.txt", ".before_optimizations.txt.gz", NULL };
	char dot[80];
	snprintf(dot, sizeof dot, ".%s", what);
	for (int k = 0; stages[k]; k++) {
		if (!dumpdir_ends(path, stages[k]))
			continue;
		char *base = xstrdup(path);
		base[strlen(path) - strlen(stages[k])] = 0;
		char *p = dumpdir_exists(base, dot, ".txt");
		free(base);
		return p;
	}
	return dumpdir_in_folder(path, what, false);
}

/* The value after "key: " on a line of f, unquoted, into out; false at EOF. */
static bool dumpdir_proto_field(FILE *f, const char *key, char *out, size_t cap)
{
	char line[512];
	size_t k = strlen(key);
	while (fgets(line, sizeof line, f)) {
		const char *p = line;
		while (*p == ' ')
			p++;
		if (strncmp(p, key, k) || p[k] != ':')
			continue;
		p += k + 1;
		while (*p == ' ' || *p == '"')
			p++;
		size_t n = strcspn(p, "\"\r\n ");
		if (n >= cap)
			n = cap - 1;
		memcpy(out, p, n);
		out[n] = 0;
		return true;
	}
	return false;
}

bool dumpdir_tpu_version(const char *path, char *version, size_t cap, bool *lite)
{
	char *args = dumpdir_module_file(path, "target_arguments");
	FILE *f = args ? fopen(args, "r") : NULL;
	free(args);
	if (!f)
		return false;
	char variant[64] = "";
	bool ok = dumpdir_proto_field(f, "version", version, cap) && !strncmp(version, "TPU_VERSION_", 12);
	if (ok) {
		/* The variant, when there is one, is the next field of the block. */
		char line[512];
		if (fgets(line, sizeof line, f) && strstr(line, "variant:"))
			snprintf(variant, sizeof variant, "%s", strstr(line, "lite") ? "lite" : "");
	}
	fclose(f);
	*lite = !strcmp(variant, "lite");
	return ok;
}

char *dumpdir_sidecar(const char *path, const char *what)
{
	/* XLA: <module>.txt -> <module>-<what>.txt */
	size_t n = strlen(path);
	char *base = xstrdup(path);
	if (dumpdir_ends(base, ".gz"))
		base[n -= 3] = 0;
	if (dumpdir_ends(base, ".txt") || dumpdir_ends(base, ".hlo"))
		base[n - 4] = 0;
	char dash[80];
	snprintf(dash, sizeof dash, "-%s", what);
	char *p = dumpdir_exists(base, dash, ".txt");
	if (!p)
		p = dumpdir_exists(base, dash, ".txt.gz");
	free(base);
	return p ? p : dumpdir_in_folder(path, what, true);
}
