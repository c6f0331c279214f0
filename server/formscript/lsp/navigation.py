"""Navigation: the outline of a file, field declarations and their values, folding."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from formscript.document import Document, Edit, Location, Pos, Span
from formscript.lsp.analysis import Analysis
from formscript.lsp.context import node_at
from formscript.lsp.facade import FIELD_NAME_RE, KeyPath

SymbolKind = Literal["section", "setting", "field", "value", "entry", "rule", "call"]
_PREVIEW = 40


@dataclass
class Symbol:
    """One outline node: a section, a field, a value, a response entry, a rule or a call."""

    name: str
    kind: SymbolKind
    span: Span
    selection: Span
    detail: str = ""
    children: list[Symbol] = field(default_factory=list)


def _trim(span: Span, lines: list[str]) -> Span:
    """A block node ends where the next line's content starts; end it on its last line."""
    end = span.end
    before = lines[end.line][: end.column] if end.line < len(lines) else ""
    if end.line > span.start.line and before.strip() in ("", "-"):
        line = end.line - 1
        while line > span.start.line and not lines[line].strip():
            line -= 1
        end = Pos(line, len(lines[line]) if line < len(lines) else 0)
    return Span(span.start, end)


def _whole(entry: Location, lines: list[str]) -> Span:
    start = entry.key.start if entry.key is not None else entry.value.start
    return _trim(Span(start, entry.value.end), lines)


def _preview(value: Any) -> str:
    text = value if isinstance(value, str) else repr(value)
    text = " ".join(text.split())
    return text if len(text) <= _PREVIEW else text[: _PREVIEW - 1] + "…"


def symbols(analysis: Analysis) -> list[Symbol]:
    """The outline: form fields and values, script responses (``#index type``), rules, calls."""
    doc = analysis.document
    if doc is None or analysis.kind is None:
        return []
    lines = analysis.positions.lines
    value = doc.value
    kind = analysis.kind
    found: list[Symbol] = []
    if kind == "calls" and isinstance(value, list):
        for index, item in enumerate(value):
            entry = doc.entry((index,))
            if entry is None:
                continue
            prompt = item.get("prompt", "payload") if isinstance(item, dict) else item
            span = _whole(entry, lines)
            found.append(Symbol(f"#{index}", "call", span, span, _preview(prompt)))
        return found
    if not isinstance(value, dict):
        return []
    for key, child in value.items():
        entry = doc.entry((key,))
        if entry is None or entry.key is None:
            continue
        top = Symbol(
            str(key),
            "section" if entry.scalar is None else "setting",
            _whole(entry, lines),
            entry.key,
            _preview(child) if entry.scalar is not None else "",
        )
        top.children = _children(doc, kind, key, child, lines)
        found.append(top)
    return found


def _children(doc: Document, kind: str | None, key: Any, value: Any, lines: list[str]) -> list[Symbol]:
    out: list[Symbol] = []
    if kind == "form" and key in ("fields", "values") and isinstance(value, dict):
        for name, child in value.items():
            entry = doc.entry((key, name))
            if entry is None or entry.key is None:
                continue
            if key == "fields":
                declared = child.get("type", "str") if isinstance(child, dict) else child
                detail = str(declared)
            else:
                detail = _preview(child)
            out.append(
                Symbol(str(name), "field" if key == "fields" else "value", _whole(entry, lines), entry.key, detail)
            )
    elif (kind, key) in (("script", "responses"), ("rules", "rules")) and isinstance(value, list):
        for index, item in enumerate(value):
            entry = doc.entry((key, index))
            if entry is None:
                continue
            span = _whole(entry, lines)
            if key == "responses":
                response_type = item.get("type", "?") if isinstance(item, dict) else "?"
                detail = _entry_detail(item)
                out.append(Symbol(f"#{index} {response_type}", "entry", span, span, detail))
            else:
                rule_id = item.get("rule_id", "?") if isinstance(item, dict) else "?"
                detail = f"{item.get('check', '?')} {item.get('field', '?')}" if isinstance(item, dict) else ""
                out.append(Symbol(f"#{index} {rule_id}", "rule", span, span, detail))
    return out


