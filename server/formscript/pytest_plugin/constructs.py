"""What formscript predicts for lionagi's work-form building blocks called in a test:
``FieldSpec(...)``, ``WorkForm(...)``, ``Rule(...)``, ``RuleSet.add(rule)`` and
``RuleSet.apply_all(form)``, from the same arguments the test passed.

An outcome is ``("returns", what)`` or ``("raises", exception type, message)``. What a
constructor returns is shown as its fields, those lionagi draws anew for each instance (``id``,
``created_at``) aside; a refusal by its message, which formscript knows to the character
(``lint.raised``: pydantic writes it from formscript's models of the same names), without
pydantic's closing "For further information" lines. None means formscript makes no claim: an
argument only the test's code can answer for (a custom check's callable, a subclass, a value
that is not plain data).
"""

from __future__ import annotations

import ast
import re
from typing import Any

from formscript.pytest_plugin.checks import is_plain

__all__ = [
    "Outcome",
    "Repro",
    "call_repro",
    "decidable_rules",
    "observed",
    "observed_failures",
    "predict_add",
    "predict_apply_all",
    "predict_model",
    "rules_repro",
    "said",
    "spec_file_repro",
    "spec_repro",
    "yaml_text",
]

Outcome = tuple[str, ...]
#: A drift's repro bundle: its files (name -> text) and the command that replays formscript's side.
Repro = tuple[dict[str, str], str]

#: Fields lionagi draws anew for every instance; formscript's model draws its own.
_DRAWN = frozenset({"id", "created_at"})
#: Values read without running anything of the test's (attribute access on them is Python's).
_PLAIN = (str, int, float, bool, type(None), bytes, list, tuple, dict, set, frozenset)
#: A rule's fields, as a ruleset file lists them.
_RULE_KEYS = ("rule_id", "field", "check", "params", "message", "enabled")


def predict_model(api: str, kwargs: dict[str, Any], fields: Any) -> Outcome | None:
    """``FieldSpec(**kwargs)``, ``WorkForm(**kwargs)`` or ``Rule(**kwargs)`` as formscript's model
    of it builds or refuses it; *fields* are lionagi's model's fields (what is compared)."""
    from pydantic import BaseModel, ValidationError

    from formscript.core import forms, rules
    from formscript.lint.raised import fieldspec_refusal, model_refusal

    model: type[BaseModel] = getattr(rules if api == "Rule" else forms, api)
    given = {key: _given(value) for key, value in kwargs.items()}
    try:
        built = model.model_validate(given)
    except ValidationError:
        text = fieldspec_refusal(given) if api == "FieldSpec" else model_refusal(model, given, api)
        return None if text is None else ("raises", "ValidationError", _without_links(text))
    return ("returns", repr(_data(built, fields)))


def predict_add(existing: list[Any], rule: Any, rule_class: type[Any]) -> Outcome | None:
    """``RuleSet.add(rule)`` on a set holding *existing*: lionagi compares the rule_id with each
    rule it holds (a value that is no Rule then has none to read), then appends."""
    if not existing:
        return ("returns", "the rule added")
    if isinstance(rule, rule_class) and type(rule) is rule_class:
        if any(held.rule_id == rule.rule_id for held in existing):
            from formscript.lint.raised import repeated_rule_id

            return ("raises", "ValueError", repeated_rule_id(rule.rule_id))
        return ("returns", "the rule added")
    if type(rule) in _PLAIN:
        try:
            getattr(rule, "rule_id")  # noqa: B009 - the very access lionagi makes, for its message
        except AttributeError as exc:
            return ("raises", "AttributeError", str(exc))
    return None


def predict_apply_all(held: list[Any], form: Any) -> Outcome | None:
    """``RuleSet.apply_all(form)``: the message of each enabled rule that fails, in order."""
    values = getattr(form, "values", None)
    ruleset = decidable_rules(held) if isinstance(values, dict) else None
    if ruleset is None:
        return None
    messages = {rule.rule_id: rule.message for rule in held}
    said_by: list[str] = []
    for failure in ruleset.failures(form):
        own = messages.get(failure.rule_id)
        if own and failure.kind not in _RULE_FAULTS:
            said_by.append(_said_by(own))  # the rule's own message, as lionagi returns it
        elif failure.kind in _RULE_FAULTS:
            said_by.append(f"rule {failure.rule_id!r}")
        else:
            said_by.append(f"field {failure.field!r}")
    return ("returns", _failures(said_by))


def decidable_rules(rules: list[Any]) -> Any | None:
    """formscript's rule set of lionagi's *rules*, or None where formscript makes no claim (a
    custom check, a rule its model does not build)."""
    from formscript.core.constructors import build_rules

    listed = [{key: getattr(rule, key) for key in _RULE_KEYS} for rule in rules]
    if any(item["check"] == "custom" for item in listed):
        return None  # a callable of the test's decides
    problems: list[Any] = []
    ruleset, undecidable = build_rules(listed, problems)
    return None if undecidable or problems else ruleset


def observed_failures(result: Any, exc: BaseException | None) -> Outcome:
    """What ``apply_all`` returned, as :func:`predict_apply_all` shows it: whom each message
    is about (lionagi's ``Field 'x' ...`` / ``Rule 'r' ...``, or a rule's own message)."""
    if exc is not None or not isinstance(result, list):
        return observed(result, exc)
    return ("returns", _failures([_said_by(str(message)) for message in result]))


#: Failures lionagi words about the rule itself (``Rule 'r': ...``), whatever its message says.
_RULE_FAULTS = frozenset({"unknown_type", "invalid_regex", "no_callable", "raised"})
#: The start of lionagi's own failure messages: whom the message is about.
_ABOUT = re.compile(r"(Field|Rule) ('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")")


