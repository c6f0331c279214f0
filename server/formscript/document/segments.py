"""A YAML text split into its top-level entries, each parsed on its own and kept by its text.

A script is a block mapping whose last key is ``responses``, a block sequence of entries to
the end of the file. A cheap line scan finds where each entry starts; each entry's text is
parsed alone (a sequence of one item, its columns as written, its lines counted from its own
first line) and kept (``entrycache.EntryCache``), so an edit re-parses only the entry it
touches. ``SplicedDocument`` answers the ``Document`` protocol from the head (the keys before
``responses``) and the entries, shifting each entry's positions by the line it starts on: what
it answers is what ``parse_document`` of the whole text answers (tests/test_incremental.py
compares every path).

The split is used only where it cannot differ from the whole parse; anything else is None
(the caller parses the whole text): a character the scan does not model (tabs, carriage
returns and other line breaks, a byte order mark), document markers or directives, a text
libyaml is known to read differently from the runtime's loader (``yamlread.loader_for``), a
line outside every entry after ``responses:`` (another key, a dedent), a head that is not a
plain block mapping ending in ``responses:``, and any entry that does not parse alone as
exactly one item without problems (an alias to another entry's anchor, a quote or a flow
collection running into the next entry: any token that crosses an entry's end makes that
entry fail alone, since an entry is cut at a line that starts a new item).

Kept for the keystroke figure ``lint.incremental`` names (an edit re-parses one piece).
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import yaml

from formscript.core.verdict import KeyPath, Problem
from formscript.document.comments import comments_of
from formscript.document.located import YamlDocument, node_collections, parse_document
from formscript.document.model import (
    Collection,
    Comment,
    Document,
    Edit,
    Location,
    Pos,
    Span,
    pos_of,
    span_of,
    split_lines,
)
from formscript.document.yamlread import depth_bound, loader_for, node_span, node_start, safe_loader_class

__all__ = ["SplicedDocument", "Split", "split_entries"]

#: Characters the line scan does not model: the whole text is parsed instead.
_UNMODELLED = "\t\r\x85\u2028\u2029\ufeff"
#: Document markers and directives (a stream of several documents, a %TAG): whole parse.
_MARKERS = re.compile(r"^(?:---|\.\.\.)(?:[ ]|$)|^%", re.MULTILINE)


def unsplittable(text: str) -> bool:
    """Whether the line scan cannot be trusted on *text*: it holds a character the scan does
    not model (one substring search each: a regular expression's character class costs a
    long text milliseconds), a line that is a document marker or a directive (the expression
    runs only where a line could start with one), or a construct libyaml is known to read
    differently from the runtime's loader (``yamlread.loader_for``)."""
    if any(char in text for char in _UNMODELLED):
        return True
    maybe_marker = text.startswith(("---", "...", "%")) or "\n---" in text or "\n..." in text or "\n%" in text
    if maybe_marker and _MARKERS.search(text) is not None:
        return True
    return loader_for(text) is not safe_loader_class()


#: The key of a script's entries: the top-level key whose block sequence is split.
KEY = "responses"

#: Entries nested deeper than this are parsed with the whole text (its depth checks decide).
DEEPEST = 100


@dataclass(frozen=True, slots=True)
class Split:
    """Where the entries of the sequence under ``KEY`` start."""

    #: The text before the first entry (the head keys, then the key's own line).
    head: str
    #: Character offset and line of each entry's first line.
    offsets: list[int]
    lines: list[int]
    #: The column of the entries' item signs.
    indent: int


@lru_cache(maxsize=64)
def patterns(indent: int) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """(an entry's first line, a line that is neither an entry's nor inside one)."""
    pad = " " * indent
    start = re.compile(rf"^{pad}-(?:[ ]|$)", re.MULTILINE)
    stray = re.compile(rf"^(?!{pad}-(?:[ ]|$)|{pad}[ ]|[ ]*#|[ ]*$)", re.MULTILINE)
    return start, stray


def split_entries(text: str) -> Split | None:
    """The entries of the block sequence under the top-level ``KEY``, when the text is a block
    mapping ending in that sequence and the split is known to parse as the whole does."""
    if unsplittable(text):
        return None
    found = list(re.finditer(rf"^{KEY}:[ ]*(?:#.*)?$", text, re.MULTILINE))
    if len(found) != 1:
        return None
    after = found[0].end() + 1
    first = re.compile(r"^( *)-(?:[ ]|$)", re.MULTILINE).search(text, after)
    if first is None or not only_comments(text[after : first.start()]):
        return None
    indent = len(first.group(1))
    start, stray = patterns(indent)
    if stray.search(text, first.start()):
        return None
    offsets = [match.start() for match in start.finditer(text, first.start())]
    lines = line_numbers(text, offsets, text.count("\n", 0, first.start()), first.start())
    return Split(text[: first.start()], offsets, lines, indent)


