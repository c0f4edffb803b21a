"""hlolint: why your JAX program will not fit or will be slow, before the
TPU/GPU job.  A Python door to the hlolint C binary (shipped inside this
package): hlolint.check / mem / oom / annotate / diff on HLO text, dumps or
jax.stages.Compiled; hlolint.jax compiles for a TPU you do not have;
hlolint.testing has pytest assertions.  The analysis is the binary's."""
from .api import annotate, check, diff, mem, oom
from .result import Finding, FindingsError, HloError, Memory, Result, Source

__version__ = "0.1.0"
__all__ = ["check", "mem", "oom", "annotate", "diff", "Result", "Finding", "Memory", "Source", "HloError",
           "FindingsError", "__version__"]
