/* cmd_mem.c - `hlolint mem FILE...`: the per-device memory estimate of
 * every module (mem.h) as text shaped like XLA's TPU out-of-memory report,
 * or as JSON (schema 1).  Only prints; exit 0, or 2 on usage, I/O or parse
 * errors (the modules that did parse are still reported). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "alias.h"
#include "attr.h"
#include "cmd.h"
#include "jobs.h"
#include "json.h"
#include "mem.h"
#include "report.h"
#include "size.h"
#include "xlastats.h"
#include "target.h"
#include "metadata.h"

struct cmd_mem_opts {
	struct mem_options mo;
	unsigned top, jobs;
	bool json, verbose;
	bool all_stages;
	const char *config;
	bool no_config;
	struct config cfg;          /* the project config: target, hbm, source-root */
};

/* ---- What a report shows of one allocation ---- */

struct cmd_mem_alloc {
	const struct mem_buffer *b;
	char shape[512];
	char device_shape[512];     /* per-device shape when divided, else empty */
	char *op_name;              /* NULL when none */
	const char *file;           /* Python source, NULL when unknown */
	int64_t line;
};

static void cmd_mem_describe(const struct mem_model *mm, const struct mem_buffer *b, struct arena *a,
			     struct cmd_mem_alloc *out)
{
	struct hlo_module *m = mm->module;
	memset(out, 0, sizeof *out);
	out->b = b;
	ir_shape_format(b->shape, true, out->shape, sizeof out->shape);
	if (mem_buffer_split(mm, b) && ir_shape_is_array(b->shape)) {
		struct hlo_shape s = *b->shape;
		int64_t *dims = arena_array(a, s.rank, sizeof *dims);
		mem_buffer_dims(mm, b, dims);
		s.dims = dims;
		ir_shape_format(&s, true, out->device_shape, sizeof out->device_shape);
	}
	const struct hlo_attr *md = ir_attr(b->def, ATTR_METADATA);
	struct hlo_metadata meta;
	if (md && metadata_decode(m->file, ir_attr_value(md), a, &meta, NULL)) {
		if (meta.op_name && meta.op_name[0])
			out->op_name = meta.op_name;
		const char *file;
		int64_t line;
		if (metadata_source(m, &meta, a, &file, &line)) {
			out->file = file;
			out->line = line;
		}
	}
}

/* "name = opcode(a, b)" as XLA's OOM report labels an instruction. */
static void cmd_mem_label(FILE *out, const struct hlo_module *m, const struct hlo_instr *i)
{
	/* The opcode as written: async sugar (custom-call-start) stays sugar. */
	fprintf(out, "%.*s = %.*s", IR_NM(i), (int)i->op_len, ir_text(m->file, ir_instr_opcode_span(i)));
	if (i->op == OP_PARAMETER) {
		fprintf(out, "(%lld)", (long long)i->number);
		return;
	}
	struct span lit = ir_instr_literal(i);
	if (i->op == OP_CONSTANT && !span_is_none(lit)) {
		/* The literal as written, when short; "(...)" otherwise. */
		if (span_len(lit) <= 40)
			fprintf(out, "%.*s", (int)span_len(lit), ir_text(m->file, lit));
		else
			fputs("(...)", out);
		return;
	}
	fputc('(', out);
	for (uint32_t k = 0; k < i->noperands && k < 4; k++) {
		const struct hlo_instr *o = ir_operands(i)[k].instr;
		if (k)
			fputs(", ", out);
		if (o && !ir_is_anonymous(o))
			fprintf(out, "%.*s", IR_NM(o));
		else
			fputs("...", out);
	}
	if (i->noperands > 4)
		fputs(", ...", out);
	fputc(')', out);
}

/* ---- Text ---- */

static const char *cmd_mem_h(uint64_t v, char *buf)
{
	return size_human(v, buf);
}

