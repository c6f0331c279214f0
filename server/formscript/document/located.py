"""Parse YAML or JSON into values exactly as PyYAML's safe_load (or json) yields them, plus
the source range of every key and value.

libyaml's composer gives the nodes with their marks (fast); PyYAML's SafeConstructor builds
the values from those nodes, so they are the runtime's values. When libyaml refuses a text,
the pure-Python loader (the one the runtime uses) decides, so a verdict never rests on a
difference between the two parsers. Parsing never raises: problems come back as data.
"""

from __future__ import annotations

import bisect
import functools
import json
import re
from collections.abc import Iterator
from typing import Any

import yaml

from formscript import rules
from formscript.core.records import Record
from formscript.core.verdict import KeyPath, Problem
from formscript.document.model import (
    Collection,
    Comment,
    Document,
    Edit,
    Location,
    Pos,
    Scalar,
    Span,
    Syntax,
    pos_of,
    span_of,
    split_lines,
)
from formscript.document.positions import YAML_BREAKS, LineIndex
from formscript.document.writing import json_source, scalar_source

__all__ = ["MAX_DEPTH", "YamlDocument", "loads_json", "parse_document", "position_of"]

#: One hop of a written path: the parent, the key node (None in a sequence) and the node.
Hop = tuple[yaml.Node, yaml.Node | None, yaml.Node]


