"""Response-script entries as plain data, and the fast path that builds them.

An entry written with exactly the types the runtime declares is built here directly; a plainly
wrong one gets pydantic's errors from ``core/lax.py``; anything else is validated by the
pydantic models in ``script_models`` (pydantic's lax coercions included) and converted. Either
way the rest of formscript sees these classes, so checking an ordinary script, or one with the
usual mistakes, imports no model machinery.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from formscript.core.records import FrozenRecord

RESPONSE_TYPES: tuple[str, ...] = ("text", "tool_call", "structured", "stream", "error")
ERROR_KINDS: tuple[str, ...] = ("rate_limit", "timeout", "server_error", "bad_request", "value_error")
CHUNK_TYPES: tuple[str, ...] = (
    "system",
    "thinking",
    "text",
    "tool_use",
    "tool_result",
    "result",
    "error",
)
MODES: tuple[str, ...] = ("auto", "positional", "when_only")
#: Content predicates in the order the runtime consults them; only the first set one counts.
CONTENT_PREDICATES: tuple[str, ...] = ("prompt_contains", "prompt_regex", "has_tool")
GATES: tuple[str, ...] = ("call_index", "after_calls")
MATCHER_KEYS: tuple[str, ...] = ("prompt_contains", "prompt_regex", "has_tool", "after_calls", "call_index")
CHUNK_KEYS: tuple[str, ...] = (
    "type",
    "content",
    "tool_name",
    "tool_id",
    "tool_input",
    "tool_output",
    "is_error",
    "is_delta",
    "metadata",
)
ENTRY_KEYS: dict[str, tuple[str, ...]] = {
    "text": ("when", "type", "content"),
    "tool_call": ("when", "type", "name", "arguments", "id"),
    "structured": ("when", "type", "data"),
    "stream": ("when", "type", "chunks"),
    "error": ("when", "type", "kind", "message", "delay_ms"),
}
#: The same keys as sets, for the fast path's one subset test per mapping.
_MATCHER_KEY_SET = frozenset(MATCHER_KEYS)
_CHUNK_KEY_SET = frozenset(CHUNK_KEYS)
_ENTRY_KEY_SETS = {kind: frozenset(keys) for kind, keys in ENTRY_KEYS.items()}


class Matcher(FrozenRecord):
    """When an entry may be served: gates (call_index, after_calls) then one content predicate."""

    prompt_contains: str | None
    prompt_regex: str | None
    has_tool: str | None
    after_calls: int | None
    call_index: int | None

    __slots__ = _fields = ("prompt_contains", "prompt_regex", "has_tool", "after_calls", "call_index")

    def __init__(
        self,
        prompt_contains: str | None = None,
        prompt_regex: str | None = None,
        has_tool: str | None = None,
        after_calls: int | None = None,
        call_index: int | None = None,
    ) -> None:
        setter = object.__setattr__
        setter(self, "prompt_contains", prompt_contains)
        setter(self, "prompt_regex", prompt_regex)
        setter(self, "has_tool", has_tool)
        setter(self, "after_calls", after_calls)
        setter(self, "call_index", call_index)

    def is_empty(self) -> bool:
        """No condition set: the entry is positional."""
        return (
            self.prompt_contains is None
            and self.prompt_regex is None
            and self.has_tool is None
            and self.after_calls is None
            and self.call_index is None
        )


class Chunk(FrozenRecord):
    """One chunk of a streamed response."""

    type: str
    content: str | None
    tool_name: str | None
    tool_id: str | None
    tool_input: dict[str, Any] | None
    tool_output: Any
    is_error: bool
    is_delta: bool
    metadata: dict[str, Any]

    __slots__ = _fields = (
        "type",
        "content",
        "tool_name",
        "tool_id",
        "tool_input",
        "tool_output",
        "is_error",
        "is_delta",
        "metadata",
    )

    def __init__(
        self,
        type: str,
        content: str | None = None,
        tool_name: str | None = None,
        tool_id: str | None = None,
        tool_input: dict[str, Any] | None = None,
        tool_output: Any = None,
        is_error: bool = False,
        is_delta: bool = False,
        metadata: dict[str, Any] | None = None,
    ) -> None:
        setter = object.__setattr__
        setter(self, "type", type)
        setter(self, "content", content)
        setter(self, "tool_name", tool_name)
        setter(self, "tool_id", tool_id)
        setter(self, "tool_input", tool_input)
        setter(self, "tool_output", tool_output)
        setter(self, "is_error", is_error)
        setter(self, "is_delta", is_delta)
        setter(self, "metadata", {} if metadata is None else metadata)


class _Servable:
    """What every entry shares: an optional matcher, and whether it is reserved for matching."""

    __slots__ = ()
    when: Matcher | None

    @property
    def conditional(self) -> bool:
        """Reserved for matching (a non-empty ``when:``)."""
        return self.when is not None and not self.when.is_empty()


class TextEntry(_Servable, FrozenRecord):
    """Plain assistant text."""

    content: str
    when: Matcher | None
    type: Literal["text"]

    __slots__ = _fields = ("content", "when", "type")

    def __init__(self, content: str, when: Matcher | None = None, type: Literal["text"] = "text") -> None:
        setter = object.__setattr__
        setter(self, "content", content)
        setter(self, "when", when)
        setter(self, "type", type)


class ToolCallEntry(_Servable, FrozenRecord):
    """One function tool call."""

    name: str
    arguments: dict[str, Any]
    id: str | None
    when: Matcher | None
    type: Literal["tool_call"]

    __slots__ = _fields = ("name", "arguments", "id", "when", "type")

    def __init__(
        self,
        name: str,
        arguments: dict[str, Any] | None = None,
        id: str | None = None,
        when: Matcher | None = None,
        type: Literal["tool_call"] = "tool_call",
    ) -> None:
        setter = object.__setattr__
        setter(self, "name", name)
        setter(self, "arguments", {} if arguments is None else arguments)
        setter(self, "id", id)
        setter(self, "when", when)
        setter(self, "type", type)


class StructuredEntry(_Servable, FrozenRecord):
    """Structured data, sent as JSON text."""

    data: dict[str, Any]
    when: Matcher | None
    type: Literal["structured"]

    __slots__ = _fields = ("data", "when", "type")

    def __init__(
        self,
        data: dict[str, Any],
        when: Matcher | None = None,
        type: Literal["structured"] = "structured",
    ) -> None:
        setter = object.__setattr__
        setter(self, "data", data)
        setter(self, "when", when)
        setter(self, "type", type)


class StreamEntry(_Servable, FrozenRecord):
    """A sequence of stream chunks."""

    chunks: tuple[Chunk, ...]
    when: Matcher | None
    type: Literal["stream"]

    __slots__ = _fields = ("chunks", "when", "type")

    def __init__(
        self,
        chunks: tuple[Chunk, ...],
        when: Matcher | None = None,
        type: Literal["stream"] = "stream",
    ) -> None:
        setter = object.__setattr__
        setter(self, "chunks", chunks)
        setter(self, "when", when)
        setter(self, "type", type)


class ErrorEntry(_Servable, FrozenRecord):
    """An exception raised at this call."""

    kind: str
    message: str
    delay_ms: int
    when: Matcher | None
    type: Literal["error"]

    __slots__ = _fields = ("kind", "message", "delay_ms", "when", "type")

    def __init__(
        self,
        kind: str = "value_error",
        message: str = "scripted error",
        delay_ms: int = 0,
        when: Matcher | None = None,
        type: Literal["error"] = "error",
    ) -> None:
        setter = object.__setattr__
        setter(self, "kind", kind)
        setter(self, "message", message)
        setter(self, "delay_ms", delay_ms)
        setter(self, "when", when)
        setter(self, "type", type)


Entry = TextEntry | ToolCallEntry | StructuredEntry | StreamEntry | ErrorEntry


# ------------------------------------------------------------------------- fast path

_MISSING = object()


def _opt_str(value: Any) -> bool:
    return value is None or type(value) is str


def _opt_int(value: Any) -> bool:
    return value is None or type(value) is int


def _str_keyed(value: Any) -> bool:
    return type(value) is dict and all(type(k) is str for k in value)


def _plain_matcher(raw: Any) -> Matcher | object | None:
    """A Matcher, None for ``when: null``, or _MISSING when the fast path cannot decide."""
    if raw is None:
        return None
    if type(raw) is not dict or not raw.keys() <= _MATCHER_KEY_SET:
        return _MISSING
    contains, regex, tool = raw.get("prompt_contains"), raw.get("prompt_regex"), raw.get("has_tool")
    after, call = raw.get("after_calls"), raw.get("call_index")
    if not (_opt_str(contains) and _opt_str(regex) and _opt_str(tool) and _opt_int(after) and _opt_int(call)):
        return _MISSING
    return Matcher(contains, regex, tool, after, call)


def _plain_chunk(raw: Any) -> Chunk | None:
    if type(raw) is not dict or not raw.keys() <= _CHUNK_KEY_SET:
        return None
    kind = raw.get("type")
    if type(kind) is not str or kind not in CHUNK_TYPES:
        return None
    content, name, tool_id = raw.get("content"), raw.get("tool_name"), raw.get("tool_id")
    tool_input = raw.get("tool_input")
    is_error, is_delta = raw.get("is_error", False), raw.get("is_delta", False)
    metadata = raw.get("metadata", {})
    if not (_opt_str(content) and _opt_str(name) and _opt_str(tool_id)):
        return None
    if tool_input is not None and not _str_keyed(tool_input):
        return None
    if type(is_error) is not bool or type(is_delta) is not bool or not _str_keyed(metadata):
        return None
    return Chunk(
        kind,
        content,
        name,
        tool_id,
        None if tool_input is None else dict(tool_input),
        raw.get("tool_output"),
        is_error,
        is_delta,
        dict(metadata),
    )


def plain_entry(raw: Mapping[Any, Any]) -> Entry | None:
    """The entry for *raw* when every value already has its declared type, else None."""
    kind = raw.get("type")
    allowed = _ENTRY_KEY_SETS.get(kind) if type(kind) is str else None
    if allowed is None or not raw.keys() <= allowed:
        return None
    when = _plain_matcher(raw.get("when"))
    if when is _MISSING:
        return None
    assert when is None or isinstance(when, Matcher)
    if kind == "text":
        content = raw.get("content", _MISSING)
        return TextEntry(content, when) if type(content) is str else None
    if kind == "tool_call":
        name, arguments, call_id = raw.get("name", _MISSING), raw.get("arguments", {}), raw.get("id")
        if type(name) is not str or not _str_keyed(arguments) or not _opt_str(call_id):
            return None
        return ToolCallEntry(name, dict(arguments), call_id, when)
    if kind == "structured":
        data = raw.get("data", _MISSING)
        return StructuredEntry(dict(data), when) if _str_keyed(data) else None
    if kind == "stream":
        chunks = raw.get("chunks", _MISSING)
        if type(chunks) is not list:
            return None
        built = [_plain_chunk(c) for c in chunks]
        if any(c is None for c in built):
            return None
        return StreamEntry(tuple(c for c in built if c is not None), when)
    error_kind = raw.get("kind", "value_error")
    message, delay = raw.get("message", "scripted error"), raw.get("delay_ms", 0)
    if type(error_kind) is not str or error_kind not in ERROR_KINDS:
        return None
    if type(message) is not str or type(delay) is not int:
        return None
    return ErrorEntry(error_kind, message, delay, when)


def from_model(model: Any) -> Entry:
    """The plain entry for a validated pydantic entry model."""
    when = None
    if model.when is not None:
        w = model.when
        when = Matcher(w.prompt_contains, w.prompt_regex, w.has_tool, w.after_calls, w.call_index)
    kind = model.type
    if kind == "text":
        return TextEntry(model.content, when)
    if kind == "tool_call":
        return ToolCallEntry(model.name, model.arguments, model.id, when)
    if kind == "structured":
        return StructuredEntry(model.data, when)
    if kind == "stream":
        return StreamEntry(
            tuple(
                Chunk(
                    c.type,
                    c.content,
                    c.tool_name,
                    c.tool_id,
                    c.tool_input,
                    c.tool_output,
                    c.is_error,
                    c.is_delta,
                    c.metadata,
                )
                for c in model.chunks
            ),
            when,
        )
    return ErrorEntry(model.kind, model.message, model.delay_ms, when)
