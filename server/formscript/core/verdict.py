"""Verdicts are statuses with their evidence (seed 001), not booleans."""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as dataclass_field
from enum import StrEnum
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from formscript.document import Span
    from formscript.rules.base import FixPlan, Rule

#: A location inside a loaded document: the chain of mapping keys and list indexes.
KeyPath = tuple[object, ...]

Severity = Literal["error", "warning", "info", "hint"]


class Verdict(StrEnum):
    """What the runtime does with a file, predicted from the file alone."""

    ACCEPTED = "accepted"
    REJECTED = "rejected"
    INSUFFICIENT_EVIDENCE = "insufficient_evidence"
    VALIDATOR_ERROR = "validator_error"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Problem:
    """One finding: the rule it breaks, its message and where it sits.

    ``path`` points into the loaded document; ``on_key`` says whether the key itself
    (rather than its value) is at fault. Findings made while parsing, before there is a
    document to walk, carry their ``span`` instead. Whether the runtime refuses the file
    because of it, and the default severity, are the rule's.
    """

    rule: Rule
    message: str
    path: KeyPath = ()
    on_key: bool = False
    field: str | None = None
    #: How to fix it, described on the document; lint turns it into text edits on demand.
    fix: FixPlan | None = dataclass_field(default=None, compare=False)
    #: Rules whose finding at the same path this one explains better (those are dropped).
    replaces: tuple[Rule, ...] = dataclass_field(default=(), compare=False)
    #: The ruleset rule that failed (RS100).
    rule_id: str | None = dataclass_field(default=None, compare=False)
    span: Span | None = None

    @property
    def code(self) -> str:
        """The rule's code."""
        return self.rule.code

    @property
    def rejects(self) -> bool:
        """Whether the runtime refuses the file because of this finding."""
        return self.rule.rejects


def verdict_from(problems: list[Problem], *, undecidable: bool = False) -> Verdict:
    """Rejected when any problem rejects; otherwise accepted, or insufficient evidence."""
    if any(p.rejects for p in problems):
        return Verdict.REJECTED
    if undecidable:
        return Verdict.INSUFFICIENT_EVIDENCE
    return Verdict.ACCEPTED
