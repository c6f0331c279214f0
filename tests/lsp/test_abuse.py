"""Reliability: the server never falls over.

* Random incremental edit sequences on a form and a script end in exactly the diagnostics
  a fresh lint of the final text gives (one of the scripts is long, so the server's
  incremental path answers most edits; tests/test_incremental.py checks that path after every
  edit, in-process). Seeded: ``FORMSCRIPT_LSP_FUZZ_SEQUENCES`` (25),
  ``FORMSCRIPT_LSP_FUZZ_EDITS`` (30 per document at most) and ``FORMSCRIPT_LSP_FUZZ_SEED``
  explore more; a failure names the seed that reproduces it.
* Abuse (broken frames, bodies that are not JSON-RPC, unknown methods, documents never
  opened, a thousand rapid edits, a 5 MB document, cancelled requests) is survived, and the
  next ordinary request is answered correctly.
* Memory stays flat across a thousand edits (the server's RSS), and per-notification
  bookkeeping is released (traced in-process, where a kilobyte per edit shows).

Every wait has a deadline, ``FORMSCRIPT_LSP_PATIENCE`` seconds (120): a hang fails, it
does not block. Nothing asserts on timing.
"""

from __future__ import annotations

import asyncio
import bisect
import gc
import json
import os
import random
import re
import tracemalloc
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsp_support import Client, config, doc_id, open_doc, pos, published, rng, start
from lsprotocol import types
from pygls.exceptions import JsonRpcMethodNotFound, JsonRpcRequestCancelled
from raw_lsp import RawServer, frame

from formscript.lint.engine import lint_text
from formscript.lsp.collector import Collector
from formscript.lsp.serve import create_server

pytestmark = pytest.mark.slow  # many servers, thousands of edits, big documents

SEQUENCES = int(os.environ.get("FORMSCRIPT_LSP_FUZZ_SEQUENCES", "25"))
MAX_EDITS = int(os.environ.get("FORMSCRIPT_LSP_FUZZ_EDITS", "30"))
SEED = int(os.environ.get("FORMSCRIPT_LSP_FUZZ_SEED", "20250611"))
#: Hang guard for one answer or one publish (a busy 2-core machine linting 5 MB included).
PATIENCE = float(os.environ.get("FORMSCRIPT_LSP_PATIENCE", "120"))

FORMS = [
    "# A clean work form\ntitle: Code review request\nfields:\n  repository:\n    type: str\n"
    "    description: Repository to review, owner/name\n  pull_request:\n    type: int\n"
    "  strict:\n    type: bool\n    required: false\n    default: false\n  reviewers:\n"
    "    type: list\n    required: false\nvalues:\n  repository: khive-ai/lionagi\n"
    "  pull_request: 1024\n  reviewers: [ocean, alex]\n",
    "title: Customer onboarding\nfields:\n  country:\n    type: str\n  seats:\n    type: int\n"
    '    requried: true\n  trial_days:\n    type: int\n    default: "14"\n  note: {type: str}\n'
    'values:\n  country: no\n  seats: "25"\n  note: "😀 café"\n  contcat: ada@example.com\n',
]
SCRIPTS = [
    "mode: auto\nresponses:\n  - type: text\n    content: Let me look up your order.\n    when:\n"
    "      prompt_contains: order\n      has_tool: lookup_order\n  - type: text\n"
    '    content: Refunds take five days.\n    when:\n      prompt_regex: "refund(s"\n'
    '  - type: stream\n    chunks:\n      - {type: text, content: "Working on it"}\n'
    "      - {type: tool_use}\n  - type: error\n    kind: rate_limit\n    message: slow down\n"
    "    when: {call_index: 0, after_calls: 2}\n",
    'mode: positional\nresponses:\n  - type: text\n    content: "héllo 😀"\n'
    "  - type: text\n    content: hi\n    when: {prompt_contains: x}\n",
]
#: A longer script, so that most edits land inside one entry and the server's incremental
#: path (entries parsed alone, spliced) is the one that answers.
SCRIPTS.append(
    "version: 1\nmode: auto\nresponses:\n"
    + "".join(
        (
            f"  - type: text\n    content: answer {i}\n",
            f"  - type: tool_call\n    name: t{i}\n    id: call_{i % 3}\n    when: {{prompt_contains: ask {i}}}\n",
            "  - type: stream\n    chunks:\n      - {type: text, content: hi}\n      - {type: result}\n",
            f"  - type: error\n    kind: timeout\n    when: {{call_index: {i % 4}}}\n",
        )[i % 4]
        for i in range(40)
    )
)
#: What the fuzz types: YAML indicators, breaks (YAML 1.1 and LSP ones), quotes, keys that
#: mean something to forms and scripts, and characters outside ASCII and the BMP.
SNIPPETS = [
    ":",
    ": ",
    " ",
    "  ",
    "-",
    "- ",
    "#",
    "# c",
    "'",
    '"',
    "{",
    "}",
    "[",
    "]",
    ",",
    "|",
    ">",
    "&a ",
    "*a",
    "!!str ",
    "%",
    "@",
    "`",
    "?",
    "~",
    "\t",
    "\n",
    "\r\n",
    "\r",
    "\n  ",
    "\n  - ",
    "\n    ",
    "\x85",
    "\u2028",
    "\ufeff",
    "é",
    "😀",
    "yes",
    "no",
    "null",
    "0x1F",
    "1e3",
    "<<: ",
    "---\n",
    "...\n",
    "type: int",
    "type: text",
    "when: ",
    "content: x",
    "values:\n",
    "fields:\n",
    "responses:\n",
    "title: T\n",
    "prompt_contains: a",
    "required: false",
]

