"""How big a loaded value becomes once YAML aliases are expanded.

Anchors and aliases share objects, so a few hundred bytes can stand for billions of values
("billion laughs"). Loading is cheap; anything that walks the value — repr for the context
block, json.dumps when serving — expands it and exhausts time and memory.

An anchor aliased inside its own node (``a: &x [1, *x]``) is no bomb: the value contains
itself, and repr prints the back-reference as ``[...]`` (finite), while json.dumps refuses it
at once with ValueError("Circular reference detected"). So a walk follows each container at
most once per path: met again inside itself, it counts as one value.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

#: Beyond this many expanded values formscript refuses to walk a value (documented limit).
EXPANSION_LIMIT = 1_000_000


@dataclass(frozen=True, slots=True)
class Expansion:
    """What a walk of a value with aliases expanded meets."""

    #: Values visited as repr visits them, counted up to just past the limit.
    size: int
    #: Whether some container is met again inside itself (repr prints ``[...]`` / ``{...}``).
    cyclic: bool


class Exhausts(Exception):
    """Walking the value visits more values than the limit: the runtime never finishes."""


_CONTAINERS = (dict, list, tuple, set, frozenset)


def _children(node: Any) -> Any:
    if isinstance(node, dict):
        return iter([*node.keys(), *node.values()])
    return iter(node)


def measure(value: Any, limit: int = EXPANSION_LIMIT) -> Expansion:
    """Walk *value* as repr does (aliases expanded, a container met again inside itself
    counted once), stopping just past *limit* values.

    A container whose walk met no back-reference has the same size wherever it is met, so
    it is walked once: a bomb of shared acyclic nodes costs its number of distinct nodes.
    """
    if not isinstance(value, _CONTAINERS):
        return Expansion(1, False)
    count = 1
    cyclic = False
    sizes: dict[int, int] = {}
    on_path = {id(value)}
    # One entry per open container: the node, its children, the count before it, and
    # whether a back-reference was met below it (its size then depends on the path).
    nodes: list[Any] = [value]
    children: list[Any] = [_children(value)]
    starts = [0]
    backs = [False]
    while nodes and count <= limit:
        for child in children[-1]:
            count += 1
            if isinstance(child, _CONTAINERS):
                key = id(child)
                known = sizes.get(key)
                if known is not None:
                    count += known - 1
                elif key in on_path:
                    cyclic = backs[-1] = True
                else:
                    on_path.add(key)
                    nodes.append(child)
                    children.append(_children(child))
                    starts.append(count - 1)
                    backs.append(False)
                    break
            if count > limit:
                break
        else:
            node = nodes.pop()
            children.pop()
            start = starts.pop()
            on_path.discard(id(node))
            if backs.pop():
                if backs:
                    backs[-1] = True
            else:
                sizes[id(node)] = count - start
    return Expansion(min(count, limit + 1), cyclic)


def explodes(value: Any, limit: int = EXPANSION_LIMIT) -> bool:
    """Whether walking *value* would visit more than *limit* values (a value that contains
    itself does not, by that alone)."""
    return measure(value, limit).size > limit


def json_error(value: Any, limit: int = EXPANSION_LIMIT, *, unshared: bool = False) -> Exception | None:
    """What ``json.dumps(value)`` raises: the encoder's own exception (ValueError for a value
    that contains itself, TypeError for a type JSON has not), Exhausts when the encoder would
    expand it past *limit* values first, or None when it encodes.

    *unshared*: the caller knows no container is reached twice in *value* (it was loaded from
    a text without aliases), so encoding it costs its own size, nothing expands: it is
    encoded first, and a text of at most *limit* characters (each value writes at least
    one) settles it without the walk."""
    if unshared:
        try:
            if len(json.dumps(value)) <= limit:
                return None
        except (TypeError, ValueError, RecursionError, OverflowError):
            pass  # which failure comes first, and whether the limit does, is the walk's
    shape = measure(value, limit)
    if shape.size <= limit:
        try:
            json.dumps(value)
        except (TypeError, ValueError, RecursionError, OverflowError) as exc:
            # kept by callers (per entry): without its traceback, whose frames would tie
            # the caller's locals into a cycle that outlives them
            return exc.with_traceback(None)
        return None
    if not shape.cyclic:
        return Exhausts(f"the value expands to more than {limit:,} values")
    return _encoder_walk(value, limit)


def _encoder_walk(value: Any, limit: int) -> Exception:
    """The first failure json.dumps meets in *value* (which expands past *limit*), walking in
    the encoder's order: Exhausts when *limit* values come first."""
    steps = 0
    on_path: set[int] = set()
    # ("value", v) encodes v; ("key", k) checks a dict key; ("leave", c) closes container c.
    stack: list[tuple[str, Any]] = [("value", value)]
    while stack:
        what, node = stack.pop()
        if what == "leave":
            on_path.discard(id(node))
            continue
        if what == "key":
            if not (node is None or isinstance(node, str | int | float | bool)):
                return TypeError(f"keys must be str, int, float, bool or None, not {_c_name(node)}")
            continue
        steps += 1
        if steps > limit:
            return Exhausts(f"the value expands to more than {limit:,} values")
        if node is None or isinstance(node, str | int | float):
            continue  # bools are ints; nan and the infinities are written as NaN / Infinity
        if not isinstance(node, dict | list | tuple):
            return TypeError(f"Object of type {type(node).__name__} is not JSON serializable")
        if id(node) in on_path:
            return ValueError("Circular reference detected")
        on_path.add(id(node))
        stack.append(("leave", node))
        if isinstance(node, dict):
            for key, item in reversed(list(node.items())):
                stack.append(("value", item))
                stack.append(("key", key))
        else:
            stack.extend(("value", item) for item in reversed(list(node)))
    return Exhausts(f"the value expands to more than {limit:,} values")


