"""stream.py - weights streamed from pinned host memory layer by layer: the
stacked layer weights live in pinned host memory and each lax.scan step
brings its own slice to the device (jax.device_put inside the body), the
forward pass of an MLP stack.  "fit" fits every chip; "oom" keeps the same
weights on the device instead, deep enough for about 1.5x the chip's HBM
(the twin that shows what streaming saves)."""
import math

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

from common import Case, sds

HBM_GIB = {"tpu-v4": 32, "tpu-v5e": 16, "tpu-v5p": 95, "tpu-v6e": 32, "tpu-v7": 96}
DIM, TOKENS = 4096, 2048


def streamed(mesh):
    dev = NamedSharding(mesh, P(None, "model"), memory_kind="device")

    def f(ws, x):
        def body(x, w):
            w = jax.device_put(w, dev)
            return jax.nn.gelu(x @ w), None
        x, _ = jax.lax.scan(body, x, ws)
        return x
    return f


def on_device(ws, x):
    def body(x, w):
        return jax.nn.gelu(x @ w), None
    x, _ = jax.lax.scan(body, x, ws)
    return x


def cases(mesh, target):
    if target not in HBM_GIB:
        return []    # memory kinds: TPU only here
    x = sds(mesh, (TOKENS, DIM), jnp.bfloat16, ("data", None))
    # Per device: DIM x DIM bf16 per layer, over "model".
    per_layer = DIM * DIM * 2 / mesh.shape["model"]
    layers = math.ceil(1.5 * HBM_GIB[target] * 2**30 / per_layer)
    host = sds(mesh, (layers, DIM, DIM), jnp.bfloat16, (None, None, "model"), memory_kind="pinned_host")
    dev = sds(mesh, (layers, DIM, DIM), jnp.bfloat16, (None, None, "model"))
    return [
        Case("fit", streamed(mesh), (host, x), targets=[target],
             about=f"{layers} layers of weights in pinned host memory, one slice per scan step"),
        Case("oom", on_device, (dev, x), targets=[target],
             about=f"the same {layers} layers kept in HBM: about 1.5x the {target} HBM"),
    ]