_LSP_BREAK = re.compile(r"\r\n|\r|\n")
_YAML_BREAK = re.compile(r"\r\n|\r|\n|\x85|\u2028|\u2029")
_SEVERITY = {"error": 1, "warning": 2, "info": 3, "hint": 4}


# ------------------------------------------------------------------- the client's text model


def _lines(text: str, pattern: re.Pattern[str]) -> list[tuple[int, int]]:
    """(start, end of content) offsets of each line of *text*, breaking at *pattern*."""
    spans, start = [], 0
    for found in pattern.finditer(text):
        spans.append((start, found.start()))
        start = found.end()
    spans.append((start, len(text)))
    return spans


def _utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def lsp_position(text: str, offset: int) -> types.Position:
    """The LSP position (lines at CR, LF, CRLF; UTF-16 columns) of a code-point offset."""
    lines = _lines(text, _LSP_BREAK)
    line = bisect.bisect_right([s for s, _ in lines], offset) - 1
    start, end = lines[line]
    return types.Position(line=line, character=_utf16(text[start : min(offset, end)]))


Key = tuple[str, tuple[int, int, int, int], int, str]


def fresh_lint(text: str, path: str) -> list[Key]:
    """What the server must publish for *text*: a fresh ``lint_text``, its (YAML line,
    code point) positions converted independently to LSP lines and UTF-16 columns."""
    report = lint_text(text, path)
    bom = 1 if text.startswith("\ufeff") else 0
    yaml_lines = _lines(text[bom:], _YAML_BREAK)

    def convert(line: int, column: int) -> tuple[int, int]:
        if line >= len(yaml_lines):
            offset = len(text)
        else:
            start, end = yaml_lines[line]
            offset = bom + min(start + column, end)
        where = lsp_position(text, offset)
        return where.line, where.character

    return [
        (
            d.code,
            (*convert(d.span.start.line, d.span.start.column), *convert(d.span.end.line, d.span.end.column)),
            _SEVERITY[d.severity],
            d.message,
        )
        for d in report.diagnostics
    ]


def keys(diagnostics: list[types.Diagnostic]) -> list[Key]:
    """What ``fresh_lint`` gives, of published diagnostics."""
    return [
        (
            str(d.code),
            (d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character),
            int(d.severity or 0),
            d.message,
        )
        for d in diagnostics
    ]