def line_numbers(text: str, offsets: list[int], line: int, at: int) -> list[int]:
    """The line each of the ascending *offsets* of *text* lies on, offset *at* lying on *line*."""
    found = []
    for offset in offsets:
        line += text.count("\n", at, offset)
        at = offset
        found.append(line)
    return found


def only_comments(gap: str) -> bool:
    """Whether *gap* holds only blank lines and comment lines."""
    return all(not line.strip(" ") or line.lstrip(" ").startswith("#") for line in gap.split("\n"))


def entry_parsed(piece: str, indent: int, last: bool) -> tuple[YamlDocument, bool]:
    """*piece* (one entry) parsed, and whether it parses as exactly one block item. An entry
    that is not the last is parsed with the next item's sign after it, as it is followed in
    the whole text: the collections it closes end where that sign starts, as they do there."""
    doc = parse_document(piece if last else piece + " " * indent + "-")
    root = doc.root
    items = 1 if last else 2
    alone = not (
        not doc.ok
        or doc.problems
        or not isinstance(root, yaml.SequenceNode)
        or root.flow_style
        or len(root.value) != items
        or not isinstance(doc.value, list)
        or len(doc.value) != items
    )
    return doc, alone


def head_doc(text: str) -> YamlDocument | None:
    """The head parsed alone, when it is a block mapping whose last key is a plain ``KEY``
    with nothing after it."""
    doc = parse_document(text)
    root = doc.root
    if not doc.ok or doc.problems or not isinstance(root, yaml.MappingNode) or root.flow_style or not root.value:
        return None
    last_key, last_value = root.value[-1]
    if not (
        isinstance(last_key, yaml.ScalarNode)
        and last_key.value == KEY
        and isinstance(last_value, yaml.ScalarNode)
        and last_value.value == ""
        and last_value.tag == "tag:yaml.org,2002:null"
    ):
        return None
    value = doc.value
    if not isinstance(value, dict) or list(value)[-1:] != [KEY] or value[KEY] is not None:
        return None
    if sum(1 for k, _ in root.value if isinstance(k, yaml.ScalarNode) and k.value == KEY) != 1:
        return None
    return doc


class EntryView:
    """Entry *index* of a whole parse, answering what that entry parsed alone answers (its
    positions counted from its own first line): the node graph the whole parse made is
    shared, not copied, and asked with the entry's path, its answers moved up by *line*."""

    __slots__ = ("_key", "_line", "_node", "_whole", "text", "value")

    def __init__(self, whole: YamlDocument, index: int, text: str, line: int) -> None:
        self._whole, self._key, self._line = whole, (KEY, index), line
        self._node: yaml.Node = whole.root.value[-1][1].value[index]  # type: ignore[union-attr]
        #: The text it stands for, as ``_parse_parts`` keeps parsed entries by theirs.
        self.text = text
        self.value = [whole.value[KEY][index]]

    def end(self) -> Pos:
        own = node_span(self._node).end
        return Pos(own.line - self._line, own.column)

    def entry(self, path: KeyPath) -> Location | None:
        if not path or path[0] != 0:
            return None
        return moved_location(self._whole.entry((*self._key, *path[1:])), -self._line)

    def collections(self) -> Iterator[Collection]:
        """As ``YamlDocument.collections`` walks the entry (below the sequence of one)."""
        yield from moved_collections(node_collections(self._node, node_start(self._node)), -self._line)

    def replacement(self, path: KeyPath, text: str, *, on_key: bool = False, quoted: bool = False) -> Edit | None:
        edit = self._whole.replacement((*self._key, *path[1:]), text, on_key=on_key, quoted=quoted)
        return Edit(moved_span(edit.span, -self._line), edit.new_text) if edit is not None else None

    def removal(self, path: KeyPath) -> tuple[Edit, ...] | None:
        edits = self._whole.removal((*self._key, *path[1:]))
        if edits is None:
            return None
        return tuple(Edit(moved_span(e.span, -self._line), e.new_text) for e in edits)


