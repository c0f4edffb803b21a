"""act_offload.py - the activation lever of JAX's host-offloading guide
without a scan: a 3-matmul MLP under jax.checkpoint whose first activation
("act1", f32[16384,8192]: 512 MiB, kept for the backward pass) is saved in
device memory ("device", save_only_these_names) or offloaded to pinned host
memory ("offloaded", save_and_offload_only_these_names).  Replicated, so
every device holds all of it.  Ground truth for what offloading one
activation saves: XLA's device temp drops by the activation on some TPU
generations and not on others (where its heap slot is not at the peak)."""
from functools import partial

import jax
import jax.numpy as jnp
from jax.ad_checkpoint import checkpoint_name

from common import Case, sds

TOKENS, DIM, HIDDEN = 16384, 2048, 8192


def mlp(x, w1, w2, w3):
    h = checkpoint_name(jnp.tanh(x @ w1), "act1")   # [TOKENS, HIDDEN]: kept for the backward
    g = jnp.tanh(h @ w2)                              # [TOKENS, DIM]
    k = jax.nn.gelu(g @ w3)                           # [TOKENS, HIDDEN]: a later peak
    return jnp.mean(k ** 2)


SAVE = jax.checkpoint_policies.save_only_these_names("act1")
OFFLOAD = jax.checkpoint_policies.save_and_offload_only_these_names(
    names_which_can_be_saved=[], names_which_can_be_offloaded=["act1"],
    offload_src="device", offload_dst="pinned_host")


def loss(policy, w1, w2, w3, x):
    return jax.checkpoint(mlp, policy=policy)(x, w1, w2, w3)


def cases(mesh, target):
    x = sds(mesh, (TOKENS, DIM), jnp.float32)
    w1 = sds(mesh, (DIM, HIDDEN), jnp.float32)
    w2 = sds(mesh, (HIDDEN, DIM), jnp.float32)
    w3 = sds(mesh, (DIM, HIDDEN), jnp.float32)
    grad = jax.grad(loss, argnums=(1, 2, 3))
    return [
        Case("device", partial(grad, SAVE), (w1, w2, w3, x), about="act1 saved in device memory"),
        Case("offloaded", partial(grad, OFFLOAD), (w1, w2, w3, x), about="act1 offloaded to pinned host memory"),
    ]
