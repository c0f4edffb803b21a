"""The Python API on stored modules: typed results mirroring the JSON,
str() = the CLI's text, errors as HloError, nothing printed, a crashing
binary an error (never a result)."""
import gzip
import json
import os
import stat

import pytest

import hlolint
from hlolint.result import Finding, Memory

from conftest import CORPORA, ROOT, run

EXAMPLE = os.path.join(CORPORA, "examples", "train_step.hlo")
GPT_OOM = os.path.join(CORPORA, "xla", "out", "gpt", "oom", "tpu-v5e")
BIN = os.path.join(ROOT, "build", "hlolint")


def test_check_typed(capsys):
    r = hlolint.check(EXAMPLE, target="tpu-v5e", config="")
    assert r.exit_code == 1 and not r.ok
    f = r.findings[0]
    assert isinstance(f, Finding) and f.rule == "host-transfer" and f.severity == "warning"
    assert (f.line, f.column, f.instruction) == (87, 4, "debug-print")
    assert f.python_file == "/work/train.py" and f.python_line == 43
    assert not f.source.user  # outside the git work tree the tests run in
    assert f.fix.startswith("remove the leftover jax.debug.print")
    assert f.fact.startswith("custom_call_target ")  # the note text output shows first
    assert f.fields["mechanism"] == "debug_callback"
    m = r.memory
    assert isinstance(m, Memory) and m.target == "tpu-v5e" and m.capacity > 15 << 30 and m.fits is True
    doc = json.loads(run(BIN, "check", "--no-config", "--target", "tpu-v5e", "--format", "json", EXAMPLE).stdout)
    assert r.json == doc and m.total == doc["modules"][0]["total_bytes"]
    assert str(r) == run(BIN, "check", "--no-config", "--target", "tpu-v5e", EXAMPLE).stdout
    with pytest.raises(hlolint.FindingsError) as e:
        r.raise_for_findings()
    assert "host-transfer" in str(e.value)
    assert r.raise_for_findings(fail_on="error") is r
    assert capsys.readouterr() == ("", "")


def test_text_gzip_and_folder_inputs():
    with open(EXAMPLE) as f:
        text = f.read()
    assert [x.rule for x in hlolint.check(text, config="").findings] == ["host-transfer"]
    with gzip.open(os.path.join(GPT_OOM, "after_optimizations.hlo.gz"), "rt") as f:
        gz = f.read()
    a = hlolint.mem(gz, target="tpu-v5e", config="").memory
    b = hlolint.mem(GPT_OOM, target="tpu-v5e", config="").memory
    assert a.total == b.total and a.fits is False and b.capacity == a.capacity


def test_hlo_error_located(tmp_path):
    bad = tmp_path / "bad.hlo"
    bad.write_text("HloModule m\nENTRY e {\n  ROOT a = f32[] bogus()\n}\n")
    with pytest.raises(hlolint.HloError) as e:
        hlolint.check(str(bad))
    assert (e.value.path, e.value.line, e.value.column) == (str(bad), 3, 18)
    assert "unknown opcode 'bogus'" in e.value.message
    with pytest.raises(hlolint.HloError):
        hlolint.check(str(tmp_path / "missing.hlo"))
    with pytest.raises(TypeError):
        hlolint.check(3.5)


def test_crashing_binary_is_an_error(tmp_path, monkeypatch):
    crash = tmp_path / "crash.sh"
    crash.write_text("#!/bin/sh\nkill -SEGV $$\n")
    crash.chmod(crash.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("HLOLINT_BINARY", str(crash))
    with pytest.raises(hlolint.HloError) as e:
        hlolint.check(EXAMPLE)
    assert "crashed" in str(e.value)


def test_oom_triage():
    r = hlolint.oom(os.path.join(GPT_OOM, "error.txt"), GPT_OOM)
    assert r.exit_code == 1 and r.oom and not r.ok
    rep = r.oom["reports"][0]
    # GPT's parameters and Adam moments alone exceed the chip (corpora/xla gpt.py)
    assert rep["class"] == "arguments" and rep["capacity_bytes"] == 16911433728
    assert rep["phase"] == "compile" and rep["fact"].startswith("the arguments alone take")
    assert rep["allocations_from"] == "xla-buffer-assignment" and rep["allocations"][0]["instruction"]
    assert "ran out of hbm" in str(r)
    # a run-time report, pasted as text: the TPU runtime could not load the program
    rt = hlolint.oom("RESOURCE_EXHAUSTED: Attempting to reserve 6.48G at the bottom of memory. That was not "
                     "possible. There are 6.78G free, 0B reserved, and 3.33G reservable.\n")
    assert rt.oom["reports"][0]["phase"] == "run" and rt.oom["reports"][0]["class"] == "fragmentation"
    with open(os.path.join(GPT_OOM, "error.txt")) as f:
        assert hlolint.oom(f.read()).oom["reports"][0]["used_bytes"] == rep["used_bytes"]


def test_annotate_and_diff():
    a = hlolint.annotate(EXAMPLE, apply=True, target="tpu-v5e", config="")
    assert "// hlolint:" in a.output and a.output.startswith("HloModule jit_train_step")
    again = hlolint.check(a.output, target="tpu-v5e", config="")
    assert again.memory.total == hlolint.mem(a.output, target="tpu-v5e", config="").memory.total
    d = hlolint.diff(os.path.join(CORPORA, "xla/out/replicated/sharded/tpu-v5e"),
                     os.path.join(CORPORA, "xla/out/replicated/replicated/tpu-v5e"), fail_on_growth="5%")
    assert d.exit_code == 1 and "lost its sharding" in str(d)
    assert [f.rule for f in d.findings] == ["replicated-oversized"] and d.findings[0].instruction == "param.1"
    assert d.json["pairs"][0]["new_total_bytes"] > d.json["pairs"][0]["old_total_bytes"]


def test_repr_html_is_the_report():
    html = hlolint.check(GPT_OOM, target="tpu-v5e", config="")._repr_html_()
    assert html.lstrip().lower().startswith("<!doctype html") and "<svg" in html
    assert "<script" not in html.lower()


def test_assert_no_recompilation(tmp_path):
    from hlolint.testing import assert_no_recompilation
    base = os.path.join(ROOT, "corpora", "xla", "out", "recompile")
    with pytest.raises(AssertionError, match=r"jit_train_step compiled 3 times: argument 'x' dimension 0"):
        assert_no_recompilation(os.path.join(base, "batch", "tpu-v5e"))
    r = assert_no_recompilation(os.path.join(base, "samename", "tpu-v5e"))   # two functions named f
    assert r.ok and len(r.modules) == 2
    f = hlolint.check(os.path.join(base, "static", "tpu-v5e"), rules=["recompilation"], config="").findings[0]
    assert f.fields["change"] == "constants" and f.fields["compiles"] == 2
