"""What dry runs and simulations share: the contract's JSON (``json_safe``) and the documents
of Python files, read by their line (``embedded_report``)."""

from __future__ import annotations

import math
from typing import Any

from formscript.core.expansion import EXPANSION_LIMIT, measure
from formscript.core.printable import printable_repr, unprintable_int
from formscript.document import Document
from formscript.lint.report import FileReport

CONTRACT_VERSION = 1


def json_safe(value: Any) -> Any:
    """*value* as plain JSON: non-finite floats and other types become their repr, ints too
    long for decimal text their hex; an alias bomb becomes a note instead of being expanded;
    a container met again inside itself becomes ``"[...]"`` or ``"{...}"``, as repr writes it;
    one nested past ``MAX_NESTING`` becomes a note too."""
    if isinstance(value, dict | list | tuple):
        shape = measure(value)
        if shape.size > EXPANSION_LIMIT:
            return f"<expands to more than {EXPANSION_LIMIT:,} values through YAML aliases>"
    return plain(value)


#: Marks the end of a container's members on ``plain``'s stack.
_DONE = object()

#: The deepest container ``plain`` writes out: deeper ones (only aliases build them; the
#: runtime's loader refuses text nested past 490) become a note, so that what it returns can
#: be compared, printed and JSON-encoded within Python's recursion limit (1,000).
MAX_NESTING = 800


def plain(value: Any) -> Any:
    """*value* with every part JSON can write kept and the rest as text; iterative, so any
    nesting depth converts (past ``MAX_NESTING``, to a note), and a container met again
    inside itself becomes ``[...]`` or ``{...}`` as repr writes it."""
    holder: list[Any] = [None]
    todo: list[tuple[Any, Any, Any, int]] = [(value, holder, 0, 1)]
    inside: set[int] = set()
    while todo:
        item, target, slot, depth = todo.pop()
        if item is _DONE:
            inside.discard(slot)
            continue
        if isinstance(item, list | tuple | dict):
            if id(item) in inside:
                target[slot] = "{...}" if isinstance(item, dict) else "[...]"
                continue
            if depth > MAX_NESTING:
                target[slot] = f"<{type(item).__name__} nested more than {MAX_NESTING} levels deep>"
                continue
            inside.add(id(item))
            todo.append((_DONE, None, id(item), depth))
            if isinstance(item, dict):
                members: dict[str, Any] = {}
                pending = []
                for key, member in item.items():
                    name = key if isinstance(key, str) else _text(key)
                    members[name] = None
                    pending.append((member, members, name, depth + 1))
                target[slot] = members
                todo.extend(reversed(pending))  # in order, so a later equal name wins
            else:
                items: list[Any] = [None] * len(item)
                target[slot] = items
                todo.extend((member, items, index, depth + 1) for index, member in enumerate(item))
            continue
        target[slot] = _scalar(item)
    return holder[0]


def _scalar(value: Any) -> Any:
    if value is None or isinstance(value, bool | str):
        return value
    if isinstance(value, int):
        return hex(value) if unprintable_int(value) else value
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    return printable_repr(value)


def _text(key: Any) -> str:
    """A mapping key as JSON's text."""
    if unprintable_int(key):
        return hex(key)
    try:
        return str(key)
    except ValueError:
        return printable_repr(key)


def line_of(doc: Document | None, path: tuple[object, ...]) -> int | None:
    if doc is None:
        return None
    entry = doc.entry(path)
    return entry.value.start.line + 1 if entry is not None else None


def reads_a_file(report: FileReport) -> bool:
    """Whether the form is one ``li agent --form`` reads (a file, or a text a test writes to one)."""
    if report.embedded is None:
        return True
    from formscript.document.python import EmbeddedDocument

    return isinstance(report.document, EmbeddedDocument)


def split_location(given: str) -> tuple[str, int | None]:
    """``FILE.py:LINE`` as (FILE.py, LINE); any other argument as (it, None)."""
    path, colon, line = given.rpartition(":")
    if colon and path.endswith(".py") and line.isdigit() and int(line) > 0:
        return path, int(line)
    return given, None


def embedded_report(text: str, path: str, line: int, kind: str) -> FileReport | str:
    """The document of *kind* that the Python file *path* hands to lionagi on *line* (1-based):
    the one whose literal starts there, else the one whose call does; a message when none."""
    from formscript.lint.python_lint import lint_python

    bundle = lint_python(text, path, fixes=False)
    # a FieldSpec(...) on its own declares: it is not a form to dry-run
    parts = [p for p in bundle.parts or [] if p.kind == kind and p.embedded is not None]
    usable = [p for p in parts if p.kind != "form" or p.gate is not None]
    for wanted in ("literal", "call"):
        for part in usable:
            assert part.embedded is not None
            call = part.embedded.call_span
            if wanted == "literal" and part.embedded.span.start.line + 1 == line:
                return part
            if wanted == "call" and call is not None and call.start.line + 1 == line:
                return part
    lines = sorted({p.embedded.span.start.line + 1 for p in usable if p.embedded is not None})
    where = ", ".join(str(n) for n in lines) if lines else "none"
    return f"{path}:{line}: no {kind} is handed to lionagi on this line (lines with one: {where})"
