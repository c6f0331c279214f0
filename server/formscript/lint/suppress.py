"""Inline suppressions: ``# formscript: ignore[CODE, ...] reason`` and ``ignore-file[...]``.

They are read from the document's comments only, so the same text inside a quoted or block
scalar (or a JSON string: JSON has no comments) suppresses nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from formscript.document import Comment, Pos, Span

_COMMENT = re.compile(
    r"#\s*formscript:\s*(?P<scope>ignore-file|ignore)\[(?P<codes>[A-Za-z0-9_,\s]*)\]\s*(?P<reason>.*)$"
)


@dataclass
class Suppression:
    """One suppression comment."""

    line: int
    span: Span
    codes: tuple[str, ...]
    whole_file: bool
    reason: str
    used: set[str] = field(default_factory=set)

    def covers(self, code: str, line: int) -> bool:
        """Whether this comment silences *code* on *line*."""
        if code not in self.codes:
            return False
        return self.whole_file or line in (self.line, self.line + 1)


def find_suppressions(comments: Iterable[Comment]) -> list[Suppression]:
    """Every suppression among *comments* (a document's ``comments()``)."""
    found: list[Suppression] = []
    for comment in comments:
        if "formscript:" not in comment.text:
            continue
        match = _COMMENT.search(comment.text)
        if match is None:
            continue
        codes = tuple(c.strip().upper() for c in match.group("codes").split(",") if c.strip())
        start = comment.span.start
        found.append(
            Suppression(
                line=start.line,
                span=Span(Pos(start.line, start.column + match.start()), comment.span.end),
                codes=codes,
                whole_file=match.group("scope") == "ignore-file",
                reason=match.group("reason").strip(),
            )
        )
    return found
