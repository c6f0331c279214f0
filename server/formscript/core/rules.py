"""Declarative rules over a work form (ADR-0052 D2): required, type, range, pattern, custom."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

from formscript.core.fields import PYTHON_TYPES, HasValues
from formscript.core.printable import type_label
from formscript.core.regex_risk import compile_user_regex
from formscript.core.verdict import Failure

CheckKind = Literal["required", "type", "range", "pattern", "custom"]
CHECK_KINDS: tuple[str, ...] = get_args(CheckKind)

#: Longest value a pattern rule will search; longer values fail before the regex compiles.
PATTERN_INPUT_CAP = 4096


class Rule(BaseModel):
    """One check on one field."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    rule_id: str
    field: str
    check: CheckKind
    params: dict[str, Any] = Field(default_factory=dict)
    message: str | None = None
    enabled: bool = True

    def apply(self, form: HasValues) -> str | None:
        """The error message for *form*, or None when the rule passes or is disabled."""
        failure = self.failure(form)
        return None if failure is None else failure.message

    def failure(self, form: HasValues) -> Failure | None:
        """The structured failure for *form*, or None."""
        if not self.enabled:
            return None
        value = form.values.get(self.field)
        outcome = _CHECKS[self.check](self, value)
        if outcome is None:
            return None
        kind, message = outcome
        return Failure("rule", kind, self.field, rule_id=self.rule_id, message=message)

    def _own(self, text: str) -> str:
        return self.message or text


def _check_required(rule: Rule, value: Any) -> tuple[str, str] | None:
    if value is None:
        return "required", rule._own(f"field {rule.field!r} is required but has no value")
    return None


def _check_type(rule: Rule, value: Any) -> tuple[str, str] | None:
    if value is None:
        return None
    expected = rule.params.get("type", "str")
    # A plain lookup, as the runtime does: an unhashable type name raises TypeError.
    target = PYTHON_TYPES.get(expected)
    if target is None:
        return "unknown_type", f"rule {rule.rule_id!r} names an unknown type {expected!r}"
    if expected == "float" and isinstance(value, int):
        return None
    if not isinstance(value, target):
        return "type", rule._own(f"field {rule.field!r} should be {expected}, found {type_label(value)}")
    return None


def _check_range(rule: Rule, value: Any) -> tuple[str, str] | None:
    if value is None:
        return None
    if not isinstance(value, int | float):
        return "not_numeric", rule._own(
            f"field {rule.field!r} needs a number for a range check, found {type_label(value)}"
        )
    low = rule.params.get("min")
    high = rule.params.get("max")
    if low is not None and value < low:
        return "below_min", rule._own(f"field {rule.field!r} is {value}, below the minimum {low}")
    if high is not None and value > high:
        return "above_max", rule._own(f"field {rule.field!r} is {value}, above the maximum {high}")
    return None


def _check_pattern(rule: Rule, value: Any) -> tuple[str, str] | None:
    if value is None:
        return None
    if not isinstance(value, str):
        return "not_str", rule._own(
            f"field {rule.field!r} needs a string for a pattern check, found {type_label(value)}"
        )
    if len(value) > PATTERN_INPUT_CAP:
        return "too_long", rule._own(
            f"field {rule.field!r} is {len(value)} characters long; pattern checks stop at {PATTERN_INPUT_CAP}"
        )
    pattern = rule.params.get("pattern", "")
    flags = int(rule.params.get("flags", 0))
    # As the runtime's re.compile + re.search, raising what they raise, but silent: re.DEBUG
    # (flags 128) would print the parsed pattern into our output.
    try:
        compiled = compile_user_regex(pattern, flags)
    except re.error as exc:
        return "invalid_regex", f"rule {rule.rule_id!r} has an invalid pattern: {exc}"
    if not compiled.search(value):
        return "no_match", rule._own(f"field {rule.field!r} value {value!r} does not match pattern {pattern!r}")
    return None


def _check_custom(rule: Rule, value: Any) -> tuple[str, str] | None:
    check: Callable[[Any], bool] | None = rule.params.get("callable")
    if check is None:
        return "no_callable", f"rule {rule.rule_id!r} is a custom check without params['callable']"
    try:
        passed = check(value)
    except Exception as exc:
        return "raised", f"rule {rule.rule_id!r} raised {type(exc).__name__}: {exc}"
    if not passed:
        fallback = rule.params.get("error") or f"field {rule.field!r} failed check {rule.rule_id!r}"
        return "failed", rule.message or fallback
    return None


_CHECKS: dict[str, Callable[[Rule, Any], tuple[str, str] | None]] = {
    "required": _check_required,
    "type": _check_type,
    "range": _check_range,
    "pattern": _check_pattern,
    "custom": _check_custom,
}


class RuleSet:
    """Rules in insertion order; every enabled rule runs, none short-circuits."""

    def __init__(self) -> None:
        self._rules: list[Rule] = []

    def add(self, rule: Rule) -> RuleSet:
        """Append *rule*; ValueError when its rule_id is taken."""
        if any(existing.rule_id == rule.rule_id for existing in self._rules):
            raise ValueError(f"rule_id {rule.rule_id!r} is already in this ruleset")
        self._rules.append(rule)
        return self

    def remove(self, rule_id: str) -> bool:
        """Drop the rule with *rule_id*; whether one was removed."""
        before = len(self._rules)
        self._rules = [r for r in self._rules if r.rule_id != rule_id]
        return len(self._rules) < before

    def get(self, rule_id: str) -> Rule | None:
        """The rule with *rule_id*, or None."""
        return next((r for r in self._rules if r.rule_id == rule_id), None)

    def rules(self) -> list[Rule]:
        """A shallow copy of the rules."""
        return list(self._rules)

    def failures(self, form: HasValues) -> list[Failure]:
        """Structured failures of every enabled rule, in order."""
        found = (rule.failure(form) for rule in self._rules)
        return [f for f in found if f is not None]

    def apply_all(self, form: HasValues) -> list[str]:
        """Messages of every failing rule, in order."""
        return [f.message for f in self.failures(form)]
