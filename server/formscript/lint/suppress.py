"""Inline suppressions: ``# formscript: ignore[CODE, ...] reason`` and ``ignore-file[...]``."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from formscript.document.located import Pos, Span

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


def find_suppressions(lines: list[str]) -> list[Suppression]:
    """Every suppression comment in *lines* (only text after a '#')."""
    found: list[Suppression] = []
    for number, text in enumerate(lines):
        if "formscript:" not in text:
            continue
        match = _COMMENT.search(text)
        if match is None:
            continue
        codes = tuple(c.strip().upper() for c in match.group("codes").split(",") if c.strip())
        start = match.start()
        found.append(
            Suppression(
                line=number,
                span=Span(Pos(number, start), Pos(number, len(text))),
                codes=codes,
                whole_file=match.group("scope") == "ignore-file",
                reason=match.group("reason").strip(),
            )
        )
    return found