#: The longest JSON text a response may expand to that formscript still says lionagi serves
#: (encoding it takes seconds and a few hundred megabytes); beyond, the memory it takes is
#: the machine's business, and formscript says it may exhaust it.
SERVABLE_CHARACTERS = 100_000_000


def _c_name(value: Any) -> str:
    """The name json's C encoder gives *value*'s type when it refuses it as a key (the type's
    C name: ``datetime.date``, where a Python-level message says ``date``)."""
    kind = type(value)
    return kind.__name__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__qualname__}"


def encoded_length(value: Any) -> int | None:
    """The exact length of ``json.dumps(value)`` computed without building it (each shared
    container measured once), or None when json.dumps raises on it (a value that contains
    itself, a type or key JSON has not)."""
    lengths: dict[int, int] = {}
    on_path: set[int] = set()

    def length(node: Any) -> int:
        if not isinstance(node, dict | list | tuple):
            return len(json.dumps(node))  # a scalar (TypeError / ValueError for the others)
        key = id(node)
        known = lengths.get(key)
        if known is not None:
            return known
        if key in on_path:
            raise ValueError("Circular reference detected")
        on_path.add(key)
        if isinstance(node, dict):
            total = sum(_key_length(k) + 2 + length(v) for k, v in node.items())
        else:
            total = sum(length(item) for item in node)
        on_path.discard(key)
        total += 2 + 2 * max(len(node) - 1, 0)  # the brackets and the ", " between items
        lengths[key] = total
        return total

    try:
        return length(value)
    except (TypeError, ValueError, RecursionError, OverflowError):
        return None


def _key_length(key: Any) -> int:
    """The length of *key* as json.dumps writes a dict key (a string; True as "true")."""
    if isinstance(key, str):
        return len(json.dumps(key))
    if key is None or isinstance(key, bool | int | float):
        return len(json.dumps(json.dumps(key)))  # e.g. 1 -> "1"
    raise TypeError(f"keys must be str, int, float, bool or None, not {_c_name(key)}")


__all__ = [
    "EXPANSION_LIMIT",
    "SERVABLE_CHARACTERS",
    "Exhausts",
    "Expansion",
    "encoded_length",
    "explodes",
    "json_error",
    "measure",
]