class YamlDocument(Record, Document):
    """A YAML or JSON text: its value (None when unparsable), parse problems, and the node
    graph libyaml composed, from which every key path is located on demand."""

    text: str
    value: Any
    ok: bool
    #: Problems found while parsing (syntax, duplicate keys, unsafe tags), located by span.
    problems: list[Problem]
    syntax: Syntax
    #: Earlier occurrences of duplicated keys: path -> key spans of the overridden copies.
    duplicates: dict[KeyPath, list[Span]]
    root: yaml.Node | None
    #: libyaml refused the text and the pure-Python loader was not asked (``parse_document``).
    unconfirmed: bool
    #: Where libyaml refused it (the lines of its problem and context marks), when unconfirmed.
    refused_lines: tuple[int, ...]
    _lines: list[str] | None
    _children: dict[int, dict[Any, tuple[yaml.Node | None, yaml.Node]]]
    _index: LineIndex | None
    _shared: set[int] | None
    _comment_starts: list[int] | None
    #: Located entries by path, and the written hops to a path (``_written``), kept because
    #: a finding's span, its fix and a later finding at the same place walk the same path.
    _located: dict[KeyPath, Location | None] | None
    _chains: dict[KeyPath, tuple[Hop, ...] | None] | None
    #: Whether the text may hold an alias or a merge key (``_hop``); None until asked.
    _linked: bool | None
    #: Whether the text may hold an anchor or a tag (``_scalar_span``); None until asked.
    _marked: bool | None

    _fields = (
        "text",
        "value",
        "ok",
        "problems",
        "syntax",
        "duplicates",
        "root",
        "unconfirmed",
        "refused_lines",
        "_lines",
        "_children",
        "_index",
        "_shared",
        "_comment_starts",
        "_located",
        "_chains",
        "_linked",
        "_marked",
    )

    def __init__(
        self,
        text: str,
        value: Any = None,
        ok: bool = True,
        problems: list[Problem] | None = None,
        syntax: Syntax = "yaml",
        duplicates: dict[KeyPath, list[Span]] | None = None,
        root: yaml.Node | None = None,
        unconfirmed: bool = False,
        refused_lines: tuple[int, ...] = (),
        _lines: list[str] | None = None,
        _children: dict[int, dict[Any, tuple[yaml.Node | None, yaml.Node]]] | None = None,
        _index: LineIndex | None = None,
        _shared: set[int] | None = None,
        _comment_starts: list[int] | None = None,
        _located: dict[KeyPath, Location | None] | None = None,
        _chains: dict[KeyPath, tuple[Hop, ...] | None] | None = None,
        _linked: bool | None = None,
        _marked: bool | None = None,
    ) -> None:
        self.text = text
        self.value = value
        self.ok = ok
        self.problems = [] if problems is None else problems
        self.syntax = syntax
        self.duplicates = {} if duplicates is None else duplicates
        self.root = root
        self.unconfirmed = unconfirmed
        self.refused_lines = refused_lines
        self._lines = _lines
        self._children = {} if _children is None else _children
        self._index = _index
        self._shared = _shared
        self._comment_starts = _comment_starts
        self._located = _located
        self._chains = _chains
        self._linked = _linked
        self._marked = _marked

    def entry(self, path: KeyPath) -> Location | None:
        """The located entry at *path*, walking only the mappings on the way."""
        located = self._located
        if located is None:
            located = self._located = {}
        try:
            return located[path]
        except KeyError:
            pass
        except TypeError:  # a path given as a list, or holding an unhashable part
            return self._locate_entry(path)
        found = located[path] = self._locate_entry(path)
        return found

    def _locate_entry(self, path: KeyPath) -> Location | None:
        node = self.root
        if node is None:
            return None
        key_node: yaml.Node | None = None
        built = self._children
        for part in path:
            kind = type(node)
            if kind is yaml.SequenceNode and type(part) is int:  # an index, without the map
                items = node.value
                if not 0 <= part < len(items):
                    return None
                key_node, node = None, items[part]
                continue
            if kind is yaml.MappingNode and type(part) is str and len(node.value) <= _SCANNED and id(node) not in built:
                # a string is the key of the last member whose key is that string, written
                # plain or quoted (``_children_of``'s map, without making it for a few members)
                for member_key, member in reversed(node.value):
                    if member_key.value == part and member_key.tag == _STR and type(member_key) is yaml.ScalarNode:
                        key_node, node = member_key, member
                        break
                else:
                    return None
                continue
            children = self._children_of(node)
            if children is None:
                return None
            try:
                found = children.get(part)
            except TypeError:
                return None
            if found is None:
                return None
            key_node, node = found
        return Location.found((_span, _scalar, node, key_node))

    def _children_of(self, node: yaml.Node) -> dict[Any, tuple[yaml.Node | None, yaml.Node]] | None:
        cached = self._children.get(id(node))
        if cached is not None:
            return cached
        children: dict[Any, tuple[yaml.Node | None, yaml.Node]] = {}
        if isinstance(node, yaml.MappingNode):
            scalar = yaml.ScalarNode
            for key_node, value_node in node.value:
                # a string key is its text (``_key_value``, without the call)
                key = key_node.value if key_node.tag == _STR and type(key_node) is scalar else _key_value(key_node)
                if key is not _UNHASHABLE:
                    children[key] = (key_node, value_node)
        elif isinstance(node, yaml.SequenceNode):
            for index, item in enumerate(node.value):
                children[index] = (None, item)
        else:
            return None
        self._children[id(node)] = children
        return children

    def children_near(self, path: KeyPath, pos: Pos) -> list[Any] | None:
        """The keys of the block mapping at *path* whose key or value may hold *pos*, in
        source order: the last member whose key starts at or before *pos*, and the one
        before it (a block scalar ends where the next member's line starts). None where
        every key may (a small, flow or aliased mapping, merge keys, a duplicated key):
        ``lsp.context.walk`` then tries them all."""
        if "*" in self.text or "<<" in self.text:
            return None
        node = self.root
        for part in path:
            children = self._children_of(node) if node is not None else None
            try:
                found = children.get(part) if children is not None else None
            except TypeError:
                return None
            if found is None:
                return None
            node = found[1]
        if not isinstance(node, yaml.MappingNode) or node.flow_style or len(node.value) < 8:
            return None
        own = self._children_of(node)
        if own is None or len(own) != len(node.value):
            return None
        pairs = node.value
        low, high = 0, len(pairs)
        while low < high:  # the last member whose key starts at or before pos
            middle = (low + high) // 2
            mark = pairs[middle][0].start_mark
            if (mark.line, mark.column) <= pos:
                low = middle + 1
            else:
                high = middle
        return [_key_value(key) for key, _ in pairs[max(low - 2, 0) : low]]

    @property
    def unshared(self) -> bool:
        """Whether no value is reached twice in the loaded value (the text holds no alias:
        YAML's only way to share one; JSON has none): each value's size is then bounded by
        the text's."""
        return "*" not in self.text

    @property
    def lines(self) -> list[str]:
        """The text split into lines without their line breaks."""
        if self._lines is None:
            self._lines = split_lines(self.text)
        return self._lines

    def comments(self) -> list[Comment]:
        """The YAML comments, found from the scanner's tokens (so a ``#`` inside a quoted,
        block or plain scalar is not one); JSON has none."""
        if self.syntax == "json" or "#" not in self.text:
            return []
        return _comments(self.text)

    # -- editing: every edit is exact or not offered ------------------------------------

    @property
    def index(self) -> LineIndex:
        """The text's offset/position mapping (the one edits are applied with)."""
        if self._index is None:
            self._index = LineIndex(self.text)
        return self._index

    def edit_text(self, path: KeyPath, text: str, *, on_key: bool = False) -> str | None:
        """*text* as a JSON string, or as a YAML scalar that loads to exactly *text*."""
        return json_source(text) if self.syntax == "json" else scalar_source(text)

    def replacement(self, path: KeyPath, text: str, *, on_key: bool = False, quoted: bool = False) -> Edit | None:
        """The edit writing the string *text* over the scalar key or value at *path*: only the
        scalar itself (an anchor or tag before it stays), and only where it is written at
        *path* and nowhere else (not reached through an alias, not aliased elsewhere)."""
        entry = self._unlinked_entry(path)
        if entry is not None:  # the nodes as located: nothing is aliased, merged or tagged
            source = entry._source
            target = source[3] if on_key else source[2]
            if not isinstance(target, yaml.ScalarNode):
                return None
            marked = self._marked
            if marked is None:
                marked = self._marked = "&" in self.text or "!" in self.text
            # no anchor before it either: the scalar's span is the one the entry located
            span = self._scalar_span(target) if marked else (entry.key if on_key else entry.value)
        else:
            chain = self._written(path)
            if chain is None or not chain:
                return None
            key_node, node = chain[-1][1], chain[-1][2]
            target = key_node if on_key else node
            if not isinstance(target, yaml.ScalarNode):
                return None
            span = self._scalar_span(target)
        if span is None:
            return None
        written = json_source(text) if self.syntax == "json" else scalar_source(text, quoted=quoted)
        return Edit(span, written)

    def _unlinked_entry(self, path: KeyPath) -> Location | None:
        """The located entry at *path*, found from its nodes, where the text holds no alias,
        merge key or tag, so every node is written where the path says (what ``_written``
        finds, without walking its hops); None otherwise or where not found. Only for paths
        of str and int parts: ``_hop`` indexes a sequence with an int alone."""
        if not path or self._is_linked():
            return None
        for part in path:
            kind = type(part)
            if kind is not str and kind is not int:
                return None
        entry = self.entry(path)
        return entry if entry is not None and entry._source is not None else None

    def _is_linked(self) -> bool:
        """Whether the text may hold an alias, a merge key or a tag (``_hop`` checks each hop)."""
        linked = self._linked
        if linked is None:
            text = self.text
            linked = self._linked = "*" in text or "<<" in text or "!" in text
        return linked

    def removal(self, path: KeyPath) -> tuple[Edit, ...] | None:
        """Edits deleting the mapping member at *path* and nothing else: its own lines in block
        style (a comment after it stays), the member and one comma in flow style. Not offered
        where the member is reached through an alias or holds an anchor used elsewhere, where
        a comment sits inside it, or where the layout leaves no exact deletion."""
        if not self.ok or not path:
            return None
        chain = self._written(path[:-1])
        if chain is None:
            return None
        parent = chain[-1][2] if chain else self.root
        if not isinstance(parent, yaml.MappingNode):
            return None
        found = self._children_of(parent)
        pair = found.get(path[-1]) if found is not None else None
        if pair is None or pair[0] is None:
            return None
        key_node: yaml.Node = pair[0]
        value_node = pair[1]
        position = next((i for i, (k, _) in enumerate(parent.value) if k is key_node), None)
        if position is None or not self._at_home(parent, position):
            return None
        if self._anchors_used_elsewhere(key_node, value_node):
            return None
        span = self._flow_removal(parent, position) if parent.flow_style else self._block_removal(parent, position)
        if span is None:
            return None
        return (Edit(Span(self.index.pos(span[0]), self.index.pos(span[1])), ""),)

    def _offset(self, mark: Any) -> int:
        return self.index.offset(Pos(mark.line, mark.column))

    def _shared_nodes(self) -> set[int]:
        """The nodes reached from more than one place (through aliases or merge keys)."""
        if self._shared is None and "*" not in self.text:
            self._shared = set()  # a node is reached twice only through an alias
        if self._shared is None:
            shared: set[int] = set()
            counts: dict[int, int] = {}
            stack = [self.root] if self.root is not None else []
            if self.root is not None:
                counts[id(self.root)] = 1
            while stack:
                node = stack.pop()
                if isinstance(node, yaml.MappingNode):
                    children = [child for pair in node.value for child in pair]
                elif isinstance(node, yaml.SequenceNode):
                    children = list(node.value)
                else:
                    continue
                for child in children:
                    count = counts.get(id(child), 0) + 1
                    counts[id(child)] = count
                    if count == 2:
                        shared.add(id(child))
                    elif count == 1:
                        stack.append(child)
            self._shared = shared
        return self._shared

    def _at_home(self, parent: yaml.Node, position: int) -> bool:
        """Whether child *position* of *parent* is written inside it, in order (a merged or
        aliased child was written elsewhere, earlier)."""
        mark = parent.start_mark
        start = (mark.line, mark.column)
        if isinstance(parent, yaml.MappingNode):
            key, value = parent.value[position]
            if position > 0:
                mark = parent.value[position - 1][1].end_mark
                start = max(start, (mark.line, mark.column))
            key_start, key_end, value_start = key.start_mark, key.end_mark, value.start_mark
            return (key_start.line, key_start.column) >= start and (value_start.line, value_start.column) >= (
                key_end.line,
                key_end.column,
            )
        if isinstance(parent, yaml.SequenceNode):
            if position > 0:
                mark = parent.value[position - 1].end_mark
                start = max(start, (mark.line, mark.column))
            mark = parent.value[position].start_mark
            return (mark.line, mark.column) >= start
        return False

    def _written(self, path: KeyPath) -> tuple[Hop, ...] | None:
        """The (parent, key node, node) hops to *path*, each written where the path says and
        used nowhere else; None when a hop is shared, aliased, merged or missing. Each path's
        hops are kept: the fixes of one entry walk the same parents."""
        if self.root is None:
            return None
        if not path:
            return ()
        chains = self._chains
        if chains is None:
            chains = self._chains = {}
            # a node is used twice only through an alias (``*``); a mapping holds members
            # written elsewhere only through a merge key (``<<``, or a ``!!merge`` tag)
            self._is_linked()
        key = tuple(path)
        try:
            return chains[key]
        except KeyError:
            pass
        except TypeError:  # an unhashable part is no key of any mapping
            return None
        parent = self._written(key[:-1])
        chain = None
        if parent is not None:
            hop = self._hop(parent[-1][2] if parent else self.root, key[-1])
            if hop is not None:
                chain = (*parent, hop)
        chains[key] = chain
        return chain

    def _hop(self, node: yaml.Node, part: Any) -> Hop | None:
        """The hop from *node* to its child *part*, when that child is written there and
        used nowhere else."""
        if isinstance(node, yaml.MappingNode):
            children = self._children_of(node)
            found = children.get(part) if children is not None else None
            if found is None:
                return None
            key_node, child = found
            if not self._linked:
                return node, key_node, child
            try:
                position = [k for k, _ in node.value].index(key_node)
            except ValueError:
                return None
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and 0 <= part < len(node.value):
            key_node, child, position = None, node.value[part], part
            if not self._linked:
                return node, key_node, child
        else:
            return None
        if not self._at_home(node, position):
            return None
        shared = self._shared_nodes()
        if id(child) in shared or (key_node is not None and id(key_node) in shared):
            return None
        return node, key_node, child

    def _anchors_used_elsewhere(self, key_node: yaml.Node, value_node: yaml.Node) -> bool:
        """Whether deleting the member (its text from the key to the value's end) would delete
        an anchor that an alias elsewhere uses. The value itself may be an alias: deleting it
        leaves its anchor where it is."""
        shared = self._shared_nodes()
        if not shared:
            return False
        start, end = _start(key_node), _end(value_node)
        stack = [key_node, value_node]
        seen: set[int] = set()
        while stack:
            node = stack.pop()
            if id(node) in seen:
                continue
            seen.add(id(node))
            if id(node) in shared:
                if start <= _start(node) < end:
                    return True
                continue  # an alias: what it refers to is written elsewhere
            if isinstance(node, yaml.MappingNode):
                stack.extend(child for pair in node.value for child in pair)
            elif isinstance(node, yaml.SequenceNode):
                stack.extend(node.value)
        return False

    def _scalar_span(self, node: yaml.ScalarNode) -> Span | None:
        """The scalar's own text: past an anchor or tag written before it on its line."""
        span = _span(node)
        marked = self._marked
        if marked is None:
            marked = self._marked = "&" in self.text or "!" in self.text
        if not marked:
            return span  # no anchor or tag is written anywhere
        begin = self._offset(node.start_mark)
        match = _PROPERTIES.match(self.text, begin)
        if match is None or match.end() == begin:
            return span
        after = match.end()
        if after >= len(self.text) or self.text[after] in _BREAKS or self.text[after] == "#":
            return None  # the scalar starts on a later line: not worth the risk
        return Span(self.index.pos(after), span.end)

    def _has_comment(self, start: int, end: int) -> bool:
        if "#" not in self.text[start:end]:
            return False
        if self._comment_starts is None:
            index = self.index
            self._comment_starts = [index.offset(c.span.start) for c in self.comments()]
        low = bisect.bisect_left(self._comment_starts, start)
        return low < len(self._comment_starts) and self._comment_starts[low] < end

    def _block_removal(self, parent: yaml.MappingNode, position: int) -> tuple[int, int] | None:
        text = self.text
        key_node, value_node = parent.value[position]
        key, end = self._offset(key_node.start_mark), self._offset(value_node.end_mark)
        if len(parent.value) < 2 or self._has_comment(key, end):
            return None
        line = key_node.start_mark.line
        line_start = self.index.offset(Pos(line, 0))
        before = text[line_start:key]
        if before.strip(" ") == "":
            if value_node.end_mark.column == 0 and value_node.end_mark.line > line:
                return line_start, end  # a block scalar ends at the start of the next line
            rest_end = _line_end(text, end)
            rest = text[end:rest_end].lstrip(" \t")
            if rest == "":
                following = value_node.end_mark.line + 1
                stop = self.index.offset(Pos(following, 0)) if following < len(self.index.starts) else len(text)
                return line_start, stop
            if rest.startswith("#"):
                return key, rest_end - len(rest)  # the comment after it stays, on its own line
            return None
        if position == 0 and _ITEM_PREFIX.fullmatch(before):
            # "- when: {}\n  type: text": the next member moves up to the item's line
            next_key = parent.value[1][0]
            following = self._offset(next_key.start_mark)
            if next_key.start_mark.column != key_node.start_mark.column:
                return None
            if not self._has_comment(end, following) and text[end:following].strip(" \n\r\x85\u2028\u2029") == "":
                return key, following
            # comments in between stay: the item's mapping then starts on a later line
            rest_end = _line_end(text, end)
            rest = text[end:rest_end].lstrip(" \t")
            if rest == "" or rest.startswith("#"):
                return key, rest_end - len(rest)
        return None

    def _flow_removal(self, parent: yaml.MappingNode, position: int) -> tuple[int, int] | None:
        text = self.text
        key_node, value_node = parent.value[position]
        key, end = self._offset(key_node.start_mark), self._offset(value_node.end_mark)
        count = len(parent.value)
        if count == 1:
            opening = self._offset(parent.start_mark)
            if text[opening : opening + 1] != "{" or self._has_comment(key, end):
                return None
            return key, end
        if position > 0:
            previous = self._offset(parent.value[position - 1][1].end_mark)
            if not _one_comma(text[previous:key]) or self._has_comment(previous, end):
                return None
            return previous, end
        following = self._offset(parent.value[1][0].start_mark)
        if not _one_comma(text[end:following]) or self._has_comment(key, following):
            return None
        return key, following

    def collections(self) -> Iterator[Collection]:
        """Every mapping and sequence below the root, walking the node graph once."""
        if self.root is None:
            return
        stack: list[tuple[yaml.Node, Pos | None]] = [(self.root, None)]
        seen: set[int] = set()
        while stack:
            node, owner = stack.pop()
            if id(node) in seen:
                continue  # aliases share nodes
            seen.add(id(node))
            if isinstance(node, yaml.MappingNode):
                children = [(value, _start(key)) for key, value in node.value]
            elif isinstance(node, yaml.SequenceNode):
                children = [(item, _start(item)) for item in node.value]
            else:
                continue
            if owner is not None:
                yield Collection(owner, _span(node))
            stack.extend(children)


