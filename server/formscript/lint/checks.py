"""Script, ruleset and transcript checks beyond the runtime's own verdict (form checks live
in ``form_checks``, which stays light).

Each check yields core Problems keyed by document paths; the engine turns paths into ranges.
A fix is described in ``Problem.data["fix"]`` as an operation on a path, so checks never
handle text offsets themselves.
"""

from __future__ import annotations

import re
from typing import Any

from formscript.core.fields import FIELD_TYPES, Declared, type_label
from formscript.core.regex_risk import backtracking_risk, compile_user_regex
from formscript.core.rules import CHECK_KINDS, PATTERN_INPUT_CAP, Rule
from formscript.core.suggest import hint, suggestion
from formscript.core.verdict import Problem

# ---------------------------------------------------------------------------- rulesets


RULE_KEYS: tuple[str, ...] = ("rule_id", "field", "check", "params", "message", "enabled")


def ruleset_rules(data: Any) -> tuple[list[tuple[int, Rule]], list[Problem], bool]:
    """Build the rules of a ruleset file: (index, Rule) pairs, problems, and undecidability."""
    from pydantic import ValidationError

    problems: list[Problem] = []
    built: list[tuple[int, Rule]] = []
    if not isinstance(data, dict) or not isinstance(data.get("rules"), list):
        problems.append(
            Problem(
                "RS011",
                f"a ruleset is a mapping with 'rules:', a list of rules, found {type_label(data)}",
                rejects=True,
            )
        )
        return built, problems, False
    for key in data:
        if key != "rules":
            problems.append(
                Problem(
                    "RS011",
                    f"unknown top-level key {key!r} in a ruleset" + hint(key, ("rules",)),
                    path=(key,),
                    on_key=True,
                    rejects=True,
                )
            )
    seen: dict[Any, int] = {}
    undecidable = False
    for index, raw in enumerate(data["rules"]):
        where = ("rules", index)
        if not isinstance(raw, dict):
            problems.append(
                Problem("RS011", f"rule #{index} must be a mapping, found {type_label(raw)}", path=where, rejects=True)
            )
            continue
        try:
            rule = Rule.model_validate(raw)
        except ValidationError as exc:
            for error in exc.errors():
                loc = tuple(error["loc"])
                if loc[:1] == ("check",):
                    value = raw.get("check")
                    problems.append(
                        Problem(
                            "RS001",
                            f"rule #{index} has unknown check {value!r}; "
                            "expected one of " + ", ".join(CHECK_KINDS) + hint(value, CHECK_KINDS),
                            path=(*where, "check"),
                            rejects=True,
                            data=suggestion(value, CHECK_KINDS),
                        )
                    )
                elif error["type"] == "missing":
                    problems.append(Problem("RS011", f"rule #{index} is missing {loc[0]!r}", path=where, rejects=True))
                else:
                    problems.append(
                        Problem(
                            "RS011",
                            f"rule #{index}: {'.'.join(map(str, loc))} is "
                            f"invalid ({error['msg'][:1].lower()}{error['msg'][1:]})",
                            path=(*where, *loc),
                            rejects=True,
                        )
                    )
            continue
        if rule.rule_id in seen:
            problems.append(
                Problem(
                    "RS009",
                    f"rule_id {rule.rule_id!r} is already used by rule #{seen[rule.rule_id]}",
                    path=(*where, "rule_id"),
                    rejects=True,
                )
            )
            continue
        seen[rule.rule_id] = index
        built.append((index, rule))
        for key in raw:
            if key not in RULE_KEYS:
                problems.append(
                    Problem(
                        "RS013",
                        f"rule {rule.rule_id!r} has unknown key {key!r}, which the "
                        "runtime silently drops" + hint(key, RULE_KEYS),
                        path=(*where, key),
                        on_key=True,
                        data=suggestion(key, RULE_KEYS),
                    )
                )
        problems.extend(_rule_checks(index, rule))
        if rule.check == "custom" and rule.enabled:
            undecidable = True
    return built, problems, undecidable


def _rule_checks(index: int, rule: Rule) -> list[Problem]:
    where = ("rules", index)
    params = rule.params
    found: list[Problem] = []
    if rule.check == "range":
        low, high = params.get("min"), params.get("max")
        numeric = (int, float)
        if isinstance(low, numeric) and isinstance(high, numeric) and low > high:
            found.append(
                Problem(
                    "RS003",
                    f"rule {rule.rule_id!r} has min {low} above max {high}; no value passes",
                    path=(*where, "params"),
                )
            )
    elif rule.check == "pattern":
        pattern = params.get("pattern", "")
        try:
            flags = int(params.get("flags", 0))
            compile_user_regex(pattern, flags)
        except (re.error, TypeError, ValueError) as exc:
            found.append(
                Problem(
                    "RS006",
                    f"rule {rule.rule_id!r} has an invalid pattern {pattern!r} ({exc})",
                    path=(*where, "params"),
                )
            )
        else:
            risk = backtracking_risk(pattern, flags)
            if risk:
                found.append(
                    Problem(
                        "RS012",
                        f"rule {rule.rule_id!r} pattern {pattern!r} risks catastrophic backtracking: {risk}",
                        path=(*where, "params"),
                    )
                )
    elif rule.check == "type":
        expected = params.get("type", "str")
        if not isinstance(expected, str) or expected not in FIELD_TYPES:
            found.append(
                Problem(
                    "RS005",
                    f"rule {rule.rule_id!r} names unknown type {expected!r}" + hint(expected, FIELD_TYPES),
                    path=(*where, "params"),
                )
            )
    elif rule.check == "custom":
        found.append(
            Problem(
                "RS010",
                f"rule {rule.rule_id!r} is a custom check; its outcome "
                "depends on a Python callable and cannot be decided from the file",
                path=(*where, "check"),
            )
        )
    return found


