"""Settings: the CLI's model from initializationOptions, workspace/configuration and
didChangeConfiguration, on top of the workspace's pyproject.toml, which is honoured and
re-read when it changes."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_lsp
from lsp_support import Client, config, open_doc, published, start, until, write
from lsprotocol import types

FORM = 'fields:\n  age: {type: int}\nvalues:\n  age: "7"\n  aeg: 1\n'


def _codes(client: Client, uri: str) -> list[tuple[str, types.DiagnosticSeverity | None]]:
    return [(str(d.code), d.severity) for d in client.published[uri][-1].diagnostics]


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: Client, workspace: Path):
    write(workspace, "pyproject.toml", '[tool.formscript]\nignore = ["FS016"]\n')
    await start(lsp_client, workspace, options={"severity": {"FS005": "warning"}})
    yield
    await lsp_client.shutdown_session()


pytestmark = [
    pytest.mark.asyncio(loop_scope="module"),
    pytest.mark.slow,  # settings round trips through a language server
]


async def test_pyproject_and_initialization_options(client: Client, workspace: Path) -> None:
    uri = write(workspace, "init.form.yaml", FORM)
    open_doc(client, uri, FORM)
    await published(client, uri, version=1)
    assert _codes(client, uri) == [("FS005", types.DiagnosticSeverity.Warning)]
    assert {r.method for r in client.registrations} == {
        types.WORKSPACE_DID_CHANGE_CONFIGURATION,
        types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
    }


async def test_pushed_configuration_change(client: Client, workspace: Path) -> None:
    uri = write(workspace, "pushed.form.yaml", FORM)
    open_doc(client, uri, FORM)
    await published(client, uri, version=1)
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"formscript": {"select": ["FS005", "FS016"], "ignore": []}})
    )
    # the new settings replace the old ones (severity gone); an empty list leaves the
    # pyproject's ignore in place, as editors send every setting, set or not
    await until(lambda: _codes(client, uri) == [("FS005", types.DiagnosticSeverity.Error)])


async def test_pulled_configuration_change(client: Client, workspace: Path) -> None:
    uri = write(workspace, "pulled.form.yaml", FORM)
    open_doc(client, uri, FORM)
    await published(client, uri, version=1)
    client.set_configuration({"severity": {"FS005": "hint"}, "ignore": ["FS016"]}, section="formscript")
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    await until(lambda: _codes(client, uri) == [("FS005", types.DiagnosticSeverity.Hint)])


async def test_invalid_settings_are_refused_with_a_message(client: Client, workspace: Path) -> None:
    uri = write(workspace, "invalid.form.yaml", FORM)
    open_doc(client, uri, FORM)
    await published(client, uri, version=1)
    before = _codes(client, uri)
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"formscript": {"severity": {"FS005": "loud"}}})
    )
    message = await until(
        lambda: [m for m in client.messages if "loud" in m.message or "severity for FS005" in m.message]
    )
    assert message[0].type == types.MessageType.Warning
    assert _codes(client, uri) == before


async def test_pyproject_change_is_reread(client: Client, workspace: Path) -> None:
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"formscript": {"severity": {"FS016": "error"}}})
    )
    sub = workspace / "pkg"
    write(sub, "pyproject.toml", '[tool.formscript]\nignore = ["FS005"]\n')
    uri = write(sub, "nested.form.yaml", FORM)
    open_doc(client, uri, FORM)
    await until(
        lambda: client.published.get(uri) and _codes(client, uri) == [("FS016", types.DiagnosticSeverity.Error)]
    )
    write(sub, "pyproject.toml", '[tool.formscript]\nignore = ["FS016"]\n')
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=(sub / "pyproject.toml").as_uri(), type=types.FileChangeType.Changed)]
        )
    )
    await until(lambda: _codes(client, uri) == [("FS005", types.DiagnosticSeverity.Error)])
