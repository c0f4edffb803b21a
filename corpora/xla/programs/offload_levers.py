"""offload_levers.py - the host-offload levers of JAX's guide, each on a
buffer that is not needed at the step's peak, next to its twin that keeps
it in device memory: ground truth for the offload-candidate rule
(tests/xla/test_offload.sh, docs/rules/offload-candidate.md).
early_*: a weight read only at the start (the peak comes later);
param_*: a weight read only after the peak (device_put late, behind an
optimization barrier); out_*: an output computed first and only
returned (out_shardings in pinned host); act_*: a forward activation ("act1") kept for a
backward that first runs the later layers; temp_*: a value computed early
and read at the end, moved to host and back; opt_*: Adam moments that wait
through the forward and backward for the update.  Replicated: every device
holds every buffer.  What XLA makes of each is in MANIFEST.tsv."""
from functools import partial

import jax
import jax.numpy as jnp
from jax.ad_checkpoint import checkpoint_name

from common import Case, named, sds

T, D, H = 16384, 2048, 8192


def mlp(x, w1, w2, w3, w4):
    h1 = checkpoint_name(jnp.tanh(x @ w1), "act1")    # [T, H] 512 MiB: idle until layer 2's backward
    h2 = checkpoint_name(jnp.tanh(h1 @ w2), "act2")   # [T, D] 128 MiB
    k = jnp.tanh(h2 @ w3)                             # [T, H]: recomputed in the backward, the peak
    return jnp.mean(jnp.tanh(k @ w4) ** 2)


SAVE = jax.checkpoint_policies.save_only_these_names("act1", "act2")
OFFLOAD = jax.checkpoint_policies.save_and_offload_only_these_names(
    names_which_can_be_saved=["act2"], names_which_can_be_offloaded=["act1"],
    offload_src="device", offload_dst="pinned_host")


def act_loss(policy, w1, w2, w3, w4, x):
    return jax.checkpoint(mlp, policy=policy)(x, w1, w2, w3, w4)


def late_weight(dev, w, a, x):
    big = jnp.tanh(x @ a)                  # [T, H] transient: the peak
    y = (big ** 2) @ a.T                   # [T, D]
    if dev is not None:                    # the barrier keeps XLA from starting the copy at the top
        y, w = jax.lax.optimization_barrier((y, w))
        w = jax.device_put(w, dev)         # brought in after the peak
    return jnp.tanh(y @ w).sum()


def early_weight(dev, w, a, x):
    if dev is not None:
        w = jax.device_put(w, dev)         # copied in for its only use, at the start
    y = jnp.tanh(x @ w) @ a.T              # [T, D]: w's only use
    big = jnp.tanh(y @ a)                  # [T, H] transient after it: the peak
    return (big ** 2).sum()


def early_value(dev, host, a, b, c, x):
    t = jnp.tanh(x @ a)                    # [T, H] computed early, read at the end
    if host is not None:
        t = jax.device_put(t, host)
    u = jnp.tanh(x @ b)                    # [T, H] transient: the peak
    y = jnp.tanh(u @ c)                    # [T, D]
    if host is not None:
        y, t = jax.lax.optimization_barrier((y, t))
        t = jax.device_put(t, dev)
    return (t * (y @ b)).sum()


def early_out(x, a, b):
    o = jnp.tanh(x @ a)                    # [T, H] computed first, only returned
    u = jnp.tanh(x @ b)                    # [T, H] transient after it: the peak
    y = jnp.tanh(u @ b.T)                  # [T, D]
    return (y ** 2).sum(), o


def adam(w, m, v, a, x):
    def loss(w):
        h = jnp.tanh(x @ a)                # [T, H] activations make the peak
        return jnp.mean(jnp.tanh(h @ w) ** 2)
    g = jax.grad(loss)(w)
    m = 0.9 * m + 0.1 * g
    v = 0.999 * v + 0.001 * g * g
    return w - 1e-3 * m / (jnp.sqrt(v) + 1e-8), m, v


def adam_offloaded(dev, w, m, v, a, x):
    def loss(w):
        h = jnp.tanh(x @ a)
        return jnp.mean(jnp.tanh(h @ w) ** 2)
    g = jax.grad(loss)(w)
    g, m, v = jax.lax.optimization_barrier((g, m, v))   # moments brought in after the backward
    m, v = jax.device_put(m, dev), jax.device_put(v, dev)
    m = 0.9 * m + 0.1 * g
    v = 0.999 * v + 0.001 * g * g
    return w - 1e-3 * m / (jnp.sqrt(v) + 1e-8), m, v


def cases(mesh, target):
    x = sds(mesh, (T, D), jnp.float32)
    w = [sds(mesh, s, jnp.float32) for s in ((D, H), (H, D), (D, H), (H, D))]
    grad = jax.grad(act_loss, argnums=(1, 2, 3, 4))
    dev = named(mesh, memory_kind="device")
    host = named(mesh, memory_kind="pinned_host")
    wl = sds(mesh, (D, 4 * D), jnp.float32)
    wl_host = sds(mesh, (D, 4 * D), jnp.float32, memory_kind="pinned_host")
    a = sds(mesh, (D, H), jnp.float32)
    a_host = sds(mesh, (D, H), jnp.float32, memory_kind="pinned_host")
    wo = sds(mesh, (H, D), jnp.float32)
    wo_host = sds(mesh, (H, D), jnp.float32, memory_kind="pinned_host")
    return [
        Case("act_device", partial(grad, SAVE), (*w, x), about="act1 kept in device memory for the backward"),
        Case("act_offloaded", partial(grad, OFFLOAD), (*w, x), about="act1 offloaded by the checkpoint policy"),
        Case("param_device", partial(late_weight, None), (wl, a, x), about="a weight used after the peak"),
        Case("param_offloaded", partial(late_weight, dev), (wl_host, a, x),
             about="the weight in pinned host, device_put after the peak"),
        Case("early_device", partial(early_weight, None), (a, a, x), about="a weight used only at the start"),
        Case("early_offloaded", partial(early_weight, dev), (a_host, a, x),
             about="the weight in pinned host, device_put for its use at the start"),
        Case("temp_device", partial(early_value, None, None), (a, a, wo, x),
             about="a value computed early and read at the end"),
        Case("temp_offloaded", partial(early_value, dev, host), (a, a, wo, x),
             about="the value moved to pinned host and back after the peak"),
        Case("out_device", early_out, (x, a, a), jit={"out_shardings": (dev, dev)},
             about="an output computed first and only returned"),
        Case("out_offloaded", early_out, (x, a, a), jit={"out_shardings": (dev, host)},
             about="the output returned in pinned host memory"),
        Case("opt_device", adam, (wo, wo, wo, a, x),
             jit={"out_shardings": (dev, dev, dev), "donate_argnums": (0, 1, 2)},
             about="Adam moments in device memory through the step"),
        Case("opt_offloaded", partial(adam_offloaded, dev), (wo, wo_host, wo_host, a, x),
             jit={"out_shardings": (dev, host, host), "donate_argnums": (0, 1, 2)},
             about="Adam moments in pinned host memory"),
    ]
