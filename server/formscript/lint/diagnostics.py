"""The one diagnostic type used inside formscript (0-based positions, code points)."""

from __future__ import annotations

from typing import Any, Literal

from formscript.core.records import FrozenRecord
from formscript.core.verdict import KeyPath, Severity
from formscript.document import Span


class TextEdit(FrozenRecord):
    """Replace the text in *span* with *new_text*."""

    span: Span
    new_text: str

    __slots__ = _fields = ("span", "new_text")

    def __init__(self, span: Span, new_text: str) -> None:
        setter = object.__setattr__
        setter(self, "span", span)
        setter(self, "new_text", new_text)


class Change(FrozenRecord):
    """What a fix does to the loaded value, so the fixed text can be checked against it:
    ``set`` the value at *path* to *value*, ``rename`` the key at *path* to *value*, or
    ``remove`` the mapping member at *path*."""

    op: Literal["set", "rename", "remove"]
    path: KeyPath
    value: Any

    __slots__ = _fields = ("op", "path", "value")

    def __init__(self, op: Literal["set", "rename", "remove"], path: KeyPath, value: Any = None) -> None:
        setter = object.__setattr__
        setter(self, "op", op)
        setter(self, "path", path)
        setter(self, "value", value)


class Fix(FrozenRecord):
    """A change that resolves a diagnostic; ``safe`` fixes apply with ``--fix``. ``change``
    says what the edits do to the value (None for a fix read back from the cache, which is
    shown but never applied)."""

    description: str
    edits: tuple[TextEdit, ...]
    safe: bool
    change: Change | None

    __slots__ = _fields = ("description", "edits", "safe", "change")
    _compared = ("description", "edits", "safe")

    def __init__(
        self,
        description: str,
        edits: tuple[TextEdit, ...],
        safe: bool = True,
        change: Change | None = None,
    ) -> None:
        setter = object.__setattr__
        setter(self, "description", description)
        setter(self, "edits", edits)
        setter(self, "safe", safe)
        setter(self, "change", change)


class Diagnostic(FrozenRecord):
    """A located finding with its code, severity and message."""

    code: str
    severity: Severity
    message: str
    span: Span
    fix: Fix | None
    related: tuple[tuple[str, Span], ...]
    #: The finding whose fix is still to be built (lint builds fixes only for the diagnostics
    #: it keeps, and only when they are wanted).
    pending: Any

    __slots__ = _fields = ("code", "severity", "message", "span", "fix", "related", "pending")
    _shown = _compared = ("code", "severity", "message", "span", "fix", "related")

    def __init__(
        self,
        code: str,
        severity: Severity,
        message: str,
        span: Span,
        fix: Fix | None = None,
        related: tuple[tuple[str, Span], ...] = (),
        pending: Any = None,
    ) -> None:
        setter = object.__setattr__
        setter(self, "code", code)
        setter(self, "severity", severity)
        setter(self, "message", message)
        setter(self, "span", span)
        setter(self, "fix", fix)
        setter(self, "related", related)
        setter(self, "pending", pending)

    def sort_key(self) -> tuple[int, int, str, str]:
        """Order by position, then code, then message."""
        return (self.span.start.line, self.span.start.column, self.code, self.message)
