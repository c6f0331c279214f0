"""One broken entry hides none of the others, through a real server process.

A script whose fourth entry is half typed (an unterminated quote, a misindented key, an
unclosed list) is still rejected, as the runtime rejects it, with the syntax error at its
cause and in formscript's words; every other entry keeps its diagnostics, its place in the
outline and its hover. Typing the quote closed brings back the ordinary analysis; the
command line reports the same findings (one core).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsp_support import Client, change_doc, config, doc_id, open_doc, pos, published, rng, start, write
from lsprotocol import types

ENTRIES = [
    "  - type: text\n    content: hello\n",
    "  - type: txt\n    content: typo in the type\n",
    "  - type: tool_call\n    name: lookup\n    id: call_1\n",
    None,  # the broken one
    "  - type: tool_call\n    name: again\n    id: call_1\n",
    "  - type: text\n    content: last\n",
]
BROKEN = {
    "quote": ('  - type: text\n    content: "half typed\n', (10, 13), "this quoted string is never closed"),
    "indent": (
        "  - type: text\n    content: fine\n   when: {}\n",
        (11, 3),
        "this line is indented differently from the block it belongs to",
    ),
    "list": ("  - type: structured\n    data: [1, 2\n", (10, 10), "this '[' is never closed by a ']'"),
}


def text_with(broken: str) -> str:
    return "version: 1\nresponses:\n" + "".join(e if e is not None else broken for e in ENTRIES)


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: Client, workspace: Path):
    await start(lsp_client, workspace)
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio(loop_scope="module")
@pytest.mark.parametrize("kind", list(BROKEN))
async def test_a_broken_entry_is_reported_at_its_cause_and_the_others_stay(
    client: Client, workspace: Path, kind: str
) -> None:
    broken, (line, column), words = BROKEN[kind]
    text = text_with(broken)
    uri = write(workspace, f"tolerant-{kind}.script.yaml", text)
    open_doc(client, uri, text)
    found = await published(client, uri, version=1)
    by_code = {d.code: d for d in found}
    syntax = by_code["YM001"]
    assert syntax.range.start == pos(line, column)
    assert words in syntax.message
    assert "unicode string" not in syntax.message and "position" not in syntax.message
    # the other entries keep their findings: the typo'd type (entry 1), the repeated id (4 after 2)
    assert by_code["SC002"].range == rng(4, 10, 4, 13)
    assert "#1" in by_code["SC002"].message
    assert by_code["SC015"].range.start.line == text.split("\n").index("    name: again") + 1
    symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=doc_id(uri)))
    assert symbols is not None
    responses = next(s for s in symbols if s.name == "responses")  # type: ignore[union-attr]
    outline = [c.name.split()[0] for c in responses.children or []]  # type: ignore[union-attr]
    assert outline == ["#0", "#1", "#2", "#3", "#4", "#5"]  # the broken one too, at its lines
    last = text.split("\n").index("    content: last")
    hover = await client.text_document_hover_async(types.HoverParams(text_document=doc_id(uri), position=pos(last, 5)))
    assert hover is not None and "content" in hover.contents.value  # type: ignore[union-attr]
    # closing the entry brings back the ordinary analysis: no syntax error, the same findings
    fixed = text_with(ENTRIES[0])  # type: ignore[arg-type]
    change_doc(client, uri, fixed, 2)
    again = {d.code for d in await published(client, uri, version=2)}
    assert "YM001" not in again and {"SC002", "SC015"} <= again


def test_the_command_line_reports_the_same(tmp_path: Path) -> None:
    broken, (line, column), _ = BROKEN["quote"]
    path = tmp_path / "tolerant.script.yaml"
    path.write_text(text_with(broken), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "formscript", "lint", "--format", "json", "--no-cache", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    (checked,) = json.loads(done.stdout)["files"]
    found = {(d["code"], d["range"]["start"]["line"], d["range"]["start"]["column"]) for d in checked["diagnostics"]}
    assert ("YM001", line + 1, column + 1) in found, done.stdout  # the command line counts from 1
    assert {code for code, _, _ in found} >= {"YM001", "SC002", "SC015"}
    assert checked["verdict"] == "rejected"
