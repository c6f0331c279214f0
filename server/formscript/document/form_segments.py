"""A form spec's text split into its top-level members and the entries of ``fields`` and
``values``, each parsed on its own and kept by its text.

A form spec is a block mapping at column 0. A line scan cuts it where a line starts at
column 0 (a top-level member), and cuts a ``fields:`` or ``values:`` member whose block
mapping starts on the next lines where a line starts at that mapping's indent (one field
declaration, one value). Each piece is parsed alone, its columns as written and its lines
counted from its own first line; a piece that is not the last of its mapping is parsed with
a key of that mapping after it (``SENTINEL``), as it is followed in the whole text, so the
collections it closes end where the next member starts, as they do there. An edit re-parses
only the pieces whose text changed. ``SplicedForm`` answers the ``Document`` protocol from
the pieces, shifting each piece's positions by the line it starts on: what it answers is
what ``parse_document`` of the whole text answers (tests/test_incremental.py compares every
path).

The split is used only where it cannot differ from the whole parse; anything else is None
(the caller parses the whole text): a character the scan does not model (tabs, carriage
returns and other line breaks, a byte order mark), document markers or directives, merge
keys, an anchor name that may be used twice, a text libyaml is known to read differently
from the runtime's loader, content before the first top-level member, two top-level members
with equal keys, and any piece that does not parse alone as exactly one member of a block
mapping without problems (an alias to another piece's anchor, a quote or flow collection
running into the next piece: a token that crosses a cut makes the piece before it fail
alone, since a cut is made only at a line that starts a member of the mapping being cut).

Kept for the keystroke figure ``lint.incremental`` names (an edit re-parses one piece).
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

import yaml

from formscript.core.ends import common_ends
from formscript.core.verdict import KeyPath
from formscript.document.located import YamlDocument, parse_document
from formscript.document.model import Collection, Edit, Location, Pos, Span
from formscript.document.positions import LineIndex
from formscript.document.segments import (
    WholeText,
    moved_collections,
    moved_location,
    moved_span,
    only_comments,
    too_deep_piece,
    unsplittable,
)
from formscript.document.yamlread import loader_for, node_span, safe_loader_class

__all__ = ["FormCache", "SplicedForm", "repeated_anchor"]

#: The key each piece but the last of its mapping is parsed with after it: a plain key no
#: form is expected to use (one that does is a duplicate within the piece: not split).
SENTINEL = "~~formscript~~"

#: A line whose content starts at column 0 (comments and blank lines do not cut).
_TOP = re.compile(r"^[^ #\n]", re.MULTILINE)
#: A member's line that starts a block mapping cut into entries.
_SECTION = re.compile(r"(fields|values):[ ]*(?:#[^\n]*)?\n")
#: The first line with content (not a comment) after a section's key line.
_FIRST = re.compile(r"^( +)([^ #\n])", re.MULTILINE)
#: What an entry of a cut mapping may start with: a plain or quoted key.
_KEY_START = re.compile(r"[A-Za-z0-9_\"']")
#: What may be an anchor (and its name): every anchor, and some text that only looks like one.
_ANCHOR = re.compile(r"(?:^|(?<=[\s\[{,]))&([^\s,\[\]{}]+)", re.MULTILINE)


@lru_cache(maxsize=64)
def _entry_lines(indent: int) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """(a line starting an entry at *indent*, a line with content left of it)."""
    start = re.compile(rf"^ {{{indent}}}[^ #\n]", re.MULTILINE)
    stray = re.compile(rf"^ {{1,{indent - 1}}}[^ #\n]", re.MULTILINE) if indent > 1 else re.compile(r"(?!)")
    return start, stray


@dataclass(frozen=True)
class Piece:
    """One member of a mapping, parsed alone: its key, value and document."""

    doc: YamlDocument
    key: Any
    value: Any


@dataclass
class Member:
    """One top-level member: parsed alone (``piece``), or a cut mapping (``entries``)."""

    key: Any
    offset: int
    piece: Piece | None = None
    #: A cut mapping: its entries, the offset of each, its indent, and each key's entry.
    entries: list[Piece] = field(default_factory=list)
    offsets: list[int] = field(default_factory=list)
    indent: int = 0
    index: dict[Any, int] = field(default_factory=dict)


def _piece(text: str, indent: int, last: bool) -> Piece | None:
    """*text* (one member of a mapping at *indent*) parsed alone, when it parses as exactly
    one block mapping member without problems."""
    if too_deep_piece(text):
        return None
    doc = parse_document(text if last else text + " " * indent + SENTINEL + ":")
    root = doc.root
    count = 1 if last else 2
    if (
        not doc.ok
        or doc.problems
        or not isinstance(root, yaml.MappingNode)
        or root.flow_style
        or len(root.value) != count
        or not isinstance(doc.value, dict)
        or len(doc.value) != count
    ):
        return None
    key_node = root.value[0][0]
    if key_node.start_mark.line != 0 or key_node.start_mark.column != indent:
        return None
    if not last:
        sentinel, empty = root.value[1]
        if not (
            isinstance(sentinel, yaml.ScalarNode)
            and sentinel.value == SENTINEL
            and sentinel.start_mark.line == text.count("\n")
            and isinstance(empty, yaml.ScalarNode)
            and empty.value == ""
            and list(doc.value)[-1] == SENTINEL
        ):
            return None
    key = next(iter(doc.value))
    return Piece(doc, key, doc.value[key])


def repeated_anchor(text: str) -> bool:
    """Whether *text* may name one anchor twice (the whole parse refuses that; its pieces
    parsed alone would not see it)."""
    if "&" not in text:
        return False
    names = _ANCHOR.findall(text)
    return len(set(names)) != len(names)


def _used(spliced: SplicedForm, where: Any, piece: Piece) -> bool:
    """Whether *piece* is one of *spliced*'s (kept in its place)."""
    member = spliced._member(where) if where is not None else None
    if member is None:
        return any(m.piece is piece for m in spliced.members)
    number = spliced._entry_of(member, piece.key)
    return number is not None and member.entries[number] is piece


