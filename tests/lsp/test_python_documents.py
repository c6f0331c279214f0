"""Python test files in the language server: the scripts and forms they hand to lionagi get
diagnostics and hover, at their positions in the ``.py`` file; a Python file that hands
nothing gets nothing (issue 16)."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_lsp
from lsp_support import Client, config, doc_id, pos, published, rng, start, write
from lsprotocol import types

SOURCE = """from lionagi.testing import TestBranch
from lionagi.work import FieldSpec


class TestChat:
    async def test_greets(self):
        branch = TestBranch.from_responses([
            {"type": "text", "content": "Hello!", "when": {"prompt_contians": "hi"}},
            {"type": "tool_call", "name": "lookup", "arguments": {"id": 7}},
        ])


AGE = FieldSpec(name="age", type="integer")
"""
PLAIN = "import lionagi\n\n\ndef test_version():\n    assert lionagi.__version__\n"


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: Client, workspace: Path):
    await start(lsp_client, workspace)
    yield
    await lsp_client.shutdown_session()


pytestmark = pytest.mark.asyncio(loop_scope="module")


def _open_python(client: Client, workspace: Path, name: str, text: str) -> str:
    uri = write(workspace, name, text)
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="python", version=1, text=text)
        )
    )
    return uri


async def test_diagnostics_sit_inside_the_python_literals(client: Client, workspace: Path) -> None:
    uri = _open_python(client, workspace, "test_chat.py", SOURCE)
    found = await published(client, uri, version=1)
    assert [(d.code, d.range) for d in found] == [
        ("SC003", rng(7, 59, 7, 76)),
        ("FS010", rng(12, 33, 12, 42)),
    ]


async def test_hover_on_a_key_and_a_value_in_python(client: Client, workspace: Path) -> None:
    uri = _open_python(client, workspace, "test_hover.py", SOURCE)
    await published(client, uri, version=1)
    on_key = await client.text_document_hover_async(types.HoverParams(text_document=doc_id(uri), position=pos(8, 15)))
    assert on_key is not None and on_key.range == rng(8, 13, 8, 19)
    assert isinstance(on_key.contents, types.MarkupContent) and "**`type`**" in on_key.contents.value
    on_key = await client.text_document_hover_async(types.HoverParams(text_document=doc_id(uri), position=pos(8, 36)))
    assert on_key is not None and on_key.range == rng(8, 34, 8, 40)
    assert isinstance(on_key.contents, types.MarkupContent) and "**`name`** (response)" in on_key.contents.value
    on_value = await client.text_document_hover_async(types.HoverParams(text_document=doc_id(uri), position=pos(8, 25)))
    assert on_value is not None and on_value.range == rng(8, 21, 8, 32)
    assert isinstance(on_value.contents, types.MarkupContent) and "tool_call" in on_value.contents.value
    outside = await client.text_document_hover_async(types.HoverParams(text_document=doc_id(uri), position=pos(5, 10)))
    assert outside is None


async def test_a_python_file_that_hands_nothing_gets_nothing(client: Client, workspace: Path) -> None:
    uri = _open_python(client, workspace, "test_plain.py", PLAIN)
    assert await published(client, uri, version=1) == []
    hover = await client.text_document_hover_async(types.HoverParams(text_document=doc_id(uri), position=pos(0, 3)))
    assert hover is None


# --------------------------------------------------------------- completion, fixes, lenses

TYPING = """from lionagi.testing import TestBranch


