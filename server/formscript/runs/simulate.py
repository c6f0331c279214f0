"""``formscript simulate``: which entry of a script serves each call of a calls transcript,
and what the runtime answers."""

from __future__ import annotations

import json
from typing import Any

from formscript.core.branch import Miss, misses
from formscript.core.calls import Call, read_calls
from formscript.core.endpoint import completion_for, raised_for, stream_for
from formscript.core.expansion import (
    EXPANSION_LIMIT,
    SERVABLE_CHARACTERS,
    Exhausts,
    encoded_length,
    json_error,
)
from formscript.core.printable import printable_repr
from formscript.core.regex_guard import BoundedSearch, Estimate, RegexTimeout, duration
from formscript.core.script import RegexFailure, Replayer, ScriptExhausted
from formscript.document import parse_document
from formscript.lint.engine import lint_text
from formscript.lint.formats import printable, terminal_safe
from formscript.lint.report import FileReport
from formscript.runs.common import CONTRACT_VERSION, json_safe, line_of


def simulate_text(
    script_text: str,
    script_path: str,
    calls_text: str | None = None,
    calls_path: str | None = None,
    *,
    stream: bool = False,
    regex_timeout: float = 2.0,
    regex_answer_bound: float = 0.0,
) -> dict[str, Any]:
    """Replay a calls transcript against a script with the runtime's matching semantics."""
    report: FileReport = lint_text(script_text, script_path, kind="script", fixes=False)
    return simulate_report(
        report,
        script_path,
        calls_text,
        calls_path,
        stream=stream,
        regex_timeout=regex_timeout,
        regex_answer_bound=regex_answer_bound,
    )


def simulate_report(
    report: FileReport,
    script_path: str,
    calls_text: str | None = None,
    calls_path: str | None = None,
    *,
    stream: bool = False,
    regex_timeout: float = 2.0,
    regex_answer_bound: float = 0.0,
) -> dict[str, Any]:
    """The simulation of a linted script (a file's, or one embedded in a Python file); a
    regex search that overruns *regex_timeout* is awaited up to *regex_answer_bound* seconds
    when its growth says the runtime answers within them (``BoundedSearch``)."""
    out: dict[str, Any] = {
        "version": CONTRACT_VERSION,
        "path": script_path,
        "verdict": report.verdict.value if report.verdict else None,
        "mode": None,
        "script_version": None,
        "calls": [],
        "unreached": [],
        "entries": [],
        "errors": [],
    }
    script = report.script
    if script is None or report.verdict is None or report.verdict.value == "rejected":
        out["errors"] = [
            {"code": d.code, "message": d.message, "line": d.span.start.line + 1}
            for d in report.diagnostics
            if d.severity == "error"
        ]
        return out
    entries = [e for e in script.entries if e is not None]
    out["mode"] = script.mode
    out["script_version"] = json_safe(script.version)  # an int too long for decimal: hex
    doc = report.document
    for index, entry in enumerate(entries):
        out["entries"].append(
            {
                "index": index,
                "type": entry.type,
                "line": line_of(doc, ("responses", index)),
                "conditional": entry.conditional,
                "reachability": _reachability(entry, script.mode),
            }
        )
    if calls_text is None:
        return out
    calls_doc = parse_document(calls_text, "json" if (calls_path or "").endswith(".json") else "yaml")
    calls = read_calls(calls_doc.value).calls
    served: set[int] = set()
    with BoundedSearch(regex_timeout, regex_answer_bound) as search:
        replayer = Replayer(entries, script.mode, search=search)
        served_count = 0
        for number, call_item in enumerate(calls):
            payload = call_item.payload
            record: dict[str, Any] = {
                "index": number,
                "outcome": "served",
                "entry": None,
                "line": None,
                "matched_by": None,
                "response_type": None,
                "response": None,
            }
            out["calls"].append(record)  # filled in below
            if call_item.form == "chat" and call_item.written is not None:
                record["payload"] = json_safe(payload)
                found = misses(replayer, call_item.written, payload, served_count)
                if found:
                    record["warnings"] = [_miss(m, call_item) for m in found]
            slow_before = len(search.slow)
            try:
                match = replayer.next(payload, served_count)
            except ScriptExhausted as exc:
                record.update(outcome="exhausted", error=str(exc))
                break
            except RegexFailure as exc:
                record.update(outcome="invalid_regex", entry=exc.entry, error=str(exc))
                break
            except RegexTimeout as exc:
                record.update(outcome="regex_timeout", error=str(exc), timeout=exc.as_json())
                break
            except Exception as exc:  # the runtime raises the same on this payload
                record.update(outcome="raised", error=f"{type(exc).__name__}: {exc}")
                break
            if len(search.slow) > slow_before:  # answered, after the bound: how long the runtime takes
                record["slow_regexes"] = [
                    slow_regex(pattern, regex_timeout, found) for pattern, found in search.slow[slow_before:]
                ]
            entry = entries[match.entry]
            served.add(match.entry)
            call = served_count  # the runtime's call index: calls it recorded before this one
            if entry.type != "error" or raised_for(entry)["recorded"]:
                served_count += 1
            record.update(
                entry=match.entry,
                line=line_of(doc, ("responses", match.entry)),
                matched_by={"kind": match.kind, "value": json_safe(match.value)},
                response_type=entry.type,
            )
            payload_value = getattr(entry, "data", None) or getattr(entry, "arguments", None)
            if payload_value is not None and isinstance(json_error(payload_value), Exhausts):
                length = encoded_length(payload_value)
                if length is not None and length <= SERVABLE_CHARACTERS:
                    # lionagi serves it: the JSON is finite, only too long to show
                    what = "data" if entry.type == "structured" else "arguments"
                    record["response_elided"] = {
                        "json_characters": length,
                        "reason": f"the response's {what} expand to more than {EXPANSION_LIMIT:,} values through "
                        f"YAML aliases: {length:,} characters of JSON, not shown",
                    }
                    continue
                record.update(
                    outcome="too_large",
                    error="the response expands to more than "
                    f"{EXPANSION_LIMIT:,} values through YAML aliases and to more than "
                    f"{SERVABLE_CHARACTERS:,} characters of JSON; encoding it may exhaust the runtime's memory",
                )
                break
            try:
                if entry.type == "error":
                    record["raises"] = raised_for(entry)
                    if stream:
                        record["response"] = stream_for(entry, payload, call)
                else:
                    response = stream_for(entry, payload, call) if stream else completion_for(entry, payload, call)
                    record["response"] = json_safe(response)
                    if record["response"] != response:  # JSON lost a type: keep the exact value
                        record["response_repr"] = printable_repr(response)
            except (TypeError, ValueError) as exc:
                record.update(outcome="serve_error", error=f"{type(exc).__name__}: {exc}")
                break
    out["unreached"] = [i for i in range(len(entries)) if i not in served]
    return out


