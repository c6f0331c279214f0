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