class FormCache:
    """The pieces of one form's text parsed alone, across its versions: a piece whose text
    (and place: last of its mapping or not) was seen in the last version is not parsed again."""

    def __init__(self) -> None:
        self._kept: dict[tuple[Any, str, bool], Piece] = {}
        self._last: SplicedForm | None = None

    def document(self, text: str) -> SplicedForm | None:
        """*text* as a spliced form, or None when the split cannot be trusted."""
        last = self._last
        if last is not None and last.text == text:
            return last
        found = self._window(last, text) if last is not None else None
        if found is not None:
            self._last = found
            return found
        if unsplittable(text) or "<<" in text or repeated_anchor(text):
            return None
        starts = [m.start() for m in _TOP.finditer(text)]
        if not starts or not only_comments(text[: starts[0]]):
            return None
        kept: dict[tuple[Any, str, bool], Piece] = {}
        members: list[Member] = []
        ends = [*starts[1:], len(text)]
        for begin, end in zip(starts, ends, strict=True):
            member = self._member(text, begin, end, end == len(text), kept)
            if member is None:
                return None
            members.append(member)
        spliced = SplicedForm(text, members)
        if spliced.value is None:
            return None
        self._kept = kept
        self._last = spliced
        return spliced

    def _window(self, last: SplicedForm, text: str) -> SplicedForm | None:
        """*text* spliced from *last* and the entries the difference between them touches,
        when it lies inside one cut mapping's entries; None otherwise (the text is split
        again)."""
        old = last.text
        prefix, suffix = common_ends(old, text)
        old_end, shift = len(old) - suffix, len(text) - len(old)
        number = bisect.bisect_right([m.offset for m in last.members], prefix) - 1
        if number < 0:
            return None
        member = last.members[number]
        offsets, indent = member.offsets, member.indent
        if member.piece is not None:
            return None
        member_end = last.members[number + 1].offset if number + 1 < len(last.members) else len(old)
        if member_end < len(old) and member_end <= old_end:
            return None  # the next member's first line changed
        # entries before the change: their first line (its indent and first character) before it
        begin = bisect.bisect_right(offsets, prefix - indent - 1) - 1
        if begin < 0:
            return None
        # entries after the change: they start (and the line break before them) after it
        after = bisect.bisect_right(offsets, old_end)
        end = member_end + shift
        start = offsets[begin]
        stop = offsets[after] + shift if after < len(offsets) else end
        window = text[start:stop]
        if (
            unsplittable(window)
            or "<<" in window
            or _TOP.search(window)
            or (any(c in window for c in "?{[") and loader_for(text) is not safe_loader_class())
            or ("&" in window and repeated_anchor(text))
        ):
            return None
        item, stray = _entry_lines(indent)
        if stray.search(window):
            return None
        inner = [start + m.start() for m in item.finditer(window)]
        if not inner or inner[0] != start:
            return None
        kept = self._kept
        middle: list[Piece] = []
        for at, until in zip(inner, [*inner[1:], stop], strict=True):
            piece = self._parsed(member.key, text[at:until], indent, until == end, kept)
            if piece is None:
                return None
            middle.append(piece)
        entries = [*member.entries[:begin], *middle, *member.entries[after:]]
        index = {piece.key: n for n, piece in enumerate(entries)}
        new_offsets = [*offsets[:begin], *inner, *(o + shift for o in offsets[after:])]
        cut = Member(member.key, member.offset, None, entries, new_offsets, indent, index)
        later = [replace(m, offset=m.offset + shift) for m in last.members[number + 1 :]]
        for m in later:
            if m.piece is None:
                m.offsets = [o + shift for o in m.offsets]
        spliced = SplicedForm(text, [*last.members[:number], cut, *later])
        if spliced.value is None:
            return None
        if len(kept) > 2 * sum(len(m.entries) + 1 for m in spliced.members) + 64:
            self._kept = {k: v for k, v in kept.items() if _used(spliced, k[0], v)}
        return spliced

    def _parsed(
        self, where: Any, text: str, indent: int, last: bool, kept: dict[tuple[Any, str, bool], Piece]
    ) -> Piece | None:
        found = self._kept.get((where, text, last))
        if found is None:
            found = _piece(text, indent, last)
            if found is None:
                return None
        kept[(where, text, last)] = found
        return found

    def _member(
        self, text: str, begin: int, end: int, last: bool, kept: dict[tuple[Any, str, bool], Piece]
    ) -> Member | None:
        section = _SECTION.match(text, begin)
        if section is not None and section.end() <= end:
            member = self._cut(text, section.group(1), begin, section.end(), end, kept)
            if member is not None:
                return member
        piece = self._parsed(None, text[begin:end], 0, last, kept)
        if piece is None:
            return None
        return Member(piece.key, begin, piece)

    def _cut(
        self, text: str, key: str, begin: int, body: int, end: int, kept: dict[tuple[Any, str, bool], Piece]
    ) -> Member | None:
        """The member *key* (its line at *begin*, its block mapping from *body* to *end*) cut
        into its entries, or None when it is not a block mapping that can be cut."""
        first = _FIRST.search(text, body, end)
        if first is None or not _KEY_START.match(first.group(2)):
            return None
        indent = len(first.group(1))
        start, stray = _entry_lines(indent)
        if stray.search(text, body, end):
            return None
        offsets = [m.start() for m in start.finditer(text, first.start(), end)]
        if not offsets or offsets[0] != first.start():
            return None
        entries: list[Piece] = []
        index: dict[Any, int] = {}
        stops = [*offsets[1:], end]
        for number, (at, stop) in enumerate(zip(offsets, stops, strict=True)):
            piece = self._parsed(key, text[at:stop], indent, stop == end, kept)
            if piece is None:
                return None
            entries.append(piece)
            index[piece.key] = number  # equal keys: the last one's (as the whole parse locates)
        return Member(key, begin, None, entries, offsets, indent, index)


