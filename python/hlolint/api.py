"""hlolint.api - the commands of the C binary as Python functions: check,
mem, oom, annotate, diff.  Each takes HLO text, a path (file, gzip, dump
folder), a jax.stages.Compiled or a jax.stages.Lowered, runs the binary
with --format json and returns a Result (hlolint.result).  Nothing is
printed; a parse error or bad input raises HloError.  No analysis here."""
from __future__ import annotations

import json
import os
import re
import subprocess
import tempfile
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from . import _binary
from .result import Finding, HloError, Memory, Result

# memory_analysis() fields kept beside hlolint's figures (as corpora/xla/gen.py stores them).
XLA_MEMORY_FIELDS = ("argument_size_in_bytes", "output_size_in_bytes", "alias_size_in_bytes",
                     "temp_size_in_bytes", "generated_code_size_in_bytes", "host_argument_size_in_bytes",
                     "host_output_size_in_bytes", "host_alias_size_in_bytes", "host_temp_size_in_bytes",
                     "peak_memory_in_bytes")

_ERROR_LINE = re.compile(r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): error: (?P<msg>.*)$")


class _Input:
    """An input as the binary takes it: a path, or the text written to a
    temporary file (kept while the Result may still need it)."""

    def __init__(self, x: Any):
        self.xla: Optional[Dict[str, int]] = None
        self.text: Optional[str] = None
        self.path: Optional[str] = None
        if hasattr(x, "compile") and hasattr(x, "as_text") and not hasattr(x, "memory_analysis"):
            x = x.compile()                      # a jax.stages.Lowered
        if hasattr(x, "as_text") and hasattr(x, "memory_analysis"):   # a jax.stages.Compiled
            self.text = x.as_text()
            self.xla = xla_memory(x)
        elif isinstance(x, bytes):
            self.text = x.decode()
        elif isinstance(x, os.PathLike):
            self.path = os.fspath(x)
        elif isinstance(x, str):
            if "\n" in x or x.lstrip().startswith("HloModule"):
                self.text = x
            else:
                self.path = x
        else:
            raise TypeError(f"hlolint: expected HLO text, a path, a jax.stages.Compiled or Lowered, got {type(x).__name__}")
        if self.path is not None and self.path != "-" and not os.path.exists(self.path):
            raise HloError(f"cannot open: {os.strerror(2)}", path=self.path)
        self._dir: Optional[tempfile.TemporaryDirectory] = None

    def file(self) -> str:
        """The path to hand the binary; text is written once, named after its module."""
        if self.path is None:
            self._dir = tempfile.TemporaryDirectory(prefix="hlolint-")
            self.path = os.path.join(self._dir.name, (_module_name(self.text or "") or "module") + ".hlo")
            with open(self.path, "w") as f:
                f.write(self.text or "")
        return self.path


def _module_name(text: str) -> Optional[str]:
    m = re.match(r"\s*HloModule\s+([A-Za-z0-9_.\-]+)", text)
    return m.group(1) if m else None


def xla_memory(compiled: Any) -> Optional[Dict[str, int]]:
    """compiled.memory_analysis() as a dict, or None where the backend has none."""
    try:
        ma = compiled.memory_analysis()
    except Exception:
        return None
    if ma is None:
        return None
    return {k: int(getattr(ma, k)) for k in XLA_MEMORY_FIELDS if hasattr(ma, k)}