/* The header: module, target, capacity, how shapes and order were read. */
static void cmd_mem_header(FILE *out, const char *path, const struct mem_model *mm)
{
	char h1[16];
	const char *mem = mm->target->kind == TARGET_CPU ? "memory" : "hbm";
	struct hlo_module *m = mm->module;
	diag_line(out, "hlolint memory estimate for module %s, per device\n", m->name ? m->name->str : "?");
	report_wrap(out, "  file:        ", path, 15);
	char line[512];
	snprintf(line, sizeof line, "%s (%s)", mm->target->name, mm->target_reason);
	report_wrap(out, "  target:      ", line, 15);
	if (mm->hbm_bytes) {
		snprintf(line, sizeof line, "%s %s per device (%s)", cmd_mem_h(mm->hbm_bytes, h1), mem,
			 mm->hbm_given ? "given with --hbm" : mm->target->about);
		report_wrap(out, "  capacity:    ", line, 15);
	}
	else
		fprintf(out, "  capacity:    unknown (pass --target or --hbm)\n");
	snprintf(line, sizeof line, "%s (%s)", mm->partitioned ? "per device" : "global, divided by their shardings",
		 mm->partition_reason);
	report_wrap(out, "  shapes:      ", line, 15);
	if (m->num_partitions > 1 || m->replica_count > 1)
		fprintf(out, "  devices:     num_partitions=%lld replica_count=%lld\n", (long long)m->num_partitions,
			(long long)m->replica_count);
	fprintf(out, "  order:       %s\n",
		mm->scheduled ? "the module's schedule (is_scheduled=true)"
			      : "definition order, a topological order (the module has no schedule)");
	if (mm->default_tiling)
		fprintf(out, "  tiling:      default TPU tiling of %s for arrays without tiles (docs/memory-model.md §1)\n",
			mm->target->name);
	else if (mm->target->kind == TARGET_TPU)
		fprintf(out, "  tiling:      from the layouts in the dump\n");
	else
		fprintf(out, "  tiling:      none (dense sizes)\n");
	fputc('\n', out);

}

