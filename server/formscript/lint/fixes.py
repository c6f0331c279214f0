"""Apply fixes as text edits at exact positions, so comments and layout stay as they were."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from formscript.document import Pos
from formscript.lint.diagnostics import Diagnostic, TextEdit


def _offsets(text: str) -> list[int]:
    starts = [0]
    for index, char in enumerate(text):
        if char == "\n":
            starts.append(index + 1)
    return starts


def _offset(starts: list[int], pos: Pos, length: int) -> int:
    if pos.line >= len(starts):
        return length
    return min(starts[pos.line] + pos.column, length)


def apply_edits(text: str, edits: Iterable[TextEdit]) -> str:
    """*text* with *edits* applied; overlapping edits after the first are dropped."""
    starts = _offsets(text)
    spans = sorted(
        ((_offset(starts, e.span.start, len(text)), _offset(starts, e.span.end, len(text)), e.new_text) for e in edits),
        key=lambda item: (item[0], item[1]),
    )
    out: list[str] = []
    cursor = 0
    for start, end, new_text in spans:
        if start < cursor:
            continue  # overlaps an edit already taken; a second pass picks it up
        out.append(text[cursor:start])
        out.append(new_text)
        cursor = end
    out.append(text[cursor:])
    return "".join(out)


def fix_edits(diagnostics: Iterable[Diagnostic], *, unsafe: bool) -> list[TextEdit]:
    """The edits of every applicable fix."""
    edits: list[TextEdit] = []
    for diagnostic in diagnostics:
        if diagnostic.fix is not None and (diagnostic.fix.safe or unsafe):
            edits.extend(diagnostic.fix.edits)
    return edits


def unified_diff(before: str, after: str, path: str) -> str:
    """A unified diff of a fix."""
    return "".join(
        difflib.unified_diff(
            before.splitlines(keepends=True), after.splitlines(keepends=True), fromfile=f"a/{path}", tofile=f"b/{path}"
        )
    )
