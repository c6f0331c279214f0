"""The outcome of linting one file (kept light: no core models are imported here)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from formscript.core.verdict import Verdict
from formscript.document import Document
from formscript.lint.diagnostics import Diagnostic

if TYPE_CHECKING:
    from formscript.core.gate import GateResult
    from formscript.core.script import ScriptResult


@dataclass
class FileReport:
    """The outcome for one file: its kind, the runtime verdict and located diagnostics."""

    path: str
    kind: str | None
    verdict: Verdict | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    note: str = ""
    document: Document | None = None
    gate: GateResult | None = None
    script: ScriptResult | None = None

    @property
    def skipped(self) -> bool:
        """True when the file is of no known kind (so it has no verdict; a file formscript
        failed on before its kind was known has one, ``validator_error``, and is not skipped)."""
        return self.kind is None and self.verdict is None
