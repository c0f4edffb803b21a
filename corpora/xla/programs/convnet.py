"""convnet.py - a convolutional net with batch norm (flax.linen, NHWC,
three conv-bn-relu stages with pooling, a dense head), one SGD step with
the batch statistics updated, data parallel over "data".  "fit" fits every
chip; "oom" has a batch large enough for about 1.5x the chip's HBM."""
import math
from functools import partial

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax

from common import Case, sds

HBM_GIB = {"tpu-v4": 32, "tpu-v5e": 16, "tpu-v5p": 95, "tpu-v6e": 32, "tpu-v7": 96}


class Net(nn.Module):
    @nn.compact
    def __call__(self, x, train=True):
        for ch in (64, 128, 256):
            x = nn.Conv(ch, (3, 3), use_bias=False, dtype=jnp.bfloat16)(x)
            x = nn.BatchNorm(use_running_average=not train, dtype=jnp.bfloat16)(x)
            x = nn.relu(x)
            x = nn.max_pool(x, (2, 2), (2, 2))
        return nn.Dense(1000, dtype=jnp.bfloat16)(x.mean((1, 2))).astype(jnp.float32)


def step(model, tx, params, stats, opt_state, images, labels):
    def loss_fn(p):
        logits, upd = model.apply({"params": p, "batch_stats": stats}, images, mutable=["batch_stats"])
        return optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean(), upd
    (loss, upd), grads = jax.value_and_grad(loss_fn, has_aux=True)(params)
    updates, opt_state = tx.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), upd["batch_stats"], opt_state, loss


def make(mesh, name, batch, about, targets=None):
    model, tx = Net(), optax.sgd(0.1, momentum=0.9)
    img = jax.ShapeDtypeStruct((batch, 128, 128, 3), jnp.bfloat16)
    var = jax.eval_shape(lambda i: model.init(jax.random.PRNGKey(0), i), img)
    rep = partial(jax.tree.map, lambda x: sds(mesh, x.shape, x.dtype))
    params, stats = rep(var["params"]), rep(var["batch_stats"])
    opt = rep(jax.eval_shape(tx.init, params))
    args = (params, stats, opt, sds(mesh, img.shape, img.dtype, ("data",)),
            sds(mesh, (batch,), jnp.int32, ("data",)))
    return Case(name, partial(step, model, tx), args, jit={"donate_argnums": (0, 1, 2)}, about=about,
                targets=targets)


def cases(mesh, target):
    out = [make(mesh, "fit", 64, "conv-bn-relu x3 with pooling, 128x128x3 images, batch 64, SGD momentum")]
    if target in HBM_GIB:
        # Per image: the first stage's activations (128x128x64 bf16, ~3 kept) dominate.
        per_image = 128 * 128 * 64 * 2 * 3
        batch = mesh.shape["data"] * 64 * math.ceil(1.5 * HBM_GIB[target] * 2**30 / per_image / 64)
        out.append(make(mesh, "oom", batch, f"batch {batch}: about 1.5x the {target} HBM", targets=[target]))
    return out
