"""The key knowledge (formscript.core.keys) against lionagi 0.36.0 itself: the same keys,
enum values, defaults and requiredness as its models, and the claims the prose makes about
what happens at run time (which exception each error kind raises, what a negative
``delay_ms`` does, when a call is recorded, the order values are sent in) observed on the
runtime, not on our reading of it."""

from __future__ import annotations

import asyncio
import re
from typing import Any, get_args

import pytest
import yaml

from formscript.core import keyprose, keys
from formscript.core.endpoint import raised_for
from formscript.core.entries import ERROR_KINDS, ErrorEntry
from formscript.core.rules import PATTERN_INPUT_CAP

from .engines import lionagi_missing_reason

_MISSING = lionagi_missing_reason()
pytestmark = pytest.mark.skipif(_MISSING is not None, reason=_MISSING or "")


def _lionagi_models() -> dict[str, Any]:
    from lionagi.testing import _types
    from lionagi.testing._script import ScriptModel
    from lionagi.work.form import FieldSpec
    from lionagi.work.rules import Rule

    found: dict[str, Any] = {
        "field": FieldSpec,
        "script": ScriptModel,
        "when": _types.WhenMatcher,
        "chunk": _types.StreamChunkSpec,
        "rule": Rule,
    }
    for model in (
        _types.TextResponse,
        _types.ToolCallResponse,
        _types.StructuredResponse,
        _types.StreamResponse,
        _types.ErrorResponse,
    ):
        found[f"entry.{model.model_fields['type'].default}"] = model
    return found


def _written(owner: str, model: Any) -> set[str]:
    fields = set(model.model_fields)
    if owner == "field":
        return fields - {"name"}
    if owner.startswith("entry."):
        return fields - {"type", "when"}
    return fields


def test_the_documented_keys_are_lionagis() -> None:
    from lionagi.cli.agent import _FORM_SPEC_ALLOWED_KEYS

    assert set(keys.PROSE["form"]) == set(_FORM_SPEC_ALLOWED_KEYS)
    models = _lionagi_models()
    for owner, model in models.items():
        assert set(keys.PROSE[owner]) == _written(owner, model), owner
    for owner in (o for o in models if o.startswith("entry.")):
        assert set(models[owner].model_fields) - set(keys.PROSE[owner]) == set(keys.PROSE["entry"])


def test_the_enum_values_are_lionagis() -> None:
    from lionagi.testing import _types
    from lionagi.testing._script import ScriptModel
    from lionagi.work.form import FieldType
    from lionagi.work.rules import CheckKind

    assert keys.table("entry")["type"].choices == get_args(_types.ResponseType)
    assert keys.table("entry.error")["kind"].choices == get_args(_types.ErrorKind)
    assert keys.table("chunk")["type"].choices == get_args(_types.StreamChunkSpec.model_fields["type"].annotation)
    assert keys.table("rule")["check"].choices == get_args(CheckKind)
    assert keys.table("field")["type"].choices == get_args(FieldType)
    assert keys.table("params.type")["type"].choices == get_args(FieldType)
    mode = ScriptModel.model_fields["mode"]
    pattern = next(m.pattern for m in mode.metadata if getattr(m, "pattern", None))
    assert all(re.fullmatch(pattern, m) for m in keys.table("script")["mode"].choices)
    assert not re.fullmatch(pattern, "other")


def test_defaults_and_requiredness_are_lionagis() -> None:
    for owner, model in _lionagi_models().items():
        for name, key in keys.table(owner).items():
            info = model.model_fields[name]
            assert key.required is info.is_required(), (owner, name)
            if key.required:
                continue
            factory = info.default_factory
            if factory is not None and factory not in (dict, list):
                # generated at run time (a uuid, the clock): the prose says so in words
                assert keys.PROSE[owner][name].default is not None, (owner, name)
            else:
                assert key.default == keys.render_value(info.get_default(call_default_factory=True)), (owner, name)


def test_an_absent_title_is_the_spec_path_and_an_entry_without_type_is_refused() -> None:
    from lionagi.cli.agent import _build_work_form
    from lionagi.testing._script import ScriptModel

    assert _build_work_form({}, "some/spec.form.yaml").title == "some/spec.form.yaml"
    assert keys.table("form")["title"].default == "the spec file's path"
    with pytest.raises(ValueError, match="unknown response type"):
        ScriptModel.model_validate({"responses": [{"content": "x"}]})
    assert keys.table("entry")["type"].required


@pytest.mark.parametrize("kind", ERROR_KINDS)
def test_each_error_kind_raises_what_the_prose_says(kind: str) -> None:
    from lionagi.testing._endpoint import _build_exception
    from lionagi.testing._types import ErrorResponse

    raised = _build_exception(ErrorResponse(kind=kind, message="m"))  # type: ignore[arg-type]
    said = keys.table("entry.error")["kind"].value_doc(kind)
    assert said is not None
    assert f"`{type(raised).__name__}`" in said, said
    status = getattr(raised, "status_code", None)
    if status is None:
        assert "status_code" not in said
    else:
        assert f"`status_code` {status}" in said
    if type(raised) is asyncio.TimeoutError:
        assert "`asyncio.TimeoutError`" in said
    # and the core's simulation raises the same
    simulated = raised_for(ErrorEntry(kind=kind, message="m"))
    assert (simulated["exception"], simulated["status_code"]) == (type(raised).__name__, status)


