"""Text for values whose own repr raises.

Python refuses to write an int of more than 4,300 decimal digits as text
(``sys.get_int_max_str_digits``), so ``repr`` raises ValueError for such an int and for any
container holding one. YAML loads them from hex, octal or binary literals. The runtime's
repr raises too (its context block, its coercion messages); formscript reports that, and
prints such an int in hex, which is exact and has no length limit.
"""

from __future__ import annotations

from typing import Any

#: Ints below this many bits always have fewer than 4,300 decimal digits.
_SAFE_BITS = 14_000


def unprintable_int(value: Any) -> bool:
    """Whether *value* is an int that Python refuses to write in decimal."""
    if type(value) is not int or value.bit_length() < _SAFE_BITS:
        return False
    try:
        str(value)
    except ValueError:
        return True
    return False


def printable_repr(value: Any) -> str:
    """``repr(value)``, with ints Python refuses to write in decimal written in hex; a
    literal that evaluates to *value* wherever repr gives one. Never raises for values a
    YAML or JSON loader builds (those nested past the recursion limit get a placeholder)."""
    try:
        return repr(value)
    except ValueError:
        pass
    except RecursionError:
        return f"<{type(value).__name__} nested too deeply to print>"
    return _hex_repr(value)


def _hex_repr(value: Any) -> str:
    """repr built by hand (only reached when repr raises), iteratively so depth is no limit."""
    out: list[str] = []
    # each item: a value to write, or a literal piece of text (a str wrapped in a tuple)
    todo: list[Any] = [value]
    active: set[int] = set()
    while todo:
        item = todo.pop()
        if isinstance(item, _Text):
            if item.closes is not None:
                active.discard(item.closes)
            out.append(item.text)
            continue
        if unprintable_int(item):
            out.append(hex(item))
            continue
        kind = type(item)
        if kind in (list, tuple, dict, set, frozenset):
            if id(item) in active:
                out.append("[...]" if kind is list else "{...}" if kind is dict else "(...)")
                continue
            active.add(id(item))
            todo.extend(reversed(_pieces(item, id(item))))
            continue
        try:
            out.append(repr(item))
        except Exception as exc:
            out.append(f"<{kind.__name__} whose repr raises {type(exc).__name__}>")
    return "".join(out)


class _Text:
    __slots__ = ("closes", "text")

    def __init__(self, text: str, closes: int | None = None) -> None:
        self.text = text
        self.closes = closes


def _pieces(item: Any, ident: int) -> list[Any]:
    """*item*'s repr as a sequence of texts and values to write in their place."""
    kind = type(item)
    if kind is dict:
        pieces: list[Any] = [_Text("{")]
        for index, (key, val) in enumerate(item.items()):
            if index:
                pieces.append(_Text(", "))
            pieces.extend((key, _Text(": "), val))
        pieces.append(_Text("}", ident))
        return pieces
    members = list(item)
    if kind in (set, frozenset) and not members:
        return [_Text(f"{kind.__name__}()", ident)]
    brackets: dict[type, tuple[str, str]] = {
        list: ("[", "]"),
        tuple: ("(", ")"),
        set: ("{", "}"),
        frozenset: ("frozenset({", "})"),
    }
    opening, closing = brackets[kind]
    if kind is tuple and len(members) == 1:
        closing = ",)"
    pieces = [_Text(opening)]
    for index, member in enumerate(members):
        if index:
            pieces.append(_Text(", "))
        pieces.append(member)
    pieces.append(_Text(closing, ident))
    return pieces


class _HexInt(int):
    """An int that writes itself in hex (repr, str and format), for messages about ints
    Python refuses to write in decimal; equal to, and hashed as, the int it stands for."""

    def __repr__(self) -> str:
        return hex(self)

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        return format(hex(self), spec)


# Messages name a value's type with type(value).__name__: the stand-in is an int to them.
_HexInt.__name__ = _HexInt.__qualname__ = "int"


def printable(value: Any) -> Any:
    """*value* with every int Python refuses to write in decimal (also inside lists, tuples,
    sets and dicts, keys included) replaced by an equal int that writes itself in hex, so
    that repr, str and f-strings of the result never raise for that reason. Returns *value*
    itself when nothing needed replacing."""
    if unprintable_int(value):
        return _HexInt(value)
    if type(value) not in (list, tuple, dict, set, frozenset):
        return value
    # Rebuild containers bottom-up: visit each container after its members.
    built: dict[int, Any] = {}
    todo: list[tuple[Any, bool]] = [(value, False)]
    inside: set[int] = set()
    while todo:
        item, members_done = todo.pop()
        ident = id(item)
        if ident in built:
            continue
        if not members_done:
            if ident in inside:  # a container inside itself: keep it as it is
                continue
            inside.add(ident)
            todo.append((item, True))
            members = [m for pair in item.items() for m in pair] if type(item) is dict else list(item)
            todo.extend((m, False) for m in members if type(m) in (list, tuple, dict, set, frozenset))
            continue
        inside.discard(ident)

        def shown(member: Any) -> Any:
            if unprintable_int(member):
                return _HexInt(member)
            return built.get(id(member), member)

        if type(item) is dict:
            new: Any = {shown(k): shown(v) for k, v in item.items()}
            changed = any(a is not b or c is not d for (a, c), (b, d) in zip(item.items(), new.items(), strict=True))
        else:
            members = [shown(m) for m in item]
            changed = any(a is not b for a, b in zip(item, members, strict=True))
            new = type(item)(members)
        built[ident] = new if changed else item
    return built.get(id(value), value)


def type_label(value: Any) -> str:
    """The Python type name of *value*, as a user would read it."""
    return type(value).__name__