class Doc:
    """The client's copy of one open document."""

    def __init__(self, uri: str, path: str, text: str) -> None:
        self.uri, self.path, self.text, self.version = uri, path, text, 1
        self.previous = text

    def offset(self, rand: random.Random) -> int:
        """A random offset that does not split a CRLF (no LSP position lies there)."""
        at = rand.randint(0, len(self.text))
        return at - 1 if 0 < at < len(self.text) and self.text[at - 1 : at + 1] == "\r\n" else at

    def change(self, start: int, end: int, new: str) -> types.TextDocumentContentChangePartial:
        """Replace [start, end) with *new*; the change as the client sends it."""
        change = types.TextDocumentContentChangePartial(
            range=types.Range(start=lsp_position(self.text, start), end=lsp_position(self.text, end)), text=new
        )
        self.previous, self.text = self.text, self.text[:start] + new + self.text[end:]
        return change

    def random_change(self, rand: random.Random) -> types.TextDocumentContentChangePartial:
        kind = rand.choices(["insert", "delete", "replace", "undo"], [5, 3, 3, 1])[0]
        if kind == "undo":  # the previous full text again, through a range edit
            return self.change(0, len(self.text), self.previous)
        start = self.offset(rand)
        end = start
        if kind != "insert":
            end = self.offset_near(rand, start)
        new = "" if kind == "delete" else "".join(rand.choice(SNIPPETS) for _ in range(rand.randint(1, 3)))
        return self.change(start, end, new)

    def offset_near(self, rand: random.Random, start: int) -> int:
        if rand.random() < 0.2:  # to the end of the line, or a little further
            end = self.text.find("\n", start)
            end = len(self.text) if end < 0 else end + rand.randint(0, 1)
        else:
            end = start + rand.randint(1, 12)
        end = min(end, len(self.text))
        return end + 1 if 0 < end < len(self.text) and self.text[end - 1 : end + 1] == "\r\n" else end


# -------------------------------------------------------------------------------- fixtures


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: Client, workspace: Path):
    await start(lsp_client, workspace)
    yield
    await lsp_client.shutdown_session()


#: The async tests share the module's event loop (and so its client).
on_module_loop = pytest.mark.asyncio(loop_scope="module")

ALIVE = "title: Alive\nfields:\n  age: {type: int}\nvalues:\n  age: 7\n"


async def assert_alive(client: Client, workspace: Path) -> None:
    """An ordinary hover and outline on an open document, answered correctly."""
    uri = (workspace / "alive.form.yaml").as_uri()
    if not getattr(client, "alive_open", False):
        open_doc(client, uri, ALIVE)
        client.alive_open = True  # type: ignore[attr-defined]
    hover = await asyncio.wait_for(
        client.text_document_hover_async(types.HoverParams(text_document=doc_id(uri), position=pos(2, 9))), PATIENCE
    )
    assert hover is not None and hover.range == rng(2, 8, 2, 12)
    assert "**`type`** (field declaration)" in hover.contents.value  # type: ignore[union-attr]
    symbols = await asyncio.wait_for(
        client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=doc_id(uri))), PATIENCE
    )
    outline = [(s.name, [c.name for c in s.children or []]) for s in symbols or []]
    assert outline == [("title", []), ("fields", ["age"]), ("values", ["age"])]


# ------------------------------------------------------------------------ random sequences


def _sequence_ids() -> Iterator[Any]:
    for number in range(SEQUENCES):
        yield pytest.param(SEED + number, id=f"seed{SEED + number}")


@on_module_loop
@pytest.mark.parametrize("seed", list(_sequence_ids()))
async def test_random_edits_end_in_the_diagnostics_of_a_fresh_lint(client: Client, workspace: Path, seed: int) -> None:
    rand = random.Random(seed)
    docs = []
    for kind, seeds in (("form", FORMS), ("script", SCRIPTS)):
        path = workspace / f"fuzz-{seed}.{kind}.yaml"
        doc = Doc(path.as_uri(), str(path), rand.choice(seeds))
        open_doc(client, doc.uri, doc.text)
        docs.append(doc)
    for _ in range(rand.randint(1, MAX_EDITS) * len(docs)):
        doc = rand.choice(docs)
        doc.version += 1
        changes = [doc.random_change(rand) for _ in range(rand.choice([1, 1, 1, 2, 3]))]
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=doc.uri, version=doc.version),
                content_changes=changes,
            )
        )
        pause = rand.choice([0, 0, 0, 0.001, 0.015])  # lints overlap the edits, or do not
        if pause:
            await asyncio.sleep(pause)
    for doc in docs:
        got = await published(client, doc.uri, version=doc.version, timeout=PATIENCE)
        expected = fresh_lint(doc.text, doc.path)
        versions = [p.version for p in client.published[doc.uri]]
        where = (
            f"reproduce with FORMSCRIPT_LSP_FUZZ_SEED={seed} FORMSCRIPT_LSP_FUZZ_SEQUENCES=1 "
            f"FORMSCRIPT_LSP_FUZZ_EDITS={MAX_EDITS} pytest {__file__} -k random; "
            f"{doc.uri} version {doc.version}, final text {doc.text!r}"
        )
        assert keys(got) == expected, where
        assert versions == sorted(versions), f"an older version was published last: {where}"
        client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=doc_id(doc.uri)))


