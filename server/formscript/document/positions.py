"""The one mapping between character offsets and (line, column) positions.

A position is a 0-based line and a code-point column, with lines broken as the parser of the
text breaks them: the YAML scanner ends a line at ``\\r\\n``, ``\\r``, ``\\n``, NEL, LS and PS
and does not count a leading byte order mark in the first line's columns; Python ends one at
``\\r\\n``, ``\\r`` and ``\\n`` only. Locating (parse marks, comments) and editing (fixes) both
go through ``LineIndex``, so an edit lands exactly where its position was found.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from itertools import accumulate
from typing import Literal, TypeAlias

from formscript.document.model import Pos, pos_of

Breaks: TypeAlias = 'Literal["yaml", "python"]'

#: The characters that break a YAML line (``\r\n`` counts as one break).
YAML_BREAKS = "\n\r\x85\u2028\u2029"

#: What ends a line, for each way of breaking lines (``\r\n`` is one break).
LINE_BREAK = {
    "yaml": re.compile("\r\n|[\n\r\x85\u2028\u2029]"),
    "python": re.compile("\r\n|[\n\r]"),
}


#: What else breaks a YAML line than "\r" and "\n" (Python's lines ignore it).
_OTHER_BREAK = re.compile("[\x85\u2028\u2029]")


class LineIndex:
    """Offsets to positions and back for one text."""

    def __init__(self, text: str, breaks: Breaks = "yaml") -> None:
        self.length = len(text)
        #: A leading BOM is no column of the first line (YAML only: Python has none).
        self.bom = 1 if breaks == "yaml" and text.startswith("\ufeff") else 0
        if "\r" in text or (not text.isascii() and _OTHER_BREAK.search(text)):
            self.starts = [0, *(m.end() for m in LINE_BREAK[breaks].finditer(text))]
        else:  # only "\n" breaks lines: each line's start is the sum of the lengths before it
            starts = list(accumulate(map((1).__add__, map(len, text.split("\n"))), initial=0))
            starts.pop()
            self.starts = starts

    def pos(self, offset: int) -> Pos:
        """The position of the character at *offset* (``len(text)``: just past the end)."""
        offset = min(max(offset, 0), self.length)
        line = bisect.bisect_right(self.starts, offset) - 1
        column = offset - self.starts[line]
        if line == 0:
            column = max(column - self.bom, 0)
        return pos_of((line, column))

    def offset(self, pos: Pos) -> int:
        """The offset of *pos*, clamped to the text (a line past the last: the end)."""
        if pos.line >= len(self.starts):
            return self.length
        start = self.starts[pos.line] + (self.bom if pos.line == 0 else 0)
        return min(start + max(pos.column, 0), self.length)


def line_breaks(text: str, breaks: Breaks = "yaml") -> Counter[str]:
    """How many of each kind of line break *text* holds."""
    return Counter(match.group() for match in LINE_BREAK[breaks].finditer(text))
