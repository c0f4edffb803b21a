/* oomlog.h - the out-of-memory reports XLA and its runtimes print, read out
 * of whatever a user pastes (oomlog.c): a whole job log or a fragment,
 * with log prefixes, markdown quotes, fences and escapes, lines a terminal
 * wrapped or a converter joined.  Compile time: XLA:TPU's "Ran out of
 * memory in memory space S" report (any part of it alone), its short
 * "HLO temporaries" form, the SparseCore form, the early abort and the
 * scoped "Allocation ... would exceed memory" form.  Run time: the TPU
 * runtime's program load ("Attempting to reserve") and buffer allocation
 * ("Error allocating device buffer"), XLA:GPU's BufferAssignment report,
 * its allocator's "Failed to allocate request" and the BFC allocator's.
 * Reading only: classification and mapping to HLO are triage.h's. */
#ifndef HLO_OOMLOG_H
#define HLO_OOMLOG_H
#include <stdbool.h>
#include <stdint.h>
#include "arena.h"
#include "source.h"

/* Which report.  docs/oom.md shows each with a real example. */
enum oom_kind {
	OOM_TPU,          /* "Ran out of memory in memory space hbm. Used X of Y hbm." (+ breakdown) */
	OOM_TPU_TEMP,     /* "...total memory required for HLO temporaries (X) exceeds available HBM (Y)" */
	OOM_TPU_SC,       /* "TPU TensorCore Hbm usage: X, SparseCore Hbm usage Y, exceeding available bytes: Z" */
	OOM_TPU_EARLY,    /* "Aborting compilation early ... Requires X, has Y available" */
	OOM_TPU_SCOPED,   /* "Allocation (size=X) would exceed memory (size=Y) :: #allocationN [...] :: name" */
	OOM_TPU_RESERVE,  /* run time, program load: "Attempting to reserve X at the bottom of memory" */
	OOM_TPU_BUFFER,   /* run time: "Error allocating device buffer: Attempting to allocate X" */
	OOM_GPU,          /* "Out of memory while trying to allocate N bytes" + BufferAssignment stats */
	OOM_GPU_REQUEST,  /* run time: "Failed to allocate request for X (NB) on device ordinal K" */
	OOM_GPU_BFC,      /* run time: "Allocator (GPU_0_bfc) ran out of memory trying to allocate X" + Stats */
};

#define OOM_UNKNOWN UINT64_MAX   /* a size the report does not give (or gives as "unknown") */

/* One of "Largest program allocations" (TPU) or "Peak buffers" (GPU). */
struct oom_alloc {
	uint32_t rank;              /* 1-based, as printed (or counted when the entry has none) */
	uint32_t line;              /* 1-based line of the log where it starts */
	uint64_t size;              /* OOM_UNKNOWN when the entry gives none */
	uint64_t unpadded;          /* OOM_UNKNOWN when not printed */
	uint64_t padding;           /* "Extra memory due to padding", 0 when not printed */
	const char *op_name;        /* from "Operator:", or NULL */
	const char *op_type;
	const char *source_file;    /* Python source of the operator, or NULL */
	int64_t source_line;        /* 0 when unknown */
	const char *shape;          /* "f32[4,128]{1,0:T(8,128)}" as printed, or NULL */
	const char *label;          /* "XLA label:" text (TPU: the instruction; GPU: its opcode) */
	bool label_cut;             /* the label ends in "..." (XLA shortens long ones) */
	const char *name;           /* the instruction's name from the label, without '%', or NULL */
	const char *type;           /* "HLO temp", "scoped", "parameter", ... or NULL */
	bool entry_parameter;       /* GPU: "Entry Parameter Subshape" */
};

struct oom_report {
	enum oom_kind kind;
	uint32_t line;              /* 1-based line of the first line of the report */
	uint32_t repeats;           /* times the same report is in the log (1: once) */
	bool partial;               /* begun at a part: the report's first line is not in the log */
	bool not_failure;           /* BFC: "The caller indicates that this is not a failure" */
	const char *space;          /* "hbm", "vmem", "smem" (TPU), "device" (GPU) */
	const char *code;           /* "E1000 CompileTimeHbmOom" when the message carries one, or NULL */
	const char *program;        /* run time: the program being loaded ("Error loading program 'X'") */
	const char *culprit;        /* the instruction the message names ("while allocating on stack
				     * for %X", the scoped allocation's "... :: X"), without '%', or NULL */
	const char *device;         /* "0x0x0_HBM0", "GPU_0_bfc", "device ordinal 0", or NULL */
	uint64_t used, capacity, exceeded;           /* OOM_UNKNOWN when not given */
	/* TPU: "Total hbm usage >= X:" and its parts */
	uint64_t total, reserved, program_bytes, arguments, output, output_shared;
	/* TPU: "Program hbm requirement X:" and its parts */
	uint64_t requirement, req_reserved, global, scoped, hlo_temp, fragmentation;
	double utilization;         /* percent; < 0 when not given */
	/* TPU SparseCore form */
	uint64_t tensorcore, sparsecore;
	/* Run time: what was asked for and what the allocator had */
	uint64_t requested, free_bytes, rt_reserved, reservable, largest_free, in_use;
	/* GPU: BufferAssignment stats */
	uint64_t gpu_parameters, gpu_constants, gpu_live_out, gpu_temp, gpu_total;
	struct oom_alloc *allocs;
	uint32_t nallocs;
};

struct oom_log {
	struct oom_report *reports;  /* in log order */
	uint32_t nreports;
};

/* Reads every OOM report in src.  Strings live in a.  Returns the count;
 * 0 means none was found. */
uint32_t oomlog_read(const struct source *src, struct arena *a, struct oom_log *out);

/* "tpu", "tpu-temp", "tpu-sparsecore", "tpu-early-abort", "tpu-scoped",
 * "tpu-program-load", "tpu-buffer", "gpu", "gpu-request", "gpu-bfc". */
const char *oomlog_kind_name(enum oom_kind k);
/* Whether reports of kind k come from a running program (the compile
 * succeeded) rather than from the compiler. */
bool oomlog_run_time(enum oom_kind k);
/* Whether k is an XLA:GPU (or GPU allocator) report. */
bool oomlog_gpu(enum oom_kind k);
#endif
