"""Hover: what a key means to the runtime, and what the runtime will see for a value."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from formscript import rules
from formscript.document import Pos, Span
from formscript.lsp import keydocs
from formscript.lsp.analysis import Analysis
from formscript.lsp.context import node_at, parent_with_item
from formscript.lsp.facade import Declared, KeyPath, doc_for, owner_of, type_label

_MAX_REPR = 300
_YAML11_TAGS = {
    "tag:yaml.org,2002:bool": "a boolean",
    "tag:yaml.org,2002:null": "null",
    "tag:yaml.org,2002:int": "an integer",
    "tag:yaml.org,2002:float": "a float",
    "tag:yaml.org,2002:timestamp": "a date",
}


@dataclass(frozen=True)
class HoverText:
    """Markdown for a span of the document."""

    markdown: str
    span: Span | None


def shown(value: Any) -> str:
    """``repr(value) (type)``, shortened."""
    text = repr(value)
    if len(text) > _MAX_REPR:
        text = text[:_MAX_REPR] + "…"
    return f"`{text}` ({type_label(value)})"


def hover(analysis: Analysis, pos: Pos) -> HoverText | None:
    """The hover at *pos*: key documentation or the runtime's view of a value (in a Python
    file, of the document whose literal holds *pos*)."""
    if analysis.report.parts is not None:
        part = analysis.part_at(pos)
        if part is None:
            return None
        analysis = part
    if analysis.kind is None:
        return None  # not a formscript file: stay out of the way of other YAML tools
    doc = analysis.document
    if doc is None:
        return _hover_unparsed(analysis, pos)
    hit = node_at(doc, pos)
    if hit is None:
        # inside an entry that does not parse (the rest of a tolerated script does): by lines
        return _hover_unparsed(analysis, pos) if any(p.rule is rules.YM001 for p in doc.problems) else None
    path, on_key = hit
    entry = doc.entry(path)
    if entry is None:
        return None
    if on_key:
        text = key_markdown(analysis, path)
        return HoverText(text, entry.key) if text else None
    text = value_markdown(analysis, path)
    return HoverText(text, entry.value) if text else None


def _siblings(analysis: Analysis, parent: KeyPath) -> dict[str, Any]:
    value = analysis.value_at(parent)
    return {str(k): v for k, v in value.items()} if isinstance(value, dict) else {}


def key_markdown(analysis: Analysis, path: KeyPath) -> str | None:
    """The documentation of the key at *path*."""
    kind = analysis.kind
    parent, key = path[:-1], path[-1]
    owner = owner_of(kind, parent)
    if owner is None or not isinstance(key, str):
        return None
    if owner == "fields":
        return _field_markdown(analysis, key)
    if owner == "values":
        return _value_key_markdown(analysis, key)
    found = doc_for(owner, key, _siblings(analysis, parent))
    if found is None:
        return f"`{key}` is not a key the runtime knows here ({keydocs.owner_title(owner)})."
    return keydocs.markdown(found)


def _declaration(analysis: Analysis, name: Any) -> Declared | None:
    gate = analysis.report.gate
    return gate.declarations.get(name) if gate is not None else None


def _field_markdown(analysis: Analysis, name: str) -> str:
    spec = _declaration(analysis, name)
    if spec is None:
        return f"**field `{name}`**: its declaration does not build, so the form is refused."
    need = "required" if spec.required else "optional"
    default = "no default" if spec.default is None else f"default {shown(spec.default)}"
    lines = [f"**field `{name}`**: `{spec.type}`, {need}, {default}"]
    if spec.description:
        lines += ["", spec.description]
    values = analysis.value_at(("values",))
    if isinstance(values, dict) and name in values:
        lines += ["", "Value: " + _runtime_value(analysis, name)]
    elif spec.default is not None:
        lines += ["", "No value: the default is used."]
    elif spec.required:
        lines += ["", "No value and no default: the form is refused."]
    return "\n".join(lines)


def _value_key_markdown(analysis: Analysis, name: str) -> str:
    spec = _declaration(analysis, name)
    if spec is None:
        fields = analysis.value_at(("fields",))
        if isinstance(fields, dict) and name in fields:
            return (
                f"**value of field `{name}`**: the field's declaration does not build (see the problem"
                " on it), so the gate refuses the form."
            )
        return f"**value `{name}`**: no field declares it, so the gate refuses the form."
    return f"**value of field `{name}`** (`{spec.type}`)\n\nThe runtime sees " + _runtime_value(analysis, name)


def _runtime_value(analysis: Analysis, name: Any) -> str:
    """What the form holds for field *name* after coercion."""
    raw = analysis.value_at(("values", name))
    gate = analysis.report.gate
    form = gate.form if gate is not None else None
    spec = _declaration(analysis, name)
    if form is None or spec is None:
        return shown(raw)
    failed = any(f.field == name and f.source == "field" for f in form.failures)
    if failed and raw is not None:
        return f"{shown(raw)}, which is not a `{spec.type}`: the form is refused"
    if raw is None:
        return "`None` (NoneType): missing, " + ("so the required field fails" if spec.required else "which is allowed")
    stored = form.values.get(name, raw)
    if type(stored) is not type(raw) or stored != raw:
        return f"{shown(stored)}, coerced from {shown(raw)}"
    return shown(stored)


def value_markdown(analysis: Analysis, path: KeyPath) -> str | None:
    """What the runtime sees for the scalar at *path*, with the YAML reading explained."""
    kind = analysis.kind
    entry = analysis.entry(path)
    raw = analysis.value_at(path)
    if kind == "form" and len(path) == 2 and path[0] == "values":
        text = "The runtime sees " + _runtime_value(analysis, path[1])
    else:
        text = "The runtime sees " + shown(raw)
    notes: list[str] = []
    scalar = entry.scalar if entry is not None else None
    surprising = scalar is not None and scalar.style == "" and scalar.tag in _YAML11_TAGS
    if scalar is not None and surprising and not isinstance(raw, str) and scalar.text != repr(raw):
        notes.append(
            f"YAML 1.1 reads the unquoted `{scalar.text}` as {_YAML11_TAGS[scalar.tag]}; quote it to keep the text."
        )
    key = path[-1] if path else None
    owner = owner_of(kind, path[:-1]) if path else None
    if owner is not None and isinstance(key, str) and isinstance(raw, str):
        found = doc_for(owner, key, _siblings(analysis, path[:-1]))
        meaning = keydocs.value_markdown(found, raw) if found is not None else None
        if meaning:
            notes.append(meaning)
    return "\n\n".join([text, *notes])


def _hover_unparsed(analysis: Analysis, pos: Pos) -> HoverText | None:
    """Key documentation from indentation alone, when the text does not parse."""
    lines = analysis.positions.lines
    if pos.line >= len(lines):
        return None
    outline = analysis.outline
    line = outline.line(pos.line)
    if line.key is None or not line.content <= pos.column <= line.content + len(line.key):
        return None
    owner = owner_of(analysis.kind, parent_with_item(outline, pos.line, line.content, line.dash))
    if owner is None or owner in ("fields", "values"):
        return None
    block = outline.block(pos.line, line.content, above=line.dash is None)
    siblings = {k: v for k, (_, v) in block.items()}
    siblings[line.key] = line.value
    found = doc_for(owner, line.key, siblings)
    if found is None:
        return None
    span = Span(Pos(pos.line, line.content), Pos(pos.line, line.content + len(line.key)))
    return HoverText(keydocs.markdown(found), span)
