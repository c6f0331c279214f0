"""What every subcommand shares: writing its output, reading its inputs."""

from __future__ import annotations

import sys
from pathlib import Path


def write(text: str, output: str | None = None) -> None:
    """Write *text* to the file *output*, else to stdout."""
    if output:
        Path(output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)


def read(path: str) -> str | None:
    """A file's text; None (and a message on stderr) when it cannot be read."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        print(f"formscript: {path}: cannot read ({exc})", file=sys.stderr)
        return None
