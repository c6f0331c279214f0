"""The ``calls`` setting sent by an editor (initializationOptions, a pushed
didChangeConfiguration, a pulled workspace/configuration) names the transcript the Simulate
lens and the "served at call N" hints replay, for scripts without a sibling transcript and
with no project configuration."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import pytest_lsp
from lsp_support import Client, config, doc_id, open_doc, rng, start, write
from lsprotocol import types

SCRIPT = (
    "responses:\n  - type: text\n    content: hi\n  - type: text\n    content: weather\n"
    "    when: {prompt_contains: weather}\n  - type: text\n    content: never\n"
)
WEATHER_FIRST = "- what is the WEATHER\n- hello\n"
HELLO_ONLY = "- hello\n"


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: Client, workspace: Path):
    transcripts = workspace / "transcripts"
    write(transcripts, "init.calls.yaml", WEATHER_FIRST)
    options = {"calls": {"init-*.script.yaml": str(transcripts / "init.calls.yaml")}}
    await start(lsp_client, workspace, options=options)
    yield
    await lsp_client.shutdown_session()


pytestmark = [
    pytest.mark.asyncio(loop_scope="module"),
    pytest.mark.slow,  # simulations through a language server
]


def _opened(client: Client, folder: Path, name: str) -> str:
    uri = write(folder, name, SCRIPT)
    open_doc(client, uri, SCRIPT)
    return uri


async def _lens_titles(client: Client, uri: str) -> list[str]:
    found = await client.text_document_code_lens_async(types.CodeLensParams(text_document=doc_id(uri)))
    return [lens.command.title for lens in found or [] if lens.command is not None]


async def _lens_becomes(client: Client, uri: str, title: str) -> None:
    """Wait until the settings notification has been applied: the lens names *title*."""
    for _ in range(500):
        if await _lens_titles(client, uri) == [title]:
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"the lens never became {title!r}: {await _lens_titles(client, uri)}")


async def _hints(client: Client, uri: str) -> list[tuple[str, str]]:
    found = await client.text_document_inlay_hint_async(
        types.InlayHintParams(text_document=doc_id(uri), range=rng(0, 0, 20, 0))
    )
    return [(str(h.label), str(h.tooltip)) for h in found or []]


async def test_calls_from_initialization_options(client: Client, workspace: Path) -> None:
    uri = _opened(client, workspace / "bots", "init-bot.script.yaml")
    assert await _lens_titles(client, uri) == ["▶ Simulate with init.calls.yaml"]
    assert await _hints(client, uri) == [
        ("served at call 1", "simulated with init.calls.yaml"),
        ("served at call 0", "simulated with init.calls.yaml"),
        ("never served", "simulated with init.calls.yaml"),
    ]
    other = _opened(client, workspace / "bots", "other.script.yaml")
    assert await _lens_titles(client, other) == ["▶ Simulate"]
    assert await _hints(client, other) == []


async def test_calls_pushed_with_did_change_configuration(client: Client, workspace: Path) -> None:
    folder = workspace / "pushed"
    write(folder / "fixtures", "hello.calls.yaml", HELLO_ONLY)
    uri = _opened(client, folder, "pushed.script.yaml")
    assert await _hints(client, uri) == []
    # relative to the script's folder: there is no project configuration above it
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(
            settings={"formscript": {"calls": {"pushed.script.yaml": "fixtures/hello.calls.yaml"}}}
        )
    )
    await _lens_becomes(client, uri, "▶ Simulate with hello.calls.yaml")
    assert await _hints(client, uri) == [
        ("served at call 0", "simulated with hello.calls.yaml"),
        ("never served", "simulated with hello.calls.yaml"),
        ("never served", "simulated with hello.calls.yaml"),
    ]


async def test_calls_pulled_with_workspace_configuration(client: Client, workspace: Path) -> None:
    folder = workspace / "pulled"
    write(folder, "weather.calls.yaml", WEATHER_FIRST)
    uri = _opened(client, folder, "pulled.script.yaml")
    client.set_configuration({"calls": {"pulled.script.yaml": "weather.calls.yaml"}}, section="formscript")
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    await _lens_becomes(client, uri, "▶ Simulate with weather.calls.yaml")
    assert [label for label, _ in await _hints(client, uri)] == ["served at call 1", "served at call 0", "never served"]
