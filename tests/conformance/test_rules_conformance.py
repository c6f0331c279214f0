"""Rule and RuleSet against lionagi.work's, on seeded rules and values (ADR-0052 D2).

Messages are our own words, so outcomes are compared by kind: pass, fail with the rule's
own message, fail with ``params['error']``, fail with a generated text, or the exception
raised. Which rules fail in ``apply_all`` and how ``fill_form`` folds rule failures in after
the field errors are compared the same way.
"""

from __future__ import annotations

import math
import random
import reprlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from formscript.core import forms as fs_forms
from formscript.core import rules as fs_rules

from .conftest import SEED, Tally
from .engines import lionagi_missing_reason

RULE_CASES = 600


def _positive(v: Any) -> bool:
    return bool(v is not None and v > 0)


def _short(v: Any) -> bool:
    return len(v) < 3


def _divide(v: Any) -> bool:
    return bool(1 / 0)


CALLABLES: dict[str, Callable[[Any], Any]] = {
    "positive": _positive,  # TypeError on text
    "truthy": bool,
    "divide": _divide,  # always raises
    "is_str": lambda v: isinstance(v, str),
    "none": lambda v: None,  # falsy without being False
    "text": lambda v: "ok",  # truthy without being True
    "short": _short,  # TypeError on numbers
}

VALUES: list[Any] = [
    None,
    0,
    5,
    -1,
    3.5,
    True,
    False,
    "abc",
    "7",
    "A" * 5000,
    "A" * 4096,
    [1],
    {"a": 1},
    math.nan,
    math.inf,
    "",
    "ABC",
    "a\nb",
    "b",
]
TYPE_PARAMS: list[Any] = ["str", "int", "float", "bool", "list", "dict", "decimal", 5, None, ["int"], "STR"]
BOUNDS: list[Any] = [None, 0, 1, 5, 2.5, "3", True, -math.inf, math.nan]
PATTERNS: list[Any] = ["^a", "\\d+", "(", "[", 5, "", "(?i)ABC", "b$", "a{2}", "^A+$", None]
FLAGS: list[Any] = [0, 2, "2", "x", None, 2.7, 8]
MESSAGES: list[Any] = [None, None, "custom message", ""]
FIELD_TYPES = ["str", "int", "float", "bool", "list", "dict"]


@dataclass(frozen=True)
class RuleCase:
    """Rules (as keyword data), the values they see, and declarations for fill_form."""

    rules: tuple[dict[str, Any], ...]
    values: dict[str, Any]
    fields: tuple[tuple[str, str, bool], ...]
    removals: tuple[str, ...]


def _params(rng: random.Random, check: str) -> dict[str, Any]:
    params: dict[str, Any] = {}
    if check == "type" and rng.random() < 0.9:
        params["type"] = rng.choice(TYPE_PARAMS)
    elif check == "range":
        for key in ("min", "max"):
            if rng.random() < 0.6:
                params[key] = rng.choice(BOUNDS)
    elif check == "pattern":
        if rng.random() < 0.9:
            params["pattern"] = rng.choice(PATTERNS)
        if rng.random() < 0.3:
            params["flags"] = rng.choice(FLAGS)
    elif check == "custom":
        if rng.random() < 0.9:
            params["callable"] = rng.choice(list(CALLABLES))
        if rng.random() < 0.4:
            params["error"] = rng.choice([None, "", "bad value"])
    return params


def rule_cases(seed: int = SEED, count: int = RULE_CASES) -> list[RuleCase]:
    rng = random.Random(f"rules:{seed}")
    cases = []
    for _ in range(count):
        rules = []
        for _ in range(rng.randint(1, 6)):
            check = rng.choice(["required", "type", "range", "pattern", "custom"] * 4 + ["regex"])
            rules.append(
                {
                    "rule_id": rng.choice(["r1", "r2", "r3", "r4", "r5", "r6", "r7"]),
                    "field": rng.choice(["a", "b", "missing"]),
                    "check": check,
                    "params": _params(rng, check),
                    "message": rng.choice(MESSAGES),
                    "enabled": rng.random() < 0.85,
                }
            )
        values = {name: rng.choice(VALUES) for name in ("a", "b") if rng.random() < 0.85}
        fields = tuple((name, rng.choice(FIELD_TYPES), rng.random() < 0.5) for name in ("a", "b") if rng.random() < 0.5)
        removals = tuple(rng.choice(["r1", "r3", "r9"]) for _ in range(rng.randint(0, 2)))
        cases.append(RuleCase(tuple(rules), values, fields, removals))
    return cases


