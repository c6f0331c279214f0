"""Ruleset checks beyond the runtime's own verdict (form checks live in
``form_checks`` and script checks in ``script_checks``, which stay light; loading a ruleset
is the core's, ``core.rulesets``).

Each check yields core Problems keyed by document paths; the engine turns paths into ranges.
A fix is described in ``Problem.fix`` as an operation on a path, so checks never handle
text offsets themselves.
"""

from __future__ import annotations

from typing import Any

from formscript import rules
from formscript.core.fields import FIELD_TYPES, Declared
from formscript.core.regex_risk import COMPILE_ERRORS, backtracking_risk, compile_user_regex
from formscript.core.rules import PATTERN_INPUT_CAP, Rule
from formscript.core.suggest import closest
from formscript.core.verdict import Problem

# ---------------------------------------------------------------------------- rulesets


def ruleset_checks(built: list[tuple[int, Rule]]) -> list[Problem]:
    """Checks of each built rule on its own: ranges no value passes, patterns that do not
    compile or backtrack, unknown type names, enabled custom checks (they always fail)."""
    return [problem for index, rule in built for problem in _rule_checks(index, rule)]


def _rule_checks(index: int, rule: Rule) -> list[Problem]:
    where = ("rules", index)
    params = rule.params
    found: list[Problem] = []
    if rule.check == "range":
        low, high = params.get("min"), params.get("max")
        numeric = (int, float)
        if isinstance(low, numeric) and isinstance(high, numeric) and low > high:
            found.append(rules.RS003.problem(path=(*where, "params"), rule_id=rule.rule_id, low=low, high=high))
    elif rule.check == "pattern":
        pattern = params.get("pattern", "")
        try:
            flags = int(params.get("flags", 0))
            compile_user_regex(pattern, flags)
        except COMPILE_ERRORS as exc:
            found.append(rules.RS006.problem(path=(*where, "params"), rule_id=rule.rule_id, pattern=pattern, error=exc))
        else:
            risk = backtracking_risk(pattern, flags)
            if risk:
                found.append(
                    rules.RS012.problem(path=(*where, "params"), rule_id=rule.rule_id, pattern=pattern, risk=risk)
                )
    elif rule.check == "type":
        expected = params.get("type", "str")
        if not isinstance(expected, str) or expected not in FIELD_TYPES:
            found.append(
                rules.RS014.problem(
                    path=(*where, "params"),
                    rule_id=rule.rule_id,
                    given=expected,
                    suggestion=closest(expected, FIELD_TYPES),
                )
            )
    elif rule.check == "custom" and rule.enabled:
        found.append(rules.RS010.problem(path=(*where, "check"), rule_id=rule.rule_id))
    return found


def paired_rule_checks(
    built: list[tuple[int, Rule]], fields: dict[Any, Declared], values: dict[Any, Any]
) -> list[Problem]:
    """Checks of rules against the declarations and values of a paired form."""
    found: list[Problem] = []
    for index, rule in built:
        where = ("rules", index)
        spec = fields.get(rule.field)
        if spec is None:
            declared = [k for k in fields if isinstance(k, str)]
            found.append(
                rules.RS002.problem(
                    path=(*where, "field"),
                    rule_id=rule.rule_id,
                    field=rule.field,
                    suggestion=closest(rule.field, declared),
                )
            )
            continue
        if rule.check == "range" and spec.type in ("str", "list", "dict"):
            found.append(
                rules.RS004.problem(path=(*where, "check"), rule_id=rule.rule_id, field=rule.field, declared=spec.type)
            )
        if rule.check == "pattern" and spec.type != "str":
            found.append(
                rules.RS007.problem(path=(*where, "check"), rule_id=rule.rule_id, field=rule.field, declared=spec.type)
            )
        if rule.check == "type":
            expected = rule.params.get("type", "str")
            if expected in FIELD_TYPES and expected != spec.type and not (expected == "float" and spec.type == "int"):
                found.append(
                    rules.RS005.problem(
                        path=(*where, "params"),
                        rule_id=rule.rule_id,
                        expected=expected,
                        field=rule.field,
                        declared=spec.type,
                    )
                )
        value = values.get(rule.field)
        if rule.check == "pattern" and isinstance(value, str) and len(value) > PATTERN_INPUT_CAP:
            found.append(
                rules.RS008.problem(
                    path=(*where, "field"),
                    rule_id=rule.rule_id,
                    field=rule.field,
                    length=len(value),
                    cap=PATTERN_INPUT_CAP,
                )
            )
    return found
