"""Pushed diagnostics: on open, change and save; debounced; newest version wins; cleared on
close and never published for a closed document."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import pytest_lsp
from lsp_support import (
    Client,
    change_doc,
    config,
    open_doc,
    published,
    rng,
    start,
    until,
    write,
)
from lsprotocol import types

FORM = 'title: Review\nfields:\n  age: {type: int}\n  ok: {type: str}\nvalues:\n  age: "7"\n  ok: no\n  aeg: 3\n'


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: Client, workspace: Path):
    await start(lsp_client, workspace)
    yield
    await lsp_client.shutdown_session()


pytestmark = pytest.mark.asyncio(loop_scope="module")


async def test_open_publishes_lint_diagnostics(client: Client, workspace: Path) -> None:
    uri = write(workspace, "open.form.yaml", FORM)
    open_doc(client, uri, FORM)
    found = await published(client, uri, version=1)
    assert found == [
        types.Diagnostic(
            range=rng(5, 7, 5, 10),
            severity=types.DiagnosticSeverity.Information,
            code="FS016",
            source="formscript",
            message="'7' is a string; the runtime converts it to int 7",
        ),
        types.Diagnostic(
            range=rng(6, 6, 6, 8),
            severity=types.DiagnosticSeverity.Error,
            code="FS015",
            source="formscript",
            message="YAML 1.1 reads unquoted 'no' as the boolean False, not a string; quote it to keep the text 'no'",
        ),
        types.Diagnostic(
            range=rng(7, 2, 7, 5),
            severity=types.DiagnosticSeverity.Error,
            code="FS005",
            source="formscript",
            message="value 'aeg' has no field declaration; did you mean 'age'?",
        ),
    ]


async def test_change_publishes_for_the_new_version(client: Client, workspace: Path) -> None:
    uri = write(workspace, "change.form.yaml", FORM)
    open_doc(client, uri, FORM)
    await published(client, uri, version=1)
    fixed = FORM.replace("  ok: no\n", "  ok: 'no'\n").replace("  aeg: 3\n", "")
    change_doc(client, uri, fixed, 2)
    found = await published(client, uri, version=2)
    assert [(d.code, d.range) for d in found] == [("FS016", rng(5, 7, 5, 10))]


async def test_incremental_change(client: Client, workspace: Path) -> None:
    uri = write(workspace, "incremental.form.yaml", FORM)
    open_doc(client, uri, FORM)
    await published(client, uri, version=1)
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[types.TextDocumentContentChangePartial(range=rng(7, 2, 7, 5), text="age")],
        )
    )
    found = await published(client, uri, version=2)
    assert [(d.code, d.range) for d in found] == [("YM002", rng(5, 2, 5, 5)), ("FS015", rng(6, 6, 6, 8))]


async def test_burst_of_changes_publishes_the_newest_only_once_settled(client: Client, workspace: Path) -> None:
    uri = write(workspace, "burst.form.yaml", FORM)
    open_doc(client, uri, FORM)
    await published(client, uri, version=1)
    for version in range(2, 12):
        change_doc(client, uri, FORM.replace("aeg: 3", f"aeg: {version}"), version)
    await published(client, uri, version=11)
    await asyncio.sleep(0.3)
    versions = [p.version for p in client.published[uri]]
    assert versions[0] == 1 and versions[-1] == 11
    assert versions == sorted(versions), "an older version was published after a newer one"
    assert len(versions) < 6, f"the burst was not debounced: {versions}"


async def test_save_publishes_again(client: Client, workspace: Path) -> None:
    uri = write(workspace, "save.form.yaml", FORM)
    open_doc(client, uri, FORM)
    await published(client, uri, version=1)
    before = len(client.published[uri])
    client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    await until(lambda: len(client.published[uri]) > before)
    assert [d.code for d in client.published[uri][-1].diagnostics] == ["FS016", "FS015", "FS005"]


async def test_close_clears_and_nothing_is_published_afterwards(client: Client, workspace: Path) -> None:
    uri = write(workspace, "close.form.yaml", FORM)
    open_doc(client, uri, FORM)
    await published(client, uri, version=1)
    change_doc(client, uri, FORM + "extra: 1\n", 2)  # still pending when the close arrives
    client.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    await until(lambda: not client.published[uri][-1].diagnostics)
    count = len(client.published[uri])
    await asyncio.sleep(0.3)
    assert len(client.published[uri]) == count
    assert not client.published[uri][-1].diagnostics


async def test_other_kinds_are_linted(client: Client, workspace: Path) -> None:
    script = "mode: positional\nresponses:\n  - type: text\n    content: hi\n    when: {prompt_contains: x}\n"
    uri = write(workspace, "kinds.script.yaml", script)
    open_doc(client, uri, script)
    found = await published(client, uri, version=1)
    assert [(d.code, d.severity, d.range) for d in found] == [
        ("SC011", types.DiagnosticSeverity.Warning, rng(4, 4, 4, 8))
    ]
    unknown = "just: text\n"
    other = write(workspace, "notes.yaml", unknown)
    open_doc(client, other, unknown)
    assert await published(client, other, version=1) == []


async def test_unused_suppression_is_faded(client: Client, workspace: Path) -> None:
    text = "# formscript: ignore[FS005] typo kept on purpose\ntitle: T\n"
    uri = write(workspace, "fade.form.yaml", text)
    open_doc(client, uri, text)
    found = await published(client, uri, version=1)
    assert [(d.code, d.tags, d.range) for d in found] == [
        ("FSX001", (types.DiagnosticTag.Unnecessary,), rng(0, 0, 0, 48))
    ]
