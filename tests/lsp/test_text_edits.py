"""The server's text documents apply incremental changes exactly as pygls's do.

``transport.TextDocument`` cuts the text at the offsets of a change's range instead of
rebuilding it line by line; over random texts (non-ASCII and non-BMP characters, an empty
text, no final line break) and random ranges (past the end of a line or of the text, empty,
in UTF-16 and UTF-8 units) the result equals pygls's own ``TextDocument``'s, also where the
line is looked for through several blocks of counted line breaks (small blocks, long texts).
"""

from __future__ import annotations

import random

import pytest
from lsprotocol import types
from pygls import workspace
from pygls.workspace.position_codec import PositionCodec

from formscript.lsp.transport import TextDocument

PIECES = ["a", "bc", " ", "é", "😀", "\n", "\n", "- x: 1\n", "", "ü\n"]


def _text(rand: random.Random) -> str:
    return "".join(rand.choice(PIECES) for _ in range(rand.randint(0, 30)))


@pytest.mark.parametrize("encoding", [types.PositionEncodingKind.Utf16, types.PositionEncodingKind.Utf8])
def test_incremental_changes_give_the_text_pygls_gives(encoding: types.PositionEncodingKind) -> None:
    rand = random.Random(20261201)
    for number in range(3000):
        text = _text(rand) if number % 10 else _text(rand) * rand.randint(5, 40)
        lines = max(text.count("\n"), 1)
        start = types.Position(line=rand.randint(0, lines + 1), character=rand.randint(0, 8))
        end = types.Position(line=start.line + rand.choice([0, 0, 1, 2]), character=rand.randint(0, 8))
        change = types.TextDocumentContentChangePartial(
            range=types.Range(start=start, end=end), text=rand.choice(["", "x", "\n", "é😀", "- a\n  b"])
        )
        codec = PositionCodec(encoding=encoding)
        kind = types.TextDocumentSyncKind.Incremental
        ours = TextDocument("file:///t.yaml", text, sync_kind=kind, position_codec=codec)
        theirs = workspace.TextDocument("file:///t.yaml", text, sync_kind=kind, position_codec=codec)
        ours.apply_change(change)
        theirs.apply_change(change)
        assert ours.source == theirs.source, (text, change)
