"""Pulled diagnostics: textDocument/diagnostic and workspace/diagnostic (with progress and
cancellation) when the client supports them; nothing pushed then."""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path

import pytest
import pytest_lsp
from lsp_support import Client, change_doc, config, doc_id, open_doc, rng, start, until, write
from lsprotocol import types
from pygls.exceptions import JsonRpcRequestCancelled

FORM = "fields:\n  age: {type: int}\nvalues:\n  age: seven\n"
GOOD = "fields:\n  age: {type: int}\nvalues:\n  age: 7\n"


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: Client, workspace: Path):
    write(workspace, "a.form.yaml", FORM)
    write(workspace, "sub/b.script.yaml", "responses: []\n")
    write(workspace, "c.form.yaml", GOOD)
    write(workspace, "notes.txt", "not ours\n")
    write(workspace, "node_modules/x.form.yaml", FORM)
    for n in range(150):
        write(workspace, f"many/m{n:03d}.form.yaml", GOOD)
    await start(lsp_client, workspace, pull=True)
    yield
    await lsp_client.shutdown_session()


pytestmark = [
    pytest.mark.asyncio(loop_scope="module"),
    pytest.mark.slow,  # pull diagnostics through a language server
]


async def test_document_pull_full_then_unchanged(client: Client, workspace: Path) -> None:
    uri = (workspace / "a.form.yaml").as_uri()
    open_doc(client, uri, FORM)
    report = await client.text_document_diagnostic_async(types.DocumentDiagnosticParams(text_document=doc_id(uri)))
    assert isinstance(report, types.RelatedFullDocumentDiagnosticReport)
    assert [(d.code, d.severity, d.range, d.source) for d in report.items] == [
        ("FS014", types.DiagnosticSeverity.Error, rng(3, 7, 3, 12), "formscript")
    ]
    again = await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=doc_id(uri), previous_result_id=report.result_id)
    )
    assert isinstance(again, types.RelatedUnchangedDocumentDiagnosticReport)
    assert again.result_id == report.result_id
    change_doc(client, uri, GOOD, 2)
    fresh = await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=doc_id(uri), previous_result_id=report.result_id)
    )
    assert isinstance(fresh, types.RelatedFullDocumentDiagnosticReport)
    assert list(fresh.items) == []
    await asyncio.sleep(0.2)
    assert client.published == {}, "a pull client must not receive pushed diagnostics"


async def test_workspace_pull_with_progress(client: Client, workspace: Path) -> None:
    token = "ws-" + uuid.uuid4().hex
    client.progress_reports[token] = []
    report = await client.workspace_diagnostic_async(
        types.WorkspaceDiagnosticParams(previous_result_ids=[], work_done_token=token)
    )
    by_uri = {item.uri: item for item in report.items}
    assert len(by_uri) == 153  # a, b, c and the 150 others; node_modules and notes skipped
    script = by_uri[(workspace / "sub" / "b.script.yaml").as_uri()]
    assert [d.code for d in script.items] == ["SC016"]
    assert list(by_uri[(workspace / "c.form.yaml").as_uri()].items) == []
    kinds = [p.kind for p in client.progress_reports[token]]
    assert kinds[0] == "begin" and kinds[-1] == "end" and "report" in kinds
    # unchanged files come back as unchanged
    previous = [types.PreviousResultId(uri=i.uri, value=i.result_id) for i in report.items if i.result_id]
    again = await client.workspace_diagnostic_async(types.WorkspaceDiagnosticParams(previous_result_ids=previous))
    assert {i.kind for i in again.items} == {"unchanged"}


async def test_workspace_pull_honours_progress_cancel(client: Client) -> None:
    # The cancel goes out before the server has registered the token (it may even overtake the
    # work): the server must still honour it, so the answer is deterministic: nothing checked.
    token = "cancel-" + uuid.uuid4().hex
    client.progress_reports[token] = []
    client.window_work_done_progress_cancel(types.WorkDoneProgressCancelParams(token=token))
    report = await client.workspace_diagnostic_async(
        types.WorkspaceDiagnosticParams(previous_result_ids=[], work_done_token=token)
    )
    assert list(report.items) == []


async def test_workspace_pull_honours_cancel_request(client: Client, workspace: Path) -> None:
    msg_id = "req-" + uuid.uuid4().hex
    pending = asyncio.ensure_future(
        client.protocol.send_request_async(
            types.WORKSPACE_DIAGNOSTIC, types.WorkspaceDiagnosticParams(previous_result_ids=[]), msg_id=msg_id
        )
    )
    await asyncio.sleep(0)
    client.protocol.notify(types.CANCEL_REQUEST, types.CancelParams(id=msg_id))
    with pytest.raises(JsonRpcRequestCancelled):
        await pending
    # the server keeps serving
    uri = (workspace / "c.form.yaml").as_uri()
    report = await client.text_document_diagnostic_async(types.DocumentDiagnosticParams(text_document=doc_id(uri)))
    assert isinstance(report, types.RelatedFullDocumentDiagnosticReport)
    assert list(report.items) == []


async def test_changed_settings_ask_the_client_to_pull_again(client: Client, workspace: Path) -> None:
    before = client.diagnostic_refresh_count
    uri = (workspace / "a.form.yaml").as_uri()
    open_doc(client, uri, FORM)
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"formscript": {"severity": {"FS014": "warning"}}})
    )
    await until(lambda: client.diagnostic_refresh_count > before)
    assert uri not in client.published  # pulled, never pushed
    found = await client.text_document_diagnostic_async(types.DocumentDiagnosticParams(text_document=doc_id(uri)))
    assert isinstance(found, types.RelatedFullDocumentDiagnosticReport)
    assert [(d.code, d.severity) for d in found.items] == [("FS014", types.DiagnosticSeverity.Warning)]