# ---------------------------------------------------------------------------------- abuse


@on_module_loop
async def test_unknown_methods(client: Client, workspace: Path) -> None:
    for method in ("formscript/noSuchRequest", "textDocument/noSuchThing", "$/noSuchRequest"):
        with pytest.raises(JsonRpcMethodNotFound):
            await asyncio.wait_for(client.protocol.send_request_async(method, {"x": 1}), PATIENCE)
    errors = len([m for m in client.messages if m.type == types.MessageType.Error])
    for method in ("formscript/noSuchNotification", "$/noSuchNotification", "textDocument/x"):
        client.protocol.notify(method, {"x": 1})
    await assert_alive(client, workspace)
    assert len([m for m in client.messages if m.type == types.MessageType.Error]) == errors


@on_module_loop
async def test_documents_never_opened_answer_empty(client: Client, workspace: Path) -> None:
    (workspace / "a-folder.form.yaml").mkdir()
    never = [
        (workspace / "never-opened.form.yaml").as_uri(),
        (workspace / "never" / "opened.script.yaml").as_uri(),
        (workspace / "a-folder.form.yaml").as_uri(),  # a directory
        "untitled:Untitled-1",
        "http://example.com/remote.form.yaml",
    ]
    whole = rng(0, 0, 5, 0)
    shown = len(client.messages)
    for uri in never:
        ident = doc_id(uri)
        hover = await asyncio.wait_for(
            client.text_document_hover_async(types.HoverParams(text_document=ident, position=pos(0, 0))), PATIENCE
        )
        assert hover is None, uri
        symbols = await asyncio.wait_for(
            client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=ident)), PATIENCE
        )
        assert not symbols, uri
        completion = await asyncio.wait_for(
            client.text_document_completion_async(types.CompletionParams(text_document=ident, position=pos(3, 7))),
            PATIENCE,
        )
        assert isinstance(completion, types.CompletionList) and not completion.items, uri
        for request, params in [
            (client.text_document_folding_range_async, types.FoldingRangeParams(text_document=ident)),
            (client.text_document_definition_async, types.DefinitionParams(text_document=ident, position=pos(0, 0))),
            (
                client.text_document_references_async,
                types.ReferenceParams(
                    text_document=ident, position=pos(0, 0), context=types.ReferenceContext(include_declaration=True)
                ),
            ),
            (
                client.text_document_code_action_async,
                types.CodeActionParams(
                    text_document=ident, range=whole, context=types.CodeActionContext(diagnostics=[])
                ),
            ),
            (client.text_document_code_lens_async, types.CodeLensParams(text_document=ident)),
            (client.text_document_inlay_hint_async, types.InlayHintParams(text_document=ident, range=whole)),
            (
                client.text_document_prepare_rename_async,
                types.PrepareRenameParams(text_document=ident, position=pos(0, 0)),
            ),
        ]:
            answer = await asyncio.wait_for(request(params), PATIENCE)  # type: ignore[operator]
            assert not answer, (uri, request)
        # notifications for documents the client never opened are ignored
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
                content_changes=[types.TextDocumentContentChangePartial(range=rng(0, 0, 0, 0), text="x")],
            )
        )
        client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=ident))
        client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=ident))
        await assert_alive(client, workspace)
    # closing them publishes nothing but "no diagnostics", and nothing alarms the user
    assert all(not p.diagnostics for uri in never for p in client.published.get(uri, []))
    assert [m.message for m in client.messages[shown:]] == []


