#!/usr/bin/env python3
"""xla_check.py - XLA itself as the judge of hlolint's outputs, for
`make check-xla` (tests/xla/live/): XLA's own HLO text parser, a recompile
of an annotated module for a TPU topology, and the parser's speed.

usage: xla_check.py parse FILE...          one line per file: "ok FILE" or
                                           "error FILE: <XLA's message>"
       xla_check.py recompile FILE TARGET  memory_analysis() of FILE compiled
                                           for TARGET (gen.py's names) as JSON,
                                           or "not possible: <XLA's error>"
       xla_check.py time FILE [N]          seconds XLA's parser takes on FILE
                                           (best of N runs)
"""
import gzip
import json
import os
import sys
import time

os.environ.setdefault("JAX_PLATFORMS", "cpu")
os.environ.setdefault("TPU_SKIP_MDS_QUERY", "1")


def read(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return data.decode()


def parser():
    from jaxlib import _hlo  # XLA's HloParser, as jaxlib exposes it
    return _hlo.hlo_module_from_text


def cmd_parse(files):
    parse = parser()
    bad = 0
    for f in files:
        try:
            parse(read(f))
            print(f"ok {f}")
        except Exception as e:  # XLA's message, first line
            bad += 1
            print(f"error {f}: {str(e).strip().splitlines()[0][:300]}")
    return 1 if bad else 0


def cmd_recompile(path, target):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import numpy as np
    from gen import TARGETS
    from jax.experimental import topologies
    from jax._src.interpreters import mlir as jmlir
    from jax._src.lib import xla_client as xc
    from jax._src.lib.mlir import ir
    topo, chip, shape = TARGETS[target]
    try:
        module = parser()(read(path))
        stablehlo = xc._xla.mlir.hlo_to_stablehlo(module.as_serialized_hlo_module_proto())
        devs = topologies.get_topology_desc(topology_name=topo, platform="tpu", chip_config_name=chip).devices
        n = int(np.prod(shape))
        opts = xc.CompileOptions()
        opts.num_partitions = n
        opts.executable_build_options.num_partitions = n
        opts.executable_build_options.use_spmd_partitioning = True
        with jmlir.make_ir_context():
            ex = devs[0].client.compile(ir.Module.parse(stablehlo),
                                        executable_devices=xc._xla.DeviceList(tuple(devs[:n])),
                                        compile_options=opts)
        ma = ex.get_compiled_memory_stats()
        print(json.dumps({k: int(getattr(ma, k)) for k in dir(ma)
                          if k.endswith("_in_bytes") and isinstance(getattr(ma, k), int)}, sort_keys=True))
    except Exception as e:
        msg = " ".join(str(e).split())
        print(f"not possible: {msg[:400]}")
    return 0


def cmd_time(path, n=3):
    parse = parser()
    text = read(path)
    best = None
    for _ in range(int(n)):
        t0 = time.perf_counter()
        parse(text)
        t = time.perf_counter() - t0
        best = t if best is None or t < best else best
    print(f"{best:.3f}")
    return 0


def main(argv):
    if len(argv) >= 2 and argv[0] == "parse":
        return cmd_parse(argv[1:])
    if len(argv) == 3 and argv[0] == "recompile":
        return cmd_recompile(argv[1], argv[2])
    if len(argv) in (2, 3) and argv[0] == "time":
        return cmd_time(*argv[1:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
