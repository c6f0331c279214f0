"""The ``li agent --form`` gate (ADR-0052 D3) as a pure function of the loaded spec and its path.

The runtime stops at its first complaint; this gate keeps going and reports every problem,
in the order the runtime would meet them, while its verdict stays the runtime's.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from formscript.core.expansion import EXPANSION_LIMIT, expanded_size
from formscript.core.fields import (
    FIELD_NAME_RE,
    FIELD_TYPES,
    Declared,
    Failure,
    FormStatus,
    check_values,
    default_fits,
    merge_values,
    plain_field,
    type_label,
)
from formscript.core.suggest import hint, suggestion
from formscript.core.verdict import Problem, Verdict, verdict_from

if TYPE_CHECKING:
    from pydantic import ValidationError

    from formscript.core.forms import WorkForm
    from formscript.core.rules import RuleSet

TOP_LEVEL_KEYS: tuple[str, ...] = ("title", "fields", "values")
DECLARATION_KEYS: tuple[str, ...] = ("type", "required", "default", "description")
#: Keys a declaration may also carry because the runtime's FieldSpec is an Element.
ELEMENT_KEYS: tuple[str, ...] = ("id", "created_at", "metadata")


@dataclass
class GateResult:
    """The runtime's verdict on a form spec, with every problem found and the rendered block."""

    verdict: Verdict
    problems: list[Problem]
    #: What ``li agent --form`` renders (None when the form is refused or has no values).
    context_block: str | None = None
    #: Declarations that built, by key; they exist even when the form as a whole is refused.
    declarations: dict[Any, Declared] = field(default_factory=dict)
    title: str = ""
    #: The form's values after filling and coercion, and its status (None: never built).
    values: dict[Any, Any] = field(default_factory=dict)
    status: FormStatus | None = None
    failures: list[Failure] = field(default_factory=list)

    @property
    def prompt_prefix(self) -> str:
        """The exact text put in front of the user's prompt ('' when nothing is sent)."""
        return "" if self.context_block is None else self.context_block + "\n\n"

    @cached_property
    def form(self) -> WorkForm | None:
        """The runtime's WorkForm for this spec (built on demand; None when never built)."""
        if self.status is None:
            return None
        from formscript.core.forms import FieldSpec, WorkForm

        fields = {
            key: spec
            if isinstance(spec, FieldSpec)
            else FieldSpec.model_validate(
                {
                    "name": spec.name,
                    "type": spec.type,
                    "required": spec.required,
                    "default": spec.default,
                    "description": spec.description,
                }
            )
            for key, spec in self.declarations.items()
        }
        return WorkForm.model_construct(
            title=self.title,
            fields=fields,
            values=self.values,
            status=self.status,
            validation_errors=[f.message for f in self.failures],
            failures=self.failures,
        )


class SpecLoadError(ValueError):
    """The spec text is neither YAML nor JSON; carries the YAML error."""

    def __init__(self, yaml_error: Exception) -> None:
        self.yaml_error = yaml_error
        super().__init__(str(yaml_error))


def load_spec_text(text: str) -> Any:
    """Load spec text as the runtime does: YAML (1.1, safe) first, JSON only if YAML fails."""
    import yaml

    try:
        return yaml.safe_load(text)
    except Exception as yaml_error:
        try:
            return json.loads(text)
        except Exception:
            raise SpecLoadError(yaml_error) from yaml_error


def render_context_block(title: str, values: dict[Any, Any]) -> str:
    """``[Work Form: <title>]`` then one ``  key: repr(value)`` line per value, in order."""
    lines = [f"[Work Form: {title}]"]
    lines.extend(f"  {key}: {value!r}" for key, value in values.items())
    return "\n".join(lines)


