/* mem_decide.c - how the memory model reads a module's shapes: global or
 * per-device (MEMORY_FACTS §5.4 signals: schedule, SPMD markers, file
 * name), tiled or with the target's default tiling (docs/memory-model.md
 * §3).  It sizes nothing itself. */
#include "mem_int.h"
#include <stdio.h>
#include <string.h>
#include "metadata.h"
#include "sharding.h"

struct mem_signals {
	struct hlo_file *f;
	struct arena *scratch;        /* decoded values, released per instruction */
	const struct hlo_instr *pre, *post, *tiled, *split;
	const char *pre_what, *post_what;
	bool fused;                   /* some instruction is a fusion */
};

/* ---- Deciding how to read shapes (docs/memory-model.md §3) ---- */

/* Whether i's sharding is tiled or named anywhere: global shapes meant to
 * be split (decoded; only until the first one is found). */
static bool mem_splits(struct mem_signals *sg, const struct hlo_instr *i)
{
	struct arena_mark mk = arena_mark(sg->scratch);
	struct hlo_sharding sh;
	bool yes = ir_attr(i, ATTR_SHARDING) && sharding_of(sg->f, i, sg->scratch, &sh, NULL) &&
		   sharding_tiled_or_named(&sh);
	arena_release(sg->scratch, mk);
	return yes;
}

/* Whether a frontend attribute of i is Shardy's (xla.sdy.*): a module
 * before SPMD partitioning. */
static bool mem_sdy_attr(struct mem_signals *sg, const struct hlo_instr *i)
{
	const struct hlo_attr *fa = ir_attr(i, ATTR_FRONTEND_ATTRIBUTES);
	if (!fa)
		return false;
	struct arena_mark mk = arena_mark(sg->scratch);
	struct hlo_frontend_attrs attrs;
	bool yes = false;
	if (metadata_frontend(sg->f, ir_attr_value(fa), sg->scratch, &attrs, NULL))
		for (uint32_t k = 0; k < attrs.n && !yes; k++)
			yes = attrs.items[k].key_len > 8 && !memcmp(attrs.items[k].key, "xla.sdy.", 8);
	arena_release(sg->scratch, mk);
	return yes;
}

static bool mem_shape_tiled(const struct hlo_shape *s, int depth)
{
	if (!s || depth > 64)
		return false;
	if (s->type == PT_TUPLE) {
		for (uint32_t k = 0; k < s->rank; k++)
			if (mem_shape_tiled(s->elems[k], depth + 1))
				return true;
		return false;
	}
	return s->layout && s->layout->ntiles;
}

static enum walk_result mem_signal_visit(struct hlo_instr *i, void *ctx)
{
	struct mem_signals *sg = ctx;
	if (!sg->tiled && mem_shape_tiled(i->shape, 0))
		sg->tiled = i;
	sg->fused |= i->op == OP_FUSION;
	if (!sg->split) {
		if (mem_splits(sg, i))
			sg->split = i;
	}
	if (!sg->pre) {
		static const char *const pre[] = { "Sharding", "SPMDFullToShardShape", "SPMDShardToFullShape",
						   "xla.sdy.GlobalToLocalShape", "xla.sdy.LocalToGlobalShape",
						   "xla.sdy.FuncResultSharding", "xla.sdy.ShardingGroup",
						   "xla.sdy.PropagationBarrier", NULL };
		if (i->op == OP_CUSTOM_CALL)
			for (int k = 0; pre[k]; k++)
				if (attr_plain_is(sg->f, i, ATTR_CUSTOM_CALL_TARGET, pre[k])) {
					sg->pre = i;
					sg->pre_what = pre[k];
					break;
				}
		if (!sg->pre && mem_sdy_attr(sg, i)) {
			sg->pre = i;
			sg->pre_what = "frontend attribute xla.sdy.*";
		}
	}
	if (!sg->post) {
		const char *what = NULL;
		switch (i->op) {
		case OP_ALL_GATHER:
		case OP_REDUCE_SCATTER:
		case OP_ALL_TO_ALL:
		case OP_RAGGED_ALL_TO_ALL:
		case OP_COLLECTIVE_PERMUTE:
		case OP_PARTITION_ID:
			what = ir_opcode_name((enum opcode)i->op);
			break;
		case OP_ALL_REDUCE:
			if (ir_attr(i, ATTR_CHANNEL_ID) || ir_attr(i, ATTR_REPLICA_GROUPS))
				what = "all-reduce with channel_id/replica_groups";
			break;
		case OP_ALL_GATHER_START:
		case OP_ALL_REDUCE_START:
		case OP_COLLECTIVE_PERMUTE_START:
		case OP_COPY_START:
		case OP_ASYNC_START:
			what = "an async -start/-done pair";
			break;
		default:
			break;
		}
		if (what) {
			sg->post = i;
			sg->post_what = what;
		}
	}
	return WALK_CONTINUE;
}

