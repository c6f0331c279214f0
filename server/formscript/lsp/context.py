"""Where the cursor is in a file's structure.

From the located document when the text parses (``node_at``); from indentation alone when
it does not, as while a key is half typed (``cursor_context``). The indentation reading
understands block mappings and sequences, including compact ``- key: value`` items and
sequences indented level with their key, and one-line flow mappings when the text parses.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Literal

from formscript.document import Document, Location, Pos, Span
from formscript.lsp.facade import KeyPath, common_ends

_KEY = re.compile(
    r"""(?P<key>"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#'"\-?:,\[\]{}][^#:]*?|-[^\s#:][^#:]*?)"""
    r"""\s*:(?=\s|$)"""
)
_WORD = re.compile(r"[A-Za-z0-9_]*$")


def contains(span: Span, pos: Pos) -> bool:
    """Whether *pos* is inside *span*, ends included (a cursor right after a word counts)."""
    return span.start <= pos <= span.end


def _inside(entry: Location, pos: Pos) -> bool:
    """A scalar holds the position right after it; a collection ends where the next
    sibling starts, so its end is excluded."""
    if entry.scalar is not None:
        return contains(entry.value, pos)
    return entry.value.start <= pos < entry.value.end


def _children(doc: Document, path: KeyPath, value: Any, pos: Pos) -> list[Any]:
    """The children of the collection at *path* that may hold *pos*, in source order (of a
    mapping, only those the document names when it can: ``children_near``, which holds the
    hover target at a 2,000-field form: p95 4.5 ms with it, 27 ms trying every key; target 20)."""
    if isinstance(value, dict):
        near = getattr(doc, "children_near", None)
        found = near(path, pos) if near is not None else None
        return list(value) if found is None else found
    if not isinstance(value, list) or not value:
        return []
    # items are in source order: bisect on their start
    low, high = 0, len(value) - 1
    while low < high:
        middle = (low + high + 1) // 2
        entry = doc.entry((*path, middle))
        if entry is not None and entry.value.start <= pos:
            low = middle
        else:
            high = middle - 1
    return [low]


def walk(doc: Document, pos: Pos) -> list[tuple[KeyPath, Location, bool]]:
    """The chain of nodes from the top down to the deepest one at *pos*: (path, entry,
    whether *pos* is on the key). Only the nodes on the way are located. A collection that
    holds itself through an alias (``a: &x [*x]``) is entered once: the walk stops where it
    would go round."""
    chain: list[tuple[KeyPath, Location, bool]] = []
    path: KeyPath = ()
    value: Any = doc.value
    entered: set[int] = set()
    while True:
        if id(value) in entered:
            return chain
        entered.add(id(value))
        hit: tuple[KeyPath, Location, bool] | None = None
        for key in _children(doc, path, value, pos):
            child = (*path, key)
            entry = doc.entry(child)
            if entry is None:
                continue
            if entry.key is not None and contains(entry.key, pos):
                chain.append((child, entry, True))
                return chain
            if hit is None and _inside(entry, pos):
                hit = (child, entry, False)
        if hit is None:
            return chain
        chain.append(hit)
        path = hit[0]
        if hit[1].scalar is not None:
            return chain
        value = value[path[-1]]


def node_at(doc: Document, pos: Pos) -> tuple[KeyPath, bool] | None:
    """The deepest key or scalar value at *pos*: its path and whether it is the key."""
    chain = walk(doc, pos)
    if not chain:
        return None
    path, entry, on_key = chain[-1]
    if not on_key and entry.scalar is None:
        return None
    return path, on_key


# ---------------------------------------------------------------------------- outline


@dataclass(frozen=True)
class Line:
    """One line's structure: its indent, a leading ``- `` and a ``key:``."""

    number: int
    text: str
    indent: int
    dash: int | None  # column of a leading "- "
    content: int  # column where the item's content starts
    key: str | None
    value: str  # text after "key:", comment removed

    @property
    def blank(self) -> bool:
        """Empty or comment only."""
        stripped = self.text.strip()
        return not stripped or stripped.startswith("#")


def _unquote(key: str) -> str:
    if len(key) >= 2 and key[0] == key[-1] == '"':
        return key[1:-1].replace('\\"', '"')
    if len(key) >= 2 and key[0] == key[-1] == "'":
        return key[1:-1].replace("''", "'")
    return key.strip()


def read_line(number: int, text: str) -> Line:
    """The structure of one line of block YAML."""
    indent = len(text) - len(text.lstrip(" "))
    content = indent
    dash = None
    rest = text[indent:]
    if rest == "-" or rest.startswith("- "):
        dash = indent
        after = rest[1:]
        content = indent + 1 + (len(after) - len(after.lstrip(" ")))
        rest = text[content:]
    key = None
    value = ""
    match = _KEY.match(rest)
    if match is not None:
        key = _unquote(match.group("key"))
        value = rest[match.end() :]
        hash_at = value.find(" #")
        if value.lstrip().startswith("#"):
            value = ""
        elif hash_at >= 0:
            value = value[:hash_at]
        value = value.strip()
    return Line(number, text, indent, dash, content, key, value)


