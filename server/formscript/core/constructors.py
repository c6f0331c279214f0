"""lionagi's work-form API called from Python: what ``WorkForm(...)`` refuses, and what
``fill_form`` / ``validate_form`` make of a built form, as pure functions of the values.

The ``--form`` gate (``core.gate``) reads a spec file; here the values are what a Python call
passes (lionagi 0.36.0, ``lionagi/work/form.py``): ``WorkForm`` validates its arguments as a
pydantic model (fields as ``FieldSpec`` instances or mappings with a ``name``, string keys,
a known status) and checks nothing against the declarations; ``fill_form`` merges values
(declared first, then defaults, then extras, which pass through) and validates;
``validate_form`` validates the form's values as they are (no defaults). Neither raises: a
failing form comes back with ``status == "error"``, which is what ``rejected`` means here.
Problems carry key paths in the shapes the Python documents use: ``WorkForm``'s keyword
arguments, and ``{"fields", "values", "ruleset"}`` for a filled form.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from formscript import rules
from formscript.core.declarations import _build_declaration, workform_key
from formscript.core.fields import (
    RUNTIME_WORKFORM_CLASS,
    Declared,
    FillCrash,
    ValuesView,
    as_text,
    check_values,
    merge_values,
    plain_field,
)
from formscript.core.gate import failure_problems, value_path
from formscript.core.verdict import Failure, reason_of

if TYPE_CHECKING:
    from formscript.core.rules import Rule, RuleSet
    from formscript.core.verdict import KeyPath, Problem


def check_work_form(arguments: dict[Any, Any], built: Collection[Any] = ()) -> list[Problem]:
    """What ``WorkForm(**arguments)`` refuses. *built* are the keys of ``fields`` given as
    ``FieldSpec(...)`` calls, which their own call checks."""
    problems: list[Problem] = []
    plain = {k: v for k, v in arguments.items() if k != "fields"}
    _check_arguments(plain, problems)
    if "fields" in arguments:
        fields = arguments["fields"]
        if not isinstance(fields, dict):
            problems.append(rules.FS003.problem(path=("fields",), section="fields", found=fields))
        else:
            for key, declaration in fields.items():
                where = ("fields", key)
                if as_text(key) is None:  # a pydantic str key: text, or bytes that are UTF-8
                    problems.append(_invalid(where, f"fields key {key!r}", "input should be a string"))
                if key in built:
                    continue
                _check_field(key, declaration, problems)
    return problems


def _check_arguments(plain: dict[Any, Any], problems: list[Problem]) -> None:
    from pydantic import ValidationError

    model = _arguments_model()
    try:
        model.model_validate(plain)
    except ValidationError as exc:
        for error in exc.errors():
            loc = tuple(error["loc"])
            head = loc[0] if loc else None
            reason = reason_of(str(error.get("msg", "invalid")))
            if head == "title" and len(loc) == 1:
                problems.append(rules.FS019.problem(path=("title",), title=plain.get("title")))
            elif head == "values" and len(loc) == 1:
                problems.append(rules.FS003.problem(path=("values",), section="values", found=plain.get("values")))
            elif head == "values":
                key = loc[1]
                problems.append(_invalid(("values", key), f"values key {key!r}", reason))
            elif error["type"] == "extra_forbidden":
                problems.append(_invalid((head,), f"{head}=", "WorkForm takes no such argument"))
            else:
                where = ".".join(map(str, loc)) or "its arguments"
                problems.append(_invalid(loc[:1], where, reason))


@cache
def _arguments_model() -> Any:
    """A pydantic model of WorkForm's arguments other than ``fields`` (built once)."""
    from typing import ClassVar

    from pydantic import Field

    from formscript.core.forms import FormStatus, _ElementBase

    class WorkFormArguments(_ElementBase):
        RUNTIME_CLASS: ClassVar[str] = RUNTIME_WORKFORM_CLASS

        title: str = ""
        values: dict[str, Any] = Field(default_factory=dict)
        status: FormStatus = "draft"
        validation_errors: list[str] = Field(default_factory=list)

    return WorkFormArguments


def _invalid(path: KeyPath, where: str, reason: str) -> Problem:
    """``WorkForm(...)`` refusing its argument *where* (at *path*) for *reason*."""
    return rules.PY002.invalid(path=path, call="WorkForm", where=where, reason=reason)


def _check_field(key: Any, declaration: Any, problems: list[Problem]) -> None:
    """A ``fields`` member given as a mapping: validated as ``FieldSpec(**declaration)``."""
    where = ("fields", key)
    if not isinstance(declaration, dict):
        reason = "input should be a FieldSpec or a mapping of its arguments"
        problems.append(_invalid(where, f"fields[{key!r}]", reason))
        return
    if "name" not in declaration:
        problems.append(rules.PY002.missing(call=f"the FieldSpec of fields[{key!r}]", argument="name", path=where))
        return
    name = declaration["name"]
    try:
        hash(name)
    except TypeError:
        problems.append(_invalid((*where, "name"), f"fields[{key!r}].name", "not a string"))
        return
    found: list[Problem] = []
    _build_declaration(name, {k: v for k, v in declaration.items() if k != "name"}, found)
    problems.extend(_moved(problem, ("fields", name), where) for problem in found)


