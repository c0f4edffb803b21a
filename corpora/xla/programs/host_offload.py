"""host_offload.py - scenario 5: the host-offload levers of JAX's guide.
param_offload: weights live in pinned host memory and are brought in with
jax.device_put inside the step; opt_offload: Adam moments kept in pinned
host memory across steps (in and out shardings); each next to its twin
with everything in device memory.  Activation offload is scan_offload.py."""
from functools import partial

import jax
import jax.numpy as jnp

from common import Case, named, sds

DIM = 8192


def param_step(dev, w, x):
    w = jax.device_put(w, dev)
    return jnp.tanh(x @ w).sum()


def adam(w, m, v, x):
    g = jax.grad(lambda w: jnp.mean(jnp.tanh(x @ w) ** 2))(w)
    m = 0.9 * m + 0.1 * g
    v = 0.999 * v + 0.001 * g * g
    return w - 1e-3 * m / (jnp.sqrt(v) + 1e-8), m, v


def adam_offloaded(dev, w, m, v, x):
    m = jax.device_put(m, dev)
    v = jax.device_put(v, dev)
    return adam(w, m, v, x)


def cases(mesh, target):
    x = sds(mesh, (1024, DIM), jnp.float32, ("data", None))
    w_dev = sds(mesh, (DIM, DIM), jnp.float32, (None, "model"))
    w_host = sds(mesh, (DIM, DIM), jnp.float32, (None, "model"), memory_kind="pinned_host")
    host = named(mesh, None, "model", memory_kind="pinned_host")
    dev = named(mesh, None, "model", memory_kind="device")
    return [
        Case("param_offload", partial(param_step, dev), (w_host, x),
             about="weights in pinned host, device_put in the step"),
        Case("param_device", partial(param_step, dev), (w_dev, x), about="twin: weights in device memory"),
        Case("opt_offload", partial(adam_offloaded, dev), (w_dev, w_host, w_host, x),
             jit={"out_shardings": (dev, host, host), "donate_argnums": (0, 1, 2)},
             about="Adam moments kept in pinned host memory"),
        Case("opt_device", adam, (w_dev, w_dev, w_dev, x),
             jit={"out_shardings": (dev, dev, dev), "donate_argnums": (0, 1, 2)},
             about="twin: Adam moments in device memory"),
    ]