def _start(node: yaml.Node) -> Pos:
    mark = node.start_mark
    return pos_of((mark.line, mark.column))


def _end(node: yaml.Node) -> Pos:
    mark = node.end_mark
    return pos_of((mark.line, mark.column))


#: An anchor or tag (and the blanks after it) written before a node.
_PROPERTIES = re.compile(r"(?:[&!][^\s,\[\]{}]*[ \t]+)*")

#: What may stand before a block sequence item's first key on its line.
_ITEM_PREFIX = re.compile(r" *(?:- +)+")


def _one_comma(gap: str) -> bool:
    """Whether *gap* is blanks and line breaks around exactly one comma."""
    return gap.count(",") == 1 and gap.replace(",", "").strip(" \t\n\r\x85\u2028\u2029") == ""


def _span(node: yaml.Node) -> Span:
    """Where *node* is written. A block collection ends where its last member ends (its own
    end mark is the start of the next token: the next entry, on a later line), unless that
    member is an alias (its node is written elsewhere): then at its end mark."""
    start = _start(node)
    current, seen = node, set()
    while (
        isinstance(current, yaml.MappingNode | yaml.SequenceNode)
        and not current.flow_style
        and current.value
        and id(current) not in seen  # an alias of a collection inside itself
    ):
        seen.add(id(current))
        if isinstance(current, yaml.MappingNode):
            before, last = current.value[-1]
            after = _end(before)
        else:
            last = current.value[-1]
            after = _end(current.value[-2]) if len(current.value) > 1 else _start(current)
        if _start(last) < after:  # an alias
            return span_of((start, _end(node)))
        current = last
    return span_of((start, _end(current)))