@dataclass
class SplicedForm(WholeText):
    """A form's text answered from its members, each parsed alone (or cut into entries)."""

    members: list[Member]
    _index: dict[Any, int] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        value: dict[Any, Any] = {}
        for number, member in enumerate(self.members):
            if member.piece is not None:
                value[member.key] = member.piece.value
            else:
                # equal keys: the first one's place, the last one's value (as a dict keeps them)
                value[member.key] = {piece.key: piece.value for piece in member.entries}
                if len(member.index) != len(member.entries):
                    self._duplicates(member)
            self._index[member.key] = number
        # two members with equal keys: the whole parse reports them (value None: not split)
        self.value = value if len(value) == len(self.members) else None

    def _duplicates(self, member: Member) -> None:
        """The whole parse's findings on entries of *member* whose keys equal a later one's:
        each earlier key, with where the key kept is written."""
        from formscript import rules

        earlier: dict[Any, list[int]] = {}
        for number, piece in enumerate(member.entries):
            earlier.setdefault(piece.key, []).append(number)
        for key, numbers in earlier.items():
            if len(numbers) < 2:
                continue
            spans = [self._key_span(member, number) for number in numbers]
            for span in spans[:-1]:
                self.problems.append(rules.YM002.problem(key=key, span=span, kept=spans[-1]))

    def _key_span(self, member: Member, number: int) -> Span:
        piece = member.entries[number]
        found = piece.doc.entry((piece.key,))
        assert found is not None and found.key is not None
        return moved_span(found.key, self._line(member.offsets[number]))

    def _line(self, offset: int) -> int:
        """The line *offset* lies on."""
        return bisect.bisect_right(self._positions.starts, offset) - 1

    @functools.cached_property
    def _positions(self) -> LineIndex:
        """The text's line starts, found once (``_line`` is asked per located path)."""
        return LineIndex(self.text)

    def _member(self, key: Any) -> Member | None:
        try:
            number = self._index.get(key)
        except TypeError:
            return None
        return self.members[number] if number is not None else None

    def _entry_of(self, member: Member, key: Any) -> int | None:
        try:
            return member.index.get(key)
        except TypeError:
            return None

    def source_of(self, path: KeyPath) -> object | None:
        """What the value at *path* (a member, or an entry of a cut one) was parsed from:
        the same object for as long as its text is unchanged."""
        if not path:
            return None
        member = self._member(path[0])
        if member is None:
            return None
        if member.piece is not None:
            return member.piece
        if len(path) < 2:
            return None
        number = self._entry_of(member, path[1])
        return member.entries[number] if number is not None else None

    def _cut_span(self, member: Member) -> Span:
        """Where a cut mapping is written: from its first entry's key to its last entry's end."""
        last = member.entries[-1]
        assert last.doc.root is not None
        end = node_span(last.doc.root).end
        shift = self._line(member.offsets[-1])
        return Span(Pos(self._line(member.offsets[0]), member.indent), Pos(end.line + shift, end.column))

    def _member_location(self, member: Member) -> Location:
        line = self._line(member.offset)
        if member.piece is not None:
            found = moved_location(member.piece.doc.entry((member.key,)), line)
            assert found is not None
            return found
        return Location(self._cut_span(member), Span(Pos(line, 0), Pos(line, len(str(member.key)))))

    def entry(self, path: KeyPath) -> Location | None:
        """The located entry at *path*."""
        path = tuple(path)
        if not path:  # where the whole parse ends it: inside its last member (``node_span``)
            last = self.members[-1]
            if last.piece is not None:
                assert last.piece.doc.root is not None
                own = node_span(last.piece.doc.root).end
                end = Pos(own.line + self._line(last.offset), own.column)
            else:
                end = self._cut_span(last).end
            return Location(Span(Pos(self._line(self.members[0].offset), 0), end))
        member = self._member(path[0])
        if member is None:
            return None
        if member.piece is not None:
            return moved_location(member.piece.doc.entry(path), self._line(member.offset))
        if len(path) == 1:
            return self._member_location(member)
        number = self._entry_of(member, path[1])
        if number is None:
            return None
        return moved_location(member.entries[number].doc.entry(path[1:]), self._line(member.offsets[number]))

    def children_near(self, path: KeyPath, pos: Pos) -> list[Any] | None:
        """The keys of the mapping at *path* whose key or value may hold *pos*, in source order
        (the entry on *pos*'s line and the one before: a block scalar ends at the next
        entry's line); None where every key may (``lsp.context.walk`` then tries them all)."""
        if len(path) != 1:
            return None
        member = self._member(path[0])
        if member is None or member.piece is not None or len(member.index) != len(member.entries):
            return None  # (equal keys: not every entry is where its key is located)
        low = bisect.bisect_right(member.offsets, pos.line, key=self._line)  # past the last entry on or before it
        return [member.entries[n].key for n in range(max(low - 2, 0), low)]

    def collections(self) -> Iterator[Collection]:
        """Every mapping and sequence below the top, in the order a whole parse gives."""
        for member in reversed(self.members):
            if member.piece is not None:
                yield from moved_collections(member.piece.doc.collections(), self._line(member.offset))
                continue
            yield Collection(Pos(self._line(member.offset), 0), self._cut_span(member))
            for piece, offset in zip(reversed(member.entries), reversed(member.offsets), strict=True):
                yield from moved_collections(piece.doc.collections(), self._line(offset))

    def replacement(self, path: KeyPath, text: str, *, on_key: bool = False, quoted: bool = False) -> Edit | None:
        """See ``YamlDocument.replacement`` (made on the whole text: asked for a fix)."""
        return self.whole.replacement(path, text, on_key=on_key, quoted=quoted)

    def removal(self, path: KeyPath) -> tuple[Edit, ...] | None:
        """See ``YamlDocument.removal`` (made on the whole text: asked for a fix)."""
        return self.whole.removal(path)
