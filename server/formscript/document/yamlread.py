"""Reading YAML as the runtime reads it: libyaml's composer (fast) where it agrees with the
pure-Python loader lionagi uses, that loader where the two could differ or libyaml refuses, the
nesting bound both keep, and each refusal worded and placed (``document.located`` builds the
located document on top).
"""

from __future__ import annotations

import functools
import re
from typing import Any

import yaml

from formscript import rules
from formscript.core.verdict import Problem
from formscript.document.model import ORIGIN, Pos, Span, pos_of, span_of, split_lines
from formscript.document.positions import YAML_BREAKS, LineIndex

__all__ = ["MAX_DEPTH", "compose", "loader_for", "same_refusal", "tab_refusal"]


def node_start(node: yaml.Node) -> Pos:
    mark = node.start_mark
    return pos_of((mark.line, mark.column))


def node_end(node: yaml.Node) -> Pos:
    mark = node.end_mark
    return pos_of((mark.line, mark.column))


def node_span(node: yaml.Node) -> Span:
    """Where *node* is written. A block collection ends where its last member ends (its own
    end mark is the start of the next token: the next entry, on a later line), unless that
    member is an alias (its node is written elsewhere): then at its end mark."""
    start = node_start(node)
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
            after = node_end(before)
        else:
            last = current.value[-1]
            after = node_end(current.value[-2]) if len(current.value) > 1 else node_start(current)
        if node_start(last) < after:  # an alias
            return span_of((start, node_end(node)))
        current = last
    return span_of((start, node_end(current)))


def _mark_span(mark: Any, text: str) -> Span:
    """The character at *mark* (empty past its line's end)."""
    if mark is None:
        return ORIGIN
    line, column = mark.line, mark.column
    lines = split_lines(text)
    end = max(column, min(len(lines[line]), column + 1)) if line < len(lines) else column
    return Span(Pos(line, column), Pos(line, end))


def _char_span(text: str, index: int) -> Span:
    """The span of the character at *index* (empty at the end of the text)."""
    start = LineIndex(text).pos(index)
    end = start if index >= len(text) or text[index] in YAML_BREAKS else Pos(start.line, start.column + 1)
    return Span(start, end)


class Constructor(yaml.SafeLoader):
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


class _Locator(Constructor):
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


def failed_node(root: yaml.Node) -> yaml.Node | None:
    """The node whose construction raises (constructing the graph again to find it)."""
    locator = _Locator()
    try:
        locator.construct_document(root)
    except Exception:
        return locator.failed
    return None


def safe_loader_class() -> type[Any]:
    return CLoader if CLoader is not None else yaml.SafeLoader


def _make_c_loader() -> type[Any] | None:
    """libyaml's safe loader, resolving through a memo: libyaml asks the resolver (Python, a
    regex scan per plain scalar) for every node it composes, and a file's scalars repeat
    (keys, types, booleans). The memo is ``functools.lru_cache``'s, in C: a node it has seen
    the like of costs no Python call (38 of the 125 ms libyaml takes on bench's clean 1,000
    files, held for the cold lint's "1.5x the bare parse" target). It answers what
    ``BaseResolver.resolve`` answers for a loader without path resolvers (the safe loaders
    have none), from the node's kind, value and implicitness alone."""
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
    return type("CLoader", (base,), {"resolve": remembered, "descend_resolver": slice, "ascend_resolver": tuple})


CLoader = _make_c_loader()


#: A '!' where a tag may start: after a blank, a flow indicator or the end of a quoted
#: scalar or of a flow collection (``'y'!x`` is a scalar, then a tag, to the scanners).
_TAG = re.compile(r"(?:^|[\s\[{,'\"\]}])!", re.MULTILINE)


#: A block scalar's header with a comment sign straight after it (``|#c``): a comment to
#: libyaml, a refused header to the pure scanner, which wants a blank first.
_HEADER_COMMENT = re.compile(r"[|>][-+0-9]*#")


def loader_for(text: str) -> type[Any]:
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
    return safe_loader_class()


#: The deepest nesting (the root is level 1, a scalar inside it level 2, ...) the runtime's
#: pure-Python composer builds: it recurses two frames per level, so under Python's default
#: recursion limit of 1,000 frames ``li agent --form`` composes 490 levels of a block list
#: and fails on 491 (RecursionError, which it reports as a load failure). The exact figure
#: depends on the caller's own stack (a flow list gets one level more, a script loaded deep
#: inside a test run fewer); formscript applies this one, whatever its own stack.
MAX_DEPTH = 490


#: Texts that may nest deeper than this are composed on a fresh stack, so that how deep
#: formscript itself was called never decides whether a document loads.
FRESH_STACK_AT = 150


def depth_bound(text: str) -> int:
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


def on_fresh_stack(call: Any) -> Any:
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


def too_deep_node(root: yaml.Node) -> yaml.Node | None:
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


