"""debug_print.py - scenario 2: jax.debug.print / jax.debug.callback left in
a step, inside a lax.scan (one host transfer per iteration) and outside it,
with the clean twin.  host-transfer must flag the print in the loop body
and the one outside; the twin has no host transfer."""
import jax
import jax.numpy as jnp

from common import Case, sds

STEPS = 16


def _scan(x, inside):
    def body(h, _):
        h = jnp.tanh(h @ h.T) * 0.5
        if inside:
            jax.debug.print("step loss {}", h.sum())
        return h, None
    h, _ = jax.lax.scan(body, x, None, length=STEPS)
    return h


def print_in_scan(x):
    return _scan(x, True)


def print_outside(x):
    h = _scan(x, False)
    jax.debug.callback(lambda v: None, h.mean())
    return h


def clean(x):
    return _scan(x, False)


def cases(mesh, target):
    x = sds(mesh, (2048, 2048), jnp.float32, ("data", None))
    if target == "h100":
        # A host callback needs the real GPU backend to lower: deviceless,
        # jit fails with "Unknown backend: 'gpu' requested, but no platforms
        # that are instances of gpu are present".
        return [Case("clean", clean, (x,), expect={"host-transfer": None}, about="the step without prints")]
    return [
        Case("print_in_scan", print_in_scan, (x,), expect={"host-transfer": "debug_print"},
             about="jax.debug.print inside lax.scan"),
        Case("callback_outside", print_outside, (x,), expect={"host-transfer": "debug_callback"},
             about="jax.debug.callback after the scan"),
        Case("clean", clean, (x,), expect={"host-transfer": None}, about="the same step without prints"),
    ]
