"""Response-script models (ADR-0052 D4): the pydantic models of ``entries.SHAPES``' shapes.

Field types mirror the runtime's so pydantic's lax coercions agree with it. Each model is made
from its shape (``entries.py`` is the one definition): the same class names, descriptions,
field order, types and defaults as the runtime's models.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model

from formscript.core.entries import CHUNK, ENTRIES, HEADER, MATCHER, REQUIRED, Shape

__all__ = [
    "ENTRY_MODELS",
    "ErrorResponse",
    "ScriptHeader",
    "StreamChunkSpec",
    "StreamResponse",
    "StructuredResponse",
    "TextResponse",
    "ToolCallResponse",
    "WhenMatcher",
]


class _Closed(BaseModel):
    #: defer_build: a model builds its validator the first time it validates (most runs need few).
    model_config = ConfigDict(extra="forbid", defer_build=True)


class _Matcher(_Closed):
    def is_empty(self) -> bool:
        """No condition set: the entry is positional."""
        return all(getattr(self, name) is None for name in type(self).model_fields)


_SCALARS: dict[str, Any] = {"str": str, "int": int, "bool": bool, "dict": dict[str, Any]}


def _annotation(kind: tuple[Any, ...]) -> Any:
    shape = kind[0]
    if shape in _SCALARS:
        return _SCALARS[shape] | None if kind[1] else _SCALARS[shape]
    if shape in ("literal", "tag"):
        return Literal[kind[1]]
    if shape == "pattern":
        return str
    if shape == "model":
        return _MODELS[kind[1].name] | None if kind[2] else _MODELS[kind[1].name]
    if shape == "models":
        return list[_MODELS[kind[1].name]]  # type: ignore[misc]
    return list[Any] if shape == "list" else Any


def _model(shape: Shape, base: type[BaseModel]) -> type[BaseModel]:
    fields: dict[str, Any] = {}
    for name, kind, default in shape.slots:
        if kind[0] == "pattern":
            field = Field(default=default, pattern=f"^({'|'.join(kind[1])})$")
        elif isinstance(default, dict | list):
            field = Field(default_factory=type(default))
        else:
            field = ... if default is REQUIRED else default
        fields[name] = (_annotation(kind), field)
    model = create_model(shape.name, __base__=base, __doc__=shape.doc, __module__=__name__, **fields)
    _MODELS[shape.name] = model
    return model


_MODELS: dict[str, type[BaseModel]] = {}
WhenMatcher = _model(MATCHER, _Matcher)
StreamChunkSpec = _model(CHUNK, _Closed)
TextResponse = _model(ENTRIES["text"], _Closed)
ToolCallResponse = _model(ENTRIES["tool_call"], _Closed)
StructuredResponse = _model(ENTRIES["structured"], _Closed)
StreamResponse = _model(ENTRIES["stream"], _Closed)
ErrorResponse = _model(ENTRIES["error"], _Closed)
ScriptHeader = _model(HEADER, _Closed)

ENTRY_MODELS: dict[str, type[BaseModel]] = {kind: _MODELS[shape.name] for kind, shape in ENTRIES.items()}
