"""Work forms (ADR-0052 D1, D2): field declarations, coercion, filling and validation.

Everything here mirrors lionagi 0.36.0's observable behaviour; the message texts are ours.
Validation results carry structured failures (which field, why) next to the messages so
callers never parse text.
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, InstanceOf, field_validator, model_validator
from pydantic.json_schema import SkipJsonSchema

from formscript.core.fields import (
    FIELD_TYPES,
    FORM_STATUSES,
    RUNTIME_FIELDSPEC_CLASS,
    RUNTIME_WORKFORM_CLASS,
    check_name_and_default,
    check_values,
    coerce_value,
    element_id,
    element_metadata,
    element_timestamp,
    merge_values,
)
from formscript.core.verdict import Failure

if TYPE_CHECKING:
    from formscript.core.fields import FieldType, FormStatus
    from formscript.core.rules import RuleSet
else:  # pydantic reads these annotations: the Literal types of the values core.fields lists
    FieldType = Literal[FIELD_TYPES]
    FormStatus = Literal[FORM_STATUSES]

__all__ = [
    "FieldSpec",
    "FieldType",
    "FormStatus",
    "WorkForm",
    "coerce_value",
    "fill_form",
    "validate_form",
]


class _ElementBase(BaseModel):
    """The identity fields every lionagi Element carries (id, created_at, metadata).

    They are accepted inside a field declaration because the runtime's FieldSpec
    inherits them; their validation follows the runtime's lax rules.
    """

    model_config = ConfigDict(
        arbitrary_types_allowed=True,
        use_enum_values=True,
        populate_by_name=True,
        extra="forbid",
        defer_build=True,  # the validator is built the first time it validates
    )

    id: uuid.UUID = Field(default_factory=uuid.uuid4)
    created_at: float = 0.0
    metadata: dict[Any, Any] = Field(default_factory=dict)

    RUNTIME_CLASS: ClassVar[str] = RUNTIME_FIELDSPEC_CLASS

    @field_validator("id", mode="before")
    @classmethod
    def _id_from_text(cls, value: Any) -> uuid.UUID:
        return element_id(value)

    @field_validator("created_at", mode="before")
    @classmethod
    def _timestamp(cls, value: Any) -> float:
        return element_timestamp(value)

    @field_validator("metadata", mode="before")
    @classmethod
    def _metadata(cls, value: Any) -> dict[Any, Any]:
        return element_metadata(value, cls.RUNTIME_CLASS)


class FieldSpec(_ElementBase):
    """The declaration of one typed field."""

    name: str
    type: FieldType = "str"
    required: bool = True
    default: Any = None
    description: str = ""

    @model_validator(mode="after")
    def _name_and_default(self) -> FieldSpec:
        check_name_and_default(self.name, self.type, self.default)
        return self

    def coerce(self, value: Any) -> Any:
        """The value the runtime stores for this field, or CoercionError."""
        return coerce_value(self.name, self.type, value)


class WorkForm(_ElementBase):
    """A typed value container with a lifecycle status."""

    RUNTIME_CLASS: ClassVar[str] = RUNTIME_WORKFORM_CLASS

    title: str = ""
    fields: dict[str, FieldSpec] = Field(default_factory=dict)
    values: dict[Any, Any] = Field(default_factory=dict)
    status: FormStatus = "draft"
    validation_errors: list[str] = Field(default_factory=list)
    #: Structured twins of validation_errors, same order: (field, kind) per failure (runtime
    #: state, so in no JSON Schema; a Failure is a dataclass, accepted only as an instance).
    failures: SkipJsonSchema[list[InstanceOf[Failure]]] = Field(default_factory=list)


def fill_form(form: WorkForm, values: dict[Any, Any], *, ruleset: RuleSet | None = None) -> WorkForm:
    """Merge *values* (declared fields first, then defaults, then extras) and validate."""
    filled = form.model_copy(
        update={
            "values": merge_values(form.fields, values),
            "status": "filled",
            "validation_errors": [],
            "failures": [],
        }
    )
    return validate_form(filled, ruleset=ruleset)


def validate_form(form: WorkForm, *, ruleset: RuleSet | None = None) -> WorkForm:
    """Check required fields and coerce values; rules run on the coerced copy afterwards."""
    coerced, failures = check_values(form.fields, form.values, ruleset)
    return form.model_copy(
        update={
            "values": coerced,
            "status": "error" if failures else "validated",
            "validation_errors": [f.message for f in failures],
            "failures": failures,
        }
    )