class Refused(Exception):
    """The runtime's loader fails on the text; carries the problem to report."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.message)
        self.problem = problem


def compose_pure(text: str) -> yaml.Node | None:
    """The node graph as the runtime's pure-Python loader composes it, or Refused with
    whatever that loader raises (a YAML error, RecursionError, or an exception of its own
    such as chr()'s ValueError for an escape past U+10FFFF)."""

    def compose() -> yaml.Node | None:
        try:
            loader = yaml.SafeLoader(text)
        except yaml.YAMLError as exc:  # the reader refuses some characters up front
            raise Refused(yaml_problem(exc, text)) from exc
        try:
            node: yaml.Node | None = loader.get_single_node()
        except yaml.YAMLError as exc:
            raise Refused(yaml_problem(exc, text)) from exc
        except RecursionError as exc:
            raise Refused(rules.YM001.too_deep(span=_mark_span(loader.get_mark(), text))) from exc
        except Exception as exc:
            raise Refused(rules.YM001.loader_failed(error=exc, span=_mark_span(loader.get_mark(), text))) from exc
        finally:
            loader.dispose()
        return node

    if depth_bound(text) > FRESH_STACK_AT:
        node: yaml.Node | None = on_fresh_stack(compose)
        return node
    return compose()


class Unconfirmed(Exception):
    """libyaml refuses the text; the pure-Python loader, which has the last word, was not asked."""

    def __init__(self, refused: Exception) -> None:
        super().__init__()
        marks = (getattr(refused, "problem_mark", None), getattr(refused, "context_mark", None))
        self.lines = tuple(mark.line for mark in marks if mark is not None)


def compose(text: str, confirm: bool = True) -> yaml.Node | None:
    """The node graph the runtime composes: libyaml's where it is known to agree with the
    pure-Python loader, which has the last word wherever libyaml refuses the text (unless
    not *confirm*: then Unconfirmed, for a caller with a cheaper way to ask it)."""
    loader_class = loader_for(text)
    if loader_class is yaml.SafeLoader:
        tab = tab_refusal(text)
        if tab is not None:
            raise Refused(tab)
        return compose_pure(text)
    try:
        loader = loader_class(text)
    except Exception:
        return compose_pure(text)
    try:
        node: yaml.Node | None = loader.get_single_node()
    except yaml.scanner.ScannerError as exc:
        if "maximum nesting depth" in str(exc.problem):
            # libyaml stops at 1,000 levels, far past MAX_DEPTH: the pure composer fails
            # too, after scanning (in time quadratic in the flow depth) up to its limit
            raise Refused(rules.YM001.too_deep(span=_mark_span(exc.problem_mark, text))) from exc
        return _libyaml_refused(exc, text, confirm)
    except Exception as exc:
        return _libyaml_refused(exc, text, confirm)
    finally:
        loader.dispose()
    return node


def _libyaml_refused(exc: Exception, text: str, confirm: bool) -> yaml.Node | None:
    """After libyaml refused *text* (which holds none of the constructs it reads differently):
    Unconfirmed (not *confirm*), the pure loader's refusal where libyaml's is one it is known
    to make alike (``same_refusal``), or the pure loader's reading."""
    if not confirm:
        raise Unconfirmed(exc) from exc
    same = same_refusal(exc, text)
    if same is not None:
        raise Refused(same) from exc
    return compose_pure(text)


#: libyaml's refusals that the runtime's pure-Python loader makes alike, at the same marks
#: (the two scanners and parsers are one algorithm; tests/test_refusals.py compares them on
#: tens of thousands of broken texts): libyaml's (context, problem) -> the pure loader's.
#: ``{found}`` is the token the pure parser names: in our words only '<stream end>' or not
#: matters (``_in_our_words``), so any other token is written '<token>'; ``{char}`` is the
#: character at the problem mark. A refusal not listed is left to the pure loader.
SAME_REFUSALS: dict[tuple[str | None, str], tuple[str | None, str]] = {
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
    return depth_bound(read) > MAX_DEPTH or yaml.reader.Reader.NON_PRINTABLE.search(text) is not None


def tab_refusal(text: str) -> Problem | None:
    """The pure loader's refusal of the first tab in *text*, where libyaml shows it is
    refused: the tab stands in its line's indentation, and libyaml, reading the text before
    it and a '`' in its place (no token starts with either character, and neither is a
    blank to the scanners), refuses exactly there. The two loaders read that text alike
    (it holds none of the constructs that split them, ``loader_for``), so the pure loader
    reaches the tab in the same state and refuses it; nothing after it is read. None where
    that is not shown (the pure loader then reads the text)."""
    at = text.find("\t")
    if at < 0:
        return None
    start = max(text.rfind("\n", 0, at), text.rfind("\r", 0, at)) + 1
    if text[start:at].strip(" "):
        return None
    probe = text[:at] + "`"
    loader_class = safe_loader_class()
    if loader_class is yaml.SafeLoader or loader_for(probe) is not loader_class or _pure_refuses_sooner(text, probe):
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
    where the two are known to refuse alike (``SAME_REFUSALS``): None otherwise, and
    wherever the pure loader could refuse earlier for a reason libyaml does not have (a
    character its reader refuses up front, nesting past its recursion limit)."""
    if not isinstance(exc, yaml.MarkedYAMLError) or exc.problem_mark is None:
        return None
    key = (exc.context, str(exc.problem))
    pure = SAME_REFUSALS.get(key)
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


def too_deep() -> Problem:
    return rules.YM001.too_deep(span=ORIGIN)


def yaml_problem(exc: yaml.YAMLError, text: str) -> Problem:
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
