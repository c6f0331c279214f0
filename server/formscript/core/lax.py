"""The errors pydantic's lax validation of the script models reports, without pydantic, for the
inputs where its answer is certain.

A script entry or header that does not build on the fast path (``entries.plain_entry``) is
usually plainly wrong: a number where text belongs, a list for a mapping, an unknown key, a
missing field. For those, ``entry_errors`` and ``header_errors`` give the error list pydantic
gives (type, location and message, in its order), so linting such a file imports no model
machinery. Wherever lax mode might coerce the value instead (a digit string for an int, bytes
for text, a tuple for a list, a bool for an int) or the input is anything unusual, they give
None, and the caller asks the pydantic models in ``script_models``.
tests/test_lax.py holds both to the same answers on thousands of generated inputs.

Kept for a figure (bench/run.py): importing the pydantic models takes 120 ms, which would take
a one-file lint of a script with problems from 0.93x to about 2.3x yamllint (target 1.2x).
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any, TypeAlias

from formscript.core.entries import ENTRIES, HEADER, REQUIRED, Shape
from formscript.core.lax_common import Unsure, literal_message

__all__ = ["entry_errors", "header_errors"]

#: An error as pydantic's ``ValidationError.errors()`` gives it (the keys formscript reads).
Error: TypeAlias = "dict[str, Any]"

#: The value types whose treatment below is certain; any other type is left to pydantic.
_PLAIN = (str, int, float, bool, type(None), list, dict, dt.date, dt.datetime)
_SCALAR_MESSAGES = {
    "str": ("string_type", "Input should be a valid string"),
    "int": ("int_type", "Input should be a valid integer"),
    "bool": ("bool_type", "Input should be a valid boolean"),
    "dict": ("dict_type", "Input should be a valid dictionary"),
}
#: Per kind, the input types lax mode refuses outright (the others it accepts or may coerce).
_REFUSED: dict[str, tuple[type, ...]] = {
    "str": (int, float, bool, list, dict, dt.date),
    "int": (list, dict, dt.date),
    "bool": (list, dict, dt.date),
    "dict": (str, int, float, bool, list, dt.date),
}
#: Text lax mode reads as an int for certain (YAML's quoted ``version: "1"``); other text
#: (signs, spaces, underscores, exponents) is left to pydantic.
_DIGITS = re.compile(r"(?:0|[1-9][0-9]{0,17})\Z")


def entry_errors(raw: dict[Any, Any], response_type: str) -> list[Error] | None:
    """pydantic's errors for *raw* as an entry of *response_type*, or None where lax mode
    might accept or coerce some value (and when there is no error: the fast path builds
    every entry that needs no coercion)."""
    return _errors(raw, ENTRIES[response_type]) or None


def header_errors(header: dict[Any, Any]) -> list[Error] | None:
    """pydantic's errors for a script's ``version`` and ``mode`` (the keys of *header*), or
    None as ``entry_errors``; an empty list where both are valid (a ``version`` written as
    digits in quotes is read as that number). ``mode`` is held to the model's pattern, which
    (a Rust regex, ``$`` only at the very end) only the three modes themselves match."""
    return _errors(header, HEADER)


def _errors(raw: dict[Any, Any], shape: Shape) -> list[Error] | None:
    errors: list[Error] = []
    try:
        _model(raw, shape, (), errors)
    except Unsure:
        return None
    return errors


def _model(raw: dict[Any, Any], shape: Shape, loc: tuple[Any, ...], errors: list[Error]) -> None:
    if any(type(key) is not str for key in raw):
        raise Unsure
    for name, kind, default in shape.slots:
        if name in raw:
            _value(raw[name], kind, (*loc, name), errors)
        elif default is REQUIRED:
            errors.append({"type": "missing", "loc": (*loc, name), "msg": "Field required"})
    known = shape.keys()
    for key in raw:
        if key not in known:
            errors.append({"type": "extra_forbidden", "loc": (*loc, key), "msg": "Extra inputs are not permitted"})


def _value(value: Any, kind: tuple[Any, ...], loc: tuple[Any, ...], errors: list[Error]) -> None:
    if type(value) not in _PLAIN:
        raise Unsure
    shape = kind[0]
    if shape in ("any", "tag"):  # an entry's type chose its model: it always matches
        return
    if shape == "literal":
        choices = kind[1]
        if type(value) is not str:
            raise Unsure
        if value not in choices:
            errors.append({"type": "literal_error", "loc": loc, "msg": literal_message(choices)})
        return
    if shape == "pattern":
        if type(value) is str:
            if value not in kind[1]:
                pattern = f"^({'|'.join(kind[1])})$"
                errors.append(
                    {"type": "string_pattern_mismatch", "loc": loc, "msg": f"String should match pattern {pattern!r}"}
                )
            return
        kind = ("str", False)
        shape = "str"
    if shape == "model":
        _, model, optional = kind
        if value is None and optional:
            return
        if type(value) is dict:
            _model(value, model, loc, errors)
            return
        errors.append(
            {"type": "model_type", "loc": loc, "msg": f"Input should be a valid dictionary or instance of {model.name}"}
        )
        return
    if shape == "models":
        if type(value) is not list:
            if type(value) is dict:
                raise Unsure
            errors.append({"type": "list_type", "loc": loc, "msg": "Input should be a valid list"})
            return
        for index, item in enumerate(value):
            _value(item, ("model", kind[1], False), (*loc, index), errors)
        return
    if shape not in _SCALAR_MESSAGES:
        raise Unsure  # a header's responses: checked entry by entry, never here
    optional = kind[1]
    if value is None:
        if not optional:
            code, message = _SCALAR_MESSAGES[shape]
            errors.append({"type": code, "loc": loc, "msg": message})
        return
    if shape == "dict" and type(value) is dict:
        if any(type(key) is not str for key in value):
            raise Unsure
        return
    if (shape == "str" and type(value) is str) or (shape == "int" and type(value) is int):
        return
    if shape == "int" and type(value) is str and _DIGITS.match(value):
        return
    if shape == "bool" and type(value) is bool:
        return
    if isinstance(value, _REFUSED[shape]):
        code, message = _SCALAR_MESSAGES[shape]
        errors.append({"type": code, "loc": loc, "msg": message})
        return
    raise Unsure