def run(args: Sequence[str], check_usage: bool = True) -> Tuple[int, str, str]:
    """Runs the binary with args; (exit code, stdout, stderr).  Exit 2
    raises HloError with the first located error."""
    try:
        exe = _binary.find()
    except _binary.BinaryError as e:
        raise HloError(str(e)) from None
    p = subprocess.run([exe, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       errors="replace")
    if p.returncode < 0:
        raise HloError(f"hlolint crashed (signal {-p.returncode}) on: hlolint {' '.join(args)}")
    if p.returncode not in (0, 1, 2):
        raise HloError(f"hlolint exited {p.returncode}: {p.stderr.strip()}")
    if p.returncode == 2 and check_usage:
        raise _error_of(p.stderr, p.stdout)
    return p.returncode, p.stdout, p.stderr


def _error_of(stderr: str, stdout: str) -> HloError:
    errors: List[Dict[str, Any]] = []
    try:
        errors = json.loads(stdout).get("errors") or []
    except ValueError:
        pass
    for line in stderr.splitlines():
        m = _ERROR_LINE.match(line)
        if m:
            return HloError(m.group("msg"), m.group("path"), int(m.group("line")), int(m.group("col")), errors)
    if errors:
        e = errors[0]
        return HloError(e.get("message", ""), e.get("path"), int(e.get("line") or 0), int(e.get("column") or 0),
                        errors)
    first = next((l for l in stderr.splitlines() if l.strip()), "hlolint: error")
    return HloError(re.sub(r"^hlolint: error: ", "", first), errors=errors)


def _options(target: Optional[str], hbm: Union[str, int, None], config: Optional[str],
             rules: Optional[Iterable[str]], source_root: Optional[str], require_target: bool,
             extra: Optional[Sequence[str]] = None) -> List[str]:
    opts: List[str] = []
    if target:
        opts += ["--target", target]
    if hbm:
        opts += ["--hbm", str(hbm)]
    if config is not None:
        opts += ["--config", os.fspath(config)] if config else ["--no-config"]
    if rules:
        opts += ["--select", ",".join(rules)]
    if source_root:
        opts += ["--source-root", os.fspath(source_root)]
    if require_target:
        opts.append("--require-target")
    return opts + list(extra or [])


def _text_of(cmd: List[str], inp: Optional[_Input] = None):
    def text() -> str:
        args = [a if a != "\0input" else inp.file() for a in cmd] if inp else cmd
        return run(args, check_usage=False)[1]
    return text


def check(x: Any, *, target: Optional[str] = None, hbm: Union[str, int, None] = None,
          config: Optional[str] = None, rules: Optional[Iterable[str]] = None,
          source_root: Optional[str] = None, require_target: bool = False,
          options: Optional[Sequence[str]] = None) -> Result:
    """Runs the rules on x (HLO text, a path, a dump folder, a jax Compiled or
    Lowered).  target: a preset ('tpu-v5e', 'h100', ...); hbm: '16G' or bytes;
    config: a .hlolint.toml ('' = none); rules: the rules to run (default
    all); options: more CLI options ('--host-transfer-min-bytes', '1M')."""
    inp = x if isinstance(x, _Input) else _Input(x)
    opts = _options(target, hbm, config, rules, source_root, require_target, options)
    code, out, _ = run(["check", "--format", "json", *opts, inp.file()])
    doc = json.loads(out)
    return Result(command="check", findings=[Finding.from_json(f) for f in doc.get("findings", [])],
                  modules=[Memory.from_json(m, inp.xla) for m in doc.get("modules", [])], exit_code=code,
                  json=doc, _text=_text_of(["check", "--format", "text", *opts, "\0input"], inp),
                  _html=_html_of(opts, inp))


def _html_of(opts: List[str], inp: _Input):
    def html() -> str:
        with tempfile.TemporaryDirectory(prefix="hlolint-report-") as d:
            out = os.path.join(d, "report.html")
            run(["report", *[o for o in opts if o != "--require-target"], inp.file(), "-o", out])
            with open(out) as f:
                return f.read()
    return html


def mem(x: Any, *, target: Optional[str] = None, hbm: Union[str, int, None] = None,
        config: Optional[str] = None, top: int = 10, source_root: Optional[str] = None) -> Result:
    """The memory estimate of x (as `hlolint mem`); result.memory is the first module's."""
    inp = _Input(x)
    opts = _options(target, hbm, config, None, source_root, False, ["--top", str(top)])
    code, out, _ = run(["mem", "--format", "json", *opts, inp.file()])
    doc = json.loads(out)
    return Result(command="mem", findings=[], modules=[Memory.from_json(m, inp.xla) for m in doc.get("modules", [])],
                  exit_code=code, json=doc, _text=_text_of(["mem", *opts, "\0input"], inp), _html=_html_of(
                      _options(target, hbm, config, None, source_root, False), inp))


def oom(log: Union[str, os.PathLike], dump: Any = None, *, target: Optional[str] = None,
        config: Optional[str] = None, source_root: Optional[str] = None) -> Result:
    """Triage of an out-of-memory message: log is its text or a file holding
    it (a whole job log will do); dump the program's module or dump folder."""
    with tempfile.TemporaryDirectory(prefix="hlolint-oom-") as d:
        if isinstance(log, os.PathLike) or (isinstance(log, str) and "\n" not in log and os.path.exists(log)):
            log_path = os.fspath(log)
        else:
            log_path = os.path.join(d, "log.txt")
            with open(log_path, "w") as f:
                f.write(log if isinstance(log, str) else str(log))
        dump_inp = _Input(dump) if dump is not None else None
        dump_args = [dump_inp.file()] if dump_inp else []
        opts = _options(target, None, config, None, source_root, False)
        code, out, _ = run(["oom", "--format", "json", *opts, log_path, *dump_args])
        text = run(["oom", *opts, log_path, *dump_args], check_usage=False)[1]
    doc = json.loads(out)
    return Result(command="oom", findings=[], modules=[], exit_code=code, json=doc, oom=doc,
                  _text=lambda: text)


def annotate(x: Any, *, apply: bool = False, target: Optional[str] = None, hbm: Union[str, int, None] = None,
             config: Optional[str] = None, rules: Optional[Iterable[str]] = None,
             source_root: Optional[str] = None) -> Result:
    """The module with a review comment above each finding (result.output),
    and with apply=True the suggested changes made; findings as check's."""
    inp = _Input(x)
    opts = _options(target, hbm, config, rules, source_root, False)
    with tempfile.TemporaryDirectory(prefix="hlolint-annotate-") as d:
        out_path = os.path.join(d, "annotated.hlo")
        run(["annotate", *opts, *(["--apply"] if apply else []), inp.file(), "-o", out_path])
        with open(out_path) as f:
            annotated = f.read()
    r = check(inp, target=target, hbm=hbm, config=config, rules=rules, source_root=source_root)
    r.command = "annotate"
    r.output = annotated
    return r


def diff(old: Any, new: Any, *, fail_on_growth: Optional[str] = None, target: Optional[str] = None,
         hbm: Union[str, int, None] = None, config: Optional[str] = None) -> Result:
    """What a change did to memory: two compiles compared (as `hlolint diff`)."""
    a, b = _Input(old), _Input(new)
    opts = _options(target, hbm, config, None, None, False,
                    ["--fail-on-growth", fail_on_growth] if fail_on_growth else None)
    code, out, _ = run(["diff", "--format", "json", *opts, a.file(), b.file()])
    doc = json.loads(out)
    text = run(["diff", *opts, a.file(), b.file()], check_usage=False)[1]
    # The findings a change brought (each pair's new_findings); the rest of
    # the comparison is in result.json["pairs"].
    found = [Finding.from_json({"column": 0, **f}) for p in doc.get("pairs", []) for f in p.get("new_findings", [])]
    return Result(command="diff", findings=found, modules=[], exit_code=code, json=doc, _text=lambda: text)
