/* dumpdir.h - an XLA dump folder (--xla_dump_to) as input: which files
 * are the modules to read (dumpdir.c).  It lists and chooses; it does not
 * parse. */
#ifndef HLO_DUMPDIR_H
#define HLO_DUMPDIR_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dumpdir {
	char **paths;       /* malloc'd, in name order */
	uint32_t n;
};

/* True when path names a directory. */
bool dumpdir_is_dir(const char *path);
/* The modules of dump folder dir: for each module id, the newest
 * after-optimizations module (module_0012.jit_f...after_optimizations.txt,
 * or the .hlo/.txt files of a folder without XLA's names); with all_stages
 * the before-optimizations ones too.  Sidecars (buffer assignments,
 * memory-usage reports, *.pb, *.dot, ...) are skipped.  False (and
 * errno-style text in err) when dir cannot be read. */
bool dumpdir_list(const char *dir, bool all_stages, struct dumpdir *out, char *err, size_t errlen);
void dumpdir_free(struct dumpdir *d);
/* Path of the sidecar (what: "buffer-assignment" or "memory-usage-report")
 * XLA writes next to module file path, when it exists: malloc'd, or NULL. */
char *dumpdir_sidecar(const char *path, const char *what);
/* Path of the file <prefix>.<what>.txt XLA writes beside module file
 * <prefix>.after_optimizations.txt (or <dir>/<what>.txt beside a file named
 * after_optimizations.*), when it exists: malloc'd, or NULL. */
char *dumpdir_module_file(const char *path, const char *what);
/* The TPU generation the module was compiled for, from its
 * target_arguments.txt: version ("TPU_VERSION_VIPERFISH") and whether its
 * variant is "lite".  False when there is no such file or no version. */
bool dumpdir_tpu_version(const char *path, char *version, size_t cap, bool *lite);
#endif
