"""How a client counts positions, and the conversion of formscript's to it (and back).

Inside formscript a position is a YAML line and a column in Unicode code points
(``document.located.Pos``). A client counts lines by ``\\n``, ``\\r\\n`` and ``\\r`` only,
and columns in the code units of the negotiated position encoding (UTF-16 unless the client
offers another). YAML 1.1 also breaks lines at NEL, LS and PS, and the linter drops a
leading byte-order mark, so the mapping goes through absolute offsets when either occurs.
``lsp.convert`` turns domain objects into LSP types with it; the analysis of a document holds one.
"""

from __future__ import annotations

import functools

from lsprotocol import types

from formscript.document import Pos, Span
from formscript.document.positions import LINE_BREAK, LineIndex
from formscript.lsp.facade import common_ends

UTF8 = types.PositionEncodingKind.Utf8
UTF16 = types.PositionEncodingKind.Utf16
UTF32 = types.PositionEncodingKind.Utf32


_EXOTIC = ("\x85", "\u2028", "\u2029")


def _units(text: str, encoding: str) -> int:
    if encoding == UTF32.value or text.isascii():
        return len(text)
    if encoding == UTF8.value:
        return len(text.encode("utf-8"))
    return len(text.encode("utf-16-le")) // 2


def _char_units(char: str, encoding: str) -> int:
    code = ord(char)
    if encoding == UTF8.value:
        return 1 if code < 0x80 else 2 if code < 0x800 else 3 if code < 0x10000 else 4
    return 2 if code > 0xFFFF else 1


def _lsp_lines(text: str, previous: Positions | None) -> list[str]:
    """*text*'s LSP lines; from *previous* (an earlier text's) those the difference between
    the two texts leaves alone, so that only the lines an edit touches are split again."""
    if "\r" in text:
        return LINE_BREAK["python"].split(text)  # Python's line breaks are LSP's
    if previous is None or "\r" in previous.text:
        return text.split("\n")
    old = previous.text
    if old == text:
        return list(previous.lines)
    prefix, suffix = common_ends(old, text)
    begin = old.rfind("\n", 0, prefix) + 1  # the first line the difference touches
    first = old.count("\n", 0, begin)
    after = old.find("\n", len(old) - suffix)  # the line break after it, in the common end
    if after < 0:
        return [*previous.lines[:first], *text[begin:].split("\n")]
    kept = old.count("\n", after)  # the lines after that break: as they were
    stop = after + len(text) - len(old)
    return [*previous.lines[:first], *text[begin:stop].split("\n"), *previous.lines[len(previous.lines) - kept :]]


class Positions:
    """Converts positions of one text between formscript (YAML lines, code points) and a
    client (LSP lines, code units of *encoding*). Made with the *previous* version's, it
    splits only the lines the edit between them touches (the lines are the same)."""

    def __init__(self, text: str, encoding: str = UTF16.value, previous: Positions | None = None) -> None:
        self.text = text
        self.encoding = encoding
        self.lines = _lsp_lines(text, previous)
        self._bom = 1 if text.startswith("\ufeff") else 0
        self._exotic = any(c in text for c in _EXOTIC)

    @functools.cached_property
    def _indexes(self) -> tuple[LineIndex, LineIndex]:
        """The offsets of the YAML lines and of the LSP lines (texts with NEL, LS or PS)."""
        return LineIndex(self.text, "yaml"), LineIndex(self.text, "python")

    # -- formscript -> client -----------------------------------------------------------

    def _lsp_line_col(self, pos: Pos) -> tuple[int, int]:
        """The LSP line and code-point column of a formscript position."""
        if not self._exotic:
            column = pos.column + (self._bom if pos.line == 0 else 0)
            return pos.line, column
        yaml, lsp = self._indexes
        at = lsp.pos(yaml.offset(Pos(min(pos.line, len(yaml.starts) - 1), pos.column)))
        return at.line, at.column

    def position(self, pos: Pos) -> types.Position:
        """The client position of *pos*, clamped to the text."""
        line, column = self._lsp_line_col(pos)
        if line >= len(self.lines):
            last = len(self.lines) - 1
            return types.Position(last, _units(self.lines[last], self.encoding))
        text = self.lines[line]
        column = min(max(column, 0), len(text))
        return types.Position(line, _units(text[:column], self.encoding))

    def range(self, span: Span) -> types.Range:
        """The client range of *span*."""
        return types.Range(self.position(span.start), self.position(span.end))

    # -- client -> formscript -----------------------------------------------------------

    def code_point_column(self, position: types.Position) -> tuple[int, int]:
        """The LSP line and code-point column of a client position, clamped to the text."""
        line = min(max(position.line, 0), len(self.lines) - 1)
        text = self.lines[line]
        wanted = max(position.character, 0)
        if self.encoding == UTF32.value or text.isascii():
            return line, min(wanted, len(text))
        counted = 0
        for index, char in enumerate(text):
            if counted >= wanted:
                return line, index
            counted += _char_units(char, self.encoding)
        return line, len(text)

    def pos(self, position: types.Position) -> Pos:
        """The formscript position of a client position."""
        line, column = self.code_point_column(position)
        if not self._exotic:
            if line == 0:
                column = max(column - self._bom, 0)
            return Pos(line, column)
        yaml, lsp = self._indexes
        return yaml.pos(lsp.offset(Pos(line, column)))
