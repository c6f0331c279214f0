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
