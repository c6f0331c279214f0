"""Completion: keys valid at the cursor and not yet written, enum values, declared field
names inside ``values:``, and whole entries as snippets.

An item's later lines are indented for its column (``InsertTextMode.AsIs``) for a client
that offers that mode; for any other they are indented relative to the cursor's line, which
the client adds to each (``adjustIndentation``, what Neovim's snippet expansion does).

A client without snippet support gets every item as one line of plain text: a key without
its block below (``responses: ``), a whole entry in flow style (``- {type: text, content:
Hello}``), meaning what the snippet's text would. Some clients insert a completion's text as a
word (Neovim 0.7's omnifunc), where a line break becomes a NUL byte.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

import yaml

from formscript.document import Pos, Span
from formscript.lsp import keydocs
from formscript.lsp.analysis import Analysis
from formscript.lsp.context import CursorContext, Outline, cursor_context
from formscript.lsp.facade import ELEMENT_KEYS, Snippet, doc_for, keys_of, owner_of
from formscript.lsp.facade import snippets as snippets_of

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
    #: What the client matches against the text from *replace*'s start (the label if empty).
    filter: str = ""


def _choice(values: tuple[str, ...] | list[str]) -> str:
    return "${1|" + ",".join(values) + "|}"


#: The snippets offered for a new item of each list, by the list's owner.
_ITEM_SNIPPETS: dict[str, str] = {"responses": "entry", "chunks": "chunk", "rules": "rule", "calls": "call"}
_MAPPING_KEYS = frozenset(
    {"fields", "values", "when", "params", "data", "arguments", "metadata", "tool_input", "payload"}
)
_LIST_KEYS = frozenset({"responses", "chunks", "rules"})

_PLACEHOLDER_CHOICE = re.compile(r"\$\{\d+\|([^,|}]*)[^}]*\}")
_PLACEHOLDER_DEFAULT = re.compile(r"\$\{\d+:([^}]*)\}")
_PLACEHOLDER_BARE = re.compile(r"\$\{\d+\}|\$\d+")
_TAB_STOP = re.compile(r"\$\{(\d+)")


def _scalar(value: str | bool) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return value[1:] if value.startswith("^") else value


def yaml_lines(body: Any, indent: int = 0) -> list[str]:
    """A snippet body (:class:`formscript.core.keys.Snippet`) as block YAML lines."""
    pad = " " * indent
    lines: list[str] = []
    if isinstance(body, dict):
        for key, value in body.items():
            if isinstance(value, dict | list) and value:
                lines.append(f"{pad}{key}:")
                lines.extend(yaml_lines(value, indent + 2))
            else:
                lines.append(f"{pad}{key}: {_scalar(value)}")
    elif isinstance(body, list):
        for item in body:
            if isinstance(item, dict | list) and item:
                inner = yaml_lines(item, indent + 2)
                lines.append(f"{pad}- {inner[0][indent + 2 :]}")
                lines.extend(inner[1:])
            else:
                lines.append(f"{pad}- {_scalar(item)}")
    return lines


def _shifted(line: str) -> str:
    """*line* with every tab stop one higher (to make room for a new first one)."""
    return _TAB_STOP.sub(lambda m: "${" + str(int(m.group(1)) + 1), line)


def plain(snippet: str) -> str:
    """A snippet as plain text: first choices and defaults, tab stops removed."""
    text = _PLACEHOLDER_CHOICE.sub(r"\1", snippet)
    text = _PLACEHOLDER_DEFAULT.sub(r"\1", text)
    return _PLACEHOLDER_BARE.sub("", text)


def complete(analysis: Analysis, pos: Pos, *, snippets: bool = True, as_is: bool = True) -> list[Suggestion]:
    """Everything that may be typed at *pos*: multi-line items indented for their column
    (*as_is*) or relative to the line's indentation; one line each without *snippets*."""
    lines = analysis.positions.lines
    context = cursor_context(lines, pos.line, pos.column, analysis.document, analysis.outline)
    if context is None or analysis.kind is None:
        return []
    replace = Span(Pos(pos.line, context.word_start), pos)
    owner = owner_of(analysis.kind, context.path)
    if owner is None:
        return []
    found: list[Suggestion]
    if context.where == "value":
        siblings = {k: v for k, v in context.present.items() if k != context.key}
        found = values(owner, context.key, siblings, replace) if context.key is not None else []
    elif owner in _ITEM_SNIPPETS and not context.in_flow:
        found = _snippet_items(_ITEM_SNIPPETS[owner], context, replace, dashed=context.dashed)
    elif owner == "fields":
        found = _new_field(context, replace)
    elif owner == "values":
        found = _value_keys(analysis, context, replace)
    else:
        siblings = context.present
        if owner == "params":  # which params a rule takes is its check's, one level up
            rule = analysis.value_at(context.path[:-1])
            if isinstance(rule, dict) and "check" in rule:
                siblings = {**siblings, "check": rule["check"]}
        found = keys(owner, context, replace, siblings)
        if owner == "entry" and context.dashed and not context.present:
            found += _snippet_items("entry", context, replace, dashed=True)
    if not snippets:
        found = [dataclasses.replace(s, insert=one_line(plain(s.insert), context.column), snippet=False) for s in found]
    elif not as_is:
        indent = len(lines[pos.line]) - len(lines[pos.line].lstrip(" "))
        found = [dataclasses.replace(s, insert=_relative(s.insert, indent)) for s in found]
    return found


