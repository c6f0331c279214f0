"""Edits of a located YAML or JSON text (``located.YamlDocument``'s ``replacement`` and
``removal``): every edit is exact or not offered — written where the path says and nowhere
else, never through an alias, never across a comment."""

from __future__ import annotations

import bisect
import re
from typing import Any, Protocol

import yaml

from formscript.core.verdict import KeyPath
from formscript.document.comments import line_end
from formscript.document.model import Comment, Edit, Location, Pos, Span, Syntax
from formscript.document.positions import YAML_BREAKS, LineIndex
from formscript.document.writing import json_source, scalar_source
from formscript.document.yamlread import node_end, node_span, node_start

#: An anchor or tag (and the blanks after it) written before a node.
_PROPERTIES = re.compile(r"(?:[&!][^\s,\[\]{}]*[ \t]+)*")

#: What may stand before a block sequence item's first key on its line.
_ITEM_PREFIX = re.compile(r" *(?:- +)+")


def _one_comma(gap: str) -> bool:
    """Whether *gap* is blanks and line breaks around exactly one comma."""
    return gap.count(",") == 1 and gap.replace(",", "").strip(" \t\n\r\x85\u2028\u2029") == ""


#: One hop of a written path: the parent, the key node (None in a sequence) and the node.
Hop = tuple[yaml.Node, yaml.Node | None, yaml.Node]


class Located(Protocol):
    """What the edits read of a located YAML document (``located.YamlDocument``)."""

    text: str
    syntax: Syntax
    ok: bool
    root: yaml.Node | None
    _shared: set[int] | None
    _chains: dict[KeyPath, tuple[Hop, ...] | None]
    _comment_starts: list[int] | None

    @property
    def index(self) -> LineIndex: ...

    @property
    def linked(self) -> bool: ...

    @property
    def marked(self) -> bool: ...

    def entry(self, path: KeyPath) -> Location | None: ...

    def comments(self) -> list[Comment]: ...

    def _children_of(self, node: yaml.Node) -> dict[Any, tuple[yaml.Node | None, yaml.Node]] | None: ...


def replacement_at(
    doc: Located, path: KeyPath, text: str, *, on_key: bool = False, quoted: bool = False
) -> Edit | None:
    """The edit writing the string *text* over the scalar key or value at *path*: only the
    scalar itself (an anchor or tag before it stays), and only where it is written at
    *path* and nowhere else (not reached through an alias, not aliased elsewhere)."""
    entry = _unlinked_entry(doc, path)
    if entry is not None:  # the nodes as located: nothing is aliased, merged or tagged
        source = entry._source
        target = source[3] if on_key else source[2]
        if not isinstance(target, yaml.ScalarNode):
            return None
        # no anchor before it either: the scalar's span is the one the entry located
        span = _scalar_span(doc, target) if doc.marked else (entry.key if on_key else entry.value)
    else:
        chain = _written(doc, path)
        if chain is None or not chain:
            return None
        key_node, node = chain[-1][1], chain[-1][2]
        target = key_node if on_key else node
        if not isinstance(target, yaml.ScalarNode):
            return None
        span = _scalar_span(doc, target)
    if span is None:
        return None
    written = json_source(text) if doc.syntax == "json" else scalar_source(text, quoted=quoted)
    return Edit(span, written)


def _unlinked_entry(doc: Located, path: KeyPath) -> Location | None:
    """The located entry at *path*, found from its nodes, where the text holds no alias,
    merge key or tag, so every node is written where the path says (what ``_written``
    finds, without walking its hops); None otherwise or where not found. Only for paths
    of str and int parts: ``_hop`` indexes a sequence with an int alone."""
    if not path or doc.linked:
        return None
    for part in path:
        kind = type(part)
        if kind is not str and kind is not int:
            return None
    entry = doc.entry(path)
    return entry if entry is not None and entry._source is not None else None


