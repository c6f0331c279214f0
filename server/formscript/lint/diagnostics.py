"""The one diagnostic type used inside formscript (0-based positions, code points)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Literal

from formscript.core.verdict import KeyPath, Severity
from formscript.document import Span
from formscript.document.model import Edit


@dataclass(frozen=True, slots=True)
class Change:
    """What a fix does to the loaded value, so the fixed text can be checked against it:
    ``set`` the value at *path* to *value*, ``rename`` the key at *path* to *value*, or
    ``remove`` the mapping member at *path*."""

    op: Literal["set", "rename", "remove"]
    path: KeyPath
    value: Any = None


@dataclass(frozen=True, slots=True)
class Fix:
    """A change that resolves a diagnostic; ``safe`` fixes apply with ``--fix``. ``change``
    says what the edits do to the value (None for a fix read back from the cache, which is
    shown but never applied)."""

    description: str
    edits: tuple[Edit, ...]
    safe: bool = True
    change: Change | None = dataclasses.field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """A located finding with its code, severity and message."""

    code: str
    severity: Severity
    message: str
    span: Span
    fix: Fix | None = None
    related: tuple[tuple[str, Span], ...] = ()
    #: The finding whose fix is still to be built (lint builds fixes only for the diagnostics
    #: it keeps, and only when they are wanted).
    pending: Any = dataclasses.field(default=None, compare=False, repr=False)

    def sort_key(self) -> tuple[int, int, str, str]:
        """Order by position, then code, then message."""
        return (self.span.start.line, self.span.start.column, self.code, self.message)