def _mark_span(mark: Any, text: str) -> Span:
    if mark is None:
        return Span(Pos(0, 0), Pos(0, 0))
    line, column = mark.line, mark.column
    lines = text.splitlines() or [""]
    if line < len(lines):
        end = min(len(lines[line]), column + 1)
        if end <= column:
            end = column
        return Span(Pos(line, column), Pos(line, end))
    return Span(Pos(line, column), Pos(line, column))


def _char_span(text: str, index: int) -> Span:
    """The span of the character at *index* (empty at the end of the text)."""
    start = position_of(text, index)
    end = start if index >= len(text) or text[index] in _BREAKS else Pos(start.line, start.column + 1)
    return Span(start, end)


def position_of(text: str, index: int) -> Pos:
    """The line and column of character *index* of *text* (``len(text)``: just past its
    end), with line breaks counted as the YAML scanner counts them."""
    return LineIndex(text).pos(index)


class _Constructor(yaml.SafeLoader):
    """SafeConstructor over an already-composed node graph (no second parse), noting whether
    any mapping lost a key to a later duplicate (so the duplicate scan runs only then)."""

    def __init__(self) -> None:
        yaml.constructor.SafeConstructor.__init__(self)
        self.saw_duplicates = False

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        mapping: dict[Any, Any] = super().construct_mapping(node, deep=deep)
        if len(mapping) < len(node.value):
            self.saw_duplicates = True
        return mapping


class _Locator(_Constructor):
    """The same construction, noting the innermost node whose construction raised: run
    again only after a failure, so the ordinary path pays nothing for it."""

    def __init__(self) -> None:
        super().__init__()
        self.failed: yaml.Node | None = None

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        try:
            return super().construct_object(node, deep=deep)
        except Exception:
            if self.failed is None:
                self.failed = node
            raise

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        try:
            return super().construct_mapping(node, deep=deep)
        except Exception:
            if self.failed is None:
                self.failed = node
            raise


def _failed_node(root: yaml.Node) -> yaml.Node | None:
    """The node whose construction raises (constructing the graph again to find it)."""
    locator = _Locator()
    try:
        locator.construct_document(root)
    except Exception:
        return locator.failed
    return None


def _safe_loader_class() -> type[Any]:
    return _CLoader if _CLoader is not None else yaml.SafeLoader


def _make_c_loader() -> type[Any] | None:
    """libyaml's safe loader, resolving through a memo: libyaml asks the resolver (Python, a
    regex scan per plain scalar) for every node it composes, and a file's scalars repeat
    (keys, types, booleans). The memo is ``functools.lru_cache``'s, in C: a node it has seen
    the like of costs no Python call. It answers what ``BaseResolver.resolve`` answers for a
    loader without path resolvers (the safe loaders have none), from the node's kind, value
    and implicitness alone."""
    base = getattr(yaml, "CSafeLoader", None)
    if base is None or base.yaml_path_resolvers:
        return None
    scalar, sequence, mapping = yaml.ScalarNode, yaml.SequenceNode, yaml.MappingNode
    resolvers = base.yaml_implicit_resolvers
    wildcard = resolvers.get(None, [])
    string_tag: str = base.DEFAULT_SCALAR_TAG
    sequence_tag: str = base.DEFAULT_SEQUENCE_TAG
    mapping_tag: str = base.DEFAULT_MAPPING_TAG

    def resolve(kind: type[Any], value: Any, implicit: Any) -> str | None:
        if kind is scalar:
            if not implicit[0]:
                return string_tag
            for found, regexp in resolvers.get(value[:1], []) + wildcard:
                if regexp.match(value):
                    return str(found)
            return string_tag
        if kind is sequence:
            return sequence_tag
        return mapping_tag if kind is mapping else None

    # a static method: the loader is no part of the answer (nor of the memo's key).
    # libyaml's composer also calls descend_resolver and ascend_resolver around every node:
    # without path resolvers both return at once, so C callables taking the same arguments
    # and doing nothing stand in for them (a class attribute that is a type does not bind)
    remembered = staticmethod(functools.lru_cache(maxsize=4096)(resolve))
    return type("_CLoader", (base,), {"resolve": remembered, "descend_resolver": slice, "ascend_resolver": tuple})


_CLoader = _make_c_loader()


#: A '!' where a tag may start: after a blank, a flow indicator or the end of a quoted
#: scalar or of a flow collection (``'y'!x`` is a scalar, then a tag, to the scanners).
_TAG = re.compile(r"(?:^|[\s\[{,'\"\]}])!", re.MULTILINE)

#: A block scalar's header with a comment sign straight after it (``|#c``): a comment to
#: libyaml, a refused header to the pure scanner, which wants a blank first.
_HEADER_COMMENT = re.compile(r"[|>][-+0-9]*#")


def _loader_for(text: str) -> type[Any]:
    """libyaml, except for texts where it is known to read differently from the runtime's
    pure-Python loader (found by differential testing): tabs, which libyaml tolerates where
    the pure scanner refuses them; '?' inside flow collections, which ends a plain scalar
    for the pure scanner but not for libyaml; tags (a bare ``!`` resolves to null in one
    and to an empty string in the other); a byte order mark after the first character,
    which libyaml skips at the start of a line while the pure scanner reads it as text; and a
    comment sign straight after a block scalar's header (``|#c``), a comment to libyaml and
    a refused header to the pure scanner."""
    if (
        "\t" in text
        or ("?" in text and ("{" in text or "[" in text))
        or ("!" in text and _TAG.search(text))
        or "\ufeff" in text[1:]
        or ("#" in text and _HEADER_COMMENT.search(text))
    ):
        return yaml.SafeLoader
    return _safe_loader_class()