def removal_at(doc: Located, path: KeyPath) -> tuple[Edit, ...] | None:
    """Edits deleting the mapping member at *path* and nothing else: its own lines in block
    style (a comment after it stays), the member and one comma in flow style. Not offered
    where the member is reached through an alias or holds an anchor used elsewhere, where
    a comment sits inside it, or where the layout leaves no exact deletion."""
    if not doc.ok or not path:
        return None
    chain = _written(doc, path[:-1])
    if chain is None:
        return None
    parent = chain[-1][2] if chain else doc.root
    if not isinstance(parent, yaml.MappingNode):
        return None
    found = doc._children_of(parent)
    pair = found.get(path[-1]) if found is not None else None
    if pair is None or pair[0] is None:
        return None
    key_node: yaml.Node = pair[0]
    value_node = pair[1]
    position = next((i for i, (k, _) in enumerate(parent.value) if k is key_node), None)
    if position is None or not _at_home(doc, parent, position):
        return None
    if _anchors_used_elsewhere(doc, key_node, value_node):
        return None
    span = _flow_removal(doc, parent, position) if parent.flow_style else _block_removal(doc, parent, position)
    if span is None:
        return None
    return (Edit(Span(doc.index.pos(span[0]), doc.index.pos(span[1])), ""),)


def _offset(doc: Located, mark: Any) -> int:
    return doc.index.offset(Pos(mark.line, mark.column))


def _shared_nodes(doc: Located) -> set[int]:
    """The nodes reached from more than one place (through aliases or merge keys)."""
    if doc._shared is None and "*" not in doc.text:
        doc._shared = set()  # a node is reached twice only through an alias
    if doc._shared is None:
        shared: set[int] = set()
        counts: dict[int, int] = {}
        stack = [doc.root] if doc.root is not None else []
        if doc.root is not None:
            counts[id(doc.root)] = 1
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
        doc._shared = shared
    return doc._shared


def _at_home(doc: Located, parent: yaml.Node, position: int) -> bool:
    """Whether child *position* of *parent* is written inside it, in order (a merged or
    aliased child was written elsewhere, earlier)."""
    start = node_start(parent)
    if isinstance(parent, yaml.MappingNode):
        key, value = parent.value[position]
        if position > 0:
            start = max(start, node_end(parent.value[position - 1][1]))
        return node_start(key) >= start and node_start(value) >= node_end(key)
    if isinstance(parent, yaml.SequenceNode):
        if position > 0:
            start = max(start, node_end(parent.value[position - 1]))
        return node_start(parent.value[position]) >= start
    return False


def _written(doc: Located, path: KeyPath) -> tuple[Hop, ...] | None:
    """The (parent, key node, node) hops to *path*, each written where the path says and
    used nowhere else; None when a hop is shared, aliased, merged or missing. Each path's
    hops are kept: the fixes of one entry walk the same parents."""
    if doc.root is None:
        return None
    if not path:
        return ()
    chains = doc._chains
    key = tuple(path)
    try:
        return chains[key]
    except KeyError:
        pass
    except TypeError:  # an unhashable part is no key of any mapping
        return None
    parent = _written(doc, key[:-1])
    chain = None
    if parent is not None:
        hop = _hop(doc, parent[-1][2] if parent else doc.root, key[-1])
        if hop is not None:
            chain = (*parent, hop)
    chains[key] = chain
    return chain


def _hop(doc: Located, node: yaml.Node, part: Any) -> Hop | None:
    """The hop from *node* to its child *part*, when that child is written there and
    used nowhere else."""
    if isinstance(node, yaml.MappingNode):
        children = doc._children_of(node)
        found = children.get(part) if children is not None else None
        if found is None:
            return None
        key_node, child = found
        if not doc.linked:
            return node, key_node, child
        try:
            position = [k for k, _ in node.value].index(key_node)
        except ValueError:
            return None
    elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and 0 <= part < len(node.value):
        key_node, child, position = None, node.value[part], part
        if not doc.linked:
            return node, key_node, child
    else:
        return None
    if not _at_home(doc, node, position):
        return None
    shared = _shared_nodes(doc)
    if id(child) in shared or (key_node is not None and id(key_node) in shared):
        return None
    return node, key_node, child


