"""What the rest of formscript may ask a located document, whatever syntax it was read from.

A located document is a loaded value plus the source range of every key and value in it, the
parser's own problems, and the text's comments. YAML and JSON files implement it in
``located`` (libyaml's marks); a document read from Python literals (``ast`` nodes) or one
kept per entry by an incremental server implements the same protocol, and lint and the
language server work on it unchanged. Nothing outside ``formscript.document`` sees a parser's
own nodes or marks.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple, Protocol

from formscript.core.verdict import KeyPath, Problem
from formscript.core.verdict import Pos as Pos
from formscript.core.verdict import Span as Span
from formscript.core.verdict import pos_of as pos_of
from formscript.core.verdict import span_of as span_of

if TYPE_CHECKING:
    from typing import Any, Literal, TypeAlias


class Edit(NamedTuple):
    """Replace the text in ``span`` with ``new_text``."""

    span: Span
    new_text: str


Syntax: TypeAlias = 'Literal["yaml", "json"]'


ORIGIN = Span(Pos(0, 0), Pos(0, 0))


@dataclass(frozen=True, slots=True)
class Scalar:
    """How a scalar was written.

    ``style`` is ``''`` for a plain scalar, whose type the syntax resolved from its text (the
    source of YAML 1.1's surprises), else the quoting or block indicator; ``text`` is the
    source text; ``tag`` is the resolved type in the YAML core vocabulary
    (``tag:yaml.org,2002:str``, ``…:int``, ``…:bool``, ``…:null``, ``…:timestamp``, …).
    """

    style: str
    text: str
    tag: str


class Location:
    """Where one key path lives: the value's span, the key's span (mapping members only) and,
    for a scalar value, how it was written (None for a mapping or a sequence)."""

    _source: Any  # (span_of_node, scalar_of_node, node, key_node), or None
    _value: Any
    _key: Any
    _scalar: Any

    __slots__ = ("_key", "_scalar", "_source", "_value")

    def __init__(self, value: Span, key: Span | None = None, scalar: Scalar | None = None) -> None:
        self._source, self._value, self._key, self._scalar = None, value, key, scalar

    def __repr__(self) -> str:
        return f"Location(value={self.value!r}, key={self.key!r}, scalar={self.scalar!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Location):
            return NotImplemented
        return (self.value, self.key, self.scalar) == (other.value, other.key, other.scalar)

    def __hash__(self) -> int:
        return hash((self.value, self.key, self.scalar))

    @classmethod
    def found(cls, source: tuple[Any, ...]) -> Location:
        """A location whose fields are worked out when first read: *source* is (the value's
        span, the scalar, of a node; the node; its key's node or None), so that finding an
        entry costs only what its user reads (a diagnostic reads one span)."""
        made = object.__new__(cls)
        made._source, made._value, made._key, made._scalar = source, _LATER, _LATER, _LATER
        return made

    @property
    def value(self) -> Span:
        """The value's span."""
        if self._value is _LATER:
            span_of_node, _, node, _ = self._source
            self._value = span_of_node(node)
        return self._value  # type: ignore[no-any-return]

    @property
    def key(self) -> Span | None:
        """The key's span (None but for a mapping member)."""
        if self._key is _LATER:
            span_of_node, _, _, key_node = self._source
            self._key = span_of_node(key_node) if key_node is not None else None
        return self._key  # type: ignore[no-any-return]

    @property
    def scalar(self) -> Scalar | None:
        """How a scalar value was written (None for a mapping or a sequence)."""
        if self._scalar is _LATER:
            _, scalar_of_node, node, _ = self._source
            self._scalar = scalar_of_node(node)
        return self._scalar  # type: ignore[no-any-return]


#: A field of a ``Location.found`` not worked out yet.
_LATER: Any = object()


@dataclass(frozen=True, slots=True)
class Comment:
    """One comment: its text from the comment sign to the end of the line, and its span."""

    span: Span
    text: str


@dataclass(frozen=True, slots=True)
class Collection:
    """A mapping or sequence below the top: where the member holding it starts (its key, or
    the item itself) and the collection's own span."""

    owner: Pos
    span: Span


class Document(Protocol):
    """A parsed text: its loaded value, where each part of it is written, and its problems.

    ``value``, ``ok`` and ``problems`` are plain attributes: lint replaces them when the
    runtime itself falls back to another reading (a form spec that is JSON but not YAML).
    ``locate`` is provided here from ``entry``; an implementation that subclasses this
    protocol inherits it.
    """

    #: The source text.
    text: str
    #: The loaded value (None when the text does not load).
    value: Any
    #: Whether the text loads.
    ok: bool
    #: The parser's own problems (syntax, duplicate keys, refused tags), each with its span.
    problems: list[Problem]

    @property
    def lines(self) -> list[str]:
        """The text's lines without their line breaks (at least one, possibly empty)."""
        ...

    def entry(self, path: KeyPath) -> Location | None:
        """Where the value at *path* is written, or None when *path* is not in the document."""
        ...

    def comments(self) -> list[Comment]:
        """The text's comments in source order (none for a syntax without comments)."""
        ...

    def collections(self) -> Iterable[Collection]:
        """Every mapping and sequence below the top, without locating each path."""
        ...

    def removal(self, path: KeyPath) -> tuple[Edit, ...] | None:
        """Edits deleting the mapping member at *path* and nothing else (comments and layout
        kept), or None when the syntax cannot do that safely."""
        ...

    def locate(self, path: KeyPath, *, on_key: bool = False) -> Span:
        """The span for *path*, falling back to the key of the nearest located ancestor."""
        return locate(self, path, on_key=on_key)

    def edit_text(self, path: KeyPath, text: str, *, on_key: bool = False) -> str | None:
        """The source that writes the string *text* in place of the key (*on_key*) or the
        scalar value at *path* so that it loads as exactly that string (quoted where the
        syntax needs it), or None when it cannot be written there."""
        return text

    def replacement(self, path: KeyPath, text: str, *, on_key: bool = False, quoted: bool = False) -> Edit | None:
        """The edit writing the string *text* in place of the key (*on_key*) or the scalar
        value at *path* (*quoted*: in quotes even where plain would do), or None when that
        cannot be done exactly (the place is reached through an alias, say)."""
        entry = self.entry(path)
        if entry is None or (on_key and entry.key is None):
            return None
        written = self.edit_text(path, text, on_key=on_key)
        if written is None:
            return None
        return Edit(entry.key if on_key and entry.key is not None else entry.value, written)


def locate(doc: Document, path: KeyPath, *, on_key: bool = False) -> Span:
    """The span for *path* in *doc*: its key when *on_key*, else its value; a missing path
    falls back to the nearest located ancestor's key (or value, at the top)."""
    probe = path if type(path) is tuple else tuple(path)
    entry = doc.entry(probe)
    if entry is not None:
        if on_key:
            key = entry.key
            if key is not None:
                return key
        return entry.value
    while probe:
        probe = probe[:-1]
        entry = doc.entry(probe)
        if entry is not None:
            key = entry.key
            return key if key is not None else entry.value
    return ORIGIN


def split_lines(text: str) -> list[str]:
    """*text* split into lines without their line breaks, at least one line."""
    return text.splitlines() or [""]


@dataclass
class TextDocument(Document):
    """A text kept without its structure (a report read back from the cache, or from a
    worker process): lines for showing source, nothing located."""

    text: str
    value: Any = None
    ok: bool = True
    problems: list[Problem] = dataclasses.field(default_factory=list)

    @functools.cached_property
    def lines(self) -> list[str]:
        """The text's lines."""
        return split_lines(self.text)

    def entry(self, path: KeyPath) -> Location | None:
        """Nothing is located."""
        return None

    def comments(self) -> list[Comment]:
        """Comments are not read."""
        return []

    def collections(self) -> Iterable[Collection]:
        """Nothing is located."""
        return ()

    def removal(self, path: KeyPath) -> tuple[Edit, ...] | None:
        """Nothing can be edited."""
        return None
