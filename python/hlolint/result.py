"""hlolint.result - typed mirrors of the binary's JSON (schema 1): findings,
module memory summaries, OOM reports, and the Result every API call
returns.  It holds and formats what the binary said; it computes nothing."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional

SEVERITIES = ("note", "warning", "error")


class HloError(Exception):
    """A parse error, bad input or a usage error: where (path:line:col) and what."""

    def __init__(self, message: str, path: Optional[str] = None, line: int = 0, column: int = 0,
                 errors: Optional[List[Dict[str, Any]]] = None):
        self.message = message
        self.path = path
        self.line = line
        self.column = column
        self.errors = errors or []
        loc = f"{path}:{line}:{column}: " if path and line else (f"{path}: " if path else "")
        super().__init__(f"{loc}error: {message}" if loc else message)


class FindingsError(AssertionError):
    """raise_for_findings: findings at or above the failing severity."""


@dataclass(frozen=True)
class Source:
    """The user's Python line of a finding (relative to the source root when under it)."""
    file: str
    line: int
    via: Optional[str] = None
    user: bool = False          # the user's own file (under the source root): leads the text output


@dataclass(frozen=True)
class Finding:
    rule: str
    severity: str
    message: str
    path: str
    line: int
    column: int
    module: str = ""
    computation: str = ""
    instruction: str = ""
    opcode: str = ""
    shape: str = ""
    bytes: Optional[int] = None
    op_name: str = ""
    source: Optional[Source] = None
    suggestion: Optional[Dict[str, Any]] = None
    notes: List[str] = field(default_factory=list)
    fact: Optional[str] = None      # the note that decides (what text output shows first)
    fix: Optional[str] = None       # what to change in the program, without "fix: " / "fix in JAX: "
    fingerprint: str = ""
    suppressed: bool = False
    baseline: bool = False
    fields: Dict[str, Any] = field(default_factory=dict)   # the rule's own JSON fields

    @property
    def python_file(self) -> Optional[str]:
        return self.source.file if self.source else None

    @property
    def python_line(self) -> Optional[int]:
        return self.source.line if self.source else None

    @classmethod
    def from_json(cls, d: Dict[str, Any]) -> "Finding":
        known = {f.name for f in dataclasses.fields(cls)}
        src = d.get("source")
        kw = {k: d[k] for k in known if k in d and k not in ("source", "fields")}
        kw["source"] = (Source(src["file"], int(src.get("line") or 0), src.get("via"), bool(src.get("user")))
                        if src else None)
        kw["fields"] = {k: v for k, v in d.items() if k not in known}
        kw.setdefault("notes", [])
        fix = kw.get("fix")
        for lead in ("fix: ", "fix in JAX: "):
            if fix and fix.startswith(lead):
                kw["fix"] = fix[len(lead):]
        return cls(**kw)


@dataclass(frozen=True)
class Memory:
    """One module's memory as hlolint estimates it (bytes per device), and
    XLA's own figures when the compile gave them (memory_analysis)."""
    path: str
    module: str
    target: Optional[str]
    capacity: Optional[int]          # usable HBM of one device; None when unknown
    total: int                       # the total allocation, as XLA's buffer assignment adds it up
    peak: int                        # buffers live at one instruction
    arguments: int
    outputs: int
    aliased: int
    temporaries: int
    host: int
    padding: int
    xla: Optional[Dict[str, int]] = None      # compiled.memory_analysis() fields
    raw: Dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def fits(self) -> Optional[bool]:
        """Whether the total fits the capacity; None when the capacity is unknown."""
        return None if not self.capacity else self.total <= self.capacity

    @classmethod
    def from_json(cls, d: Dict[str, Any], xla: Optional[Dict[str, int]] = None) -> "Memory":
        g = lambda k: int(d.get(k) or 0)  # noqa: E731
        return cls(path=d.get("path", ""), module=d.get("module", ""), target=d.get("target"),
                   capacity=d.get("hbm_bytes") or None, total=g("total_bytes"), peak=g("peak_bytes"),
                   arguments=g("argument_bytes"), outputs=g("output_bytes"), aliased=g("alias_bytes"),
                   temporaries=g("temp_bytes"), host=g("host_bytes"), padding=g("padding_bytes"), xla=xla, raw=d)


@dataclass
class Result:
    """What one hlolint command said.  str(result) is its text output (the
    CLI's), result.ok whether nothing at or above warning was found."""
    command: str
    findings: List[Finding]
    modules: List[Memory]
    exit_code: int
    json: Dict[str, Any] = field(repr=False)
    oom: Optional[Dict[str, Any]] = field(default=None, repr=False)   # the oom command's reports
    output: Optional[str] = field(default=None, repr=False)           # annotate: the module text
    _text: Optional[Callable[[], str]] = field(default=None, repr=False)
    _html: Optional[Callable[[], str]] = field(default=None, repr=False)

    @property
    def memory(self) -> Optional[Memory]:
        """The first module's memory summary (most inputs hold one module)."""
        return self.modules[0] if self.modules else None

    @property
    def ok(self) -> bool:
        return not self.failing("warning") and not self.oom

    def failing(self, fail_on: str = "warning") -> List[Finding]:
        if fail_on not in SEVERITIES:
            raise ValueError(f"fail_on must be one of {SEVERITIES}, got {fail_on!r}")
        floor = SEVERITIES.index(fail_on)
        return [f for f in self.findings
                if not f.suppressed and not f.baseline and SEVERITIES.index(f.severity) >= floor]

    def raise_for_findings(self, fail_on: str = "warning") -> "Result":
        if self.failing(fail_on) or self.oom:
            raise FindingsError(str(self))
        return self

    def __str__(self) -> str:
        return self._text() if self._text else ""

    def _repr_html_(self) -> str:
        return self._html() if self._html else "<pre>" + _escape(str(self)) + "</pre>"


def _escape(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