#: An entry of a spliced document: parsed alone, or a view of a whole parse's entry.
Part = YamlDocument | EntryView


def _root_end(part: Part) -> Pos:
    """Where the entry's sequence (of it alone) ends (``node_span``), in the entry's own lines."""
    if isinstance(part, EntryView):
        return part.end()
    assert part.root is not None
    return node_span(part.root).end


def too_deep_piece(piece: str) -> bool:

    return depth_bound(piece) > DEEPEST


def moved_span(span: Span, lines: int) -> Span:
    start, end = span
    return span_of((pos_of((start[0] + lines, start[1])), pos_of((end[0] + lines, end[1]))))


def moved_collections(found: Iterable[Collection], lines: int) -> Iterator[Collection]:
    """The collections *found*, moved down by *lines*."""
    for each in found:
        yield Collection(Pos(each.owner.line + lines, each.owner.column), moved_span(each.span, lines))


def moved_location(found: Location | None, lines: int) -> Location | None:
    if found is None or not lines:
        return found
    key = moved_span(found.key, lines) if found.key is not None else None
    return Location(moved_span(found.value, lines), key, found.scalar)


@dataclass
class WholeText(Document):
    """What a document spliced from pieces parsed alone answers from its whole text."""

    text: str
    _comments: list[Comment] | None = dataclasses.field(default=None, init=False, repr=False, compare=False)
    #: Made from the pieces; a script's is given when spliced from an earlier version's
    #: (``EntryCache``).
    value: Any = dataclasses.field(default=None, kw_only=True)
    ok: bool = dataclasses.field(default=True, kw_only=True)
    problems: list[Problem] = dataclasses.field(default_factory=list, kw_only=True)
    syntax: str = dataclasses.field(default="yaml", kw_only=True)

    @functools.cached_property
    def lines(self) -> list[str]:
        """The text's lines."""
        return split_lines(self.text)

    @functools.cached_property
    def whole(self) -> YamlDocument:
        """The whole text parsed at once (for what is asked rarely: edits for fixes, or
        outside the pieces)."""
        return parse_document(self.text)

    def comments(self) -> list[Comment]:
        """The comments of the whole text."""
        if self._comments is None:
            self._comments = comments_of(self.text) if "#" in self.text else []
        return self._comments


