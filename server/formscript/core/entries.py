"""Response-script shapes, written once, and the records a script's entries become.

The shapes (``MATCHER``, ``CHUNK``, ``ENTRIES``, ``HEADER``) are the one definition of what a
script holds: each model's fields in pydantic's order, with their kind and default. From them
come the keys each owner accepts (below); the records the rest of formscript reads
(``Matcher``, ``Chunk`` and the five entries: frozen dataclasses with the shapes' defaults); the
fast path that builds an entry whose values already have their declared types
(``plain_entry``); the pydantic models that validate everything else (``script_models``, lax
coercions included); and the pydantic errors given without pydantic for the usual mistakes
(``lax``).

Dataclasses, not the pydantic models, for a figure (bench/run.py): importing the pydantic
models takes 120 ms, which would take a one-file lint of a script from 0.93x to about 2.3x
yamllint (target 1.2x); checking an ordinary script, or one with the usual mistakes, imports
no model machinery.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Literal, NamedTuple, TypeVar

RESPONSE_TYPES: tuple[str, ...] = ("text", "tool_call", "structured", "stream", "error")
ERROR_KINDS: tuple[str, ...] = ("rate_limit", "timeout", "server_error", "bad_request", "value_error")
CHUNK_TYPES: tuple[str, ...] = ("system", "thinking", "text", "tool_use", "tool_result", "result", "error")
MODES: tuple[str, ...] = ("auto", "positional", "when_only")
#: Content predicates in the order the runtime consults them; only the first set one counts.
CONTENT_PREDICATES: tuple[str, ...] = ("prompt_contains", "prompt_regex", "has_tool")
GATES: tuple[str, ...] = ("call_index", "after_calls")

#: A field without a default.
REQUIRED: Any = type("Required", (), {"__repr__": lambda self: "REQUIRED"})()


class Slot(NamedTuple):
    """One field of a shape. *kind* is ``(shape, ...)``: ``("str" | "int" | "bool" | "dict",
    optional)``; ``("any",)``; ``("list",)`` (a list of anything); ``("literal", choices)``;
    ``("pattern", choices)`` (text matching one of them whole); ``("tag", value)`` (an entry's
    ``type``, fixed by the model); ``("model", shape, optional)``; ``("models", shape)`` (a list
    of them). A ``{}`` or ``[]`` default is a fresh empty one each time."""

    name: str
    kind: tuple[Any, ...]
    default: Any = REQUIRED


class Shape(NamedTuple):
    """A model: its class name (pydantic's messages and the JSON Schemas name it), its
    description and its fields in pydantic's order."""

    name: str
    doc: str
    slots: tuple[Slot, ...]

    def keys(self) -> tuple[str, ...]:
        return tuple(slot.name for slot in self.slots)


MATCHER = Shape(
    "WhenMatcher",
    "When an entry may be served: gates (call_index, after_calls) then one content predicate.",
    (
        Slot("prompt_contains", ("str", True), None),
        Slot("prompt_regex", ("str", True), None),
        Slot("has_tool", ("str", True), None),
        Slot("after_calls", ("int", True), None),
        Slot("call_index", ("int", True), None),
    ),
)
CHUNK = Shape(
    "StreamChunkSpec",
    "One chunk of a streamed response.",
    (
        Slot("type", ("literal", CHUNK_TYPES)),
        Slot("content", ("str", True), None),
        Slot("tool_name", ("str", True), None),
        Slot("tool_id", ("str", True), None),
        Slot("tool_input", ("dict", True), None),
        Slot("tool_output", ("any",), None),
        Slot("is_error", ("bool", False), False),
        Slot("is_delta", ("bool", False), False),
        Slot("metadata", ("dict", False), {}),
    ),
)


def _entry(kind: str, model: str, doc: str, *slots: Slot) -> Shape:
    """An entry's shape: ``when`` first (the models' base class), then its ``type``, then its own."""
    return Shape(model, doc, (Slot("when", ("model", MATCHER, True), None), Slot("type", ("tag", kind), kind), *slots))


ENTRIES: dict[str, Shape] = {
    "text": _entry("text", "TextResponse", "Plain assistant text.", Slot("content", ("str", False))),
    "tool_call": _entry(
        "tool_call",
        "ToolCallResponse",
        "One function tool call.",
        Slot("name", ("str", False)),
        Slot("arguments", ("dict", False), {}),
        Slot("id", ("str", True), None),
    ),
    "structured": _entry(
        "structured", "StructuredResponse", "Structured data, sent as JSON text.", Slot("data", ("dict", False))
    ),
    "stream": _entry("stream", "StreamResponse", "A sequence of stream chunks.", Slot("chunks", ("models", CHUNK))),
    "error": _entry(
        "error",
        "ErrorResponse",
        "An exception raised at this call.",
        Slot("kind", ("literal", ERROR_KINDS), "value_error"),
        Slot("message", ("str", False), "scripted error"),
        Slot("delay_ms", ("int", False), 0),
    ),
}
HEADER = Shape(
    "ScriptHeader",
    "The script's top level without its entries (they are validated one by one).",
    (
        Slot("version", ("int", False), 1),
        Slot("mode", ("pattern", MODES), "auto"),
        Slot("responses", ("list",), []),
    ),
)

MATCHER_KEYS: tuple[str, ...] = MATCHER.keys()
CHUNK_KEYS: tuple[str, ...] = CHUNK.keys()
ENTRY_KEYS: dict[str, tuple[str, ...]] = {kind: shape.keys() for kind, shape in ENTRIES.items()}


# ------------------------------------------------------------------------- records


R = TypeVar("R")


def _made_from(shape: Shape) -> Callable[[type[R]], type[R]]:
    """The class as a frozen dataclass of *shape*: its fields are the class's annotations (in the
    shape's order: tests/test_fast_paths.py), their defaults the shape's."""

    def make(cls: type[R]) -> type[R]:
        for slot in shape.slots:
            if slot.name in inspect.get_annotations(cls) and slot.default is not REQUIRED:
                default = slot.default
                if isinstance(default, dict | list):
                    default = dataclasses.field(default_factory=type(default))
                setattr(cls, slot.name, default)
        made = dataclasses.dataclass(frozen=True, slots=True, kw_only=True)(cls)
        made._shape = shape  # type: ignore[attr-defined]
        return made

    return make


@_made_from(MATCHER)
class Matcher:
    """When an entry may be served: gates (call_index, after_calls) then one content predicate."""

    _shape: ClassVar[Shape]
    prompt_contains: str | None
    prompt_regex: str | None
    has_tool: str | None
    after_calls: int | None
    call_index: int | None

    def is_empty(self) -> bool:
        """No condition set: the entry is positional."""
        return all(getattr(self, name) is None for name in MATCHER_KEYS)


@_made_from(CHUNK)
class Chunk:
    """One chunk of a streamed response."""

    _shape: ClassVar[Shape]
    type: str
    content: str | None
    tool_name: str | None
    tool_id: str | None
    tool_input: dict[str, Any] | None
    tool_output: Any
    is_error: bool
    is_delta: bool
    metadata: dict[str, Any]


@_made_from(ENTRIES["text"])  # for ``when``, the field every entry's shape starts with
class _Servable:
    """What every entry shares: an optional matcher, and whether it is reserved for matching."""

    _shape: ClassVar[Shape]
    when: Matcher | None

    @property
    def conditional(self) -> bool:
        """Reserved for matching (a non-empty ``when:``)."""
        return self.when is not None and not self.when.is_empty()


@_made_from(ENTRIES["text"])
class TextEntry(_Servable):
    """Plain assistant text."""

    type: Literal["text"]
    content: str


@_made_from(ENTRIES["tool_call"])
class ToolCallEntry(_Servable):
    """One function tool call."""

    type: Literal["tool_call"]
    name: str
    arguments: dict[str, Any]
    id: str | None


@_made_from(ENTRIES["structured"])
class StructuredEntry(_Servable):
    """Structured data, sent as JSON text."""

    type: Literal["structured"]
    data: dict[str, Any]


@_made_from(ENTRIES["stream"])
class StreamEntry(_Servable):
    """A sequence of stream chunks."""

    type: Literal["stream"]
    chunks: tuple[Chunk, ...]


@_made_from(ENTRIES["error"])
class ErrorEntry(_Servable):
    """An exception raised at this call."""

    type: Literal["error"]
    kind: str
    message: str
    delay_ms: int


Entry = TextEntry | ToolCallEntry | StructuredEntry | StreamEntry | ErrorEntry
_RECORDS: dict[str, type[Any]] = {
    cls._shape.name: cls for cls in (Matcher, Chunk, TextEntry, ToolCallEntry, StructuredEntry, StreamEntry, ErrorEntry)
}


# ------------------------------------------------------------------------- fast path

#: What ``_plain`` gives for a value that does not have its declared type already.
_NOT_PLAIN: Any = object()
_SCALARS: dict[str, type] = {"str": str, "int": int, "bool": bool}
_KEY_SETS: dict[str, frozenset[str]] = {
    shape.name: frozenset(shape.keys()) for shape in (MATCHER, CHUNK, *ENTRIES.values())
}


def plain_entry(raw: Mapping[Any, Any]) -> Entry | None:
    """The entry for *raw* when every value already has its declared type, else None."""
    kind = raw.get("type")
    shape = ENTRIES.get(kind) if type(kind) is str else None
    if shape is None:
        return None
    built = _plain_fields(raw, shape)
    return None if built is _NOT_PLAIN else built


def _plain_fields(raw: Mapping[Any, Any], shape: Shape) -> Any:
    if not raw.keys() <= _KEY_SETS[shape.name]:
        return _NOT_PLAIN
    values = {}
    for slot in shape.slots:
        value = _plain(raw.get(slot.name, slot.default), slot.kind)
        if value is _NOT_PLAIN:
            return _NOT_PLAIN
        values[slot.name] = value
    return _RECORDS[shape.name](**values)


def _plain(value: Any, kind: tuple[Any, ...]) -> Any:
    """*value* as its record holds it (mappings copied) when it has its declared type."""
    shape = kind[0]
    if shape in ("str", "int", "bool", "dict") and value is None:
        return None if kind[1] else _NOT_PLAIN
    if shape in _SCALARS:
        return value if type(value) is _SCALARS[shape] else _NOT_PLAIN
    if shape == "dict":
        return dict(value) if type(value) is dict and all(type(k) is str for k in value) else _NOT_PLAIN
    if shape in ("any", "tag"):
        return value
    if shape == "literal":
        return value if type(value) is str and value in kind[1] else _NOT_PLAIN
    if shape == "model":
        if value is None and kind[2]:
            return None
        return _plain_fields(value, kind[1]) if type(value) is dict else _NOT_PLAIN
    if shape == "models" and type(value) is list:
        built = tuple(_plain(item, ("model", kind[1], False)) for item in value)
        return _NOT_PLAIN if any(item is _NOT_PLAIN for item in built) else built
    return _NOT_PLAIN


def from_model(model: Any) -> Entry:
    """The plain entry for a validated pydantic entry model."""
    return _record_of(model, ENTRIES[model.type])  # type: ignore[no-any-return]


def _record_of(model: Any, shape: Shape) -> Any:
    values = {}
    for slot in shape.slots:
        value = getattr(model, slot.name)
        if slot.kind[0] == "model" and value is not None:
            value = _record_of(value, slot.kind[1])
        elif slot.kind[0] == "models":
            value = tuple(_record_of(item, slot.kind[1]) for item in value)
        values[slot.name] = value
    return _RECORDS[shape.name](**values)