/* The total allocation and its parts, then the liveness peak. */
static void cmd_mem_totals(FILE *out, const struct mem_model *mm)
{
	char h1[16], h2[16];
	const char *mem = mm->target->kind == TARGET_CPU ? "memory" : "hbm";
	/* The headline is XLA's total allocation (alloc.h); the liveness peak
	 * follows, with where it happens.  ">=" only where the figure is a
	 * proven lower bound: XLA holds every argument, output and constant
	 * whole, so a total without a heap is one; a heap rests on the model's
	 * live ranges and sharing, so a total with one is an estimate ("≈",
	 * docs/memory-model.md §6), as is the peak. */
	const char *rel = mm->heap_bytes || mm->unoptimized ? "\u2248" : ">=";
	if (mm->hbm_bytes)
		fprintf(out, "Total %s allocation %s %s of %s %s (%.1f%%), as XLA's buffer assignment adds up\n", mem,
			rel, cmd_mem_h(mm->total_bytes, h1), cmd_mem_h(mm->hbm_bytes, h2), mem,
			100.0 * (double)mm->total_bytes / (double)mm->hbm_bytes);
	else
		fprintf(out, "Total %s allocation %s %s, as XLA's buffer assignment adds up\n", mem, rel,
			cmd_mem_h(mm->total_bytes, h1));
	if (mm->xla_total_bytes) {
		double d = ((double)mm->total_bytes - (double)mm->xla_total_bytes) * 100.0 / (double)mm->xla_total_bytes;
		fprintf(out, "    XLA said: %s (its buffer assignment beside the module; hlolint %+.1f%%)\n",
			cmd_mem_h(mm->xla_total_bytes, h1), d);
	}
	if (mm->unoptimized)
		fprintf(out, "    an upper bound: the module is not fused or scheduled yet (a before-optimizations\n"
			     "    dump); the compiled program needs less\n");
	if (mm->total_bytes_max > mm->total_bytes)
		fprintf(out, "    (up to %s with the large second-minor tiling, docs/memory-model.md §1)\n",
			cmd_mem_h(mm->total_bytes_max, h1));
	if (mm->hbm_bytes && mm->total_bytes > mm->hbm_bytes)
		fprintf(out, "    exceeds capacity by %s\n", cmd_mem_h(mm->total_bytes - mm->hbm_bytes, h1));
	fprintf(out, "    arguments     %10s\n", cmd_mem_h(mm->argument_bytes, h1));
	fprintf(out, "    outputs       %10s (shares %s with arguments)\n", cmd_mem_h(mm->output_bytes, h1),
		cmd_mem_h(mm->alias_bytes, h2));
	fprintf(out, "    aliased       %10s\n", cmd_mem_h(mm->alias_bytes, h1));
	fprintf(out, "    temporaries   %10s (heap of live temporaries and loop carries", cmd_mem_h(mm->heap_bytes, h1));
	if (mm->reused_bytes)
		fprintf(out, "; %s more reuse output\n                             and donated buffers",
			cmd_mem_h(mm->reused_bytes, h2));
	fputs(")\n", out);
	if (mm->heap_bytes > mm->heap_live_bytes)
		fprintf(out, "    fragmentation %10s of them (XLA:TPU places values in program order; their\n"
			     "                             liveness peak is %s)\n",
			cmd_mem_h(mm->heap_bytes - mm->heap_live_bytes, h1), cmd_mem_h(mm->heap_live_bytes, h2));
	fprintf(out, "    constants     %10s\n", cmd_mem_h(mm->constant_bytes, h1));
	fprintf(out, "Liveness peak \u2248 %s (buffers live at one instruction)", cmd_mem_h(mm->peak_bytes, h1));
	if (mm->peak_bytes_max > mm->peak_bytes)
		fprintf(out, ", up to %s", cmd_mem_h(mm->peak_bytes_max, h1));
	fputc('\n', out);
	if (mm->peak_at)
		fprintf(out, "  at %.*s in computation %.*s\n", IR_NM(mm->peak_at),
			IR_CNM(mm->peak_at->comp));
	fprintf(out, "    temporaries   %10s live there, constants and loop carries included\n",
		cmd_mem_h(mm->temp_bytes, h1));
	fprintf(out, "    padding       %10s of the peak\n", cmd_mem_h(mm->padding_bytes, h1));
	fprintf(out, "Host memory (S(5) pinned host): %s\n", cmd_mem_h(mm->host_bytes, h1));
	if (mm->unpinned_host_bytes)
		fprintf(out, "Unpinned host memory (S(6)): %s\n", cmd_mem_h(mm->unpinned_host_bytes, h1));
	if (mm->other_bytes)
		fprintf(out, "Other memory spaces (S(1) VMEM, S(2)-S(4)), not HBM: %s\n", cmd_mem_h(mm->other_bytes, h1));
}

