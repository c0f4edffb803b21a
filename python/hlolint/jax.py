"""hlolint.jax - compile a JAX program for a TPU (or GPU) you do not have
and check it: the deviceless recipe (libtpu's topology description on a
CPU-only machine, JAX_PLATFORMS=cpu) that corpora/xla/gen.py also uses,
meshes over such devices, and check_jit / check_exported, which take the
target and HBM capacity from the topology so they cannot be forgotten.
Compiling is JAX's; judging is the hlolint binary's (hlolint.api)."""
from __future__ import annotations

import os
import re
import tempfile
from typing import Any, Dict, Optional, Sequence, Tuple

# Before JAX starts its backends: no TPU on this machine is expected, and
# libtpu must not wait for a metadata server.
os.environ.setdefault("JAX_PLATFORMS", "cpu")
os.environ.setdefault("TPU_SKIP_MDS_QUERY", "1")

import jax  # noqa: E402
import numpy as np  # noqa: E402
from jax.experimental import topologies  # noqa: E402
from jax.sharding import Mesh  # noqa: E402

from . import api  # noqa: E402
from .result import Result  # noqa: E402

# TPU topology name prefix -> (hlolint --target preset, libtpu chip_config_name).
TPU_GENERATIONS = {
    "v4": ("tpu-v4", "megacore"),
    "v5e": ("tpu-v5e", "default"),
    "v5litepod": ("tpu-v5e", "default"),
    "v5p": ("tpu-v5p", "megacore"),
    "v6e": ("tpu-v6e", "default"),
    "tpu7x": ("tpu-v7", "default"),
}

# The device description XLA:GPU compiles for without a GPU: H100 SXM 80GB
# (sm_90, 132 SMs), from NVIDIA's published specifications.  Only what the
# compiler's cost model and memory checks read.
H100 = dict(threads_per_block_limit=1024, threads_per_warp=32, shared_memory_per_block=49152,
            shared_memory_per_core=233472, threads_per_core_limit=2048, core_count=132, fpus_per_core=128,
            block_dim_limit_x=2147483647, block_dim_limit_y=65535, block_dim_limit_z=65535,
            memory_bandwidth=3352320000000, l2_cache_size=52428800, clock_rate_ghz=1.98,
            device_memory_size=84942979072, shared_memory_per_block_optin=232448,
            registers_per_core_limit=65536, registers_per_block_limit=65536)
GPU_CONFIGS = {"h100": (H100, 9, 0, "NVIDIA H100 80GB HBM3")}
# Autotuning needs a device; the deviceless compile must not try.
GPU_OPTIONS = {"xla_gpu_shard_autotuning": False, "xla_gpu_autotune_level": 0}


def gpu_target_config(name: str) -> str:
    """A GpuTargetConfigProto in text format for get_topology_desc(platform="cuda")."""
    info, major, minor, desc = GPU_CONFIGS[name]
    body = "".join(f"  {k}: {v}\n" for k, v in info.items())
    body += f"  cuda_compute_capability {{ major: {major} minor: {minor} }}\n"
    return (f"gpu_device_info {{\n{body}}}\nplatform_name: \"CUDA\"\n"
            f"dnn_version_info {{ major: 9 minor: 1 }}\ndevice_description_str: \"{desc}\"\n")


def _parse(topology: str) -> Tuple[str, str, Optional[str]]:
    """'v5e:2x4' -> ('tpu', 'v5e:2x4', 'tpu-v5e'); 'h100:1x1x8' -> ('cuda', '1x1x8', 'h100');
    'cpu' -> ('cpu', '', 'cpu')."""
    if topology == "cpu":
        return "cpu", "", "cpu"
    name, _, shape = topology.partition(":")
    if name in GPU_CONFIGS:
        return "cuda", shape or "1x1x1", name
    if name not in TPU_GENERATIONS or not re.fullmatch(r"\d+(x\d+)+", shape):
        raise ValueError(f"hlolint: unknown topology {topology!r}: expected GEN:SHAPE with GEN one of "
                         f"{', '.join(sorted(TPU_GENERATIONS))} (e.g. 'v5e:2x4'), 'h100:1x1x8' or 'cpu'")
    return "tpu", topology, TPU_GENERATIONS[name][0]


def target_of(topology: str) -> Optional[str]:
    """The hlolint --target preset of a topology ('v5e:2x4' -> 'tpu-v5e')."""
    return _parse(topology)[2]


def devices(topology: str) -> list:
    """The devices of a topology this machine does not have (deviceless)."""
    platform, topo, name = _parse(topology)
    if platform == "cpu":
        return jax.devices("cpu")
    if platform == "cuda":
        return list(topologies.get_topology_desc(platform="cuda", topology=topo,
                                                 target_config=gpu_target_config(name)).devices)
    chip = TPU_GENERATIONS[topo.split(":")[0]][1]
    return list(topologies.get_topology_desc(topology_name=topo, platform="tpu", chip_config_name=chip).devices)


