"""Python literals as located values, read from ``ast`` nodes (nothing is imported or run).

A literal expression becomes a tree of :class:`PyNode`: scalars (constants, folded unary and
binary arithmetic on them, string concatenation), dicts (displays and ``dict(k=v)``), and
sequences (lists, tuples, sets, with literal ``*`` splats spliced). Anything whose value only
exists at run time — a helper call, a parameter, an f-string, a comprehension, a ``**`` of a
name nobody bound to a literal — is an *opaque* node: it keeps its place and source text, and
stands in the value as a :class:`NotALiteral` (or an empty string where Python itself says the
value is a string, an f-string). Callers decide what an opaque part means; nothing here guesses.

Positions: ``ast`` counts columns in UTF-8 bytes; :class:`SourceLines` turns them into code
points on the lines as Python splits them (``\\r\\n``, ``\\r``, ``\\n``), like every other span
formscript reports.

String literals are also mapped character by character (``pystrings.text_positions``): the
position in the file of each character of the string's value, through escapes, implicit
concatenation, ``textwrap.dedent`` and ``strip``, so a YAML text written inside a Python string
is located in the Python file.
"""

from __future__ import annotations

import ast
import functools
import operator
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from formscript.document.model import Pos, Span
from formscript.document.positions import LINE_BREAK, LineIndex

__all__ = ["NotALiteral", "PyNode", "SourceLines", "python_lines"]


def python_lines(text: str) -> list[str]:
    """*text*'s lines as Python numbers them (``\\r\\n``, ``\\r`` and ``\\n`` end a line; form
    feeds and Unicode separators do not), without the breaks; at least one."""
    lines = LINE_BREAK["python"].split(text)
    if len(lines) > 1 and lines[-1] == "":
        lines.pop()
    return lines