/* Allocation number k of the "Largest allocations" list. */
static void cmd_mem_alloc_text(FILE *out, const struct mem_model *mm, const struct mem_buffer *b, uint32_t k,
			       struct arena *a)
{
	struct hlo_module *m = mm->module;
	char h1[16], h2[16];
	struct cmd_mem_alloc al;
	cmd_mem_describe(mm, b, a, &al);
	fprintf(out, "  %u. Size: %s\n", k + 1, cmd_mem_h(b->bytes, h1));
	if (b->bytes_max > b->bytes)
		fprintf(out, "     Size with the large second-minor tiling: %s\n", cmd_mem_h(b->bytes_max, h1));
	if (b->def->shape && b->def->shape->type == PT_TUPLE) {
		char ix[64];
		struct alias_state as;
		alias_init(&as, m->file, a);
		alias_leaf_path(&as, b->def->shape, b->leaf, ix, sizeof ix);
		alias_free(&as);
		fprintf(out, "     Shape: %s (result %s)\n", al.shape, ix);
	} else {
		fprintf(out, "     Shape: %s\n", al.shape);
	}
	if (al.device_shape[0])
		fprintf(out, "     Per-device shape: %s\n", al.device_shape);
	if (b->flags & MEM_BUF_DEFAULT_TILED) {
		struct size_array sa;
		struct size_tile t;
		char tile[64], big[64];
		int64_t *dims = arena_array(a, b->shape->rank ? b->shape->rank : 1, sizeof *dims);
		size_array_of(&sa, b->shape);
		mem_buffer_dims(mm, b, dims);
		sa.dims = dims;
		size_tpu_default_tile(&sa, mm->target->tpu_gen, false, &t);
		size_tile_format(&t, tile, sizeof tile);
		if (b->bytes_max > b->bytes && size_tpu_default_tile(&sa, mm->target->tpu_gen, true, &t)) {
			size_tile_format(&t, big, sizeof big);
			fprintf(out, "     Assumed tiling: %s or %s (%s default)\n", tile, big, mm->target->name);
		} else {
			fprintf(out, "     Assumed tiling: %s (%s default)\n", tile, mm->target->name);
		}
	}
	fprintf(out, "     Unpadded size: %s\n", cmd_mem_h(b->unpadded, h1));
	if (b->bytes > b->unpadded)
		fprintf(out, "     Extra memory due to padding: %s (%.1fx expansion)\n",
			cmd_mem_h(b->bytes - b->unpadded, h2),
			b->unpadded ? (double)b->bytes / (double)b->unpadded : 0.0);
	if (al.op_name) {
		diag_line(out, "     Operator: op_name=\"%s\"\n", al.op_name);
	}
	if (al.file)
		diag_line(out, "     Source: %s:%lld\n", al.file, (long long)al.line);
	fputs("     XLA label: ", out);
	cmd_mem_label(out, m, b->def);
	fputc('\n', out);
	fprintf(out, "     Computation: %.*s\n", IR_CNM(b->def->comp));
	fprintf(out, "     Allocation type: %s", mem_kind_name((enum mem_kind)b->kind));
	if (b->memory_space) {
		char sp[24];
		fprintf(out, " (%s)", mem_space_name(b->memory_space, sp));
	}
	if (b->flags & MEM_BUF_ALIASED)
		fputs(", shared with an output (donated)", out);
	else if (b->flags & MEM_BUF_DONATED)
		fputs(", donated", out);
	fprintf(out, "\n     Live: %s, instructions %u-%u of %.*s\n",
		(b->flags & MEM_BUF_GLOBAL) ? "whole program" : "defined to last use", b->def_pos, b->last_pos,
		IR_CNM(mem_buffer_owner(b)));
	fputs("     ==========================\n", out);
}

/* text cut to width columns, "..." marking the cut. */
static void cmd_mem_cell(char *out, size_t cap, const char *text, size_t width)
{
	size_t n = strlen(text);
	if (n <= width || width < 4)
		snprintf(out, cap, "%s", text);
	else
		snprintf(out, cap, "%.*s...", (int)(width - 3), text);
}

/* The table of the largest allocations: one row each, 100 columns. */
static void cmd_mem_table_head(FILE *out)
{
	fprintf(out, "  %8s  %-22s  %-13s  %-9s  %-16s  %s\n", "size", "shape per device", "kind or space", "live", "source",
		"instruction");
}

