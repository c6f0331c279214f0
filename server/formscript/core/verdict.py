"""The finding types every layer shares, at the bottom of the imports: a position and a span,
a key path, a fix as a finding describes it, the finding (``Problem``) and the verdict it adds
up to. Verdicts are statuses with their evidence (seed 001), not booleans."""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from functools import partial
from typing import TYPE_CHECKING, Literal, NamedTuple, TypeAlias

from formscript.core.records import FrozenRecord

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


# ------------------------------------------------------------------------------- fixes


class QuoteScalar(FrozenRecord):
    """Quote the plain scalar at *path* so YAML reads it as the text *text*."""

    path: KeyPath
    text: str
    safe: bool

    __slots__ = _fields = ("path", "text", "safe")

    def __init__(self, path: KeyPath, text: str, safe: bool) -> None:
        setter = object.__setattr__
        setter(self, "path", path)
        setter(self, "text", text)
        setter(self, "safe", safe)


class RemoveKey(FrozenRecord):
    """Delete the mapping entry at *path* (exact text edits, checked before they are written)."""

    path: KeyPath
    description: str
    safe: bool

    __slots__ = _fields = ("path", "description", "safe")

    def __init__(self, path: KeyPath, description: str, safe: bool) -> None:
        setter = object.__setattr__
        setter(self, "path", path)
        setter(self, "description", description)
        setter(self, "safe", safe)


class ReplaceWith(FrozenRecord):
    """Replace the finding's key (or scalar value) with *text*: a did-you-mean, never safe."""

    text: str

    __slots__ = _fields = ("text",)

    def __init__(self, text: str) -> None:
        setter = object.__setattr__
        setter(self, "text", text)


#: A fix as a finding describes it; lint realizes it into text edits on the located document.
FixPlan = QuoteScalar | RemoveKey | ReplaceWith


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
