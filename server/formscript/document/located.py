"""Parse YAML or JSON into values exactly as PyYAML's safe_load (or json) yields them, plus
the source range of every key and value.

libyaml's composer gives the nodes with their marks (fast); PyYAML's SafeConstructor builds
the values from those nodes, so they are the runtime's values. When libyaml refuses a text,
the pure-Python loader (the one the runtime uses) decides, so a verdict never rests on a
difference between the two parsers. Parsing never raises: problems come back as data.
"""

from __future__ import annotations

import bisect
import dataclasses
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import yaml

from formscript import rules
from formscript.core.verdict import KeyPath, Problem
from formscript.document.comments import comments_of, line_end
from formscript.document.construct import (
    STR_TAG,
    UNHASHABLE,
    fast_construct,
    key_value,
    scalar_of,
)
from formscript.document.model import (
    ORIGIN,
    Collection,
    Comment,
    Document,
    Edit,
    Location,
    Pos,
    Span,
    Syntax,
    split_lines,
)
from formscript.document.positions import YAML_BREAKS, LineIndex
from formscript.document.writing import json_source, scalar_source
from formscript.document.yamlread import (
    FRESH_STACK_AT,
    ITEM_PREFIX,
    MAX_DEPTH,
    PROPERTIES,
    Constructor,
    Refused,
    Unconfirmed,
    compose,
    depth_bound,
    failed_node,
    node_end,
    node_span,
    node_start,
    on_fresh_stack,
    one_comma,
    safe_loader_class,
    too_deep,
    too_deep_node,
    yaml_problem,
)

__all__ = ["YamlDocument", "loads_json", "parse_document"]

#: One hop of a written path: the parent, the key node (None in a sequence) and the node.
Hop = tuple[yaml.Node, yaml.Node | None, yaml.Node]


