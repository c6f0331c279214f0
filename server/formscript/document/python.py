"""Located documents inside a Python file.

:class:`PyDocument` is a script or form written as Python literals: its value is what the
runtime receives (no YAML layer), every key and value sits on its own source in the ``.py``
file, and its opaque parts (built at run time) are listed with their paths.
:class:`EmbeddedDocument` is a YAML or JSON text written inside a Python string: parsed as
the file it becomes, its positions mapped back into the ``.py`` file character by character.

Both implement the ``Document`` protocol (``model.py``); their ``lines`` are the Python file's,
since that is where their spans point.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import itertools
import keyword
import tokenize
from collections.abc import Iterator
from dataclasses import KW_ONLY, dataclass, field
from typing import Any

from formscript.core.verdict import KeyPath, Problem
from formscript.document.model import Collection, Comment, Document, Edit, Location, Pos, Scalar, Span
from formscript.document.positions import LineIndex
from formscript.document.pyliteral import PyNode, SourceLines
from formscript.document.pystrings import TextPositions, quote_of

__all__ = ["EmbeddedDocument", "PyDocument", "python_comments"]

_TAGS = {bool: "bool", int: "int", float: "float", str: "str", type(None): "null", bytes: "binary"}


def python_comments(lines: SourceLines) -> list[Comment]:
    """The comments of a Python text, from its tokens (a ``#`` inside a string is not one)."""
    found: list[Comment] = []
    with contextlib.suppress(tokenize.TokenError, SyntaxError):  # the comments before the error
        for token in tokenize.generate_tokens(io.StringIO(lines.text).readline):
            if token.type == tokenize.COMMENT:
                (row, column), (end_row, end_column) = token.start, token.end
                found.append(Comment(Span(Pos(row - 1, column), Pos(end_row - 1, end_column)), token.string))
    return found


@dataclass(eq=False)
class _InPython(Document):
    """What a document inside a Python file has besides its own: the file's lines, and the
    file's comments on the lines the document concerns."""

    _: KW_ONLY
    source: SourceLines
    value: Any = None
    ok: bool = True
    problems: list[Problem] = field(default_factory=list)
    #: Comments of the whole file (read once per file, shared by its documents).
    file_comments: list[Comment] | None = None
    #: The lines this document's suppressions may sit on (the call's, and the one above).
    extent: tuple[int, int] = (0, 0)

    @property
    def lines(self) -> list[str]:
        """The Python file's lines."""
        return self.source.lines

    def _around(self) -> list[Comment]:
        """The file's comments on this document's lines."""
        first, last = self.extent
        return [c for c in self.file_comments or () if first <= c.span.start.line <= last]

    def removal(self, path: KeyPath) -> tuple[Edit, ...] | None:
        """Not offered: deleting a member of a Python literal is left to the author, and a
        structural edit of a text inside a Python string would have to re-indent the string."""
        return None


@dataclass(eq=False)
class PyDocument(_InPython):
    """A script or form written as Python literals (see the module)."""

    text: str
    root: PyNode
    #: The parts built at run time: (path, node); for an opaque key, its dict's path.
    opaque: list[tuple[KeyPath, PyNode]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.value = self.root.materialize()
        self.opaque = list(_opaque_parts(self.root))

    def _find(self, path: KeyPath) -> tuple[PyNode | None, PyNode] | None:
        node = self.root
        key: PyNode | None = None
        for part in path:
            found = node.child(part)
            if found is None:
                return None
            key, node = found
        return key, node

    def entry(self, path: KeyPath) -> Location | None:
        """Where the value at *path* is written (a part the API adds sits on its owner)."""
        found = self._find(tuple(path))
        if found is None:
            return None
        key, node = found
        scalar = None
        if node.kind == "scalar" and not node.synthetic:
            tag = _TAGS.get(type(node.value), "str")
            text = self.source.source(node.span) if node.written or not node.text else node.text
            quote = quote_of(text) if node.written and isinstance(node.value, str) else ""
            scalar = Scalar(quote or "python", text, f"tag:yaml.org,2002:{tag}")
        # a key the API adds is not written anywhere: the member has its value's place only
        key_span = key.span if key is not None and not key.synthetic else None
        return Location(node.span, key_span, scalar)

    def comments(self) -> list[Comment]:
        """The file's comments on this document's lines."""
        return self._around()

    def collections(self) -> Iterator[Collection]:
        """Every dict and list written below the top (not those the API adds)."""
        for _, key, node in self.root.walk():
            if node.kind in ("dict", "seq") and not node.synthetic:
                owner = key.span.start if key is not None and not key.synthetic else node.span.start
                yield Collection(owner, node.span)

    def edit_text(self, path: KeyPath, text: str, *, on_key: bool = False) -> str | None:
        """*text* as Python source in place of the key or value at *path*: a string written
        in the literal's own quotes, a keyword argument's name as an identifier."""
        found = self._find(tuple(path))
        if found is None:
            return None
        key, node = found
        target = key if on_key else node
        if target is None or target.synthetic or target.kind != "scalar":
            return None
        if target.identifier:
            return text if text.isidentifier() and not keyword.iskeyword(text) else None
        quote = quote_of(self.source.source(target.span)) if target.written else ""
        if not isinstance(target.value, str) or not quote:
            return None
        return _quoted(text, quote)


def _quoted(text: str, quote: str) -> str | None:
    """*text* as a Python string literal with the prefix and quote *quote*."""
    prefix = quote.rstrip("'\"")
    mark = quote[len(prefix) :]
    body = text.replace("\\", "\\\\")
    if len(mark) == 1:
        body = body.replace(mark, "\\" + mark).replace("\n", "\\n").replace("\r", "\\r")
    elif mark in body or body.endswith(mark[0]):
        return None
    return f"{prefix}{mark}{body}{mark}"


def _opaque_parts(root: PyNode) -> Iterator[tuple[KeyPath, PyNode]]:
    if root.kind == "opaque":
        yield (), root
        return
    for path, key, node in root.walk():
        if key is not None and key.kind == "opaque":
            # the key may equal another at run time: its whole dict is uncertain
            yield path[:-1], key
        if node.kind == "opaque":
            yield path, node


# ------------------------------------------------------------------- embedded texts


@dataclass(eq=False)
class EmbeddedDocument(_InPython):
    """A YAML or JSON document written inside a Python string literal (see the module).

    ``text`` is the embedded text (what the runtime reads from the file the test writes);
    spans are mapped into the Python file through ``where``."""

    inner: Document
    where: TextPositions
    text: str = ""
    _index: LineIndex = field(default_factory=lambda: LineIndex(""))

    def __post_init__(self) -> None:
        self.text = self.inner.text
        self._index = LineIndex(self.text)
        self.value = self.inner.value
        self.ok = self.inner.ok
        self.problems = [
            dataclasses.replace(p, span=self.map_span(p.span)) if p.span is not None else p for p in self.inner.problems
        ]

    def map_pos(self, pos: Pos) -> Pos:
        """A position in the embedded text as a position in the Python file."""
        return self.where.at(self._index.offset(pos))

    def map_span(self, span: Span) -> Span:
        """A span in the embedded text as a span in the Python file."""
        start = self.map_pos(span.start)
        return Span(start, max(start, self.map_pos(span.end)))

    def entry(self, path: KeyPath) -> Location | None:
        """The embedded document's entry, placed in the Python file."""
        found = self.inner.entry(path)
        if found is None:
            return None
        key = self.map_span(found.key) if found.key is not None else None
        return Location(self.map_span(found.value), key, found.scalar)

    def comments(self) -> list[Comment]:
        """The embedded text's own comments and the Python comments around it."""
        own = [Comment(self.map_span(c.span), c.text) for c in self.inner.comments()]
        return sorted([*own, *self._around()], key=lambda c: c.span.start)

    def collections(self) -> Iterator[Collection]:
        """The embedded document's collections, placed in the Python file."""
        for item in self.inner.collections():
            yield Collection(self.map_pos(item.owner), self.map_span(item.span))

    def edit_text(self, path: KeyPath, text: str, *, on_key: bool = False) -> str | None:
        """The embedded syntax's source for the string *text* (see ``replacement``)."""
        found = self.replacement(path, text, on_key=on_key)
        return found.new_text if found is not None else None

    def replacement(self, path: KeyPath, text: str, *, on_key: bool = False, quoted: bool = False) -> Edit | None:
        """The embedded document's own edit, placed in the Python file, when its source can
        go into the Python string as it is: no backslash, no line break, no quote character
        of the literal, and the replaced text written without escapes."""
        found = self.inner.replacement(path, text, on_key=on_key, quoted=quoted)
        if found is None:
            return None
        source = found.new_text
        if any(char in source for char in "\\\n\r") or any(mark in source for mark in self.where.quotes):
            return None
        span = found.span
        start = self._index.offset(span.start)
        end = self._index.offset(span.end)
        positions = [self.where.at(i) for i in range(start, end)]
        if any(after != Pos(before.line, before.column + 1) for before, after in itertools.pairwise(positions)):
            return None  # the replaced text is written with escapes, or over several lines
        return Edit(self.map_span(span), source)