def _moved(problem: Problem, old: KeyPath, new: KeyPath) -> Problem:
    """*problem* with its path under *old* moved under *new* (the name itself: to ``name``)."""

    path = tuple(problem.path)
    if path[: len(old)] != tuple(old):
        return problem
    rest = path[len(old) :]
    if not rest:
        return dataclasses.replace(problem, path=(*new, "name"), on_key=False)
    return dataclasses.replace(problem, path=(*new, *rest))


def field_declarations(fields: Any, problems: list[Problem]) -> dict[Any, Declared]:
    """The declarations of a built form's ``fields`` (FieldSpec arguments, ``name`` included),
    by key. A member that is not a mapping is reported as such; one that does not build is left
    out silently: its own call reports it, and the form never gets built."""
    from pydantic import ValidationError

    from formscript.core.forms import FieldSpec

    declared: dict[Any, Declared] = {}
    if not isinstance(fields, dict):
        problems.append(rules.FS003.problem(path=("fields",), section="fields", found=fields))
        return declared
    for key, declaration in fields.items():
        if not isinstance(declaration, dict) or "name" not in declaration:
            problems.append(rules.FS007.problem(path=("fields", key), key=key, found=declaration))
            continue
        rest = {k: v for k, v in declaration.items() if k != "name"}
        fast = plain_field(declaration["name"], rest)
        if fast is not None:
            declared[workform_key(key)] = fast
            continue
        try:
            declared[workform_key(key)] = FieldSpec.model_validate(declaration)
        except (ValidationError, TypeError):
            continue
    return declared


def build_rules(given: Any, problems: list[Problem]) -> tuple[RuleSet | None, bool]:
    """The RuleSet of a ``ruleset=`` given as a list of Rule arguments, and whether a custom
    check makes its outcome undecidable; rules that do not build are left out (their own
    ``Rule(...)`` calls report them)."""
    from pydantic import ValidationError

    from formscript.core.rules import Rule, RuleSet

    if given is None:
        return None, False
    if not isinstance(given, list):
        problems.append(rules.RS011.not_a_ruleset(found=given))
        return None, False
    ruleset = RuleSet()
    undecidable = False
    seen: dict[str, int] = {}
    for index, raw in enumerate(given):
        if not isinstance(raw, dict):
            undecidable = True
            continue
        try:
            rule: Rule = Rule.model_validate(raw)
        except ValidationError:
            continue  # Rule(...) raises before fill_form is called: its own call reports it
        if rule.rule_id in seen:  # RuleSet.add raises ValueError before fill_form is called
            problem = rules.RS009.problem(
                path=("ruleset", index, "rule_id"), rule_id=rule.rule_id, first=seen[rule.rule_id]
            )
            problems.append(problem)
            continue
        seen[rule.rule_id] = index
        if rule.check == "custom" and rule.enabled:
            undecidable = True
            continue
        ruleset.add(rule)
    return ruleset, undecidable


_RAISES = "the call raises"


def _rule_index(given: Any, rule_id: str) -> int:
    """The position in the ``ruleset=`` list of the rule with *rule_id*."""
    if isinstance(given, list):
        for index, raw in enumerate(given):
            if isinstance(raw, dict) and raw.get("rule_id") == rule_id:
                return index
    return 0


@dataclass
class Filled:
    """What ``fill_form`` / ``validate_form`` make of a form: the problems that make its status
    ``error``, the declarations, the values after coercion, the failures, and whether a custom
    rule leaves the outcome open."""

    problems: list[Problem]
    declarations: dict[Any, Declared]
    values: dict[Any, Any] = field(default_factory=dict)
    failures: list[Failure] = field(default_factory=list)
    undecidable: bool = False


def check_filled(document: dict[Any, Any], *, fill: bool) -> Filled:
    """What ``fill_form(form, values)`` (*fill*) or ``validate_form(form)`` does with the
    document ``{"fields": ..., "values": ..., "ruleset": [...]}``."""
    problems: list[Problem] = []
    declared = field_declarations(document.get("fields", {}), problems)
    values = document.get("values", {})
    if not isinstance(values, dict):
        problems.append(rules.FS003.problem(path=("values",), section="values", found=values))
        return Filled(problems, declared)
    ruleset, undecidable = build_rules(document.get("ruleset"), problems)
    merged = merge_values(declared, values) if fill else dict(values)
    given_fields = document.get("fields")
    fields = given_fields if isinstance(given_fields, dict) else {}
    try:
        coerced, failures = check_values(declared, merged)
    except FillCrash as crash:  # fill_form / validate_form raise it: the call never returns
        at = value_path(fields, values, crash.field)
        problems.append(rules.FS025.filling(path=at, field=crash.field, error=crash.error, stops=_RAISES))
        return Filled(problems, declared)
    if ruleset is not None:
        view = ValuesView(coerced)
        for rule in ruleset.rules():
            try:
                failure = rule.failure(view)
            except Exception as exc:  # the rule's own exception: the call raises it
                at = ("ruleset", _rule_index(document.get("ruleset"), rule.rule_id))
                problems.append(rules.RS101.problem(path=at, rule_id=rule.rule_id, error=exc))
                return Filled(problems, declared)
            if failure is not None:
                failures.append(failure)
    problems.extend(failure_problems(failures, fields, values, ("ruleset",)))
    return Filled(problems, declared, coerced, failures, undecidable)