static void cmd_mem_table_row(FILE *out, const struct mem_model *mm, const struct mem_buffer *b, struct arena *a)
{
	struct cmd_mem_alloc al;
	char h[16], shape[256], cell[64], live[32], src[96], ins[160];
	cmd_mem_describe(mm, b, a, &al);
	if (al.device_shape[0] && mem_buffer_split(mm, b) && ir_shape_is_array(b->shape)) {
		struct hlo_shape s = *b->shape;
		int64_t *dims = arena_array(a, s.rank, sizeof *dims);
		mem_buffer_dims(mm, b, dims);
		s.dims = dims;
		ir_shape_format(&s, false, shape, sizeof shape);
	} else {
		ir_shape_format(b->shape, false, shape, sizeof shape);
	}
	cmd_mem_cell(cell, sizeof cell, shape, 22);
	if (b->flags & MEM_BUF_GLOBAL)
		snprintf(live, sizeof live, "all");
	else
		snprintf(live, sizeof live, "%u-%u", b->def_pos, b->last_pos);
	src[0] = 0;
	if (al.file) {
		const char *base = strrchr(al.file, '/');
		snprintf(src, sizeof src, "%s:%lld", base ? base + 1 : al.file, (long long)al.line);
	}
	char srccell[32];
	cmd_mem_cell(srccell, sizeof srccell, src[0] ? src : "-", 16);
	snprintf(ins, sizeof ins, "%%%.*s", IR_NM(b->def));
	char inscell[64];
	cmd_mem_cell(inscell, sizeof inscell, ins, 20);
	char sp[24];
	const char *kind = b->memory_space ? mem_space_name(b->memory_space, sp) : mem_kind_name((enum mem_kind)b->kind);
	diag_line(out, "  %8s  %-22s  %-13s  %-9s  %-16s  %s\n", cmd_mem_h(b->bytes, h), cell, kind, live, srccell,
		  inscell);
}

static void cmd_mem_text(FILE *out, const char *path, const struct mem_model *mm, unsigned top, bool verbose,
			 struct arena *a)
{
	cmd_mem_header(out, path, mm);
	cmd_mem_totals(out, mm);
	uint32_t live = 0;
	for (uint32_t b = 0; b < mm->nbuffers; b++)
		live += !(mm->buffers[b].flags & MEM_BUF_MERGED);
	uint32_t want = top ? top : live;
	const struct mem_buffer **list = xcalloc(mm->nbuffers ? mm->nbuffers : 1, sizeof *list);
	uint32_t n = mem_largest(mm, list, top);
	fprintf(out, "\nLargest allocations (%u of %u%s):\n", n < want ? n : want, live,
		verbose ? "" : "; live: instructions of the owning computation");
	if (!verbose)
		cmd_mem_table_head(out);
	for (uint32_t k = 0; k < n; k++) {
		struct arena_mark mk = arena_mark(a);
		if (verbose)
			cmd_mem_alloc_text(out, mm, list[k], k, a);
		else
			cmd_mem_table_row(out, mm, list[k], a);
		arena_release(a, mk);
	}
	free(list);
}

/* ---- JSON ---- */