async def _serve(endpoint: Any, prompt: str, *, stream: bool = False) -> tuple[list[Any], BaseException | None]:
    payload = {"messages": [{"role": "user", "content": prompt}]}
    chunks: list[Any] = []
    try:
        if stream:
            async for chunk in endpoint.stream(payload):
                chunks.append(chunk)
        else:
            chunks.append(await endpoint._call(payload, {}))
    except Exception as exc:
        return chunks, exc
    return chunks, None


def test_a_negative_delay_raises_valueerror_before_the_call_is_recorded() -> None:
    from lionagi.service.resilience import APIClientError
    from lionagi.testing._endpoint import ScriptedEndpoint

    script = {
        "responses": [
            {"type": "error", "kind": "rate_limit", "message": "scripted", "delay_ms": -5},
            {"type": "text", "content": "second", "when": {"call_index": 0, "prompt_contains": "second"}},
        ]
    }

    async def run(stream: bool) -> None:
        endpoint = ScriptedEndpoint(script=script)
        chunks, failure = await _serve(endpoint, "first", stream=stream)
        assert isinstance(failure, ValueError) and not isinstance(failure, APIClientError)
        assert "scripted" not in str(failure)  # the sleep's error, not the scripted one
        assert chunks == [] and endpoint.calls == []  # nothing streamed, nothing recorded
        _, failure = await _serve(endpoint, "second", stream=stream)
        assert failure is None and endpoint.calls[0].index == 0  # the index did not move
        assert endpoint.script.cursor == 1  # but the error entry is used up

    asyncio.run(run(stream=False))
    asyncio.run(run(stream=True))
    prose = keys.table("entry.error")["delay_ms"].markdown
    for claim in ("`ValueError` before the call is recorded", "nothing is streamed", "same call index", "used up"):
        assert claim in prose
    simulated = raised_for(ErrorEntry(kind="rate_limit", message="scripted", delay_ms=-5))
    assert (simulated["exception"], simulated["recorded"]) == ("ValueError", False)


def test_a_positive_delay_records_the_call_then_raises() -> None:
    from lionagi.service.resilience import APIClientError
    from lionagi.testing._endpoint import ScriptedEndpoint

    async def run() -> None:
        endpoint = ScriptedEndpoint(script={"responses": [{"type": "error", "kind": "rate_limit", "delay_ms": 1}]})
        _, failure = await _serve(endpoint, "x")
        assert isinstance(failure, APIClientError) and len(endpoint.calls) == 1

    asyncio.run(run())
    assert "records the call, then raises" in keys.table("entry.error")["delay_ms"].markdown


def test_streamed_errors_yield_an_error_chunk_first() -> None:
    from lionagi.testing._endpoint import ScriptedEndpoint

    async def run() -> list[Any]:
        endpoint = ScriptedEndpoint(script={"responses": [{"type": "error", "message": "boom"}]})
        chunks, failure = await _serve(endpoint, "x", stream=True)
        assert isinstance(failure, ValueError)
        return chunks

    chunks = asyncio.run(run())
    assert [(c.type, c.content) for c in chunks] == [("error", "boom")]
    assert "first yields an `error` chunk carrying `message`" in keys.table("entry.error")["kind"].markdown


def test_an_empty_tool_call_id_is_generated() -> None:
    from lionagi.testing._endpoint import ScriptedEndpoint

    async def run() -> Any:
        endpoint = ScriptedEndpoint(script={"responses": [{"type": "tool_call", "name": "t", "id": ""}]})
        chunks, _ = await _serve(endpoint, "x")
        return chunks[0]["choices"][0]["message"]["tool_calls"][0]["id"]

    assert asyncio.run(run()).startswith("call_")
    assert "Missing or empty" in keys.table("entry.tool_call")["id"].markdown


def test_values_are_sent_in_declaration_order_defaults_included() -> None:
    from lionagi.cli.agent import _build_work_form, _form_to_context_block

    spec = {
        "fields": {"a": {"type": "int"}, "b": {"default": "x"}, "c": {"required": False}},
        "values": {"c": None, "a": "3"},
    }
    block = _form_to_context_block(_build_work_form(spec, "p.yaml"))
    assert block.split("\n")[1:] == ["  a: 3", "  b: 'x'", "  c: None"]
    assert "in the order the fields are declared, defaults included" in keys.table("form")["values"].markdown


def test_an_explicit_null_fails_a_required_field_even_with_a_default() -> None:
    from lionagi.cli.agent import _build_work_form

    form = _build_work_form({"fields": {"a": {"type": "int", "default": 3}}, "values": {"a": None}}, "p.yaml")
    assert form.status == "error"
    assert "even one with a default" in keys.table("form")["values"].markdown


def test_a_boolean_for_a_float_field_becomes_a_float() -> None:
    from lionagi.work.form import FieldSpec

    assert FieldSpec(name="a", type="int").coerce(True) is True
    assert repr(FieldSpec(name="a", type="float").coerce(True)) == "1.0"
    assert "`1.0` or `0.0`" in keys.table("field")["type"].markdown


def test_yaml_booleans_in_three_spellings_only() -> None:
    assert yaml.safe_load("[yes, Yes, YES, yEs, off]") == [True, True, True, "yEs", False]
    for text in (keyprose.YAML11, keys.table("rule")["enabled"].markdown):
        assert "lower, Capitalized or UPPER case" in text and "any case" not in text


def test_the_pattern_input_cap_is_lionagis() -> None:
    from lionagi.work.rules import REGEX_MAX_INPUT_LENGTH

    assert int(keyprose.PATTERN_INPUT_CAP_TEXT) == REGEX_MAX_INPUT_LENGTH == PATTERN_INPUT_CAP
