"""A client that sends a root but no workspace folders (``rootUri`` only, as older clients
do): the root is the workspace, whose files workspace diagnostics cover."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_lsp
from lsp_support import Client, capabilities, config, write
from lsprotocol import types

FORM = "fields:\n  age: {type: int}\nvalues:\n  age: seven\n"

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.slow]


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: Client, workspace: Path):
    write(workspace, "a.form.yaml", FORM)
    write(workspace, "sub/b.script.yaml", "responses: []\n")
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=capabilities(pull=True), root_uri=workspace.as_uri())
    )
    yield
    await lsp_client.shutdown_session()


async def test_the_root_is_the_workspace(client: Client, workspace: Path) -> None:
    report = await client.workspace_diagnostic_async(types.WorkspaceDiagnosticParams(previous_result_ids=[]))
    codes = {item.uri: [d.code for d in item.items] for item in report.items}
    assert codes == {
        (workspace / "a.form.yaml").as_uri(): ["FS014"],
        (workspace / "sub" / "b.script.yaml").as_uri(): ["SC016"],
    }