def check_form_spec(spec: Any, spec_path: str, *, ruleset: RuleSet | None = None) -> GateResult:
    """Predict what ``li agent --form <spec_path>`` does with the loaded *spec*.

    *ruleset* is formscript's extension for dry runs; the runtime's gate takes none.
    """
    if not isinstance(spec, dict):
        problem = Problem(
            "FS002",
            f"a form spec must be a mapping at the top level, found {type_label(spec)}",
            rejects=True,
        )
        return GateResult(Verdict.REJECTED, [problem])

    problems: list[Problem] = []
    for key in spec:
        if key not in TOP_LEVEL_KEYS:
            problems.append(
                Problem(
                    "FS001",
                    f"unknown top-level key {key!r}; a form spec has only title, fields and values"
                    + hint(key, TOP_LEVEL_KEYS),
                    path=(key,),
                    on_key=True,
                    rejects=True,
                    data=suggestion(key, TOP_LEVEL_KEYS),
                )
            )

    raw_fields = spec.get("fields")
    raw_values = spec.get("values")
    for name, raw in (("fields", raw_fields), ("values", raw_values)):
        if raw is not None and not isinstance(raw, dict):
            problems.append(
                Problem(
                    "FS003",
                    f"{name!r} must be a mapping, found {type_label(raw)}",
                    path=(name,),
                    rejects=True,
                )
            )
    fields_map: dict[Any, Any] = raw_fields if isinstance(raw_fields, dict) else {}
    values_map: dict[Any, Any] = raw_values if isinstance(raw_values, dict) else {}
    # The runtime tests truthiness, so a wrongly typed but truthy 'fields' still counts.
    fields_given = bool(raw_fields) if raw_fields is not None else False
    values_given = bool(raw_values) if raw_values is not None else False

    if values_given and not fields_given:
        problems.append(
            Problem(
                "FS004",
                "'values' has entries but no fields are declared, so nothing would validate them",
                path=("values",),
                on_key=True,
                rejects=True,
            )
        )
    if fields_map:
        declared = [k for k in fields_map if isinstance(k, str)]
        for key in values_map:
            if key not in fields_map:
                problems.append(
                    Problem(
                        "FS005",
                        f"value {key!r} has no field declaration" + hint(key, declared),
                        path=("values", key),
                        on_key=True,
                        rejects=True,
                        field=key if isinstance(key, str) else None,
                        data=suggestion(key, declared),
                    )
                )

    declarations: dict[Any, Declared] = {}
    for key, declaration in fields_map.items():
        spec_obj = _build_declaration(key, declaration, problems)
        if spec_obj is not None:
            declarations[key] = spec_obj

    title_raw = spec.get("title", spec_path)
    title = _title(title_raw)
    if title is None:
        title = ""
        problems.append(
            Problem(
                "FS019",
                f"title must be a string, found {type_label(title_raw)} {title_raw!r}",
                path=("title",),
                rejects=True,
            )
        )

    gate_failed = any(p.rejects for p in problems)
    values: dict[Any, Any] = {}
    status: FormStatus | None = "draft"
    failures: list[Failure] = []
    to_fill: dict[Any, Any] | None = None
    if gate_failed:
        # Keep collecting: validate what did build, so one mistake does not hide others.
        if declarations:
            to_fill = {k: v for k, v in values_map.items() if k in declarations}
    elif values_given or declarations:
        to_fill = values_map
    elif ruleset is not None:
        to_fill = {}
    if to_fill is not None:
        values, failures = check_values(declarations, merge_values(declarations, to_fill), ruleset)
        status = "error" if failures else "validated"

    for failure in failures:
        if failure.source == "rule":
            problems.append(
                Problem(
                    "RS100",
                    failure.message,
                    path=("values", failure.field) if failure.field in values_map else (),
                    rejects=True,
                    field=failure.field,
                    data={"rule_id": failure.rule_id, "kind": failure.kind},
                )
            )
        elif failure.kind == "required":
            present = failure.field in values_map
            problems.append(
                Problem(
                    "FS013" if present else "FS012",
                    f"required field {failure.field!r} is null; the runtime treats null as missing"
                    if present
                    else f"required field {failure.field!r} has no value and no default",
                    path=("values", failure.field) if present else ("fields", failure.field),
                    on_key=not present,
                    rejects=True,
                    field=failure.field,
                )
            )
        else:
            problems.append(
                Problem(
                    "FS014",
                    failure.message,
                    path=("values", failure.field),
                    rejects=True,
                    field=failure.field,
                )
            )

    verdict = verdict_from(problems)
    block = None
    if verdict is Verdict.ACCEPTED and values:
        size = expanded_size(values)
        if size > EXPANSION_LIMIT:
            problems.append(
                Problem(
                    "FS022",
                    f"the values expand to more than {EXPANSION_LIMIT:,} items through YAML aliases; "
                    "the runtime accepts the form but rendering its context block exhausts time and "
                    "memory",
                    path=("values",),
                    severity="error",
                )
            )
        else:
            block = render_context_block(title, values)
    return GateResult(
        verdict,
        problems,
        context_block=block,
        declarations=declarations,
        title=title,
        values=values,
        status=status,
        failures=failures,
    )


def _title(raw: Any) -> str | None:
    """The title as WorkForm stores it, or None when it is not a string (pydantic's lax str)."""
    if type(raw) is str:
        return raw
    from pydantic import TypeAdapter, ValidationError

    try:
        return str(TypeAdapter(str).validate_python(raw))
    except ValidationError:
        return None


