"""Field semantics of work forms without any model machinery: types, defaults, coercion,
filling and validation as pure functions (ADR-0052 D1, D2).

The lint path uses these directly, so checking an ordinary form never imports pydantic; the
models in ``forms`` wrap the same functions, so both give the same answers.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeAlias

from formscript.core.printable import type_label
from formscript.core.verdict import Failure

if TYPE_CHECKING:
    import uuid

#: The field types and form statuses; ``core.forms`` gives pydantic the same as ``Literal`` types.
FieldType: TypeAlias = 'Literal["str", "int", "float", "bool", "list", "dict"]'
FIELD_TYPES: tuple[str, ...] = ("str", "int", "float", "bool", "list", "dict")
FormStatus: TypeAlias = 'Literal["draft", "filled", "validated", "error", "submitted", "completed"]'
FORM_STATUSES: tuple[str, ...] = ("draft", "filled", "validated", "error", "submitted", "completed")

PYTHON_TYPES: dict[str, type] = {
    "str": str,
    "int": int,
    "float": float,
    "bool": bool,
    "list": list,
    "dict": dict,
}

#: Keys a declaration may also carry because the runtime's FieldSpec is an Element.
ELEMENT_KEYS: tuple[str, ...] = ("id", "created_at", "metadata")

FIELD_NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
TRUE_WORDS = frozenset({"true", "1", "yes"})
FALSE_WORDS = frozenset({"false", "0", "no"})

#: The runtime's qualified class name, which a ``metadata.lion_class`` entry must equal.
RUNTIME_FIELDSPEC_CLASS = "lionagi.work.form.FieldSpec"
RUNTIME_WORKFORM_CLASS = "lionagi.work.form.WorkForm"


def as_text(value: object) -> str | None:
    """*value* as a pydantic ``str`` field or key takes it in lax mode: a str as it is, bytes
    (``!!binary`` in YAML, ``b"..."`` in Python) decoded as UTF-8, else None (refused)."""
    if isinstance(value, str):
        return value
    if isinstance(value, bytes | bytearray):
        try:
            return bytes(value).decode("utf-8")
        except UnicodeDecodeError:
            return None
    return None


class CoercionError(TypeError):
    """A value that cannot be turned into its field's declared type."""

    def __init__(self, field: str, expected: str, value: Any) -> None:
        self.field = field
        self.expected = expected
        self.value = value
        super().__init__(f"field {field!r} expects {expected}, found {type_label(value)} {value!r}")


class FillCrash(Exception):
    """fill_form raises on a field's value instead of reporting a validation failure, so
    ``li agent`` stops before the model call: float() of an int too large for a float
    (OverflowError), or the coercion message's repr of an int Python will not write in
    decimal (ValueError)."""

    def __init__(self, field: Any, error: Exception) -> None:
        self.field = field
        self.error = error
        super().__init__(f"{type(error).__name__}: {error}")


def default_fits(field_type: str, default: Any) -> bool:
    """Whether a non-None default is accepted at declaration time (an isinstance check)."""
    if field_type == "float" and isinstance(default, int):
        return True
    return isinstance(default, PYTHON_TYPES[field_type])


def check_name_and_default(name: str, field_type: str, default: Any) -> None:
    """FieldSpec's model check, after its fields: ValueError unless *name* is an identifier and
    a non-None *default* fits *field_type*."""
    if not FIELD_NAME_RE.match(name):
        raise ValueError(
            f"field name {name!r} is not an identifier: it must start with a letter "
            "or underscore and contain only letters, digits and underscores"
        )
    if default is not None and not default_fits(field_type, default):
        raise ValueError(f"default {default!r} ({type_label(default)}) does not fit the declared type {field_type!r}")


def element_id(value: Any) -> uuid.UUID:
    """An Element's ``id`` as the runtime reads it (ValueError when it is no UUID)."""
    import uuid

    if isinstance(value, uuid.UUID):
        return value
    return uuid.UUID(str(value))


def element_timestamp(value: Any) -> float:
    """An Element's ``created_at`` as the runtime reads it: a timestamp, a date-time or its
    ISO text (naive means UTC), or text of a number; ValueError otherwise."""
    import datetime as dt

    if value is None:
        return 0.0
    if isinstance(value, float):
        return value
    if isinstance(value, dt.datetime):
        return value.timestamp()
    if isinstance(value, str):
        try:
            parsed = dt.datetime.fromisoformat(value.replace(" ", "T"))
            if parsed.tzinfo is None:
                parsed = parsed.replace(tzinfo=dt.UTC)
            return parsed.timestamp()
        except ValueError:
            try:
                return float(value)
            except ValueError:
                raise ValueError(f"created_at {value!r} is neither a timestamp nor a date-time") from None
    try:
        return float(value)
    except Exception:
        raise ValueError(f"created_at {value!r} is not a number") from None


def element_metadata(value: Any, runtime_class: str) -> dict[Any, Any]:
    """An Element's ``metadata`` as the runtime reads it; ValueError when it names another
    class than *runtime_class* or is JSON text of something other than an object."""
    if not value:
        return {}
    if not isinstance(value, dict):
        value = _loose_mapping(value)
    if "lion_class" in value and value["lion_class"] != runtime_class:
        raise ValueError("metadata.lion_class names a different class")
    return dict(value)


