"""The message of the exception lionagi raises for a document, where it is certain.

A test that expects a refusal often also names part of its message
(``pytest.raises(ValidationError, match="Input should be")``, ``assertRaisesRegex``); the
test fails when the pattern is not found in ``str(exception)``. :func:`message` gives that
text for the refusals whose every character formscript knows:

- pydantic's ``ValidationError`` of the models lionagi validates (a script's entries and
  header, the entry models built directly, ``WhenMatcher``, ``FieldSpec``, ``WorkForm``,
  ``Rule``): formscript's own models of them have the same names, fields and order, so
  pydantic writes the same text; lionagi's own refusals inside them (an unknown response
  type, a field name that is no identifier, a default of another type) carry lionagi's
  wording, which is the one thing a pattern is matched against and so is written here as
  lionagi 0.36.0 writes it (tests/conformance holds each to the installed lionagi);
- ``ScriptModel.coerce``'s ``TypeError`` for a value it cannot read, and a rule set's
  ``ValueError`` for a repeated rule id;
- Python's own ``TypeError`` / ``AttributeError`` where lionagi does a built-in operation on
  a literal value of the test (iterating a number, ``name in None``, ``"r2".rule_id``): the
  operation is done on that value here, so the text is the running Python's.

Anything else (a part known only at run time, a written file) gives None: the pattern is
then not judged. The text follows the pydantic formscript runs with;
its last line names pydantic's version, which may differ from the test's environment.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from formscript import rules
from formscript.core.entries import RESPONSE_TYPES
from formscript.core.verdict import Verdict

if TYPE_CHECKING:
    from pydantic import BaseModel

    from formscript.document.pyextract import Embedded
    from formscript.lint.report import FileReport

__all__ = ["fieldspec_refusal", "message", "model_refusal", "refused_first", "repeated_rule_id"]

#: The calls that hand their argument to ``ScriptModel.coerce``.
_COERCING = frozenset({"ScriptModel.coerce", "scripted_imodel", "TestBranch.from_script", "iModel"})


def message(embedded: Embedded, report: FileReport, reports: dict[int, FileReport | None]) -> str | None:
    """``str()`` of what lionagi raises for the rejected document of *embedded*; None when
    it is not known to the character."""
    try:
        return _message(embedded, report, reports, set())
    except Exception:  # a value the models cannot even hold: nothing is claimed
        return None


def _message(
    embedded: Embedded, report: FileReport, reports: dict[int, FileReport | None], seen: set[int]
) -> str | None:
    if id(embedded) in seen:
        return None
    seen.add(id(embedded))
    if embedded.problems:
        return _call_refused(embedded, report)
    first = refused_first(embedded, reports)
    if first is not None:
        return _message(*first, reports, seen)
    root = embedded.root
    if root is None or any(node.kind == "opaque" for _, _, node in root.walk()):
        return None
    value = root.materialize()
    semantic = embedded.semantic
    if semantic == "fill_form":
        return _not_a_mapping(value)
    if semantic == "script":
        return _script(value)
    if semantic == "entry":
        return _entry(embedded, value)
    if semantic == "fieldspec":
        return _fieldspec(embedded, value)
    if semantic == "workform":
        from formscript.core.forms import WorkForm

        return model_refusal(WorkForm, value, "WorkForm")
    if semantic == "rule":
        from formscript.core.rules import Rule

        listed = _listed(value, "rules")
        return model_refusal(Rule, listed[0], "Rule") if len(listed) == 1 else None
    if semantic == "ruleset":
        codes = {d.code for d in report.diagnostics}
        if rules.RS009.code in codes and rules.RS011.code not in codes:
            return _repeated_rule_id(value)
        if rules.RS011.code in codes and rules.RS009.code not in codes and embedded.api == "RuleSet().add":
            return _not_a_rule(value)
    return None


def refused_first(embedded: Embedded, reports: dict[int, FileReport | None]) -> tuple[Embedded, FileReport] | None:
    """The document lionagi builds, and refuses, before it gets to *embedded*'s own: the first
    call written inside it that is rejected, else (fill_form / validate_form) the rejected
    form it is given; None when there is none."""
    candidates = sorted((child for _, child in embedded.children), key=lambda c: (c.call_span.start, c.call_span.end))
    if embedded.semantic in ("fill_form", "validate_form") and embedded.source is not None:
        candidates.append(embedded.source)
    for candidate in candidates:
        report = reports.get(id(candidate))
        if report is not None and report.verdict is Verdict.REJECTED:
            return candidate, report
    return None


# ----------------------------------------------------------------------------- lionagi's texts


def _call_refused(embedded: Embedded, report: FileReport) -> str | None:
    """What a call raises for a value it cannot read at all (the value read where the
    finding sits: at the call, or where the name it passes is bound): ``ScriptModel.coerce``'s
    TypeError for one that is no path, mapping or list; ``TestBranch.from_text``'s iteration
    of one that is not text."""
    from formscript.document.python import PyDocument

    refused = next((p for p in embedded.problems if p.rule is rules.PY002), None)
    document = report.document
    if refused is None or refused.span is None or not isinstance(document, PyDocument):
        return None
    try:
        given = ast.literal_eval(document.source.source(refused.span))
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    if embedded.api == "TestBranch.from_text":
        return _python_says(lambda: iter(given))
    if embedded.api not in _COERCING or isinstance(given, str | list | dict):
        return None
    return f"cannot coerce {type(given).__name__} to ScriptModel; pass a path, dict, list, or ScriptModel instance"


def _python_says(operation: Any) -> str | None:
    """The message of the TypeError or AttributeError Python raises for *operation* (on a
    literal value: a built-in operation, nothing of the user's runs), as the Python
    formscript runs on words it."""
    try:
        operation()
    except (TypeError, AttributeError) as exc:
        return str(exc)
    return None


def _not_a_mapping(value: Any) -> str | None:
    """fill_form's values that are no mapping: ``name in values`` for each declared field,
    then ``values.items()``."""
    if not isinstance(value, dict):
        return None
    fields, given = value.get("fields"), value.get("values")
    if isinstance(given, dict) or not isinstance(fields, dict) or "values" not in value:
        return None
    given_value: Any = given
    for name in fields:
        said = _python_says(lambda name=name: name in given_value)
        if said is not None:
            return said
    return _python_says(lambda: given_value.items())


def _not_a_rule(value: Any) -> str | None:
    """``RuleSet.add(x)`` reads ``x.rule_id``: the first value added that is no Rule."""
    for rule in _listed(value, "rules"):
        if not isinstance(rule, dict):
            return _python_says(lambda rule=rule: rule.rule_id)
    return None


def _unknown_type(kind: Any) -> str:
    return f"unknown response type {kind!r}; expected one of {sorted(RESPONSE_TYPES)}"


def _bad_field_name(name: str) -> str:
    return (
        f"Field name {name!r} must start with a letter or underscore "
        "and contain only alphanumeric characters and underscores."
    )


def _incompatible_default(name: str, default: Any, kind: str) -> str:
    return f"FieldSpec {name!r}: default {default!r} is not compatible with declared type {kind!r}."


def _repeated_rule_id(value: Any) -> str | None:
    seen: set[Any] = set()
    for rule in _listed(value, "rules"):
        rule_id = rule.get("rule_id") if isinstance(rule, dict) else None
        if rule_id in seen:
            return repeated_rule_id(rule_id)
        seen.add(rule_id)
    return None


def repeated_rule_id(rule_id: Any) -> str:
    """The ValueError ``RuleSet.add`` raises for a rule whose rule_id the set already has."""
    return (
        f"RuleSet already contains a rule with rule_id={rule_id!r}. "
        "Use a unique rule_id or remove the existing rule first."
    )


# ----------------------------------------------------------------------------- pydantic's texts


def _validation_error(title: str, errors: list[dict[str, Any]]) -> str:
    from pydantic_core import ValidationError

    return str(ValidationError.from_exception_data(title, errors))  # type: ignore[arg-type]


def model_refusal(model: type[BaseModel], value: Any, title: str, own: Any = None) -> str | None:
    """The text of the ValidationError *model* (one of formscript's models of lionagi's, of the
    same name) raises for *value*, under *title*; None when it builds or the text is not
    known. A ``value_error``
    (a check of formscript's, worded its own way) is replaced by *own* (its location,
    input) -> lionagi's text, or makes the whole text unknown."""
    from pydantic import ValidationError

    try:
        model.model_validate(value)
    except ValidationError as exc:
        errors: list[dict[str, Any]] = []
        for error in exc.errors():
            line = {"type": error["type"], "loc": error["loc"], "input": error["input"]}
            if "ctx" in error:
                line["ctx"] = error["ctx"]
            if error["type"] == "value_error":
                text = own(tuple(error["loc"]), error["input"]) if own is not None else None
                if text is None:
                    return None
                line["ctx"] = {"error": ValueError(text)}
            errors.append(line)
        return _validation_error(title, errors)
    return None


def _script(value: Any) -> str | None:
    """What ``ScriptModel.model_validate(value)`` says: lionagi builds the entries first,
    one by one, each refusal raised as it comes (the entry's errors under the script's
    title), then validates the header."""
    from formscript.core.script_models import ENTRY_MODELS, ScriptHeader

    if not isinstance(value, dict):
        return None
    for entry in _listed(value, "responses"):
        if not isinstance(entry, dict):
            return None  # the union's errors for a value that is no mapping: not modelled
        kind = entry.get("type")
        try:
            known = kind in ENTRY_MODELS
        except TypeError:
            return None  # lionagi's own lookup of the type raises TypeError (unhashable)
        if not isinstance(kind, str) or not known:
            unknown = ValueError(_unknown_type(kind))
            error = {"type": "value_error", "loc": (), "input": value, "ctx": {"error": unknown}}
            return _validation_error("ScriptModel", [error])
        text = model_refusal(ENTRY_MODELS[kind], entry, "ScriptModel")
        if text is not None:
            return text
    return model_refusal(ScriptHeader, value, "ScriptModel")


def _entry(embedded: Embedded, value: Any) -> str | None:
    """An entry model (or its ``when:`` matcher) built directly: the call's keywords, in the
    order written, are what the model is given."""
    from formscript.core import script_models

    model = getattr(script_models, embedded.api.rpartition(".")[2], None)
    if model is None or embedded.node.args:
        return None
    at: Any = value
    for part in embedded.scope:
        at = at[part]
    given = _as_written(embedded, at) if isinstance(at, dict) else None
    return model_refusal(model, given, model.__name__) if given is not None else None


def _fieldspec(embedded: Embedded, value: Any) -> str | None:
    """``FieldSpec(...)``: its keywords in the order written; its own check worded as
    lionagi words it (the name first, then the default)."""
    fields = value.get("fields") if isinstance(value, dict) else None
    if not (isinstance(fields, dict) and len(fields) == 1) or embedded.node.args:
        return None
    ((name, declared),) = fields.items()
    if not isinstance(declared, dict):
        return None
    given = _as_written(embedded, {"name": name, **declared})
    return fieldspec_refusal(given, name) if given is not None else None


def _as_written(embedded: Embedded, known: dict[Any, Any]) -> dict[str, Any] | None:
    """The keyword arguments of *embedded*'s call, in the order written, with their values
    in *known*; None when one of them is not there (or is a ``**``)."""
    keywords = embedded.node.keywords
    given = {k.arg: known[k.arg] for k in keywords if k.arg is not None and k.arg in known}
    return given if len(given) == len(keywords) else None


def _listed(value: Any, key: str) -> list[Any]:
    """``value[key]`` when *value* is a mapping and that is a list, else an empty list."""
    listed = value.get(key) if isinstance(value, dict) else None
    return listed if isinstance(listed, list) else []


def fieldspec_refusal(given: dict[str, Any], name: Any = None) -> str | None:
    """``str()`` of the ValidationError ``FieldSpec(**given)`` raises, its own check worded as
    lionagi words it (the name first, then the default); None when it builds or the text is
    not known. *name* is the field's name where the document gives it apart from *given*."""
    from formscript.core.fields import FIELD_NAME_RE
    from formscript.core.forms import FieldSpec

    name = given.get("name") if name is None else name

    def own(loc: tuple[Any, ...], _input: Any) -> str | None:
        if loc or not isinstance(name, str):
            return None
        if not FIELD_NAME_RE.match(name):
            return _bad_field_name(name)
        return _incompatible_default(name, given.get("default"), str(given.get("type", "str")))

    return model_refusal(FieldSpec, given, "FieldSpec", own)
