"""Reading files for lint: every failure to read becomes a report, never an exception.

``lint.files.read_bytes`` is the one way formscript reads a file it was pointed at (lint, dry
runs, the language server's siblings, calls transcripts and workspace files).
"""

from __future__ import annotations

from formscript import rules
from formscript.core.verdict import Verdict
from formscript.document import Pos, Span
from formscript.document.model import ORIGIN
from formscript.document.positions import LineIndex
from formscript.lint.config import Settings
from formscript.lint.diagnostics import Diagnostic
from formscript.lint.files import MAX_BYTES, Unreadable, read_bytes
from formscript.lint.kinds import kind_from_name
from formscript.lint.report import FileReport


def read_report_or_text(
    path: str, kind: str | None, settings: Settings, limit: int = MAX_BYTES
) -> tuple[str | None, FileReport | None]:
    """The file's text, or a report saying why it cannot be read (the runtime fails too);
    the language server reads at most *limit* bytes of a file it was not sent."""
    guessed = kind or kind_from_name(path, settings) or "unknown"
    try:
        data = read_bytes(path, limit)
    except Unreadable as exc:
        return None, refused_report(path, guessed, exc.message(limit))
    return text_or_report(data, path, guessed)


def refused_report(path: str, kind: str, message: str, span: Span = ORIGIN) -> FileReport:
    """A rejected report of *path* with one diagnostic of the rule of files that do not load,
    saying *message* (at *span*)."""
    diagnostic = Diagnostic(rules.YM001.code, rules.YM001.severity, message, span)
    return FileReport(path, kind, Verdict.REJECTED, [diagnostic])


def text_or_report(data: bytes, path: str, kind: str) -> tuple[str | None, FileReport | None]:
    """*data* as the text of the file *path* (a Python file in its declared encoding), or
    the report of a file that is not UTF-8 (located at the first byte that is not)."""
    if path.endswith(".py"):
        return _python_text(data), None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        # at the first byte that is not UTF-8, after the text before it (which decodes)
        before = data[: exc.start].decode("utf-8")
        start = LineIndex(before).pos(len(before))
        message = rules.YM001.not_utf8(byte=exc.start)
        return None, refused_report(path, kind, message, Span(start, Pos(start.line, start.column + 1)))
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
