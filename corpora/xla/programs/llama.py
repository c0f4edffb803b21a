"""llama.py - a Llama-style decoder train step: RMSNorm, rotary position
embedding, grouped-query attention (8 query heads share 2 key/value heads),
SwiGLU, layers under lax.scan and jax.checkpoint, AdamW from optax, FSDP
over "data" and tensor parallel over "model".  "fit" fits every chip;
"oom" is the same model with a batch whose activations need about 1.5x
the chip's HBM."""
import math
from functools import partial

import jax
import jax.numpy as jnp
import optax

from common import Case, named, sds

HBM_GIB = {"tpu-v4": 32, "tpu-v5e": 16, "tpu-v5p": 95, "tpu-v6e": 32, "tpu-v7": 96}
VOCAB, DIM, HEADS, KV_HEADS, HIDDEN, SEQ = 32000, 1024, 8, 2, 2816, 1024


def rms_norm(x, w):
    x32 = x.astype(jnp.float32)
    return (x32 * jax.lax.rsqrt(jnp.mean(x32 * x32, -1, keepdims=True) + 1e-6)).astype(x.dtype) * w


def rotary(x):
    s, d = x.shape[1], x.shape[-1]
    freq = 1.0 / (10000 ** (jnp.arange(0, d, 2, dtype=jnp.float32) / d))
    ang = jnp.arange(s, dtype=jnp.float32)[:, None] * freq[None, :]
    cos, sin = jnp.cos(ang)[None, :, None, :], jnp.sin(ang)[None, :, None, :]
    x1, x2 = x[..., 0::2].astype(jnp.float32), x[..., 1::2].astype(jnp.float32)
    return jnp.concatenate([x1 * cos - x2 * sin, x1 * sin + x2 * cos], -1).astype(x.dtype)


def layer(x, w):
    b, s, d = x.shape
    hd = d // HEADS
    h = rms_norm(x, w["norm1"])
    q = rotary((h @ w["wq"]).reshape(b, s, HEADS, hd))
    k = rotary((h @ w["wk"]).reshape(b, s, KV_HEADS, hd))
    v = (h @ w["wv"]).reshape(b, s, KV_HEADS, hd)
    k = jnp.repeat(k, HEADS // KV_HEADS, axis=2)
    v = jnp.repeat(v, HEADS // KV_HEADS, axis=2)
    att = jnp.einsum("bqhd,bkhd->bhqk", q, k) / math.sqrt(hd)
    att = jnp.where(jnp.tril(jnp.ones((s, s), bool)), att, -1e9)
    o = jnp.einsum("bhqk,bkhd->bqhd", jax.nn.softmax(att.astype(jnp.float32)).astype(x.dtype), v)
    x = x + o.reshape(b, s, d) @ w["wo"]
    h = rms_norm(x, w["norm2"])
    return x + (jax.nn.silu(h @ w["w1"]) * (h @ w["w3"])) @ w["w2"]


def forward(params, tokens):
    x = params["embed"][tokens]

    def body(x, w):
        return jax.checkpoint(layer)(x, w), None
    x, _ = jax.lax.scan(body, x, params["layers"])
    return rms_norm(x, params["norm"]) @ params["embed"].T


def step(tx, params, opt_state, tokens):
    def loss_fn(p):
        logits = forward(p, tokens[:, :-1]).astype(jnp.float32)
        return optax.softmax_cross_entropy_with_integer_labels(logits, tokens[:, 1:]).mean()
    loss, grads = jax.value_and_grad(loss_fn)(params)
    updates, opt_state = tx.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


def shapes(layers):
    hd = DIM // HEADS
    L = layers
    return {"embed": (VOCAB, DIM), "norm": (DIM,),
            "layers": {"norm1": (L, DIM), "norm2": (L, DIM), "wq": (L, DIM, HEADS * hd),
                       "wk": (L, DIM, KV_HEADS * hd), "wv": (L, DIM, KV_HEADS * hd), "wo": (L, HEADS * hd, DIM),
                       "w1": (L, DIM, HIDDEN), "w3": (L, DIM, HIDDEN), "w2": (L, HIDDEN, DIM)}}


def spec_for(shape):
    if len(shape) < 2:
        return ()
    lead = (None,) * (len(shape) - 2)
    a, b = shape[-2], shape[-1]
    return lead + (("data", "model") if a >= b else ("model", "data"))


def make(mesh, name, layers, batch, about, targets=None):
    tx = optax.adamw(1e-3, weight_decay=0.1)
    params = jax.tree.map(lambda s: sds(mesh, s, jnp.bfloat16 if len(s) > 1 else jnp.float32, spec_for(s)),
                          shapes(layers), is_leaf=lambda s: isinstance(s, tuple))
    opt = jax.tree.map(lambda x: sds(mesh, x.shape, x.dtype, spec_for(x.shape)),
                       jax.eval_shape(tx.init, params))
    shard = jax.tree.map(lambda x: x.sharding, (params, opt))
    tokens = sds(mesh, (batch, SEQ + 1), jnp.int32, ("data", None))
    return Case(name, partial(step, tx), (params, opt, tokens),
                jit={"donate_argnums": (0, 1), "out_shardings": shard + (named(mesh),)}, about=about,
                targets=targets)


def cases(mesh, target):
    out = [make(mesh, "fit", 4, 16, "Llama-style 1024-dim x 4 layers, GQA 8/2, SwiGLU, scan+checkpoint, AdamW")]
    if target in HBM_GIB:
        # Activations dominate: per sequence, the f32 attention scores of the
        # layer being recomputed and their gradient, and the bf16 layer inputs
        # the scan saves (about 4 score-sized arrays per device).
        per_seq = HEADS * SEQ * SEQ * 4 * 4 / mesh.shape["model"]
        batch = mesh.shape["data"] * math.ceil(1.5 * HBM_GIB[target] * 2**30 / per_seq)
        out.append(make(mesh, "oom", 4, batch, f"the same at batch {batch}: about 1.5x the {target} HBM",
                        targets=[target]))
    return out