async def test_typing():
    branch = TestBranch.from_responses([
        {"type": "tool_call", "name": "lookup", "argumnets": {}},
        {"type": "text", "co
    ])
"""
VALUE = """from lionagi.testing import ScriptModel

SCRIPT = ScriptModel.from_responses([{"type": "te"}])
"""
WHEN = """import lionagi.testing as lt

script = lt.ScriptModel.coerce([{"type": "text", "content": "x", "when": {"prompt_c": "hi"}}])
"""


async def _labels(client: Client, uri: str, line: int, column: int) -> list[tuple[str, str, types.Range | None]]:
    found = await client.text_document_completion_async(
        types.CompletionParams(text_document=doc_id(uri), position=pos(line, column))
    )
    assert isinstance(found, types.CompletionList)
    result = []
    for item in found.items:
        edit = item.text_edit
        assert isinstance(edit, types.TextEdit)
        result.append((item.label, edit.new_text, edit.range))
    return result


async def test_completion_of_keys_while_a_key_is_typed(client: Client, workspace: Path) -> None:
    uri = _open_python(client, workspace, "test_halfway.py", TYPING)
    items = await _labels(client, uri, 6, 28)
    # the text does not parse yet: the key being typed is completed, with its colon
    assert [(label, text) for label, text, _ in items] == [("content", '"content": '), ("when", '"when": ')]
    assert [r for _, _, r in items] == [rng(6, 25, 6, 28)] * 2


async def test_completion_of_enum_values_and_matcher_keys(client: Client, workspace: Path) -> None:
    uri = _open_python(client, workspace, "test_value.py", VALUE)
    items = await _labels(client, uri, 2, 49)
    assert [label for label, _, _ in items] == ["text", "tool_call", "structured", "stream", "error"]
    assert items[0][1:] == ('"text"', rng(2, 46, 2, 50))
    uri = _open_python(client, workspace, "test_when.py", WHEN)
    start = WHEN.splitlines()[2].index('"prompt_c"')
    items = await _labels(client, uri, 2, start + 5)
    assert [label for label, _, _ in items][:2] == ["prompt_contains", "prompt_regex"]
    assert items[0][1:] == ('"prompt_contains"', rng(2, start, 2, start + 10))


async def test_no_completion_outside_the_documents(client: Client, workspace: Path) -> None:
    uri = _open_python(client, workspace, "test_outside.py", VALUE)
    assert await _labels(client, uri, 0, 10) == []
    uri = _open_python(client, workspace, "test_plain_completion.py", PLAIN)
    assert await _labels(client, uri, 4, 10) == []


async def test_did_you_mean_is_an_exact_edit_of_the_python_source(client: Client, workspace: Path) -> None:
    text = TYPING.replace('{"type": "text", "co\n', '{"type": "text", "content": "ok"},\n')
    uri = _open_python(client, workspace, "test_fix.py", text)
    assert [d.code for d in await published(client, uri, version=1)] == ["SC003"]
    found = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=doc_id(uri),
            range=rng(5, 50, 5, 50),
            context=types.CodeActionContext(diagnostics=[], only=["quickfix"]),
        )
    )
    actions = [a for a in found or [] if isinstance(a, types.CodeAction)]
    assert [a.title for a in actions] == [
        "replace with 'arguments' (SC003)",
        "Suppress SC003 on this line (with a reason)",
    ]
    edit = actions[0].edit
    assert edit is not None and edit.changes is not None
    start = text.splitlines()[5].index('"argumnets"')
    assert [(e.range, e.new_text) for e in edit.changes[uri]] == [(rng(5, start, 5, start + 11), '"arguments"')]


async def test_a_suppression_comment_works_in_python(client: Client, workspace: Path) -> None:
    text = "from lionagi.testing import ScriptModel\n\n\ndef test_empty():\n    script = ScriptModel(responses=[])\n"
    uri = _open_python(client, workspace, "test_suppress.py", text)
    assert [d.code for d in await published(client, uri, version=1)] == ["SC016"]
    found = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=doc_id(uri),
            range=rng(4, 35, 4, 35),
            context=types.CodeActionContext(diagnostics=[], only=["quickfix"]),
        )
    )
    actions = [a for a in found or [] if isinstance(a, types.CodeAction)]
    assert [a.title for a in actions] == ["Suppress SC016 on this line (with a reason)"]
    assert actions[0].edit is not None and actions[0].edit.changes is not None
    (insert,) = actions[0].edit.changes[uri]
    assert (insert.range, insert.new_text) == (rng(4, 0, 4, 0), "    # formscript: ignore[SC016] reason\n")
    suppressed = text.replace("    script", "    # formscript: ignore[SC016] empty on purpose\n    script")
    uri = _open_python(client, workspace, "test_suppressed.py", suppressed)
    assert await published(client, uri, version=1) == []


LENSES = """from lionagi.testing import TestBranch
from lionagi.work import FieldSpec, WorkForm, fill_form

AGE = FieldSpec(name="age", type="int")


class TestFlows:
    async def test_chat(self):
        branch = TestBranch.from_text("hello")

    def test_fill(self):
        form = WorkForm(fields={"age": FieldSpec(name="age", type="int")})
        filled = fill_form(form, {"age": "7"})
"""


async def test_lenses_above_each_document_and_their_commands(client: Client, workspace: Path) -> None:
    uri = _open_python(client, workspace, "test_lenses.py", LENSES)
    found = await client.text_document_code_lens_async(types.CodeLensParams(text_document=doc_id(uri)))
    lenses = [
        (lens.range, lens.command.title, lens.command.command, lens.command.arguments)
        for lens in found or []
        if lens.command
    ]
    # a FieldSpec or WorkForm on its own declares; the fill_form is the form that is filled
    assert lenses == [
        (rng(8, 17, 8, 17), "▶ Simulate TestBranch.from_text", "formscript.simulate", (uri, 9)),
        (rng(12, 17, 12, 17), "▶ Dry run fill_form", "formscript.dryRun", (uri, 13)),
    ]
    path = workspace / "test_lenses.py"
    simulated = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="formscript.simulate", arguments=[uri, 9])
    )
    assert simulated == f"{path}:9: accepted, mode auto\n#0 text (line 9): positional\n"
    dry = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="formscript.dryRun", arguments=[f"{path}:13"])
    )
    assert isinstance(dry, str) and dry.startswith(
        f"{path}:13: accepted (status validated)\nvalues:\n  age: '7' (str) -> 7 (int)"
    )
    missing = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="formscript.simulate", arguments=[f"{path}:4"])
    )
    assert missing == f"{path}:4: no script is handed to lionagi on this line (lines with one: 9)"


async def test_a_python_file_without_documents_has_no_lenses(client: Client, workspace: Path) -> None:
    uri = _open_python(client, workspace, "test_no_lenses.py", PLAIN)
    assert not await client.text_document_code_lens_async(types.CodeLensParams(text_document=doc_id(uri)))


async def test_inlay_hints_beside_the_values_a_fill_form_coerces(client: Client, workspace: Path) -> None:
    uri = _open_python(client, workspace, "test_hints.py", LENSES)
    found = await client.text_document_inlay_hint_async(
        types.InlayHintParams(text_document=doc_id(uri), range=rng(0, 0, 20, 0))
    )
    line = LENSES.splitlines()[12]
    assert [(h.position, h.label) for h in found or []] == [(pos(12, line.index('"7"') + 3), "→ 7: int")]
    plain = _open_python(client, workspace, "test_no_hints.py", PLAIN)
    assert not await client.text_document_inlay_hint_async(
        types.InlayHintParams(text_document=doc_id(plain), range=rng(0, 0, 20, 0))
    )


NEGATIVE = """import pytest
from lionagi.testing import ScriptModel


def test_unknown_type_is_refused():
    with pytest.raises(ValueError):
        ScriptModel.from_responses([{"type": "made_up"}])


def test_plain_text_is_refused():
    with pytest.raises(ValueError):
        ScriptModel.from_responses([{"type": "text", "content": "ok"}])
"""


async def test_a_negative_test_is_quiet_and_a_wrong_expectation_flagged(client: Client, workspace: Path) -> None:
    """The editor shows what `formscript lint` shows: nothing for the refusal the first test
    expects, PY003 at the call whose expectation lionagi does not meet."""
    uri = _open_python(client, workspace, "test_negative.py", NEGATIVE)
    found = await published(client, uri, version=1)
    assert [(d.code, d.range.start.line) for d in found] == [("PY003", 11)]
    assert "DID NOT RAISE" in found[0].message


async def test_a_half_typed_test_keeps_the_other_documents_diagnostics(client: Client, workspace: Path) -> None:
    """Typing a new test (an unclosed list) does not take the file's other findings away;
    closing it brings the new document's own."""
    uri = _open_python(client, workspace, "test_typing.py", SOURCE)
    before = await published(client, uri, version=1)
    assert [d.code for d in before] == ["SC003", "FS010"]
    typing = SOURCE.replace(
        "\n\nAGE =", '\n\ndef test_new():\n    TestBranch.from_responses([{"type": "txt", "content":\n\n\nAGE ='
    )
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=typing)],
        )
    )
    during = await published(client, uri, version=2)
    assert [(d.code, d.range) for d in during] == [
        ("SC003", rng(7, 59, 7, 76)),
        ("FS010", rng(16, 33, 16, 42)),
    ]
    done = typing.replace('"content":\n', '"content": "ok"}])\n')
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=3),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=done)],
        )
    )
    after = await published(client, uri, version=3)
    assert [d.code for d in after] == ["SC003", "SC002", "FS010"]


async def test_run_commands_without_a_line_take_the_first_document(client: Client, workspace: Path) -> None:
    # a client may send only the URI: the first script (or form) of the Python file is run
    uri = _open_python(client, workspace, "test_first.py", LENSES)
    path = workspace / "test_first.py"
    simulated = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="formscript.simulate", arguments=[uri])
    )
    assert simulated == f"{path}:9: accepted, mode auto\n#0 text (line 9): positional\n"
    # the form filled on line 13, not the FieldSpec that declares on line 4
    dry = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="formscript.dryRun", arguments=[uri])
    )
    assert isinstance(dry, str) and dry.startswith(f"{path}:13: accepted (status validated)\n")
    plain = _open_python(client, workspace, "test_first_plain.py", PLAIN)
    plain_path = workspace / "test_first_plain.py"
    nothing = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="formscript.dryRun", arguments=[plain])
    )
    assert nothing == f"{plain_path}: no form is handed to lionagi here"
    with pytest.raises(Exception, match="expected the document's URI as the argument"):
        await client.workspace_execute_command_async(types.ExecuteCommandParams(command="formscript.dryRun"))
