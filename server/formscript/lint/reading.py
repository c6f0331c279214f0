"""Reading files for lint: every failure to read becomes a report, never an exception."""

from __future__ import annotations

import os
import stat

from formscript import rules
from formscript.core.verdict import Verdict
from formscript.document import Pos, Span, position_of
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

    def refused(message: str, span: Span = origin) -> tuple[None, FileReport]:
        diagnostic = Diagnostic(rules.YM001.code, rules.YM001.severity, message, span)
        return None, FileReport(path, guessed or "unknown", Verdict.REJECTED, [diagnostic])

    try:
        info = os.stat(path)
    except OSError as exc:
        return refused(rules.YM001.cannot_read(detail=exc.strerror or exc))
    if not stat.S_ISREG(info.st_mode):
        return refused(rules.YM001.not_regular())
    if info.st_size > MAX_BYTES:
        return refused(rules.YM001.too_big(size=info.st_size, limit=MAX_BYTES))
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        return refused(rules.YM001.cannot_read(detail=exc.strerror or exc))
    if path.endswith(".py"):
        return _python_text(data), None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        # at the first byte that is not UTF-8, after the text before it (which decodes)
        before = data[: exc.start].decode("utf-8")
        start = position_of(before, len(before))
        return refused(rules.YM001.not_utf8(byte=exc.start), Span(start, Pos(start.line, start.column + 1)))
    return text, None


def _python_text(data: bytes) -> str:
    """A Python file's text in its declared encoding (PEP 263); '' when it does not mention
    lionagi (nothing in it is looked at) or cannot be decoded (Python could not read it)."""
    if b"lionagi" not in data:
        return ""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    import io
    import tokenize

    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        return data.decode(encoding)
    except (SyntaxError, LookupError, UnicodeDecodeError):
        return ""
