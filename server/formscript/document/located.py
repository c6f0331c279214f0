"""Parse YAML or JSON into values exactly as PyYAML's safe_load (or json) yields them, plus
the source range of every key and value.

libyaml's composer gives the nodes with their marks (fast); PyYAML's SafeConstructor builds
the values from those nodes, so they are the runtime's values. When libyaml refuses a text,
the pure-Python loader (the one the runtime uses) decides, so a verdict never rests on a
difference between the two parsers. Parsing never raises: problems come back as data.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple

import yaml

from formscript import rules
from formscript.core.verdict import KeyPath, Problem

Syntax = Literal["yaml", "json"]


class Pos(NamedTuple):
    """A 0-based line and a 0-based column counted in Unicode code points."""

    line: int
    column: int


class Span(NamedTuple):
    """A half-open range [start, end)."""

    start: Pos
    end: Pos


@dataclass(frozen=True)
class Scalar:
    """How a scalar was written: its style ('' for plain), source text and resolved tag."""

    style: str
    text: str
    tag: str


@dataclass
class Entry:
    """Where one key-path lives: the key's span (mappings only) and the value's span."""

    value: Span
    key: Span | None = None
    scalar: Scalar | None = None


@dataclass
class Document:
    """A parsed text: its value (None when unparsable), located entries and parse problems."""

    text: str
    value: Any = None
    ok: bool = True
    #: Problems found while parsing (syntax, duplicate keys, unsafe tags), located by span.
    problems: list[Problem] = field(default_factory=list)
    #: Earlier occurrences of duplicated keys: path -> key spans of the overridden copies.
    duplicates: dict[KeyPath, list[Span]] = field(default_factory=dict)
    root: yaml.Node | None = None
    _lines: list[str] | None = None
    _entries: dict[KeyPath, Entry] | None = None
    _children: dict[int, dict[Any, tuple[yaml.Node | None, yaml.Node]]] = field(default_factory=dict)

    @property
    def entries(self) -> dict[KeyPath, Entry]:
        """Every located key-path (built on first use; lint itself looks paths up one by one)."""
        if self._entries is None:
            self._entries = {}
            if self.root is not None:
                _index_all(self._entries, self.root)
        return self._entries

    def entry(self, path: KeyPath) -> Entry | None:
        """The located entry at *path*, walking only the mappings on the way."""
        if self._entries is not None:
            return self._entries.get(tuple(path))
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
        return Entry(_span(node), _span(key_node) if key_node is not None else None, _scalar(node))

    def _children_of(self, node: yaml.Node) -> dict[Any, tuple[yaml.Node | None, yaml.Node]] | None:
        cached = self._children.get(id(node))
        if cached is not None:
            return cached
        children: dict[Any, tuple[yaml.Node | None, yaml.Node]] = {}
        if isinstance(node, yaml.MappingNode):
            for key_node, value_node in node.value:
                key = _key_value(key_node)
                if key is not _UNHASHABLE:
                    children[key] = (key_node, value_node)
        elif isinstance(node, yaml.SequenceNode):
            for index, item in enumerate(node.value):
                children[index] = (None, item)
        else:
            return None
        self._children[id(node)] = children
        return children

    @property
    def lines(self) -> list[str]:
        """The text split into lines without their line breaks."""
        if self._lines is None:
            self._lines = self.text.splitlines() or [""]
        return self._lines

    def end(self) -> Pos:
        """The position just after the last character."""
        lines = self.lines
        return Pos(len(lines) - 1, len(lines[-1]))

    def locate(self, path: KeyPath, *, on_key: bool = False) -> Span:
        """The span for *path*, falling back to the nearest located ancestor."""
        probe = tuple(path)
        while True:
            entry = self.entry(probe)
            if entry is not None:
                if on_key and entry.key is not None and probe == tuple(path):
                    return entry.key
                if probe != tuple(path) and entry.key is not None:
                    return entry.key
                return entry.value
            if not probe:
                return Span(Pos(0, 0), Pos(0, 0))
            probe = probe[:-1]


def _span(node: yaml.Node) -> Span:
    start, end = node.start_mark, node.end_mark
    return Span(Pos(start.line, start.column), Pos(end.line, end.column))


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


def _safe_loader_class() -> type[Any]:
    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)


_TAG = re.compile(r"(?:^|[\s\[{,])!", re.MULTILINE)


def _loader_for(text: str) -> type[Any]:
    """libyaml, except for texts where it is known to read differently from the runtime's
    pure-Python loader (found by differential testing): tabs, which libyaml tolerates where
    the pure scanner refuses them; '?' inside flow collections, which ends a plain scalar
    for the pure scanner but not for libyaml; and tags (a bare ``!`` resolves to null in one
    and to an empty string in the other)."""
    if "\t" in text or ("?" in text and ("{" in text or "[" in text)) or ("!" in text and _TAG.search(text)):
        return yaml.SafeLoader
    return _safe_loader_class()


def parse_document(text: str, syntax: Syntax = "yaml") -> Document:
    """Parse *text* the way the runtime reads it: YAML 1.1 via safe_load, or strict json."""
    doc = Document(text=text)
    if syntax == "json":
        _parse_json(doc)
        return doc
    try:
        loader = _loader_for(text)(text)
    except yaml.YAMLError as exc:  # the pure reader refuses some characters up front
        _fallback_pure(doc, exc)
        return doc
    try:
        node = loader.get_single_node()
    except yaml.YAMLError as exc:
        _fallback_pure(doc, exc)
        return doc
    except RecursionError:
        doc.ok = False
        doc.problems.append(_too_deep())
        return doc
    finally:
        loader.dispose()
    if node is None:
        doc.value = None
        return doc
    merges = "<<" in text
    if merges:  # construction flattens merge keys in place; look for duplicates before that
        doc.root = node
        _find_duplicates(doc, node)
        doc._children.clear()
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
    except (ValueError, TypeError, OverflowError) as exc:
        # e.g. a timestamp with day 0: safe_load raises, so the runtime fails to load too
        doc.ok = False
        doc.problems.append(rules.YM001.unconstructible(error=exc, span=_ORIGIN))
        return doc
    doc.root = node
    if constructor.saw_duplicates and not merges:
        _find_duplicates(doc, node)
    return doc


_ORIGIN = Span(Pos(0, 0), Pos(0, 0))


def _too_deep() -> Problem:
    return rules.YM001.too_deep(span=_ORIGIN)


def _fallback_pure(doc: Document, libyaml_error: yaml.YAMLError) -> None:
    """libyaml refused the text; the runtime's pure-Python loader has the last word."""
    try:
        value = yaml.load(doc.text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        doc.ok = False
        doc.problems.append(_yaml_problem(exc, doc.text))
        return
    except RecursionError:
        doc.ok = False
        doc.problems.append(_too_deep())
        return
    except (ValueError, TypeError, OverflowError) as exc:
        doc.ok = False
        doc.problems.append(rules.YM001.unconstructible(error=exc, span=_ORIGIN))
        return
    doc.value = value
    try:
        node = yaml.compose(doc.text, Loader=yaml.SafeLoader)
    except Exception:  # positions are a bonus here; the value is what matters
        return
    if node is not None:
        doc.root = node
        _find_duplicates(doc, node)


def _yaml_problem(exc: yaml.YAMLError, text: str) -> Problem:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    problem = getattr(exc, "problem", None) or str(exc)
    context = getattr(exc, "context", None)
    message = str(problem)
    if context:
        message = f"{message} ({context})"
    span = _mark_span(mark, text)
    if isinstance(exc, yaml.constructor.ConstructorError) and "tag" in message:
        return rules.YM003.problem(detail=message, span=span)
    return rules.YM001.yaml_syntax(detail=message, span=span)


def _index_all(entries: dict[KeyPath, Entry], root: yaml.Node) -> None:
    """Record the span of every key and value (the last copy of a duplicated key wins)."""
    entries[()] = Entry(_span(root), None, _scalar(root))
    stack: list[tuple[yaml.Node, KeyPath, int]] = [(root, (), 0)]
    seen: set[int] = set()
    while stack:
        node, path, depth = stack.pop()
        if id(node) in seen or depth > 200:
            continue  # aliases share nodes; deep trees are still loaded, just not indexed
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            last: dict[Any, tuple[yaml.Node, yaml.Node]] = {}
            for key_node, value_node in node.value:
                key = _key_value(key_node)
                if key is not _UNHASHABLE:
                    last[key] = (key_node, value_node)
            for key, (key_node, value_node) in reversed(last.items()):
                child = (*path, key)
                entries[child] = Entry(_span(value_node), _span(key_node), _scalar(value_node))
                stack.append((value_node, child, depth + 1))
        elif isinstance(node, yaml.SequenceNode):
            for index in range(len(node.value) - 1, -1, -1):
                item = node.value[index]
                child = (*path, index)
                entries[child] = Entry(_span(item), None, _scalar(item))
                stack.append((item, child, depth + 1))


_STR_TAG = "tag:yaml.org,2002:str"


def _find_duplicates(doc: Document, root: yaml.Node) -> None:
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
                stack.append((value_node, (*path, key), depth + 1))
        elif isinstance(node, yaml.SequenceNode):
            for index, item in enumerate(node.value):
                stack.append((item, (*path, index), depth + 1))
    for path, spans in doc.duplicates.items():
        final = doc.entry(path)
        for span in spans:
            doc.problems.append(rules.YM002.problem(key=path[-1], span=span, kept=final.key if final else None))


_UNHASHABLE = object()


def _key_value(node: yaml.Node) -> Any:
    if isinstance(node, yaml.ScalarNode):
        try:
            value = _construct_scalar(node)
            hash(value)
            return value
        except Exception:
            return _UNHASHABLE
    return _UNHASHABLE


def _construct_scalar(node: yaml.ScalarNode) -> Any:
    constructor = _Constructor()
    return constructor.construct_object(node, deep=True)


def _scalar(node: yaml.Node) -> Scalar | None:
    if isinstance(node, yaml.ScalarNode):
        return Scalar(node.style or "", node.value, node.tag)
    return None


def _parse_json(doc: Document) -> None:
    """Strict JSON as json.loads reads it (NaN and Infinity allowed), located via YAML marks."""
    try:
        doc.value = json.loads(doc.text)
    except json.JSONDecodeError as exc:
        doc.ok = False
        span = Span(Pos(exc.lineno - 1, exc.colno - 1), Pos(exc.lineno - 1, exc.colno))
        doc.problems.append(rules.YM001.json_syntax(detail=exc.msg, span=span))
        return
    except RecursionError:
        doc.ok = False
        doc.problems.append(_too_deep())
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
