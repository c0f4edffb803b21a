/* genhlo.c - writes a large, deterministic, optimized-style HLO module for
 * benchmarks: a scheduled 8-way SPMD train step with TPU tiled layouts,
 * shardings, metadata, fusions, scan-style while loops, collectives,
 * custom calls, host-offload copies in S(5) and constants (some elided).
 * Every shape is consistent, so the module parses AND verifies.  It is not
 * a model of any real network and makes no claim about its numerics.
 *
 * -k SHAPE writes another shape of module (see "other module shapes").
 *
 * usage: genhlo [-s SEED] [-m MIB] [-k SHAPE] [-o FILE]   (defaults: 1, 100, train, stdout) */
#include <errno.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- output buffers -------------------------------------------------- */

struct gen_buf {
	char *p;
	size_t n, cap;
};

static void gen_die(const char *msg)
{
	fprintf(stderr, "genhlo: %s\n", msg);
	exit(1);
}

__attribute__((format(printf, 2, 3)))
static void bput(struct gen_buf *b, const char *fmt, ...)
{
	for (;;) {
		va_list ap;
		va_start(ap, fmt);
		int k = vsnprintf(b->p ? b->p + b->n : NULL, b->p ? b->cap - b->n : 0, fmt, ap);
		va_end(ap);
		if (k < 0)
			gen_die("format error");
		if (b->p && b->n + (size_t)k < b->cap) {
			b->n += (size_t)k;
			return;
		}
		size_t cap = b->cap ? b->cap : 1 << 16;
		while (cap < b->n + (size_t)k + 1)
			cap *= 2;
		b->p = realloc(b->p, cap);
		if (!b->p)
			gen_die("out of memory");
		b->cap = cap;
	}
}

static FILE *gen_out;
static uint64_t gen_written;    /* bytes already in the file */
static uint64_t gen_instrs;

static void gen_flush(struct gen_buf *b)
{
	if (b->n && fwrite(b->p, 1, b->n, gen_out) != b->n)
		gen_die("write error");
	gen_written += b->n;
	b->n = 0;
}

/* ---- randomness and names --------------------------------------------- */

static uint64_t gen_state;