#: The deepest nesting (the root is level 1, a scalar inside it level 2, ...) the runtime's
#: pure-Python composer builds: it recurses two frames per level, so under Python's default
#: recursion limit of 1,000 frames ``li agent --form`` composes 490 levels of a block list
#: and fails on 491 (RecursionError, which it reports as a load failure). The exact figure
#: depends on the caller's own stack (a flow list gets one level more, a script loaded deep
#: inside a test run fewer); formscript applies this one, whatever its own stack.
MAX_DEPTH = 490

#: Texts that may nest deeper than this are composed on a fresh stack, so that how deep
#: formscript itself was called never decides whether a document loads.
_FRESH_STACK_AT = 150


def _depth_bound(text: str) -> int:
    """An upper bound of the text's nesting depth, cheap to compute. Every collection starts
    with an indicator (a flow bracket, a block entry, a mapping value or key indicator). In
    block style each level but an indentless sequence starts further right than its parent,
    so block levels are at most twice the widest line; flow levels at most the brackets."""
    count = text.count
    indicators = count("[") + count("{") + count("-") + count(":") + count("?")
    if indicators < MAX_DEPTH:
        return indicators + 1
    widest = max(map(len, text.splitlines()), default=0)
    return min(indicators, 2 * (widest + 1) + text.count("[") + text.count("{")) + 1


def _on_fresh_stack(call: Any) -> Any:
    """*call*() in a new thread, whose recursion depth starts at zero; its result or its
    exception."""
    import threading  # only for a text that may nest deep

    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = call()
        except BaseException as exc:  # handed to the caller below
            outcome["error"] = exc

    worker = threading.Thread(target=run, name="formscript-deep-load", daemon=True)
    worker.start()
    worker.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def _too_deep_node(root: yaml.Node) -> yaml.Node | None:
    """The first node (in document order) nested deeper than MAX_DEPTH, or None. An alias
    costs the composer one level where it is used; the anchored node was composed where it
    was written, which document order meets first. Only collections are visited: a scalar
    sits one level below its collection."""
    collections = (yaml.MappingNode, yaml.SequenceNode)
    stack: list[tuple[yaml.Node, int]] = [(root, 1)]
    seen: set[int] = set()
    while stack:
        node, depth = stack.pop()
        if id(node) in seen:
            continue  # an alias of a collection: a leaf where it is used
        seen.add(id(node))
        items = node.value
        if not items:
            continue
        if depth >= MAX_DEPTH:
            first = items[0][0] if type(node) is yaml.MappingNode else items[0]
            return node if id(first) in seen else first  # an alias has no place of its own
        if type(node) is yaml.MappingNode:
            for key_node, value_node in reversed(items):
                if type(value_node) in collections:
                    stack.append((value_node, depth + 1))
                if type(key_node) in collections:
                    stack.append((key_node, depth + 1))
        else:
            stack.extend((item, depth + 1) for item in reversed(items) if type(item) in collections)
    return None


