"""gpt.py - scenario 7: a GPT-style decoder train step (flax.linen, layers
under nn.scan, causal attention, tied embedding) with AdamW from optax,
parameters and Adam moments sharded FSDP over "data" and tensor-parallel
over "model", donated.  Two sizes that fit every chip, and per TPU target a
deep variant sized to about 1.5x the chip's HBM, which must not fit: the
compiler's out-of-memory report is the truth there."""
import math
from functools import partial

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax

from common import Case, named, sds

# Device HBM in GiB as the compiler reports it available (for sizing the
# variants that must not fit; 1.5x leaves no doubt).
HBM_GIB = {"tpu-v4": 32, "tpu-v5e": 16, "tpu-v5p": 95, "tpu-v6e": 32, "tpu-v7": 96}


class Block(nn.Module):
    dim: int
    heads: int

    @nn.compact
    def __call__(self, x, _):
        b, s, d = x.shape
        h = nn.LayerNorm(dtype=jnp.bfloat16)(x)
        qkv = nn.Dense(3 * d, use_bias=False, dtype=jnp.bfloat16, name="qkv")(h)
        q, k, v = jnp.split(qkv.reshape(b, s, 3 * self.heads, d // self.heads), 3, axis=2)
        att = jnp.einsum("bqhd,bkhd->bhqk", q, k) / math.sqrt(d // self.heads)
        mask = jnp.tril(jnp.ones((s, s), bool))
        att = jax.nn.softmax(jnp.where(mask, att, -1e9).astype(jnp.float32)).astype(jnp.bfloat16)
        o = jnp.einsum("bhqk,bkhd->bqhd", att, v).reshape(b, s, d)
        x = x + nn.Dense(d, use_bias=False, dtype=jnp.bfloat16, name="proj")(o)
        h = nn.LayerNorm(dtype=jnp.bfloat16)(x)
        h = nn.gelu(nn.Dense(4 * d, use_bias=False, dtype=jnp.bfloat16, name="up")(h))
        return x + nn.Dense(d, use_bias=False, dtype=jnp.bfloat16, name="down")(h), None


class GPT(nn.Module):
    vocab: int
    dim: int
    heads: int
    layers: int

    @nn.compact
    def __call__(self, tokens):
        embed = nn.Embed(self.vocab, self.dim, dtype=jnp.bfloat16, name="embed")
        x = embed(tokens)
        stack = nn.scan(nn.remat(Block), variable_axes={"params": 0}, split_rngs={"params": True},
                        length=self.layers)
        x, _ = stack(self.dim, self.heads, name="blocks")(x, None)
        x = nn.LayerNorm(dtype=jnp.bfloat16)(x)
        return embed.attend(x).astype(jnp.float32)


def spec_for(shape):
    """FSDP over "data" on the largest dim, tensor parallel over "model" on
    the other one of the last two; stacked layer weights keep dim 0 whole."""
    if len(shape) < 2:
        return ()
    lead = (None,) * (len(shape) - 2)
    a, b = shape[-2], shape[-1]
    return lead + (("data", "model") if a >= b else ("model", "data"))


def step(model, tx, params, opt_state, tokens):
    def loss_fn(p):
        logits = model.apply({"params": p}, tokens[:, :-1])
        return optax.softmax_cross_entropy_with_integer_labels(logits, tokens[:, 1:]).mean()
    loss, grads = jax.value_and_grad(loss_fn)(params)
    updates, opt_state = tx.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


def make(mesh, name, vocab, dim, heads, layers, batch, seq, about, targets=None):
    model = GPT(vocab, dim, heads, layers)
    tx = optax.adamw(1e-3, weight_decay=0.1)
    tokens = jax.ShapeDtypeStruct((batch, seq + 1), jnp.int32)
    params = jax.eval_shape(lambda t: model.init(jax.random.PRNGKey(0), t)["params"], tokens)
    opt = jax.eval_shape(tx.init, params)

    def place(x):
        return sds(mesh, x.shape, x.dtype, spec_for(x.shape))
    params = jax.tree.map(place, params)
    opt = jax.tree.map(place, opt)
    shard = jax.tree.map(lambda x: x.sharding, (params, opt))
    args = (params, opt, sds(mesh, tokens.shape, tokens.dtype, ("data", None)))
    return Case(name, partial(step, model, tx), args,
                jit={"donate_argnums": (0, 1), "out_shardings": shard + (named(mesh),)},
                about=about, targets=targets)


def cases(mesh, target):
    out = [
        make(mesh, "small", 32000, 1024, 8, 4, 16, 1024, "GPT 1024-dim x 4 layers, AdamW, FSDP+TP"),
        make(mesh, "medium", 32000, 2048, 16, 8, 16, 1024, "GPT 2048-dim x 8 layers, AdamW, FSDP+TP"),
    ]
    if target in HBM_GIB:
        # Parameters + grads + two Adam moments in f32: 16 bytes/param over
        # every device; choose the depth that needs ~1.5x the chip's HBM.
        dim, ndev = 4096, mesh.devices.size
        per_layer = 12 * dim * dim
        layers = math.ceil(1.5 * HBM_GIB[target] * 2**30 * ndev / 16 / per_layer)
        out.append(make(mesh, "oom", 32000, dim, 32, layers, 16, 1024,
                        f"GPT 4096-dim x {layers} layers: about 1.5x the {target} HBM", targets=[target]))
    return out