class SourceLines:
    """Converts ``ast`` positions (1-based line, UTF-8 byte column) to code-point positions."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = python_lines(text)
        self._encoded: dict[int, bytes] = {}

    def pos(self, lineno: int, col_offset: int) -> Pos:
        """The 0-based code-point position of an ``ast`` (line, byte column)."""
        index = lineno - 1
        lines = self.lines
        if index < 0 or index >= len(lines):
            return Pos(max(index, 0), col_offset)
        line = lines[index]
        if line.isascii():
            return Pos(index, col_offset)
        encoded = self._encoded.get(index)
        if encoded is None:
            encoded = self._encoded[index] = line.encode("utf-8", "surrogatepass")
        return Pos(index, len(encoded[:col_offset].decode("utf-8", "replace")))

    def span(self, node: ast.AST) -> Span:
        """The span of an ``ast`` node that has positions."""
        lineno: int = node.lineno  # type: ignore[attr-defined]
        start = self.pos(lineno, node.col_offset)  # type: ignore[attr-defined]
        end_col = node.end_col_offset  # type: ignore[attr-defined]
        if end_col is None:
            return Span(start, start)
        return Span(start, self.pos(node.end_lineno or lineno, end_col))  # type: ignore[attr-defined]

    def source(self, span: Span) -> str:
        """The source text inside *span*."""
        if span.start.line == span.end.line:
            return self.lines[span.start.line][span.start.column : span.end.column]
        parts = [self.lines[span.start.line][span.start.column :]]
        parts.extend(self.lines[span.start.line + 1 : span.end.line])
        parts.append(self.lines[span.end.line][: span.end.column])
        return "\n".join(parts)

    @functools.cached_property
    def index(self) -> LineIndex:
        """Character offsets in the text to positions and back."""
        return LineIndex(self.text, "python")


class NotALiteral:
    """What an opaque part stands as in a value: nothing the runtime could be given from the
    file (any check of it fails; only slots that accept any value take it)."""

    __slots__ = ("source",)

    def __init__(self, source: str) -> None:
        self.source = source

    def __repr__(self) -> str:
        return f"<{self.source}>"


@dataclass(eq=False)
class PyNode:
    """One located part of a Python value.

    ``kind`` is ``scalar`` (``value`` holds it), ``dict`` (``pairs``), ``seq`` (``items``,
    of ``seq_type``) or ``opaque`` (``note`` says what it is; ``str_typed`` when Python says
    it is a string). ``written`` marks a constant written as a literal at its span (its source
    text and quotes are read from there when an edit needs them: :func:`quote_of`);
    ``identifier`` marks a keyword argument's name,
    ``synthetic`` a part the API adds that is not in the source (it sits at its owner's
    span). ``model`` names the lionagi model call a dict was written as (``TextResponse``).
    """

    kind: str
    span: Span
    value: Any = None
    pairs: list[tuple[PyNode, PyNode]] = field(default_factory=list)
    items: list[PyNode] = field(default_factory=list)
    seq_type: type = list
    text: str = ""
    written: bool = False
    identifier: bool = False
    synthetic: bool = False
    note: str = ""
    str_typed: bool = False
    model: str | None = None
    #: The ``ast`` call a model dict was built from (for the extractor's bookkeeping).
    origin: ast.AST | None = None
    #: The stand-in an opaque part was given (the same object every time).
    standing: Any = None
    #: Keyword arguments given twice (the call raises TypeError).
    repeated: tuple[str, ...] = ()
    #: Why evaluating this opaque part raises (a dict or set display with an unhashable key
    #: or member raises TypeError): the code that holds it never reaches lionagi.
    raises: str = ""

    @staticmethod
    def scalar(value: Any, span: Span, text: str = "") -> PyNode:
        """A scalar node (*text*: its source, when not a plain constant at its span)."""
        return PyNode("scalar", span, value=value, text=text)

    @staticmethod
    def opaque(span: Span, note: str, *, str_typed: bool = False) -> PyNode:
        """A part known only at run time."""
        return PyNode("opaque", span, note=note, str_typed=str_typed)

    @staticmethod
    def mapping(span: Span, pairs: list[tuple[PyNode, PyNode]]) -> PyNode:
        """A dict node."""
        return PyNode("dict", span, pairs=pairs)

    @staticmethod
    def sequence(span: Span, items: list[PyNode], seq_type: type = list, *, synthetic: bool = False) -> PyNode:
        """A list (tuple, set) node (*synthetic*: one the API adds)."""
        return PyNode("seq", span, items=items, seq_type=seq_type, synthetic=synthetic)

    def stand_in(self) -> Any:
        """The value an opaque part stands as: '' for a string, else a NotALiteral (the same
        one each time, so a path through an opaque key finds it again)."""
        if self.str_typed:
            return ""
        if self.standing is None:
            self.standing = NotALiteral(self.note or "not a literal")
        return self.standing

    def materialize(self) -> Any:
        """The Python value (opaque parts as their stand-ins)."""
        if self.kind == "scalar":
            return self.value
        if self.kind == "opaque":
            return self.stand_in()
        if self.kind == "dict":
            return {key.materialize(): value.materialize() for key, value in self.pairs}
        return self.seq_type(item.materialize() for item in self.items)

    def children(self) -> Iterator[tuple[Any, PyNode | None, PyNode]]:
        """(path part, key node, value node) of each member, in source order."""
        if self.kind == "dict":
            for key, value in self.pairs:
                yield key.materialize(), key, value
        elif self.kind == "seq":
            for index, item in enumerate(self.items):
                yield index, None, item

    def child(self, part: Any) -> tuple[PyNode | None, PyNode] | None:
        """The member at *part* (a dict's last pair with that key, or a list index)."""
        if self.kind == "dict":
            found = None
            for key, value in self.pairs:
                if key.kind == "opaque":
                    if key.standing is not None and key.standing is part:
                        found = (key, value)
                    continue
                if key.value == part and type(key.value) is type(part):
                    found = (key, value)
            return found
        if (
            self.kind == "seq"
            and self.seq_type in (list, tuple)
            and isinstance(part, int)
            and 0 <= part < len(self.items)
        ):
            return None, self.items[part]
        return None

    def walk(self, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], PyNode | None, PyNode]]:
        """Every member below this node with its path (depth first, source order)."""
        for part, key, value in self.children():
            where = (*path, part)
            yield where, key, value
            yield from value.walk(where)


# -------------------------------------------------------------------------- building

#: Resolves a name to the expression it is bound to once (None: not a literal binding).
NameResolver = Callable[[ast.Name], ast.expr | None]
#: Builds a call the caller knows (a lionagi model, ``textwrap.dedent``) or returns None.
CallBuilder = Callable[[ast.Call, "LiteralReader"], PyNode | None]

_MAX_DEPTH = 200
_MAX_FOLDED = 10_000


