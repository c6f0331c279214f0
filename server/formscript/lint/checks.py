"""Script, ruleset and transcript checks beyond the runtime's own verdict (form checks live
in ``form_checks``, which stays light).

Each check yields core Problems keyed by document paths; the engine turns paths into ranges.
A fix is described in ``Problem.data["fix"]`` as an operation on a path, so checks never
handle text offsets themselves.
"""

from __future__ import annotations

import json
import re
from typing import Any

from formscript.core.expansion import EXPANSION_LIMIT, explodes
from formscript.core.fields import FIELD_TYPES, Declared, type_label
from formscript.core.regex_risk import backtracking_risk, compile_user_regex
from formscript.core.rules import CHECK_KINDS, PATTERN_INPUT_CAP, Rule
from formscript.core.script import ScriptResult
from formscript.core.script_models import (
    CONTENT_PREDICATES,
    ErrorResponse,
    StreamResponse,
    StructuredResponse,
    ToolCallResponse,
    WhenMatcher,
)
from formscript.core.suggest import hint, suggestion
from formscript.core.verdict import Problem
from formscript.document.located import Document

# ----------------------------------------------------------------------------- scripts


def script_checks(doc: Document, result: ScriptResult) -> list[Problem]:
    """Matcher conflicts, regex faults, unreachable entries, stream shape and serving faults."""
    data = doc.value if isinstance(doc.value, dict) else {}
    raw_entries = data.get("responses")
    found: list[Problem] = []
    if result.verdict.value == "accepted" and not result.entries:
        found.append(
            Problem("SC016", "the script has no responses; the first call raises "
                    "ScriptExhaustedError", path=("responses",) if "responses" in data else ())
        )
    tool_ids: dict[str, int] = {}
    gate_only_calls: dict[int, int] = {}
    for index, entry in enumerate(result.entries):
        if entry is None:
            continue
        where = ("responses", index)
        raw = raw_entries[index] if isinstance(raw_entries, list) else {}
        if isinstance(raw, dict) and raw.get("when") == {}:
            found.append(
                Problem("SC012", f"response #{index} has an empty matcher, so it is positional",
                        path=(*where, "when"),
                        data={"fix": {"op": "remove_key", "path": (*where, "when"), "safe": True,
                                      "description": "remove the empty matcher"}})
            )
        when = entry.when
        if when is not None and not when.is_empty():
            found.extend(_matcher_checks(index, when, result.mode, gate_only_calls))
        elif result.mode == "when_only":
            found.append(
                Problem("SC011", f"response #{index} has no condition, and when_only mode never "
                        "serves positional entries", path=where)
            )
        if isinstance(entry, StreamResponse):
            found.extend(_stream_checks(index, entry))
        if isinstance(entry, ToolCallResponse) and entry.id is not None:
            if entry.id in tool_ids:
                found.append(
                    Problem("SC015", f"response #{index} reuses tool call id {entry.id!r} from "
                            f"response #{tool_ids[entry.id]}", path=(*where, "id"))
                )
            else:
                tool_ids[entry.id] = index
        payload = None
        if isinstance(entry, StructuredResponse):
            payload = ("data", entry.data)
        elif isinstance(entry, ToolCallResponse):
            payload = ("arguments", entry.arguments)
        if payload is not None and explodes(payload[1]):
            found.append(
                Problem("SC021", f"response #{index}: {payload[0]} expands to more than "
                        f"{EXPANSION_LIMIT:,} values through YAML aliases; serving it makes the "
                        "runtime encode all of them", path=(*where, payload[0]), severity="error")
            )
        elif payload is not None:
            try:
                json.dumps(payload[1])
            except (TypeError, ValueError) as exc:
                found.append(
                    Problem("SC020", f"response #{index}: {payload[0]} cannot be JSON-encoded "
                            f"({exc}); serving this entry raises", path=(*where, payload[0]))
                )
        if isinstance(entry, ErrorResponse) and entry.delay_ms < 0:
            found.append(
                Problem("SC005", f"response #{index}: delay_ms {entry.delay_ms} is negative; the "
                        "runtime's sleep raises ValueError before the scripted error is served",
                        path=(*where, "delay_ms"), severity="warning")
            )
    return found


