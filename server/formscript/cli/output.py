"""What every subcommand shares: writing its output, reading its inputs."""

from __future__ import annotations

import sys
from pathlib import Path

from formscript.lint.formats import printable


def write(text: str, output: str | None = None) -> None:
    """Write *text* to the file *output*, else to stdout, as valid UTF-8: what UTF-8 cannot
    encode (a lone surrogate from a file's text or a name that is not UTF-8) is written as its
    ``\\uXXXX`` escape, which in JSON output is JSON's own escape (``lint.formats.printable``)."""
    text = printable(text)
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