class _Refused(Exception):
    """The runtime's loader fails on the text; carries the problem to report."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.message)
        self.problem = problem


def _compose_pure(text: str) -> yaml.Node | None:
    """The node graph as the runtime's pure-Python loader composes it, or _Refused with
    whatever that loader raises (a YAML error, RecursionError, or an exception of its own
    such as chr()'s ValueError for an escape past U+10FFFF)."""

    def compose() -> yaml.Node | None:
        try:
            loader = yaml.SafeLoader(text)
        except yaml.YAMLError as exc:  # the reader refuses some characters up front
            raise _Refused(_yaml_problem(exc, text)) from exc
        try:
            node: yaml.Node | None = loader.get_single_node()
        except yaml.YAMLError as exc:
            raise _Refused(_yaml_problem(exc, text)) from exc
        except RecursionError as exc:
            raise _Refused(rules.YM001.too_deep(span=_mark_span(loader.get_mark(), text))) from exc
        except Exception as exc:
            raise _Refused(rules.YM001.loader_failed(error=exc, span=_mark_span(loader.get_mark(), text))) from exc
        finally:
            loader.dispose()
        return node

    if _depth_bound(text) > _FRESH_STACK_AT:
        node: yaml.Node | None = _on_fresh_stack(compose)
        return node
    return compose()


class _Unconfirmed(Exception):
    """libyaml refuses the text; the pure-Python loader, which has the last word, was not asked."""

    def __init__(self, refused: Exception) -> None:
        super().__init__()
        marks = (getattr(refused, "problem_mark", None), getattr(refused, "context_mark", None))
        self.lines = tuple(mark.line for mark in marks if mark is not None)


def _compose(text: str, confirm: bool = True) -> yaml.Node | None:
    """The node graph the runtime composes: libyaml's where it is known to agree with the
    pure-Python loader, which has the last word wherever libyaml refuses the text (unless
    not *confirm*: then _Unconfirmed, for a caller with a cheaper way to ask it)."""
    loader_class = _loader_for(text)
    if loader_class is yaml.SafeLoader:
        tab = tab_refusal(text)
        if tab is not None:
            raise _Refused(tab)
        return _compose_pure(text)
    try:
        loader = loader_class(text)
    except Exception:
        return _compose_pure(text)
    try:
        node: yaml.Node | None = loader.get_single_node()
    except yaml.scanner.ScannerError as exc:
        if "maximum nesting depth" in str(exc.problem):
            # libyaml stops at 1,000 levels, far past MAX_DEPTH: the pure composer fails
            # too, after scanning (in time quadratic in the flow depth) up to its limit
            raise _Refused(rules.YM001.too_deep(span=_mark_span(exc.problem_mark, text))) from exc
        return _libyaml_refused(exc, text, confirm)
    except Exception as exc:
        return _libyaml_refused(exc, text, confirm)
    finally:
        loader.dispose()
    return node


def _libyaml_refused(exc: Exception, text: str, confirm: bool) -> yaml.Node | None:
    """After libyaml refused *text* (which holds none of the constructs it reads differently):
    _Unconfirmed (not *confirm*), the pure loader's refusal where libyaml's is one it is known
    to make alike (``same_refusal``), or the pure loader's reading."""
    if not confirm:
        raise _Unconfirmed(exc) from exc
    same = same_refusal(exc, text)
    if same is not None:
        raise _Refused(same) from exc
    return _compose_pure(text)


#: libyaml's refusals that the runtime's pure-Python loader makes alike, at the same marks
#: (the two scanners and parsers are one algorithm; tests/test_refusals.py compares them on
#: tens of thousands of broken texts): libyaml's (context, problem) -> the pure loader's.
#: ``{found}`` is the token the pure parser names: in our words only '<stream end>' or not
#: matters (``_in_our_words``), so any other token is written '<token>'; ``{char}`` is the
#: character at the problem mark. A refusal not listed is left to the pure loader.
_SAME_REFUSALS: dict[tuple[str | None, str], tuple[str | None, str]] = {
    (None, "mapping values are not allowed in this context"): (None, "mapping values are not allowed here"),
    (None, "block sequence entries are not allowed in this context"): (None, "sequence entries are not allowed here"),
    ("while scanning a quoted scalar", "found unexpected end of stream"): (
        "while scanning a quoted scalar",
        "found unexpected end of stream",
    ),
    ("while scanning a simple key", "could not find expected ':'"): (
        "while scanning a simple key",
        "could not find expected ':'",
    ),
    ("while parsing a block mapping", "did not find expected key"): (
        "while parsing a block mapping",
        "expected <block end>, but found {found}",
    ),
    ("while parsing a block collection", "did not find expected '-' indicator"): (
        "while parsing a block collection",
        "expected <block end>, but found {found}",
    ),
    ("while parsing a flow mapping", "did not find expected ',' or '}'"): (
        "while parsing a flow mapping",
        "expected ',' or '}}', but got {found}",
    ),
    ("while parsing a flow sequence", "did not find expected ',' or ']'"): (
        "while parsing a flow sequence",
        "expected ',' or ']', but got {found}",
    ),
    ("while scanning for the next token", "found character that cannot start any token"): (
        "while scanning for the next token",
        "found character {char} that cannot start any token",
    ),
}

#: Refusals the pure loader makes alike only where something follows the problem mark (at
#: the end of the text its mark can fall on the line before, or its parser fail first).
_ALIKE_WHERE_FOLLOWED = {("while scanning a simple key", "could not find expected ':'")}


#: What libyaml and the pure loader say of a character no token starts with.
_NO_TOKEN = ("while scanning for the next token", "found character that cannot start any token")


def _pure_refuses_sooner(text: str, read: str) -> bool:
    """Whether the pure loader may refuse *text* for a reason libyaml does not have, before
    the place libyaml read up to (*read*, the text up to there): a character its reader
    refuses up front, or nesting past its recursion limit."""
    return _depth_bound(read) > MAX_DEPTH or yaml.reader.Reader.NON_PRINTABLE.search(text) is not None


def tab_refusal(text: str) -> Problem | None:
    """The pure loader's refusal of the first tab in *text*, where libyaml shows it is
    refused: the tab stands in its line's indentation, and libyaml, reading the text before
    it and a '`' in its place (no token starts with either character, and neither is a
    blank to the scanners), refuses exactly there. The two loaders read that text alike
    (it holds none of the constructs that split them, ``_loader_for``), so the pure loader
    reaches the tab in the same state and refuses it; nothing after it is read. None where
    that is not shown (the pure loader then reads the text)."""
    at = text.find("\t")
    if at < 0:
        return None
    start = max(text.rfind("\n", 0, at), text.rfind("\r", 0, at)) + 1
    if text[start:at].strip(" "):
        return None
    probe = text[:at] + "`"
    loader_class = _safe_loader_class()
    if loader_class is yaml.SafeLoader or _loader_for(probe) is not loader_class or _pure_refuses_sooner(text, probe):
        return None
    try:
        loader = loader_class(probe)
    except Exception:
        return None
    try:
        loader.get_single_node()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        if (exc.context, str(exc.problem)) != _NO_TOKEN or mark is None:
            return None
        if LineIndex(probe).offset(Pos(mark.line, mark.column)) != at:
            return None
        tab = "found character '\\t' that cannot start any token"
        return _problem_from(tab, exc.context, mark, exc.context_mark, text)
    except Exception:
        return None
    finally:
        loader.dispose()
    return None


def same_refusal(exc: Exception, text: str) -> Problem | None:
    """The problem the pure loader reports for *text*, read from libyaml's refusal *exc*
    where the two are known to refuse alike (``_SAME_REFUSALS``): None otherwise, and
    wherever the pure loader could refuse earlier for a reason libyaml does not have (a
    character its reader refuses up front, nesting past its recursion limit)."""
    if not isinstance(exc, yaml.MarkedYAMLError) or exc.problem_mark is None:
        return None
    key = (exc.context, str(exc.problem))
    pure = _SAME_REFUSALS.get(key)
    if pure is None or _pure_refuses_sooner(text, text):
        return None
    mark = exc.problem_mark
    at = LineIndex(text).offset(Pos(mark.line, mark.column))
    followed = any(line.strip() and not line.lstrip().startswith("#") for line in text[at:].splitlines())
    if key in _ALIKE_WHERE_FOLLOWED and not followed:
        return None
    context, problem = pure
    char = repr(text[at]) if at < len(text) else repr("\0")
    problem = problem.format(found="'<token>'" if followed else "'<stream end>'", char=char)
    return _problem_from(problem, context, mark, exc.context_mark, text)


def parse_document(text: str, syntax: Syntax = "yaml", *, confirm: bool = True) -> YamlDocument:
    """Parse *text* the way the runtime reads it: YAML 1.1 via safe_load, or strict json.

    Whatever the runtime's loader or constructor raises is a rejection (the file does not
    load, or its tag is refused), located at its cause where that is known; parsing itself
    never raises. Not *confirm*: a text libyaml refuses is not read again by the pure-Python
    loader (which decides whether the runtime refuses it too, and why); the document is
    returned not ok, without problems and ``unconfirmed`` (``parse_document(text)`` decides)."""
    doc = YamlDocument(text=text, syntax=syntax)
    if syntax == "json":
        _parse_json(doc)
        return doc
    try:
        node = _compose(text, confirm)
    except _Refused as refused:
        doc.ok = False
        doc.problems.append(refused.problem)
        return doc
    except _Unconfirmed as refused:
        doc.ok = False
        doc.unconfirmed = True
        doc.refused_lines = refused.lines
        return doc
    if node is None:
        doc.value = None
        return doc
    merges = "<<" in text
    # a walk that builds the value also bounds the depth (a value built is not too deep)
    fast = _fast_construct(node) if not merges and "*" not in text else None
    if fast is None and _depth_bound(text) > MAX_DEPTH:
        deep = _too_deep_node(node)
        if deep is not None:
            start = _start(deep)
            doc.ok = False
            doc.problems.append(rules.YM001.too_deep(span=Span(start, Pos(start.line, start.column + 1))))
            return doc
    if merges:  # construction flattens merge keys in place; look for duplicates before that
        doc.root = node
        _find_duplicates(doc, node)
        doc._children.clear()
    if fast is not None:
        doc.value, saw_duplicates = fast
        doc.root = node
        if saw_duplicates:
            _find_duplicates(doc, node)
        return doc
    constructor = _Constructor()
    try:
        doc.value = constructor.construct_document(node)
    except yaml.YAMLError as exc:
        doc.ok = False
        doc.problems.append(_yaml_problem(exc, text))
        return doc
    except RecursionError:
        doc.ok = False
        doc.problems.append(_too_deep())
        return doc
    except Exception as exc:
        # e.g. a timestamp with month 13 (ValueError) or `!!bool maybe` (KeyError): safe_load
        # raises, so the runtime fails to load the file too
        doc.ok = False
        failed = _failed_node(node)
        where = _span(failed) if failed is not None else _ORIGIN
        doc.problems.append(rules.YM001.unconstructible(error=exc, span=where))
        return doc
    doc.root = node
    if constructor.saw_duplicates and not merges:
        _find_duplicates(doc, node)
    return doc


_ORIGIN = Span(Pos(0, 0), Pos(0, 0))


def _too_deep() -> Problem:
    return rules.YM001.too_deep(span=_ORIGIN)


def _yaml_problem(exc: yaml.YAMLError, text: str) -> Problem:
    if isinstance(exc, yaml.reader.ReaderError):
        # the pure reader's position counts characters (libyaml's counts bytes)
        character = exc.character if isinstance(exc.character, int) else ord(exc.character)
        detail = f"unacceptable character #x{character:04x}: {exc.reason}"
        return rules.YM001.yaml_syntax(detail=detail, span=_char_span(text, exc.position))
    problem = getattr(exc, "problem", None) or getattr(exc, "context", None) or type(exc).__name__
    context = getattr(exc, "context", None) if getattr(exc, "problem", None) else None
    return _problem_from(
        str(problem),
        context,
        getattr(exc, "problem_mark", None),
        getattr(exc, "context_mark", None),
        text,
        isinstance(exc, yaml.constructor.ConstructorError),
    )


def _problem_from(
    problem: str, context: str | None, problem_mark: Any, context_mark: Any, text: str, constructing: bool = False
) -> Problem:
    """The problem for a loader's refusal: its *problem* (and *context*) in our words where
    we have them, at the mark of its cause."""
    mark = problem_mark or context_mark
    message = problem
    if context:
        message = f"{message} ({context})"
    worded = _in_our_words(problem, str(context or ""), context_mark)
    if worded is not None:
        message, cause = worded
        mark = cause or mark
    span = _mark_span(mark, text)
    if constructing and "tag" in message:
        return rules.YM003.problem(detail=message, span=span)
    return rules.YM001.yaml_syntax(detail=message, span=span)


def _in_our_words(problem: str, context: str, opened: Any) -> tuple[str, Any] | None:
    """The common syntax errors said plainly (no line numbers: a message stays true where
    an entry parsed alone is shifted into place), with the mark of their cause where that is
    where something was opened (a quote never closed): (message, mark or None)."""
    if context.startswith("while scanning a quoted scalar") and (
        "end of stream" in problem or "document separator" in problem
    ):
        return "this quoted string is never closed", opened
    if context.startswith(("while parsing a flow sequence", "while parsing a flow mapping")):
        bracket, closing = ("[", "]") if "sequence" in context else ("{", "}")
        if "end of stream" in problem or "<stream end>" in problem:
            return f"this '{bracket}' is never closed by a '{closing}'", opened
        return f"expected ',' or '{closing}' here, inside a '{bracket}' not yet closed", None
    if problem.startswith("expected <block end>, but found"):
        return "this line is indented differently from the block it belongs to", None
    if problem == "mapping values are not allowed here":
        return "a ': ' cannot start a mapping here (quote the value if the colon belongs to it)", None
    if context.startswith("while scanning a simple key") and "could not find expected ':'" in problem:
        return "this line is neither a 'key: value' nor part of the value before it", None
    if "that cannot start any token" in problem and "\\t" in problem:
        return "a tab cannot start a token here (YAML indents with spaces only)", None
    return None


_STR_TAG = "tag:yaml.org,2002:str"


def _find_duplicates(doc: YamlDocument, root: yaml.Node) -> None:
    """Report keys that appear twice in one mapping (the runtime silently keeps the last)."""
    stack: list[tuple[yaml.Node, KeyPath, int]] = [(root, (), 0)]
    seen: set[int] = set()
    while stack:
        node, path, depth = stack.pop()
        if id(node) in seen or depth > 200:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            first: dict[Any, yaml.Node] = {}
            for key_node, value_node in node.value:
                if isinstance(key_node, yaml.ScalarNode) and key_node.tag == _STR_TAG:
                    key: Any = key_node.value
                else:
                    key = _key_value(key_node)
                    if key is _UNHASHABLE or key_node.tag == "tag:yaml.org,2002:merge":
                        stack.append((value_node, path, depth + 1))
                        continue
                if key in first:
                    doc.duplicates.setdefault((*path, key), []).append(_span(first[key]))
                first[key] = key_node
                if type(value_node) is not yaml.ScalarNode:  # a scalar holds no keys
                    stack.append((value_node, (*path, key), depth + 1))
        elif isinstance(node, yaml.SequenceNode):
            for index, item in enumerate(node.value):
                if type(item) is not yaml.ScalarNode:
                    stack.append((item, (*path, index), depth + 1))
    for path, spans in doc.duplicates.items():
        final = doc.entry(path)
        for span in spans:
            doc.problems.append(rules.YM002.problem(key=path[-1], span=span, kept=final.key if final else None))


_UNHASHABLE = object()

#: Mappings of at most this many members are scanned for a string key (``_locate_entry``);
#: a larger one gets its children map, so locating all of its members stays linear.
_SCANNED = 16


def _key_value(node: yaml.Node) -> Any:
    if node.tag == _STR and isinstance(node, yaml.ScalarNode):
        return node.value  # what SafeConstructor makes of it, without making one
    if isinstance(node, yaml.ScalarNode):
        try:
            value = _construct_scalar(node)
            hash(value)
            return value
        except Exception:
            return _UNHASHABLE
    return _UNHASHABLE


_STR = "tag:yaml.org,2002:str"
_NULL = "tag:yaml.org,2002:null"
_MAP = "tag:yaml.org,2002:map"
_SEQ = "tag:yaml.org,2002:seq"
#: The scalar tags whose values SafeConstructor's own functions build (everything else, e.g.
#: a set or an omap, takes the slow path).
_SCALAR_TAGS = frozenset("tag:yaml.org,2002:" + name for name in ("bool", "int", "float", "timestamp", "binary"))


def _fast_construct(root: yaml.Node) -> tuple[Any, bool] | None:
    """The value SafeConstructor builds from *root* and whether a mapping lost a key to a
    later duplicate, built in one recursive walk, or None (then SafeConstructor decides).

    Only for a graph without aliases (each node reached once; the caller checks the text
    has no ``*``) and without merge keys: then SafeConstructor's deferred filling of
    mappings and lists gives exactly what a direct walk gives. Scalars other than strings
    and nulls are built by SafeConstructor's own functions. Any failure (an unhashable key,
    a bad timestamp, an unknown tag, a collection with items at ``MAX_DEPTH``, as
    ``_too_deep_node`` counts) returns None, so the slow path raises exactly what the
    runtime raises: a value built is one no deeper than that."""
    walk = _FastWalk()
    try:
        return walk.build(root, 1), walk.lost
    except Exception:  # _Slow, or whatever a scalar's construction raised
        return None


class _FastWalk:
    """``_fast_construct``'s walk (a class, not a closure that calls itself: that would be a
    cycle of a function and its cell, left to the collector after every parse)."""

    __slots__ = ("constructor", "lost")

    def __init__(self) -> None:
        self.constructor = _Constructor()
        self.lost = False

    def build(self, node: yaml.Node, depth: int) -> Any:
        tag = node.tag
        kind = type(node)
        if tag == _STR and kind is yaml.ScalarNode:  # `!!str [a]` is SafeConstructor's error
            return node.value
        if tag == _MAP and kind is yaml.MappingNode:
            items = node.value
            if depth >= MAX_DEPTH and items:
                raise _Slow
            built = {}
            depth += 1
            build = self.build
            scalar = yaml.ScalarNode
            for key_node, value_node in items:
                # a string key or value is taken in place (most nodes are: no call for them)
                if key_node.tag == _STR and type(key_node) is scalar:
                    key = key_node.value
                else:
                    key = build(key_node, depth)
                    if type(key) in (dict, list):
                        raise _Slow
                if value_node.tag == _STR and type(value_node) is scalar:
                    built[key] = value_node.value
                else:
                    built[key] = build(value_node, depth)
            if len(built) < len(items):
                self.lost = True
            return built
        if tag == _SEQ and kind is yaml.SequenceNode:
            if depth >= MAX_DEPTH and node.value:
                raise _Slow
            depth += 1
            build = self.build
            scalar = yaml.ScalarNode
            return [
                item.value if item.tag == _STR and type(item) is scalar else build(item, depth) for item in node.value
            ]
        if kind is yaml.ScalarNode:
            if tag == _NULL:
                return None
            # what SafeConstructor's bool and int constructors make of the commonest texts
            # (a boolean word; decimal digits without a sign, a leading zero or a '_'),
            # without their calls; any other text, and any failure, is theirs
            if tag == _BOOL:
                return _BOOL_VALUES[node.value.lower()]
            if tag == _INT:
                text = node.value
                if text.isdigit() and text[0] != "0":
                    return int(text)
            if tag in _SCALAR_TAGS:
                return _SAFE_TABLE[tag](self.constructor, node)
        raise _Slow


_SAFE_TABLE = yaml.constructor.SafeConstructor.yaml_constructors
_BOOL_VALUES = yaml.constructor.SafeConstructor.bool_values
_BOOL = "tag:yaml.org,2002:bool"
_INT = "tag:yaml.org,2002:int"


class _Slow(Exception):
    """The fast construction does not apply: SafeConstructor decides."""


def _construct_scalar(node: yaml.ScalarNode) -> Any:
    constructor = _Constructor()
    return constructor.construct_object(node, deep=True)


def _scalar(node: yaml.Node) -> Scalar | None:
    if isinstance(node, yaml.ScalarNode):
        return Scalar(node.style or "", node.value, node.tag)
    return None


def loads_json(text: str) -> Any:
    """``json.loads(text)`` as the runtime calls it, on a fresh stack when the text may nest
    deeply (so formscript's own call depth never decides); raises what json.loads raises."""
    if text.count("[") + text.count("{") > _FRESH_STACK_AT:
        return _on_fresh_stack(lambda: json.loads(text))
    return json.loads(text)


#: A JSON string (skipped whole) or an integer json.loads refuses to convert (more than
#: 4,300 digits, Python's limit for decimal text).
_HUGE_JSON_INT = re.compile(r'"(?:[^"\\]|\\.)*"|(-?[0-9]{4301,})(?![0-9.eE])')


def _parse_json(doc: YamlDocument) -> None:
    """Strict JSON as json.loads reads it (NaN and Infinity allowed), located via YAML marks."""
    try:
        doc.value = loads_json(doc.text)
    except json.JSONDecodeError as exc:
        doc.ok = False
        span = Span(Pos(exc.lineno - 1, exc.colno - 1), Pos(exc.lineno - 1, exc.colno))
        doc.problems.append(rules.YM001.json_syntax(detail=exc.msg, span=span))
        return
    except RecursionError:
        doc.ok = False
        doc.problems.append(_too_deep())
        return
    except Exception as exc:  # an integer past 4,300 digits: a ValueError, not a syntax error
        doc.ok = False
        doc.problems.append(rules.YM001.loader_failed(error=exc, span=_huge_int_span(doc.text)))
        return
    try:
        loader = _safe_loader_class()(doc.text)
        try:
            node = loader.get_single_node()
        finally:
            loader.dispose()
    except Exception:
        return  # valid JSON that YAML cannot compose (e.g. tabs): values without positions
    if node is not None:
        doc.root = node
        _find_duplicates(doc, node)


def _huge_int_span(text: str) -> Span:
    """The first integer too long for json.loads, or the origin."""
    for match in _HUGE_JSON_INT.finditer(text):
        if match.group(1) is not None:
            positions = LineIndex(text)
            return Span(positions.pos(match.start(1)), positions.pos(match.end(1)))
    return _ORIGIN


# ------------------------------------------------------------------------------ comments

_BREAKS = YAML_BREAKS
_BLOCK_HEADER = re.compile(r"[|>][-+0-9]*[ \t]*")


def _comments(text: str) -> list[Comment]:
    """The comments of a YAML text: each ``#`` outside every token the scanner produced.

    The scanner skips only white space, line breaks and comments between tokens, so any
    ``#`` outside a scalar, tag, anchor, alias or directive token starts a comment. A block
    scalar's token also covers its header line, whose comment is split off here. Where the
    scanner stops at an error, comments after the last token it delivered are unknown and
    not reported.
    """
    covered, known = _token_ranges(text)
    found: list[Comment] = []
    position = LineIndex(text)
    index = text.find("#", 0, known)
    block = 0
    while index >= 0:
        while block < len(covered) and covered[block][1] <= index:
            block += 1
        if block < len(covered) and covered[block][0] <= index:
            index = text.find("#", covered[block][1], known)
            continue
        end = _line_end(text, index)
        found.append(Comment(Span(position.pos(index), position.pos(end)), text[index:end]))
        index = text.find("#", end, known)
    return found


def _token_ranges(text: str) -> tuple[list[tuple[int, int]], int]:
    """Sorted, disjoint [start, end) character ranges of the tokens that may hold a ``#``,
    and how far the text was scanned (all of it, unless the scanner fails). As in parsing,
    the runtime's pure-Python scanner decides where libyaml refuses the text."""
    loader_class = yaml.SafeLoader if text.startswith("\ufeff") else _loader_for(text)
    ranges, known = _scan(text, loader_class)
    if known < len(text) and loader_class is not yaml.SafeLoader:
        ranges, known = _scan(text, yaml.SafeLoader)
    return ranges, known


def _scan(text: str, loader_class: type[Any]) -> tuple[list[tuple[int, int]], int]:
    ranges: list[tuple[int, int]] = []
    try:
        loader = loader_class(text)
    except yaml.YAMLError:
        return ranges, 0
    known = 0
    try:
        while True:
            token = loader.get_token()
            if token is None or isinstance(token, yaml.StreamEndToken):
                known = len(text)
                break
            start, end = token.start_mark.index, token.end_mark.index
            known = end
            if isinstance(token, yaml.ScalarToken) and token.style in ("|", ">"):
                header = _BLOCK_HEADER.match(text, start)
                header_end = header.end() if header is not None else start + 1
                if header_end < len(text) and text[header_end] == "#":
                    ranges.append((start, header_end))
                    start = _line_end(text, header_end)
                ranges.append((start, end))
            elif isinstance(token, yaml.DirectiveToken):
                # an unknown directive's parameters run to the end of its line
                ranges.append((start, end if token.name in ("YAML", "TAG") else _line_end(text, end)))
            elif isinstance(token, yaml.ScalarToken | yaml.TagToken | yaml.AnchorToken | yaml.AliasToken):
                ranges.append((start, end))
    except (yaml.YAMLError, RecursionError):
        pass
    finally:
        loader.dispose()
    return ranges, known


def _line_end(text: str, index: int) -> int:
    while index < len(text) and text[index] not in _BREAKS:
        index += 1
    return index
