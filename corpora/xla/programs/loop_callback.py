"""loop_callback.py - a host callback inside lax.while_loop (a convergence
loop that reports its residual every iteration with jax.debug.callback),
with the twin without it.  host-transfer must flag the callback in the
loop body; the twin has none."""
import jax
import jax.numpy as jnp

from common import Case, sds


def solve(report):
    def f(a, b):
        def cond(s):
            return (s[2] < 64) & (s[1] > 1e-3)

        def body(s):
            x, _, i = s
            x = x - 0.01 * (a @ x - b)
            r = jnp.linalg.norm(a @ x - b)
            if report:
                jax.debug.callback(lambda it, res: None, i, r)
            return x, r, i + 1
        x, _, _ = jax.lax.while_loop(cond, body, (jnp.zeros_like(b), jnp.float32(1e9), 0))
        return x
    return f


def cases(mesh, target):
    a = sds(mesh, (4096, 4096), jnp.float32, ("data", None))
    b = sds(mesh, (4096, 256), jnp.float32, ("data", None))
    if target == "h100":
        return [Case("clean", solve(False), (a, b), expect={"host-transfer": None},
                     about="the loop without the callback")]
    return [
        Case("callback_in_loop", solve(True), (a, b), expect={"host-transfer": "debug_callback"},
             about="jax.debug.callback inside lax.while_loop"),
        Case("clean", solve(False), (a, b), expect={"host-transfer": None}, about="the same loop without it"),
    ]
