"""A client that does not watch files for the server (no dynamic registration of
``workspace/didChangeWatchedFiles``): a saved configuration file re-reads the settings, and a
configuration file changed on disk unseen is noticed when a document of its folder opens."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_lsp
from lsp_support import Client, capabilities, config, open_doc, until, write
from lsprotocol import types

FORM = 'fields:\n  age: {type: int}\nvalues:\n  age: "7"\n  aeg: 1\n'

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.slow]


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: Client, workspace: Path):
    write(workspace, "pyproject.toml", '[tool.formscript]\nignore = ["FS016"]\n')
    caps = capabilities()
    assert caps.workspace is not None
    caps.workspace.did_change_watched_files = None
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=caps,
            root_uri=workspace.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=workspace.as_uri(), name=workspace.name)],
        )
    )
    yield
    await lsp_client.shutdown_session()


def _codes(client: Client, uri: str) -> list[str]:
    found = client.published.get(uri)
    return [str(d.code) for d in found[-1].diagnostics] if found else []


async def test_configuration_saved_or_changed_unseen_is_read_again(client: Client, workspace: Path) -> None:
    assert not any(r.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES for r in client.registrations)
    sub = workspace / "pkg"
    uri = write(sub, "a.form.yaml", FORM)
    open_doc(client, uri, FORM)
    await until(lambda: _codes(client, uri) == ["FS005"])
    # saved in the editor (a folder above the documents'): the settings are read again at once
    pyproject = workspace / "pyproject.toml"
    write(workspace, "pyproject.toml", '[tool.formscript]\nignore = ["FS005"]\n')
    client.text_document_did_save(
        types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=pyproject.as_uri()))
    )
    await until(lambda: _codes(client, uri) == ["FS016"])
    # changed by another program: noticed when a document of that folder opens
    write(workspace, "pyproject.toml", '[tool.formscript]\nignore = ["FS016"]\n')
    other = write(sub, "b.form.yaml", FORM)
    open_doc(client, other, FORM)
    await until(lambda: _codes(client, uri) == ["FS005"] and _codes(client, other) == ["FS005"])
