#!/usr/bin/env python3
"""gen.py - compile every corpus program x target with the real XLA compiler
and store what it said, for hlolint's fidelity tests (tests/xla/).

TPU targets compile deviceless: libtpu gives the devices of a topology
(jax.experimental.topologies.get_topology_desc) on a CPU-only machine; the
GPU target does the same through jax-cuda12-plugin with an H100 target
config; the CPU target uses 8 host devices.  The recipe is the Python
package's (python/hlolint/jax.py: devices, compile_for), used here.  For every program case and target it
writes corpora/xla/out/<program>/<case>/<target>/:
  compiled.hlo.gz                 compiled.as_text()
  after_optimizations.hlo.gz      the --xla_dump_to after-optimizations module
  buffer-assignment.txt.gz        its -buffer-assignment.txt
  memory-usage-report.txt.gz      its -memory-usage-report.txt
  memory_analysis.json            compiled.memory_analysis()
  error.txt                       the compiler's exact error (programs that do not fit)
and corpora/xla/MANIFEST.tsv and VERSIONS.txt.  Nothing here edits what
the compiler wrote.  Run through `make corpus-xla`, which makes the pinned
virtual environment (requirements.txt) under build/.

usage: gen.py [--only PROGRAM[/CASE]] [--targets T,...] [--out DIR] [--list]
"""
import argparse
import gzip
import importlib.util
import json
import os
import platform
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
os.environ.setdefault("JAX_PLATFORMS", "cpu")
os.environ.setdefault("TPU_SKIP_MDS_QUERY", "1")
os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") + " --xla_force_host_platform_device_count=8").strip()

# The deviceless recipe has one home, the Python package (hlolint.jax).
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
import jax  # noqa: E402  (after the environment above)
import numpy as np  # noqa: E402
from jax.sharding import Mesh  # noqa: E402
from hlolint import jax as hjax  # noqa: E402

# name -> (topology as hlolint.jax takes it, mesh shape); the chip config
# (megacore on v4 and v5p) and the H100 description are hlolint.jax's.
TARGETS = {
    "tpu-v4": ("v4:2x2x1", (2, 2)),
    "tpu-v5e": ("v5e:2x4", (2, 4)),
    "tpu-v5p": ("v5p:2x2x1", (2, 2)),
    "tpu-v6e": ("v6e:2x4", (2, 4)),
    "tpu-v7": ("tpu7x:2x2x1", (2, 4)),
    "h100": ("h100:1x1x8", (2, 4)),
    "cpu": ("cpu", (2, 4)),
}


def target_line(t):
    """VERSIONS.txt's row of target t: name, topology, chip config, mesh."""
    topo, shape = TARGETS[t]
    name, _, dims = topo.partition(":")
    if topo == "cpu":
        where, chip = "host", "-"
    elif name in hjax.GPU_CONFIGS:
        where, chip = "gpu:" + dims, name
    else:
        where, chip = topo, hjax.TPU_GENERATIONS[name][1]
    return f"target\t{t}\t{where}\t{chip}\tmesh {shape[0]}x{shape[1]} (data, model)\n"


PROGRAMS = ["replicated", "debug_print", "padding", "scan_offload", "host_offload", "act_offload", "offload_levers", "donation", "gpt",
            "oom_kinds", "llama", "moe", "convnet", "bigvocab", "stream", "loop_callback", "lstm"]
MEMORY_FIELDS = ["argument_size_in_bytes", "output_size_in_bytes", "alias_size_in_bytes", "temp_size_in_bytes",
                 "generated_code_size_in_bytes", "host_argument_size_in_bytes", "host_output_size_in_bytes",
                 "host_alias_size_in_bytes", "host_temp_size_in_bytes", "host_generated_code_size_in_bytes",
                 "peak_memory_in_bytes"]


def devices_of(target):
    topo, shape = TARGETS[target]
    devs = hjax.devices(topo)
    n = shape[0] * shape[1]
    if len(devs) < n:
        raise SystemExit(f"gen.py: {target} has {len(devs)} devices, mesh {shape} needs {n}")
    return Mesh(np.array(devs[:n]).reshape(shape), ("data", "model")), devs[0].device_kind


