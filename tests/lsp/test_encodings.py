"""Position encodings: UTF-16 unless the client offers UTF-8 or UTF-32; characters outside
the BMP (and a two-byte é) before a diagnostic on the same line."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_lsp
from lsp_support import Client, config, doc_id, open_doc, pos, published, rng, start, write
from lsprotocol import types

pytestmark = pytest.mark.slow  # a language server per position encoding

TEXT = 'fields:\n  note: {type: str}\nvalues: {note: "😀é", bad: 1}\n'
#: Where `bad` sits on line 2, counted in each encoding's code units.
BAD = {"utf-8": (25, 28), "utf-16": (22, 25), "utf-32": (21, 24)}

CASES = [
    pytest.param((None, "utf-16"), id="default-utf16"),
    pytest.param((["utf-8", "utf-16"], "utf-8"), id="utf8"),
    pytest.param((["utf-32"], "utf-32"), id="utf32"),
    pytest.param((["utf-7"], "utf-16"), id="unknown-falls-back-to-utf16"),
]


@pytest_lsp.fixture(config=config(), params=CASES)
async def client(lsp_client: Client, request: pytest.FixtureRequest, tmp_path: Path):
    offered, expected = request.param
    result = await start(lsp_client, tmp_path, encodings=offered)
    lsp_client.chosen = (result.capabilities.position_encoding, expected)  # type: ignore[attr-defined]
    lsp_client.root = tmp_path  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


async def test_ranges_are_in_the_negotiated_encoding(client: Client) -> None:
    negotiated, expected = client.chosen  # type: ignore[attr-defined]
    assert negotiated == expected
    uri = write(client.root, "enc.form.yaml", TEXT)  # type: ignore[attr-defined]
    open_doc(client, uri, TEXT)
    found = await published(client, uri, version=1)
    start_col, end_col = BAD[expected]
    assert [(d.code, d.range) for d in found] == [("FS005", rng(2, start_col, 2, end_col))]
    # and positions coming in are read in the same encoding
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=doc_id(uri), position=pos(2, start_col + 1))
    )
    assert hover is not None and hover.range == rng(2, start_col, 2, end_col)
    assert "no field declares it" in hover.contents.value  # type: ignore[union-attr]