def _materialize(rule: dict[str, Any]) -> dict[str, Any]:
    params = dict(rule["params"])
    if isinstance(params.get("callable"), str):
        params["callable"] = CALLABLES[params["callable"]]
    return {**rule, "params": params}


class _Side:
    """One implementation's Rule, RuleSet, WorkForm, FieldSpec and fill_form."""

    def __init__(self, rule: Any, ruleset: Any, form: Any, field_spec: Any, fill: Any) -> None:
        self.Rule, self.RuleSet, self.WorkForm, self.FieldSpec = rule, ruleset, form, field_spec
        self.fill_form = fill

    def run(self, case: RuleCase) -> dict[str, Any]:
        out: dict[str, Any] = {"built": [], "added": [], "apply": [], "removed": []}
        ruleset = self.RuleSet()
        for raw in case.rules:
            try:
                rule = self.Rule(**_materialize(raw))
            except Exception as exc:
                out["built"].append(type(exc).__name__)
                continue
            out["built"].append("ok")
            try:
                returned = ruleset.add(rule)
                out["added"].append("self" if returned is ruleset else "other")
            except ValueError:
                out["added"].append("duplicate")
        form = self.WorkForm(values=dict(case.values))
        for rule in ruleset.rules():
            out["apply"].append((rule.rule_id, _classify(rule, form)))
        out["failing_ids"] = [rid for rid, outcome in out["apply"] if outcome[0] == "fail"]
        try:
            out["apply_all"] = len(ruleset.apply_all(form))
        except Exception as exc:
            out["apply_all"] = type(exc).__name__
        if hasattr(ruleset, "failures") and isinstance(out["apply_all"], int):
            # formscript's structured twin of apply_all names the same rules, in order.
            assert [f.rule_id for f in ruleset.failures(form)] == out["failing_ids"]
        copy = ruleset.rules()
        copy.clear()
        out["rules_is_a_copy"] = len(ruleset.rules()) == len(out["apply"])
        out["get"] = [ruleset.get(rid) is not None for rid in ("r1", "r2", "r9")]
        out["removed"] = [ruleset.remove(rid) for rid in case.removals]
        out["left"] = [rule.rule_id for rule in ruleset.rules()]
        out["fill"] = self._fill(case, ruleset)
        return out

    def _fill(self, case: RuleCase, ruleset: Any) -> Any:
        specs = {name: self.FieldSpec(name=name, type=ftype, required=req) for name, ftype, req in case.fields}
        form = self.WorkForm(fields=specs)
        try:
            filled = self.fill_form(form, dict(case.values), ruleset=ruleset)
        except Exception as exc:
            return type(exc).__name__
        fields_only = self.fill_form(form, dict(case.values)).validation_errors
        errors = filled.validation_errors
        return (
            filled.status,
            tuple((k, repr(v)) for k, v in filled.values.items()),
            len(fields_only),
            len(errors),
            errors[: len(fields_only)] == fields_only,  # field errors come first
            form.status,
            dict(form.values),
        )  # the source form is left alone


def _classify(rule: Any, form: Any) -> tuple[str, ...]:
    try:
        result = rule.apply(form)
    except Exception as exc:
        return ("raises", type(exc).__name__)
    if result is None:
        return ("pass",)
    if rule.message and result == rule.message:
        return ("fail", "message")
    error = rule.params.get("error")
    if error and result == error:
        return ("fail", "params.error")
    return ("fail", "own")


def _short_repr(value: Any) -> str:
    shortener = reprlib.Repr()
    shortener.maxstring = shortener.maxother = 80
    shortener.maxlist = shortener.maxtuple = shortener.maxdict = 12
    shortener.maxlevel = 6
    return shortener.repr(value)


def _formscript_side() -> _Side:
    return _Side(fs_rules.Rule, fs_rules.RuleSet, fs_forms.WorkForm, fs_forms.FieldSpec, fs_forms.fill_form)


@pytest.fixture(scope="module")
def lionagi_side() -> _Side:
    reason = lionagi_missing_reason()
    if reason is not None:
        pytest.skip(reason)
    from lionagi.work import FieldSpec, Rule, RuleSet, WorkForm, fill_form

    return _Side(Rule, RuleSet, WorkForm, FieldSpec, fill_form)


CASES = rule_cases()


def test_rule_corpus_is_varied() -> None:
    """The generator reaches every check kind, disabled rules, duplicates and bad params."""
    rules = [rule for case in CASES for rule in case.rules]
    assert {r["check"] for r in rules} == {"required", "type", "range", "pattern", "custom", "regex"}
    assert any(not r["enabled"] for r in rules)
    assert any(r["params"].get("pattern") == "(" for r in rules)
    assert any(len({r["rule_id"] for r in c.rules}) < len(c.rules) for c in CASES)
    assert rule_cases(count=20) == CASES[:20], "the rule corpus must be deterministic"


