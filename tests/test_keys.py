"""The one source of key knowledge (formscript.core.keys): complete against the core models
both ways, and the only text hover, completion and the JSON Schemas show for a key.

What lionagi 0.36.0 itself says about the same keys is checked in
tests/conformance/test_keys_conformance.py.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any, get_args

import pytest

from formscript.core import entries, keys
from formscript.core.calls import CALL_KEYS
from formscript.core.entries import CHUNK_TYPES, ERROR_KINDS, MODES, RESPONSE_TYPES
from formscript.core.fields import DECLARATION_KEYS, ELEMENT_KEYS, FIELD_TYPES, PYTHON_TYPES
from formscript.core.forms import FieldSpec, FieldType, WorkForm
from formscript.core.gate import TOP_LEVEL_KEYS
from formscript.core.rules import CHECK_KINDS, Rule
from formscript.core.script import SCRIPT_KEYS
from formscript.core.script_models import ENTRY_MODELS, ScriptHeader, StreamChunkSpec, WhenMatcher
from formscript.document.located import Pos
from formscript.lint.config import Settings
from formscript.lsp import keydocs
from formscript.lsp.analysis import analyse
from formscript.lsp.completion import complete
from formscript.lsp.hover import hover
from formscript.schemas import build_schema

ROOT = Path(__file__).resolve().parents[1]

MODELS: dict[str, Any] = {
    "form": WorkForm,
    "field": FieldSpec,
    "script": ScriptHeader,
    "when": WhenMatcher,
    "chunk": StreamChunkSpec,
    "rule": Rule,
    **{f"entry.{t}": model for t, model in ENTRY_MODELS.items()},
}
#: Owners no model declares; what documents their keys is checked below, one by one.
UNMODELLED = {"entry", "ruleset", "call", "payload", "message", *(o for o in keys.PARAM_OWNERS.values() if o)}


def _each(predicate: Callable[[keys.Key], bool] = lambda key: True) -> list[Any]:
    """Every key (that *predicate* holds for) as a test parameter."""
    return [pytest.param(key, id=f"{key.owner}.{key.name}") for key in keys.all_keys() if predicate(key)]


ALL_KEYS = _each()


# --------------------------------------------------------------------------- complete, both ways


def _written_keys(owner: str) -> set[str]:
    """The keys a file may write for *owner*, from the model's fields."""
    fields = set(MODELS[owner].model_fields)
    if owner == "form":
        return fields & set(TOP_LEVEL_KEYS)  # WorkForm also holds the form's state
    if owner == "field":
        return fields - {"name"}  # the mapping key, never written inside a declaration
    if owner.startswith("entry."):
        return fields - {"type", "when"}  # every entry's, documented once under "entry"
    return fields


def test_every_owner_is_a_model_or_accounted_for() -> None:
    assert set(keys.PROSE) == set(MODELS) | UNMODELLED


@pytest.mark.parametrize("owner", sorted(MODELS))
def test_every_model_field_has_prose_and_every_prose_key_is_a_model_field(owner: str) -> None:
    assert set(keys.PROSE[owner]) == _written_keys(owner)


def test_the_keys_every_entry_shares_are_on_every_entry_model() -> None:
    for response_type, model in ENTRY_MODELS.items():
        assert set(model.model_fields) == set(keys.PROSE["entry"]) | set(keys.PROSE[f"entry.{response_type}"])


def test_the_form_takes_only_the_gate_keys_which_are_workform_fields() -> None:
    assert set(TOP_LEVEL_KEYS) <= set(WorkForm.model_fields)
    assert tuple(keys.PROSE["form"]) == TOP_LEVEL_KEYS


def test_the_plain_key_tables_of_the_fast_paths_are_the_models_keys() -> None:
    assert set(DECLARATION_KEYS + ELEMENT_KEYS) == set(FieldSpec.model_fields) - {"name"}
    assert set(SCRIPT_KEYS) == set(ScriptHeader.model_fields)
    assert set(entries.MATCHER_KEYS) == set(WhenMatcher.model_fields)
    assert set(entries.CHUNK_KEYS) == set(StreamChunkSpec.model_fields)
    assert {t: set(k) for t, k in entries.ENTRY_KEYS.items()} == {
        t: set(m.model_fields) for t, m in ENTRY_MODELS.items()
    }


def test_a_calls_transcript_item_takes_the_documented_keys() -> None:
    assert set(keys.PROSE["call"]) == set(CALL_KEYS)


def _params_read_by(check: str) -> set[str]:
    """The ``rule.params`` keys core/rules.py's ``_check_<check>`` reads (parsed, not run)."""
    tree = ast.parse((ROOT / "server/formscript/core/rules.py").read_text(encoding="utf-8"))
    function = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == f"_check_{check}")
    read = set()
    for node in ast.walk(function):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get"
            and isinstance(node.func.value, ast.Attribute)
            and node.func.value.attr == "params"
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            read.add(node.args[0].value)
    return read


@pytest.mark.parametrize("check", CHECK_KINDS)
def test_rule_params_prose_covers_what_each_check_reads(check: str) -> None:
    owner = keys.PARAM_OWNERS[check]
    assert (set(keys.PROSE[owner]) if owner else set()) == _params_read_by(check)


