"""bigvocab.py - the loss head of a model with a 256k vocabulary: hidden
states times a tied embedding, softmax cross-entropy in f32, the gradient
of the embedding; tokens over "data", the vocabulary over "model".  The
logits ([tokens, 256000] in f32) are the memory.  "fit" fits every chip;
"oom" has enough tokens for about 1.5x the chip's HBM."""
import math

import jax
import jax.numpy as jnp
import optax

from common import Case, sds

HBM_GIB = {"tpu-v4": 32, "tpu-v5e": 16, "tpu-v5p": 95, "tpu-v6e": 32, "tpu-v7": 96}
VOCAB, DIM = 256000, 1024


def head_loss(embed, h, labels):
    logits = (h @ embed.T).astype(jnp.float32)
    return optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()


def step(embed, h, labels):
    loss, g = jax.value_and_grad(head_loss)(embed, h, labels)
    return embed - 1e-3 * g.astype(embed.dtype), loss


def make(mesh, name, tokens, about, targets=None):
    args = (sds(mesh, (VOCAB, DIM), jnp.bfloat16, ("model", None)),
            sds(mesh, (tokens, DIM), jnp.bfloat16, ("data", None)),
            sds(mesh, (tokens,), jnp.int32, ("data",)))
    return Case(name, step, args, jit={"donate_argnums": (0,)}, about=about, targets=targets)


def cases(mesh, target):
    out = [make(mesh, "fit", 4096, "256k-vocabulary cross-entropy over 4096 tokens, tied embedding")]
    if target in HBM_GIB:
        # Per device: f32 logits and their gradient, [tokens/data, vocab/model].
        per_token = VOCAB // mesh.shape["model"] * 4 * 2 / mesh.shape["data"]
        tokens = 1024 * math.ceil(1.5 * HBM_GIB[target] * 2**30 / per_token / 1024)
        out.append(make(mesh, "oom", tokens, f"{tokens} tokens: about 1.5x the {target} HBM", targets=[target]))
    return out
