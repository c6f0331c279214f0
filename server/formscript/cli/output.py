"""What every subcommand shares: writing its output, reading its inputs.

Inputs are read by ``lint.reading`` (regular files only, never blocking on a FIFO or a
device, at most ``MAX_BYTES``); output goes to stdout or ``-o`` as UTF-8 bytes whatever the
locale, and a ``-o`` that cannot be written is a message and exit code 2 (``OutputError``).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable

from formscript.lint.formats import printable


class OutputError(Exception):
    """The output file cannot be written; the message says why (exit code 2)."""


def write(text: str | Iterable[str], output: str | None = None, *, stderr: bool = False) -> None:
    """Write *text* (or its pieces, one after the other) to the file *output*, else to
    stdout (*stderr*: to stderr), as valid UTF-8: what UTF-8 cannot encode (a lone surrogate from a file's text or
    a name that is not UTF-8) is written as its ``\\uXXXX`` escape, which in JSON output is
    JSON's own escape (``lint.formats.printable``). ``OutputError`` when *output* cannot be
    written (a directory, a missing folder)."""
    pieces = (text,) if isinstance(text, str) else text
    if output:
        try:
            with open(output, "wb") as handle:
                for piece in pieces:
                    handle.write(_utf8(piece))
        except (OSError, ValueError) as exc:
            detail = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise OutputError(f"-o {shown_name(output)}: cannot write ({detail})") from None
        return
    target = sys.stderr if stderr else sys.stdout
    stream = getattr(target, "buffer", None)
    if stream is None:  # a replaced stdout (tests): text it is
        for piece in pieces:
            target.write(printable(piece))
        return
    target.flush()
    for piece in pieces:
        stream.write(_utf8(piece))
    stream.flush()


def _utf8(text: str) -> bytes:
    """``printable(text).encode("utf-8")``, encoding once where the text encodes."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return printable(text).encode("utf-8")


def shown_name(path: str) -> str:
    """*path* for a message on the terminal (control characters escaped, valid UTF-8)."""
    from formscript.lint.formats import terminal_safe

    return printable(terminal_safe(path))


def read(path: str) -> str | None:
    """A file's text, as Python's text mode reads it (line ends become ``\\n``); None (and a
    message on stderr) when it cannot be read: not a regular file (a FIFO, ``/dev/zero``),
    too big, not UTF-8."""
    from formscript.lint.files import MAX_BYTES, Unreadable, read_text

    try:
        text = read_text(path, MAX_BYTES)
    except Unreadable as exc:
        print(f"formscript: {shown_name(path)}: cannot read ({exc.message(MAX_BYTES)})", file=sys.stderr)
        return None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def read_stdin() -> bytes | None:
    """The bytes of stdin, at most ``MAX_BYTES``; None when there are more."""
    from formscript.lint.files import MAX_BYTES, read_at_most

    limit = MAX_BYTES
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:  # a replaced stdin (tests)
        return sys.stdin.read(limit + 1).encode("utf-8", "surrogateescape")[: limit + 1] or b""
    data = read_at_most(stream.read, limit)
    return None if len(data) > limit else data