static void cmd_mem_json(struct json_writer *w, const char *path, const struct mem_model *mm, unsigned top,
			 struct arena *a)
{
	struct hlo_module *m = mm->module;
	json_begin_object(w);
	json_key(w, "path");
	json_string(w, path);
	json_key(w, "module");
	json_string(w, m->name ? m->name->str : "");
	json_key(w, "partitioned");
	json_bool(w, mm->partitioned);
	json_key(w, "num_partitions");
	json_int(w, m->num_partitions);
	json_key(w, "target");
	json_string(w, mm->target->name);
	json_key(w, "hbm_bytes");
	if (mm->hbm_bytes)
		json_uint(w, mm->hbm_bytes);
	else
		json_null(w);
#define CMD_MEM_FIGURE(f) json_key(w, #f); json_uint(w, mm->f);
	MEM_FIGURES(CMD_MEM_FIGURE)
#undef CMD_MEM_FIGURE
#define CMD_MEM_KNOWN(f) if (mm->f) { json_key(w, #f); json_uint(w, mm->f); }
	MEM_FIGURES_KNOWN(CMD_MEM_KNOWN)
#undef CMD_MEM_KNOWN
	json_key(w, "peak_is_upper_bound");
	json_bool(w, mm->unoptimized);
	json_key(w, "peak_at");
	if (mm->peak_at) {
		json_begin_object(w);
		json_key(w, "instruction");
		json_string_n(w, ir_name(mm->peak_at), ir_name_len(mm->peak_at));
		json_key(w, "computation");
		json_string_n(w, ir_comp_name(mm->peak_at->comp), ir_comp_name_len(mm->peak_at->comp));
		json_end_object(w);
	} else {
		json_null(w);
	}
	json_key(w, "largest");
	json_begin_array(w);
	const struct mem_buffer **list = xcalloc(mm->nbuffers ? mm->nbuffers : 1, sizeof *list);
	uint32_t n = mem_largest(mm, list, top);
	for (uint32_t k = 0; k < n; k++) {
		struct arena_mark mk = arena_mark(a);
		struct cmd_mem_alloc al;
		const struct mem_buffer *b = list[k];
		cmd_mem_describe(mm, b, a, &al);
		json_begin_object(w);
		json_key(w, "instruction");
		json_string_n(w, ir_name(b->def), ir_name_len(b->def));
		json_key(w, "computation");
		json_string_n(w, ir_comp_name(b->def->comp), ir_comp_name_len(b->def->comp));
		json_key(w, "shape");
		json_string(w, al.shape);
		json_key(w, "bytes");
		json_uint(w, b->bytes);
		json_key(w, "unpadded_bytes");
		json_uint(w, b->unpadded);
		json_key(w, "memory_space");
		json_int(w, b->memory_space);
		json_key(w, "kind");
		json_string(w, mem_kind_name((enum mem_kind)b->kind));
		json_key(w, "op_name");
		if (al.op_name)
			json_string(w, al.op_name);
		else
			json_null(w);
		json_key(w, "source");
		if (al.file) {
			json_begin_object(w);
			json_key(w, "file");
			json_string(w, al.file);
			json_key(w, "line");
			json_int(w, al.line);
			json_end_object(w);
		} else {
			json_null(w);
		}
		json_end_object(w);
		arena_release(a, mk);
	}
	free(list);
	json_end_array(w);
	json_end_object(w);
}

/* -j: a worker loads one input and models its valid modules; the delivery
 * prints them in input order. */
struct cmd_mem_run {
	const struct cmd_mem_opts *o;
	const struct cmd_inputs *in;
	struct diag_sink *d;
	struct json_writer *w;
	bool first;
	int rc;
};

struct cmd_mem_file {
	struct cmd_loaded in;
	struct arena a;             /* the models */
	struct mem_model **models;  /* one per module, NULL for an invalid one */
	uint32_t nmodels;
	bool bad;
};

static void *cmd_mem_work(void *ctx, int k)
{
	struct cmd_mem_run *r = ctx;
	struct cmd_mem_file *mf = xcalloc(1, sizeof *mf);
	const char *path = r->in->paths[k];
	cmd_load_deferred(path, r->d, &mf->in);
	mf->bad = mf->in.d.errors != 0;
	struct mem_options mo = r->o->mo;
	struct xla_stats xs;
	if (xlastats_read(path, &xs)) {
		mo.xla_total_bytes = xlastats_total(&xs);
		xlastats_free(&xs);
	}
	mo.path = path;
	arena_init(&mf->a);
	for (struct hlo_module *m = mf->in.f ? mf->in.f->modules : NULL; m; m = m->next)
		mf->nmodels++;
	mf->models = xcalloc(mf->nmodels + 1, sizeof *mf->models);
	uint32_t n = 0;
	for (struct hlo_module *m = mf->in.f ? mf->in.f->modules : NULL; m; m = m->next, n++)
		if (m->valid)
			mf->models[n] = mem_analyze(m, &mo, &mf->a);
	return mf;
}

static void cmd_mem_drop(void *ctx, int k, void *res)
{
	(void)ctx, (void)k;
	struct cmd_mem_file *mf = res;
	free(mf->models);
	arena_free(&mf->a);
	cmd_loaded_free(&mf->in);
	free(mf);
}

