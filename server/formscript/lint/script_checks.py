"""Script checks beyond the runtime's verdict: matcher conflicts, regex faults, unreachable
entries, stream shape and serving faults. Light on purpose: no model machinery is imported."""

from __future__ import annotations

import json
import re

from formscript.core.entries import CONTENT_PREDICATES, Matcher, StreamEntry
from formscript.core.expansion import EXPANSION_LIMIT, explodes
from formscript.core.regex_risk import backtracking_risk, compile_user_regex
from formscript.core.script import ScriptResult
from formscript.core.verdict import Problem
from formscript.document.located import Document


def script_checks(doc: Document, result: ScriptResult) -> list[Problem]:
    """Matcher conflicts, regex faults, unreachable entries, stream shape and serving faults."""
    data = doc.value if isinstance(doc.value, dict) else {}
    raw_entries = data.get("responses")
    found: list[Problem] = []
    if result.verdict.value == "accepted" and not result.entries:
        found.append(
            Problem(
                "SC016",
                "the script has no responses; the first call raises ScriptExhaustedError",
                path=("responses",) if "responses" in data else (),
            )
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
                Problem(
                    "SC012",
                    f"response #{index} has an empty matcher, so it is positional",
                    path=(*where, "when"),
                    data={
                        "fix": {
                            "op": "remove_key",
                            "path": (*where, "when"),
                            "safe": True,
                            "description": "remove the empty matcher",
                        }
                    },
                )
            )
        when = entry.when
        if when is not None and not when.is_empty():
            found.extend(_matcher_checks(index, when, result.mode, gate_only_calls))
        elif result.mode == "when_only":
            found.append(
                Problem(
                    "SC011",
                    f"response #{index} has no condition, and when_only mode never serves positional entries",
                    path=where,
                )
            )
        if entry.type == "stream":
            found.extend(_stream_checks(index, entry))
        if entry.type == "tool_call" and entry.id is not None:
            if entry.id in tool_ids:
                found.append(
                    Problem(
                        "SC015",
                        f"response #{index} reuses tool call id {entry.id!r} from response #{tool_ids[entry.id]}",
                        path=(*where, "id"),
                    )
                )
            else:
                tool_ids[entry.id] = index
        payload = None
        if entry.type == "structured":
            payload = ("data", entry.data)
        elif entry.type == "tool_call":
            payload = ("arguments", entry.arguments)
        if payload is not None and explodes(payload[1]):
            found.append(
                Problem(
                    "SC021",
                    f"response #{index}: {payload[0]} expands to more than "
                    f"{EXPANSION_LIMIT:,} values through YAML aliases; serving it makes the "
                    "runtime encode all of them",
                    path=(*where, payload[0]),
                    severity="error",
                )
            )
        elif payload is not None:
            try:
                json.dumps(payload[1])
            except (TypeError, ValueError) as exc:
                found.append(
                    Problem(
                        "SC020",
                        f"response #{index}: {payload[0]} cannot be JSON-encoded ({exc}); serving this entry raises",
                        path=(*where, payload[0]),
                    )
                )
        if entry.type == "error" and entry.delay_ms < 0:
            found.append(
                Problem(
                    "SC005",
                    f"response #{index}: delay_ms {entry.delay_ms} is negative; the "
                    "runtime's sleep raises ValueError before the scripted error is served",
                    path=(*where, "delay_ms"),
                    severity="warning",
                )
            )
    return found


def _matcher_checks(index: int, when: Matcher, mode: str, gate_only_calls: dict[int, int]) -> list[Problem]:
    where = ("responses", index, "when")
    found: list[Problem] = []
    if mode == "positional":
        found.append(
            Problem(
                "SC011",
                f"response #{index} has a condition, and positional mode never serves conditional entries",
                path=where,
                on_key=True,
            )
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
                Problem(
                    "SC009",
                    f"prompt_regex {when.prompt_regex!r} does not compile ({exc}); "
                    "the call that evaluates it raises re.error",
                    path=(*where, "prompt_regex"),
                )
            )
        else:
            risk = backtracking_risk(when.prompt_regex)
            if risk:
                found.append(
                    Problem(
                        "SC010",
                        f"prompt_regex {when.prompt_regex!r} risks catastrophic backtracking: {risk}",
                        path=(*where, "prompt_regex"),
                    )
                )
    call, after = when.call_index, when.after_calls
    if call is not None and call < 0:
        found.append(
            Problem(
                "SC011",
                f"response #{index} waits for call_index {call}, and call indexes start at 0",
                path=(*where, "call_index"),
            )
        )
    elif call is not None and after is not None and call < after:
        found.append(
            Problem(
                "SC011",
                f"response #{index} needs call_index {call} and at least "
                f"{after} earlier calls, which never happen together",
                path=(*where, "call_index"),
            )
        )
    elif call is not None and call in gate_only_calls:
        found.append(
            Problem(
                "SC011",
                f"response #{index} can never match: response "
                f"#{gate_only_calls[call]} has no other condition and always takes "
                f"call {call}",
                path=(*where, "call_index"),
            )
        )
    if after is not None and after < 0:
        found.append(
            Problem(
                "SC011",
                f"response #{index} has after_calls {after}, which never holds anything back",
                path=(*where, "after_calls"),
                severity="info",
            )
        )
    if call is not None and not configured and (after is None or after <= call) and call >= 0:
        gate_only_calls.setdefault(call, index)
    return found


def _stream_checks(index: int, entry: StreamEntry) -> list[Problem]:
    where = ("responses", index, "chunks")
    found: list[Problem] = []
    terminal = [i for i, c in enumerate(entry.chunks) if c.type in ("result", "error")]
    last = len(entry.chunks) - 1
    if not terminal or terminal[-1] != last:
        found.append(
            Problem("SC013", f"stream response #{index} does not end with a result or error chunk", path=where)
        )
    for position in terminal:
        if position != last:
            found.append(
                Problem(
                    "SC013",
                    f"stream response #{index} has a terminal "
                    f"{entry.chunks[position].type} chunk at position {position}, "
                    "before the end",
                    path=(*where, position),
                )
            )
    for position, chunk in enumerate(entry.chunks):
        if chunk.type == "tool_use" and not chunk.tool_name:
            found.append(
                Problem(
                    "SC014",
                    f"stream response #{index}: tool_use chunk {position} has no tool_name",
                    path=(*where, position),
                )
            )
    return found
