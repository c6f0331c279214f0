"""The one diagnostic type used inside formscript (0-based positions, code points)."""

from __future__ import annotations

from dataclasses import dataclass, field

from formscript.core.verdict import Severity
from formscript.document import Span


@dataclass(frozen=True)
class TextEdit:
    """Replace the text in *span* with *new_text*."""

    span: Span
    new_text: str


@dataclass(frozen=True)
class Fix:
    """A change that resolves a diagnostic; ``safe`` fixes apply with ``--fix``."""

    description: str
    edits: tuple[TextEdit, ...]
    safe: bool = True


@dataclass(frozen=True)
class Diagnostic:
    """A located finding with its code, severity and message."""

    code: str
    severity: Severity
    message: str
    span: Span
    fix: Fix | None = None
    related: tuple[tuple[str, Span], ...] = field(default=())

    def sort_key(self) -> tuple[int, int, str, str]:
        """Order by position, then code, then message."""
        return (self.span.start.line, self.span.start.column, self.code, self.message)
