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
import functools
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import yaml

from formscript import rules
from formscript.core.verdict import KeyPath, Problem
from formscript.document.comments import comments_of
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
from formscript.document.positions import LineIndex
from formscript.document.yamledits import Hop, removal_at, replacement_at
from formscript.document.yamlread import (
    FRESH_STACK_AT,
    MAX_DEPTH,
    Constructor,
    Refused,
    Unconfirmed,
    compose,
    depth_bound,
    failed_node,
    node_span,
    node_start,
    on_fresh_stack,
    safe_loader_class,
    too_deep,
    too_deep_node,
    yaml_problem,
)

__all__ = ["YamlDocument", "loads_json", "parse_document"]


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
    _children: dict[int, dict[Any, tuple[yaml.Node | None, yaml.Node]]] = dataclasses.field(default_factory=dict)
    _shared: set[int] | None = None
    _comment_starts: list[int] | None = None
    #: Located entries by path, and the written hops to a path (``_written``), kept because
    #: a finding's span, its fix and a later finding at the same place walk the same path.
    _located: dict[KeyPath, Location | None] = dataclasses.field(default_factory=dict)
    _chains: dict[KeyPath, tuple[Hop, ...] | None] = dataclasses.field(default_factory=dict)

    def entry(self, path: KeyPath) -> Location | None:
        """The located entry at *path*, walking only the mappings on the way."""
        located = self._located
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
        for part in path:
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
        found = self.entry(path)
        if found is None:
            return None
        node = found._source[2]
        if not isinstance(node, yaml.MappingNode) or node.flow_style or len(node.value) < 8:
            return None
        own = self._children_of(node)
        if own is None or len(own) != len(node.value):
            return None
        pairs = node.value
        low = bisect.bisect_right(pairs, pos, key=lambda pair: node_start(pair[0]))  # past the last key before pos
        return [key_value(key) for key, _ in pairs[max(low - 2, 0) : low]]

    @property
    def unshared(self) -> bool:
        """Whether no value is reached twice in the loaded value (the text holds no alias:
        YAML's only way to share one; JSON has none): each value's size is then bounded by
        the text's."""
        return "*" not in self.text

    @functools.cached_property
    def lines(self) -> list[str]:
        """The text split into lines without their line breaks."""
        return split_lines(self.text)

    def comments(self) -> list[Comment]:
        """The YAML comments, found from the scanner's tokens (so a ``#`` inside a quoted,
        block or plain scalar is not one); JSON has none."""
        if self.syntax == "json" or "#" not in self.text:
            return []
        return comments_of(self.text)

    # -- editing: every edit is exact or not offered ------------------------------------

    @functools.cached_property
    def index(self) -> LineIndex:
        """The text's offset/position mapping (the one edits are applied with)."""
        return LineIndex(self.text)

    @functools.cached_property
    def linked(self) -> bool:
        """Whether the text may hold an alias, a merge key or a tag (``yamledits._hop`` checks
        each hop): a node is used twice only through an alias (``*``); a mapping holds
        members written elsewhere only through a merge key (``<<``, or a ``!!merge`` tag)."""
        return "*" in self.text or "<<" in self.text or "!" in self.text

    @functools.cached_property
    def marked(self) -> bool:
        """Whether the text may hold an anchor or a tag (``yamledits._scalar_span`` skips them)."""
        return "&" in self.text or "!" in self.text

    def replacement(self, path: KeyPath, text: str, *, on_key: bool = False, quoted: bool = False) -> Edit | None:
        """The edit writing *text* over the scalar key or value at *path* (``yamledits``)."""
        return replacement_at(self, path, text, on_key=on_key, quoted=quoted)

    def removal(self, path: KeyPath) -> tuple[Edit, ...] | None:
        """Edits deleting the mapping member at *path* and nothing else (``yamledits``)."""
        return removal_at(self, path)

    def collections(self) -> Iterator[Collection]:
        """Every mapping and sequence below the root, walking the node graph once."""
        if self.root is not None:
            yield from node_collections(self.root)


def node_collections(root: yaml.Node, owner: Pos | None = None) -> Iterator[Collection]:
    """The mappings and sequences from *root* down, each node once: *root* itself only
    with an *owner* (where the member holding it starts)."""
    stack: list[tuple[yaml.Node, Pos | None]] = [(root, owner)]
    seen: set[int] = set()
    while stack:
        node, held_at = stack.pop()
        if id(node) in seen:
            continue  # aliases share nodes
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            children = [(value, node_start(key)) for key, value in node.value]
        elif isinstance(node, yaml.SequenceNode):
            children = [(item, node_start(item)) for item in node.value]
        else:
            continue
        if held_at is not None:
            yield Collection(held_at, node_span(node))
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
        return _refused(doc, refused.problem)
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
            return _refused(doc, rules.YM001.too_deep(span=Span(start, Pos(start.line, start.column + 1))))
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
        return _refused(doc, yaml_problem(exc, text))
    except RecursionError:
        return _refused(doc, too_deep())
    except Exception as exc:
        # e.g. a timestamp with month 13 (ValueError) or `!!bool maybe` (KeyError): safe_load
        # raises, so the runtime fails to load the file too
        failed = failed_node(node)
        where = node_span(failed) if failed is not None else ORIGIN
        return _refused(doc, rules.YM001.unconstructible(error=exc, span=where))
    doc.root = node
    if constructor.saw_duplicates and not merges:
        _find_duplicates(doc, node)
    return doc


def _refused(doc: YamlDocument, problem: Problem) -> YamlDocument:
    """*doc* as not loading, for *problem*."""
    doc.ok = False
    doc.problems.append(problem)
    return doc


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
                if isinstance(key_node, yaml.ScalarNode) and key_node.tag == STR_TAG:
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
        span = Span(Pos(exc.lineno - 1, exc.colno - 1), Pos(exc.lineno - 1, exc.colno))
        _refused(doc, rules.YM001.json_syntax(detail=exc.msg, span=span))
        return
    except RecursionError:
        _refused(doc, too_deep())
        return
    except Exception as exc:  # an integer past 4,300 digits: a ValueError, not a syntax error
        _refused(doc, rules.YM001.loader_failed(error=exc, span=_huge_int_span(doc.text)))
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
