"""lstm.py - a two-layer LSTM language model train step (embedding, two
lax.scan layers over 128 steps, a softmax head, SGD), batch sharded over
data.  Added after the heap-placement model of issue 44 was written, to
measure it on a kind of program it was not tuned on (docs/fidelity.md)."""
import jax
import jax.numpy as jnp

from common import Case, sds

VOCAB, EMB, HID, SEQ = 8192, 512, 1024, 128


def lstm_layer(w, b, xs):
    def step(carry, x):
        h, c = carry
        z = jnp.concatenate([x, h], axis=-1) @ w + b
        i, f, g, o = jnp.split(z, 4, axis=-1)
        c = jax.nn.sigmoid(f) * c + jax.nn.sigmoid(i) * jnp.tanh(g)
        h = jax.nn.sigmoid(o) * jnp.tanh(c)
        return (h, c), h
    batch = xs.shape[1]
    init = (jnp.zeros((batch, HID), xs.dtype), jnp.zeros((batch, HID), xs.dtype))
    _, hs = jax.lax.scan(step, init, xs)
    return hs


def loss(params, tokens):
    x = params["emb"][tokens].transpose(1, 0, 2)            # [seq, batch, emb]
    h = lstm_layer(params["w1"], params["b1"], x)
    h = lstm_layer(params["w2"], params["b2"], h)
    logits = h @ params["out"]
    labels = jnp.roll(tokens, -1, axis=1).transpose(1, 0)
    logp = jax.nn.log_softmax(logits.astype(jnp.float32))
    return -jnp.take_along_axis(logp, labels[..., None], axis=-1).mean()


def step(params, tokens):
    g = jax.grad(loss)(params, tokens)
    return jax.tree_util.tree_map(lambda p, d: p - 1e-3 * d, params, g)


def cases(mesh, target):
    params = {
        "emb": sds(mesh, (VOCAB, EMB), jnp.float32),
        "w1": sds(mesh, (EMB + HID, 4 * HID), jnp.float32),
        "b1": sds(mesh, (4 * HID,), jnp.float32),
        "w2": sds(mesh, (HID + HID, 4 * HID), jnp.float32),
        "b2": sds(mesh, (4 * HID,), jnp.float32),
        "out": sds(mesh, (HID, VOCAB), jnp.float32),
    }
    tokens = sds(mesh, (64, SEQ), jnp.int32, ("data", None))
    return [Case("fit", step, (params, tokens), expect={},
                 about="a two-layer LSTM language model step, batch 64 over data, 128 steps")]
