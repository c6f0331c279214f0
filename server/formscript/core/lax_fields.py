"""FieldSpec's validation without pydantic, for the declarations people write with problems.

``validate_fieldspec`` gives what ``FieldSpec.model_validate`` gives: the field it builds, or
its errors as (location, kind, message) in pydantic's order (the fields in declaration order,
then the unknown keys as written, the model check only when every field passed). It decides
the values YAML, JSON and Python literals load, of their exact types; for anything else (a
type it does not know, a float ``required`` other than 0 and 1, a check that raises other than
ValueError, Element keys on a declaration that builds) it asks the pydantic model, so its
answer is the model's (tests/test_lax_fields.py compares both on thousands of declarations).

Kept for the same figure as ``core/lax.py``: the pydantic models' 120 ms import.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, TypeAlias

from formscript.core.fields import (
    ELEMENT_KEYS,
    FIELD_TYPES,
    PLAIN_KEYS,
    RUNTIME_FIELDSPEC_CLASS,
    Declared,
    PlainField,
    as_text,
    check_name_and_default,
    element_id,
    element_metadata,
    element_timestamp,
)
from formscript.core.lax_common import Unsure, literal_message

#: A validation error as pydantic reports it: (loc, type, msg).
Error: TypeAlias = "tuple[tuple[Any, ...], str, str]"

#: The exact types of the values a loader gives; for others the model decides.
LOADED_TYPES = frozenset(
    {type(None), bool, int, float, str, bytes, bytearray, list, tuple, dict, set, frozenset, dt.date, dt.datetime}
)
_BOOL_WORDS: dict[str, bool] = {
    **dict.fromkeys(("0", "f", "n", "no", "off", "false"), False),
    **dict.fromkeys(("1", "t", "y", "yes", "on", "true"), True),
}
_INT64 = range(-(2**63), 2**63)
_LITERAL = literal_message(FIELD_TYPES)


class Invalid(Exception):
    """A value the field refuses: pydantic's error kind and message."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


def _refused(value: Any, kind: str, message: str) -> Invalid:
    """The error for a loaded *value* the field refuses (Unsure for any other value)."""
    if type(value) not in LOADED_TYPES:
        raise Unsure
    return Invalid(kind, message)


def lax_str(value: Any) -> str:
    """*value* as a pydantic ``str`` in lax mode takes it (text, or bytes read as UTF-8)."""
    if type(value) in (str, bytes, bytearray):
        text = as_text(value)
        if text is not None:
            return text
        raise Invalid("string_unicode", "Input should be a valid string, unable to parse raw data as a unicode string")
    raise _refused(value, "string_type", "Input should be a valid string")


def _flag(value: Any) -> bool:
    """*value* as a pydantic ``bool`` in lax mode takes it."""
    kind = type(value)
    if kind is bool:
        return bool(value)
    if kind is str or kind is bytes:
        text = value if kind is str else value.decode("latin-1")
        word = _BOOL_WORDS.get(text.lower()) if text.isascii() else None
        if word is None:
            raise Invalid("bool_parsing", "Input should be a valid boolean, unable to interpret input")
        return word
    if (kind is int and value in _INT64) or kind is float:
        if value in (0, 1):
            return bool(value)
        if kind is float:
            raise Unsure
        raise Invalid("bool_parsing", "Input should be a valid boolean, unable to interpret input")
    raise _refused(value, "bool_type", "Input should be a valid boolean")


def _field_type(value: Any) -> str:
    if type(value) is str and value in FIELD_TYPES:
        return value
    raise _refused(value, "literal_error", _LITERAL)


def _element(check: Any) -> Any:
    """A field validator run as pydantic runs it: its ValueError is the field's error."""

    def run(value: Any) -> Any:
        try:
            return check(value)
        except ValueError as exc:
            raise Invalid("value_error", f"Value error, {exc}") from None
        except Exception:
            raise Unsure from None

    return run


#: FieldSpec's fields in the model's order, each with what validates it.
_FIELDS = {
    "id": _element(element_id),
    "created_at": _element(element_timestamp),
    "metadata": _element(lambda value: element_metadata(value, RUNTIME_FIELDSPEC_CLASS)),
    "name": lax_str,
    "type": _field_type,
    "required": _flag,
    "default": lambda value: value,
    "description": lax_str,
}


def lax_fieldspec(payload: dict[str, Any]) -> tuple[PlainField | None, list[Error]]:
    """``FieldSpec.model_validate(payload)`` without pydantic: the field and no errors, or None
    and its errors; Unsure where the model must decide."""
    errors: list[Error] = []
    valid: dict[str, Any] = {}
    for key, check in _FIELDS.items():
        if key in payload:
            try:
                valid[key] = check(payload[key])
            except Invalid as exc:
                errors.append(((key,), exc.kind, exc.message))
    unknown = [key for key in payload if key not in _FIELDS]
    errors.extend(((key,), "extra_forbidden", "Extra inputs are not permitted") for key in unknown)
    if errors:
        return None, errors
    spec = PlainField(valid["name"], **{key: valid[key] for key in PLAIN_KEYS if key in valid})
    try:
        check_name_and_default(spec.name, spec.type, spec.default)
    except ValueError as exc:
        return None, [((), "value_error", f"Value error, {exc}")]
    except Exception:
        raise Unsure from None
    if any(key in valid for key in ELEMENT_KEYS):
        raise Unsure  # it builds, with an id, created_at or metadata the model keeps
    return spec, []


def model_fieldspec(payload: dict[str, Any]) -> tuple[Declared | None, list[Error]]:
    """What ``FieldSpec.model_validate(payload)`` gives, in the same shape (imports pydantic)."""
    from pydantic import ValidationError

    from formscript.core.forms import FieldSpec

    try:
        return FieldSpec.model_validate(payload), []
    except ValidationError as exc:
        return None, [(tuple(error["loc"]), error["type"], error["msg"]) for error in exc.errors()]


def validate_fieldspec(payload: dict[str, Any]) -> tuple[Declared | None, list[Error]]:
    """``FieldSpec.model_validate(payload)``'s outcome, without pydantic where it is decided."""
    try:
        return lax_fieldspec(payload)
    except Unsure:
        return model_fieldspec(payload)
