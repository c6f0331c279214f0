"""The generated JSON Schemas: in sync with the code, valid, documented, and right on examples.

The examples also run through formscript's own checks, so each one records whether the schema
alone agrees with the runtime's verdict or only formscript can tell (schemas/README.md's table).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator

from formscript import schemas
from formscript.core.entries import RESPONSE_TYPES
from formscript.core.gate import check_form_spec
from formscript.core.script import check_script
from formscript.core.verdict import Verdict
from formscript.schemas import SCHEMA_KINDS, build_schema, schema_filename, schema_text

ROOT = Path(__file__).resolve().parents[1]
SCHEMA_DIR = ROOT / "schemas"


def _validator(kind: str) -> Draft202012Validator:
    return Draft202012Validator(build_schema(kind))


def _errors(kind: str, instance: Any) -> list[str]:
    found = _validator(kind).iter_errors(instance)
    return sorted(f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in found)


# --------------------------------------------------------------------------- generation


@pytest.mark.parametrize("kind", SCHEMA_KINDS)
def test_checked_in_schema_is_what_the_code_generates(kind: str) -> None:
    path = SCHEMA_DIR / schema_filename(kind)
    assert path.is_file(), f"{path} is missing; run python -m formscript.schemas"
    assert path.read_bytes() == schema_text(kind).encode("utf-8"), f"{path} is stale; run python -m formscript.schemas"


@pytest.mark.parametrize("kind", SCHEMA_KINDS)
def test_text_is_canonical(kind: str) -> None:
    text = schema_text(kind)
    assert text == schema_text(kind)
    assert text.endswith("}\n") and not text.endswith("\n\n")
    assert text == json.dumps(json.loads(text), indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    assert "\t" not in text and "\r" not in text


def test_check_mode_reports_stale_files(tmp_path: Path) -> None:
    assert schemas.main(["--check", str(tmp_path)]) == 1
    assert schemas.main([str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(schema_filename(k) for k in SCHEMA_KINDS)
    assert schemas.main(["--check", str(tmp_path)]) == 0
    (tmp_path / "script.schema.json").write_text("{}\n")
    assert schemas.stale_schemas(tmp_path) == [tmp_path / "script.schema.json"]


def test_unknown_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="form, script, rules, calls"):
        schema_text("workflow")


def test_kinds_use_the_lint_names_and_accept_the_file_stems() -> None:
    assert SCHEMA_KINDS == ("form", "script", "rules", "calls")
    assert schema_filename("form") == "form-spec.schema.json"
    assert schema_filename("rules") == "ruleset.schema.json"
    assert schema_text("form-spec") == schema_text("form")
    assert schema_text("ruleset") == schema_text("rules")


# --------------------------------------------------------------------------- shape


@pytest.mark.parametrize("kind", SCHEMA_KINDS)
def test_schema_is_valid_2020_12(kind: str) -> None:
    schema = build_schema(kind)
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == f"https://formscript.dev/schemas/{schema_filename(kind)}"
    assert schema["title"] and schema["description"] and schema["markdownDescription"]


def _resolve(root: dict[str, Any], ref: str) -> dict[str, Any]:
    assert ref.startswith("#/$defs/"), ref
    target: dict[str, Any] = root["$defs"][ref.removeprefix("#/$defs/")]
    return target


def _documented(schema: dict[str, Any]) -> bool:
    return all(isinstance(schema.get(k), str) and schema[k] for k in ("description", "markdownDescription"))


def _walk(root: dict[str, Any], schema: Any, where: str, overlay: frozenset[str], problems: list[str]) -> None:
    """Every key a schema declares is documented; ``then`` overlays may re-state known keys."""
    if not isinstance(schema, dict):
        return
    if "enum" in schema:
        for key in ("enumDescriptions", "markdownEnumDescriptions"):
            if len(schema.get(key, ())) != len(schema["enum"]):
                problems.append(f"{where}: {key} does not match enum")
    props = schema.get("properties", {})
    known = frozenset(name for name, sub in props.items() if _documented(sub) or "$ref" in sub)
    for name, sub in props.items():
        if "$ref" in sub:
            if not _documented(_resolve(root, sub["$ref"])):
                problems.append(f"{where}/{name}: {sub['$ref']} is undocumented")
        elif not _documented(sub) and name not in overlay:
            problems.append(f"{where}/{name}: no description/markdownDescription")
        _walk(root, sub, f"{where}/{name}", frozenset(), problems)
    for key in ("items", "additionalProperties", "propertyNames", "not"):
        _walk(root, schema.get(key), f"{where}/{key}", frozenset(), problems)
    for key in ("allOf", "anyOf", "oneOf"):
        for index, sub in enumerate(schema.get(key, [])):
            _walk(root, sub, f"{where}/{key}/{index}", overlay | known, problems)
    for key in ("then", "else"):
        _walk(root, schema.get(key), f"{where}/{key}", overlay | known, problems)
    for name, sub in schema.get("$defs", {}).items():
        if not _documented(sub):
            problems.append(f"$defs/{name}: no description/markdownDescription")
        _walk(root, sub, f"$defs/{name}", frozenset(), problems)


@pytest.mark.parametrize("kind", SCHEMA_KINDS)
def test_every_key_and_enum_is_documented(kind: str) -> None:
    root = build_schema(kind)
    problems: list[str] = []
    _walk(root, root, "#", frozenset(), problems)
    assert problems == []


def test_runtime_quirks_are_explained() -> None:
    script = schema_text("script")
    when = build_schema("script")["$defs"]["when-matcher"]["properties"]
    assert "case-insensitively" in when["prompt_contains"]["markdownDescription"]
    assert "not evaluated" in when["prompt_contains"]["markdownDescription"]
    assert "Ignored when `prompt_contains`" in when["has_tool"]["markdownDescription"]
    assert "yes`/`no`/`on`/`off`" in schema_text("form")
    declaration = build_schema("form")["$defs"]["field-declaration"]["properties"]
    for key in ("id", "created_at", "metadata"):
        assert declaration[key]["description"].startswith("Rarely wanted."), key
    assert "only the first set" in script


def test_closed_objects() -> None:
    form = build_schema("form")
    script = build_schema("script")
    defs = script["$defs"]
    assert form["additionalProperties"] is False
    assert set(form["properties"]) == {"title", "fields", "values"}
    declaration = form["$defs"]["field-declaration"]
    assert declaration["additionalProperties"] is False
    assert set(declaration["properties"]) == {
        "type",
        "required",
        "default",
        "description",
        "id",
        "created_at",
        "metadata",
    }
    assert script["additionalProperties"] is False
    for name in ("when-matcher", "stream-chunk", *(f"{t}-response" for t in RESPONSE_TYPES)):
        assert defs[name]["additionalProperties"] is False, name
    assert build_schema("rules")["$defs"]["rule"]["additionalProperties"] is False


def _instantiate(value: Any) -> Any:
    """A snippet body with every placeholder replaced by its default (or first choice)."""
    if isinstance(value, dict):
        return {_instantiate(k): _instantiate(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_instantiate(v) for v in value]
    if not isinstance(value, str):
        return value
    text = re.sub(r"\$\{\d+\|([^,|}]*)[^}]*\}", r"\1", value)
    text = re.sub(r"\$\{\d+:([^}]*)\}", r"\1", text)
    text = re.sub(r"\$\{\d+\}", "", text)
    return yaml.safe_load(text[1:]) if text.startswith("^") else text


def _snippet_sites(root: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    sites = [("#", root)]
    sites.extend((f"#/$defs/{name}", sub) for name, sub in root.get("$defs", {}).items())
    return [(where, sub) for where, sub in sites if "defaultSnippets" in sub]


@pytest.mark.parametrize("kind", SCHEMA_KINDS)
def test_default_snippets_produce_valid_instances(kind: str) -> None:
    root = build_schema(kind)
    sites = _snippet_sites(root)
    assert sites, f"{kind} has no defaultSnippets"
    for where, sub in sites:
        schema = root if where == "#" else {"$defs": root["$defs"], "$ref": where}
        validator = Draft202012Validator(schema)
        for snippet in sub["defaultSnippets"]:
            assert snippet["label"] and snippet["description"] and snippet["markdownDescription"]
            instance = _instantiate(snippet["body"])
            errors = [e.message for e in validator.iter_errors(instance)]
            assert errors == [], (where, snippet["label"], instance)


def test_snippets_cover_every_response_type_and_a_field_declaration() -> None:
    entry = build_schema("script")["$defs"]["response-entry"]
    types = {s["body"]["type"] for s in entry["defaultSnippets"]}
    assert types == set(RESPONSE_TYPES)
    declaration = build_schema("form")["$defs"]["field-declaration"]
    assert any("type" in s["body"] for s in declaration["defaultSnippets"])


# --------------------------------------------------------------------------- examples

VALID_FORM = {
    "title": "Signup",
    "fields": {
        "name": {"type": "str", "description": "Full name"},
        "age": {"type": "int", "required": False, "default": 18},
        "ratio": {"type": "float", "default": 1},
        "tags": {"type": "list", "default": []},
        "extra": {"type": "dict", "required": False},
        "ok": {
            "type": "bool",
            "default": True,
            "id": "7d3f1c52-6a0e-4f55-9a55-1f1f2b0e9b11",
            "created_at": 1700000000.0,
            "metadata": {"owner": "me"},
        },
    },
    "values": {"name": "Ada", "age": "36", "ok": "yes"},
}

# (case, instance, schema error fragment or None, does formscript/runtime reject it?)
FORM_CASES: list[tuple[str, Any, str | None, bool]] = [
    ("valid", VALID_FORM, None, False),
    ("empty", {}, None, False),
    ("null sections", {"fields": None, "values": None}, None, False),
    ("unknown top-level key", {**VALID_FORM, "valeus": {}}, "Additional properties are not allowed ('valeus'", True),
    ("inline $schema key", {"$schema": "x", "fields": {}}, "('$schema' was unexpected)", True),
    (
        "misspelt declaration key",
        {"fields": {"a": {"type": "str", "requird": True}}},
        "fields/a: Additional properties are not allowed ('requird'",
        True,
    ),
    ("name inside a declaration", {"fields": {"a": {"name": "a"}}}, "('name' was unexpected)", True),
    ("unknown field type", {"fields": {"a": {"type": "string"}}}, "fields/a/type: 'string' is not one", True),
    ("bad field name", {"fields": {"1a": {"type": "str"}}}, "'1a' does not match", True),
    ("null declaration", {"fields": {"a": None}}, "fields/a: None is not of type 'object'", True),
    (
        "default of the wrong type",
        {"fields": {"a": {"type": "int", "default": "x"}}},
        "fields/a/default: 'x' is not of type",
        True,
    ),
    ("default for an untyped field", {"fields": {"a": {"default": 3}}}, "fields/a/default: 3 is not of type", True),
    ("values without fields", {"values": {"a": 1}}, "'fields' is a required property", True),
    ("values with empty fields", {"fields": {}, "values": {"a": 1}}, "should be non-empty", True),
    ("title is not a string", {"title": True}, "title: True is not of type 'string'", True),
    ("wrong metadata class", {"fields": {"a": {"metadata": {"lion_class": "x.Y"}}}}, "was expected", True),
    # Only formscript sees these: they depend on other parts of the document or on coercion.
    ("undeclared value", {"fields": {"a": {}}, "values": {"a": "x", "b": 1}}, None, True),
    ("value that does not coerce", {"fields": {"a": {"type": "int"}}, "values": {"a": "x"}}, None, True),
    ("required field without a value", {"fields": {"a": {"type": "str"}}}, None, True),
]


@pytest.mark.parametrize(("case", "instance", "fragment", "rejected"), FORM_CASES, ids=[c[0] for c in FORM_CASES])
def test_form_spec_examples(case: str, instance: Any, fragment: str | None, rejected: bool) -> None:
    errors = _errors("form", instance)
    if fragment is None:
        assert errors == []
    else:
        assert any(fragment in e for e in errors), errors
    verdict = check_form_spec(instance, "spec.form.yaml").verdict
    assert (verdict is Verdict.REJECTED) is rejected, verdict


def test_yaml_11_booleans_are_caught_once_parsed_as_the_runtime_does() -> None:
    spec = yaml.safe_load("title: yes\nfields:\n  a: {type: str, default: no}\n")
    errors = _errors("form", spec)
    assert any(e.startswith("title: True") for e in errors), errors
    assert any(e.startswith("fields/a/default: False") for e in errors), errors


VALID_SCRIPT = {
    "version": 1,
    "mode": "auto",
    "responses": [
        {"type": "text", "content": "hi", "when": {"prompt_contains": "hello"}},
        {"type": "text", "content": "positional", "when": None},
        {
            "type": "tool_call",
            "name": "search",
            "arguments": {"q": "x"},
            "id": "call_1",
            "when": {"has_tool": "search", "after_calls": 1},
        },
        {"type": "structured", "data": {"answer": 42}, "when": {}},
        {
            "type": "stream",
            "chunks": [
                {"type": "thinking", "content": "hmm"},
                {"type": "tool_use", "tool_name": "t", "tool_id": "1", "tool_input": {"a": 1}},
                {"type": "tool_result", "tool_id": "1", "tool_output": [1, 2]},
                {"type": "text", "content": "a", "is_delta": True, "metadata": {"k": "v"}},
                {"type": "result"},
            ],
        },
        {
            "type": "error",
            "kind": "rate_limit",
            "message": "slow down",
            "delay_ms": 5,
            "when": {"call_index": 3, "prompt_regex": "^x"},
        },
        {"type": "error"},
    ],
}

SCRIPT_CASES: list[tuple[str, Any, str | None]] = [
    ("valid", VALID_SCRIPT, None),
    ("empty mapping", {}, None),
    (
        "unknown response type",
        {"responses": [{"type": "txt", "content": "x"}]},
        "responses/0/type: 'txt' is not one of",
    ),
    ("missing type", {"responses": [{"content": "x"}]}, "'type' is a required property"),
    (
        "misspelt entry key",
        {"responses": [{"type": "text", "content": "x", "contnet": "y"}]},
        "responses/0: Additional properties are not allowed ('contnet'",
    ),
    ("key of another type", {"responses": [{"type": "text", "content": "x", "name": "t"}]}, "('name' was unexpected)"),
    ("missing content", {"responses": [{"type": "text"}]}, "'content' is a required property"),
    (
        "misspelt matcher key",
        {"responses": [{"type": "text", "content": "x", "when": {"prompt_contians": "a"}}]},
        "responses/0/when: Additional properties are not allowed ('prompt_contians'",
    ),
    (
        "misspelt chunk key",
        {"responses": [{"type": "stream", "chunks": [{"type": "text", "contet": "a"}]}]},
        "responses/0/chunks/0: Additional properties are not allowed ('contet'",
    ),
    ("unknown chunk type", {"responses": [{"type": "stream", "chunks": [{"type": "delta"}]}]}, "'delta' is not one of"),
    ("unknown error kind", {"responses": [{"type": "error", "kind": "oops"}]}, "'oops' is not one of"),
    ("unknown mode", {"mode": "strict"}, "mode: 'strict' is not one of"),
    ("unknown top-level key", {"responses": [], "respones": []}, "Additional properties are not allowed ('respones'"),
    ("responses is not a list", {"responses": {"type": "text"}}, "is not of type 'array'"),
    ("entry is not a mapping", {"responses": ["hi"]}, "'hi' is not of type 'object'"),
    (
        "structured data is not a mapping",
        {"responses": [{"type": "structured", "data": [1]}]},
        "[1] is not of type 'object'",
    ),
]


@pytest.mark.parametrize(("case", "instance", "fragment"), SCRIPT_CASES, ids=[c[0] for c in SCRIPT_CASES])
def test_script_examples(case: str, instance: Any, fragment: str | None) -> None:
    errors = _errors("script", instance)
    if fragment is None:
        assert errors == []
    else:
        assert any(fragment in e for e in errors), errors
    # For a script's structure the schema and the runtime agree exactly.
    assert (check_script(instance).verdict is Verdict.REJECTED) is (fragment is not None)


def test_unknown_response_type_reports_only_the_type() -> None:
    errors = _errors("script", {"responses": [{"type": "txt", "content": "x", "foo": 1}]})
    assert len(errors) == 1 and errors[0].startswith("responses/0/type:"), errors


def test_matcher_conflicts_are_left_to_formscript() -> None:
    # prompt_contains silently wins over has_tool: valid to the schema and the runtime alike.
    script = {
        "responses": [
            {"type": "text", "content": "x", "when": {"prompt_contains": "a", "has_tool": "t"}},
        ]
    }
    assert _errors("script", script) == []
    assert check_script(script).verdict is Verdict.ACCEPTED


RULESET_CASES: list[tuple[str, Any, str | None]] = [
    (
        "valid",
        {
            "rules": [
                {"rule_id": "r1", "field": "name", "check": "required"},
                {"rule_id": "r2", "field": "age", "check": "type", "params": {"type": "int"}},
                {
                    "rule_id": "r3",
                    "field": "age",
                    "check": "range",
                    "params": {"min": 0, "max": None},
                    "message": "age out of range",
                    "enabled": False,
                },
                {
                    "rule_id": "r4",
                    "field": "code",
                    "check": "pattern",
                    "params": {"pattern": "^[A-Z]+$", "flags": 2},
                    "message": None,
                },
            ]
        },
        None,
    ),
    ("empty list", {"rules": []}, None),
    ("missing rules", {}, "'rules' is a required property"),
    (
        "misspelt rule key",
        {"rules": [{"rule_id": "r", "field": "f", "check": "required", "mesage": "x"}]},
        "Additional properties are not allowed ('mesage'",
    ),
    ("unknown check", {"rules": [{"rule_id": "r", "field": "f", "check": "regex"}]}, "'regex' is not one of"),
    ("missing field", {"rules": [{"rule_id": "r", "check": "required"}]}, "'field' is a required property"),
    (
        "pattern without a pattern",
        {"rules": [{"rule_id": "r", "field": "f", "check": "pattern"}]},
        "'params' is a required property",
    ),
    (
        "misspelt range bound",
        {"rules": [{"rule_id": "r", "field": "f", "check": "range", "params": {"mx": 3}}]},
        "('mx' was unexpected)",
    ),
    (
        "unknown type param",
        {"rules": [{"rule_id": "r", "field": "f", "check": "type", "params": {"type": "string"}}]},
        "'string' is not one of",
    ),
]


@pytest.mark.parametrize(("case", "instance", "fragment"), RULESET_CASES, ids=[c[0] for c in RULESET_CASES])
def test_ruleset_examples(case: str, instance: Any, fragment: str | None) -> None:
    errors = _errors("rules", instance)
    if fragment is None:
        assert errors == []
    else:
        assert any(fragment in e for e in errors), errors


CALLS_CASES: list[tuple[str, Any, str | None]] = [
    (
        "valid",
        [
            "hello there",
            {"prompt": "search for cats", "tools": ["search"]},
            {"prompt": "plain"},
            {
                "payload": {
                    "model": "m",
                    "messages": [{"role": "user", "content": "hi"}],
                    "tools": [{"type": "function", "function": {"name": "search"}}],
                }
            },
            {"payload": {"input": "raw"}},
        ],
        None,
    ),
    ("empty", [], None),
    ("not a list", {"prompt": "x"}, "is not of type 'array'"),
    ("misspelt key", [{"promt": "x"}], "Additional properties are not allowed ('promt'"),
    ("prompt and payload", [{"prompt": "x", "payload": {}}], "is not valid under"),
    ("tools with payload", [{"payload": {}, "tools": ["t"]}], "is not valid under"),
    ("neither", [{}], "is not valid under"),
    ("number item", [3], "3 is not of type 'string', 'object'"),
    ("tool names are strings", [{"prompt": "x", "tools": [{"name": "t"}]}], "is not of type 'string'"),
    (
        "chat calls",
        [
            {"chat": "hello"},
            {"chat": {"q": 1}, "guidance": "be brief", "context": [1, {"a": "b"}], "plain_content": None},
            {"chat": "find", "tool_schemas": [{"name": "t"}], "tools": [{"type": "function"}]},
        ],
        None,
    ),
    ("chat and prompt", [{"chat": "x", "prompt": "y"}], "is not valid under"),
    ("chat and payload", [{"chat": "x", "payload": {}}], "is not valid under"),
    ("a chat option without chat", [{"prompt": "x", "guidance": "g"}], "is not valid under"),
    ("plain_content is text", [{"chat": "x", "plain_content": 5}], "is not of type 'string', 'null'"),
    ("misspelt chat option", [{"chat": "x", "guidence": "g"}], "Additional properties are not allowed ('guidence'"),
]


@pytest.mark.parametrize(("case", "instance", "fragment"), CALLS_CASES, ids=[c[0] for c in CALLS_CASES])
def test_calls_examples(case: str, instance: Any, fragment: str | None) -> None:
    errors = _errors("calls", instance)
    if fragment is None:
        assert errors == []
    else:
        assert any(fragment in e for e in errors), errors


# --------------------------------------------------------------------------- shipped examples


def _examples() -> list[Path]:
    found = (ROOT / "examples").glob("**/*.*.*")
    return sorted(p for p in found if p.suffix in (".yaml", ".yml", ".json") and p.suffixes[-2] in (".form", ".script"))


@pytest.mark.parametrize("path", _examples(), ids=lambda p: p.name)
def test_no_false_positive_on_examples_the_runtime_accepts(path: Path) -> None:
    """A shipped form or script the runtime accepts is schema-valid: the schema never cries wolf."""
    from formscript.core.gate import load_spec_text
    from formscript.core.script import load_script_text

    text = path.read_text("utf-8")
    if path.suffixes[-2] == ".form":
        data = load_spec_text(text)
        accepted = check_form_spec(data, str(path)).verdict is Verdict.ACCEPTED
        kind = "form"
    else:
        data = load_script_text(text, str(path))
        accepted = check_script(data).verdict is Verdict.ACCEPTED
        kind = "script"
    if accepted:
        assert _errors(kind, data) == []
