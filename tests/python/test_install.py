"""The wheel installed in a fresh venv: the console command, python -m
hlolint and import hlolint run the same binary with the same exit codes;
a binary for another platform is refused with one line; `pip install .`
builds the binary through the Makefile."""
import os
import shutil
import subprocess
import sys

import hlolint
from hlolint import _binary

from conftest import CORPORA, ROOT, run

EXAMPLE = os.path.join(CORPORA, "examples", "train_step.hlo")


def test_installed_not_checkout():
    # The installed package, with its own copy of the binary.
    assert "site-packages" in hlolint.__file__
    assert os.access(os.path.join(os.path.dirname(hlolint.__file__), "bin", "hlolint"), os.X_OK)


def test_console_command_is_the_binary():
    exe = os.path.join(os.path.dirname(sys.executable), "hlolint")
    ours = run(exe, "check", "--no-config", EXAMPLE)
    theirs = run(os.path.join(ROOT, "build", "hlolint"), "check", "--no-config", EXAMPLE)
    assert ours.returncode == theirs.returncode == 1
    assert ours.stdout == theirs.stdout and ours.stdout
    assert run(exe, "--version").stdout.startswith("hlolint ")


def test_python_m_and_exit_codes(tmp_path):
    bad = tmp_path / "bad.hlo"
    bad.write_text("HloModule m\nENTRY e {\n  ROOT a = f32[] bogus()\n}\n")
    p = run(sys.executable, "-m", "hlolint", "parse", str(bad))
    assert p.returncode == 2
    assert f"{bad}:3:" in p.stderr and "error:" in p.stderr
    assert run(sys.executable, "-m", "hlolint", "parse", EXAMPLE).returncode == 0
    assert run(sys.executable, "-m", "hlolint", "check", "--no-config", EXAMPLE).returncode == 1


def _fake_elf(path, machine):
    head = bytearray(64)
    head[:4] = b"\x7fELF"
    head[4], head[5] = 2, 1
    head[18:20] = machine.to_bytes(2, "little")
    path.write_bytes(bytes(head))
    path.chmod(0o755)


def test_other_platform_refused(tmp_path):
    fake = tmp_path / "hlolint"
    _fake_elf(fake, 183 if _binary.this_platform() != "linux-aarch64" else 62)
    try:
        _binary.check(str(fake))
    except _binary.BinaryError as e:
        msg = str(e)
    else:
        raise AssertionError("a binary for another platform was accepted")
    assert "\n" not in msg and "built for linux-" in msg and "this machine is" in msg
    # The console path: a package whose bin/ holds it says so in one line, exit 2.
    pkg = tmp_path / "site" / "hlolint"
    shutil.copytree(os.path.dirname(hlolint.__file__), pkg)
    _fake_elf(pkg / "bin" / "hlolint", 183 if _binary.this_platform() != "linux-aarch64" else 62)
    env = dict(os.environ, PYTHONPATH=str(tmp_path / "site"))
    env.pop("HLOLINT_BINARY", None)
    p = run(sys.executable, "-m", "hlolint", "rules", env=env, cwd=str(tmp_path))
    assert p.returncode == 2 and p.stdout == ""
    assert len(p.stderr.strip().splitlines()) == 1 and "built for" in p.stderr


def test_pip_install_dot(tmp_path):
    # `pip install .` (no network: setuptools is in this venv already).
    target = tmp_path / "t"
    p = run(sys.executable, "-m", "pip", "install", "-q", "--no-build-isolation", "--no-deps",
            "--target", str(target), ROOT)
    assert p.returncode == 0, p.stderr[-2000:]
    binary = target / "hlolint" / "bin" / "hlolint"
    assert os.access(binary, os.X_OK)
    env = dict(os.environ, PYTHONPATH=str(target))
    q = run(sys.executable, "-m", "hlolint", "check", "--no-config", EXAMPLE, env=env, cwd=str(tmp_path))
    assert q.returncode == 1 and "host-transfer" in q.stdout


def test_pre_commit_hook():
    # The hook installs this package (language: python) and takes the dumps users commit.
    import re
    with open(os.path.join(ROOT, ".pre-commit-hooks.yaml")) as f:
        text = f.read()
    assert re.search(r"^\s*language: python$", text, re.M)
    assert re.search(r"^\s*entry: hlolint check --require-target$", text, re.M)
    pat = re.compile(re.search(r"^\s*files: '(.*)'$", text, re.M).group(1))
    for name in ["compiled.txt", "exports/compiled.txt", "step.hlo", "d/step.hlo.gz",
                 "dump/module_0001.jit_f.cl_1.after_optimizations.txt"]:
        assert pat.search(name), name
    for name in ["notes.txt", "dump/module_0001.jit_f.after_optimizations-buffer-assignment.txt", "x.hlo.bak"]:
        assert not pat.search(name), name
