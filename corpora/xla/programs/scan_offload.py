"""scan_offload.py - scenario 4: a residual block scanned over 8 layers
under jax.checkpoint with save_and_offload_only_these_names.  In
"offloaded" both named residuals go to pinned host memory (the stacked
carry lands in S(5)); in "device" the policy offloads "mlp_in" but only
saves "resid", so the 8-layer "resid" stack silently stays in HBM:
loop-carry-offload must flag it.  "oom" is "device" at 64 layers of 262144
tokens: the HBM-resident "resid" stack alone (bf16[64,131072,1024] per
device) is more than a 16 GiB chip holds, so the compile fails; offloading
it (what annotate --apply does) makes the program fit.  Gradients of the
stacked weights."""
from functools import partial

import jax
import jax.numpy as jnp
from jax.ad_checkpoint import checkpoint_name

from common import Case, sds

LAYERS, TOKENS, DIM, HIDDEN = 8, 32768, 1024, 2048
OOM_LAYERS, OOM_TOKENS = 64, 262144


def block(x, w1, w2):
    x = checkpoint_name(x, "resid")
    h = checkpoint_name(x @ w1, "mlp_in")
    return x + jax.nn.gelu(h) @ w2


def model(policy, w1s, w2s, x):
    def body(x, w):
        return jax.checkpoint(block, policy=policy)(x, *w), None
    x, _ = jax.lax.scan(body, x, (w1s, w2s))
    return jnp.mean(x.astype(jnp.float32) ** 2)


OFFLOAD_ALL = jax.checkpoint_policies.save_and_offload_only_these_names(
    names_which_can_be_saved=[], names_which_can_be_offloaded=["resid", "mlp_in"],
    offload_src="device", offload_dst="pinned_host")
KEEP_RESID = jax.checkpoint_policies.save_and_offload_only_these_names(
    names_which_can_be_saved=["resid"], names_which_can_be_offloaded=["mlp_in"],
    offload_src="device", offload_dst="pinned_host")


def cases(mesh, target):
    w1 = sds(mesh, (LAYERS, DIM, HIDDEN), jnp.bfloat16, (None, None, "model"))
    w2 = sds(mesh, (LAYERS, HIDDEN, DIM), jnp.bfloat16, (None, "model", None))
    x = sds(mesh, (TOKENS, DIM), jnp.bfloat16, ("data", None))
    grad = jax.grad(model, argnums=(1, 2))
    return [
        Case("offloaded", partial(grad, OFFLOAD_ALL), (w1, w2, x), expect={"loop-carry-offload": None},
             about="both residuals offloaded to pinned host"),
        Case("device", partial(grad, KEEP_RESID), (w1, w2, x), expect={"loop-carry-offload": "bf16[8,16384,1024]"},
             about="'resid' saved in HBM while 'mlp_in' is offloaded"),
        Case("oom", partial(grad, KEEP_RESID),
             (sds(mesh, (OOM_LAYERS, DIM, HIDDEN), jnp.bfloat16, (None, None, "model")),
              sds(mesh, (OOM_LAYERS, HIDDEN, DIM), jnp.bfloat16, (None, "model", None)),
              sds(mesh, (OOM_TOKENS, DIM), jnp.bfloat16, ("data", None))),
             expect={"loop-carry-offload": "bf16[64,131072,1024]"},
             about="the 'device' policy at 64 layers: the HBM 'resid' stack does not fit a 16 GiB chip"),
    ]
