"""A client that supports ``workspace/inlayHint/refresh`` is asked to refresh its hints when a
calls transcript changes (the "served at call N" hints of its script depend on it), not when
another document does."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_lsp
from lsp_support import Client, capabilities, change_doc, config, open_doc, published, write
from lsprotocol import types

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.slow]


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: Client, workspace: Path):
    lsp_client.inlay_refreshes = 0  # type: ignore[attr-defined]

    @lsp_client.feature(types.WORKSPACE_INLAY_HINT_REFRESH)
    def on_refresh(ls: Client, params: None) -> None:
        ls.inlay_refreshes += 1  # type: ignore[attr-defined]

    caps = capabilities()
    assert caps.workspace is not None
    caps.workspace.inlay_hint = types.InlayHintWorkspaceClientCapabilities(refresh_support=True)
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=caps,
            root_uri=workspace.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=workspace.as_uri(), name=workspace.name)],
        )
    )
    yield
    await lsp_client.shutdown_session()


async def test_a_changed_calls_transcript_refreshes_the_hints(client: Client, workspace: Path) -> None:
    form = "title: T\n"
    form_uri = write(workspace, "f.form.yaml", form)
    open_doc(client, form_uri, form)
    change_doc(client, form_uri, "title: U\n", 2)
    await published(client, form_uri, version=2)
    assert client.inlay_refreshes == 0  # type: ignore[attr-defined]
    calls = "- hello\n"
    calls_uri = write(workspace, "s.calls.yaml", calls)
    open_doc(client, calls_uri, calls)
    change_doc(client, calls_uri, "- hello\n- bye\n", 2)
    await published(client, calls_uri, version=2)
    assert client.inlay_refreshes == 1  # type: ignore[attr-defined]