# --------------------------------------------------------------------------- derived from the models


@pytest.mark.parametrize(
    ("owner", "name", "expected"),
    [
        ("field", "type", FIELD_TYPES),
        ("script", "mode", MODES),
        ("entry", "type", RESPONSE_TYPES),
        ("entry.error", "kind", ERROR_KINDS),
        ("chunk", "type", CHUNK_TYPES),
        ("rule", "check", CHECK_KINDS),
        ("params.type", "type", get_args(FieldType)),
    ],
)
def test_enum_values_are_the_cores(owner: str, name: str, expected: tuple[str, ...]) -> None:
    assert keys.table(owner)[name].choices == tuple(expected)


def test_the_type_check_takes_the_types_the_runtime_maps() -> None:
    assert tuple(keys.value_docs("type-check")) == tuple(PYTHON_TYPES)


@pytest.mark.parametrize("key", ALL_KEYS)
def test_documented_values_are_exactly_the_choices(key: keys.Key) -> None:
    if key.values is None:
        assert key.choices in ((), ("true", "false")), "an enum without value documentation"
    else:
        assert tuple(keys.value_docs(key.values)) == key.choices


@pytest.mark.parametrize("key", _each(lambda key: key.owner in MODELS))
def test_types_requiredness_and_defaults_come_from_the_model(key: keys.Key) -> None:
    info = MODELS[key.owner].model_fields[key.name]
    prose = keys.PROSE[key.owner][key.name]
    assert key.required is info.is_required()
    if prose.type is None:
        assert key.type == keys.render_type(info.annotation) or key.type == " | ".join(key.choices)
    if prose.default is None and not key.required:
        default = info.get_default(call_default_factory=True)
        assert key.default == keys.render_value(default), "a default the model does not have"


def test_the_entry_type_is_required_because_the_runtime_dispatches_on_it() -> None:
    key = keys.table("entry")["type"]
    assert key.required and key.default is None
    assert entries.plain_entry({"content": "x"}) is None


# --------------------------------------------------------------------------- one entry, three readers

_PARENT: dict[str, tuple[str, list[str], str]] = {
    # owner: (file kind, the lines opening it, the indent of its keys)
    "form": ("form", [], ""),
    "field": ("form", ["fields:", "  a:"], "    "),
    "script": ("script", [], ""),
    "entry": ("script", ["responses:", "  -"], "    "),
    "when": ("script", ["responses:", "  - type: text", "    when:"], "      "),
    "chunk": ("script", ["responses:", "  - type: stream", "    chunks:", "      -"], "        "),
    "ruleset": ("rules", [], ""),
    "rule": ("rules", ["rules:", "  -"], "    "),
    "params": ("rules", ["rules:", "  - check: {check}", "    params:"], "      "),
    "call": ("calls", ["-"], "  "),
    "payload": ("calls", ["- payload:"], "    "),
    "message": ("calls", ["- payload:", "    messages:", "      -"], "        "),
}


def _document(key: keys.Key, *, with_key: bool) -> tuple[str, str, Pos]:
    """A document of the kind that holds *key*: its owner open, one sibling written (the
    entry's ``type`` or the rule's ``check`` where they decide the keys), and *key* on the
    last line, or a blank line there to complete on. Returns the file name, the text and
    the position of the key (or the cursor)."""
    base, _, detail = key.owner.partition(".")
    kind, opening, indent = _PARENT[base]
    lines = [line.format(check=detail) for line in opening]
    sibling = next((f"{name}: 1" for name in keys.PROSE[key.owner] if name != key.name), None)
    if base == "entry":
        sibling = f"type: {detail}" if detail else ("content: 1" if key.name == "type" else "type: text")
    body: list[str] = []
    if sibling is not None and lines and lines[-1].endswith("-"):
        lines[-1] += " " + sibling
    elif sibling is not None:
        body = [indent + sibling]
    value = detail if key.name == "type" and base == "entry" and detail else "1"
    last = f"{indent}{key.name}: {value}" if with_key else indent
    text = "\n".join([*lines, *body, last]) + "\n"
    return f"x.{kind}.yaml", text, Pos(len(lines) + len(body), len(indent))


def _analysis(name: str, text: str) -> Any:
    return analyse(f"file:///w/{name}", text, 1, Settings(), "utf-16", 0)


@pytest.mark.parametrize("key", ALL_KEYS)
def test_hover_is_the_entrys_text_under_its_type_and_default(key: keys.Key) -> None:
    name, text, at = _document(key, with_key=True)
    shown = hover(_analysis(name, text), Pos(at.line, at.column + 1))
    assert shown is not None, text
    assert shown.markdown == keydocs.markdown(key)
    header, _, rest = shown.markdown.partition("\n\n")
    assert header.startswith(f"**`{key.name}`** ({keydocs.owner_title(key.owner)}): `{key.type}`, ")
    assert rest.startswith(key.markdown)
    for value in key.choices:
        meaning = key.value_doc(value)
        assert meaning is None or f"- `{value}`: {meaning}" in rest


