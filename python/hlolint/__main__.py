"""hlolint's console command and `python -m hlolint`: the C binary itself,
exec'd with the same arguments, so output and exit codes are its own."""
from __future__ import annotations

import os
import sys

from . import _binary


def main() -> None:
    try:
        path = _binary.find()
    except _binary.BinaryError as e:
        print(str(e), file=sys.stderr)
        sys.exit(2)
    sys.stdout.flush()
    os.execv(path, ["hlolint"] + sys.argv[1:])


if __name__ == "__main__":
    main()