def paired_rule_checks(
    rules: list[tuple[int, Rule]], fields: dict[Any, Declared], values: dict[Any, Any]
) -> list[Problem]:
    """Checks of rules against the declarations and values of a paired form."""
    found: list[Problem] = []
    for index, rule in rules:
        where = ("rules", index)
        spec = fields.get(rule.field)
        if spec is None:
            found.append(
                Problem(
                    "RS002",
                    f"rule {rule.rule_id!r} checks field {rule.field!r}, "
                    "which the form does not declare" + hint(rule.field, [k for k in fields if isinstance(k, str)]),
                    path=(*where, "field"),
                )
            )
            continue
        if rule.check == "range" and spec.type in ("str", "list", "dict"):
            found.append(
                Problem(
                    "RS004",
                    f"rule {rule.rule_id!r} range-checks field {rule.field!r}, declared {spec.type}",
                    path=(*where, "check"),
                )
            )
        if rule.check == "pattern" and spec.type != "str":
            found.append(
                Problem(
                    "RS007",
                    f"rule {rule.rule_id!r} pattern-checks field {rule.field!r}, declared {spec.type}",
                    path=(*where, "check"),
                )
            )
        if rule.check == "type":
            expected = rule.params.get("type", "str")
            if expected in FIELD_TYPES and expected != spec.type and not (expected == "float" and spec.type == "int"):
                found.append(
                    Problem(
                        "RS005",
                        f"rule {rule.rule_id!r} expects {expected} but "
                        f"field {rule.field!r} is declared {spec.type}; rules see the "
                        "coerced value",
                        path=(*where, "params"),
                    )
                )
        value = values.get(rule.field)
        if rule.check == "pattern" and isinstance(value, str) and len(value) > PATTERN_INPUT_CAP:
            found.append(
                Problem(
                    "RS008",
                    f"field {rule.field!r} holds {len(value)} characters; "
                    f"pattern rule {rule.rule_id!r} refuses inputs over "
                    f"{PATTERN_INPUT_CAP}",
                    path=(*where, "field"),
                    rejects=True,
                )
            )
    return found


# ------------------------------------------------------------------------ transcripts

CALL_KEYS = ("prompt", "tools", "payload")


def calls_checks(data: Any) -> list[Problem]:
    """The shape of a calls transcript."""
    if not isinstance(data, list):
        return [Problem("CL001", f"a calls transcript is a list of calls, found {type_label(data)}", rejects=True)]
    found: list[Problem] = []
    for index, item in enumerate(data):
        where: tuple[object, ...] = (index,)
        if isinstance(item, str):
            continue
        if not isinstance(item, dict):
            found.append(
                Problem(
                    "CL002",
                    f"call #{index} must be a string or a mapping, found {type_label(item)}",
                    path=where,
                    rejects=True,
                )
            )
            continue
        for key in item:
            if key not in CALL_KEYS:
                found.append(
                    Problem(
                        "CL002",
                        f"call #{index} has unknown key {key!r}; expected "
                        "prompt, tools or payload" + hint(key, CALL_KEYS),
                        path=(*where, key),
                        on_key=True,
                        rejects=True,
                    )
                )
        if "payload" in item:
            if not isinstance(item["payload"], dict):
                found.append(
                    Problem(
                        "CL002", f"call #{index}: payload must be a mapping", path=(*where, "payload"), rejects=True
                    )
                )
            if "prompt" in item or "tools" in item:
                found.append(
                    Problem(
                        "CL002",
                        f"call #{index} mixes payload with prompt/tools; give one or the other",
                        path=where,
                        rejects=True,
                    )
                )
            continue
        if not isinstance(item.get("prompt"), str):
            found.append(Problem("CL002", f"call #{index} needs a string 'prompt'", path=where, rejects=True))
        tools = item.get("tools", [])
        if not isinstance(tools, list) or not all(isinstance(t, str) for t in tools):
            found.append(
                Problem(
                    "CL002", f"call #{index}: tools must be a list of tool names", path=(*where, "tools"), rejects=True
                )
            )
    return found


def call_payload(item: Any) -> dict[str, Any]:
    """The request payload a transcript item stands for."""
    if isinstance(item, str):
        return {"messages": [{"role": "user", "content": item}]}
    if "payload" in item:
        given = item["payload"]
        return dict(given) if isinstance(given, dict) else {}
    payload: dict[str, Any] = {"messages": [{"role": "user", "content": item.get("prompt", "")}]}
    tools = item.get("tools") or []
    payload["tools"] = [{"type": "function", "function": {"name": t}} for t in tools]
    return payload
