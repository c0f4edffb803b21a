"""Fixtures of the Python package's tests (tests/python/run.sh runs them in
a fresh virtual environment where the wheel is installed).  They test the
installed hlolint, never python/ of the checkout."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPORA = os.path.join(ROOT, "corpora")


@pytest.fixture
def root():
    return ROOT


def has_jax_tpu():
    try:
        import jax  # noqa: F401
        import libtpu  # noqa: F401
    except Exception:
        return False
    return True


def run(*args, **kw):
    return subprocess.run(list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


requires_tpu = pytest.mark.skipif(not has_jax_tpu(), reason="jax and libtpu not installed in this venv "
                                  "(the package index was unreachable: pip install 'hlolint[tpu]')")
