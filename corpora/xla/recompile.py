#!/usr/bin/env python3
"""recompile.py - real --xla_dump_to folders of one program compiled more
than once in a process, for the recompilation rule (issue 47).  Each case
jits corpora/xla programs again with one thing changed, as a training loop
driven from Python does by accident, and keeps XLA's dump folder of all the
compiles (module ids in compile order):

  batch       the donation train step at batch 1024, 2048, 4096 (an argument's dimension)
  dtype       the same step with x in f32, then bf16 (an argument's dtype)
  weak        bf16 activations times a scale, a Python float (weak: bf16 out), then jnp.float32 (f32 out)
  sharding    x sharded over "data", then replicated (an argument's sharding)
  static      the learning rate a static argument: 0.01, then 0.02 (a baked constant)
  donation    donate_argnums=(0,), then none (input_output_alias on and off)
  samename    two different functions that are both named f (jit_f twice, not a recompile)
  memkind     x in device memory, then in pinned host memory (an argument's memory kind)
  devices     the step on a 2x4 mesh, then on a 1x4 mesh (num_partitions 8, then 4)
  lambda      jax.jit(lambda ...) made again for each call: the same program twice
  closure     a closed-over Python int sets the number of layers: 2, then 3 (the program changes)

Written to corpora/xla/out/recompile/<case>/tpu-v5e/ (TPU v5e, deviceless).
Of each dump only what hlolint reads is kept, byte for byte: the modules
before and after optimizations, the buffer assignment and memory-usage
report beside them, target_arguments.txt; XLA's flag files, compiler
environments and codegen dumps are left out (large, and about the compiler,
not the program).  Run it with corpora/xla's virtual environment:
build/xla-venv/bin/python corpora/xla/recompile.py [--only CASE]."""
import argparse
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
os.environ.setdefault("JAX_PLATFORMS", "cpu")
os.environ.setdefault("TPU_SKIP_MDS_QUERY", "1")
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
sys.path.insert(0, os.path.join(HERE, "programs"))
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from hlolint import jax as hjax  # noqa: E402
import donation  # noqa: E402
from common import sds  # noqa: E402

TOPOLOGY = "v5e:2x4"
KEEP = (".after_optimizations.txt", ".before_optimizations.txt", ".after_optimizations-buffer-assignment.txt",
        ".after_optimizations-memory-usage-report.txt", ".target_arguments.txt")


def scaled(x, scale):
    return jnp.tanh(x) * scale


def lr_step(w, x, lr):
    g = jax.grad(donation.loss)(w, x)
    return w - lr * g


def make_f_matmul():
    def f(a, b):
        return jnp.tanh(a @ b)
    return f


def make_f_sum():
    def f(a, b):
        return a + jnp.sum(b, axis=0)
    return f


def make_layers(n):
    def layers(w, x):
        for _ in range(n):
            x = jnp.tanh(x @ w)
        return x
    return layers


def on_device(mesh):
    """The step with x brought to device memory first (a no-op when it is
    there already): jax refuses a matmul of a pinned_host operand."""
    from jax.sharding import NamedSharding, PartitionSpec as P
    dev = NamedSharding(mesh, P("data", None), memory_kind="device")

    def train_step(w, x):
        return donation.train_step(w, jax.device_put(x, dev))
    return train_step


def cases(mesh):
    small = hjax.mesh(TOPOLOGY, ("data", "model"), (1, 4))   # 4 of the 8 devices
    w = sds(mesh, (4096, 4096), jnp.float32, ())
    def x(b=1024, dtype=jnp.float32, spec=("data", None)):
        return sds(mesh, (b, 4096), dtype, spec)
    step = donation.train_step
    return {
        "batch": [(step, (w, x(1024)), {}), (step, (w, x(2048)), {}), (step, (w, x(4096)), {})],
        "dtype": [(step, (w, x()), {}), (step, (w, x(dtype=jnp.bfloat16)), {})],
        "weak": [(scaled, (x(dtype=jnp.bfloat16), jax.ShapeDtypeStruct((), jnp.float32, weak_type=True)), {}),
                 (scaled, (x(dtype=jnp.bfloat16), jax.ShapeDtypeStruct((), jnp.float32)), {})],
        "sharding": [(step, (w, x()), {}), (step, (w, x(spec=())), {})],
        "static": [(lr_step, (w, x(), 0.01), {"static_argnums": (2,)}),
                   (lr_step, (w, x(), 0.02), {"static_argnums": (2,)})],
        "donation": [(step, (w, x()), {"donate_argnums": (0,)}), (step, (w, x()), {})],
        "samename": [(make_f_matmul(), (w, w), {}), (make_f_sum(), (w, w), {})],
        "memkind": [(on_device(mesh), (w, x()), {}),
                    (on_device(mesh), (w, sds(mesh, (1024, 4096), jnp.float32, ("data", None),
                                              memory_kind="pinned_host")), {})],
        "devices": [(step, (w, x()), {}), (step, (sds(small, (4096, 4096), jnp.float32, ()),
                                                 sds(small, (1024, 4096), jnp.float32, ("data", None))), {})],
        "lambda": [(lambda w, x: step(w, x), (w, x()), {}), (lambda w, x: step(w, x), (w, x()), {})],
        "closure": [(make_layers(2), (w, x()), {}), (make_layers(3), (w, x()), {})],
    }


def run_case(name, compiles, out):
    dump = tempfile.mkdtemp(prefix="hlolint-recompile-")
    for fn, args, jit in compiles:
        hjax.compile_for(fn, *args, topology=TOPOLOGY, dump_to=dump, **jit)
    if os.path.isdir(out):
        shutil.rmtree(out)
    os.makedirs(out)
    kept = 0
    for n in sorted(os.listdir(dump)):
        if n.startswith("module_") and n.endswith(KEEP):
            shutil.copyfile(os.path.join(dump, n), os.path.join(out, n))
            kept += 1
    shutil.rmtree(dump)
    return kept


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", help="one case")
    ap.add_argument("--out", default=os.path.join(HERE, "out", "recompile"))
    a = ap.parse_args()
    mesh = hjax.mesh(TOPOLOGY, ("data", "model"), (2, 4))
    rows = []
    for name, compiles in cases(mesh).items():
        if a.only and name != a.only:
            continue
        kept = run_case(name, compiles, os.path.join(a.out, name, "tpu-v5e"))
        rows.append(f"{name}\t{len(compiles)} compiles\t{kept} files\n")
        print(f"recompile.py: {name}: {len(compiles)} compiles, {kept} files kept", file=sys.stderr)
    if not a.only:
        with open(os.path.join(a.out, "MANIFEST.tsv"), "w") as f:
            f.write("# case\tcompiles\tfiles kept (corpora/xla/recompile.py; jax " + jax.__version__ + ")\n")
            f.writelines(rows)


if __name__ == "__main__":
    main()
