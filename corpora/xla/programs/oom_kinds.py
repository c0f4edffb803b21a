"""oom_kinds.py - programs that do not fit, one per kind of out-of-memory
failure `hlolint oom` must tell apart (docs/oom.md), compiled for one chip
(tpu-v5e, 15.75G usable per device) to keep the real compiler's verdicts:

  arguments    Adam-like step over replicated parameters and two moments:
               the arguments alone (3 x 6G) are more than the chip holds
  host_undone  a stacked array placed in pinned host memory, brought whole
               to the device before a scan reads it: the optimized module
               copies all of it into HBM at the start, so the offload saves
               nothing
  far_over     an accidental outer product of a 10^6 vector: the program
               asks for terabytes, a shape bug and not a budget
  vmem_block   a Pallas kernel whose block (f32[8192,8192], 256M) is more
               than the kernel's scoped VMEM: a kernel OOM, not an HBM one

The libtpu pinned in VERSIONS.txt answers each in its own words
(error.txt); nothing here edits them."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.sharding import NamedSharding, PartitionSpec as P

from common import Case, sds

TARGETS = ["tpu-v5e"]


def adam_like(p, m, v):
    return p - 0.1 * m / (jnp.sqrt(v) + 1e-8)


def scan_over_host_stack(mesh):
    def f(stack, w):
        on_device = jax.device_put(stack, NamedSharding(mesh, P("data"), memory_kind="device"))

        def body(c, x):
            return c + (x @ w).astype(jnp.float32).sum(), None
        c, _ = jax.lax.scan(body, 0.0, on_device)
        return c
    return f


def outer_sorted(x):
    return jnp.sort(x[:, None] * x[None, :], axis=0)


def _double(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2


def big_block(x):
    spec = pl.BlockSpec((8192, 8192), lambda i: (0, 0))
    return pl.pallas_call(_double, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=(1,),
                          in_specs=[spec], out_specs=spec)(x)


def cases(mesh, target):
    p = sds(mesh, (6 * 1024, 256 * 1024), jnp.float32)
    stack = sds(mesh, (128, 131072, 1024), jnp.bfloat16, ("data",), memory_kind="pinned_host")
    w = sds(mesh, (1024, 1024), jnp.bfloat16)
    return [
        Case("arguments", adam_like, (p, p, p), targets=TARGETS,
             about="replicated parameters and two moments: the arguments alone exceed HBM"),
        Case("host_undone", scan_over_host_stack(mesh), (stack, w), targets=TARGETS,
             about="a pinned-host stack copied whole into HBM before the scan"),
        Case("far_over", outer_sorted, (sds(mesh, (10**6,), jnp.float32),), targets=TARGETS,
             about="an accidental outer product: terabytes asked of a 16G chip"),
        # No sharding: a Mosaic kernel is not partitioned automatically.
        Case("vmem_block", big_block, (jax.ShapeDtypeStruct((8192, 8192), jnp.float32),), targets=TARGETS,
             about="a Pallas block larger than the kernel's scoped VMEM"),
    ]