def _matcher_checks(
    index: int, when: WhenMatcher, mode: str, gate_only_calls: dict[int, int]
) -> list[Problem]:
    where = ("responses", index, "when")
    found: list[Problem] = []
    if mode == "positional":
        found.append(
            Problem("SC011", f"response #{index} has a condition, and positional mode never "
                    "serves conditional entries", path=where, on_key=True)
        )
        return found
    configured = [name for name in CONTENT_PREDICATES if getattr(when, name) is not None]
    if len(configured) > 1:
        winner, *ignored = configured
        found.append(
            Problem(
                "SC008",
                f"response #{index} sets {', '.join(configured)}; only {winner} is evaluated and "
                f"{' and '.join(ignored)} {'is' if len(ignored) == 1 else 'are'} never consulted "
                "(predicates are not combined)",
                path=(*where, ignored[0]),
                on_key=True,
            )
        )
    if configured and configured[0] == "prompt_regex" and when.prompt_regex is not None:
        try:
            compile_user_regex(when.prompt_regex)
        except re.error as exc:
            found.append(
                Problem("SC009", f"prompt_regex {when.prompt_regex!r} does not compile ({exc}); "
                        "the call that evaluates it raises re.error", path=(*where, "prompt_regex"))
            )
        else:
            risk = backtracking_risk(when.prompt_regex)
            if risk:
                found.append(
                    Problem("SC010", f"prompt_regex {when.prompt_regex!r} risks catastrophic "
                            f"backtracking: {risk}", path=(*where, "prompt_regex"))
                )
    call, after = when.call_index, when.after_calls
    if call is not None and call < 0:
        found.append(Problem("SC011", f"response #{index} waits for call_index {call}, and call "
                             "indexes start at 0", path=(*where, "call_index")))
    elif call is not None and after is not None and call < after:
        found.append(Problem("SC011", f"response #{index} needs call_index {call} and at least "
                             f"{after} earlier calls, which never happen together",
                             path=(*where, "call_index")))
    elif call is not None and call in gate_only_calls:
        found.append(Problem("SC011", f"response #{index} can never match: response "
                             f"#{gate_only_calls[call]} has no other condition and always takes "
                             f"call {call}", path=(*where, "call_index")))
    if after is not None and after < 0:
        found.append(Problem("SC011", f"response #{index} has after_calls {after}, which never "
                             "holds anything back", path=(*where, "after_calls"),
                             severity="info"))
    if call is not None and not configured and (after is None or after <= call) and call >= 0:
        gate_only_calls.setdefault(call, index)
    return found


def _stream_checks(index: int, entry: StreamResponse) -> list[Problem]:
    where = ("responses", index, "chunks")
    found: list[Problem] = []
    terminal = [i for i, c in enumerate(entry.chunks) if c.type in ("result", "error")]
    last = len(entry.chunks) - 1
    if not terminal or terminal[-1] != last:
        found.append(Problem("SC013", f"stream response #{index} does not end with a result or "
                             "error chunk", path=where))
    for position in terminal:
        if position != last:
            found.append(Problem("SC013", f"stream response #{index} has a terminal "
                                 f"{entry.chunks[position].type} chunk at position {position}, "
                                 "before the end", path=(*where, position)))
    for position, chunk in enumerate(entry.chunks):
        if chunk.type == "tool_use" and not chunk.tool_name:
            found.append(Problem("SC014", f"stream response #{index}: tool_use chunk {position} "
                                 "has no tool_name", path=(*where, position)))
    return found


# ---------------------------------------------------------------------------- rulesets


RULE_KEYS: tuple[str, ...] = ("rule_id", "field", "check", "params", "message", "enabled")


