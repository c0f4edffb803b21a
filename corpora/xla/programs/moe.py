"""moe.py - a top-2 Mixture-of-Experts layer with expert parallelism: a
router, capacity-bounded dispatch and combine einsums (GShard style), 8
experts sharded over "model", tokens over "data", a gradient step on the
experts' weights.  "fit" fits every chip; "oom" has experts wide enough to
need about 1.5x the chip's HBM."""
import math

import jax
import jax.numpy as jnp

from common import Case, sds

HBM_GIB = {"tpu-v4": 32, "tpu-v5e": 16, "tpu-v5p": 95, "tpu-v6e": 32, "tpu-v7": 96}
EXPERTS, TOPK, TOKENS, DIM = 8, 2, 8192, 1024


def moe(w_router, w_in, w_out, x):
    logits = (x @ w_router).astype(jnp.float32)                       # [T, E]
    probs = jax.nn.softmax(logits)
    gate, idx = jax.lax.top_k(probs, TOPK)                            # [T, K]
    cap = 2 * TOPK * x.shape[0] // EXPERTS
    onehot = jax.nn.one_hot(idx, EXPERTS, dtype=jnp.int32)            # [T, K, E]
    pos = jnp.cumsum(onehot.reshape(-1, EXPERTS), 0).reshape(onehot.shape) * onehot - 1
    keep = (pos >= 0) & (pos < cap)
    dispatch = jax.nn.one_hot(jnp.where(keep, pos, cap), cap, dtype=x.dtype)  # [T, K, E, C]
    dispatch = (dispatch * keep[..., None]).sum(1)                    # [T, E, C]
    combine = dispatch * (gate[:, :, None, None] * onehot[..., None]).sum(1).astype(x.dtype)
    xe = jnp.einsum("tec,td->ecd", dispatch, x)                       # [E, C, D]
    h = jax.nn.gelu(jnp.einsum("ecd,edh->ech", xe, w_in))
    ye = jnp.einsum("ech,ehd->ecd", h, w_out)
    return jnp.einsum("tec,ecd->td", combine, ye)


def step(w_router, w_in, w_out, x):
    def loss(w_in, w_out):
        return jnp.mean(moe(w_router, w_in, w_out, x).astype(jnp.float32) ** 2)
    g_in, g_out = jax.grad(loss, argnums=(0, 1))(w_in, w_out)
    return w_in - 1e-3 * g_in, w_out - 1e-3 * g_out


def make(mesh, name, hidden, about, targets=None):
    args = (sds(mesh, (DIM, EXPERTS), jnp.bfloat16),
            sds(mesh, (EXPERTS, DIM, hidden), jnp.bfloat16, ("model", None, None)),
            sds(mesh, (EXPERTS, hidden, DIM), jnp.bfloat16, ("model", None, None)),
            sds(mesh, (TOKENS, DIM), jnp.bfloat16, ("data", None)))
    return Case(name, step, args, jit={"donate_argnums": (1, 2)}, about=about, targets=targets)


def cases(mesh, target):
    out = [make(mesh, "fit", 4096, "top-2 MoE, 8 experts over 'model', 1024 -> 4096 -> 1024")]
    if target in HBM_GIB:
        # Per device and unit of width: two expert matrices (E/model x D, bf16)
        # with their gradients and updates, and the hidden activations
        # (E/model x capacity, bf16, about 4 kept).
        local = EXPERTS // mesh.shape["model"]
        per_hidden = 2 * local * DIM * 2 * 3 + local * (2 * TOPK * TOKENS // EXPERTS) * 2 * 4
        # (this estimate is about half of what XLA needs, less on tpu-v7,
        # where 2x still fits: 3x does not fit anywhere)
        hidden = 3 * 1024 * math.ceil(1.5 * HBM_GIB[target] * 2**30 / per_hidden / 1024)
        out.append(make(mesh, "oom", hidden, f"experts {hidden} wide: about 1.5x the {target} HBM",
                        targets=[target]))
    return out
