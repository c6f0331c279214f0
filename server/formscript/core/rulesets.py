"""Ruleset files (ours): ``rules:``, a list of Rule mappings, each built with ``Rule(**m)`` and
added to a RuleSet as the runtime's ``fill_form(..., ruleset=)`` expects.

The README's loading is the contract: ``for m in data["rules"]: ruleset.add(Rule(**m))``.
Whatever that raises (KeyError, TypeError, pydantic's ValidationError, RuleSet.add's
ValueError) stops the program before any model call; nothing else in the file is read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from formscript import rules
from formscript.core.fields import ValuesView
from formscript.core.gate import GateResult, check_form_spec
from formscript.core.rules import CHECK_KINDS, Rule, RuleSet
from formscript.core.suggest import closest
from formscript.core.verdict import Problem, reason_of

RULE_KEYS: tuple[str, ...] = ("rule_id", "field", "check", "params", "message", "enabled")


@dataclass
class LoadedRuleset:
    """A ruleset file as a program following the README builds it."""

    #: (index in ``rules:``, Rule) for each rule that builds, in order.
    built: list[tuple[int, Rule]]
    #: Why rules do not build (these reject) and what building drops or ignores (these warn).
    problems: list[Problem]

    @property
    def refused(self) -> bool:
        """Whether building the RuleSet raises, so the program stops before filling any form."""
        return any(p.rejects for p in self.problems)

    def ruleset(self) -> RuleSet:
        """The RuleSet of every rule that built (custom checks too: from a file they always fail)."""
        ruleset = RuleSet()
        for _, rule in self.built:
            ruleset.add(rule)
        return ruleset


def _iterated(raw: Any) -> list[Any] | None:
    """What ``for m in raw`` yields, or None when iterating *raw* raises TypeError."""
    if isinstance(raw, list):
        return raw
    if isinstance(raw, str | bytes | dict | tuple | set | frozenset):
        return list(raw)
    return None


def load_ruleset(data: Any) -> LoadedRuleset:
    """Build the rules of a loaded ruleset file as the README does, ``Rule(**m)`` for each item
    of ``rules:`` added to a RuleSet: the rules that build, the problems of those that do not,
    and warnings for what the loading ignores."""
    from pydantic import ValidationError

    problems: list[Problem] = []
    built: list[tuple[int, Rule]] = []
    if not isinstance(data, dict) or "rules" not in data:
        problems.append(rules.RS011.not_a_ruleset(found=data))
    if isinstance(data, dict):
        for key in data:
            if key != "rules":
                suggestion = closest(key, ("rules",)) if "rules" not in data else None
                problems.append(rules.RS015.problem(path=(key,), key=key, suggestion=suggestion))
    if not isinstance(data, dict) or "rules" not in data:
        return LoadedRuleset(built, problems)
    items = _iterated(data["rules"])
    if items is None or (items and not isinstance(data["rules"], list)):
        # Not iterable, or iterating gives keys, characters or members: never a rule mapping.
        problems.append(rules.RS011.rules_not_a_list(path=("rules",), found=data["rules"]))
        return LoadedRuleset(built, problems)
    seen: dict[Any, int] = {}
    for index, raw in enumerate(items):
        where = ("rules", index)
        if not isinstance(raw, dict):
            problems.append(rules.RS011.not_a_mapping(path=where, index=index, found=raw))
            continue
        odd_keys = [key for key in raw if not isinstance(key, str)]
        if odd_keys:
            # Rule(**m) raises TypeError before any validation.
            problems.extend(rules.RS011.non_string_key(path=(*where, key), index=index, key=key) for key in odd_keys)
            continue
        try:
            rule = Rule.model_validate(raw)
        except ValidationError as exc:
            problems.extend(_validation_problems(index, raw, exc))
            continue
        if rule.rule_id in seen:
            problems.append(
                rules.RS009.problem(path=(*where, "rule_id"), rule_id=rule.rule_id, first=seen[rule.rule_id])
            )
            continue
        seen[rule.rule_id] = index
        built.append((index, rule))
        for key in raw:
            if key not in RULE_KEYS:
                problems.append(
                    rules.RS013.problem(
                        path=(*where, key), rule_id=rule.rule_id, key=key, suggestion=closest(key, RULE_KEYS, raw)
                    )
                )
    return LoadedRuleset(built, problems)


def _validation_problems(index: int, raw: dict[str, Any], exc: Any) -> list[Problem]:
    where = ("rules", index)
    found: list[Problem] = []
    for error in exc.errors():
        loc = tuple(error["loc"])
        if loc[:1] == ("check",):
            value = raw.get("check")
            found.append(
                rules.RS001.problem(
                    path=(*where, "check"),
                    index=index,
                    given=value,
                    kinds=CHECK_KINDS,
                    suggestion=closest(value, CHECK_KINDS),
                )
            )
        elif error["type"] == "missing":
            found.append(rules.RS011.missing(path=where, index=index, key=loc[0]))
        else:
            found.append(
                rules.RS011.invalid(
                    path=(*where, *loc),
                    index=index,
                    where=".".join(map(str, loc)),
                    reason=reason_of(error["msg"]),
                )
            )
    return found


@dataclass
class RuledForm:
    """A form filled with a ruleset, as ``fill_form(..., ruleset=)`` leaves it."""

    #: The gate's result: with the rules applied, or without them when they were never
    #: applied (the form was refused before filling) or when one raised.
    gate: GateResult
    #: RS101 at the first rule whose application raises (fill_form stops there), else None.
    raised: Problem | None = None


def apply_ruleset(spec: Any, spec_path: str, loaded: LoadedRuleset) -> RuledForm:
    """The gate on the loaded *spec* with the rules of *loaded* (which must not be refused).

    The runtime fills the form only when its gate passes (``fill_form`` runs only for a form
    with fields or values); rules then run in order on the coerced values, and the first that
    raises stops fill_form with its exception.
    """
    plain = check_form_spec(spec, spec_path)
    if not plain.filled or not loaded.built:
        return RuledForm(plain)
    view = ValuesView(plain.values)
    for index, rule in loaded.built:
        try:
            rule.failure(view)
        except Exception as exc:  # the runtime's own exception: fill_form dies with it
            return RuledForm(plain, rules.RS101.problem(path=("rules", index), rule_id=rule.rule_id, error=exc))
    return RuledForm(check_form_spec(spec, spec_path, ruleset=loaded.ruleset()))