class LiteralReader:
    """Builds :class:`PyNode` trees from expressions of one parsed file."""

    def __init__(
        self, lines: SourceLines, resolve: NameResolver | None = None, call: CallBuilder | None = None
    ) -> None:
        self.lines = lines
        self.resolve = resolve
        self.call = call
        self._active: set[int] = set()

    def source_of(self, node: ast.AST, limit: int = 60) -> str:
        """The source text of *node*, shortened for a message."""
        text = " ".join(self.lines.source(self.lines.span(node)).split())
        return text if len(text) <= limit else text[: limit - 1] + "…"

    def opaque(self, node: ast.AST, note: str, *, str_typed: bool = False) -> PyNode:
        """An opaque node for *node*."""
        return PyNode.opaque(self.lines.span(node), note, str_typed=str_typed)

    def raising(self, node: ast.AST, why: str) -> PyNode:
        """An opaque node for *node*, whose evaluation raises TypeError (*why*)."""
        return PyNode("opaque", self.lines.span(node), note=f"{why}, so building it raises TypeError", raises=why)

    def read(self, node: ast.expr, depth: int = 0) -> PyNode:
        """The located value of the expression *node*."""
        if depth > _MAX_DEPTH:
            return self.opaque(node, "nested too deeply to read")
        if isinstance(node, ast.Constant):
            return self._constant(node)
        if isinstance(node, ast.Dict):
            return self._dict(node, depth)
        if isinstance(node, ast.List | ast.Tuple | ast.Set):
            return self._sequence(node, depth)
        if isinstance(node, ast.Name):
            return self._name(node, depth)
        if isinstance(node, ast.JoinedStr):
            if all(isinstance(v, ast.Constant) for v in node.values):
                text = "".join(str(v.value) for v in node.values if isinstance(v, ast.Constant))
                return PyNode.scalar(text, self.lines.span(node), self.source_of(node, 10_000))
            return self.opaque(node, f"the f-string {self.source_of(node)}", str_typed=True)
        if isinstance(node, ast.UnaryOp):
            return self._unary(node, depth)
        if isinstance(node, ast.BinOp):
            return self._binary(node, depth)
        if isinstance(node, ast.Call):
            return self._call(node, depth)
        if isinstance(node, ast.IfExp):
            return self._conditional(node, depth)
        return self.opaque(node, f"the expression {self.source_of(node)}")

    def _conditional(self, node: ast.IfExp, depth: int) -> PyNode:
        """``a if x is None else b`` (or ``is not None``) where x is known to be None or not:
        the branch taken; else a string when both branches are strings."""
        test = node.test
        if (
            isinstance(test, ast.Compare)
            and len(test.ops) == 1
            and isinstance(test.ops[0], ast.Is | ast.IsNot)
            and isinstance(test.comparators[0], ast.Constant)
            and test.comparators[0].value is None
        ):
            left = self.read(test.left, depth + 1)
            if left.kind != "opaque" or left.str_typed:
                is_none = left.kind == "scalar" and left.value is None
                taken = node.body if is_none == isinstance(test.ops[0], ast.Is) else node.orelse
                return self.read(taken, depth + 1)
        branches = (self.read(node.body, depth + 1), self.read(node.orelse, depth + 1))
        texts = all(b.str_typed or (b.kind == "scalar" and isinstance(b.value, str)) for b in branches)
        return self.opaque(node, f"the expression {self.source_of(node)}", str_typed=texts)

    def _constant(self, node: ast.Constant) -> PyNode:
        if node.value is Ellipsis:
            return self.opaque(node, "...")
        return PyNode("scalar", self.lines.span(node), value=node.value, written=True)

    def _name(self, node: ast.Name, depth: int) -> PyNode:
        bound = self.resolve(node) if self.resolve is not None else None
        if bound is None:
            return self.opaque(node, f"the name {node.id!r} (not bound once to a literal)")
        if id(bound) in self._active:
            return self.opaque(node, f"the name {node.id!r} (which refers to itself)")
        self._active.add(id(bound))
        try:
            return self.read(bound, depth + 1)
        finally:
            self._active.discard(id(bound))

    def _dict(self, node: ast.Dict, depth: int) -> PyNode:
        pairs: list[tuple[PyNode, PyNode]] = []
        for key_node, value_node in zip(node.keys, node.values, strict=True):
            if key_node is None:  # ** splat
                spliced = self.read(value_node, depth + 1)
                if spliced.kind != "dict":
                    if spliced.raises:
                        return spliced
                    return self.opaque(node, f"a dict with ** of {self.source_of(value_node)}")
                pairs.extend(spliced.pairs)
                continue
            key = self.read(key_node, depth + 1)
            frozen = _frozen(key)
            if key.kind == "opaque" and not key.str_typed:
                pass  # a key known at run time only: the pair is kept, its dict is uncertain
            elif frozen is not _NOTHING and key.kind == "seq":
                key = PyNode.scalar(frozen, key.span, self.source_of(key_node, 10_000))  # a tuple key
            elif _unhashable(key):
                return self.raising(node, f"the dict's key {self.source_of(key_node)} is unhashable")
            elif key.kind != "scalar":
                return self.opaque(node, f"a dict whose key {self.source_of(key_node)} is not a literal")
            pairs.append((key, self.read(value_node, depth + 1)))
        return PyNode.mapping(self.lines.span(node), pairs)

    def _sequence(self, node: ast.List | ast.Tuple | ast.Set, depth: int) -> PyNode:
        items: list[PyNode] = []
        for element in node.elts:
            if isinstance(element, ast.Starred):
                spliced = self.read(element.value, depth + 1)
                if spliced.kind != "seq":
                    return self.opaque(node, f"a sequence with *{self.source_of(element.value)}")
                items.extend(spliced.items)
                continue
            items.append(self.read(element, depth + 1))
        if isinstance(node, ast.Set):  # a tuple member of a set is one value, as a tuple key is
            frozen = [_frozen(i) if i.kind == "seq" else _NOTHING for i in items]
            items = [i if f is _NOTHING else PyNode.scalar(f, i.span) for i, f in zip(items, frozen, strict=True)]
            if any(_unhashable(i) for i in items):
                return self.raising(node, f"a member of the set {self.source_of(node)} is unhashable")
            if any(i.kind != "scalar" for i in items):
                return self.opaque(node, f"the set {self.source_of(node)}")
        seq_type: type = list if isinstance(node, ast.List) else tuple if isinstance(node, ast.Tuple) else set
        return PyNode.sequence(self.lines.span(node), items, seq_type)

    def _unary(self, node: ast.UnaryOp, depth: int) -> PyNode:
        operand = self.read(node.operand, depth + 1)
        value = operand.value
        if operand.kind == "scalar" and isinstance(value, int | float | complex):
            if isinstance(node.op, ast.USub):
                return PyNode.scalar(-value, self.lines.span(node), self.source_of(node, 10_000))
            if isinstance(node.op, ast.UAdd):
                return PyNode.scalar(+value, self.lines.span(node), self.source_of(node, 10_000))
        if operand.kind == "scalar" and isinstance(node.op, ast.Not):
            return PyNode.scalar(not value, self.lines.span(node), self.source_of(node, 10_000))
        return self.opaque(node, f"the expression {self.source_of(node)}")

    def _binary(self, node: ast.BinOp, depth: int) -> PyNode:
        left, right = self.read(node.left, depth + 1), self.read(node.right, depth + 1)
        span = self.lines.span(node)
        if left.kind == "scalar" and right.kind == "scalar":
            folded = _fold(node.op, left.value, right.value)
            if folded is not _NOTHING:
                return PyNode.scalar(folded, span, self.source_of(node, 10_000))
        if (
            isinstance(node.op, ast.Add)
            and left.kind == right.kind == "seq"
            and left.seq_type is right.seq_type
            and left.seq_type in (list, tuple)
        ):
            return PyNode.sequence(span, [*left.items, *right.items], left.seq_type)
        if isinstance(node.op, ast.Mod) and left.kind == "scalar" and isinstance(left.value, str):
            return self.opaque(node, f"the formatted string {self.source_of(node)}", str_typed=True)
        if isinstance(node.op, ast.Add) and (left.str_typed or right.str_typed):
            other = right if left.str_typed else left
            if other.str_typed or (other.kind == "scalar" and isinstance(other.value, str)):
                return self.opaque(node, f"the string {self.source_of(node)}", str_typed=True)
        return self.opaque(node, f"the expression {self.source_of(node)}")

    def _call(self, node: ast.Call, depth: int) -> PyNode:
        if self.call is not None:
            built = self.call(node, self)
            if built is not None:
                return built
        func = node.func
        if isinstance(func, ast.Name) and func.id == "dict" and not node.args:
            return self.keywords(node, node.keywords, depth + 1)
        if isinstance(func, ast.Name) and func.id in _CONTAINERS and not node.keywords and len(node.args) <= 1:
            return self._container(node, func.id, depth)
        if isinstance(func, ast.Attribute) and not node.args and not node.keywords:
            target = self.read(func.value, depth + 1)
            if target.kind == "scalar" and isinstance(target.value, str) and func.attr in STR_METHODS:
                value = getattr(target.value, func.attr)()
                return PyNode.scalar(value, self.lines.span(node), self.source_of(node, 10_000))
        if isinstance(func, ast.Attribute) and func.attr == "format":
            target = self.read(func.value, depth + 1)
            if target.kind == "scalar" and isinstance(target.value, str):
                return self.opaque(node, f"the formatted string {self.source_of(node)}", str_typed=True)
        if isinstance(func, ast.Name) and func.id in ("str", "repr") and len(node.args) <= 1 and not node.keywords:
            return self.opaque(node, f"the string {self.source_of(node)}", str_typed=True)
        return self.opaque(node, f"the call {self.source_of(node)}")

    def _container(self, node: ast.Call, name: str, depth: int) -> PyNode:
        """``set()``, ``list((1, 2))``, ``tuple([...])``, ``frozenset({...})`` of a literal."""
        span = self.lines.span(node)
        kind = _CONTAINERS[name]
        if not node.args:
            return PyNode.sequence(span, [], kind)
        given = self.read(node.args[0], depth + 1)
        if given.kind != "seq":
            return self.opaque(node, f"the call {self.source_of(node)}")
        if kind in (set, frozenset) and any(i.kind != "scalar" for i in given.items):
            return self.opaque(node, f"the call {self.source_of(node)}")
        return PyNode.sequence(span, list(given.items), kind)

    def keywords(self, call: ast.Call, keywords: list[ast.keyword], depth: int = 0) -> PyNode:
        """The keyword arguments of *call* as a dict node (keys located on the names), with
        ``**`` splats of literal dicts merged; a ``**`` of anything else makes it opaque."""
        pairs: list[tuple[PyNode, PyNode]] = []
        for keyword in keywords:
            if keyword.arg is None:
                spliced = self.read(keyword.value, depth + 1)
                if spliced.kind != "dict":
                    if spliced.raises:
                        return spliced
                    return self.opaque(call, f"the arguments **{self.source_of(keyword.value)}")
                pairs.extend(spliced.pairs)
                continue
            pairs.append((self.keyword_name(keyword), self.read(keyword.value, depth + 1)))
        node = PyNode.mapping(self.lines.span(call), pairs)
        names = [key.value for key, _ in pairs if isinstance(key.value, str)]
        node.repeated = tuple(sorted({name for name in names if names.count(name) > 1}))
        return node

    def keyword_name(self, keyword: ast.keyword) -> PyNode:
        """The located name of a keyword argument."""
        start = self.lines.pos(keyword.lineno, keyword.col_offset)
        line = self.lines.lines[start.line] if start.line < len(self.lines.lines) else ""
        end = start.column
        while end < len(line) and (line[end].isalnum() or line[end] == "_" or ord(line[end]) > 127):
            end += 1
        span = Span(start, Pos(start.line, max(end, start.column + 1)))
        return PyNode("scalar", span, value=keyword.arg, text=line[start.column : end], identifier=True)