static bool cmd_mem_deliver(void *ctx, int k, void *res)
{
	struct cmd_mem_run *r = ctx;
	struct cmd_mem_file *mf = res;
	diag_replay(r->d, &mf->in.d);
	if (mf->bad)
		r->rc = 2;
	const char *path = mf->in.src ? mf->in.src->path : r->in->paths[k];
	for (uint32_t j = 0; j < mf->nmodels; j++) {
		const struct mem_model *mm = mf->models[j];
		struct arena a;
		arena_init(&a);
		if (!mm) {
			r->rc = 2;
		} else if (r->o->json) {
			cmd_mem_json(r->w, path, mm, r->o->top, &a);
		} else {
			if (!r->first)
				fputc('\n', stdout);
			cmd_mem_text(stdout, path, mm, r->o->top, r->o->verbose, &a);
		}
		r->first = r->first && !mm;
		arena_free(&a);
	}
	cmd_mem_drop(ctx, k, res);
	return true;
}

/* The project config with the command line's target, hbm, partitioned
 * and source-root over it.  False after saying why. */
static bool cmd_mem_config(struct cmd_mem_opts *o, const struct args *g)
{
	struct diag_sink d;
	diag_init(&d, stderr, 20);
	bool ok = cmd_config_load(o->config, o->no_config, &o->cfg, &d) && args_config(g, &o->cfg);
	diag_free(&d);
	if (!ok)
		return false;
	o->mo.target = o->cfg.target;
	o->mo.target_how = o->cfg.target_how;
	if (o->cfg.hbm_bytes > 0)
		o->mo.hbm_bytes = (uint64_t)o->cfg.hbm_bytes;
	o->mo.partitioned = o->cfg.partitioned;
	config_apply_source_root(&o->cfg);
	return true;
}

/* mem's own options and where its inputs and config come from; false
 * after an error line. */
static bool cmd_mem_args(const struct args *g, struct cmd_mem_opts *o)
{
	struct cmd_lint_args l;
	const char *v = args_value(g, FLAG_FORMAT_TJ);
	if (v && strcmp(v, "text") && strcmp(v, "json")) {
		fprintf(stderr, "hlolint: error: unknown format '%s' (text or json)\n", v);
		return false;
	}
	o->json = v && !strcmp(v, "json");
	o->verbose = args_has(g, FLAG_VERBOSE_MEM);
	if (!cmd_lint_from(g, &l) || !args_uint(g, FLAG_TOP_MEM, &o->top))
		return false;
	o->jobs = l.jobs;
	o->all_stages = l.all_stages;
	o->config = l.config;
	o->no_config = l.no_config;
	return true;
}

int cmd_mem(const struct args *g)
{
	struct cmd_mem_opts o = { .mo = { .partitioned = -1 }, .top = 10 };
	config_init(&o.cfg);
	struct cmd_inputs in;
	if (!cmd_mem_args(g, &o) || !cmd_mem_config(&o, g) || !cmd_inputs(g->files, g->nfiles, o.all_stages, &in)) {
		config_free(&o.cfg);
		return 2;
	}
	int rc;
	struct diag_sink d;
	diag_init(&d, stderr, 20);
	d.keep = o.json;   /* JSON lists the inputs that failed */
	struct json_writer w;
	if (o.json) {
		json_init(&w, stdout, 2);
		json_begin_object(&w);
		json_key(&w, "schema");
		json_int(&w, 1);
		json_key(&w, "modules");
		json_begin_array(&w);
	}
	struct cmd_mem_run run = { .o = &o, .in = &in, .d = &d, .w = &w, .first = true };
	struct jobs j = { in.n, o.jobs, &run, cmd_mem_work, cmd_mem_deliver, cmd_mem_drop };
	jobs_run(&j);
	rc = run.rc;
	if (o.json) {
		json_end_array(&w);
		report_json_errors(&w, &d);
		json_end_object(&w);
		json_finish(&w);
	}
	diag_free(&d);
	if (fflush(stdout) != 0)
		rc = 2;   /* said by main_stdout_done */
	cmd_inputs_free(&in);
	config_free(&o.cfg);
	return rc;
}
