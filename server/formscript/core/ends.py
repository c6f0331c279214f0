"""The common ends of two versions of a text or a list: how many items both start with and
(not overlapping that) end with, which an incremental caller keeps from the earlier version.

One search serves texts (``document.segments``, ``document.form_segments``, the server's
LSP lines), lists of lines (the server's outline) and lists of objects compared by identity
(a script's raw and built entries); only how two runs of items are compared differs.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any, TypeAlias

__all__ = ["Agree", "common_ends", "equal", "identical"]

#: ``agree(old, old_at, new, new_at, size)``: whether the *size* items of *old* from
#: *old_at* are those of *new* from *new_at* (both runs lie inside their sequences).
Agree: TypeAlias = "Callable[[Sequence[Any], int, Sequence[Any], int, int], bool]"


def equal(old: Sequence[Any], old_at: int, new: Sequence[Any], new_at: int, size: int) -> bool:
    """Whether the two runs are equal, compared in C (of two texts, without copying *old*'s)."""
    if isinstance(old, str) and isinstance(new, str):
        return old.startswith(new[new_at : new_at + size], old_at)
    return old[old_at : old_at + size] == new[new_at : new_at + size]


def identical(old: Sequence[Any], old_at: int, new: Sequence[Any], new_at: int, size: int) -> bool:
    """Whether the two runs hold the same objects (identity, never equality: ``1 == True``)."""
    return all(map(operator.is_, old[old_at : old_at + size], new[new_at : new_at + size]))


def common_ends(old: Sequence[Any], new: Sequence[Any], agree: Agree = equal) -> tuple[int, int]:
    """The lengths of the longest common prefix and (not overlapping it) suffix of *old* and
    *new*, their items compared by *agree*.

    Found by halving, each step comparing (in C) only the part not yet known to agree, so the
    items compared add up to about the length of the sequences, whatever the answer."""
    most = min(len(old), len(new))
    low, high = 0, most  # old[:low] agrees with new[:low]; the prefix ends in [low, high]
    while low < high:
        middle = (low + high + 1) // 2
        if agree(old, low, new, low, middle - low):
            low = middle
        else:
            high = middle - 1
    prefix = low
    old_size, new_size = len(old), len(new)
    low, high = 0, most - prefix  # the same from the ends
    while low < high:
        middle = (low + high + 1) // 2
        if agree(old, old_size - middle, new, new_size - middle, middle - low):
            low = middle
        else:
            high = middle - 1
    return prefix, low
