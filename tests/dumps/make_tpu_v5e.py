#!/usr/bin/env python3
"""make_tpu_v5e.py - writes tests/dumps/tpu-v5e/: the whole --xla_dump_to
folder of one small program compiled deviceless for a TPU v5e (2x4) by the
pinned JAX and libtpu (corpora/xla/requirements.txt), through
hlolint.jax.compile_for.  Nothing in it is edited; the file names carry a
cache key that changes from run to run.  Run with build/xla-venv/bin/python
(make corpus-xla makes it).  tests/dumps/test_dump_real.sh reads it: libtpu
0.0.42 writes the module again under after_optimizations_* names, and a
target_arguments.txt that names the chip."""
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax.sharding import NamedSharding, PartitionSpec as P  # noqa: E402
from hlolint import jax as hjax  # noqa: E402


def main():
    out = os.path.join(HERE, "tpu-v5e")
    shutil.rmtree(out, ignore_errors=True)
    m = hjax.mesh("v5e:2x4", ("data", "model"), (2, 4))
    x = jax.ShapeDtypeStruct((1024, 1024), jnp.float32, sharding=NamedSharding(m, P("data", None)))
    hjax.compile_for(lambda a: (a @ a.T).sum(), x, topology="v5e:2x4", dump_to=out)
    for name in sorted(os.listdir(out)):
        path = os.path.join(out, name)
        if os.path.isdir(path):     # per-pass subfolders: not what users point hlolint at
            shutil.rmtree(path)
    print("\n".join(sorted(os.listdir(out))))


if __name__ == "__main__":
    main()