STR_METHODS = frozenset({"strip", "lstrip", "rstrip"})
#: Built-in constructors of containers, read when given nothing or a literal.
_CONTAINERS: dict[str, type] = {"list": list, "tuple": tuple, "set": set, "frozenset": frozenset}
_NOTHING = object()
#: The operators folded on two numbers (``**`` apart: its size is bounded first).
_ARITHMETIC: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
}


def _unhashable(node: PyNode) -> bool:
    """Whether *node* is a value Python cannot hash: a dict, list or set, or a tuple holding one
    (an opaque part may be anything)."""
    if node.kind == "dict" or (node.kind == "seq" and node.seq_type is not tuple):
        return True
    return node.kind == "seq" and any(_unhashable(item) for item in node.items)


def _frozen(node: PyNode) -> Any:
    """The value of a tuple of scalars (nested tuples too), or _NOTHING."""
    if node.kind == "scalar":
        return node.value
    if node.kind != "seq" or node.seq_type is not tuple:
        return _NOTHING
    values = [_frozen(item) for item in node.items]
    return _NOTHING if any(v is _NOTHING for v in values) else tuple(values)


def _fold(op: ast.operator, left: Any, right: Any) -> Any:
    """The value of a small arithmetic or string operation on constants, or _NOTHING."""
    try:
        if isinstance(left, str) and isinstance(right, str) and isinstance(op, ast.Add):
            return left + right
        if isinstance(left, str) and isinstance(right, int) and isinstance(op, ast.Mult):
            if right >= 0 and len(left) * right <= _MAX_FOLDED:
                return left * right
            return _NOTHING
        if not (isinstance(left, int | float) and isinstance(right, int | float)):
            return _NOTHING
        if type(op) in _ARITHMETIC:
            return _ARITHMETIC[type(op)](left, right)
        if isinstance(op, ast.Pow) and isinstance(right, int) and -64 <= right <= 64 and abs(left) < 2**64:
            return left**right
    except (ArithmeticError, ValueError):
        return _NOTHING
    return _NOTHING
