"""Reading files for lint: every failure to read becomes a report, never an exception."""

from __future__ import annotations

import os
import stat

from formscript.core.verdict import Verdict
from formscript.document.located import Pos, Span
from formscript.lint.config import Settings
from formscript.lint.diagnostics import Diagnostic
from formscript.lint.kinds import kind_from_name
from formscript.lint.report import FileReport

#: Files above this size are refused rather than parsed (documented limit).
MAX_BYTES = 64 * 1024 * 1024


def read_report_or_text(path: str, kind: str | None, settings: Settings) -> tuple[str | None, FileReport | None]:
    """The file's text, or a report saying why it cannot be read (the runtime fails too)."""
    origin = Span(Pos(0, 0), Pos(0, 0))
    guessed = kind or kind_from_name(path, settings)

    def refused(message: str) -> tuple[None, FileReport]:
        diagnostic = Diagnostic("YM001", "error", message, origin)
        return None, FileReport(path, guessed or "unknown", Verdict.REJECTED, [diagnostic])

    try:
        info = os.stat(path)
    except OSError as exc:
        return refused(f"cannot read the file ({exc.strerror or exc})")
    if not stat.S_ISREG(info.st_mode):
        return refused("not a regular file; the runtime refuses anything else")
    if info.st_size > MAX_BYTES:
        return refused(f"the file is {info.st_size} bytes, above formscript's limit of {MAX_BYTES}")
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        return refused(f"cannot read the file ({exc.strerror or exc})")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return refused(f"the file is not valid UTF-8 (byte {exc.start}); the runtime reads it as UTF-8 and fails")
    return text, None