@dataclass
class SplicedDocument(WholeText):
    """A script's text answered from its head and its entries, each parsed alone."""

    head: YamlDocument
    #: Each entry parsed alone (None: it does not parse alone, in a tolerated document).
    parts: list[Part | None]
    #: The line each entry starts on.
    starts: list[int]
    #: The character offset each entry starts at.
    offsets: list[int]
    #: The column of the entries' item signs (where each entry, and the sequence, starts).
    indent: int

    def __post_init__(self) -> None:
        if self.value is None:
            value = dict(self.head.value)
            value[KEY] = [part.value[0] if part is not None else None for part in self.parts]
            self.value = value

    @property
    def unshared(self) -> bool:
        """As ``YamlDocument.unshared``: the text holds no alias."""
        return "*" not in self.text

    @property
    def tolerated(self) -> bool:
        """Whether some entry does not parse alone (``tolerate``): the whole text does not load."""
        return any(part is None for part in self.parts)

    def _sequence(self) -> Span:
        last = self.parts[-1]
        if last is not None:  # where the whole parse ends it (``node_span``)
            own = _root_end(last)
            end = Pos(own.line + self.starts[-1], own.column)
        else:
            end = Pos(len(self.lines) - 1, len(self.lines[-1])) if self.lines[-1] else Pos(len(self.lines), 0)
        return Span(Pos(self.starts[0], self.indent), end)

    def _lines_of(self, index: int) -> Span:
        """Where entry *index* is written: from its item sign to the next entry's."""
        indent = self.indent
        if index + 1 < len(self.starts):
            return Span(Pos(self.starts[index], indent), Pos(self.starts[index + 1], indent))
        return Span(Pos(self.starts[index], indent), self._sequence().end)

    def _part(self, path: KeyPath) -> int | None:
        """The entry *path* (under the key, then an index) lies in."""
        if len(path) < 2 or path[0] != KEY:
            return None
        index = path[1]
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(self.parts):
            return None
        return index

    def entry(self, path: KeyPath) -> Location | None:
        """The located entry at *path*."""
        path = tuple(path)
        if not path:
            top = self.head.entry(())
            assert top is not None
            return Location(Span(top.value.start, self._sequence().end))
        if path[0] == KEY:
            if len(path) == 1:
                own = self.head.entry(path)
                return Location(self._sequence(), own.key if own is not None else None)
            index = path[1]
            if isinstance(index, bool) or (isinstance(index, float) and index.is_integer()):  # as dict.get finds them
                index = int(index)
            if not isinstance(index, int) or not 0 <= index < len(self.parts):
                return None
            part = self.parts[index]
            if part is None:  # a broken entry (tolerated): its lines, nothing inside located
                return Location(self._lines_of(index)) if len(path) == 2 else None
            return moved_location(part.entry((0, *path[2:])), self.starts[index])
        return self.head.entry(path)

    def collections(self) -> Iterator[Collection]:
        """Every mapping and sequence below the top, in the order a whole parse gives."""
        own = self.head.entry((KEY,))
        assert own is not None and own.key is not None
        yield Collection(own.key.start, self._sequence())
        for part, lines in zip(reversed(self.parts), reversed(self.starts), strict=True):
            if part is not None:
                yield from moved_collections(part.collections(), lines)
        yield from self.head.collections()

    def replacement(self, path: KeyPath, text: str, *, on_key: bool = False, quoted: bool = False) -> Edit | None:
        """See ``YamlDocument.replacement``: made on the entry, shifted."""
        index = self._part(tuple(path))
        if index is None:
            if self.tolerated:  # the whole text does not load: nothing in it is located
                return None
            return self.whole.replacement(path, text, on_key=on_key, quoted=quoted)
        part = self.parts[index]
        if part is None:
            return None
        edit = part.replacement((0, *tuple(path)[2:]), text, on_key=on_key, quoted=quoted)
        return Edit(moved_span(edit.span, self.starts[index]), edit.new_text) if edit is not None else None

    def removal(self, path: KeyPath) -> tuple[Edit, ...] | None:
        """See ``YamlDocument.removal``: made on the entry, shifted."""
        index = self._part(tuple(path))
        if index is None:
            return None if self.tolerated else self.whole.removal(path)
        part = self.parts[index]
        edits = part.removal((0, *tuple(path)[2:])) if part is not None else None
        if edits is None:
            return None
        return tuple(Edit(moved_span(e.span, self.starts[index]), e.new_text) for e in edits)


def views_except(
    whole: YamlDocument, text: str, split: Split, broken: dict[int, list[Problem]]
) -> list[Part | None] | None:
    """The entries of *whole* (*text*, or *text* with the *broken* entries written over) as
    views, None in the places of the broken ones; None when some entry kept might not lie
    within its own lines: its item must start after its item sign and end before the next
    kept entry's (only comment lines between), the nodes must not be shared (an alias, a merge
    key) and the parse must be free of problems and duplicate keys."""
    root = whole.root
    if (
        not whole.ok
        or whole.problems
        or whole.duplicates
        or "*" in text
        or "<<" in text
        or not isinstance(root, yaml.MappingNode)
        or root.flow_style
        or not root.value
    ):
        return None
    lines, offsets, indent = split.lines, split.offsets, split.indent
    count = len(offsets)
    ends = [*offsets[1:], len(text)]
    kept = [index for index in range(count) if index not in broken]
    last_key, sequence = root.value[-1]
    value = whole.value
    if not (
        kept
        and isinstance(last_key, yaml.ScalarNode)
        and last_key.value == KEY
        and isinstance(sequence, yaml.SequenceNode)
        and not sequence.flow_style
        and len(sequence.value) == len(kept)
        and isinstance(value, dict)
        and list(value)[-1:] == [KEY]
        and isinstance(value[KEY], list)
        and len(value[KEY]) == len(kept)
    ):
        return None
    deep = depth_bound(text) > DEEPEST
    sign = " " * indent + "-"
    parts: list[Part | None] = [None] * count
    for position, index in enumerate(kept):
        node = sequence.value[position]
        start, end = node.start_mark, node.end_mark
        line = lines[index]
        if (start.line, start.column) <= (line, indent):
            return None
        if position + 1 < len(kept) and (end.line, end.column) > (lines[kept[position + 1]], indent):
            return None
        piece = text[offsets[index] : ends[index]]
        if index + 1 < count:
            if start.line >= lines[index + 1]:
                return None
            own = piece + sign
        else:
            own = piece
        if deep and too_deep_piece(piece):
            return None
        parts[index] = EntryView(whole, position, own, line)
    return parts
