"""The outcome of linting one file (kept light: no core models are imported here)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING

from formscript.core.verdict import Verdict
from formscript.document import Document, Span
from formscript.lint.diagnostics import Diagnostic

if TYPE_CHECKING:
    from formscript.core.gate import GateResult
    from formscript.core.script import ScriptResult


@dataclass(frozen=True, slots=True)
class Embedding:
    """Where a document written inside another file sits: the API call as written
    (``ScriptModel.from_responses``), the literal argument's span, and the call's."""

    call: str
    span: Span
    call_span: Span | None = None


@dataclass(frozen=True, slots=True)
class Expected:
    """An outcome a test states and lionagi gives: ``by`` the statement as written (at
    ``span``), ``outcome`` what it states (``raises``, ``error_status``, ``rule_fails``,
    ``exit_1``) and ``raises`` the exception lionagi raises, when one does."""

    by: str
    outcome: str
    span: Span
    raises: str | None = None


@dataclass
class FileReport:
    """The outcome for one file: its kind, the runtime verdict and located diagnostics.

    A document embedded in a Python file is a report of its own with ``embedded`` set; the
    Python file's report holds them in ``parts`` (in source order; empty when the file hands
    no script or form to lionagi) and their diagnostics together in ``diagnostics``.
    """

    path: str
    kind: str | None
    verdict: Verdict | None
    diagnostics: list[Diagnostic] = dataclasses.field(default_factory=list)
    note: str = ""
    document: Document | None = None
    gate: GateResult | None = None
    script: ScriptResult | None = None
    embedded: Embedding | None = None
    parts: list[FileReport] | None = None
    #: What the test that holds this document states about its outcome, when that is the
    #: outcome lionagi gives (an expected rejection: its findings are not reported).
    expected: Expected | None = None

    @property
    def skipped(self) -> bool:
        """True when the file is of no known kind (so it has no verdict; a file formscript
        failed on before its kind was known has one, ``validator_error``, and is not skipped)."""
        return self.kind is None and self.verdict is None


#: The note of a file of no kind formscript reads (another tool's YAML or JSON): the text
#: report counts these rather than listing each.
NOT_A_KIND = "skipped: not a form spec, script, ruleset or calls transcript"


def documents(report: FileReport) -> list[FileReport]:
    """The reports holding *report*'s documents: its parts (a Python file), else itself."""
    return list(report.parts) if report.parts is not None else [report]


def flatten(reports: list[FileReport]) -> list[FileReport]:
    """The reports as they are shown: a Python file's documents in its place."""
    return [document for report in reports for document in documents(report)]
