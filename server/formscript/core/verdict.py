"""Verdicts are statuses with their evidence (seed 001), not booleans."""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Literal, TypeAlias

from formscript.core.records import FrozenRecord

if TYPE_CHECKING:
    from formscript.document import Span
    from formscript.rules.base import FixPlan, Rule

#: A location inside a loaded document: the chain of mapping keys and list indexes.
KeyPath = tuple[object, ...]

Severity: TypeAlias = 'Literal["error", "warning", "info", "hint"]'


class Verdict(StrEnum):
    """What the runtime does with a file, predicted from the file alone."""

    ACCEPTED = "accepted"
    REJECTED = "rejected"
    INSUFFICIENT_EVIDENCE = "insufficient_evidence"
    VALIDATOR_ERROR = "validator_error"

    def __str__(self) -> str:
        return self.value


class Problem(FrozenRecord):
    """One finding: the rule it breaks, its message and where it sits.

    ``path`` points into the loaded document; ``on_key`` says whether the key itself
    (rather than its value) is at fault. Findings made while parsing, before there is a
    document to walk, carry their ``span`` instead. Whether the runtime refuses the file
    because of it, and the default severity, are the rule's.
    """

    rule: Rule
    message: str
    path: KeyPath
    on_key: bool
    field: str | None
    #: How to fix it, described on the document; lint turns it into text edits on demand.
    fix: FixPlan | None
    #: Rules whose finding at the same path this one explains better (those are dropped).
    replaces: tuple[Rule, ...]
    #: The ruleset rule that failed (RS100).
    rule_id: str | None
    span: Span | None

    __slots__ = _fields = ("rule", "message", "path", "on_key", "field", "fix", "replaces", "rule_id", "span")
    _compared = ("rule", "message", "path", "on_key", "field", "span")

    def __init__(
        self,
        rule: Rule,
        message: str,
        path: KeyPath = (),
        on_key: bool = False,
        field: str | None = None,
        fix: FixPlan | None = None,
        replaces: tuple[Rule, ...] = (),
        rule_id: str | None = None,
        span: Span | None = None,
    ) -> None:
        setter = object.__setattr__
        setter(self, "rule", rule)
        setter(self, "message", message)
        setter(self, "path", path)
        setter(self, "on_key", on_key)
        setter(self, "field", field)
        setter(self, "fix", fix)
        setter(self, "replaces", replaces)
        setter(self, "rule_id", rule_id)
        setter(self, "span", span)

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