def _said_by(message: str) -> str:
    """Whom a failure message is about (``field 'age'``, ``rule 'r1'``), else the message."""
    found = _ABOUT.match(message)
    if found is None:
        return repr(message)
    try:
        return f"{found.group(1).lower()} {ast.literal_eval(found.group(2))!r}"
    except (ValueError, SyntaxError):
        return repr(message)


def _failures(said_by: list[str]) -> str:
    return f"failures on {', '.join(said_by)}" if said_by else "no failures"


def observed(result: Any, exc: BaseException | None, fields: Any = None) -> Outcome:
    """What lionagi did: *result* shown as :func:`predict_model` shows a built model (or as
    itself), or the exception *exc*."""
    if exc is not None:
        return ("raises", type(exc).__name__, _without_links(str(exc)))
    if fields is not None:
        return ("returns", repr(_data(result, fields)))
    return ("returns", repr(result))


def said(outcome: Outcome, other: Outcome) -> str:
    """An outcome in words, for the drift line: of an exception's message, its first line, or
    the first line where it differs from *other*'s."""
    if outcome[0] == "raises":
        lines = outcome[2].splitlines()
        shown = lines[0] if lines else ""
        if other[0] == "raises":
            theirs = other[2].splitlines()
            shown = next((mine for mine, its in zip(lines, theirs, strict=False) if mine != its), shown)
        return f"raises {outcome[1]}" + (f" ({_short(shown.strip())})" if shown else "")
    return f"returns {_short(outcome[1])}"


def _given(value: Any) -> Any:
    """An argument as formscript's models take it: one of lionagi's models (a FieldSpec in a
    WorkForm's fields) as the mapping of its fields."""
    fields = getattr(type(value), "model_fields", None)
    if isinstance(fields, dict) and type(value).__module__.startswith("lionagi."):
        return {name: getattr(value, name) for name in fields}
    if type(value) is dict:
        return {key: _given(item) for key, item in value.items()}
    return value


def _data(value: Any, fields: Any = None) -> Any:
    """A model as the plain data of its fields (*fields*, else its own; drawn ones aside), all
    the way down, so lionagi's and formscript's models of a thing compare equal."""
    own = getattr(type(value), "model_fields", None)
    if isinstance(own, dict):
        names = [name for name in (fields if fields is not None else own) if name not in _DRAWN]
        return {name: _data(getattr(value, name, None)) for name in names}
    if type(value) is dict:
        return {key: _data(item) for key, item in value.items()}
    if type(value) in (list, tuple):
        return type(value)(_data(item) for item in value)
    return value


def _without_links(text: str) -> str:
    """pydantic's message without its "For further information visit ..." lines (they name
    pydantic's version, the same here as lionagi's)."""
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("For further information"))


def _short(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


# -- repro bundles: what formscript replays (``formscript dry-run``, ``formscript lint``)


def spec_repro(title: Any, fields: Any, values: Any, rules: list[Any] | None = None) -> Repro | None:
    """A form spec (``form.yaml``) holding *fields* (lionagi's FieldSpecs) and *values*, with
    the rule set's ``rules.yaml``: ``formscript dry-run`` replays what a fill does with them.
    None when something in them is no plain data a YAML file can hold."""
    declared: dict[str, Any] = {}
    for name, spec in (fields or {}).items():
        item: dict[str, Any] = {"type": getattr(spec, "type", "str"), "required": getattr(spec, "required", True)}
        if getattr(spec, "default", None) is not None:
            item["default"] = spec.default
        if getattr(spec, "description", ""):
            item["description"] = spec.description
        declared[str(name)] = item
    spec_data = {"title": title, "fields": declared, "values": dict(values or {})}
    listed = [{key: getattr(rule, key) for key in _RULE_KEYS} for rule in rules or []]
    if not is_plain(spec_data) or not is_plain(listed):
        return None
    files = {"form.yaml": yaml_text(spec_data)}
    if not listed:
        return files, "formscript dry-run form.yaml"
    files["rules.yaml"] = yaml_text({"rules": listed})
    return files, "formscript dry-run form.yaml --rules rules.yaml"


def rules_repro(rules: list[Any]) -> Repro | None:
    """The rules a set would hold, as a ruleset file ``formscript lint`` checks."""
    listed = [{key: getattr(rule, key, None) for key in _RULE_KEYS} for rule in rules]
    if not is_plain(listed):
        return None
    return {"rules.yaml": yaml_text({"rules": listed})}, "formscript lint rules.yaml"


def call_repro(api: str, kwargs: dict[str, Any]) -> Repro | None:
    """The call written out (``repro.py``) when each argument is a literal Python reads back:
    ``formscript lint repro.py`` gives its verdict, and the message of its refusal."""
    words = []
    for key, value in kwargs.items():
        written = repr(_given(value))
        try:
            if ast.literal_eval(written) != _given(value):
                return None
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            return None
        words.append(f"{key}={written}")
    module = "lionagi.work.rules" if api == "Rule" else "lionagi.work.form"
    text = f"from {module} import {api}\n\n{api}({', '.join(words)})\n"
    return {"repro.py": text}, "formscript lint repro.py"


def spec_file_repro(spec: Any) -> Repro | None:
    """The spec li agent --form was given, as the file ``formscript dry-run`` replays."""
    return ({"form.yaml": yaml_text(spec)}, "formscript dry-run form.yaml") if is_plain(spec) else None


def yaml_text(data: Any) -> str:
    """*data* as a YAML file of a bundle (keys in their order, text as written)."""
    import yaml

    return str(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