static uint64_t gen_rand(void)
{
	/* splitmix64: tiny, seedable, same stream on every platform */
	uint64_t z = (gen_state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static unsigned gen_below(unsigned n)
{
	return (unsigned)(gen_rand() % n);
}

static unsigned gen_uid = 5;   /* .1-.4 are the reducers */
static unsigned gen_channel = 1;

typedef char gen_name[48];

static const char *gen_new(gen_name out, const char *prefix)
{
	snprintf(out, sizeof(gen_name), "%s.%u", prefix, gen_uid++);
	return out;
}

/* ---- shapes ------------------------------------------------------------ */

#define ACT     "bf16[8,1024,1024]{2,1,0:T(8,128)(2,1)}"
#define ACT_S5  "bf16[8,1024,1024]{2,1,0:T(8,128)(2,1)S(5)}"
#define ACT_F   "f32[8,1024,1024]{2,1,0:T(8,128)}"
#define ACT1    "bf16[1,1024,1024]{2,1,0:T(8,128)(2,1)}"
#define MAT     "bf16[1024,1024]{1,0:T(8,128)(2,1)}"
#define MAT_F   "f32[1024,1024]{1,0:T(8,128)}"
#define STACK   "bf16[4,1024,1024]{2,1,0:T(8,128)(2,1)}"
#define SAVED   "bf16[4,8,1024,1024]{3,2,1,0:T(8,128)(2,1)}"
#define SAVED1  "bf16[1,8,1024,1024]{3,2,1,0:T(8,128)(2,1)}"
#define VEC     "f32[1024]{0:T(256)}"
#define SCALAR  "f32[]{:T(256)}"
#define S32     "s32[]{:T(256)}"
#define U32     "u32[]{:T(256)}"
#define PRED    "pred[]{:T(1024)}"
/* Signature spellings (computation headers carry no layouts). */
#define ACT_SIG   "bf16[8,1024,1024]"
#define MAT_SIG   "bf16[1024,1024]"
#define STACK_SIG "bf16[4,1024,1024]"
#define VEC_SIG   "f32[1024]"
#define CARRY     "(" S32 ", " ACT ", " STACK ", " VEC ", " SAVED ")"
#define CARRY_SIG "(s32[], bf16[8,1024,1024], bf16[4,1024,1024], f32[1024], bf16[4,8,1024,1024])"

#define NUM_W 32      /* bf16[1024,1024] weights, sharded */
#define NUM_STACK 8   /* stacked weights scanned by while loops */
#define NUM_SCALE 16  /* f32[1024] norm scales */
#define NUM_OUT_W 8   /* weights updated and returned (aliased) */
#define TRIP 4

static unsigned gen_layer;   /* current layer, for metadata */

static const char *const gen_files[] = {
	"/workspace/model/transformer.py", "/workspace/model/layers.py",
	"/workspace/train/step.py", "/opt/venv/lib/python3.11/site-packages/flax/linen/linear.py",
};

/* metadata={...} for an op of the current layer. */
static const char *gen_meta(const char *what)
{
	static char m[320];
	unsigned f = gen_layer % 4 == 3 ? 3 : gen_below(3);
	snprintf(m, sizeof m,
		 "metadata={op_name=\"jit(train_step)/jit(main)/transformer/layer_%u/%s\" "
		 "source_file=\"%s\" source_line=%u}",
		 gen_layer, what, gen_files[f], 20 + gen_below(400));
	return m;
}

static const char *gen_backend(void)
{
	static char c[256];
	snprintf(c, sizeof c,
		 "backend_config={\"flag_configs\":[],\"scoped_memory_configs\":[],"
		 "\"used_scoped_memory_configs\":[],\"output_chunk_bound_config\":"
		 "{\"output_chunk_bound\":[\"1\",\"%u\"]},\"estimated_cycles\":\"%u\"}",
		 128u << gen_below(4), 1000 + gen_below(900000));
	return c;
}

/* ---- fused computations ------------------------------------------------ */
/* Each writes one computation to the file and returns its name. */

static void gen_begin_fused(struct gen_buf *b, gen_name comp, const char *sig, const char *result)
{
	gen_new(comp, "%fused_computation");
	bput(b, "%s (%s) -> %s {\n", comp, sig, result);
}

static void gen_end(struct gen_buf *b)
{
	bput(b, "}\n\n");
	gen_flush(b);
}

#define I(...) do { bput(b, "  " __VA_ARGS__); gen_instrs++; } while (0)

static const char *gen_fused_dot(gen_name comp)
{
	static struct gen_buf fb;
	struct gen_buf *b = &fb;
	gen_name p0, p1, r;
	gen_new(p0, "%param_0");
	gen_new(p1, "%param_1");
	char sig[160];
	snprintf(sig, sizeof sig, "%s: " ACT_SIG ", %s: " MAT_SIG, p0 + 1, p1 + 1);
	gen_begin_fused(b, comp, sig, ACT_SIG);
	I("%s = " ACT " parameter(0)\n", p0);
	I("%s = " MAT " parameter(1)\n", p1);
	I("ROOT %s = " ACT " dot(%s, %s), lhs_contracting_dims={2}, rhs_contracting_dims={0}, %s\n",
	  gen_new(r, "%dot"), p0, p1, gen_meta("mlp/dot_general"));
	gen_end(b);
	return comp;
}

/* Broadcast of a scalar f32 constant to shape sh. */
static const char *gen_splat(struct gen_buf *b, gen_name out, const char *sh, const char *value)
{
	gen_name c;
	I("%s = " SCALAR " constant(%s)\n", gen_new(c, "%constant"), value);
	I("%s = %s broadcast(%s), dimensions={}\n", gen_new(out, "%broadcast"), sh, c);
	return out;
}

static const char *gen_fused_gelu(gen_name comp)
{
	static struct gen_buf fb;
	struct gen_buf *b = &fb;
	gen_name p0, x, x2, x3, k1, m3, a1, k2, m4, t, k3, a2, k4, m5, m6, r;
	gen_new(p0, "%param_0");
	char sig[96];
	snprintf(sig, sizeof sig, "%s: " ACT_SIG, p0 + 1);
	gen_begin_fused(b, comp, sig, ACT_SIG);
	I("%s = " ACT " parameter(0)\n", p0);
	I("%s = " ACT_F " convert(%s), %s\n", gen_new(x, "%convert"), p0,
	  gen_meta("mlp/convert_element_type[new_dtype=float32 weak_type=False]"));
	I("%s = " ACT_F " multiply(%s, %s), %s\n", gen_new(x2, "%multiply"), x, x, gen_meta("mlp/gelu/integer_pow[y=3]"));
	I("%s = " ACT_F " multiply(%s, %s), %s\n", gen_new(x3, "%multiply"), x2, x, gen_meta("mlp/gelu/integer_pow[y=3]"));
	gen_splat(b, k1, ACT_F, "0.044715");
	I("%s = " ACT_F " multiply(%s, %s), %s\n", gen_new(m3, "%multiply"), x3, k1, gen_meta("mlp/gelu/mul"));
	I("%s = " ACT_F " add(%s, %s), %s\n", gen_new(a1, "%add"), x, m3, gen_meta("mlp/gelu/add"));
	gen_splat(b, k2, ACT_F, "0.797884583");
	I("%s = " ACT_F " multiply(%s, %s), %s\n", gen_new(m4, "%multiply"), a1, k2, gen_meta("mlp/gelu/mul"));
	I("%s = " ACT_F " tanh(%s), %s\n", gen_new(t, "%tanh"), m4, gen_meta("mlp/gelu/tanh"));
	gen_splat(b, k3, ACT_F, "1");
	I("%s = " ACT_F " add(%s, %s), %s\n", gen_new(a2, "%add"), t, k3, gen_meta("mlp/gelu/add"));
	gen_splat(b, k4, ACT_F, "0.5");
	I("%s = " ACT_F " multiply(%s, %s), %s\n", gen_new(m5, "%multiply"), x, k4, gen_meta("mlp/gelu/mul"));
	I("%s = " ACT_F " multiply(%s, %s), %s\n", gen_new(m6, "%multiply"), m5, a2, gen_meta("mlp/gelu/mul"));
	I("ROOT %s = " ACT " convert(%s), %s\n", gen_new(r, "%convert"), m6,
	  gen_meta("mlp/convert_element_type[new_dtype=bfloat16 weak_type=False]"));
	gen_end(b);
	return comp;
}

static const char *gen_fused_sumsq(gen_name comp)
{
	static struct gen_buf fb;
	struct gen_buf *b = &fb;
	gen_name p0, x, sq, z, r;
	gen_new(p0, "%param_0");
	char sig[96];
	snprintf(sig, sizeof sig, "%s: " ACT_SIG, p0 + 1);
	gen_begin_fused(b, comp, sig, VEC_SIG);
	I("%s = " ACT " parameter(0)\n", p0);
	I("%s = " ACT_F " convert(%s), %s\n", gen_new(x, "%convert"), p0,
	  gen_meta("norm/convert_element_type[new_dtype=float32 weak_type=False]"));
	I("%s = " ACT_F " multiply(%s, %s), %s\n", gen_new(sq, "%multiply"), x, x, gen_meta("norm/square"));
	I("%s = " SCALAR " constant(0)\n", gen_new(z, "%constant"));
	I("ROOT %s = " VEC " reduce(%s, %s), dimensions={0,1}, to_apply=%%add.f32, %s\n",
	  gen_new(r, "%reduce"), sq, z, gen_meta("norm/reduce_sum"));
	gen_end(b);
	return comp;
}

static const char *gen_fused_rmsnorm(gen_name comp)
{
	static struct gen_buf fb;
	struct gen_buf *b = &fb;
	gen_name p0, p1, p2, k, mean, e, a, rs, br, x, m, bs, m2, r;
	gen_new(p0, "%param_0");
	gen_new(p1, "%param_1");
	gen_new(p2, "%param_2");
	char sig[200];
	snprintf(sig, sizeof sig, "%s: " ACT_SIG ", %s: " VEC_SIG ", %s: " VEC_SIG, p0 + 1, p1 + 1, p2 + 1);
	gen_begin_fused(b, comp, sig, ACT_SIG);
	I("%s = " ACT " parameter(0)\n", p0);
	I("%s = " VEC " parameter(1)\n", p1);
	I("%s = " VEC " parameter(2)\n", p2);
	gen_splat(b, k, VEC, "0.00012207031");
	I("%s = " VEC " multiply(%s, %s), %s\n", gen_new(mean, "%multiply"), p1, k, gen_meta("norm/div"));
	gen_splat(b, e, VEC, "1e-06");
	I("%s = " VEC " add(%s, %s), %s\n", gen_new(a, "%add"), mean, e, gen_meta("norm/add"));
	I("%s = " VEC " rsqrt(%s), %s\n", gen_new(rs, "%rsqrt"), a, gen_meta("norm/rsqrt"));
	I("%s = " ACT_F " broadcast(%s), dimensions={2}, %s\n", gen_new(br, "%broadcast"), rs, gen_meta("norm/mul"));
	I("%s = " ACT_F " convert(%s), %s\n", gen_new(x, "%convert"), p0,
	  gen_meta("norm/convert_element_type[new_dtype=float32 weak_type=False]"));
	I("%s = " ACT_F " multiply(%s, %s), %s\n", gen_new(m, "%multiply"), x, br, gen_meta("norm/mul"));
	I("%s = " ACT_F " broadcast(%s), dimensions={2}, %s\n", gen_new(bs, "%broadcast"), p2, gen_meta("norm/mul"));
	I("%s = " ACT_F " multiply(%s, %s), %s\n", gen_new(m2, "%multiply"), m, bs, gen_meta("norm/mul"));
	I("ROOT %s = " ACT " convert(%s), %s\n", gen_new(r, "%convert"), m2,
	  gen_meta("norm/convert_element_type[new_dtype=bfloat16 weak_type=False]"));
	gen_end(b);
	return comp;
}

static const char *gen_fused_residual(gen_name comp)
{
	static struct gen_buf fb;
	struct gen_buf *b = &fb;
	gen_name p0, p1, r;
	gen_new(p0, "%param_0");
	gen_new(p1, "%param_1");
	char sig[160];
	snprintf(sig, sizeof sig, "%s: " ACT_SIG ", %s: " ACT_SIG, p0 + 1, p1 + 1);
	gen_begin_fused(b, comp, sig, ACT_SIG);
	I("%s = " ACT " parameter(0)\n", p0);
	I("%s = " ACT " parameter(1)\n", p1);
	I("ROOT %s = " ACT " add(%s, %s), %s\n", gen_new(r, "%add"), p0, p1, gen_meta("residual/add"));
	gen_end(b);
	return comp;
}

static const char *gen_fused_grad(gen_name comp)
{
	static struct gen_buf fb;
	struct gen_buf *b = &fb;
	gen_name p0, p1, r;
	gen_new(p0, "%param_0");
	gen_new(p1, "%param_1");
	char sig[160];
	snprintf(sig, sizeof sig, "%s: " ACT_SIG ", %s: " ACT_SIG, p0 + 1, p1 + 1);
	gen_begin_fused(b, comp, sig, MAT_SIG);
	I("%s = " ACT " parameter(0)\n", p0);
	I("%s = " ACT " parameter(1)\n", p1);
	I("ROOT %s = " MAT " dot(%s, %s), lhs_contracting_dims={0,1}, rhs_contracting_dims={0,1}, %s\n",
	  gen_new(r, "%dot"), p0, p1, gen_meta("transpose(jvp(mlp))/dot_general"));
	gen_end(b);
	return comp;
}

static const char *gen_fused_sgd(gen_name comp)
{
	static struct gen_buf fb;
	struct gen_buf *b = &fb;
	gen_name p0, p1, w, g, k, m, a, r;
	gen_new(p0, "%param_0");
	gen_new(p1, "%param_1");
	char sig[160];
	snprintf(sig, sizeof sig, "%s: " MAT_SIG ", %s: " MAT_SIG, p0 + 1, p1 + 1);
	gen_begin_fused(b, comp, sig, MAT_SIG);
	I("%s = " MAT " parameter(0)\n", p0);
	I("%s = " MAT " parameter(1)\n", p1);
	I("%s = " MAT_F " convert(%s)\n", gen_new(w, "%convert"), p0);
	I("%s = " MAT_F " convert(%s)\n", gen_new(g, "%convert"), p1);
	gen_splat(b, k, MAT_F, "-0.0003");
	I("%s = " MAT_F " multiply(%s, %s), %s\n", gen_new(m, "%multiply"), g, k, gen_meta("optimizer/mul"));
	I("%s = " MAT_F " add(%s, %s), %s\n", gen_new(a, "%add"), w, m, gen_meta("optimizer/add"));
	I("ROOT %s = " MAT " convert(%s)\n", gen_new(r, "%convert"), a);
	gen_end(b);
	return comp;
}

static const char *gen_fused_loss(gen_name comp)
{
	static struct gen_buf fb;
	struct gen_buf *b = &fb;
	gen_name p0, x, sq, z, r;
	gen_new(p0, "%param_0");
	char sig[96];
	snprintf(sig, sizeof sig, "%s: " ACT_SIG, p0 + 1);
	gen_begin_fused(b, comp, sig, "f32[]");
	I("%s = " ACT " parameter(0)\n", p0);
	I("%s = " ACT_F " convert(%s)\n", gen_new(x, "%convert"), p0);
	I("%s = " ACT_F " multiply(%s, %s), %s\n", gen_new(sq, "%multiply"), x, x, gen_meta("loss/square"));
	I("%s = " SCALAR " constant(0)\n", gen_new(z, "%constant"));
	I("ROOT %s = " SCALAR " reduce(%s, %s), dimensions={0,1,2}, to_apply=%%add.f32, %s\n",
	  gen_new(r, "%reduce"), sq, z, gen_meta("loss/reduce_sum"));
	gen_end(b);
	return comp;
}

/* ---- blocks of the main stream ------------------------------------------ */

static const char *gen_fusion(struct gen_buf *b, gen_name out, const char *shape, const char *kind,
			      const char *comp, const char *operands, const char *what)
{
	I("%s = %s fusion(%s), kind=%s, calls=%s, %s, %s\n", gen_new(out, "%fusion"), shape,
	  operands, kind, comp, gen_meta(what), gen_backend());
	return out;
}

/* The reducer must match the element type: bf16 gradients, f32 otherwise. */
static const char *gen_all_reduce(struct gen_buf *b, gen_name out, const char *shape,
				  const char *x, const char *what)
{
	const char *red = shape[0] == 'b' ? "%add.bf16" : "%add.f32";
	if (gen_below(2))
		I("%s = %s all-reduce(%s), channel_id=%u, replica_groups=[1,8]<=[8], "
		  "use_global_device_ids=true, to_apply=%s, %s, "
		  "backend_config={\"flag_configs\":[],\"barrier_config\":{\"barrier_type\":\"CUSTOM\",\"id\":\"%u\"}}\n",
		  gen_new(out, "%all-reduce"), shape, x, gen_channel++, red, gen_meta(what), gen_below(64));
	else
		I("%s = %s all-reduce(%s), channel_id=%u, replica_groups={{0,1,2,3,4,5,6,7}}, "
		  "use_global_device_ids=true, to_apply=%s, %s\n",
		  gen_new(out, "%all-reduce"), shape, x, gen_channel++, red, gen_meta(what));
	return out;
}

/* One layer: dot, gelu, sum of squares (all-reduced), rms norm, residual.
 * Returns the new activation name in out. */
static void gen_layer_block(struct gen_buf *b, gen_name out, const char *h, const char *w,
			    const char *scale)
{
	gen_name c, f1, f2, f3, ar, f4;
	char opl[4096];
	snprintf(opl, sizeof opl, "%s, %s", h, w);
	gen_fusion(b, f1, ACT, "kOutput", gen_fused_dot(c), opl, "mlp/dot_general");
	gen_fusion(b, f2, ACT, "kLoop", gen_fused_gelu(c), f1, "mlp/gelu/mul");
	gen_fusion(b, f3, VEC, "kInput", gen_fused_sumsq(c), f2, "norm/reduce_sum");
	gen_all_reduce(b, ar, VEC, f3, "norm/psum");
	snprintf(opl, sizeof opl, "%s, %s, %s", f2, ar, scale);
	gen_fusion(b, f4, ACT, "kLoop", gen_fused_rmsnorm(c), opl, "norm/mul");
	snprintf(opl, sizeof opl, "%s, %s", h, f4);
	gen_fusion(b, out, ACT, "kLoop", gen_fused_residual(c), opl, "residual/add");
}

/* A scan over TRIP layers of a stacked weight: while + body + condition. */
static void gen_scan(struct gen_buf *eb, gen_name out, const char *h, const char *stack,
		     const char *scale, gen_name saved_out)
{
	static struct gen_buf bb;
	struct gen_buf *b = &bb;
	gen_name body, cond, arg, i, hh, w, sc, sv, z, ds, bc, nh, bh, dus, one, nxt, r;
	gen_new(body, "%while_body");
	gen_new(arg, "%arg_tuple");
	/* The body's fused computations go to the file first (callees first). */
	gen_name bc_dot, bc_gelu, bc_sumsq, bc_norm, bc_res;
	gen_fused_dot(bc_dot);
	gen_fused_gelu(bc_gelu);
	gen_fused_sumsq(bc_sumsq);
	gen_fused_rmsnorm(bc_norm);
	gen_fused_residual(bc_res);
	bput(b, "%s (%s: " CARRY_SIG ") -> " CARRY_SIG " {\n", body, arg + 1);
	I("%s = " CARRY " parameter(0)\n", arg);
	I("%s = " S32 " get-tuple-element(%s), index=0\n", gen_new(i, "%get-tuple-element"), arg);
	I("%s = " ACT " get-tuple-element(%s), index=1\n", gen_new(hh, "%get-tuple-element"), arg);
	I("%s = " STACK " get-tuple-element(%s), index=2\n", gen_new(w, "%get-tuple-element"), arg);
	I("%s = " VEC " get-tuple-element(%s), index=3\n", gen_new(sc, "%get-tuple-element"), arg);
	I("%s = " SAVED " get-tuple-element(%s), index=4\n", gen_new(sv, "%get-tuple-element"), arg);
	I("%s = " S32 " constant(0)\n", gen_new(z, "%constant"));
	I("%s = " ACT1 " dynamic-slice(%s, %s, %s, %s), dynamic_slice_sizes={1,1024,1024}, %s\n",
	  gen_new(ds, "%dynamic-slice"), w, i, z, z, gen_meta("scan/dynamic_slice"));
	I("%s = " MAT " bitcast(%s)\n", gen_new(bc, "%bitcast"), ds);
	/* Same block as gen_layer_block, with the pre-emitted computations. */
	gen_name f1, f2, f3, ar, f4;
	char opl[4096];
	snprintf(opl, sizeof opl, "%s, %s", hh, bc);
	gen_fusion(b, f1, ACT, "kOutput", bc_dot, opl, "scan/mlp/dot_general");
	gen_fusion(b, f2, ACT, "kLoop", bc_gelu, f1, "scan/mlp/gelu/mul");
	gen_fusion(b, f3, VEC, "kInput", bc_sumsq, f2, "scan/norm/reduce_sum");
	gen_all_reduce(b, ar, VEC, f3, "scan/norm/psum");
	snprintf(opl, sizeof opl, "%s, %s, %s", f2, ar, sc);
	gen_fusion(b, f4, ACT, "kLoop", bc_norm, opl, "scan/norm/mul");
	snprintf(opl, sizeof opl, "%s, %s", hh, f4);
	gen_fusion(b, nh, ACT, "kLoop", bc_res, opl, "scan/residual/add");
	I("%s = " SAVED1 " bitcast(%s)\n", gen_new(bh, "%bitcast"), nh);
	I("%s = " SAVED " dynamic-update-slice(%s, %s, %s, %s, %s, %s), %s\n",
	  gen_new(dus, "%dynamic-update-slice"), sv, bh, i, z, z, z,
	  gen_meta("scan/dynamic_update_slice"));
	I("%s = " S32 " constant(1)\n", gen_new(one, "%constant"));
	I("%s = " S32 " add(%s, %s), %s\n", gen_new(nxt, "%add"), i, one, gen_meta("scan/add"));
	I("ROOT %s = " CARRY " tuple(%s, %s, %s, %s, %s)\n", gen_new(r, "%tuple"), nxt, nh, w, sc, dus);
	gen_end(b);

	gen_name carg, ci, cn, cr;
	gen_new(cond, "%while_cond");
	gen_new(carg, "%arg_tuple");
	bput(b, "%s (%s: " CARRY_SIG ") -> pred[] {\n", cond, carg + 1);
	I("%s = " CARRY " parameter(0)\n", carg);
	I("%s = " S32 " get-tuple-element(%s), index=0\n", gen_new(ci, "%get-tuple-element"), carg);
	I("%s = " S32 " constant(%d)\n", gen_new(cn, "%constant"), TRIP);
	I("ROOT %s = " PRED " compare(%s, %s), direction=LT, %s\n", gen_new(cr, "%compare"), ci, cn,
	  gen_meta("scan/lt"));
	gen_end(b);

	/* The loop itself, in the caller. */
	b = eb;
	gen_name c0, zf, init0, tup, wl;
	I("%s = " S32 " constant(0)\n", gen_new(c0, "%constant"));
	I("%s = " SCALAR " constant(0)\n", gen_new(zf, "%constant"));
	I("%s = " SAVED " broadcast(%s), dimensions={}\n", gen_new(init0, "%broadcast"), zf);
	I("%s = " CARRY " tuple(%s, %s, %s, %s, %s)\n", gen_new(tup, "%tuple"), c0, h, stack, scale, init0);
	I("%s = " CARRY " while(%s), condition=%s, body=%s, %s, "
	  "backend_config={\"known_trip_count\":{\"n\":\"%d\"},\"known_init_step\":{\"init\":\"0\",\"step\":\"1\"}}\n",
	  gen_new(wl, "%while"), tup, cond, body, gen_meta("scan/while[cond_nconsts=0 body_nconsts=0]"), TRIP);
	I("%s = " ACT " get-tuple-element(%s), index=1\n", gen_new(out, "%get-tuple-element"), wl);
	I("%s = " SAVED " get-tuple-element(%s), index=4\n", gen_new(saved_out, "%get-tuple-element"), wl);
}

/* Offload an activation to host memory (S(5)) and prefetch it back. */
static void gen_offload(struct gen_buf *b, gen_name out, const char *h)
{
	gen_name cs, cd, cs2;
	I("%s = (" ACT_S5 ", " ACT ", u32[]) copy-start(%s), %s\n",
	  gen_new(cs, "%copy-start"), h, gen_meta("remat/offload"));
	I("%s = " ACT_S5 " copy-done(%s)\n", gen_new(cd, "%copy-done"), cs);
	I("%s = (" ACT ", " ACT_S5 ", u32[]) copy-start(%s)\n", gen_new(cs2, "%copy-start"), cd);
	I("%s = " ACT " copy-done(%s)\n", gen_new(out, "%copy-done"), cs2);
}

/* A Pallas-style kernel call with a JSON config. */
static void gen_custom(struct gen_buf *b, gen_name out, const char *h, const char *w)
{
	I("%s = " ACT " custom-call(%s, %s), custom_call_target=\"tpu_custom_call\", "
	  "operand_layout_constraints={" ACT ", " MAT "}, %s, "
	  "backend_config={\"custom_call_config\":{\"body\":\"TUxJUu%08x\",\"cost_estimate\":"
	  "{\"flops\":%u,\"transcendentals\":0,\"bytes_accessed\":%u},\"serialization_format\":1,"
	  "\"needs_layout_passes\":true},\"implicit_sharding\":{\"type\":\"MANUAL\"}}\n",
	  gen_new(out, "%custom-call"), h, w, gen_meta("attention/pallas_call[name=flash_attention]"),
	  (unsigned)gen_rand(), 1u << 30, 1u << 24);
}

/* Gathers the activation from 1/8 slices (all-gather over the batch). */
static void gen_gather(struct gen_buf *b, gen_name out, const char *h)
{
	gen_name pid, idx, z, ds;
	I("%s = " U32 " partition-id()\n", gen_new(pid, "%partition-id"));
	I("%s = " S32 " convert(%s)\n", gen_new(idx, "%convert"), pid);
	I("%s = " S32 " constant(0)\n", gen_new(z, "%constant"));
	I("%s = " ACT1 " dynamic-slice(%s, %s, %s, %s), dynamic_slice_sizes={1,1024,1024}, %s\n",
	  gen_new(ds, "%dynamic-slice"), h, idx, z, z, gen_meta("shard/dynamic_slice"));
	I("%s = " ACT " all-gather(%s), channel_id=%u, replica_groups=[1,8]<=[8], dimensions={0}, "
	  "use_global_device_ids=true, %s\n",
	  gen_new(out, "%all-gather"), ds, gen_channel++, gen_meta("shard/all_gather"));
}

/* A printed f32[1024] scale vector (most constants this big are elided). */
static void gen_printed_vec(struct gen_buf *b, gen_name out)
{
	I("%s = " VEC " constant({", gen_new(out, "%constant"));
	for (int k = 0; k < 1024; k++)
		bput(b, "%s%.6g", k ? ", " : "", 0.5 + (double)gen_below(1000000) / 1e6);
	bput(b, "})\n");
}

/* ---- the module ----------------------------------------------------------- */

static void gen_module(uint64_t target)
{
	struct gen_buf hb = { 0 }, eb = { 0 };
	struct gen_buf *b = &hb;

	/* Header: parameters are fixed up front, so the layout is known. */
	bput(b, "HloModule jit_train_step, is_scheduled=true, input_output_alias={ ");
	for (int k = 0; k < NUM_OUT_W; k++)
		bput(b, "%s{%d}: (%d, {}, may-alias)", k ? ", " : "", k + 2, k + 1);
	bput(b, " }, entry_computation_layout={(" ACT);
	for (int k = 0; k < NUM_W; k++) {
		if ((k + 1) % 5 == 0)   /* XLA marks every 5th element */
			bput(b, ", /*index=%d*/" MAT, k + 1);
		else
			bput(b, ", " MAT);
	}
	for (int k = 0; k < NUM_STACK; k++)
		bput(b, ", " STACK);
	for (int k = 0; k < NUM_SCALE; k++)
		bput(b, ", " VEC);
	bput(b, ")->(" ACT ", " SCALAR);
	for (int k = 0; k < NUM_OUT_W; k++)
		bput(b, ", " MAT);
	bput(b, ")}, allow_spmd_sharding_propagation_to_output={true}, num_partitions=8\n\n");
	bput(b, "%%add.f32 (x.1: f32[], y.1: f32[]) -> f32[] {\n"
		"  %%x.1 = f32[] parameter(0)\n  %%y.1 = f32[] parameter(1)\n"
		"  ROOT %%add.2 = f32[] add(%%x.1, %%y.1)\n}\n\n"
		"%%add.bf16 (x.3: bf16[], y.3: bf16[]) -> bf16[] {\n"
		"  %%x.3 = bf16[] parameter(0)\n  %%y.3 = bf16[] parameter(1)\n"
		"  ROOT %%add.4 = bf16[] add(%%x.3, %%y.3)\n}\n\n");
	gen_flush(b);

	/* Entry parameters. */
	gen_name input, w[NUM_W], st[NUM_STACK], sc[NUM_SCALE];
	char *sig = NULL;
	size_t sigcap = 0;
	FILE *sf = open_memstream(&sig, &sigcap);
	b = &eb;
	unsigned pno = 0;
	gen_new(input, "%input");
	fprintf(sf, "%s: " ACT_SIG, input + 1);
	I("%s = " ACT " parameter(%u), sharding={devices=[8,1,1]<=[8]}, metadata={op_name=\"batch[\\'tokens\\']\"}\n",
	  input, pno++);
	for (int k = 0; k < NUM_W; k++) {
		gen_new(w[k], "%w");
		fprintf(sf, ", %s: " MAT_SIG, w[k] + 1);
		I("%s = " MAT " parameter(%u), sharding={devices=[8,1]<=[8]}, "
		  "metadata={op_name=\"params[\\'layer_%d\\'][\\'kernel\\']\"}\n", w[k], pno++, k);
	}
	for (int k = 0; k < NUM_STACK; k++) {
		gen_new(st[k], "%stacked");
		fprintf(sf, ", %s: " STACK_SIG, st[k] + 1);
		I("%s = " STACK " parameter(%u), sharding={devices=[1,8,1]<=[8]}, "
		  "metadata={op_name=\"params[\\'scan_%d\\'][\\'kernel\\']\"}\n", st[k], pno++, k);
	}
	for (int k = 0; k < NUM_SCALE; k++) {
		gen_new(sc[k], "%scale");
		fprintf(sf, ", %s: " VEC_SIG, sc[k] + 1);
		I("%s = " VEC " parameter(%u), sharding={replicated}, "
		  "metadata={op_name=\"params[\\'norm_%d\\'][\\'scale\\']\"}\n", sc[k], pno++, k);
	}
	fclose(sf);

	gen_name h, saved;
	strcpy(h, input);
	saved[0] = 0;
	unsigned stage = 0;
	while (gen_written + eb.n + 4096 < target) {
		gen_layer = stage++;
		gen_name nh;
		unsigned r = gen_below(100);
		if (r < 12) {
			gen_scan(b, nh, h, st[gen_below(NUM_STACK)], sc[gen_below(NUM_SCALE)], saved);
		} else if (r < 16) {
			gen_offload(b, nh, h);
		} else if (r < 20) {
			gen_custom(b, nh, h, w[gen_below(NUM_W)]);
		} else if (r < 24) {
			gen_gather(b, nh, h);
		} else if (r < 26) {
			/* A weight baked in as a large constant, elided as XLA prints it. */
			gen_name k;
			I("%s = " MAT " constant({...})\n", gen_new(k, "%constant"));
			gen_layer_block(b, nh, h, k, sc[gen_below(NUM_SCALE)]);
		} else if (r < 27) {
			gen_name v;
			gen_printed_vec(b, v);
			gen_layer_block(b, nh, h, w[gen_below(NUM_W)], v);
		} else {
			gen_layer_block(b, nh, h, w[gen_below(NUM_W)], sc[gen_below(NUM_SCALE)]);
		}
		strcpy(h, nh);
	}

	/* Loss, gradients and the optimizer update of the aliased weights. */
	gen_layer = stage;
	gen_name c, lp, loss, other, g, ga, nw[NUM_OUT_W], root;
	gen_fusion(b, lp, SCALAR, "kInput", gen_fused_loss(c), h, "loss/reduce_sum");
	gen_all_reduce(b, loss, SCALAR, lp, "loss/psum");
	if (saved[0]) {
		gen_name k3, z, ds;
		I("%s = " S32 " constant(%d)\n", gen_new(k3, "%constant"), TRIP - 1);
		I("%s = " S32 " constant(0)\n", gen_new(z, "%constant"));
		I("%s = " SAVED1 " dynamic-slice(%s, %s, %s, %s, %s), dynamic_slice_sizes={1,8,1024,1024}\n",
		  gen_new(ds, "%dynamic-slice"), saved, k3, z, z, z);
		I("%s = " ACT " bitcast(%s)\n", gen_new(other, "%bitcast"), ds);
	} else {
		strcpy(other, input);
	}
	for (int k = 0; k < NUM_OUT_W; k++) {
		char opl[4096];
		snprintf(opl, sizeof opl, "%s, %s", h, other);
		gen_fusion(b, g, MAT, "kOutput", gen_fused_grad(c), opl, "transpose(jvp(mlp))/dot_general");
		gen_all_reduce(b, ga, MAT, g, "grad/psum");
		snprintf(opl, sizeof opl, "%s, %s", w[k], ga);
		gen_fusion(b, nw[k], MAT, "kLoop", gen_fused_sgd(c), opl, "optimizer/add");
	}
	I("ROOT %s = (" ACT ", " SCALAR, gen_new(root, "%tuple"));
	for (int k = 0; k < NUM_OUT_W; k++) {
		if ((k + 2) % 5 == 0)
			bput(b, ", /*index=%d*/" MAT, k + 2);
		else
			bput(b, ", " MAT);
	}
	bput(b, ") tuple(%s, %s", h, loss);
	for (int k = 0; k < NUM_OUT_W; k++)
		bput(b, ", %s", nw[k]);
	bput(b, "), sharding={{devices=[8,1,1]<=[8]}, {replicated}");
	for (int k = 0; k < NUM_OUT_W; k++)
		bput(b, ", {devices=[8,1]<=[8]}");
	bput(b, "}\n}\n\n");

	/* The entry goes last: every computation it calls is above it. */
	struct gen_buf head = { 0 };
	bput(&head, "ENTRY %%main.%u (%s) -> (" ACT_SIG ", f32[]", gen_uid++, sig);
	for (int k = 0; k < NUM_OUT_W; k++)
		bput(&head, ", " MAT_SIG);
	bput(&head, ") {\n");
	gen_flush(&head);
	gen_flush(&eb);
	free(sig);
	free(head.p);
	free(hb.p);
	free(eb.p);
}


/* ---- other module shapes (-k) ----------------------------------------------
 * The train step above is few large computations.  Real modules come in
 * other shapes, and speed must hold on each (docs/bench.md):
 *   small      many small fused computations, TPU tiles on every shape and
 *              metadata on every instruction (a 100 MB module of ~550k
 *              instructions, as big models' compiles are)
 *   untiled    the same in bf16 with GPU-style layouts (no tiles)
 *   meta       long op_names, source paths and backend_config on everything
 *   constants  large printed constants between the fusions
 *   tuples     deep tuple shapes: fusions returning nested tuples and the
 *              get-tuple-element chains that take them apart */
enum gen_kind { GEN_TRAIN, GEN_SMALL, GEN_UNTILED, GEN_META, GEN_CONSTANTS, GEN_TUPLES };
static enum gen_kind gen_kind;

static const char *gen_k_shape(bool sig)
{
	if (gen_kind == GEN_UNTILED)
		return sig ? "bf16[128,256]" : "bf16[128,256]{1,0}";
	return sig ? "f32[128,256]" : "f32[128,256]{1,0:T(8,128)}";
}

static const char *gen_k_meta(const char *what)
{
	static char m[1024];
	if (gen_kind != GEN_META)
		return gen_meta(what);
	snprintf(m, sizeof m,
		 "metadata={op_name=\"jit(train_step)/jit(main)/jvp(transformer)/while/body/remat(checkpoint)/"
		 "decoder/layers_%u/attention/multi_head_dot_product_attention/%s/dot_general[dimension_numbers="
		 "(((2,), (1,)), ((0,), (0,))) precision=None preferred_element_type=float32]\" "
		 "source_file=\"/home/user/.cache/pypoetry/virtualenvs/project-py3.11/lib/python3.11/site-packages/"
		 "flax/linen/attention.py\" source_line=%u scheduling_name=\"%s.%u\"}",
		 gen_layer, what, 100 + gen_below(900), what, gen_uid);
	return m;
}

static const char *gen_k_backend(void)
{
	static char c[1024];
	if (gen_kind != GEN_META)
		return gen_backend();
	snprintf(c, sizeof c,
		 "backend_config={\"flag_configs\":[],\"scoped_memory_configs\":[{\"memory_space\":\"1\","
		 "\"offset\":\"0\",\"size\":\"%u\"}],\"used_scoped_memory_configs\":[],\"output_chunk_bound_config\":"
		 "{\"output_chunk_bound\":[\"1\",\"%u\"]},\"estimated_cycles\":\"%u\",\"retry_config\":{\"retry_count\":"
		 "\"0\"},\"outer_dimension_partitions\":[\"1\",\"2\",\"4\"],\"fusion_config\":{\"kind\":\"kLoop\","
		 "\"tiling\":{\"sizes\":[\"8\",\"128\"]}},\"device_type\":\"DEVICE_TYPE_TPU\",\"operation_queue_id\":"
		 "\"%u\",\"wait_on_operation_queues\":[],\"force_earliest_schedule\":false}",
		 1u << (10 + gen_below(12)), 128u << gen_below(4), 1000 + gen_below(900000), gen_below(4));
	return c;
}

/* A small fused computation of 3-6 element-wise steps on one shape. */
static const char *gen_k_fused(gen_name comp)
{
	static struct gen_buf fb;
	struct gen_buf *b = &fb;
	static const char *const ops[] = { "add", "multiply", "subtract", "maximum" };
	static const char *const un[] = { "tanh", "exponential", "negate", "abs" };
	gen_name p0, p1, x, y;
	gen_new(p0, "%param_0");
	gen_new(p1, "%param_1");
	char sig[200];
	snprintf(sig, sizeof sig, "%s: %s, %s: %s", p0 + 1, gen_k_shape(true), p1 + 1, gen_k_shape(true));
	gen_new(comp, "%fused_computation");
	bput(b, "%s (%s) -> %s {\n", comp, sig, gen_k_shape(true));
	I("%s = %s parameter(0)\n", p0, gen_k_shape(false));
	I("%s = %s parameter(1)\n", p1, gen_k_shape(false));
	strcpy(x, p0);
	unsigned n = 1 + gen_below(4);
	for (unsigned k = 0; k < n; k++) {
		unsigned r = gen_below(4);
		if (k % 2)
			I("%s = %s %s(%s), %s\n", gen_new(y, "%unary"), gen_k_shape(false), un[r], x, gen_k_meta(un[r]));
		else
			I("%s = %s %s(%s, %s), %s\n", gen_new(y, "%binary"), gen_k_shape(false), ops[r], x, p1,
			  gen_k_meta(ops[r]));
		strcpy(x, y);
	}
	I("ROOT %s = %s add(%s, %s), %s\n", gen_new(y, "%add"), gen_k_shape(false), x, p0, gen_k_meta("add"));
	gen_end(b);
	return comp;
}

/* A fused computation returning a nested tuple (shape tsh, signature tsg). */
static const char *gen_k_tuple_comp(gen_name comp, const char *tsh, const char *tsg)
{
	static struct gen_buf fb;
	struct gen_buf *b = &fb;
	gen_name p0, p1, a, m, t1, t2, t3, f, c0, c1;
	const char *sh = gen_k_shape(false), *sg = gen_k_shape(true);
	gen_new(p0, "%param_0");
	gen_new(p1, "%param_1");
	gen_new(comp, "%fused_computation");
	bput(b, "%s (%s: %s, %s: %s) -> %s {\n", comp, p0 + 1, sg, p1 + 1, sg, tsg);
	I("%s = %s parameter(0)\n", p0, sh);
	I("%s = %s parameter(1)\n", p1, sh);
	I("%s = %s add(%s, %s), %s\n", gen_new(a, "%add"), sh, p0, p1, gen_k_meta("add"));
	I("%s = %s multiply(%s, %s), %s\n", gen_new(m, "%multiply"), sh, a, p1, gen_k_meta("mul"));
	I("%s = " S32 " constant(%u)\n", gen_new(c0, "%constant"), gen_layer);
	I("%s = " SCALAR " constant(1)\n", gen_new(c1, "%constant"));
	I("%s = (%s, " SCALAR ") tuple(%s, %s)\n", gen_new(t1, "%tuple"), sh, m, c1);
	I("%s = (" S32 ", (%s, " SCALAR ")) tuple(%s, %s)\n", gen_new(t2, "%tuple"), sh, c0, t1);
	I("%s = (%s, (" S32 ", (%s, " SCALAR "))) tuple(%s, %s)\n", gen_new(t3, "%tuple"), sh, sh, a, t2);
	I("ROOT %s = %s tuple(%s, %s)\n", gen_new(f, "%tuple"), tsh, m, t3);
	gen_end(b);
	return comp;
}

/* A fusion returning a nested tuple, and the get-tuple-element chain out. */
static const char *gen_k_tuple_step(struct gen_buf *b, gen_name out, const char *h, const char *p)
{
	gen_name comp, f, g1, g2, g3;
	const char *sh = gen_k_shape(false), *sg = gen_k_shape(true);
	char tsh[512], tsg[512];
	snprintf(tsh, sizeof tsh, "(%s, (%s, (" S32 ", (%s, " SCALAR "))))", sh, sh, sh);
	snprintf(tsg, sizeof tsg, "(%s, (%s, (s32[], (%s, f32[]))))", sg, sg, sg);
	gen_k_tuple_comp(comp, tsh, tsg);
	I("%s = %s fusion(%s, %s), kind=kLoop, calls=%s, %s\n", gen_new(f, "%fusion"), tsh, h, p, comp,
	  gen_k_meta("fusion"));
	I("%s = (%s, (" S32 ", (%s, " SCALAR "))) get-tuple-element(%s), index=1\n", gen_new(g1, "%get-tuple-element"),
	  sh, sh, f);
	I("%s = (" S32 ", (%s, " SCALAR ")) get-tuple-element(%s), index=1\n", gen_new(g2, "%get-tuple-element"), sh,
	  g1);
	I("%s = (%s, " SCALAR ") get-tuple-element(%s), index=1\n", gen_new(g3, "%get-tuple-element"), sh, g2);
	I("%s = %s get-tuple-element(%s), index=0\n", gen_new(out, "%get-tuple-element"), sh, g3);
	return out;
}

static void gen_k_module(uint64_t target)
{
	struct gen_buf eb = { 0 }, hb = { 0 };
	struct gen_buf *b = &hb;
	bput(b, "HloModule jit_step, is_scheduled=true, entry_computation_layout={(%s, %s)->%s}, "
		"num_partitions=1\n\n", gen_k_shape(false), gen_k_shape(false), gen_k_shape(false));
	gen_flush(b);
	b = &eb;
	gen_name p0, p1, h, nh;
	I("%s = %s parameter(0), %s\n", gen_new(p0, "%p"), gen_k_shape(false), gen_k_meta("args[0]"));
	I("%s = %s parameter(1), %s\n", gen_new(p1, "%p"), gen_k_shape(false), gen_k_meta("args[1]"));
	strcpy(h, p0);
	char sig[160];
	snprintf(sig, sizeof sig, "%s: %s, %s: %s", p0 + 1, gen_k_shape(true), p1 + 1, gen_k_shape(true));
	unsigned layer = 0;
	while (gen_written + eb.n + 4096 < target) {
		gen_layer = layer++ / 16;
		if (gen_kind == GEN_TUPLES && gen_below(2)) {
			gen_k_tuple_step(b, nh, h, p1);
		} else if (gen_kind == GEN_CONSTANTS && gen_below(8) == 0) {
			gen_name c;
			I("%s = f32[2048]{0} constant({", gen_new(c, "%constant"));
			for (int k = 0; k < 2048; k++)
				bput(b, "%s%.7g", k ? ", " : "", (double)gen_below(2000000) / 1e6 - 1.0);
			bput(b, "})\n");
			strcpy(nh, h);
		} else {
			gen_name comp;
			gen_k_fused(comp);
			I("%s = %s fusion(%s, %s), kind=kLoop, calls=%s, %s, %s\n", gen_new(nh, "%fusion"),
			  gen_k_shape(false), h, p1, comp, gen_k_meta("fusion"), gen_k_backend());
		}
		strcpy(h, nh);
	}
	gen_name r;
	I("ROOT %s = %s negate(%s), %s\n", gen_new(r, "%negate"), gen_k_shape(false), h, gen_k_meta("negate"));
	bput(b, "}\n");
	struct gen_buf head = { 0 };
	gen_layer = 0;
	bput(&head, "ENTRY %%main.%u (%s) -> %s {\n", gen_uid++, sig, gen_k_shape(true));
	gen_flush(&head);
	gen_flush(&eb);
	free(head.p);
	free(hb.p);
	free(eb.p);
}

int main(int argc, char **argv)
{
	uint64_t seed = 1;
	double mib = 100;
	const char *path = NULL;
	for (int k = 1; k < argc; k++) {
		if (!strcmp(argv[k], "-s") && k + 1 < argc)
			seed = strtoull(argv[++k], NULL, 0);
		else if (!strcmp(argv[k], "-m") && k + 1 < argc)
			mib = strtod(argv[++k], NULL);
		else if (!strcmp(argv[k], "-o") && k + 1 < argc)
			path = argv[++k];
		else if (!strcmp(argv[k], "-k") && k + 1 < argc) {
			static const char *const kinds[] = { "train", "small", "untiled", "meta", "constants", "tuples", NULL };
			const char *v = argv[++k];
			int j = 0;
			while (kinds[j] && strcmp(kinds[j], v))
				j++;
			if (!kinds[j]) {
				fprintf(stderr, "genhlo: unknown shape '%s'\n", v);
				return 2;
			}
			gen_kind = (enum gen_kind)j;
		} else {
			fprintf(stderr, "usage: genhlo [-s SEED] [-m MIB] [-k SHAPE] [-o FILE]\n");
			return 2;
		}
	}
	gen_state = seed;
	gen_out = path ? fopen(path, "w") : stdout;
	if (!gen_out) {
		fprintf(stderr, "genhlo: cannot open '%s': %s\n", path, strerror(errno));
		return 1;
	}
	if (gen_kind == GEN_TRAIN)
		gen_module((uint64_t)(mib * 1048576.0));
	else
		gen_k_module((uint64_t)(mib * 1048576.0));
	if (fflush(gen_out) != 0 || (path && fclose(gen_out) != 0))
		gen_die("write error");
	fprintf(stderr, "genhlo: %.1f MB, %llu instructions, seed %llu\n", gen_written / 1e6,
		(unsigned long long)gen_instrs, (unsigned long long)seed);
	return 0;
}
