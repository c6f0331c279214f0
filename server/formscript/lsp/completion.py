"""Completion: keys valid at the cursor and not yet written, enum values, declared field
names inside ``values:``, and whole entries as snippets."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from formscript.document import Pos, Span
from formscript.lsp import keydocs
from formscript.lsp.analysis import Analysis
from formscript.lsp.context import CursorContext, Outline, cursor_context
from formscript.lsp.facade import CHECK_KINDS, CHUNK_TYPES, ELEMENT_KEYS, ERROR_KINDS, FIELD_TYPES

SuggestionKind = Literal["key", "value", "field", "snippet"]


@dataclass(frozen=True)
class Suggestion:
    """One completion: what to insert over *replace* and how to present it."""

    label: str
    kind: SuggestionKind
    insert: str
    replace: Span
    snippet: bool = False
    detail: str = ""
    documentation: str = ""
    sort: str = ""


def _choice(values: tuple[str, ...] | list[str]) -> str:
    return "${1|" + ",".join(values) + "|}"


#: Whole response entries, one line per key, relative to the entry's key column.
ENTRY_SNIPPETS: dict[str, tuple[str, ...]] = {
    "text": ("type: text", "content: ${1:Hello}"),
    "tool_call": ("type: tool_call", "name: ${1:tool_name}", "arguments: {${2}}"),
    "structured": ("type: structured", "data:", "  ${1:key}: ${2:value}"),
    "stream": ("type: stream", "chunks:", "  - type: text", "    content: ${1:Hello}", "  - type: result"),
    "error": ("type: error", "kind: " + _choice(ERROR_KINDS), "message: ${2:scripted error}"),
}
_ITEM_SNIPPETS: dict[str, dict[str, tuple[str, ...]]] = {
    "chunks": {"stream chunk": ("type: " + _choice(CHUNK_TYPES), "content: ${2}")},
    "rules": {"rule": ("rule_id: ${1:rule_id}", "field: ${2:field}", "check: ${3|" + ",".join(CHECK_KINDS) + "|}")},
    "calls": {"call": ("prompt: ${1:prompt}",)},
}
_FIELD_SNIPPET = ("${1:name}:", "  type: ${2|" + ",".join(FIELD_TYPES) + "|}")
_MAPPING_KEYS = frozenset(
    {"fields", "values", "when", "params", "data", "arguments", "metadata", "tool_input", "payload"}
)
_LIST_KEYS = frozenset({"responses", "chunks", "rules"})
_SEQUENCE_OWNERS = frozenset({"responses", "chunks", "rules", "calls"})

_PLACEHOLDER_CHOICE = re.compile(r"\$\{\d+\|([^,|}]*)[^}]*\}")
_PLACEHOLDER_DEFAULT = re.compile(r"\$\{\d+:([^}]*)\}")
_PLACEHOLDER_BARE = re.compile(r"\$\{\d+\}|\$\d+")


def plain(snippet: str) -> str:
    """A snippet as plain text: first choices and defaults, tab stops removed."""
    text = _PLACEHOLDER_CHOICE.sub(r"\1", snippet)
    text = _PLACEHOLDER_DEFAULT.sub(r"\1", text)
    return _PLACEHOLDER_BARE.sub("", text)


def complete(analysis: Analysis, pos: Pos, *, snippets: bool = True) -> list[Suggestion]:
    """Everything that may be typed at *pos*."""
    lines = analysis.positions.lines
    context = cursor_context(lines, pos.line, pos.column, analysis.document)
    if context is None or analysis.kind is None:
        return []
    replace = Span(Pos(pos.line, context.word_start), pos)
    owner = keydocs.owner_of(analysis.kind, context.path)
    if owner is None:
        return []
    found: list[Suggestion]
    if context.where == "value":
        found = _values(owner, context, replace)
    elif owner in _SEQUENCE_OWNERS and not context.in_flow:
        found = _items(owner, context, replace)
    elif owner == "fields":
        found = _new_field(context, replace)
    elif owner == "values":
        found = _value_keys(analysis, context, replace)
    else:
        found = _keys(owner, context, replace)
        if owner == "entry" and context.dashed and not context.present:
            found += _entry_snippets(context, replace, dashed=True)
    if not snippets:
        found = [
            Suggestion(s.label, s.kind, plain(s.insert), s.replace, False, s.detail, s.documentation, s.sort)
            for s in found
        ]
    return found


def _indent_lines(body: tuple[str, ...], column: int) -> str:
    pad = "\n" + " " * column
    return pad.join(body)


def _keys(owner: str, context: CursorContext, replace: Span) -> list[Suggestion]:
    found = []
    table = keydocs.keys_of(owner, context.present)
    for order, (name, doc) in enumerate(table.items()):
        if name in context.present or (owner == "field" and name in ELEMENT_KEYS):
            continue
        if context.in_flow:
            insert = f"{name}: "
        elif doc.choices:
            insert = f"{name}: " + _choice(doc.choices)
        elif name in _LIST_KEYS:
            insert = f"{name}:\n" + " " * (context.column + 2) + "- $0"
        elif name in _MAPPING_KEYS:
            insert = f"{name}:\n" + " " * (context.column + 2) + "$0"
        else:
            insert = f"{name}: $0"
        found.append(
            Suggestion(
                name,
                "key",
                insert,
                replace,
                snippet=True,
                detail=doc.type,
                documentation=doc.markdown(owner),
                sort=f"{order:03d}",
            )
        )
    return found


def _values(owner: str, context: CursorContext, replace: Span) -> list[Suggestion]:
    if context.key is None:
        return []
    siblings = {k: v for k, v in context.present.items() if k != context.key}
    doc = keydocs.doc_for(owner, context.key, siblings)
    if doc is None or not doc.choices:
        return []
    meanings = keydocs.VALUE_DOCS.get(context.key, {})
    return [
        Suggestion(
            choice,
            "value",
            choice,
            replace,
            detail=doc.type,
            documentation=meanings.get(choice, ""),
            sort=f"{order:03d}",
        )
        for order, choice in enumerate(doc.choices)
    ]


def _entry_snippets(context: CursorContext, replace: Span, *, dashed: bool) -> list[Suggestion]:
    found = []
    for order, (name, body) in enumerate(ENTRY_SNIPPETS.items()):
        insert = _indent_lines(body, context.column) if dashed else "- " + _indent_lines(body, context.column + 2)
        found.append(
            Suggestion(
                f"{name} response",
                "snippet",
                insert,
                replace,
                snippet=True,
                detail=f"a whole `{name}` entry",
                documentation="```yaml\n" + plain(insert) + "\n```",
                sort=f"1{order:02d}",
            )
        )
    return found


def _items(owner: str, context: CursorContext, replace: Span) -> list[Suggestion]:
    if owner == "responses":
        return _entry_snippets(context, replace, dashed=context.dashed)
    found = []
    for label, body in _ITEM_SNIPPETS[owner].items():
        if context.dashed:
            insert = _indent_lines(body, context.column)
        else:
            insert = "- " + _indent_lines(body, context.column + 2)
        found.append(
            Suggestion(
                label,
                "snippet",
                insert,
                replace,
                snippet=True,
                detail=f"a new {label}",
                documentation="```yaml\n" + plain(insert) + "\n```",
            )
        )
    return found


def _new_field(context: CursorContext, replace: Span) -> list[Suggestion]:
    insert = _indent_lines(_FIELD_SNIPPET, context.column)
    return [
        Suggestion(
            "field declaration",
            "snippet",
            insert,
            replace,
            snippet=True,
            detail="a new field",
            documentation="```yaml\n" + plain(insert) + "\n```",
        )
    ]


def _value_keys(analysis: Analysis, context: CursorContext, replace: Span) -> list[Suggestion]:
    declared: dict[str, str] = {}
    gate = analysis.report.gate
    if gate is not None and gate.declarations:
        declared = {str(k): spec.type for k, spec in gate.declarations.items()}
    else:
        outline = Outline(analysis.positions.lines)
        for line in outline.top_block("fields"):
            if line.key is not None:
                declared[line.key] = _written_type(outline, line.number, line.value)
    found = []
    for order, (name, field_type) in enumerate(declared.items()):
        if name in context.present:
            continue
        found.append(
            Suggestion(
                name,
                "field",
                f"{name}: $0",
                replace,
                snippet=True,
                detail=field_type,
                documentation=f"declared field `{name}` (`{field_type}`)",
                sort=f"{order:03d}",
            )
        )
    return found


def _written_type(outline: Outline, number: int, value: str) -> str:
    """The type of a field declaration as written, read without parsing."""
    match = re.search(r"\btype\s*:\s*([A-Za-z]+)", value)
    if match:
        return match.group(1)
    line = outline.line(number)
    for below in range(number + 1, len(outline)):
        inner = outline.line(below)
        if inner.blank:
            continue
        if inner.indent <= line.indent:
            break
        if inner.key == "type":
            return inner.value or "str"
    return "str"
