"""replicated.py - scenario 1: an embedding table left replicated on every
device of a 2-D mesh, next to its twin sharded over both mesh axes.  The
2 GiB table is whole on each device in the first case (replicated-oversized
must flag the table parameter) and 256-512 MiB per device in the twin."""
import jax.numpy as jnp

from common import Case, sds

VOCAB, DIM, BATCH = 524288, 1024, 1024


def lookup(table, ids, w):
    x = jnp.take(table, ids, axis=0)
    return jnp.tanh(x @ w).sum()


def cases(mesh, target):
    ids = sds(mesh, (BATCH,), jnp.int32, ("data",))
    w = sds(mesh, (DIM, DIM), jnp.float32, (None, "model"))
    table = (VOCAB, DIM)
    return [
        Case("replicated", lookup, (sds(mesh, table, jnp.float32, ()), ids, w),
             expect={"replicated-oversized": "f32[524288,1024]"},
             about="2 GiB embedding table replicated on every device"),
        Case("sharded", lookup, (sds(mesh, table, jnp.float32, (("data", "model"), None)), ids, w),
             expect={"replicated-oversized": None},
             about="the same table sharded over both mesh axes"),
    ]
