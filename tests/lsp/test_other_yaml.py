"""The language server stays silent on other ecosystems' YAML (tests/fixtures/other_yaml/):
no diagnostics, lenses, hints, symbols or hover, as `formscript lint` skips the same files."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_lsp
from lsp_support import Client, config, doc_id, open_doc, pos, rng, start
from lsprotocol import types

OTHER = Path(__file__).resolve().parent.parent / "fixtures" / "other_yaml"


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: Client, workspace: Path):
    await start(lsp_client, workspace, pull=True)
    yield
    await lsp_client.shutdown_session()


pytestmark = [
    pytest.mark.asyncio(loop_scope="module"),
    pytest.mark.slow,  # a language server over every file of the corpus
]


async def test_other_yaml_gets_nothing_from_the_server(client: Client, workspace: Path) -> None:
    noisy = []
    for path in sorted(OTHER.iterdir()):
        text = path.read_text(encoding="utf-8")
        target = workspace / path.name
        target.write_text(text, encoding="utf-8")
        uri = target.as_uri()
        open_doc(client, uri, text)
        ident = doc_id(uri)
        report = await client.text_document_diagnostic_async(types.DocumentDiagnosticParams(text_document=ident))
        lenses = await client.text_document_code_lens_async(types.CodeLensParams(text_document=ident))
        hints = await client.text_document_inlay_hint_async(
            types.InlayHintParams(text_document=ident, range=rng(0, 0, text.count("\n") + 1, 0))
        )
        symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=ident))
        hover = await client.text_document_hover_async(types.HoverParams(text_document=ident, position=pos(0, 1)))
        items = report.items if isinstance(report, types.RelatedFullDocumentDiagnosticReport) else []
        if items or lenses or hints or symbols or hover:
            noisy.append((path.name, len(items), bool(lenses), bool(hints), bool(symbols), bool(hover)))
    assert noisy == []