def test_rules_agree_with_lionagi(lionagi_side: _Side, tally: Tally) -> None:
    ours_side = _formscript_side()
    report = []
    for index, case in enumerate(CASES):
        ours, theirs = ours_side.run(case), lionagi_side.run(case)
        if ours != theirs:
            diff = {k: (ours[k], theirs[k]) for k in ours if ours[k] != theirs[k]}
            report.append(
                f"case {index}: rules={_short_repr(case.rules)} "
                f"values={_short_repr(case.values)}\n  {_short_repr(diff)}"
            )
    tally.add("rules", len(CASES), len(report))
    assert not report, f"{len(report)} of {len(CASES)} rule cases disagree:\n" + "\n".join(report[:5])


# ----------------------------------------------------------------------------- formscript alone


def _one(check: str, value: Any, **params: Any) -> tuple[str, ...]:
    rule = fs_rules.Rule(rule_id="r", field="f", check=check, params=params, message="M")
    return _classify(rule, fs_forms.WorkForm(values={"f": value}))


@pytest.mark.parametrize(
    ("check", "value", "params", "expected"),
    [
        ("required", None, {}, ("fail", "message")),
        ("required", 0, {}, ("pass",)),
        ("type", None, {"type": "int"}, ("pass",)),
        ("type", 3, {"type": "float"}, ("pass",)),
        ("type", True, {"type": "int"}, ("pass",)),
        ("type", "7", {"type": "int"}, ("fail", "message")),
        ("type", 1, {"type": "decimal"}, ("fail", "own")),
        ("type", 1, {"type": ["int"]}, ("raises", "TypeError")),
        ("range", None, {"min": 5}, ("pass",)),
        ("range", 5, {"min": 5, "max": 5}, ("pass",)),
        ("range", True, {"min": 2}, ("fail", "message")),
        ("range", "7", {"min": 0}, ("fail", "message")),
        ("range", 1, {"min": "0"}, ("raises", "TypeError")),
        ("pattern", None, {"pattern": "("}, ("pass",)),
        ("pattern", 5, {"pattern": "x"}, ("fail", "message")),
        ("pattern", "A" * 4097, {"pattern": "("}, ("fail", "message")),
        ("pattern", "A" * 4096, {"pattern": "("}, ("fail", "own")),
        ("pattern", "xab", {"pattern": "ab"}, ("pass",)),
        ("pattern", "ab", {"pattern": "b$", "flags": "2"}, ("pass",)),
        ("pattern", "ab", {"pattern": 5}, ("raises", "TypeError")),
        ("custom", 1, {}, ("fail", "own")),
        ("custom", 1, {"callable": _divide}, ("fail", "own")),
    ],
)
def test_rule_semantics(check: str, value: Any, params: dict[str, Any], expected: tuple[str, ...]) -> None:
    """Each documented rule behaviour, on formscript alone (these hold without lionagi)."""
    assert _one(check, value, **params) == expected


def test_apply_all_never_short_circuits_and_skips_disabled() -> None:
    ruleset = fs_rules.RuleSet()
    ruleset.add(fs_rules.Rule(rule_id="a", field="x", check="required"))
    ruleset.add(fs_rules.Rule(rule_id="b", field="x", check="type", params={"type": "int"}))
    ruleset.add(fs_rules.Rule(rule_id="c", field="y", check="required", enabled=False))
    ruleset.add(fs_rules.Rule(rule_id="d", field="y", check="required"))
    failures = ruleset.failures(fs_forms.WorkForm(values={}))
    assert [f.rule_id for f in failures] == ["a", "d"]
    with pytest.raises(ValueError):
        ruleset.add(fs_rules.Rule(rule_id="a", field="z", check="required"))
    assert ruleset.remove("a") is True and ruleset.remove("a") is False
    assert ruleset.get("zz") is None


def test_rules_see_coerced_values_after_field_errors() -> None:
    form = fs_forms.WorkForm(
        fields={
            "n": fs_forms.FieldSpec(name="n", type="int"),
            "m": fs_forms.FieldSpec(name="m", type="int"),
        }
    )
    ruleset = fs_rules.RuleSet().add(fs_rules.Rule(rule_id="range", field="n", check="range", params={"max": 5}))
    filled = fs_forms.fill_form(form, {"n": "7", "m": "x"}, ruleset=ruleset)
    assert [(f.source, f.field) for f in filled.failures] == [("field", "m"), ("rule", "n")]
    assert filled.values["n"] == 7 and filled.values["m"] == "x"
