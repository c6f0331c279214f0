"""Hover on keys and values of every kind; completion of keys, values, field names and
whole entries, also in half-typed YAML that does not parse."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_lsp
from lsp_support import Client, config, doc_id, open_doc, pos, rng, start, write
from lsprotocol import types

FORM = 'title: T\nfields:\n  age: {type: int, required: no}\n  ok:\n    type: str\nvalues:\n  age: "7"\n  ok: no\n'
SCRIPT = (
    "mode: auto\nresponses:\n  - type: error\n    kind: timeout\n"
    "    when: {prompt_contains: hi, has_tool: x}\n  - type: stream\n    chunks:\n"
    "      - {type: text, content: a}\n"
)
RULES = "rules:\n  - rule_id: r1\n    field: age\n    check: range\n    params: {min: 1}\n"
CALLS = "- prompt: hello\n  tools: [x]\n- just text\n"


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: Client, workspace: Path):
    await start(lsp_client, workspace)
    yield
    await lsp_client.shutdown_session()


pytestmark = pytest.mark.asyncio(loop_scope="module")


async def _hover(client: Client, uri: str, line: int, character: int) -> types.Hover | None:
    return await client.text_document_hover_async(
        types.HoverParams(text_document=doc_id(uri), position=pos(line, character))
    )


def _opened(client: Client, workspace: Path, name: str, text: str) -> str:
    uri = write(workspace, name, text)
    open_doc(client, uri, text)
    return uri


async def test_hover_on_form_keys(client: Client, workspace: Path) -> None:
    uri = _opened(client, workspace, "hover.form.yaml", FORM)
    title = await _hover(client, uri, 0, 2)
    assert title == types.Hover(
        contents=types.MarkupContent(
            kind=types.MarkupKind.Markdown,
            value=(
                "**`title`** (form spec): `str`, default `the spec file's path`\n\n"
                "The heading of the block sent before the prompt: `[Work Form: <title>]`.\n\n"
                "- ⚠ Must load as a string: an unquoted number, date or `yes`/`no` is not one, and "
                "the form is refused."
            ),
        ),
        range=rng(0, 0, 0, 5),
    )
    field = await _hover(client, uri, 2, 3)
    assert field is not None and field.range == rng(2, 2, 2, 5)
    assert field.contents.value == (  # type: ignore[union-attr]
        "**field `age`**: `int`, optional, no default\n\nValue: `7` (int), coerced from `'7'` (str)"
    )
    required = await _hover(client, uri, 2, 20)
    assert required is not None and required.range == rng(2, 19, 2, 27)
    assert required.contents.value.startswith(  # type: ignore[union-attr]
        "**`required`** (field declaration): `bool`, default `true`"
    )
    assert "`no` is False" in required.contents.value  # type: ignore[union-attr]
    declared_type = await _hover(client, uri, 4, 5)
    assert declared_type is not None and "`true`/`1`/`yes`" in declared_type.contents.value  # type: ignore[union-attr]


async def test_hover_on_form_values_shows_what_the_runtime_sees(client: Client, workspace: Path) -> None:
    uri = _opened(client, workspace, "values.form.yaml", FORM)
    coerced = await _hover(client, uri, 6, 8)
    assert coerced == types.Hover(
        contents=types.MarkupContent(
            kind=types.MarkupKind.Markdown, value="The runtime sees `7` (int), coerced from `'7'` (str)"
        ),
        range=rng(6, 7, 6, 10),
    )
    yaml11 = await _hover(client, uri, 7, 7)
    assert yaml11 is not None and yaml11.range == rng(7, 6, 7, 8)
    assert yaml11.contents.value == (  # type: ignore[union-attr]
        "The runtime sees `False` (bool), which is not a `str`: the form is refused\n\n"
        "YAML 1.1 reads the unquoted `no` as a boolean; quote it to keep the text."
    )
    required_no = await _hover(client, uri, 2, 30)
    assert required_no is not None
    assert required_no.contents.value.startswith("The runtime sees `False` (bool)")  # type: ignore[union-attr]
    value_key = await _hover(client, uri, 6, 3)
    assert value_key is not None
    assert value_key.contents.value.startswith("**value of field `age`** (`int`)")  # type: ignore[union-attr]


async def test_hover_on_a_value_whose_declaration_is_misspelt(client: Client, workspace: Path) -> None:
    """The field is declared, with a misspelt key: not "no field declares it"."""
    uri = _opened(
        client,
        workspace,
        "misspelt.form.yaml",
        "fields:\n  age: {tpye: int}\n  n: {type: int}\nvalues:\n  age: 7\n  x: 1\n",
    )
    declared = await _hover(client, uri, 4, 3)
    assert declared is not None and declared.contents.value == (  # type: ignore[union-attr]
        "**value of field `age`**: the field's declaration does not build (see the problem on it),"
        " so the gate refuses the form."
    )
    undeclared = await _hover(client, uri, 5, 2)
    assert undeclared is not None
    assert undeclared.contents.value == "**value `x`**: no field declares it, so the gate refuses the form."  # type: ignore[union-attr]


async def test_hover_on_script_keys(client: Client, workspace: Path) -> None:
    uri = _opened(client, workspace, "hover.script.yaml", SCRIPT)
    expectations = {
        (0, 1): "**`mode`** (script): `auto | positional | when_only`, default `auto`",
        (2, 5): "**`type`** (response): `text | tool_call | structured | stream | error`, required, no default",
        (3, 5): "**`kind`** (response): `rate_limit | timeout | server_error | bad_request | "
        "value_error`, default `value_error`",
        (4, 12): "**`prompt_contains`** (when matcher): `str | null`, default `null`",
        (4, 33): "**`has_tool`** (when matcher): `str | null`, default `null`",
        (7, 11): "**`type`** (stream chunk): `system | thinking | text | tool_use | tool_result "
        "| result | error`, required, no default",
        (7, 23): "**`content`** (stream chunk): `str | null`, default `null`",
    }
    for (line, character), first_line in expectations.items():
        found = await _hover(client, uri, line, character)
        assert found is not None, (line, character)
        assert found.contents.value.split("\n")[0] == first_line  # type: ignore[union-attr]
    contains = await _hover(client, uri, 4, 12)
    assert "case-insensitive" in contains.contents.value  # type: ignore[union-attr]
    assert "`prompt_regex` and `has_tool` are not evaluated" in contains.contents.value  # type: ignore[union-attr]
    timeout = await _hover(client, uri, 3, 12)
    assert timeout is not None and timeout.contents.value == (  # type: ignore[union-attr]
        "The runtime sees `'timeout'` (str)\n\n`timeout`: Raises `asyncio.TimeoutError` (the built-in `TimeoutError`)."
    )


async def test_hover_on_rules_and_calls(client: Client, workspace: Path) -> None:
    uri = _opened(client, workspace, "hover.rules.yaml", RULES)
    check = await _hover(client, uri, 3, 5)
    assert check is not None and check.contents.value.startswith(  # type: ignore[union-attr]
        "**`check`** (rule): `required | type | range | pattern | custom`"
    )
    minimum = await _hover(client, uri, 4, 14)
    assert minimum is not None and minimum.contents.value.startswith(  # type: ignore[union-attr]
        "**`min`** (rule params): `number`"
    )
    calls = _opened(client, workspace, "hover.calls.yaml", CALLS)
    tools = await _hover(client, calls, 1, 3)
    assert tools is not None and tools.contents.value.startswith(  # type: ignore[union-attr]
        "**`tools`** (call): `list`, default `[]`\n\nWith `prompt`: names of the tools"
    )


async def test_hover_in_text_that_does_not_parse(client: Client, workspace: Path) -> None:
    broken = "responses:\n  - type: text\n    when:\n      prompt_regex: [\n"
    uri = _opened(client, workspace, "broken.script.yaml", broken)
    found = await _hover(client, uri, 3, 8)
    assert found is not None and found.range == rng(3, 6, 3, 18)
    assert found.contents.value.startswith("**`prompt_regex`** (when matcher)")  # type: ignore[union-attr]
    assert await _hover(client, uri, 0, 20) is None


async def _complete(client: Client, uri: str, line: int, character: int) -> list[types.CompletionItem]:
    result = await client.text_document_completion_async(
        types.CompletionParams(text_document=doc_id(uri), position=pos(line, character))
    )
    assert isinstance(result, types.CompletionList)
    return list(result.items)


async def test_complete_missing_keys_with_documentation(client: Client, workspace: Path) -> None:
    text = "fields:\n  age:\n    type: int\n    re\n"
    uri = _opened(client, workspace, "keys.form.yaml", text)
    items = await _complete(client, uri, 3, 6)
    assert [i.label for i in items] == ["required", "default", "description"]
    assert items[0] == types.CompletionItem(
        label="required",
        kind=types.CompletionItemKind.Property,
        detail="bool",
        documentation=types.MarkupContent(kind=types.MarkupKind.Markdown, value=items[0].documentation.value),  # type: ignore[union-attr]
        sort_text="001",
        filter_text="required",
        insert_text_format=types.InsertTextFormat.Snippet,
        insert_text_mode=types.InsertTextMode.AsIs,
        text_edit=types.TextEdit(range=rng(3, 4, 3, 6), new_text="required: ${1|true,false|}"),
    )


async def test_complete_enum_values(client: Client, workspace: Path) -> None:
    text = "mode: \nresponses:\n  - type: error\n    kind: \n"
    uri = _opened(client, workspace, "enums.script.yaml", text)
    assert [i.label for i in await _complete(client, uri, 0, 6)] == ["auto", "positional", "when_only"]
    kinds = await _complete(client, uri, 3, 10)
    assert [i.label for i in kinds] == ["rate_limit", "timeout", "server_error", "bad_request", "value_error"]
    assert kinds[1].text_edit == types.TextEdit(range=rng(3, 10, 3, 10), new_text="timeout")
    assert kinds[1].documentation.value == "Raises `asyncio.TimeoutError` (the built-in `TimeoutError`)."  # type: ignore[union-attr]
    field_types = _opened(client, workspace, "types.form.yaml", "fields:\n  a: {type: }\n")
    assert [i.label for i in await _complete(client, field_types, 1, 11)] == [
        "str",
        "int",
        "float",
        "bool",
        "list",
        "dict",
    ]
    chunk = "responses:\n  - type: stream\n    chunks:\n      - type: \n"
    chunk_uri = _opened(client, workspace, "chunk.script.yaml", chunk)
    assert [i.label for i in await _complete(client, chunk_uri, 3, 14)] == [
        "system",
        "thinking",
        "text",
        "tool_use",
        "tool_result",
        "result",
        "error",
    ]


async def test_complete_declared_fields_in_values(client: Client, workspace: Path) -> None:
    text = "fields:\n  age: {type: int}\n  name: {type: str}\nvalues:\n  age: 3\n  \n  bad: [\n"
    uri = _opened(client, workspace, "names.form.yaml", text)
    items = await _complete(client, uri, 5, 2)
    assert [(i.label, i.detail, i.text_edit.new_text) for i in items] == [  # type: ignore[union-attr]
        ("name", "str", "name: $0")
    ]


async def test_complete_whole_entries_as_snippets(client: Client, workspace: Path) -> None:
    text = "version: 1\nresponses:\n  - type: text\n    content: hi\n  \n"
    uri = _opened(client, workspace, "snip.script.yaml", text)
    items = await _complete(client, uri, 4, 2)
    assert [i.label for i in items] == [
        "text response",
        "tool_call response",
        "structured response",
        "stream response",
        "error response",
    ]
    assert items[4].kind == types.CompletionItemKind.Snippet
    assert items[4].text_edit == types.TextEdit(
        range=rng(4, 2, 4, 2),
        new_text=(
            "- type: error\n    kind: ${1|rate_limit,timeout,server_error,bad_request,value_error|}\n"
            "    message: ${2:scripted error}"
        ),
    )


async def test_complete_keys_of_the_entry_type_in_half_typed_yaml(client: Client, workspace: Path) -> None:
    text = "responses:\n  - type: tool_call\n    name: x\n    ar\n  - type: [\n"
    uri = _opened(client, workspace, "half.script.yaml", text)
    items = await _complete(client, uri, 3, 6)
    assert [i.label for i in items] == ["arguments", "id", "when"]
    when = "responses:\n  - type: text\n    when:\n      prompt_contains: a\n      \n  - {\n"
    when_uri = _opened(client, workspace, "halfwhen.script.yaml", when)
    assert [i.label for i in await _complete(client, when_uri, 4, 6)] == [
        "prompt_regex",
        "has_tool",
        "after_calls",
        "call_index",
    ]
