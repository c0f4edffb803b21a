/* oomlog.h - the out-of-memory reports XLA prints, read out of a log
 * (oomlog.c): XLA:TPU's "Ran out of memory in memory space hbm" report with
 * its usage breakdown and largest allocations, its short "HLO temporaries
 * exceed available HBM" form, the TensorCore/SparseCore form, and XLA:GPU's
 * "BufferAssignment OOM Debugging" with its peak buffers.  Reading only:
 * classification and mapping to HLO are triage.h's. */
#ifndef HLO_OOMLOG_H
#define HLO_OOMLOG_H
#include <stdbool.h>
#include <stdint.h>
#include "arena.h"
#include "source.h"

/* Which report. */
enum oom_kind {
	OOM_TPU,          /* "Ran out of memory in memory space hbm. Used X of Y hbm." */
	OOM_TPU_TEMP,     /* "...total memory required for HLO temporaries (X) exceeds available HBM (Y)" */
	OOM_TPU_SC,       /* "TPU TensorCore Hbm usage: X, SparseCore Hbm usage Y, exceeding available bytes: Z" */
	OOM_GPU,          /* "Out of memory while trying to allocate N bytes" + BufferAssignment stats */
};

#define OOM_UNKNOWN UINT64_MAX   /* a size the report does not give (or gives as "unknown") */

/* One of "Largest program allocations" (TPU) or "Peak buffers" (GPU). */
struct oom_alloc {
	uint32_t rank;              /* 1-based, as printed */
	uint32_t line;              /* 1-based line of the log where it starts */
	uint64_t size;
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
	const char *space;          /* "hbm" (TPU), "device" (GPU) */
	uint64_t used, capacity, exceeded;           /* OOM_UNKNOWN when not given */
	/* TPU: "Total hbm usage >= X:" and its parts */
	uint64_t total, reserved, program, arguments, output, output_shared;
	/* TPU: "Program hbm requirement X:" and its parts */
	uint64_t requirement, req_reserved, global, scoped, hlo_temp, fragmentation;
	double utilization;         /* percent; < 0 when not given */
	/* TPU SparseCore form */
	uint64_t tensorcore, sparsecore;
	/* GPU: BufferAssignment stats */
	uint64_t gpu_parameters, gpu_constants, gpu_live_out, gpu_temp, gpu_total;
	struct oom_alloc *allocs;
	uint32_t nallocs;
};

struct oom_log {
	struct oom_report *reports;  /* in log order */
	uint32_t nreports;
};

/* Reads every OOM report in src (whatever surrounds it: tracebacks, log
 * prefixes, timestamps, tabs).  Strings live in a.  Returns the count;
 * 0 means none was found. */
uint32_t oomlog_read(const struct source *src, struct arena *a, struct oom_log *out);

const char *oomlog_kind_name(enum oom_kind k);
#endif
