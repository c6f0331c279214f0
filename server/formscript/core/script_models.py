"""Response-script models (ADR-0052 D4): entries, matchers and stream chunks.

Field types mirror the runtime's so pydantic's lax coercions agree with it.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from formscript.core.entries import (
    CHUNK_TYPES,
    CONTENT_PREDICATES,
    ERROR_KINDS,
    GATES,
    MODES,
    RESPONSE_TYPES,
)

__all__ = [
    "CHUNK_TYPES",
    "CONTENT_PREDICATES",
    "ENTRY_MODELS",
    "ERROR_KINDS",
    "GATES",
    "MODES",
    "RESPONSE_TYPES",
    "ErrorResponse",
    "ScriptHeader",
    "StreamChunkSpec",
    "StreamResponse",
    "StructuredResponse",
    "TextResponse",
    "ToolCallResponse",
    "WhenMatcher",
    "entry_keys",
]

ErrorKind = Literal["rate_limit", "timeout", "server_error", "bad_request", "value_error"]
ChunkType = Literal["system", "thinking", "text", "tool_use", "tool_result", "result", "error"]

#: defer_build: a model builds its validator the first time it validates (most runs need few).
_CLOSED = ConfigDict(extra="forbid", defer_build=True)


class WhenMatcher(BaseModel):
    """When an entry may be served: gates (call_index, after_calls) then one content predicate."""

    model_config = _CLOSED

    prompt_contains: str | None = None
    prompt_regex: str | None = None
    has_tool: str | None = None
    after_calls: int | None = None
    call_index: int | None = None

    def is_empty(self) -> bool:
        """No condition set: the entry is positional."""
        return all(getattr(self, name) is None for name in type(self).model_fields)


class _Entry(BaseModel):
    model_config = _CLOSED

    when: WhenMatcher | None = None

    @property
    def conditional(self) -> bool:
        """Reserved for matching (a non-empty ``when:``)."""
        return self.when is not None and not self.when.is_empty()


class TextResponse(_Entry):
    """Plain assistant text."""

    type: Literal["text"] = "text"
    content: str


class ToolCallResponse(_Entry):
    """One function tool call."""

    type: Literal["tool_call"] = "tool_call"
    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    id: str | None = None


class StructuredResponse(_Entry):
    """Structured data, sent as JSON text."""

    type: Literal["structured"] = "structured"
    data: dict[str, Any]


class StreamChunkSpec(BaseModel):
    """One chunk of a streamed response."""

    model_config = _CLOSED

    type: ChunkType
    content: str | None = None
    tool_name: str | None = None
    tool_id: str | None = None
    tool_input: dict[str, Any] | None = None
    tool_output: Any = None
    is_error: bool = False
    is_delta: bool = False
    metadata: dict[str, Any] = Field(default_factory=dict)


class StreamResponse(_Entry):
    """A sequence of stream chunks."""

    type: Literal["stream"] = "stream"
    chunks: list[StreamChunkSpec]


class ErrorResponse(_Entry):
    """An exception raised at this call."""

    type: Literal["error"] = "error"
    kind: ErrorKind = "value_error"
    message: str = "scripted error"
    delay_ms: int = 0


ENTRY_MODELS: dict[str, type[_Entry]] = {
    "text": TextResponse,
    "tool_call": ToolCallResponse,
    "structured": StructuredResponse,
    "stream": StreamResponse,
    "error": ErrorResponse,
}


def entry_keys(response_type: str) -> tuple[str, ...]:
    """The keys an entry of *response_type* accepts."""
    return tuple(ENTRY_MODELS[response_type].model_fields)


class ScriptHeader(BaseModel):
    """The script's top level without its entries (they are validated one by one)."""

    model_config = _CLOSED

    version: int = 1
    mode: str = Field(default="auto", pattern="^(auto|positional|when_only)$")
    responses: list[Any] = Field(default_factory=list)