def load_program(name):
    sys.path.insert(0, os.path.join(HERE, "programs"))
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, "programs", name + ".py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def write_gz(path, data):
    # mtime 0: the same text gives the same bytes, so regenerating changes
    # only what the compiler changed.
    with open(path, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as f:
        f.write(data.encode() if isinstance(data, str) else data)


def dump_file(dump, suffix):
    """The newest file of the dump directory ending with suffix, or None."""
    hits = sorted((os.path.getmtime(os.path.join(dump, n)), n) for n in os.listdir(dump) if n.endswith(suffix))
    return os.path.join(dump, hits[-1][1]) if hits else None


def compile_case(case, outdir, target):
    """Compiles one case; writes its files to outdir; returns (status, memory dict, seconds)."""
    os.makedirs(outdir, exist_ok=True)
    for n in os.listdir(outdir):
        os.remove(os.path.join(outdir, n))
    dump = tempfile.mkdtemp(prefix="hlolint-xla-dump-")
    t0 = time.time()
    status, mem = "ok", {}
    try:
        # Every argument carries its NamedSharding: no mesh context needed.
        compiled = hjax.compile_for(case.fn, *case.args, topology=TARGETS[target][0], dump_to=dump, **case.jit)
        write_gz(os.path.join(outdir, "compiled.hlo.gz"), compiled.as_text())
        ma = compiled.memory_analysis()
        mem = {k: int(getattr(ma, k)) for k in MEMORY_FIELDS if hasattr(ma, k)}
        with open(os.path.join(outdir, "memory_analysis.json"), "w") as f:
            json.dump(mem, f, indent=1, sort_keys=True)
            f.write("\n")
    except Exception as e:  # the compiler's own error, kept verbatim
        text = str(e)
        status = "oom" if "RESOURCE_EXHAUSTED" in text or "Ran out of memory" in text else "error"
        with open(os.path.join(outdir, "error.txt"), "w") as f:
            f.write(text + ("\n" if not text.endswith("\n") else ""))
    secs = time.time() - t0
    # TPU names them "<module>.after_optimizations...", XLA:CPU and XLA:GPU
    # "<module>.cpu_after_optimizations..." / "gpu_after_optimizations...".
    for suffix, name in [("after_optimizations.txt", "after_optimizations.hlo.gz"),
                         ("after_optimizations-buffer-assignment.txt", "buffer-assignment.txt.gz"),
                         ("after_optimizations-memory-usage-report.txt", "memory-usage-report.txt.gz")]:
        src = dump_file(dump, suffix)
        if src:
            with open(src, "rb") as f:
                write_gz(os.path.join(outdir, name), f.read())
    shutil.rmtree(dump, ignore_errors=True)
    return status, mem, secs


def versions():
    import jaxlib
    v = {"jax": jax.__version__, "jaxlib": jaxlib.__version__, "python": platform.python_version()}
    try:
        from importlib.metadata import version
        v["libtpu"] = version("libtpu")
    except Exception:
        v["libtpu"] = "not installed"
    return v


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", help="PROGRAM or PROGRAM/CASE")
    ap.add_argument("--targets", default=",".join(TARGETS), help="comma-separated: " + ",".join(TARGETS))
    ap.add_argument("--out", default=os.path.join(HERE, "out"))
    ap.add_argument("--list", action="store_true", help="list the cases and exit")
    a = ap.parse_args()
    only_prog, _, only_case = (a.only or "").partition("/")
    targets = [t for t in a.targets.split(",") if t]
    for t in targets:
        if t not in TARGETS:
            raise SystemExit(f"gen.py: unknown target {t}")
    rows = []
    manifest = os.path.join(HERE, "MANIFEST.tsv")
    old = {}
    if os.path.exists(manifest):  # keep the rows of what this run does not redo
        with open(manifest) as f:
            head = f.readline().rstrip("\n").split("\t")
            for line in f:
                r = dict(zip(head, line.rstrip("\n").split("\t")))
                old[(r["program"], r["case"], r["target"])] = r
    for prog in PROGRAMS:
        if only_prog and prog != only_prog:
            continue
        mod = load_program(prog)
        for target in targets:
            mesh, kind = devices_of(target)
            if not a.list:  # what this run redoes replaces its old rows and files
                for k in [k for k in old if k[0] == prog and k[2] == target and (not only_case or k[1] == only_case)]:
                    shutil.rmtree(os.path.join(a.out, *k), ignore_errors=True)
                    del old[k]
            for case in mod.cases(mesh, target):
                if only_case and case.name != only_case:
                    continue
                if case.targets and target not in case.targets:
                    continue
                if a.list:
                    print(f"{prog}/{case.name}/{target}: {case.about}")
                    continue
                outdir = os.path.join(a.out, prog, case.name, target)
                status, mem, secs = compile_case(case, outdir, target)
                print(f"{prog}/{case.name}/{target}: {status} ({secs:.1f} s)", flush=True)
                row = {"program": prog, "case": case.name, "target": target, "device_kind": kind, "status": status,
                       "dir": os.path.relpath(outdir, HERE),
                       "expect": json.dumps(case.expect, sort_keys=True, separators=(",", ":")),
                       "about": case.about}
                row.update({k: str(mem.get(k, "")) for k in MEMORY_FIELDS})
                old[(prog, case.name, target)] = row
    if a.list:
        return
    bad = [k for k, r in old.items() if r["status"] == "error"]
    cols = ["program", "case", "target", "device_kind", "status", "dir"] + MEMORY_FIELDS + ["expect", "about"]
    with open(manifest, "w") as f:
        f.write("\t".join(cols) + "\n")
        for key in sorted(old):
            f.write("\t".join(old[key].get(c, "") for c in cols) + "\n")
    with open(os.path.join(HERE, "VERSIONS.txt"), "w") as f:
        v = versions()
        f.write("".join(f"{k}\t{v[k]}\n" for k in sorted(v)))
        f.write("env\tJAX_PLATFORMS=cpu TPU_SKIP_MDS_QUERY=1 XLA_FLAGS=--xla_force_host_platform_device_count=8\n")
        f.write("compile\tcompiler_options={xla_dump_to: <tmp>, xla_dump_hlo_as_text: true}"
                " (GPU: + xla_gpu_shard_autotuning=false, xla_gpu_autotune_level=0)\n")
        for t in TARGETS:
            f.write(target_line(t))
    if bad:  # a program bug, not a compiler verdict: never commit it
        for k in sorted(bad):
            print("gen.py: error (see its error.txt): " + "/".join(k), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
