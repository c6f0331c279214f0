"""Did-you-mean suggestions for misspelt keys and enum values."""

from __future__ import annotations

import functools
from collections.abc import Collection, Iterable


def closest(word: object, choices: Iterable[str], taken: Collection[object] = ()) -> str | None:
    """The choice nearest to *word*, when one is close enough to be a likely typo; never one
    of *taken* (the keys the mapping already has: renaming onto one of them cannot apply)."""
    if not isinstance(word, str):
        return None
    options = tuple(c for c in choices if c not in taken)
    if len(word) > _REMEMBERED:
        return _nearest(word, options)
    return _remembered(word, options)


#: Words up to this length are remembered (the same typos come back file after file); a
#: long value is rare and would only fill the memory.
_REMEMBERED = 200


def _nearest(word: str, options: tuple[str, ...]) -> str | None:
    lowered = {c.lower(): c for c in options}
    if word.lower() in lowered:
        return lowered[word.lower()]
    import difflib  # only when a name is not one of the choices

    found = difflib.get_close_matches(word, options, n=1, cutoff=0.6)
    return found[0] if found else None


_remembered = functools.lru_cache(maxsize=4096)(_nearest)
