"""common.py - what every corpus program shares: the Case record gen.py
compiles, and abstract-argument helpers.  Programs only describe JAX
functions and their arguments; gen.py owns devices, compiling and storing."""
from dataclasses import dataclass, field
from typing import Any, Callable

import jax
from jax.sharding import NamedSharding, PartitionSpec as P


@dataclass
class Case:
    """One program variant to compile for every target.

    name:    short id, unique within its program ("replicated", "sharded")
    fn:      the Python function (jitted by gen.py with `jit` kwargs)
    args:    abstract arguments (jax.ShapeDtypeStruct with shardings)
    jit:     extra jax.jit keyword arguments (donate_argnums, out_shardings)
    expect:  what hlolint must say about the compiled TPU module: a dict
             rule -> op_name substring of the instruction it must flag, or
             None when the rule must stay silent (the control twin)
    targets: restrict to these target names (None: every target)
    about:   one line for MANIFEST.tsv
    """
    name: str
    fn: Callable
    args: tuple
    jit: dict = field(default_factory=dict)
    expect: dict = field(default_factory=dict)
    targets: Any = None
    about: str = ""


def sds(mesh, shape, dtype, spec=(), memory_kind=None):
    """An abstract argument of shape/dtype placed on mesh with PartitionSpec(*spec)."""
    sharding = NamedSharding(mesh, P(*spec), memory_kind=memory_kind)
    return jax.ShapeDtypeStruct(shape, dtype, sharding=sharding)


def named(mesh, *spec, memory_kind=None):
    return NamedSharding(mesh, P(*spec), memory_kind=memory_kind)
