"""Code lenses ("Dry run", "Simulate"), the commands behind them (and formscript.ruleDoc),
and inlay hints: coerced form values, "served at call N" / "never served"."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_lsp
from lsp_support import Client, change_doc, config, doc_id, open_doc, pos, rng, start, write
from lsprotocol import types

FORM = 'title: T\nfields:\n  age: {type: int}\n  ok: {type: bool}\nvalues:\n  age: "7"\n  ok: no\n'
SCRIPT = (
    "responses:\n  - type: text\n    content: hi\n  - type: text\n    content: weather\n"
    "    when: {prompt_contains: weather}\n  - type: text\n    content: never\n"
)
CALLS = "- what is the WEATHER\n- hello\n"


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: Client, workspace: Path):
    await start(lsp_client, workspace)
    yield
    await lsp_client.shutdown_session()


pytestmark = [
    pytest.mark.asyncio(loop_scope="module"),
    pytest.mark.slow,  # dry runs and simulations through a language server
]


def _opened(client: Client, workspace: Path, name: str, text: str) -> str:
    uri = write(workspace, name, text)
    open_doc(client, uri, text)
    return uri


async def _command(client: Client, command: str, *arguments: object) -> object:
    return await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=command, arguments=list(arguments))
    )


async def test_dry_run_lens_and_command(client: Client, workspace: Path) -> None:
    uri = _opened(client, workspace, "dry.form.yaml", FORM)
    found = await client.text_document_code_lens_async(types.CodeLensParams(text_document=doc_id(uri)))
    assert list(found or []) == [
        types.CodeLens(
            range=rng(0, 0, 0, 5),
            command=types.Command(title="▶ Dry run", command="formscript.dryRun", arguments=(uri,)),
        )
    ]
    text = await _command(client, "formscript.dryRun", uri)
    assert text == (
        f"{workspace / 'dry.form.yaml'}: accepted (status validated)\nvalues:\n"
        "  age: '7' (str) -> 7 (int)\n  ok: False (bool)\nthe model receives, before the "
        "prompt:\n" + "-" * 40 + "\n[Work Form: T]\n  age: 7\n  ok: False\n" + "-" * 40 + "\n"
    )


async def test_simulate_lens_and_command_with_sibling_calls(client: Client, workspace: Path) -> None:
    write(workspace, "sim.calls.yaml", CALLS)
    uri = _opened(client, workspace, "sim.script.yaml", SCRIPT)
    found = await client.text_document_code_lens_async(types.CodeLensParams(text_document=doc_id(uri)))
    assert [
        (lens.range, lens.command.title, lens.command.command)  # type: ignore[union-attr]
        for lens in found or []
    ] == [(rng(0, 0, 0, 9), "▶ Simulate with sim.calls.yaml", "formscript.simulate")]
    text = await _command(client, "formscript.simulate", uri)
    assert text == (
        f"{workspace / 'sim.script.yaml'}: accepted, mode auto\n"
        "call 0: entry #1 (line 4, text) by prompt_contains 'weather'\n    text 'weather'\n"
        "call 1: entry #0 (line 2, text) by positional\n    text 'hi'\nnever served: #2\n"
    )


async def test_inlay_hints_on_form_values(client: Client, workspace: Path) -> None:
    uri = _opened(client, workspace, "hints.form.yaml", FORM + "  bad: 1\n")
    hints = await client.text_document_inlay_hint_async(
        types.InlayHintParams(text_document=doc_id(uri), range=rng(0, 0, 20, 0))
    )
    assert [(h.position, h.label, h.tooltip) for h in hints or []] == [
        (pos(5, 10), "→ 7: int", "the runtime sees `7` (int)"),
        (pos(6, 8), "→ False: bool", "the runtime sees `False` (bool)"),
        (pos(7, 8), "✗ undeclared", "no field declares this value; the gate refuses it"),
    ]
    some = await client.text_document_inlay_hint_async(
        types.InlayHintParams(text_document=doc_id(uri), range=rng(6, 0, 6, 9))
    )
    assert [h.label for h in some or []] == ["→ False: bool"]


async def test_inlay_hint_on_a_value_whose_declaration_is_misspelt(client: Client, workspace: Path) -> None:
    uri = _opened(client, workspace, "misspelt.form.yaml", "fields:\n  age: {tpye: int}\nvalues:\n  age: 7\n  x: 1\n")
    hints = await client.text_document_inlay_hint_async(
        types.InlayHintParams(text_document=doc_id(uri), range=rng(0, 0, 9, 0))
    )
    assert [(h.position, h.label) for h in hints or []] == [
        (pos(3, 8), "✗ declaration refused"),
        (pos(4, 6), "✗ undeclared"),
    ]


async def test_inlay_hints_from_the_simulation(client: Client, workspace: Path) -> None:
    write(workspace, "served.calls.yaml", CALLS)
    uri = _opened(client, workspace, "served.script.yaml", SCRIPT)
    hints = await client.text_document_inlay_hint_async(
        types.InlayHintParams(text_document=doc_id(uri), range=rng(0, 0, 20, 0))
    )
    assert [(h.position, h.label) for h in hints or []] == [
        (pos(1, 14), "served at call 1"),
        (pos(3, 14), "served at call 0"),
        (pos(6, 14), "never served"),
    ]
    # an edit to the open calls transcript is seen without saving
    calls_uri = (workspace / "served.calls.yaml").as_uri()
    open_doc(client, calls_uri, CALLS)
    change_doc(client, calls_uri, "- hello\n- weather\n- more\n", 2)
    hints = await client.text_document_inlay_hint_async(
        types.InlayHintParams(text_document=doc_id(uri), range=rng(0, 0, 20, 0))
    )
    assert [h.label for h in hints or []] == ["served at call 0", "served at call 1", "served at call 2"]


async def test_no_simulation_hints_without_a_calls_file(client: Client, workspace: Path) -> None:
    uri = _opened(client, workspace, "alone.script.yaml", SCRIPT)
    hints = await client.text_document_inlay_hint_async(
        types.InlayHintParams(text_document=doc_id(uri), range=rng(0, 0, 20, 0))
    )
    assert list(hints or []) == []


async def test_rule_doc_command(client: Client) -> None:
    text = await _command(client, "formscript.ruleDoc", "FS015")
    assert isinstance(text, str)
    from formscript import rules

    assert text == rules.FS015.page()
    assert text.startswith("# FS015 yaml11-surprise\n") and "## Passes" in text
    assert await _command(client, "formscript.ruleDoc", "nope") == ("No formscript rule is called 'nope'.")


async def test_simulation_uses_the_transcript_named_in_settings(client: Client, workspace: Path) -> None:
    folder = workspace / "shared-calls"
    folder.mkdir(exist_ok=True)
    (folder / "formscript.toml").write_text('[calls]\n"*.script.yaml" = "common.calls.yaml"\n', encoding="utf-8")
    write(folder, "common.calls.yaml", CALLS)
    uri = _opened(client, folder, "bot.script.yaml", SCRIPT)
    found = await client.text_document_code_lens_async(types.CodeLensParams(text_document=doc_id(uri)))
    assert [lens.command.title for lens in found or []] == [  # type: ignore[union-attr]
        "▶ Simulate with common.calls.yaml"
    ]
    text = await _command(client, "formscript.simulate", uri)
    assert text == (
        f"{folder / 'bot.script.yaml'}: accepted, mode auto\n"
        "call 0: entry #1 (line 4, text) by prompt_contains 'weather'\n    text 'weather'\n"
        "call 1: entry #0 (line 2, text) by positional\n    text 'hi'\nnever served: #2\n"
    )
    # the inlay hints replay the same configured transcript as the lens
    hints = await client.text_document_inlay_hint_async(
        types.InlayHintParams(text_document=doc_id(uri), range=rng(0, 0, 20, 0))
    )
    assert [(h.label, h.tooltip) for h in hints or []] == [
        ("served at call 1", "simulated with common.calls.yaml"),
        ("served at call 0", "simulated with common.calls.yaml"),
        ("never served", "simulated with common.calls.yaml"),
    ]
