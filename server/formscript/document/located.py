"""Parse YAML or JSON into values exactly as PyYAML's safe_load (or json) yields them, plus
the source range of every key and value.

libyaml's composer gives the nodes with their marks (fast); PyYAML's SafeConstructor builds
the values from those nodes, so they are the runtime's values. When libyaml refuses a text,
the pure-Python loader (the one the runtime uses) decides, so a verdict never rests on a
difference between the two parsers. Parsing never raises: problems come back as data.
"""

from __future__ import annotations

import bisect
import json
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import yaml

from formscript import rules
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
    split_lines,
)

__all__ = ["MAX_DEPTH", "YamlDocument", "loads_json", "parse_document", "position_of"]


@dataclass
class YamlDocument(Document):
    """A YAML or JSON text: its value (None when unparsable), parse problems, and the node
    graph libyaml composed, from which every key path is located on demand."""

    text: str
    value: Any = None
    ok: bool = True
    #: Problems found while parsing (syntax, duplicate keys, unsafe tags), located by span.
    problems: list[Problem] = field(default_factory=list)
    syntax: Syntax = "yaml"
    #: Earlier occurrences of duplicated keys: path -> key spans of the overridden copies.
    duplicates: dict[KeyPath, list[Span]] = field(default_factory=dict)
    root: yaml.Node | None = None
    _lines: list[str] | None = None
    _children: dict[int, dict[Any, tuple[yaml.Node | None, yaml.Node]]] = field(default_factory=dict)

    def entry(self, path: KeyPath) -> Location | None:
        """The located entry at *path*, walking only the mappings on the way."""
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
        return Location(_span(node), _span(key_node) if key_node is not None else None, _scalar(node))

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
            self._lines = split_lines(self.text)
        return self._lines

    def comments(self) -> list[Comment]:
        """The YAML comments, found from the scanner's tokens (so a ``#`` inside a quoted,
        block or plain scalar is not one); JSON has none."""
        if self.syntax == "json" or "#" not in self.text:
            return []
        return _comments(self.text)

    def removal(self, path: KeyPath) -> tuple[Edit, ...] | None:
        """Edits deleting the mapping member at *path* through ruamel.yaml's round trip,
        offered only when they stay on the member's own lines and the result loads to the
        old value without it."""
        entry = self.entry(path)
        if entry is None or entry.key is None or not self.ok:
            return None
        from formscript.document.edits import remove_key_edits

        end_line = entry.value.end.line - (1 if entry.value.end.column == 0 else 0)
        return remove_key_edits(
            self.text, path, self.value, (entry.key.start.line, max(end_line, entry.key.start.line))
        )

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
    return Pos(node.start_mark.line, node.start_mark.column)


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


def _char_span(text: str, index: int) -> Span:
    """The span of the character at *index* (empty at the end of the text)."""
    start = position_of(text, index)
    end = start if index >= len(text) or text[index] in _BREAKS else Pos(start.line, start.column + 1)
    return Span(start, end)


def position_of(text: str, index: int) -> Pos:
    """The line and column of character *index* of *text* (``len(text)``: just past its
    end), with line breaks counted as the YAML scanner counts them."""
    return _Positions(text).of(index)


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
    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)


_TAG = re.compile(r"(?:^|[\s\[{,])!", re.MULTILINE)


def _loader_for(text: str) -> type[Any]:
    """libyaml, except for texts where it is known to read differently from the runtime's
    pure-Python loader (found by differential testing): tabs, which libyaml tolerates where
    the pure scanner refuses them; '?' inside flow collections, which ends a plain scalar
    for the pure scanner but not for libyaml; tags (a bare ``!`` resolves to null in one
    and to an empty string in the other); and a byte order mark after the first character,
    which libyaml skips at the start of a line while the pure scanner reads it as text."""
    if (
        "\t" in text
        or ("?" in text and ("{" in text or "[" in text))
        or ("!" in text and _TAG.search(text))
        or "\ufeff" in text[1:]
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
    indicators = sum(text.count(char) for char in "[{-:?")
    if indicators < MAX_DEPTH:
        return indicators + 1
    widest = max(map(len, text.splitlines()), default=0)
    return min(indicators, 2 * (widest + 1) + text.count("[") + text.count("{")) + 1


def _on_fresh_stack(call: Any) -> Any:
    """*call*() in a new thread, whose recursion depth starts at zero; its result or its
    exception."""
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


def _compose(text: str) -> yaml.Node | None:
    """The node graph the runtime composes: libyaml's where it is known to agree with the
    pure-Python loader, which has the last word wherever libyaml refuses the text."""
    loader_class = _loader_for(text)
    if loader_class is yaml.SafeLoader:
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
        return _compose_pure(text)
    except Exception:
        return _compose_pure(text)
    finally:
        loader.dispose()
    return node


def parse_document(text: str, syntax: Syntax = "yaml") -> YamlDocument:
    """Parse *text* the way the runtime reads it: YAML 1.1 via safe_load, or strict json.

    Whatever the runtime's loader or constructor raises is a rejection (the file does not
    load, or its tag is refused), located at its cause where that is known; parsing itself
    never raises."""
    doc = YamlDocument(text=text, syntax=syntax)
    if syntax == "json":
        _parse_json(doc)
        return doc
    try:
        node = _compose(text)
        if node is not None and _depth_bound(text) > MAX_DEPTH:
            deep = _too_deep_node(node)
            if deep is not None:
                start = _start(deep)
                raise _Refused(rules.YM001.too_deep(span=Span(start, Pos(start.line, start.column + 1))))
    except _Refused as refused:
        doc.ok = False
        doc.problems.append(refused.problem)
        return doc
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
            positions = _Positions(text)
            return Span(positions.of(match.start(1)), positions.of(match.end(1)))
    return _ORIGIN


# ------------------------------------------------------------------------------ comments

_BREAKS = "\n\r\x85\u2028\u2029"
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
    position = _Positions(text)
    index = text.find("#", 0, known)
    block = 0
    while index >= 0:
        while block < len(covered) and covered[block][1] <= index:
            block += 1
        if block < len(covered) and covered[block][0] <= index:
            index = text.find("#", covered[block][1], known)
            continue
        end = _line_end(text, index)
        found.append(Comment(Span(position.of(index), position.of(end)), text[index:end]))
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


class _Positions:
    """Character offsets to (line, column) as the YAML scanner counts them: ``\\r\\n``,
    ``\\r``, ``\\n``, NEL, LS and PS end a line."""

    def __init__(self, text: str) -> None:
        self.starts = [0]
        index = 0
        length = len(text)
        while index < length:
            char = text[index]
            if char in _BREAKS:
                if char == "\r" and index + 1 < length and text[index + 1] == "\n":
                    index += 1
                self.starts.append(index + 1)
            index += 1

    def of(self, index: int) -> Pos:
        """The position of character *index*."""
        line = bisect.bisect_right(self.starts, index) - 1
        return Pos(line, index - self.starts[line])
