"""How big a loaded value becomes once YAML aliases are expanded.

Anchors and aliases share objects, so a few hundred bytes can stand for billions of values
("billion laughs"). Loading is cheap; anything that walks the value — repr for the context
block, json.dumps when serving — expands it and exhausts time and memory.
"""

from __future__ import annotations

from typing import Any

#: Beyond this many expanded values formscript refuses to walk a value (documented limit).
EXPANSION_LIMIT = 1_000_000


def expanded_size(value: Any, limit: int = EXPANSION_LIMIT) -> int:
    """The number of values reached when walking *value* with aliases expanded, counting
    up to just past *limit* (then it stops)."""
    count = 0
    stack = [value]
    while stack:
        current = stack.pop()
        count += 1
        if count > limit:
            return count
        if isinstance(current, dict):
            stack.extend(current.keys())
            stack.extend(current.values())
        elif isinstance(current, list | tuple | set | frozenset):
            stack.extend(current)
    return count


def explodes(value: Any, limit: int = EXPANSION_LIMIT) -> bool:
    """Whether walking *value* would visit more than *limit* values."""
    return expanded_size(value, limit) > limit
