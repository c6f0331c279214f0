"""The finding types every layer shares, at the bottom of the imports: a position and a span,
a key path, a fix as a finding describes it, the finding (``Problem``) and the verdict it adds
up to. Verdicts are statuses with their evidence (seed 001), not booleans."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from functools import partial
from typing import TYPE_CHECKING, Literal, NamedTuple, TypeAlias

if TYPE_CHECKING:
    from typing import Protocol

    class Rule(Protocol):
        """What a finding needs of the rule it breaks (``rules.base.Rule`` is one)."""

        @property
        def code(self) -> str: ...
        @property
        def severity(self) -> Severity: ...
        @property
        def rejects(self) -> bool: ...


class Pos(NamedTuple):
    """A 0-based line and a 0-based column counted in Unicode code points."""

    line: int
    column: int


class Span(NamedTuple):
    """A half-open range [start, end)."""

    start: Pos
    end: Pos


#: ``Pos(*line_column)`` and ``Span(*start_end)`` without the call of the tuples' Python
#: ``__new__``: positions are made by the thousand (every node located, every diagnostic).
pos_of: Callable[[tuple[int, int]], Pos] = partial(tuple.__new__, Pos)
span_of: Callable[[tuple[Pos, Pos]], Span] = partial(tuple.__new__, Span)

#: A location inside a loaded document: the chain of mapping keys and list indexes.
KeyPath = tuple[object, ...]

Severity: TypeAlias = 'Literal["error", "warning", "info", "hint"]'
#: The values of ``Severity``, from the most severe.
SEVERITIES: tuple[Severity, ...] = ("error", "warning", "info", "hint")


def reason_of(message: str) -> str:
    """A validation error's *message* as the reason in a finding's sentence (first letter lowered)."""
    return message[:1].lower() + message[1:]


# ------------------------------------------------------------------------------- fixes


@dataclass(frozen=True, slots=True)
class QuoteScalar:
    """Quote the plain scalar at *path* so YAML reads it as the text *text*."""

    path: KeyPath
    text: str
    safe: bool


@dataclass(frozen=True, slots=True)
class RemoveKey:
    """Delete the mapping entry at *path* (exact text edits, checked before they are written)."""

    path: KeyPath
    description: str
    safe: bool


@dataclass(frozen=True, slots=True)
class ReplaceWith:
    """Replace the finding's key (or scalar value) with *text*: a did-you-mean, never safe."""

    text: str


#: A fix as a finding describes it; lint realizes it into text edits on the located document.
FixPlan = QuoteScalar | RemoveKey | ReplaceWith


class Verdict(StrEnum):
    """What the runtime does with a file, predicted from the file alone."""

    ACCEPTED = "accepted"
    REJECTED = "rejected"
    INSUFFICIENT_EVIDENCE = "insufficient_evidence"
    VALIDATOR_ERROR = "validator_error"


@dataclass(frozen=True, slots=True)
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
    fix: FixPlan | None = dataclasses.field(default=None, compare=False)
    #: Rules whose finding at the same path this one explains better (those are dropped).
    replaces: tuple[Rule, ...] = dataclasses.field(default=(), compare=False)
    #: The ruleset rule that failed (RS100).
    rule_id: str | None = dataclasses.field(default=None, compare=False)
    span: Span | None = None

    @property
    def code(self) -> str:
        """The rule's code."""
        return self.rule.code

    @property
    def rejects(self) -> bool:
        """Whether the runtime refuses the file because of this finding."""
        return self.rule.rejects


@dataclass(frozen=True, slots=True)
class Failure:
    """A structured validation failure of a filled form (the runtime's own record, which the
    rules of uncoercible values and failing ruleset rules report): the field (or rule) and
    what went wrong."""

    source: Literal["field", "rule"]
    kind: str
    field: str
    rule_id: str | None = None
    message: str = ""


def verdict_from(problems: list[Problem]) -> Verdict:
    """Rejected when any problem rejects, else accepted."""
    return Verdict.REJECTED if any(p.rejects for p in problems) else Verdict.ACCEPTED