def _relative(insert: str, indent: int) -> str:
    """*insert*'s later lines without the first *indent* columns (the client adds them back)."""
    first, *rest = insert.split("\n")
    pad = " " * indent
    return "\n".join([first, *(line[indent:] if line.startswith(pad) else line.lstrip(" ") for line in rest)])


def _flow(value: Any) -> str:
    """*value* as one line of flow-style YAML."""
    text = yaml.safe_dump(value, default_flow_style=True, width=2**30, sort_keys=False, allow_unicode=True)
    return text.removesuffix("\n").removesuffix("\n...").strip()


def one_line(text: str, column: int) -> str:
    """Block YAML *text*, written from *column* (its later lines indented for that), as one line
    that means the same there: a key with an empty block keeps only ``key: ``; a one-key
    mapping becomes ``key: {...}``, an item ``- {...}``, a mapping after a dash ``{...}``."""
    if "\n" not in text:
        return text
    try:
        value = yaml.safe_load(" " * column + text)
    except yaml.YAMLError:  # a declared field name ending in a line break: keep the first line
        return text.split("\n", 1)[0]
    if isinstance(value, list) and len(value) == 1:
        return "- " + _flow(value[0])
    if isinstance(value, dict) and len(value) == 1:
        ((key, inner),) = value.items()
        if inner is None or inner == [None]:
            return _flow(key) + ": "
        return _flow(key) + ": " + _flow(inner)
    return _flow(value)


def _indent_lines(body: list[str], column: int) -> str:
    return ("\n" + " " * column).join(body)


def keys(owner: str, context: CursorContext, replace: Span, siblings: Mapping[str, Any]) -> list[Suggestion]:
    """The keys of *owner* not yet in the mapping at the cursor, written for it (which keys
    *owner* has may depend on *siblings*: an entry's type, a rule's check)."""
    found = []
    table = keys_of(owner, siblings)
    for order, (name, key) in enumerate(table.items()):
        if name in context.present or (owner == "field" and name in ELEMENT_KEYS):
            continue
        if context.in_flow:
            insert = f"{name}: "
        elif key.choices:
            insert = f"{name}: " + _choice(key.choices)
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
                detail=key.type,
                documentation=keydocs.markdown(key),
                sort=f"{order:03d}",
            )
        )
    return found


def values(owner: str, name: str, siblings: dict[str, str], replace: Span) -> list[Suggestion]:
    """The documented values of the key *name* of *owner* (beside *siblings*), as written."""
    key = doc_for(owner, name, siblings)
    if key is None or not key.choices:
        return []
    return [
        Suggestion(
            choice,
            "value",
            choice,
            replace,
            detail=key.type,
            documentation=key.value_doc(choice) or "",
            sort=f"{order:03d}",
        )
        for order, choice in enumerate(key.choices)
    ]


def _snippet(snippet: Snippet, order: int, insert: str, replace: Span) -> Suggestion:
    """A snippet's completion: *insert* (its body, indented where it goes) shown as YAML."""
    return Suggestion(
        snippet.label,
        "snippet",
        insert,
        replace,
        snippet=True,
        detail=snippet.text,
        documentation="```yaml\n" + plain(insert) + "\n```",
        sort=f"1{order:02d}",
    )


def _snippet_items(owner: str, context: CursorContext, replace: Span, *, dashed: bool) -> list[Suggestion]:
    found = []
    for order, snippet in enumerate(snippets_of(owner)):
        body = yaml_lines(snippet.body)
        insert = _indent_lines(body, context.column) if dashed else "- " + _indent_lines(body, context.column + 2)
        found.append(_snippet(snippet, order, insert, replace))
    return found


def _new_field(context: CursorContext, replace: Span) -> list[Suggestion]:
    found = []
    for order, snippet in enumerate(snippets_of("field")):
        body = ["${1:name}:", *(_shifted(line) for line in yaml_lines(snippet.body, 2))]
        found.append(_snippet(snippet, order, _indent_lines(body, context.column), replace))
    return found


def _value_keys(analysis: Analysis, context: CursorContext, replace: Span) -> list[Suggestion]:
    declared: dict[str, str] = {}
    gate = analysis.report.gate
    if gate is not None and gate.declarations:
        declared = {str(k): spec.type for k, spec in gate.declarations.items()}
    else:
        outline = analysis.outline
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