@on_module_loop
async def test_a_thousand_rapid_edits_settle_on_the_last(client: Client, workspace: Path) -> None:
    path = workspace / "rapid.form.yaml"
    doc = Doc(path.as_uri(), str(path), FORMS[1])
    open_doc(client, doc.uri, doc.text)
    rand = random.Random(SEED)
    for _ in range(1000):
        doc.version += 1
        if rand.random() < 0.6:  # typing at the end of a random line
            lines = _lines(doc.text, _LSP_BREAK)
            at = lines[rand.randrange(len(lines))][1]
            change = doc.change(at, at, rand.choice("abc :-#'\"{}[]é😀") + rand.choice(["", "\n"]))
        else:
            change = doc.random_change(rand)
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=doc.uri, version=doc.version),
                content_changes=[change],
            )
        )
    got = await published(client, doc.uri, version=doc.version, timeout=PATIENCE)
    assert keys(got) == fresh_lint(doc.text, doc.path), f"final text {doc.text!r}"
    await assert_alive(client, workspace)  # a round trip: anything still pending has landed
    versions = [p.version for p in client.published[doc.uri]]
    assert versions == sorted(versions)
    assert versions.count(doc.version) == 1 and versions[-1] == doc.version, versions[-5:]


def big_form(size: int) -> str:
    """A valid form of about *size* characters whose last value has a typo (FS005)."""
    fields, values, total, n = ["title: Big\nfields:\n"], ["values:\n"], 0, 0
    while total < size:
        field = f"  field_{n}:\n    type: str\n    description: Field number {n}, some words\n"
        value = f"  field_{n}: value {n}\n"
        fields.append(field)
        values.append(value)
        total, n = total + len(field) + len(value), n + 1
    values.append("  fieldd_0: typo\n")
    return "".join(fields + values)


@on_module_loop
async def test_a_five_megabyte_document(client: Client, workspace: Path) -> None:
    text = big_form(5_000_000)
    uri = (workspace / "big.form.yaml").as_uri()
    open_doc(client, uri, text)
    await assert_alive(client, workspace)  # answered while (or after) 5 MB is linted
    hover = await asyncio.wait_for(
        client.text_document_hover_async(types.HoverParams(text_document=doc_id(uri), position=pos(3, 5))), PATIENCE
    )
    assert hover is not None and "**`type`**" in hover.contents.value  # type: ignore[union-attr]
    found = await published(client, uri, version=1, timeout=PATIENCE)
    last = text.count("\n") - 1
    assert [(d.code, d.range.start.line) for d in found] == [("FS005", last)]
    # deleting the typo at the very end is linted again; the document stays usable
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[types.TextDocumentContentChangePartial(range=rng(last, 0, last + 1, 0), text="")],
        )
    )
    # what is left is valid, but its ~1.4 million-character context block is over li agent's
    # prompt cap: the one finding is FS024
    fixed = await published(client, uri, version=2, timeout=PATIENCE)
    assert [d.code for d in fixed] == ["FS024"]
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=doc_id(uri)))
    await assert_alive(client, workspace)


@on_module_loop
async def test_cancelled_requests(client: Client, workspace: Path) -> None:
    text = big_form(300_000)
    path = workspace / "cancel.form.yaml"
    uri = path.as_uri()
    open_doc(client, uri, text)
    for version in (2, 3):
        # a new text to lint, a request that needs it, and its cancellation at once
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[types.TextDocumentContentChangePartial(range=rng(0, 7, 0, 7), text=f" {version}")],
            )
        )
        msg_id = f"to-cancel-{uuid.uuid4()}"
        method = types.TEXT_DOCUMENT_DOCUMENT_SYMBOL if version == 2 else types.TEXT_DOCUMENT_HOVER
        params: Any = (
            types.DocumentSymbolParams(text_document=doc_id(uri))
            if version == 2
            else types.HoverParams(text_document=doc_id(uri), position=pos(3, 5))
        )
        future = client.protocol.send_request(method, params, msg_id=msg_id)
        client.protocol.notify(types.CANCEL_REQUEST, types.CancelParams(id=msg_id))
        try:  # still answered: cancelled (-32800) or, had it finished already, its result
            answer = await asyncio.wait_for(asyncio.wrap_future(future), PATIENCE)
            assert answer, "a finished request must carry its result"
        except JsonRpcRequestCancelled:
            pass
        # cancelling what is unknown or already answered is harmless
        client.protocol.notify(types.CANCEL_REQUEST, types.CancelParams(id=msg_id))
        client.protocol.notify(types.CANCEL_REQUEST, types.CancelParams(id=987654321))
        await assert_alive(client, workspace)
    found = await published(client, uri, version=3, timeout=PATIENCE)
    assert keys(found) == fresh_lint(text.replace("title: ", "title:  3 2", 1), str(path))
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=doc_id(uri)))