@dataclass
class YamlDocument(Document):
    """A YAML or JSON text: its value (None when unparsable), parse problems, and the node
    graph libyaml composed, from which every key path is located on demand."""

    text: str
    value: Any = None
    ok: bool = True
    #: Problems found while parsing (syntax, duplicate keys, unsafe tags), located by span.
    problems: list[Problem] = dataclasses.field(default_factory=list)
    syntax: Syntax = "yaml"
    #: Earlier occurrences of duplicated keys: path -> key spans of the overridden copies.
    duplicates: dict[KeyPath, list[Span]] = dataclasses.field(default_factory=dict)
    root: yaml.Node | None = None
    #: libyaml refused the text and the pure-Python loader was not asked (``parse_document``).
    unconfirmed: bool = False
    #: Where libyaml refused it (the lines of its problem and context marks), when unconfirmed.
    refused_lines: tuple[int, ...] = ()
    _lines: list[str] | None = None
    _children: dict[int, dict[Any, tuple[yaml.Node | None, yaml.Node]]] = dataclasses.field(default_factory=dict)
    _index: LineIndex | None = None
    _shared: set[int] | None = None
    _comment_starts: list[int] | None = None
    #: Located entries by path, and the written hops to a path (``_written``), kept because
    #: a finding's span, its fix and a later finding at the same place walk the same path.
    _located: dict[KeyPath, Location | None] | None = None
    _chains: dict[KeyPath, tuple[Hop, ...] | None] | None = None
    #: Whether the text may hold an alias or a merge key (``_hop``); None until asked.
    _linked: bool | None = None
    #: Whether the text may hold an anchor or a tag (``_scalar_span``); None until asked.
    _marked: bool | None = None

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
                    if member_key.value == part and member_key.tag == STR_TAG and type(member_key) is yaml.ScalarNode:
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
        return Location.found((node_span, scalar_of, node, key_node))

    def _children_of(self, node: yaml.Node) -> dict[Any, tuple[yaml.Node | None, yaml.Node]] | None:
        cached = self._children.get(id(node))
        if cached is not None:
            return cached
        children: dict[Any, tuple[yaml.Node | None, yaml.Node]] = {}
        if isinstance(node, yaml.MappingNode):
            scalar = yaml.ScalarNode
            for key_node, value_node in node.value:
                # a string key is its text (``key_value``, without the call)
                key = key_node.value if key_node.tag == STR_TAG and type(key_node) is scalar else key_value(key_node)
                if key is not UNHASHABLE:
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
        return [key_value(key) for key, _ in pairs[max(low - 2, 0) : low]]

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
        return comments_of(self.text)

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
        start, end = node_start(key_node), node_end(value_node)
        stack = [key_node, value_node]
        seen: set[int] = set()
        while stack:
            node = stack.pop()
            if id(node) in seen:
                continue
            seen.add(id(node))
            if id(node) in shared:
                if start <= node_start(node) < end:
                    return True
                continue  # an alias: what it refers to is written elsewhere
            if isinstance(node, yaml.MappingNode):
                stack.extend(child for pair in node.value for child in pair)
            elif isinstance(node, yaml.SequenceNode):
                stack.extend(node.value)
        return False

    def _scalar_span(self, node: yaml.ScalarNode) -> Span | None:
        """The scalar's own text: past an anchor or tag written before it on its line."""
        span = node_span(node)
        marked = self._marked
        if marked is None:
            marked = self._marked = "&" in self.text or "!" in self.text
        if not marked:
            return span  # no anchor or tag is written anywhere
        begin = self._offset(node.start_mark)
        match = PROPERTIES.match(self.text, begin)
        if match is None or match.end() == begin:
            return span
        after = match.end()
        if after >= len(self.text) or self.text[after] in YAML_BREAKS or self.text[after] == "#":
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
            rest_end = line_end(text, end)
            rest = text[end:rest_end].lstrip(" \t")
            if rest == "":
                following = value_node.end_mark.line + 1
                stop = self.index.offset(Pos(following, 0)) if following < len(self.index.starts) else len(text)
                return line_start, stop
            if rest.startswith("#"):
                return key, rest_end - len(rest)  # the comment after it stays, on its own line
            return None
        if position == 0 and ITEM_PREFIX.fullmatch(before):
            # "- when: {}\n  type: text": the next member moves up to the item's line
            next_key = parent.value[1][0]
            following = self._offset(next_key.start_mark)
            if next_key.start_mark.column != key_node.start_mark.column:
                return None
            if not self._has_comment(end, following) and text[end:following].strip(" \n\r\x85\u2028\u2029") == "":
                return key, following
            # comments in between stay: the item's mapping then starts on a later line
            rest_end = line_end(text, end)
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
            if not one_comma(text[previous:key]) or self._has_comment(previous, end):
                return None
            return previous, end
        following = self._offset(parent.value[1][0].start_mark)
        if not one_comma(text[end:following]) or self._has_comment(key, following):
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
                children = [(value, node_start(key)) for key, value in node.value]
            elif isinstance(node, yaml.SequenceNode):
                children = [(item, node_start(item)) for item in node.value]
            else:
                continue
            if owner is not None:
                yield Collection(owner, node_span(node))
            stack.extend(children)


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
        node = compose(text, confirm)
    except Refused as refused:
        doc.ok = False
        doc.problems.append(refused.problem)
        return doc
    except Unconfirmed as refused:
        doc.ok = False
        doc.unconfirmed = True
        doc.refused_lines = refused.lines
        return doc
    if node is None:
        doc.value = None
        return doc
    merges = "<<" in text
    # a walk that builds the value also bounds the depth (a value built is not too deep)
    fast = fast_construct(node) if not merges and "*" not in text else None
    if fast is None and depth_bound(text) > MAX_DEPTH:
        deep = too_deep_node(node)
        if deep is not None:
            start = node_start(deep)
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
    constructor = Constructor()
    try:
        doc.value = constructor.construct_document(node)
    except yaml.YAMLError as exc:
        doc.ok = False
        doc.problems.append(yaml_problem(exc, text))
        return doc
    except RecursionError:
        doc.ok = False
        doc.problems.append(too_deep())
        return doc
    except Exception as exc:
        # e.g. a timestamp with month 13 (ValueError) or `!!bool maybe` (KeyError): safe_load
        # raises, so the runtime fails to load the file too
        doc.ok = False
        failed = failed_node(node)
        where = node_span(failed) if failed is not None else ORIGIN
        doc.problems.append(rules.YM001.unconstructible(error=exc, span=where))
        return doc
    doc.root = node
    if constructor.saw_duplicates and not merges:
        _find_duplicates(doc, node)
    return doc


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
                    key = key_value(key_node)
                    if key is UNHASHABLE or key_node.tag == "tag:yaml.org,2002:merge":
                        stack.append((value_node, path, depth + 1))
                        continue
                if key in first:
                    doc.duplicates.setdefault((*path, key), []).append(node_span(first[key]))
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


#: Mappings of at most this many members are scanned for a string key (``_locate_entry``);
#: a larger one gets its children map, so locating all of its members stays linear.
_SCANNED = 16


def loads_json(text: str) -> Any:
    """``json.loads(text)`` as the runtime calls it, on a fresh stack when the text may nest
    deeply (so formscript's own call depth never decides); raises what json.loads raises."""
    if text.count("[") + text.count("{") > FRESH_STACK_AT:
        return on_fresh_stack(lambda: json.loads(text))
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
        doc.problems.append(too_deep())
        return
    except Exception as exc:  # an integer past 4,300 digits: a ValueError, not a syntax error
        doc.ok = False
        doc.problems.append(rules.YM001.loader_failed(error=exc, span=_huge_int_span(doc.text)))
        return
    try:
        loader = safe_loader_class()(doc.text)
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
    return ORIGIN