def _measure(texts: list[str]) -> tuple[list[int], list[bool]]:
    """The indent (-1: blank) of each line of *texts* and whether it starts with a dash."""
    indents: list[int] = []
    dashes: list[bool] = []
    for text in texts:
        stripped = text.strip()
        if not stripped or stripped[0] == "#":
            indents.append(-1)
            dashes.append(False)
            continue
        rest = text.lstrip(" ")
        indents.append(len(text) - len(rest))
        dashes.append(rest == "-" or rest.startswith("- "))
    return indents, dashes


class Outline:
    """The lines of a text, read on demand.

    Every scan first looks at a line's shape alone (its indent, blank or not, whether it
    starts with ``- ``), measured once for the whole text without a regular expression, and
    reads a line's key only where the answer depends on it: a scan that passes over other
    entries costs a comparison per line. An outline kept for one text version
    (``Analysis.outline``) reads each line at most once, and measures the shapes of only
    the lines an edit touched when made with the previous version's (*previous*).
    """

    def __init__(self, lines: list[str], previous: Outline | None = None) -> None:
        self.texts = lines
        self._cache: dict[int, Line] = {}
        self._indents: list[int] | None = None
        self._dashes: list[bool] = []
        #: An earlier version's outline whose shapes are measured: the lines both texts
        #: start and end with keep theirs (only one such outline is ever held).
        self._basis: Outline | None = previous
        if previous is not None and previous._indents is None:
            self._basis = previous._basis

    def __len__(self) -> int:
        return len(self.texts)

    def line(self, number: int) -> Line:
        """Line *number*, read."""
        found = self._cache.get(number)
        if found is None:
            found = read_line(number, self.texts[number])
            self._cache[number] = found
        return found

    def _shape(self) -> tuple[list[int], list[bool]]:
        """Each line's indent (-1 when blank, as ``Line.blank``) and whether it starts with a
        dash; measured for the lines an earlier version's outline does not share."""
        if self._indents is None:
            basis, self._basis = self._basis, None
            if basis is None or basis._indents is None:
                self._indents, self._dashes = _measure(self.texts)
            else:
                old, new = basis.texts, self.texts
                prefix, suffix = common_ends(old, new)
                indents, dashes = _measure(new[prefix : len(new) - suffix])
                tail = len(old) - suffix
                self._indents = [*basis._indents[:prefix], *indents, *basis._indents[tail:]]
                self._dashes = [*basis._dashes[:prefix], *dashes, *basis._dashes[tail:]]
        return self._indents, self._dashes

    def item_index(self, number: int, dash: int) -> int:
        """The index of the sequence item whose dash is at (*number*, *dash*)."""
        indents, dashes = self._shape()
        index = 0
        for above in range(number - 1, -1, -1):
            indent = indents[above]
            if indent < 0:
                continue
            if dashes[above] and indent == dash:
                index += 1
            elif indent < dash or (indent == dash and not dashes[above]):
                break
        return index

    def parent(self, number: int, column: int) -> KeyPath:
        """The path of the mapping holding a key at *column* on line *number*."""
        indents, dashes = self._shape()
        path: list[object] = []
        target = column
        seq: int | None = None  # looking for the key owning a sequence at this dash column
        for above in range(number - 1, -1, -1):
            indent = indents[above]
            if indent < 0:
                continue
            if seq is not None:
                if indent > seq or (dashes[above] and indent == seq):
                    continue
                line = self.line(above)
                if line.key is None:
                    return tuple(reversed(path))
                path.append(line.key)
                target, seq = self._climb(line, path)
                continue
            if indent >= target:
                continue  # a sibling's line or a deeper one (a content never starts before its indent)
            line = self.line(above)
            if line.dash is not None and line.content == target and line.dash < target:
                path.append(self.item_index(above, line.dash))
                seq = line.dash
                continue
            if line.content < target and line.key is not None:
                path.append(line.key)
                target, seq = self._climb(line, path)
                continue
            if line.indent < target and (line.dash is None or line.dash < target):
                return tuple(reversed(path))
        return tuple(reversed(path))

    def _climb(self, line: Line, path: list[object]) -> tuple[int, int | None]:
        """After taking *line*'s key: where the search goes on from."""
        if line.dash is not None:
            path.append(self.item_index(line.number, line.dash))
            return line.dash, line.dash
        return line.indent, None

    def block(self, number: int, column: int, *, above: bool = True) -> dict[str, tuple[int, str]]:
        """The keys of the block mapping around line *number* whose keys sit at *column*:
        key -> (line, value text). With *above* false, only the lines below count (a new
        sequence item starts on line *number*)."""
        indents, dashes = self._shape()
        keys: dict[str, tuple[int, str]] = {}
        for above_line in range(number - 1 if above else -1, -1, -1):
            if indents[above_line] < 0 or indents[above_line] > column:
                continue
            line = self.line(above_line)
            if line.content == column and line.key is not None:
                keys.setdefault(line.key, (above_line, line.value))
                if line.dash is not None:
                    break
                continue
            break
        for below in range(number + 1, len(self)):
            indent = indents[below]
            if indent < 0 or (indent > column and not dashes[below]):
                continue
            if not dashes[below] and indent < column:
                break
            line = self.line(below)
            if line.dash is not None and line.dash < column + 1 and line.content <= column:
                break
            if line.indent == column and line.key is not None and line.dash is None:
                keys.setdefault(line.key, (below, line.value))
                continue
            if line.indent < column:
                break
        return keys

    def top_block(self, key: str) -> list[Line]:
        """The key lines directly inside the top-level *key* (e.g. the declared fields)."""
        indents, dashes = self._shape()
        start = None
        for number in range(len(self)):
            if indents[number] != 0 or dashes[number]:
                continue
            if self.line(number).key == key:
                start = number
                break
        if start is None:
            return []
        found: list[Line] = []
        column = None
        for number in range(start + 1, len(self)):
            indent = indents[number]
            if indent < 0:
                continue
            if indent == 0:
                break
            if column is None:
                column = indent
            if indent == column and not dashes[number]:
                line = self.line(number)
                if line.key is not None:
                    found.append(line)
        return found