def _build_declaration(key: Any, declaration: Any, problems: list[Problem]) -> Declared | None:
    """Build ``FieldSpec(name=key, **declaration)`` the runtime's way, reporting every fault."""
    where = ("fields", key)
    if not isinstance(declaration, dict):
        problems.append(
            Problem(
                "FS007",
                f"field {key!r} must be declared with a mapping, found {type_label(declaration)}",
                path=where,
                rejects=True,
                field=key if isinstance(key, str) else None,
            )
        )
        return None
    fast = plain_field(key, declaration)
    if fast is not None:
        return fast
    ok = True
    if not isinstance(key, str) or not FIELD_NAME_RE.match(key):
        problems.append(
            Problem(
                "FS006",
                f"field name {key!r} is not an identifier (letters, digits and underscores, not starting with a digit)",
                path=where,
                on_key=True,
                rejects=True,
            )
        )
        ok = False
    for sub in declaration:
        if not isinstance(sub, str):
            problems.append(
                Problem(
                    "FS021",
                    f"field {key!r} has a non-string key {sub!r} in its declaration",
                    path=(*where, sub),
                    on_key=True,
                    rejects=True,
                )
            )
            ok = False
        elif sub == "name":
            problems.append(
                Problem(
                    "FS009",
                    f"field {key!r} declares 'name'; the name is the mapping key, and a second "
                    "one makes the runtime refuse the declaration",
                    path=(*where, sub),
                    on_key=True,
                    rejects=True,
                )
            )
            ok = False
    payload = {k: v for k, v in declaration.items() if isinstance(k, str) and k != "name"}
    payload["name"] = key if isinstance(key, str) and FIELD_NAME_RE.match(key) else "placeholder"
    from pydantic import ValidationError

    from formscript.core.forms import FieldSpec

    try:
        built = FieldSpec.model_validate(payload)
    except ValidationError as exc:
        _report_declaration_errors(key, declaration, exc, problems)
        return None
    return built if ok else None


def _report_declaration_errors(
    key: Any, declaration: dict[Any, Any], exc: ValidationError, problems: list[Problem]
) -> None:
    where = ("fields", key)
    field_name = key if isinstance(key, str) else None
    type_ok = True
    for error in exc.errors():
        loc = error.get("loc", ())
        sub = loc[0] if loc else None
        if sub == "type":
            type_ok = False
            value = declaration.get("type")
            problems.append(
                Problem(
                    "FS010",
                    f"field {key!r} has unknown type {value!r}; expected one of "
                    + ", ".join(FIELD_TYPES)
                    + hint(value, FIELD_TYPES),
                    path=(*where, "type"),
                    rejects=True,
                    field=field_name,
                    data=suggestion(value, FIELD_TYPES),
                )
            )
        elif error.get("type") == "extra_forbidden":
            problems.append(
                Problem(
                    "FS008",
                    f"field {key!r} has unknown key {sub!r}; a declaration takes "
                    + ", ".join(DECLARATION_KEYS)
                    + hint(sub, DECLARATION_KEYS),
                    path=(*where, sub),
                    on_key=True,
                    rejects=True,
                    field=field_name,
                    data=suggestion(sub, DECLARATION_KEYS),
                )
            )
        elif sub is not None and sub != "name":
            problems.append(
                Problem(
                    "FS020",
                    f"field {key!r}: {sub} {declaration.get(sub)!r} is invalid ({_reason(error)})",
                    path=(*where, sub),
                    rejects=True,
                    field=field_name,
                )
            )
    # The default is checked after the fields, by the model validator; report it when we can.
    default = declaration.get("default")
    declared_type = declaration.get("type", "str")
    if (
        type_ok
        and default is not None
        and isinstance(declared_type, str)
        and declared_type in FIELD_TYPES
        and not default_fits(declared_type, default)
    ):
        problems.append(_default_problem(key, declared_type, default))


def _default_problem(key: Any, declared_type: str, default: Any) -> Problem:
    return Problem(
        "FS011",
        f"field {key!r} has default {default!r} ({type_label(default)}), which is not "
        f"{'an' if declared_type == 'int' else 'a'} {declared_type}; defaults are checked as they "
        "are, never coerced",
        path=("fields", key, "default"),
        rejects=True,
        field=key if isinstance(key, str) else None,
    )


def _reason(error: Any) -> str:
    message = str(error.get("msg", "invalid"))
    return message[:1].lower() + message[1:]
