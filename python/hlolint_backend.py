"""hlolint_backend - the PEP 517 build backend of the Python package:
setuptools' own, with two commands changed so that the wheel carries the
C binary.  build_py runs `make build/hlolint` at the top of the source tree
and copies the binary to hlolint/bin/; bdist_wheel tags the wheel for this
platform (it holds machine code).  Nothing here analyses HLO."""
import os
import shutil
import subprocess

from setuptools import build_meta as _orig
from setuptools.build_meta import *  # noqa: F401,F403  (the PEP 517 hooks)
from setuptools.command.build_py import build_py as _build_py

try:  # setuptools >= 70.1 has it; older ones take it from wheel
    from setuptools.command.bdist_wheel import bdist_wheel as _bdist_wheel
except ImportError:  # pragma: no cover
    from wheel.bdist_wheel import bdist_wheel as _bdist_wheel

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class BuildPy(_build_py):
    """Builds the C binary with the project's Makefile, then the package."""

    def run(self):
        make = os.environ.get("MAKE", "make")
        subprocess.check_call([make, "-C", ROOT, "build/hlolint"])
        super().run()
        dest = os.path.join(self.build_lib, "hlolint", "bin")
        os.makedirs(dest, exist_ok=True)
        shutil.copy2(os.path.join(ROOT, "build", "hlolint"), os.path.join(dest, "hlolint"))
        os.chmod(os.path.join(dest, "hlolint"), 0o755)


class BdistWheel(_bdist_wheel):
    """A platform wheel (py3-none-<platform>): the binary is machine code."""

    def finalize_options(self):
        super().finalize_options()
        self.root_is_pure = False

    def get_tag(self):
        _, _, plat = super().get_tag()
        return "py3", "none", plat


def _with_commands(fn):
    def hook(*args, **kwargs):
        import setuptools
        orig_setup = setuptools.setup

        def setup(**attrs):
            attrs.setdefault("cmdclass", {}).update(build_py=BuildPy, bdist_wheel=BdistWheel)
            return orig_setup(**attrs)
        setuptools.setup = setup
        try:
            return fn(*args, **kwargs)
        finally:
            setuptools.setup = orig_setup
    return hook


build_wheel = _with_commands(_orig.build_wheel)
build_editable = _with_commands(_orig.build_editable)
