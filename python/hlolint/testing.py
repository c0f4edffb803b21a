"""hlolint.testing - pytest assertions on a JAX program compiled for a
topology you do not have: assert_fits (the per-device memory, with
headroom, fits the chip) and assert_clean (no findings from the rules);
and on a run's --xla_dump_to folder: assert_no_recompilation.
Failures read like the CLI's text: the finding, the Python line, the fix.
The target always comes from the topology (--require-target)."""
from __future__ import annotations

import re
from typing import Any, Optional, Sequence, Union

from .result import Result


def _fraction(headroom: Union[str, float]) -> float:
    if isinstance(headroom, str):
        m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*%\s*", headroom)
        if not m:
            raise ValueError(f"headroom expects a percentage such as '10%', got {headroom!r}")
        return float(m.group(1)) / 100
    return float(headroom)


def _human(n: int) -> str:
    for unit, k in (("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)):
        if n >= k:
            return f"{n / k:.2f}{unit}"
    return f"{n}B"


def assert_fits(fn: Any, *args: Any, topology: str = "v5e:2x4", headroom: Union[str, float] = "10%",
                hbm: Optional[str] = None, **jit_kwargs: Any) -> Result:
    """Fails unless fn compiles for topology and its total allocation per
    device, plus headroom ('10%' of the capacity kept free), fits the HBM."""
    from . import jax as hjax
    r = hjax.check_jit(fn, *args, topology=topology, hbm=hbm, **jit_kwargs)
    __tracebackhide__ = True
    if r.oom is not None:
        raise AssertionError(f"does not fit on {topology}: XLA refused the compile for memory\n{r}")
    m = r.memory
    if m is None or not m.capacity:
        raise AssertionError(f"hlolint: the capacity of {topology} is unknown\n{r}")
    room = _fraction(headroom)
    limit = int(m.capacity * (1 - room))
    if m.total > limit:
        raise AssertionError(
            f"does not fit on {topology} with {headroom} headroom: {_human(m.total)} per device of "
            f"{_human(m.capacity)} (limit {_human(limit)})\n{r}")
    return r


def assert_clean(fn: Any, *args: Any, topology: str = "v5e:2x4", rules: Optional[Sequence[str]] = None,
                 fail_on: str = "warning", **jit_kwargs: Any) -> Result:
    """Fails when the rules (all, or those named) find anything at or above
    fail_on in fn compiled for topology."""
    from . import jax as hjax
    r = hjax.check_jit(fn, *args, topology=topology, rules=rules, **jit_kwargs)
    __tracebackhide__ = True
    if r.oom is not None or r.failing(fail_on):
        raise AssertionError(f"hlolint found problems in {getattr(fn, '__name__', fn)!s} on {topology}:\n{r}")
    return r


def assert_no_recompilation(dump_dir: Any) -> Result:
    """Fails when the XLA dump folder of a run (XLA_FLAGS=--xla_dump_to=DIR)
    holds a jit function compiled more than once; the message says what
    changed between the compiles (rule recompilation)."""
    from . import api
    r = api.check(dump_dir, rules=["recompilation"], config="")
    __tracebackhide__ = True
    if r.failing("warning"):
        raise AssertionError(f"hlolint: recompilations in {dump_dir}:\n{r}")
    return r