def mesh(topology: str, axis_names: Sequence[str], shape: Optional[Sequence[int]] = None) -> Mesh:
    """A Mesh over the devices of topology, e.g. mesh("v5e:2x4", ("data", "model"), (2, 4)).
    Without shape, all devices on the first axis (the others of size 1)."""
    devs = devices(topology)
    axis_names = tuple(axis_names)
    if shape is None:
        shape = (len(devs),) + (1,) * (len(axis_names) - 1)
    shape = tuple(shape)
    if len(shape) != len(axis_names):
        raise ValueError(f"hlolint: mesh shape {shape} and axis names {axis_names} differ in length")
    n = int(np.prod(shape))
    if n > len(devs):
        raise ValueError(f"hlolint: {topology} has {len(devs)} devices, mesh {shape} needs {n}")
    return Mesh(np.array(devs[:n]).reshape(shape), axis_names)


def compile_for(fn: Any, *args: Any, topology: str = "v5e:2x4", compiler_options: Optional[Dict[str, Any]] = None,
                dump_to: Optional[str] = None, **jit_kwargs: Any) -> Any:
    """jax.jit(fn, **jit_kwargs).lower(*args).compile() for topology, on a
    machine without it.  args may be jax.ShapeDtypeStructs (with shardings
    over mesh(topology, ...)), so no array is allocated; jit_kwargs are
    jax.jit's (in_shardings, out_shardings, donate_argnums, static_argnums,
    ...).  dump_to: also write XLA's --xla_dump_to folder there.  Raises
    what the compiler raises (an out-of-memory compile included)."""
    platform, _, _ = _parse(topology)
    opts = dict(compiler_options or {})
    if dump_to:
        opts.update(xla_dump_to=dump_to, xla_dump_hlo_as_text=True)
    if platform == "cuda":
        for k, v in GPU_OPTIONS.items():
            opts.setdefault(k, v)
    if not _has_devices(args, jit_kwargs):
        # Arguments without shardings: put them on the topology's first device.
        from jax.sharding import SingleDeviceSharding
        dev = devices(topology)[0]
        args = tuple(jax.ShapeDtypeStruct(a.shape, a.dtype, sharding=SingleDeviceSharding(dev))
                     if isinstance(a, jax.ShapeDtypeStruct) else a for a in args)
    lowered = jax.jit(fn, **jit_kwargs).lower(*args)
    return lowered.compile(compiler_options=opts) if opts else lowered.compile()


def _has_devices(args: Sequence[Any], jit_kwargs: Dict[str, Any]) -> bool:
    if jit_kwargs.get("in_shardings") is not None:
        return True
    return any(getattr(leaf, "sharding", None) is not None
               for leaf in jax.tree_util.tree_leaves(args) if isinstance(leaf, jax.ShapeDtypeStruct))


def is_oom(e: BaseException) -> bool:
    """Whether a compile error is XLA refusing the program for memory."""
    text = str(e)
    return "RESOURCE_EXHAUSTED" in text or "Ran out of memory" in text or "Out of memory" in text


def check_jit(fn: Any, *args: Any, topology: str = "v5e:2x4", target: Optional[str] = None,
              hbm: Optional[str] = None, rules: Optional[Sequence[str]] = None, config: Optional[str] = None,
              source_root: Optional[str] = None, **jit_kwargs: Any) -> Result:
    """Compiles fn for topology (compile_for) and checks it, with the target
    and capacity of the topology.  A compile XLA refuses for memory returns
    the oom triage of XLA's own message (result.oom set, result.ok False)."""
    tgt = target or target_of(topology)
    with tempfile.TemporaryDirectory(prefix="hlolint-dump-") as dump:
        try:
            compiled = compile_for(fn, *args, topology=topology, dump_to=dump, **jit_kwargs)
        except Exception as e:  # noqa: BLE001  (the compiler's own error type varies)
            if not is_oom(e):
                raise
            mods = [n for n in os.listdir(dump) if n.endswith("after_optimizations.txt")]
            return api.oom(str(e).rstrip("\n") + "\n", dump if mods else None,
                           target=tgt, config=config, source_root=source_root)
    return api.check(compiled, target=tgt, hbm=hbm, rules=rules, config=config, source_root=source_root,
                     require_target=True)


def check_exported(exported: Any, *, topology: str = "v5e:2x4", target: Optional[str] = None,
                   hbm: Optional[str] = None, rules: Optional[Sequence[str]] = None,
                   config: Optional[str] = None, source_root: Optional[str] = None) -> Result:
    """Checks a model export: a jax.export.Exported, its serialized bytes, or
    a file holding them, compiled for topology with its own shardings."""
    from jax import export as jexport
    if isinstance(exported, (str, os.PathLike)):
        with open(exported, "rb") as f:
            exported = f.read()
    if isinstance(exported, (bytes, bytearray)):
        exported = jexport.deserialize(bytearray(exported))
    n = exported.nr_devices
    m = mesh(topology, ("_devices",), (n,))
    shardings = exported.in_shardings_jax(m)
    args = [jax.ShapeDtypeStruct(a.shape, a.dtype, sharding=s) for a, s in zip(exported.in_avals, shardings)]
    return check_jit(exported.call, *args, topology=topology, target=target, hbm=hbm, rules=rules,
                     config=config, source_root=source_root)