# ----------------------------------------------------------------------- raw frames (stdio)


@pytest.fixture(scope="module")
def raw_servers(workspace: Path) -> Iterator[list[RawServer]]:
    servers: list[RawServer] = []
    yield servers
    for server in servers:
        server.close()


@pytest.fixture
def raw(raw_servers: list[RawServer], workspace: Path) -> RawServer:
    """The module's raw server; a fresh one when an earlier test left it dead or deaf, so
    that each failure is that test's own."""
    if raw_servers:
        server = raw_servers[-1]
        try:
            answer = server.response(server.send_request("formscript/ping", None), min(PATIENCE, 30))
            if answer.get("error", {}).get("code") == -32601:
                return server
        except AssertionError:
            pass
        server.close()
    server = RawServer(workspace)
    raw_servers.append(server)
    server.initialize()
    return server


def raw_alive(server: RawServer, workspace: Path) -> None:
    """The raw client's ordinary requests, answered correctly."""
    uri = (workspace / f"raw-alive-{server.pid}.form.yaml").as_uri()
    if not server.publishes(uri):
        server.open(uri, ALIVE)
        server.published(uri, 1, timeout=PATIENCE)
    hover = server.request(
        "textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 2, "character": 9}}, PATIENCE
    )
    assert hover["range"] == {"start": {"line": 2, "character": 8}, "end": {"line": 2, "character": 12}}
    assert "**`type`** (field declaration)" in hover["contents"]["value"]
    symbols = server.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}}, PATIENCE)
    assert [s["name"] for s in symbols] == ["title", "fields", "values"]


_NOTE = json.dumps({"jsonrpc": "2.0", "method": "formscript/x", "params": {}}).encode()
BROKEN_FRAMES = {
    "content-length-not-a-number": b"Content-Length: abc\r\n\r\n" + _NOTE,
    "content-length-negative": b"Content-Length: -5\r\n\r\n" + _NOTE,
    "content-length-zero": b"Content-Length: 0\r\n\r\n" + _NOTE,
    "content-length-too-small": b"Content-Length: 10\r\n\r\n" + _NOTE,
    "content-length-absurd": b"Content-Length: 999999999999999\r\n\r\n" + _NOTE,
    "no-content-length": b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n" + _NOTE,
    "no-blank-line": b"Content-Length: %d\r\n" % len(_NOTE) + _NOTE,
    "garbage-line": b"hello there\r\n",
    "garbage-without-newline": b"\x00\xff garbage",
    "body-not-json": b"Content-Length: 11\r\n\r\n{nope: 1,}]",
    "body-not-utf8": b'Content-Length: 4\r\n\r\n"\xff\xfe"',
    "body-array": b"Content-Length: 7\r\n\r\n[1,2,3]",
    "body-batch": frame([{"jsonrpc": "2.0", "method": "formscript/x", "params": {}}]),
    "body-string": frame("textDocument/hover"),
    "body-number": frame(42),
    "body-null": frame(None),
    "body-empty-object": frame({}),
    "body-without-jsonrpc": frame({"id": 6, "method": "formscript/x"}),
    "body-wrong-jsonrpc-version": frame({"jsonrpc": "1.0", "id": 7, "method": "formscript/x"}),
    "response-nobody-asked-for": frame({"jsonrpc": "2.0", "id": 424242, "result": {"x": 1}}),
    "set-trace-with-bad-params": frame({"jsonrpc": "2.0", "method": "$/setTrace", "params": 3}),
}


@pytest.mark.parametrize("data", list(BROKEN_FRAMES.values()), ids=list(BROKEN_FRAMES))
def test_broken_frames_lose_only_themselves(raw: RawServer, workspace: Path, data: bytes) -> None:
    raw.send_bytes(data)
    raw_alive(raw, workspace)
    assert raw.proc.poll() is None


@pytest.mark.parametrize(
    "params",
    [
        {"textDocument": {"uri": "file:///x.form.yaml"}, "position": "nope"},
        {"textDocument": {"uri": "file:///x.form.yaml"}},
        {"position": {"line": 0, "character": 0}},
        None,
        [1, 2],
    ],
    ids=["position-a-string", "no-position", "no-document", "no-params", "params-a-list"],
)
def test_requests_with_broken_params_are_answered_with_an_error(raw: RawServer, workspace: Path, params: Any) -> None:
    msg_id = raw.new_id()
    raw.send({"jsonrpc": "2.0", "id": msg_id, "method": "textDocument/hover", "params": params})
    answer = raw.response(msg_id, PATIENCE)
    assert answer.get("error", {}).get("code") in (-32602, -32603), answer
    raw_alive(raw, workspace)