def _anchors_used_elsewhere(doc: Located, key_node: yaml.Node, value_node: yaml.Node) -> bool:
    """Whether deleting the member (its text from the key to the value's end) would delete
    an anchor that an alias elsewhere uses. The value itself may be an alias: deleting it
    leaves its anchor where it is."""
    shared = _shared_nodes(doc)
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


def _scalar_span(doc: Located, node: yaml.ScalarNode) -> Span | None:
    """The scalar's own text: past an anchor or tag written before it on its line."""
    span = node_span(node)
    if not doc.marked:
        return span  # no anchor or tag is written anywhere
    begin = _offset(doc, node.start_mark)
    match = _PROPERTIES.match(doc.text, begin)
    if match is None or match.end() == begin:
        return span
    after = match.end()
    if after >= len(doc.text) or doc.text[after] in YAML_BREAKS or doc.text[after] == "#":
        return None  # the scalar starts on a later line: not worth the risk
    return Span(doc.index.pos(after), span.end)


def _has_comment(doc: Located, start: int, end: int) -> bool:
    if "#" not in doc.text[start:end]:
        return False
    if doc._comment_starts is None:
        index = doc.index
        doc._comment_starts = [index.offset(c.span.start) for c in doc.comments()]
    low = bisect.bisect_left(doc._comment_starts, start)
    return low < len(doc._comment_starts) and doc._comment_starts[low] < end


def _block_removal(doc: Located, parent: yaml.MappingNode, position: int) -> tuple[int, int] | None:
    text = doc.text
    key_node, value_node = parent.value[position]
    key, end = _offset(doc, key_node.start_mark), _offset(doc, value_node.end_mark)
    if len(parent.value) < 2 or _has_comment(doc, key, end):
        return None
    line = key_node.start_mark.line
    line_start = doc.index.offset(Pos(line, 0))
    before = text[line_start:key]
    if before.strip(" ") == "":
        if value_node.end_mark.column == 0 and value_node.end_mark.line > line:
            return line_start, end  # a block scalar ends at the start of the next line
        rest_end = line_end(text, end)
        rest = text[end:rest_end].lstrip(" \t")
        if rest == "":
            following = value_node.end_mark.line + 1
            stop = doc.index.offset(Pos(following, 0)) if following < len(doc.index.starts) else len(text)
            return line_start, stop
        if rest.startswith("#"):
            return key, rest_end - len(rest)  # the comment after it stays, on its own line
        return None
    if position == 0 and _ITEM_PREFIX.fullmatch(before):
        # "- when: {}\n  type: text": the next member moves up to the item's line
        next_key = parent.value[1][0]
        following = _offset(doc, next_key.start_mark)
        if next_key.start_mark.column != key_node.start_mark.column:
            return None
        if not _has_comment(doc, end, following) and text[end:following].strip(" \n\r\x85\u2028\u2029") == "":
            return key, following
        # comments in between stay: the item's mapping then starts on a later line
        rest_end = line_end(text, end)
        rest = text[end:rest_end].lstrip(" \t")
        if rest == "" or rest.startswith("#"):
            return key, rest_end - len(rest)
    return None


def _flow_removal(doc: Located, parent: yaml.MappingNode, position: int) -> tuple[int, int] | None:
    text = doc.text
    key_node, value_node = parent.value[position]
    key, end = _offset(doc, key_node.start_mark), _offset(doc, value_node.end_mark)
    count = len(parent.value)
    if count == 1:
        opening = _offset(doc, parent.start_mark)
        if text[opening : opening + 1] != "{" or _has_comment(doc, key, end):
            return None
        return key, end
    if position > 0:
        previous = _offset(doc, parent.value[position - 1][1].end_mark)
        if not _one_comma(text[previous:key]) or _has_comment(doc, previous, end):
            return None
        return previous, end
    following = _offset(doc, parent.value[1][0].start_mark)
    if not _one_comma(text[end:following]) or _has_comment(doc, key, following):
        return None
    return key, following