/* Once a tile, a fusion and a post-partitioning op are found, only a
 * pre-partitioning custom call or frontend attribute can change the
 * decision (split counts only when nothing is tiled): computations with
 * neither are skipped, so the first one found stays the first in module
 * order. */
static bool mem_signal_want(uint32_t contains, bool entry, void *ctx)
{
	(void)entry;
	const struct mem_signals *sg = ctx;
	if (!sg->tiled || !sg->fused || !sg->post)
		return true;
	return !sg->pre && (contains & (IR_CONTAINS_CUSTOM_CALL | IR_CONTAINS_FRONTEND));
}

static const char *mem_base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

static bool mem_decide(struct mem_ctx *x, const struct mem_options *o, struct mem_signals *sg)
{
	struct mem_model *mm = x->mm;
	char *r = mm->partition_reason;
	size_t cap = sizeof mm->partition_reason;
	const char *base = o->path && strcmp(o->path, "-") ? mem_base_name(o->path) : NULL;
	if (o->partitioned >= 0) {
		snprintf(r, cap, "forced by --partitioned=%s", o->partitioned ? "yes" : "no");
		return o->partitioned;
	}
	if (base && strstr(base, "before_optimizations")) {
		snprintf(r, cap, "the file name says before_optimizations, docs/memory-model.md §3");
		return false;
	}
	if (base && strstr(base, "after_optimizations")) {
		snprintf(r, cap, "the file name says after_optimizations, docs/memory-model.md §3");
		return true;
	}
	if (x->m->is_scheduled) {
		snprintf(r, cap, "is_scheduled=true: an optimized module, docs/memory-model.md §3");
		return true;
	}
	if (sg->pre) {
		snprintf(r, cap, "%s on %.*s exists only before SPMD partitioning, docs/memory-model.md §3", sg->pre_what,
			 IR_NM(sg->pre));
		return false;
	}
	if (sg->post) {
		snprintf(r, cap, "%s (%.*s) is added by the SPMD partitioner, docs/memory-model.md §3", sg->post_what,
			 IR_NM(sg->post));
		return true;
	}
	if (sg->tiled) {
		snprintf(r, cap, "TPU tiles (on %.*s) exist only after layout assignment, docs/memory-model.md §3",
			 IR_NM(sg->tiled));
		return true;
	}
	if (!sg->split) {
		snprintf(r, cap, "no sharding splits an array");
		return true;
	}
	snprintf(r, cap, "shardings split arrays (e.g. %.*s) and nothing marks the module as partitioned, "
			 "docs/memory-model.md §3", IR_NM(sg->split));
	return false;
}

/* Decides how x's module is read: whether it is before optimizations, the
 * target and its capacity, default tiling, per-device shapes. */
void mem_decide_reading(struct mem_ctx *x, const struct mem_options *o)
{
	struct mem_model *mm = x->mm;
	struct hlo_module *m = x->m;
	/* One walk over every instruction for the §5.4 signals and tiles. */
	struct mem_signals sg = { .f = m->file, .scratch = &x->scratch };
	struct ir_visitor v = { .want = mem_signal_want, .instr = mem_signal_visit };
	ir_walk(m, &v, &sg);
	{
		/* Before optimizations: no schedule, no fusion, and the file name
		 * or a pre-partitioning construct says so (docs/memory-model.md §3). */
		const char *base = o->path && strcmp(o->path, "-") ? mem_base_name(o->path) : NULL;
		mm->unoptimized = !m->is_scheduled && !sg.fused &&
				  ((base && strstr(base, "before_optimizations")) || sg.pre);
	}

	if (o->target) {
		mm->target = o->target;
		snprintf(mm->target_reason, sizeof mm->target_reason, "%s",
			 o->target_how ? o->target_how : "given with --target");
	} else {
		mm->target = target_infer(m, o->path, mm->target_reason, sizeof mm->target_reason);
	}
	mm->hbm_bytes = o->hbm_bytes ? o->hbm_bytes : mm->target->hbm_bytes;
	mm->hbm_given = o->hbm_bytes != 0;
	/* Default tiling only for a TPU generation we know, and only when the
	 * dump has no layout assignment yet (no tiles anywhere). */
	x->in->gen = mm->target->tpu_gen;
	x->in->tpu_default = mm->target->kind == TARGET_TPU && mm->target->tpu_gen > 0 && !sg.tiled;
	x->in->tpu_laid_out = sg.tiled != NULL;
	x->in->host_is_device = mm->target->kind == TARGET_CPU;
	/* XLA:CPU's buffer assignment in corpora/xla does not share these. */
	x->in->share_elementwise = mm->shares_in_place = mm->target->kind != TARGET_CPU;
	mm->default_tiling = x->in->tpu_default;
	mm->partitioned = x->in->partitioned = mem_decide(x, o, &sg);
}