# ----------------------------------------------------------------------------------- memory


def test_memory_stays_flat_across_a_thousand_edits(raw: RawServer, workspace: Path) -> None:
    text = big_form(40_000)
    uri = (workspace / "memory.form.yaml").as_uri()
    raw.open(uri, text)
    raw.published(uri, 1, PATIENCE)
    value_lines = [
        n
        for n, line in enumerate(text.split("\n"))
        if line.endswith(tuple("0123456789")) and line.startswith("  field_") and ": value" in line
    ]
    version = 1

    def edits(count: int) -> None:
        """Type a character before a value's key and take it out again; every tenth edit
        wait for its diagnostics and hover."""
        nonlocal version
        for _ in range(count):
            version += 1
            line = value_lines[(version // 2) % len(value_lines)]
            start = {"line": line, "character": 2}
            end = {"line": line, "character": 2 if version % 2 == 0 else 3}
            raw.notify(
                "textDocument/didChange",
                {
                    "textDocument": {"uri": uri, "version": version},
                    "contentChanges": [
                        {"range": {"start": start, "end": end}, "text": "x" if version % 2 == 0 else ""}
                    ],
                },
            )
            if version % 10 == 0:  # a text not linted before: a lint, not the cache
                raw.published(uri, version, PATIENCE)
                raw.request(
                    "textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": line, "character": 3}}
                )

    edits(200)  # warm-up: caches, arenas, the collector's first generations
    before = raw.rss_kib()
    edits(1000)
    after = raw.rss_kib()
    assert after - before < 50 * 1024, f"RSS grew from {before} KiB to {after} KiB"
    raw_alive(raw, workspace)


class _NullWriter:
    def write(self, data: bytes) -> None:
        pass

    def close(self) -> None:
        pass


@on_module_loop
async def test_notifications_leave_nothing_behind(workspace: Path) -> None:
    """In-process, where a kilobyte per edit shows: the bookkeeping of a thousand edits
    is released (pygls kept a future per notification)."""
    server = create_server()
    # as the server process does: what each lint leaves is frozen (escaped cycles would show)
    server.documents.settle = Collector().settle
    protocol = server.protocol
    protocol.set_writer(_NullWriter())  # type: ignore[arg-type]

    def receive(message: dict[str, Any]) -> None:
        protocol.handle_message(
            json.loads(json.dumps({"jsonrpc": "2.0", **message}), object_hook=protocol.structure_message)
        )

    uri = (workspace / "in-process.form.yaml").as_uri()
    receive({"id": 1, "method": "initialize", "params": {"capabilities": {}, "rootUri": workspace.as_uri()}})
    receive({"method": "initialized", "params": {}})
    receive(
        {
            "method": "textDocument/didOpen",
            "params": {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": ALIVE}},
        }
    )
    version = 1

    async def edits(count: int) -> None:
        nonlocal version
        for _ in range(count):
            version += 1
            end = 0 if version % 2 == 0 else 1
            receive(
                {
                    "method": "textDocument/didChange",
                    "params": {
                        "textDocument": {"uri": uri, "version": version},
                        "contentChanges": [
                            {
                                "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": end}},
                                "text": "#" if version % 2 == 0 else "",
                            }
                        ],
                    },
                }
            )
            if version % 50 == 0:
                await asyncio.sleep(0.01)  # lints run now and then

        async def settled() -> None:
            while (found := server.documents.analysis(uri)) is None or found.version != version:
                await asyncio.sleep(0.01)

        await asyncio.wait_for(settled(), PATIENCE)

    try:
        await edits(200)
        gc.collect()
        tracemalloc.start()
        try:
            before = tracemalloc.get_traced_memory()[0]
            await edits(1000)
            gc.collect()
            grown = tracemalloc.get_traced_memory()[0] - before
        finally:
            tracemalloc.stop()
        assert grown < 400 * 1024, f"{grown} bytes kept after 1000 edits"
    finally:
        server.documents.shutdown()
        gc.unfreeze()
