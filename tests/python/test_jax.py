"""The deviceless recipe for real: a small JAX train step compiled for a
v5e:2x4 this machine does not have, checked with its target; assert_fits
and assert_clean; the corpus's program that XLA refuses for memory; a
jax.export model export.  Skipped with one line without jax and libtpu."""
import importlib.util
import os
import sys

import pytest

from conftest import CORPORA, requires_tpu

pytestmark = requires_tpu


def _step():
    import jax
    import jax.numpy as jnp

    def train_step(w, x):
        def loss(w):
            y = jnp.tanh(x @ w)
            jax.debug.print("loss {}", y.sum())   # the leftover print the check must find
            return (y ** 2).mean()
        return w - 0.1 * jax.grad(loss)(w)
    return train_step


def _args(m):
    import jax
    import jax.numpy as jnp
    from jax.sharding import NamedSharding, PartitionSpec as P
    w = jax.ShapeDtypeStruct((2048, 2048), jnp.float32, sharding=NamedSharding(m, P()))
    x = jax.ShapeDtypeStruct((1024, 2048), jnp.float32, sharding=NamedSharding(m, P("data", None)))
    return w, x


def test_compile_for_and_check_jit():
    import hlolint.jax as hj
    m = hj.mesh("v5e:2x4", ("data", "model"), (2, 4))
    assert m.devices.shape == (2, 4) and "v5" in m.devices.flat[0].device_kind.lower()
    compiled = hj.compile_for(_step(), *_args(m), topology="v5e:2x4", donate_argnums=0)
    assert "HloModule" in compiled.as_text()
    r = hj.check_jit(_step(), *_args(m), topology="v5e:2x4", donate_argnums=0)
    assert r.memory.target == "tpu-v5e" and r.memory.fits is True
    assert r.memory.xla and r.memory.xla["argument_size_in_bytes"] == r.memory.arguments
    f = [f for f in r.findings if f.rule == "host-transfer"][0]
    # The user's own line: this file, relative to the git work tree.
    assert f.python_file == "tests/python/test_jax.py" and f.source.user, f.source
    assert f.python_line == _step.__code__.co_firstlineno + 7
    assert str(r).startswith("tests/python/test_jax.py:")


def test_assert_helpers():
    import hlolint.jax as hj
    from hlolint import testing
    m = hj.mesh("v5e:2x4", ("data", "model"), (2, 4))
    testing.assert_fits(_step(), *_args(m), topology="v5e:2x4", headroom="10%", donate_argnums=0)
    with pytest.raises(AssertionError) as e:
        testing.assert_clean(_step(), *_args(m), topology="v5e:2x4", rules=["host-transfer"])
    assert "host-transfer" in str(e.value) and "fix:" in str(e.value)
    assert testing.assert_clean(lambda w, x: x @ w, *_args(m), topology="v5e:2x4", rules=["host-transfer"]).ok


def _program(name):
    sys.path.insert(0, os.path.join(CORPORA, "xla", "programs"))
    spec = importlib.util.spec_from_file_location(name, os.path.join(CORPORA, "xla", "programs", name + ".py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_assert_fits_fails_on_corpus_oom():
    import hlolint.jax as hj
    from hlolint import testing
    m = hj.mesh("v5e:2x4", ("data", "model"), (2, 4))
    case = [c for c in _program("scan_offload").cases(m, "tpu-v5e") if c.name == "oom"][0]
    with pytest.raises(AssertionError) as e:
        testing.assert_fits(case.fn, *case.args, topology="v5e:2x4", **case.jit)
    msg = str(e.value)
    assert "XLA refused the compile for memory" in msg and "ran out of hbm" in msg
    r = hj.check_jit(case.fn, *case.args, topology="v5e:2x4", **case.jit)
    assert r.oom and r.oom["reports"][0]["capacity_bytes"] > 0 and not r.ok


def test_check_exported(tmp_path):
    import jax
    import jax.numpy as jnp
    from jax import export
    import hlolint.jax as hj
    exp = export.export(jax.jit(lambda a: jnp.tanh(a) @ a.T), platforms=["tpu"])(
        jax.ShapeDtypeStruct((512, 512), jnp.float32))
    path = tmp_path / "model.jax_exported"
    path.write_bytes(exp.serialize())
    r = hj.check_exported(str(path), topology="v5e:2x4")
    assert r.memory.target == "tpu-v5e" and r.memory.arguments == 512 * 512 * 4
