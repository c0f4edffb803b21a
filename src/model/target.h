/* target.h - the devices a memory estimate is made for: presets with the
 * usable memory of one device (MEMORY_FACTS §6), --hbm size parsing, and
 * the default target inferred from a dump (TPU tiles, GPU/CPU markers).
 * A target says how arrays are sized (TPU tiling or dense) and how much
 * memory a device has; it does not size anything itself (size.h, mem.h). */
#ifndef HLO_TARGET_H
#define HLO_TARGET_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ir.h"

enum target_kind {
	TARGET_TPU,    /* tiled layouts; default tiling for untiled dumps when tpu_gen > 0 */
	TARGET_GPU,    /* dense sizes */
	TARGET_CPU,    /* dense sizes, no device memory */
	TARGET_NONE,   /* nothing known: dense sizes, no capacity */
};

struct target {
	const char *name;           /* "tpu-v5e", ...; what --target takes */
	enum target_kind kind;
	int tpu_gen;                /* 2..7 for TPU presets; 0 = generation unknown */
	uint64_t hbm_bytes;         /* usable memory of one device; 0 = unknown */
	const char *about;          /* one line: the capacity and where it comes from */
	bool preset;                /* selectable with --target (listed by --help) */
	uint16_t tuple_align;       /* TPU: a tuple's index table rounds up to this (0: 32) */
};

/* Bytes of the index table of a tuple with n elements, as the target's
 * buffer assignment allocates it: 4 bytes per element on TPU rounded up to
 * the preset's alignment (512 on v4 and v5e, 32 on v5p, v6e and TPU7x, as
 * in every ROOT tuple of corpora/xla), 8 bytes per element on GPU and CPU,
 * 0 when no backend is known. */
uint64_t target_tuple_table_bytes(const struct target *t, uint32_t n);

/* A rough host-link bandwidth of one device, bytes per second, for
 * transfer-time estimates (0 when no backend is known); see target.c. */
uint64_t target_host_bandwidth(const struct target *t);

/* Alignment of a temporary's offset in the target's heap: 16 KiB on TPU
 * (every offset in the buffer assignments of corpora/xla), 128 bytes on
 * GPU (XLA:GPU's allocated-buffer alignment), 16 on CPU, 1 otherwise. */
uint64_t target_heap_align(const struct target *t);

/* The preset named name, or NULL.  Generic inferred targets ("tpu", "gpu",
 * "none") are not presets and are not found. */
const struct target *target_find(const char *name);
/* Presets in table order, NULL-terminated (for help text and tests). */
extern const struct target *const target_presets[];

/* Parses a capacity as size_parse does; false also for zero. */
bool target_parse_size(const char *s, uint64_t *out);

/* The default target for module m when none was given: TPU tiles in any
 * layout give the generic "tpu" (generation unknown, so no capacity);
 * XLA:GPU or XLA:CPU markers (custom-call targets, a *_gpu_/cpu_after_
 * optimizations file name in path, which may be NULL) give "gpu"/"cpu";
 * else "none".  Writes the reason, lower case, into reason. */
const struct target *target_infer(struct hlo_module *m, const char *path, char *reason, size_t cap);
#endif
