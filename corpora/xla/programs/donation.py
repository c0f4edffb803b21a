"""donation.py - scenario 6: an SGD train step whose 256 MiB parameters are
returned updated, without donate_argnums (missed-donation must flag the
parameter) and with it (aliased, silent)."""
import jax
import jax.numpy as jnp

from common import Case, sds

LR = 0.01


def loss(w, x):
    return jnp.mean(jnp.tanh(x @ w) ** 2)


def train_step(w, x):
    g = jax.grad(loss)(w, x)
    return w - LR * g


def cases(mesh, target):
    w = sds(mesh, (8192, 8192), jnp.float32, ())
    x = sds(mesh, (1024, 8192), jnp.float32, ("data", None))
    return [
        Case("no_donation", train_step, (w, x), expect={"missed-donation": "f32[8192,8192]"},
             about="train step without donate_argnums"),
        Case("donated", train_step, (w, x), jit={"donate_argnums": (0,)}, expect={"missed-donation": None},
             about="the same step with donate_argnums=(0,)"),
    ]
