"""Ruleset files (ours): ``rules:``, a list of Rule mappings, each built with ``Rule(**m)`` and
added to a RuleSet as the runtime's ``fill_form(..., ruleset=)`` expects.
"""

from __future__ import annotations

from typing import Any

from formscript import rules
from formscript.core.rules import CHECK_KINDS, Rule, RuleSet
from formscript.core.suggest import closest
from formscript.core.verdict import Problem

RULE_KEYS: tuple[str, ...] = ("rule_id", "field", "check", "params", "message", "enabled")


def load_ruleset(data: Any) -> tuple[list[tuple[int, Rule]], list[Problem], bool]:
    """Build the rules of a loaded ruleset file as the runtime does, ``Rule(**m)`` for each
    of ``rules:`` added to a RuleSet: the (index, Rule) pairs that build, the problems of those
    that do not (and of keys the runtime drops), and whether a custom check makes the outcome
    undecidable from the file."""
    from pydantic import ValidationError

    problems: list[Problem] = []
    built: list[tuple[int, Rule]] = []
    if not isinstance(data, dict) or not isinstance(data.get("rules"), list):
        problems.append(rules.RS011.not_a_ruleset(found=data))
        return built, problems, False
    for key in data:
        if key != "rules":
            problems.append(rules.RS011.unknown_key(path=(key,), key=key, suggestion=closest(key, ("rules",))))
    seen: dict[Any, int] = {}
    undecidable = False
    for index, raw in enumerate(data["rules"]):
        where = ("rules", index)
        if not isinstance(raw, dict):
            problems.append(rules.RS011.not_a_mapping(path=where, index=index, found=raw))
            continue
        try:
            rule = Rule.model_validate(raw)
        except ValidationError as exc:
            for error in exc.errors():
                loc = tuple(error["loc"])
                if loc[:1] == ("check",):
                    value = raw.get("check")
                    problems.append(
                        rules.RS001.problem(
                            path=(*where, "check"),
                            index=index,
                            given=value,
                            kinds=CHECK_KINDS,
                            suggestion=closest(value, CHECK_KINDS),
                        )
                    )
                elif error["type"] == "missing":
                    problems.append(rules.RS011.missing(path=where, index=index, key=loc[0]))
                else:
                    problems.append(
                        rules.RS011.invalid(
                            path=(*where, *loc),
                            index=index,
                            where=".".join(map(str, loc)),
                            reason=error["msg"][:1].lower() + error["msg"][1:],
                        )
                    )
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
                        path=(*where, key), rule_id=rule.rule_id, key=key, suggestion=closest(key, RULE_KEYS)
                    )
                )
        if rule.check == "custom" and rule.enabled:
            undecidable = True
    return built, problems, undecidable


def decidable_ruleset(built: list[tuple[int, Rule]]) -> RuleSet:
    """The RuleSet of *built* without custom checks, which need a callable no file can give."""
    ruleset = RuleSet()
    for _, rule in built:
        if rule.check != "custom":
            ruleset.add(rule)
    return ruleset