@pytest.mark.parametrize("key", ALL_KEYS)
def test_completion_offers_the_key_with_the_hover_text(key: keys.Key) -> None:
    name, text, at = _document(key, with_key=False)
    offered = {s.label: s for s in complete(_analysis(name, text), at) if s.kind == "key"}
    if key.owner == "field" and key.name in ELEMENT_KEYS:
        assert key.name not in offered  # accepted, but rarely wanted: not suggested
        return
    assert key.name in offered, (text, sorted(offered))
    suggestion = offered[key.name]
    assert (suggestion.detail, suggestion.documentation) == (key.type, keydocs.markdown(key))
    if key.choices:
        assert suggestion.insert == f"{key.name}: ${{1|{','.join(key.choices)}|}}"


@pytest.mark.parametrize("key", _each(lambda key: bool(key.values)))
def test_completed_values_carry_the_value_documentation(key: keys.Key) -> None:
    name, text, at = _document(key, with_key=True)
    lines = text.split("\n")
    lines[at.line] = lines[at.line].partition(":")[0] + ": "  # the cursor after the key
    cursor = Pos(at.line, len(lines[at.line]))
    values = [s for s in complete(_analysis(name, "\n".join(lines)), cursor) if s.kind == "value"]
    assert [(s.label, s.documentation) for s in values] == [(v, key.value_doc(v)) for v in key.choices]


@cache
def _schema(kind: str) -> dict[str, Any]:
    return build_schema(kind)


def _schema_property(key: keys.Key) -> dict[str, Any] | None:
    """Where *key* is described in the generated schemas (None: the schemas do not model it)."""
    base, _, detail = key.owner.partition(".")
    form, script, rules, calls = (_schema(k) for k in ("form", "script", "rules", "calls"))
    call = calls["$defs"]["call"]["properties"]
    found: dict[str, Any] = {
        "form": form["properties"],
        "field": form["$defs"]["field-declaration"]["properties"],
        "script": script["properties"],
        "when": script["$defs"]["when-matcher"]["properties"],
        "chunk": script["$defs"]["stream-chunk"]["properties"],
        "ruleset": rules["properties"],
        "rule": rules["$defs"]["rule"]["properties"],
        "call": call,
        "payload": call["payload"]["properties"],
        "message": call["payload"]["properties"]["messages"]["items"]["properties"],
    }
    if base == "entry" and detail:
        return dict(script["$defs"][f"{detail}-response"]["properties"][key.name])
    if base == "entry":
        if key.name == "when":  # a reference: the matcher object carries the key's text
            return dict(script["$defs"]["when-matcher"])
        return dict(script["$defs"]["response-entry"]["properties"]["type"])
    if base == "params":
        for condition in rules["$defs"]["rule"]["allOf"]:
            if condition["if"]["properties"]["check"]["const"] == detail:
                return dict(condition["then"]["properties"]["params"]["properties"][key.name])
        return None
    return dict(found[base][key.name])


@pytest.mark.parametrize("key", ALL_KEYS)
def test_the_schema_describes_the_key_with_the_entrys_text(key: keys.Key) -> None:
    prop = _schema_property(key)
    if prop is None:
        assert key.owner == "params.custom"  # a callable cannot be written in a file
        return
    assert prop["markdownDescription"] == key.markdown
    assert prop["description"] == key.markdown.replace("**", "").replace("`", "")
    if key.values and "enum" in prop:
        assert prop["enum"] == list(key.choices)
        assert prop["markdownEnumDescriptions"] == [key.value_doc(v) for v in key.choices]


def test_each_response_types_schema_says_what_the_type_is() -> None:
    defs = build_schema("script")["$defs"]
    for response_type in RESPONSE_TYPES:
        meaning = keys.value_docs("response-type")[response_type]
        assert defs[f"{response_type}-response"]["properties"]["type"]["markdownDescription"].endswith(meaning)


def test_snippets_are_the_same_in_completion_and_the_schemas() -> None:
    script = build_schema("script")["$defs"]
    assert [s["body"] for s in script["response-entry"]["defaultSnippets"]] == [s.body for s in keys.snippets("entry")]
    assert [s["body"] for s in build_schema("rules")["$defs"]["rule"]["defaultSnippets"]] == [
        s.body for s in keys.snippets("rule")
    ]
    text = "responses:\n  - type: text\n    content: hi\n  \n"
    labels = [s.label for s in complete(_analysis("x.script.yaml", text), Pos(3, 2)) if s.kind == "snippet"]
    assert labels == [s.label for s in keys.snippets("entry")]


def test_the_drifted_texts_are_gone() -> None:
    written = [k.markdown for k in keys.all_keys()] + [
        doc for name in keys.VALUES for doc in keys.value_docs(name).values()
    ]
    text = "\n".join(written)
    assert "ClientResponseError" not in text
    assert "does not wait" not in text
    assert "recorded either way" not in text
    assert "in this order as" not in text
    delay = keys.table("entry.error")["delay_ms"].markdown
    assert "negative delay makes the sleep itself raise `ValueError` before the call is recorded" in delay