# ------------------------------------------------------------------------- completion


Where = Literal["key", "value"]


@dataclass
class CursorContext:
    """What may be typed at the cursor.

    ``where`` is ``key`` (a key of the mapping at ``path``, or a new item when ``path``
    holds a sequence) or ``value`` (the value of the key ``key`` inside ``path``).
    """

    where: Where
    path: KeyPath
    key: str | None = None
    #: Keys already in the mapping, with their values as written.
    present: dict[str, str] = field(default_factory=dict)
    #: Column where a new key starts (for multi-line snippets).
    column: int = 0
    #: Whether the line already has its ``- `` (for a new item).
    dashed: bool = False
    #: The partial word before the cursor: (line, start column).
    word_start: int = 0
    in_flow: bool = False


def cursor_context(
    lines: list[str], line: int, column: int, doc: Document | None = None, outline: Outline | None = None
) -> CursorContext | None:
    """The completion context at code-point *column* of *line* (*outline*: one already kept
    for *lines*)."""
    if line >= len(lines):
        return None
    text = lines[line]
    prefix = text[:column]
    word = _WORD.search(prefix)
    word_start = word.start() if word is not None else column
    if doc is not None:
        flow = _flow_context(doc, lines, line, column, word_start)
        if flow is not None:
            return flow
    if outline is None:
        outline = Outline(lines)
    typed = read_line(line, prefix)
    rest = prefix[typed.content :]
    if "#" in rest:
        return None
    if typed.key is None and rest and not _WORD.fullmatch(rest):
        return None
    dashed = typed.dash is not None
    parent = parent_with_item(outline, line, typed.content, typed.dash)
    block = outline.block(line, typed.content, above=not dashed)
    if typed.key is None:
        present = {k: v for k, (n, v) in block.items() if n != line}
        return CursorContext("key", parent, present=present, column=typed.content, dashed=dashed, word_start=word_start)
    present = {k: v for k, (_, v) in block.items()}
    present.setdefault(typed.key, typed.value)
    return CursorContext(
        "value", parent, key=typed.key, present=present, column=typed.content, dashed=dashed, word_start=word_start
    )


def parent_with_item(outline: Outline, line: int, column: int, dash: int | None) -> KeyPath:
    """The path of the mapping a key at *column* belongs to; on a ``- `` line, the new item."""
    if dash is None:
        return outline.parent(line, column)
    owner = outline.parent(line, dash)
    return (*owner, outline.item_index(line, dash))


def _flow_context(doc: Document, lines: list[str], line: int, column: int, word_start: int) -> CursorContext | None:
    """Inside a one-line flow mapping (``{type: int, |}``) of a parsed document."""
    pos = Pos(line, column)
    best: tuple[KeyPath, Location] | None = None
    for path, entry, on_key in walk(doc, pos):
        span = entry.value
        if on_key or entry.scalar is not None or span.start.line != line:
            continue
        if span.end.line == line and lines[line][span.start.column : span.start.column + 1] == "{":
            best = (path, entry)
    if best is None or not (best[1].value.start < pos < best[1].value.end):
        return None
    path, entry = best
    value: Any = doc.value
    for part in path:
        value = value[part]
    present = {str(k): str(v) for k, v in value.items()} if isinstance(value, dict) else {}
    segment = lines[line][entry.value.start.column + 1 : column]
    piece = re.split(r"[,{]", segment)[-1]
    if ":" in piece:
        key = piece.split(":", 1)[0].strip()
        return CursorContext("value", path, key=key, present=present, word_start=word_start, in_flow=True)
    return CursorContext("key", path, present=present, word_start=word_start, in_flow=True)
