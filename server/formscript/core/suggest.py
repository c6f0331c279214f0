"""Did-you-mean suggestions for misspelt keys and enum values."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def closest(word: object, choices: Iterable[str]) -> str | None:
    """The choice nearest to *word*, when one is close enough to be a likely typo."""
    if not isinstance(word, str):
        return None
    options = list(choices)
    lowered = {c.lower(): c for c in options}
    if word.lower() in lowered:
        return lowered[word.lower()]
    found = difflib.get_close_matches(word, options, n=1, cutoff=0.6)
    return found[0] if found else None


def hint(word: object, choices: Iterable[str]) -> str:
    """A ``; did you mean 'x'?`` suffix, or an empty string."""
    match = closest(word, choices)
    return f"; did you mean {match!r}?" if match is not None else ""


def suggestion(word: object, choices: Iterable[str]) -> dict[str, object]:
    """Problem data carrying the suggested replacement, when there is one."""
    match = closest(word, choices)
    return {"suggest": match} if match is not None else {}
