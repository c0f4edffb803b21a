#!/usr/bin/env python3
"""make_tpu_v5e_oom.py - writes tests/dumps/tpu-v5e-oom/: the whole
--xla_dump_to folder of a compile that runs out of memory (an Adam-like
step over replicated parameters and two moments, 3 x 6G on a 15.75G
TPU v5e), and error.txt, the compiler's message exactly as the exception
gives it.  Compiled deviceless by the pinned JAX and libtpu
(corpora/xla/requirements.txt) through hlolint.jax.compile_for; nothing
edited.  libtpu writes the buffer assignment and the memory-usage report
even though the compile fails (and an oom_intermediate_module.txt).  Run
with build/xla-venv/bin/python.  tests/oom/test_oom_dump.sh reads it."""
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax.sharding import NamedSharding, PartitionSpec as P  # noqa: E402
from hlolint import jax as hjax  # noqa: E402


def step(p, m, v):
    return p - 0.1 * m / (jnp.sqrt(v) + 1e-8)


def main():
    out = os.path.join(HERE, "tpu-v5e-oom")
    shutil.rmtree(out, ignore_errors=True)
    mesh = hjax.mesh("v5e:2x4", ("data", "model"), (2, 4))
    p = jax.ShapeDtypeStruct((6 * 1024, 256 * 1024), jnp.float32, sharding=NamedSharding(mesh, P()))
    try:
        hjax.compile_for(step, p, p, p, topology="v5e:2x4", dump_to=out)
        raise SystemExit("make_tpu_v5e_oom.py: the program compiled; it must not fit")
    except Exception as e:  # the compiler's own message, kept verbatim
        if not hjax.is_oom(e):
            raise
        text = str(e)
    for name in sorted(os.listdir(out)):
        path = os.path.join(out, name)
        if os.path.isdir(path):
            shutil.rmtree(path)
    with open(os.path.join(out, "error.txt"), "w") as f:
        f.write(text + ("" if text.endswith("\n") else "\n"))
    print("\n".join(sorted(os.listdir(out))))


if __name__ == "__main__":
    main()
