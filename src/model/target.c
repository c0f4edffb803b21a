/* target.c - device presets with their usable memory per device
 * (MEMORY_FACTS §6), capacity parsing for --hbm, and the default target
 * inferred from a dump.  Capacities are estimates with sources; the
 * estimator never asks a live device (§8: prefer bytes_limit when one is at
 * hand). */
#include "target.h"
#include "dumpdir.h"
#include "attr.h"
#include "size.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GIB (1024.0 * 1024.0 * 1024.0)
/* Round a GiB figure the way XLA prints it (two decimals) back to bytes. */
#define G(x) ((uint64_t)((x) * GIB))
/* JAX preallocates 75% of a GPU's memory by default (MEMORY_FACTS §6.2,
 * docs/gpu_memory_allocation.rst), so that is the practical budget. */
#define GPU(gb) ((uint64_t)((gb) * 1e9 * 0.75))

/* TPU usable capacity (§6.1): XLA's compile-time figure excludes a runtime
 * reservation.  Where a real OOM report shows the usable figure for that
 * device size it is used (15.48G of a 16 GiB device, 31.25G of 32 GiB,
 * 95.74G on v5p); elsewhere nominal minus 0.5 GiB, the middle of the
 * observed 0.25-0.75 GiB reservation (inferred). */
static const struct target target_table[] = {
	{ "tpu-v2", TARGET_TPU, 2, G(7.5), "TPU v2: 8 GiB per device (16 GiB chip, 2 cores) less ~0.5 GiB reserved", true, 0 },
	{ "tpu-v3", TARGET_TPU, 3, G(15.48), "TPU v3: 16 GiB per device (32 GiB chip, 2 cores); 15.48G usable as in XLA OOM reports", true, 0 },
	{ "tpu-v4", TARGET_TPU, 4, G(31.25), "TPU v4: 32 GiB per device (megacore); 31.25G usable as in XLA OOM reports", true, 512 },
	{ "tpu-v5e", TARGET_TPU, 5, G(15.48), "TPU v5e: 16 GiB per device; 15.48G usable as in XLA OOM reports", true, 512 },
	{ "tpu-v5p", TARGET_TPU, 5, G(95.74), "TPU v5p: 95 GiB per device (megacore); 95.74G available as in XLA's E1000 page", true, 0 },
	{ "tpu-v6e", TARGET_TPU, 6, G(31.25), "TPU v6e: 32 GiB per device; 31.25G usable as in XLA OOM reports", true, 0 },
	{ "tpu-v7", TARGET_TPU, 7, (uint64_t)(206e9 / 2) - G(0.5), "TPU7x: 192 GiB chip, 2 devices (~96 GiB each) less ~0.5 GiB reserved", true, 0 },
	{ "a100-40", TARGET_GPU, 0, GPU(40), "A100 40GB: 75% of 40 GB (JAX's default preallocation)", true, 0 },
	{ "a100-80", TARGET_GPU, 0, GPU(80), "A100 80GB: 75% of 80 GB (JAX's default preallocation)", true, 0 },
	{ "h100", TARGET_GPU, 0, GPU(80), "H100 SXM/PCIe: 75% of 80 GB (JAX's default preallocation)", true, 0 },
	{ "h200", TARGET_GPU, 0, GPU(141), "H200: 75% of 141 GB (JAX's default preallocation)", true, 0 },
	{ "b200", TARGET_GPU, 0, GPU(180), "B200: 75% of 180 GB exposed (JAX's default preallocation)", true, 0 },
	{ "mi300x", TARGET_GPU, 0, GPU(192), "MI300X: 75% of 192 GB (JAX's default preallocation)", true, 0 },
	{ "cpu", TARGET_CPU, 0, 0, "CPU: host memory, no device capacity", true, 0 },
	/* Inferred only. */
	{ "tpu", TARGET_TPU, 0, 0, "TPU of unknown generation: no capacity", false, 0 },
	{ "gpu", TARGET_GPU, 0, 0, "GPU of unknown model: no capacity", false, 0 },
	{ "none", TARGET_NONE, 0, 0, "no backend known: dense sizes, no capacity", false, 0 },
};

#define TARGET_N (sizeof target_table / sizeof target_table[0])

uint64_t target_tuple_table_bytes(const struct target *t, uint32_t n)
{
	switch (t->kind) {
	case TARGET_TPU:
		return size_round_up((uint64_t)n * 4, t->tuple_align ? t->tuple_align : 32);
	case TARGET_GPU:
	case TARGET_CPU:
		return (uint64_t)n * 8;
	default:
		return 0;
	}
}