def slow_regex(pattern: str, bound: float, found: Estimate) -> dict[str, Any]:
    """A search that answered only after *bound* seconds: the facts, and what they mean."""
    facts = RegexTimeout(pattern, bound, found).as_json()
    facts["message"] = (
        f"the regex {pattern!r} ran longer than the {bound:g}s bound; on shorter prompts of the same shape its "
        f"time grows like length^{found.growth:.1f}, so formscript waited for the answer: the runtime takes "
        f"about {duration(found.seconds)} at this call"
    )
    return facts


def _miss(miss: Miss, call: Call) -> dict[str, Any]:
    """A matcher that cannot serve a chat call, with what the test wrote and what is sent."""
    sent = call.payload["messages"][-1]["content"]
    if miss.kind == "has_tool":
        why = (
            f"the tool {miss.value!r} is named in tool_schemas, which a Branch writes into the message "
            "text; only tools= reaches the request's tools"
        )
    else:
        written = call.written["messages"][-1]["content"] if call.written else ""
        why = f"it matches {written!r}, the text given to chat, but a Branch sends {sent!r}"
    return {
        "entry": miss.entry,
        "matched_by": {"kind": miss.kind, "value": json_safe(miss.value)},
        "message": f"entry #{miss.entry}'s {miss.kind} {miss.value!r} cannot serve this call: {why}",
    }


def _reachability(entry: Any, mode: str) -> str:
    if mode == "positional" and entry.conditional:
        return "never (conditional entries are skipped in positional mode)"
    if mode == "when_only" and not entry.conditional:
        return "never (when_only mode serves only conditional entries)"
    return "when its matcher matches (at most once)" if entry.conditional else "positional"


def render_simulation(result: dict[str, Any]) -> str:
    """The simulation as text for a terminal."""
    lines = [f"{result['path']}: {result['verdict']}" + (f", mode {result['mode']}" if result["mode"] else "")]
    for error in result["errors"]:
        lines.append(f"  line {error['line']}: [{error['code']}] {error['message']}")
    for call in result["calls"]:
        if call["outcome"] not in ("served", "serve_error", "too_large"):
            lines.append(f"call {call['index']}: {call['outcome']} - {call.get('error', '')}")
            lines.extend(f"    warning: {w['message']}" for w in call.get("warnings", ()))
            continue
        how = call["matched_by"]
        reason = how["kind"] if how["value"] is None else f"{how['kind']} {how['value']!r}"
        lines.append(
            f"call {call['index']}: entry #{call['entry']} (line {call['line']}, {call['response_type']}) by {reason}"
        )
        lines.extend(f"    warning: {w['message']}" for w in call.get("warnings", ()))
        lines.extend(f"    slow: {w['message']}" for w in call.get("slow_regexes", ()))
        if call.get("raises"):
            raised = call["raises"]
            status = f" {raised['status_code']}" if raised["status_code"] else ""
            lines.append(f"    raises {raised['exception']}{status}: {raised['message']}")
        elif call["outcome"] == "too_large":
            lines.append(f"    not known whether it is served: {call['error']}")
        elif call["outcome"] == "serve_error":
            lines.append(f"    serving raises {call['error']}")
        elif call.get("response_elided"):
            lines.append(f"    {call['response_elided']['reason']}")
        elif call["response"] is not None:
            lines.append("    " + _preview(call["response"]))
    if result["calls"]:
        unreached = result["unreached"]
        lines.append("never served: " + (", ".join(f"#{i}" for i in unreached) if unreached else "none"))
    else:
        for entry in result["entries"]:
            lines.append(f"#{entry['index']} {entry['type']} (line {entry['line']}): {entry['reachability']}")
    return printable(terminal_safe("\n".join(lines) + "\n", lines=True))  # nothing raw reaches a terminal


def _preview(response: Any) -> str:
    if isinstance(response, dict):
        message = response.get("choices", [{}])[0].get("message", {})
        if message.get("tool_calls"):
            call = message["tool_calls"][0]
            return f"tool call {call['function']['name']}({call['function']['arguments']})"
        return f"text {message.get('content')!r}"
    return json.dumps(response, ensure_ascii=False)[:200]
