"""hlolint._binary - where the C binary is and whether this machine can run
it.  The wheel ships it as hlolint/bin/hlolint; a source checkout uses
build/hlolint; HLOLINT_BINARY overrides both.  A binary made for another
platform is refused with one line instead of an exec error."""
from __future__ import annotations

import os
import platform
import struct
import sys
from typing import Optional

HERE = os.path.dirname(os.path.abspath(__file__))

# ELF e_machine values of the machines Linux wheels are built for.
_ELF_MACHINES = {62: "x86_64", 183: "aarch64", 3: "i686", 40: "armv7l", 21: "ppc64le", 243: "riscv64", 22: "s390x"}
_ALIASES = {"amd64": "x86_64", "arm64": "aarch64", "x64": "x86_64"}


class BinaryError(RuntimeError):
    """The bundled binary is missing or cannot run on this machine."""


def binary_platform(path: str) -> Optional[str]:
    """'linux-x86_64' for an ELF binary, 'darwin' for Mach-O, None when unknown."""
    with open(path, "rb") as f:
        head = f.read(20)
    if head[:4] == b"\x7fELF" and len(head) >= 20:
        endian = "<" if head[5] == 1 else ">"
        (machine,) = struct.unpack(endian + "H", head[18:20])
        return "linux-" + _ELF_MACHINES.get(machine, f"machine-{machine}")
    if head[:4] in (b"\xcf\xfa\xed\xfe", b"\xce\xfa\xed\xfe", b"\xca\xfe\xba\xbe"):
        return "darwin"
    return None


def this_platform() -> str:
    system = sys.platform
    machine = platform.machine().lower()
    machine = _ALIASES.get(machine, machine)
    if system.startswith("linux"):
        return "linux-" + machine
    return "darwin" if system == "darwin" else system + "-" + machine


def find() -> str:
    """The path of a binary this machine can run; BinaryError otherwise."""
    env = os.environ.get("HLOLINT_BINARY")
    candidates = [env] if env else [os.path.join(HERE, "bin", "hlolint"),
                                    os.path.join(os.path.dirname(os.path.dirname(HERE)), "build", "hlolint")]
    for path in candidates:
        if path and os.path.isfile(path):
            check(path)
            return path
    raise BinaryError("hlolint: error: no hlolint binary in this installation (looked at "
                      + ", ".join(c for c in candidates if c) + "); reinstall with: pip install --no-binary hlolint hlolint")


def check(path: str) -> None:
    """Raises BinaryError, one line, when path is made for another platform."""
    got = binary_platform(path)
    want = this_platform()
    # A script given as HLOLINT_BINARY (a test's stand-in) runs as it is.
    if got is None and not os.environ.get("HLOLINT_BINARY"):
        raise BinaryError(f"hlolint: error: {path} is not an executable this machine runs "
                          f"(this is {want}); reinstall hlolint from source: pip install --no-binary hlolint hlolint")
    if got is not None and got != want:
        raise BinaryError(f"hlolint: error: the bundled binary {path} is built for {got}, this machine is {want}; "
                          f"reinstall hlolint from source: pip install --no-binary hlolint hlolint")

