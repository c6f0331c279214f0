"""A failure inside a handler is logged and answered with an empty result; the server keeps
serving."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsp_support import HERE, Client, config, doc_id, open_doc, pos, published, start, until, write
from lsprotocol import types

pytestmark = pytest.mark.slow  # a second, deliberately faulty language server


@pytest_lsp.fixture(config=config([sys.executable, str(HERE / "faulty_server.py")]))
async def client(lsp_client: Client, tmp_path: Path):
    await start(lsp_client, tmp_path)
    lsp_client.root = tmp_path  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


async def test_failing_handlers_answer_empty_and_the_server_keeps_serving(client: Client) -> None:
    text = "title: T\nfields:\n  age: {type: int, required: false}\n"
    uri = write(client.root, "f.form.yaml", text)  # type: ignore[attr-defined]
    open_doc(client, uri, text)
    assert await published(client, uri, version=1) == []
    assert (
        await client.text_document_hover_async(types.HoverParams(text_document=doc_id(uri), position=pos(0, 1))) is None
    )
    folds = await client.text_document_folding_range_async(types.FoldingRangeParams(text_document=doc_id(uri)))
    assert list(folds or []) == []
    logged = [m for m in client.log_messages if m.type == types.MessageType.Error]
    assert [m.message for m in logged] == [
        "formscript failed while on_hover: RuntimeError: boom",
        "formscript failed while on_folding_range: RuntimeError: boom",
    ]
    items = await client.text_document_completion_async(
        types.CompletionParams(text_document=doc_id(uri), position=pos(3, 0))
    )
    assert isinstance(items, types.CompletionList)
    assert [i.label for i in items.items] == ["values"]
    # a notification handler (didSave) that fails is logged too; the server goes on
    client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=doc_id(uri)))
    await until(lambda: len([m for m in client.log_messages if m.type == types.MessageType.Error]) == 3)
    logged = [m for m in client.log_messages if m.type == types.MessageType.Error]
    assert logged[2].message == "formscript failed while did_save: RuntimeError: boom"
    again = await client.text_document_completion_async(
        types.CompletionParams(text_document=doc_id(uri), position=pos(3, 0))
    )
    assert isinstance(again, types.CompletionList) and [i.label for i in again.items] == ["values"]