/* Nominal PCIe x16 figures, per direction, as round numbers: Gen4
 * (32 GB/s) halved for the TPU chips that share a host's links, Gen5
 * (64 GB/s) less protocol overhead for a GPU.  Rough by design: the rule
 * that prints them says so and --offload-host-bandwidth replaces them. */
uint64_t target_host_bandwidth(const struct target *t)
{
	switch (t->kind) {
	case TARGET_TPU:
		return UINT64_C(16000000000);
	case TARGET_GPU:
		return UINT64_C(50000000000);
	default:
		return 0;
	}
}

uint64_t target_heap_align(const struct target *t)
{
	switch (t->kind) {
	case TARGET_TPU:
		return 16384;
	case TARGET_GPU:
		return 128;
	case TARGET_CPU:
		return 16;
	default:
		return 1;
	}
}

const struct target *const target_presets[] = {
	&target_table[0], &target_table[1], &target_table[2], &target_table[3], &target_table[4],
	&target_table[5], &target_table[6], &target_table[7], &target_table[8], &target_table[9],
	&target_table[10], &target_table[11], &target_table[12], &target_table[13], NULL,
};

static const struct target *target_named(const char *name)
{
	for (size_t i = 0; i < TARGET_N; i++)
		if (!strcmp(target_table[i].name, name))
			return &target_table[i];
	return NULL;
}

const struct target *target_find(const char *name)
{
	const struct target *t = target_named(name);
	return t && t->preset ? t : NULL;
}

bool target_parse_size(const char *s, uint64_t *out)
{
	return s && size_parse(s, strlen(s), out) && *out > 0;
}

/* ---- Inference from the dump ---- */

struct target_scan {
	struct hlo_file *file;
	const struct hlo_instr *tiled;       /* first instruction whose shape has tiles */
	const struct hlo_shape *tiled_shape;
	bool large16;                        /* the first tiled array is 16-bit T(16,128) */
	const struct hlo_instr *gpu, *cpu;   /* first marker of each backend */
	const char *why_gpu, *why_cpu;       /* what marks it (a prefix or a key) */
};

/* First array leaf with tiles, depth-first. */
static const struct hlo_shape *target_tiled_leaf(const struct hlo_shape *s, int depth)
{
	if (!s || depth > 64)
		return NULL;
	if (s->type == PT_TUPLE) {
		for (uint32_t k = 0; k < s->rank; k++) {
			const struct hlo_shape *t = target_tiled_leaf(s->elems[k], depth + 1);
			if (t)
				return t;
		}
		return NULL;
	}
	return s->layout && s->layout->ntiles ? s : NULL;
}

static enum walk_result target_visit(struct hlo_instr *i, void *ctx)
{
	struct target_scan *sc = ctx;
	const struct hlo_shape *t = target_tiled_leaf(i->shape, 0);
	if (t) {
		sc->tiled = i;
		sc->tiled_shape = t;
		/* T(16,128) on 16-bit types is the default only from TPU7x on
		 * (MEMORY_FACTS §1.4): a hint, not proof. */
		sc->large16 = (t->type == PT_BF16 || t->type == PT_F16) && t->layout->tiles[0].rank == 2 &&
			      t->layout->tiles[0].dims[0] == 16;
	}
	/* Tiles decide: nothing after them matters. */
	if (sc->tiled)
		return WALK_STOP;
	if (i->op == OP_CUSTOM_CALL) {
		static const char *const gpu[] = { "__cublas", "__cudnn", "__triton", "__gpu$", "__nccl",
						   "xla_ffi_python_gpu_callback",
						   "xla_ffi_partitioned_python_gpu_callback",
						   "xla_python_gpu_callback", NULL };
		static const char *const cpu[] = { "__onednn", "xla_ffi_python_cpu_callback",
						   "xla_ffi_partitioned_python_cpu_callback",
						   "xla_python_cpu_callback", NULL };
		for (int k = 0; gpu[k]; k++)
			if (!sc->gpu && attr_plain_starts(sc->file, i, ATTR_CUSTOM_CALL_TARGET, gpu[k])) {
				sc->gpu = i;
				sc->why_gpu = gpu[k];
			}
		for (int k = 0; cpu[k]; k++)
			if (!sc->cpu && attr_plain_starts(sc->file, i, ATTR_CUSTOM_CALL_TARGET, cpu[k])) {
				sc->cpu = i;
				sc->why_cpu = cpu[k];
			}
	}
	if (!sc->gpu && (i->op == OP_FUSION || i->op == OP_CUSTOM_CALL)) {
		/* XLA:GPU's GpuBackendConfig is the one with operation queues. */
		if (attr_json_has_key(sc->file, i, ATTR_BACKEND_CONFIG, "operation_queue_id")) {
			sc->gpu = i;
			sc->why_gpu = "backend_config operation_queue_id";
		}
	}
	return WALK_CONTINUE;
}