def _entry_detail(item: Any) -> str:
    if not isinstance(item, dict):
        return ""
    when = item.get("when")
    parts = []
    if isinstance(when, dict) and when:
        parts.append("when " + ", ".join(f"{k}={v!r}" for k, v in when.items()))
    for key in ("content", "name", "kind", "message"):
        if key in item:
            parts.append(_preview(item[key]))
            break
    return "; ".join(parts)


# ---------------------------------------------------------------------- fields and values


def field_at(analysis: Analysis, pos: Pos) -> str | None:
    """The field name whose declaration key or value key is at *pos* (forms only)."""
    doc = analysis.document
    if doc is None or analysis.kind != "form":
        return None
    hit = node_at(doc, pos)
    if hit is None:
        return None
    path, on_key = hit
    if on_key and len(path) == 2 and path[0] in ("fields", "values") and isinstance(path[1], str):
        return path[1]
    return None


def _key_span(analysis: Analysis, path: KeyPath) -> Span | None:
    entry = analysis.entry(path)
    return entry.key if entry is not None else None


def definition(analysis: Analysis, pos: Pos) -> Span | None:
    """The declaration key of the field named at *pos*."""
    name = field_at(analysis, pos)
    return _key_span(analysis, ("fields", name)) if name is not None else None


def references(analysis: Analysis, pos: Pos, *, declaration: bool) -> list[Span]:
    """Where the field named at *pos* is declared (optionally) and given a value."""
    name = field_at(analysis, pos)
    if name is None:
        return []
    paths = ([("fields", name)] if declaration else []) + [("values", name)]
    return [span for p in paths if (span := _key_span(analysis, p)) is not None]


def rename_range(analysis: Analysis, pos: Pos) -> tuple[Span, str] | None:
    """The key to rename at *pos*, and the field name it holds."""
    name = field_at(analysis, pos)
    if name is None:
        return None
    hit = node_at(analysis.document, pos) if analysis.document is not None else None
    span = _key_span(analysis, hit[0]) if hit is not None else None
    return (span, name) if span is not None else None


class RenameError(ValueError):
    """The new name cannot be used."""


def rename(analysis: Analysis, pos: Pos, new_name: str) -> list[Edit]:
    """Edits renaming the field at *pos* in its declaration and its value together."""
    name = field_at(analysis, pos)
    if name is None:
        return []
    if not FIELD_NAME_RE.match(new_name):
        raise RenameError(
            f"{new_name!r} is not a field name (letters, digits and underscores, not starting with a digit)"
        )
    fields = analysis.value_at(("fields",))
    values = analysis.value_at(("values",))
    taken = (isinstance(fields, dict) and new_name in fields) or (isinstance(values, dict) and new_name in values)
    if new_name != name and taken:
        raise RenameError(f"the form already has a field or value named {new_name!r}")
    doc = analysis.document
    edits: list[Edit] = []
    for path in (("fields", name), ("values", name)):
        if doc is None or _key_span(analysis, path) is None:
            continue
        # written as the document writes any string (quoted where YAML 1.1 would read it as
        # something else: `Null`, `OFF`, `Yes`), or refused where that cannot be exact
        edit = doc.replacement(path, new_name, on_key=True)
        if edit is None:
            raise RenameError(
                f"the key {name!r} under {path[0]} cannot be renamed exactly (it is reached through an alias)"
            )
        edits.append(edit)
    return edits


# -------------------------------------------------------------------------------- folding


def folding(analysis: Analysis) -> list[tuple[int, int]]:
    """(start line, end line) of every mapping or sequence spanning several lines."""
    doc = analysis.document
    if doc is None or analysis.kind is None:
        return []
    lines = analysis.positions.lines
    found: set[tuple[int, int]] = set()
    # One walk over the collections: locating every path would cost far more on big files.
    for collection in doc.collections():
        start = collection.owner.line
        end = _trim(Span(Pos(start, 0), collection.span.end), lines).end.line
        if end > start:
            found.add((start, end))
    return sorted(found)