def ruleset_rules(data: Any) -> tuple[list[tuple[int, Rule]], list[Problem], bool]:
    """Build the rules of a ruleset file: (index, Rule) pairs, problems, and undecidability."""
    from pydantic import ValidationError

    problems: list[Problem] = []
    built: list[tuple[int, Rule]] = []
    if not isinstance(data, dict) or not isinstance(data.get("rules"), list):
        problems.append(Problem("RS011", "a ruleset is a mapping with 'rules:', a list of rules, "
                                f"found {type_label(data)}", rejects=True))
        return built, problems, False
    for key in data:
        if key != "rules":
            problems.append(Problem("RS011", f"unknown top-level key {key!r} in a ruleset"
                                    + hint(key, ("rules",)), path=(key,), on_key=True,
                                    rejects=True))
    seen: dict[Any, int] = {}
    undecidable = False
    for index, raw in enumerate(data["rules"]):
        where = ("rules", index)
        if not isinstance(raw, dict):
            problems.append(Problem("RS011", f"rule #{index} must be a mapping, found "
                                    f"{type_label(raw)}", path=where, rejects=True))
            continue
        try:
            rule = Rule.model_validate(raw)
        except ValidationError as exc:
            for error in exc.errors():
                loc = tuple(error["loc"])
                if loc[:1] == ("check",):
                    value = raw.get("check")
                    problems.append(Problem("RS001", f"rule #{index} has unknown check {value!r}; "
                                            "expected one of " + ", ".join(CHECK_KINDS)
                                            + hint(value, CHECK_KINDS), path=(*where, "check"),
                                            rejects=True, data=suggestion(value, CHECK_KINDS)))
                elif error["type"] == "missing":
                    problems.append(Problem("RS011", f"rule #{index} is missing {loc[0]!r}",
                                            path=where, rejects=True))
                else:
                    problems.append(Problem("RS011", f"rule #{index}: {'.'.join(map(str, loc))} is "
                                            f"invalid ({error['msg'][:1].lower()}{error['msg'][1:]})",
                                            path=(*where, *loc), rejects=True))
            continue
        if rule.rule_id in seen:
            problems.append(Problem("RS009", f"rule_id {rule.rule_id!r} is already used by rule "
                                    f"#{seen[rule.rule_id]}", path=(*where, "rule_id"),
                                    rejects=True))
            continue
        seen[rule.rule_id] = index
        built.append((index, rule))
        for key in raw:
            if key not in RULE_KEYS:
                problems.append(Problem("RS013", f"rule {rule.rule_id!r} has unknown key {key!r}, which the "
                                        "runtime silently drops" + hint(key, RULE_KEYS),
                                        path=(*where, key), on_key=True, data=suggestion(key, RULE_KEYS)))
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
            found.append(Problem("RS003", f"rule {rule.rule_id!r} has min {low} above max {high}; "
                                 "no value passes", path=(*where, "params")))
    elif rule.check == "pattern":
        pattern = params.get("pattern", "")
        try:
            flags = int(params.get("flags", 0))
            compile_user_regex(pattern, flags)
        except (re.error, TypeError, ValueError) as exc:
            found.append(Problem("RS006", f"rule {rule.rule_id!r} has an invalid pattern "
                                 f"{pattern!r} ({exc})", path=(*where, "params")))
        else:
            risk = backtracking_risk(pattern, flags)
            if risk:
                found.append(Problem("RS012", f"rule {rule.rule_id!r} pattern {pattern!r} risks "
                                     f"catastrophic backtracking: {risk}", path=(*where, "params")))
    elif rule.check == "type":
        expected = params.get("type", "str")
        if not isinstance(expected, str) or expected not in FIELD_TYPES:
            found.append(Problem("RS005", f"rule {rule.rule_id!r} names unknown type {expected!r}"
                                 + hint(expected, FIELD_TYPES), path=(*where, "params")))
    elif rule.check == "custom":
        found.append(Problem("RS010", f"rule {rule.rule_id!r} is a custom check; its outcome "
                             "depends on a Python callable and cannot be decided from the file",
                             path=(*where, "check")))
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
            found.append(Problem("RS002", f"rule {rule.rule_id!r} checks field {rule.field!r}, "
                                 "which the form does not declare" + hint(rule.field, [
                                     k for k in fields if isinstance(k, str)]),
                                 path=(*where, "field")))
            continue
        if rule.check == "range" and spec.type in ("str", "list", "dict"):
            found.append(Problem("RS004", f"rule {rule.rule_id!r} range-checks field "
                                 f"{rule.field!r}, declared {spec.type}", path=(*where, "check")))
        if rule.check == "pattern" and spec.type != "str":
            found.append(Problem("RS007", f"rule {rule.rule_id!r} pattern-checks field "
                                 f"{rule.field!r}, declared {spec.type}", path=(*where, "check")))
        if rule.check == "type":
            expected = rule.params.get("type", "str")
            if expected in FIELD_TYPES and expected != spec.type and not (
                expected == "float" and spec.type == "int"
            ):
                found.append(Problem("RS005", f"rule {rule.rule_id!r} expects {expected} but "
                                     f"field {rule.field!r} is declared {spec.type}; rules see the "
                                     "coerced value", path=(*where, "params")))
        value = values.get(rule.field)
        if rule.check == "pattern" and isinstance(value, str) and len(value) > PATTERN_INPUT_CAP:
            found.append(Problem("RS008", f"field {rule.field!r} holds {len(value)} characters; "
                                 f"pattern rule {rule.rule_id!r} refuses inputs over "
                                 f"{PATTERN_INPUT_CAP}", path=(*where, "field"), rejects=True))
    return found


# ------------------------------------------------------------------------ transcripts

CALL_KEYS = ("prompt", "tools", "payload")


def calls_checks(data: Any) -> list[Problem]:
    """The shape of a calls transcript."""
    if not isinstance(data, list):
        return [Problem("CL001", "a calls transcript is a list of calls, found "
                        f"{type_label(data)}", rejects=True)]
    found: list[Problem] = []
    for index, item in enumerate(data):
        where: tuple[object, ...] = (index,)
        if isinstance(item, str):
            continue
        if not isinstance(item, dict):
            found.append(Problem("CL002", f"call #{index} must be a string or a mapping, found "
                                 f"{type_label(item)}", path=where, rejects=True))
            continue
        for key in item:
            if key not in CALL_KEYS:
                found.append(Problem("CL002", f"call #{index} has unknown key {key!r}; expected "
                                     "prompt, tools or payload" + hint(key, CALL_KEYS),
                                     path=(*where, key), on_key=True, rejects=True))
        if "payload" in item:
            if not isinstance(item["payload"], dict):
                found.append(Problem("CL002", f"call #{index}: payload must be a mapping",
                                     path=(*where, "payload"), rejects=True))
            if "prompt" in item or "tools" in item:
                found.append(Problem("CL002", f"call #{index} mixes payload with prompt/tools; "
                                     "give one or the other", path=where, rejects=True))
            continue
        if not isinstance(item.get("prompt"), str):
            found.append(Problem("CL002", f"call #{index} needs a string 'prompt'", path=where,
                                 rejects=True))
        tools = item.get("tools", [])
        if not isinstance(tools, list) or not all(isinstance(t, str) for t in tools):
            found.append(Problem("CL002", f"call #{index}: tools must be a list of tool names",
                                 path=(*where, "tools"), rejects=True))
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