def _loose_mapping(value: Any) -> dict[Any, Any]:
    """The runtime's best-effort conversion of a non-mapping metadata value.

    Text that is not JSON counts as empty, but JSON text holding anything other than an
    object is refused. A set maps each member to itself (so ``{lion_class}`` names a class),
    a sequence maps positions to items, and any other scalar counts as empty.
    """
    import json

    if isinstance(value, str):
        try:
            loaded = json.loads(value)
        except ValueError:
            return {}
        if not isinstance(loaded, dict):
            raise ValueError(
                f"metadata text holds JSON {type_label(loaded)}, and only a JSON object can become metadata"
            )
        return dict(loaded)
    if isinstance(value, set | frozenset):
        return {member: member for member in value}
    if isinstance(value, list | tuple):
        return dict(enumerate(value))
    return {}


def coerce_value(field: str, field_type: str, value: Any) -> Any:
    """Coerce *value* exactly as the runtime's FieldSpec.coerce does."""
    if value is None:
        return None
    target = PYTHON_TYPES[field_type]
    if isinstance(value, target):
        return value
    if field_type == "float" and isinstance(value, int):
        return float(value)
    if field_type == "bool" and isinstance(value, str):
        lowered = value.lower()
        if lowered in TRUE_WORDS:
            return True
        if lowered in FALSE_WORDS:
            return False
    if field_type in ("int", "float") and isinstance(value, str):
        try:
            return target(value)
        except ValueError:
            pass
    raise CoercionError(field, field_type, value)


class Declared(Protocol):
    """What filling and validation need from a field declaration."""

    @property
    def name(self) -> str: ...
    @property
    def type(self) -> str: ...
    @property
    def required(self) -> bool: ...
    @property
    def default(self) -> Any: ...
    @property
    def description(self) -> str: ...


@dataclass(frozen=True, slots=True)
class PlainField:
    """A declaration whose values were already of their exact types, so no model validation
    could change them (the fast path; anything else goes through the pydantic FieldSpec)."""

    name: str
    type: str = "str"
    required: bool = True
    default: Any = None
    description: str = ""

    def coerce(self, value: Any) -> Any:
        """The value the runtime stores for this field, or CoercionError."""
        return coerce_value(self.name, self.type, value)


#: The keys a field declaration may set: PlainField's fields but its name, which is the
#: declaration's key (FieldSpec has the same, and the Element keys: tests/test_keys.py).
DECLARATION_KEYS: tuple[str, ...] = tuple(field.name for field in dataclasses.fields(PlainField))[1:]
#: The same, for the fast path's one subset test; anything else needs the full model.
PLAIN_KEYS = frozenset(DECLARATION_KEYS)


def plain_field(name: object, declaration: Mapping[Any, Any]) -> PlainField | None:
    """A PlainField when *declaration* is valid as written with exact types, else None."""
    if type(name) is not str or not FIELD_NAME_RE.match(name):
        return None
    for key in declaration:
        if key not in PLAIN_KEYS:
            return None
    field_type = declaration.get("type", "str")
    required = declaration.get("required", True)
    description = declaration.get("description", "")
    default = declaration.get("default")
    if type(field_type) is not str or field_type not in PYTHON_TYPES:
        return None
    if type(required) is not bool or type(description) is not str:
        return None
    if default is not None and not default_fits(field_type, default):
        return None
    return PlainField(name, field_type, required, default, description)


class HasValues(Protocol):
    """Anything rules can read values from (a WorkForm, or a plain view)."""

    @property
    def values(self) -> Mapping[Any, Any]: ...


class ChecksValues(Protocol):
    """What validate_form runs on the coerced values: a rule set (``core.rules.RuleSet``)."""

    def failures(self, form: HasValues) -> list[Failure]: ...


@dataclass(frozen=True, slots=True)
class ValuesView:
    """Values for rules to read, without building a WorkForm."""

    values: Mapping[Any, Any]


def merge_values(fields: Mapping[Any, Declared], values: Mapping[Any, Any]) -> dict[Any, Any]:
    """fill_form's merge: declared fields first (value, else a non-None default), then extras."""
    merged: dict[Any, Any] = {}
    for name, spec in fields.items():
        if name in values:
            merged[name] = values[name]
        elif spec.default is not None:
            merged[name] = spec.default
    for key, value in values.items():
        if key not in merged:
            merged[key] = value
    return merged


def check_values(
    fields: Mapping[Any, Declared], values: Mapping[Any, Any], ruleset: ChecksValues | None = None
) -> tuple[dict[Any, Any], list[Failure]]:
    """validate_form's pass: required and coercion per field, then rules on the coerced values."""
    failures: list[Failure] = []
    coerced: dict[Any, Any] = dict(values)
    for name, spec in fields.items():
        value = values.get(name)
        if spec.required and value is None:
            failures.append(Failure("field", "required", name, message=f"field {name!r} is required but has no value"))
            continue
        if value is not None:
            try:
                coerced[name] = coerce_value(spec.name, spec.type, value)
            except CoercionError as exc:
                failures.append(Failure("field", "coerce", name, message=str(exc)))
            except (ValueError, OverflowError) as exc:  # what the runtime's coercion raises too
                raise FillCrash(name, exc) from exc
    if ruleset is not None:
        failures.extend(ruleset.failures(ValuesView(coerced)))
    return coerced, failures