static bool target_path_has(const char *path, const char *s)
{
	return path && strstr(path, s);
}

/* libtpu's names of the TPU generations in a dump's target_arguments.txt
 * (tpu_topology_args version and variant), as the compiles of corpora/xla
 * for each topology wrote them (libtpu 0.0.42.1); v2 and v3 by their public
 * code names. */
static const struct {
	const char *version;
	bool lite;
	const char *preset;
} target_tpu_versions[] = {
	{ "TPU_VERSION_JELLYFISH", false, "tpu-v2" },
	{ "TPU_VERSION_DRAGONFISH", false, "tpu-v3" },
	{ "TPU_VERSION_PUFFERFISH", false, "tpu-v4" },
	{ "TPU_VERSION_VIPERFISH", true, "tpu-v5e" },
	{ "TPU_VERSION_VIPERFISH", false, "tpu-v5p" },
	{ "TPU_VERSION_GHOSTLITE", false, "tpu-v6e" },
	{ "TPU_VERSION_GHOSTLITE", true, "tpu-v6e" },
	{ "TPU_VERSION_6acc60406", false, "tpu-v7" },
};

/* The preset the dump's target_arguments.txt names, or NULL. */
static const struct target *target_from_dump(const char *path, char *reason, size_t cap)
{
	char version[64];
	bool lite;
	if (!path || !dumpdir_tpu_version(path, version, sizeof version, &lite))
		return NULL;
	for (size_t k = 0; k < sizeof target_tpu_versions / sizeof target_tpu_versions[0]; k++)
		if (!strcmp(target_tpu_versions[k].version, version) && target_tpu_versions[k].lite == lite) {
			snprintf(reason, cap, "inferred: the dump's target_arguments.txt says %s%s", version,
				 lite ? " lite" : "");
			return target_find(target_tpu_versions[k].preset);
		}
	return NULL;
}

const struct target *target_infer(struct hlo_module *m, const char *path, char *reason, size_t cap)
{
	const struct target *t = target_from_dump(path, reason, cap);
	if (t)
		return t;
	struct target_scan sc = { .file = m->file };
	struct ir_visitor v = { .instr = target_visit };
	ir_walk(m, &v, &sc);
	if (sc.tiled) {
		char shape[160];
		ir_shape_format(sc.tiled_shape, true, shape, sizeof shape);
		snprintf(reason, cap,
			 "inferred: layouts carry TPU tiles (e.g. %s on %.*s), generation unknown%s; "
			 "pass --target tpu-vN or --hbm for a capacity",
			 shape, IR_NM(sc.tiled),
			 sc.large16 ? " (T(16,128) 16-bit tiles suggest TPU7x)" : "");
		return target_named("tpu");
	}
	if (target_path_has(path, "gpu_after_optimizations") || sc.gpu) {
		if (sc.gpu)
			snprintf(reason, cap, "inferred: %s%s%s on %.*s is XLA:GPU; model unknown, pass --target or --hbm",
				 sc.why_gpu[0] != 'b' ? "custom_call_target " : "", sc.why_gpu,
				 sc.why_gpu[0] != 'b' ? "..." : "", IR_NM(sc.gpu));
		else
			snprintf(reason, cap, "inferred: the file name says gpu_after_optimizations; model unknown, "
					      "pass --target or --hbm");
		return target_named("gpu");
	}
	if (target_path_has(path, "cpu_after_optimizations") || sc.cpu) {
		if (sc.cpu)
			snprintf(reason, cap, "inferred: custom_call_target %s... on %.*s is XLA:CPU", sc.why_cpu,
				 IR_NM(sc.cpu));
		else
			snprintf(reason, cap, "inferred: the file name says cpu_after_optimizations");
		return target_named("cpu");
	}
	snprintf(reason, cap, "no --target, and the dump names no backend (no TPU tiles, no GPU/CPU markers): "
			      "dense sizes, no capacity");
	return target_named("none");
}
