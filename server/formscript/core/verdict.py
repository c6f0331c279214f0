"""Verdicts are statuses with their evidence (seed 001), not booleans."""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as dataclass_field
from enum import StrEnum
from typing import Literal

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
    """One finding, with the rule code that documents it and where it sits.

    ``path`` points into the loaded document; ``on_key`` says whether the key itself
    (rather than its value) is at fault. ``rejects`` is true when the runtime refuses
    the file because of it.
    """

    code: str
    message: str
    path: KeyPath = ()
    on_key: bool = False
    rejects: bool = False
    field: str | None = None
    severity: Severity | None = None
    data: dict[str, object] = dataclass_field(default_factory=dict, compare=False, hash=False)


def verdict_from(problems: list[Problem], *, undecidable: bool = False) -> Verdict:
    """Rejected when any problem rejects; otherwise accepted, or insufficient evidence."""
    if any(p.rejects for p in problems):
        return Verdict.REJECTED
    if undecidable:
        return Verdict.INSUFFICIENT_EVIDENCE
    return Verdict.ACCEPTED
