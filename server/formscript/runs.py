"""Dry runs and simulations: what the model would receive, and which entry serves each call.

Both are deterministic functions of the files; nothing calls a model or imports lionagi.
"""

from __future__ import annotations

import json
import math
from typing import Any

from formscript.core.branch import Miss, misses
from formscript.core.calls import Call, read_calls
from formscript.core.endpoint import completion_for, raised_for, stream_for
from formscript.core.expansion import (
    EXPANSION_LIMIT,
    SERVABLE_CHARACTERS,
    Exhausts,
    encoded_length,
    explodes,
    json_error,
    measure,
)
from formscript.core.forms import type_label
from formscript.core.gate import PROMPT_CAP, GateResult, final_prompt, prompt_problem
from formscript.core.printable import printable_repr, unprintable_int
from formscript.core.regex_guard import BoundedSearch, Estimate, RegexTimeout, duration
from formscript.core.rulesets import apply_ruleset, load_ruleset
from formscript.core.script import Match, RegexFailure, Replayer, ScriptExhausted
from formscript.core.verdict import Problem
from formscript.document import Document, parse_document
from formscript.lint.engine import lint_text
from formscript.lint.formats import printable, terminal_safe
from formscript.lint.report import FileReport

CONTRACT_VERSION = 1


def json_safe(value: Any) -> Any:
    """*value* as plain JSON: non-finite floats and other types become their repr, ints too
    long for decimal text their hex; an alias bomb becomes a note instead of being expanded;
    a container met again inside itself becomes ``"[...]"`` or ``"{...}"``, as repr writes it."""
    if isinstance(value, dict | list | tuple):
        shape = measure(value)
        if shape.size > EXPANSION_LIMIT:
            return f"<expands to more than {EXPANSION_LIMIT:,} values through YAML aliases>"
        if shape.cyclic:
            value = _cut_cycles(value)
    return _plain(value)


def _cut_cycles(value: Any) -> Any:
    """A copy of *value* where each container met again inside itself is the text repr
    writes for it (``[...]``, ``{...}``); iterative, so any depth copies."""
    on_path: set[int] = set()
    results: list[Any] = []
    todo: list[tuple[bool, Any]] = [(False, value)]
    while todo:
        leaving, node = todo.pop()
        if leaving:
            on_path.discard(id(node))
            size = len(node) * 2 if isinstance(node, dict) else len(node)
            parts = results[len(results) - size :] if size else []
            del results[len(results) - size :]
            if isinstance(node, dict):
                results.append(dict(zip(parts[0::2], parts[1::2], strict=True)))
            else:
                results.append(tuple(parts) if isinstance(node, tuple) else parts)
        elif isinstance(node, dict | list | tuple):
            if id(node) in on_path:
                results.append("{...}" if isinstance(node, dict) else "[...]" if isinstance(node, list) else "(...)")
                continue
            on_path.add(id(node))
            todo.append((True, node))
            items = [x for pair in node.items() for x in pair] if isinstance(node, dict) else list(node)
            todo.extend((False, item) for item in reversed(items))
        else:
            results.append(node)
    return results[0]


#: Marks the end of a container's members on ``_plain``'s stack.
_DONE = object()


def _plain(value: Any) -> Any:
    """*value* with every part JSON can write kept and the rest as text; iterative, so any
    nesting depth converts, and a container met again inside itself becomes ``[...]`` or
    ``{...}`` as repr writes it."""
    holder: list[Any] = [None]
    todo: list[tuple[Any, Any, Any]] = [(value, holder, 0)]
    inside: set[int] = set()
    while todo:
        item, target, slot = todo.pop()
        if item is _DONE:
            inside.discard(slot)
            continue
        if isinstance(item, list | tuple | dict):
            if id(item) in inside:
                target[slot] = "{...}" if isinstance(item, dict) else "[...]"
                continue
            inside.add(id(item))
            todo.append((_DONE, None, id(item)))
            if isinstance(item, dict):
                members: dict[str, Any] = {}
                pending = []
                for key, member in item.items():
                    name = key if isinstance(key, str) else _text(key)
                    members[name] = None
                    pending.append((member, members, name))
                target[slot] = members
                todo.extend(reversed(pending))  # in order, so a later equal name wins
            else:
                items: list[Any] = [None] * len(item)
                target[slot] = items
                todo.extend((member, items, index) for index, member in enumerate(item))
            continue
        target[slot] = _scalar(item)
    return holder[0]


def _scalar(value: Any) -> Any:
    if value is None or isinstance(value, bool | str):
        return value
    if isinstance(value, int):
        return hex(value) if unprintable_int(value) else value
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    return printable_repr(value)


def _text(key: Any) -> str:
    """A mapping key as JSON's text."""
    if unprintable_int(key):
        return hex(key)
    try:
        return str(key)
    except ValueError:
        return printable_repr(key)


def _line_of(doc: Document | None, path: tuple[object, ...]) -> int | None:
    if doc is None:
        return None
    entry = doc.entry(path)
    return entry.value.start.line + 1 if entry is not None else None


# ---------------------------------------------------------------------------- dry run


def dry_run_text(
    text: str,
    path: str,
    rules_text: str | None = None,
    rules_path: str | None = None,
    *,
    prompt: str | None = None,
) -> dict[str, Any]:
    """The ``li agent --form`` gate on *text*, optionally with a ruleset, as a JSON-ready dict.

    With *prompt* (the prompt text ``li agent`` is given), the result also holds the exact
    prompt it hands to the run, and the cap applies to the form's prefix and the prompt
    together; without one, the cap applies to the prefix alone (any prompt is longer).
    """
    report = lint_text(text, path, kind="form", fixes=False)
    return dry_run_report(report, path, rules_text, rules_path, prompt=prompt)


def dry_run_report(
    report: FileReport,
    path: str,
    rules_text: str | None = None,
    rules_path: str | None = None,
    *,
    prompt: str | None = None,
) -> dict[str, Any]:
    """The dry run of a linted form (a file's, or one embedded in a Python file, whose errors
    then name the Python file); *prompt* as for ``dry_run_text``."""
    source = report.path if report.embedded is not None else path
    result: dict[str, Any] = {
        "path": path,
        "verdict": report.verdict.value if report.verdict else None,
        "status": None,
        "title": None,
        "values": {},
        "errors": [],
        "context_block": None,
        "prompt": None,
        "prompt_room": None,
    }
    rules_doc = parse_document(rules_text) if rules_text is not None else None
    loaded = None
    if rules_doc is not None:
        # A program following the README builds the RuleSet first: if that raises, it stops
        # before any form is filled or any model called.
        loaded = load_ruleset(rules_doc.value) if rules_doc.ok else None
        refusing = [p for p in rules_doc.problems if p.rejects]
        refusing += [p for p in loaded.problems if p.rejects] if loaded is not None else []
        if refusing or loaded is None:
            result.update(verdict="rejected", errors=[_rules_error(rules_doc, p, rules_path) for p in refusing])
            return result
    gate = report.gate
    if gate is None:
        result["errors"] = [_error(d, source) for d in report.diagnostics if d.severity == "error"]
        return result
    if rules_doc is not None and loaded is not None and _reads_a_file(report):
        ruled = apply_ruleset(report.document.value if report.document is not None else None, path, loaded)
        if ruled.raised is not None:  # fill_form dies with the rule's exception
            result.update(verdict="rejected", errors=[_rules_error(rules_doc, ruled.raised, rules_path)])
            return result
        gate = ruled.gate
        result["verdict"] = gate.verdict.value
    spec = report.document.value if report.document is not None else {}
    given = spec.get("values") if isinstance(spec, dict) else None
    given = given if isinstance(given, dict) else {}
    form = gate.form
    if form is not None:
        result["status"] = form.status
        result["title"] = form.title
        for key, value in form.values.items():
            raw = given.get(key, value)
            item = {
                "given": json_safe(raw),
                "given_type": type_label(raw),
                "value": json_safe(value),
                "type": type_label(value),
                "repr": printable_repr(value) if not explodes(value) else json_safe(value),
                "from_default": key not in given,
            }
            if type(key) is not str:  # a !!binary key: the block writes str(key), b'...'
                item["key_repr"] = printable_repr(key)
            result["values"][str(key)] = item
    doc = report.document
    for problem in _as_lint_says(doc, gate):
        if not problem.rejects:
            continue
        span = doc.locate(problem.path, on_key=problem.on_key) if doc is not None else None
        result["errors"].append(
            {
                "code": problem.code,
                "message": problem.message,
                "field": problem.field,
                "rule_id": problem.rule_id,
                "path": source,
                "line": span.start.line + 1 if span else None,
                "column": span.start.column + 1 if span else None,
            }
        )
    result["context_block"] = gate.prompt_prefix if gate.context_block is not None else None
    if result["verdict"] == "accepted" and _reads_a_file(report):
        result["prompt_room"] = gate.prompt_room
        if prompt is not None:
            _apply_prompt(result, gate, prompt, source)
    if report.embedded is not None:
        result["embedded"] = {"call": report.embedded.call, "line": report.embedded.span.start.line + 1}
        result["sends_prompt"] = _reads_a_file(report)
    return result


def _as_lint_says(doc: Document | None, gate: GateResult) -> list[Problem]:
    """The gate's problems with the code and message lint shows for each: a more specific
    finding (a YAML 1.1 reading) in the place of the generic one it explains."""
    if doc is None or not doc.ok:
        return list(gate.problems)
    from formscript.lint.form_checks import form_checks

    specific = {(rule.code, p.path): p for p in form_checks(doc, gate) if p.rejects for rule in p.replaces}
    return [specific.get((p.code, p.path), p) for p in gate.problems]


def _rules_error(doc: Document, problem: Problem, rules_path: str | None) -> dict[str, Any]:
    """A ruleset's problem as a dry run's error, located in the ruleset file."""
    span = problem.span if problem.span is not None else doc.locate(problem.path, on_key=problem.on_key)
    return {
        "code": problem.code,
        "message": problem.message,
        "field": None,
        "rule_id": problem.rule_id,
        "path": rules_path or "",
        "line": span.start.line + 1,
        "column": span.start.column + 1,
    }


def _apply_prompt(result: dict[str, Any], gate: GateResult, prompt: str, path: str) -> None:
    """The prompt cap on the form's prefix and *prompt*: the final prompt, or the refusal."""
    problem = prompt_problem(gate, prompt)
    if problem is None:
        result["prompt"] = final_prompt(gate.prompt_prefix, prompt)
        return
    result["verdict"] = "rejected"
    result["context_block"] = None
    result["errors"].append(
        {
            "code": problem.code,
            "message": problem.message,
            "field": None,
            "rule_id": None,
            "path": path,
            "line": None,
            "column": None,
        }
    )


# -------------------------------------------------------------- documents in Python files


def _reads_a_file(report: FileReport) -> bool:
    """Whether the form is one ``li agent --form`` reads (a file, or a text a test writes to one)."""
    if report.embedded is None:
        return True
    from formscript.document.python import EmbeddedDocument

    return isinstance(report.document, EmbeddedDocument)


def split_location(given: str) -> tuple[str, int | None]:
    """``FILE.py:LINE`` as (FILE.py, LINE); any other argument as (it, None)."""
    path, colon, line = given.rpartition(":")
    if colon and path.endswith(".py") and line.isdigit() and int(line) > 0:
        return path, int(line)
    return given, None


def embedded_report(text: str, path: str, line: int, kind: str) -> FileReport | str:
    """The document of *kind* that the Python file *path* hands to lionagi on *line* (1-based):
    the one whose literal starts there, else the one whose call does; a message when none."""
    from formscript.lint.python_lint import lint_python

    bundle = lint_python(text, path, fixes=False)
    parts = [p for p in bundle.parts or [] if p.kind == kind and p.embedded is not None]
    usable = [p for p in parts if not _is_declaration(p)]
    for wanted in ("literal", "call"):
        for part in usable:
            assert part.embedded is not None
            call = part.embedded.call_span
            if wanted == "literal" and part.embedded.span.start.line + 1 == line:
                return part
            if wanted == "call" and call is not None and call.start.line + 1 == line:
                return part
    lines = sorted({p.embedded.span.start.line + 1 for p in usable if p.embedded is not None})
    where = ", ".join(str(n) for n in lines) if lines else "none"
    noun = "form" if kind == "form" else "script"
    return f"{path}:{line}: no {noun} is handed to lionagi on this line (lines with one: {where})"


def _is_declaration(part: FileReport) -> bool:
    """A FieldSpec(...) on its own: a declaration, not a form to dry-run."""
    return part.embedded is not None and part.gate is None and part.kind == "form"


def _error(d: Any, path: str) -> dict[str, Any]:
    return {
        "code": d.code,
        "message": d.message,
        "field": None,
        "rule_id": None,
        "path": path,
        "line": d.span.start.line + 1,
        "column": d.span.start.column + 1,
    }


def render_dry_run(result: dict[str, Any]) -> str:
    """The dry run as text for a terminal."""
    lines = [f"{result['path']}: {result['verdict']}" + (f" (status {result['status']})" if result["status"] else "")]
    if result["values"]:
        lines.append("values:")
        for key, info in result["values"].items():
            note = " (default)" if info["from_default"] else ""
            if info["given_type"] != info["type"] or info["given"] != info["value"]:
                lines.append(
                    f"  {key}: {info['given']!r} ({info['given_type']}) -> {info['repr']} ({info['type']}){note}"
                )
            else:
                lines.append(f"  {key}: {info['repr']} ({info['type']}){note}")
    if result["errors"]:
        lines.append("errors:")
        for error in result["errors"]:
            where = f"{error['path']}:{error['line']}: " if error.get("line") else ""
            label = error["code"] + (f" {error['rule_id']}" if error.get("rule_id") else "")
            lines.append(f"  {where}[{label}] {error['message']}")
    sends = result.get("embedded") is None or result.get("sends_prompt", False)
    if not sends:
        call = result["embedded"]["call"]
        lines.append(f"{call} in Python: it builds a form and sends no prompt")
    elif result.get("prompt") is not None:
        sent = result["prompt"]
        lines.append(f"li agent sends this prompt ({len(sent):,} of at most {PROMPT_CAP:,} characters):")
        lines.append("-" * 40)
        lines.append(sent[:-1] if sent.endswith("\n") else sent)
        lines.append("-" * 40)
    elif result["context_block"] is not None:
        lines.append("the model receives, before the prompt:")
        lines.append("-" * 40)
        lines.append(result["context_block"].rstrip("\n"))
        lines.append("-" * 40)
    elif result["verdict"] == "accepted":
        lines.append("nothing is added to the prompt (no values)")
    else:
        lines.append("no model call is made: li agent exits with status 1")
    return printable(terminal_safe("\n".join(lines) + "\n", lines=True))  # nothing raw reaches a terminal


def dry_run_unread(report: FileReport) -> dict[str, Any]:
    """The dry run of a file that cannot be read as text (not a regular file, not UTF-8, …):
    *report* (``lint.reading``) says why; the runtime refuses it too, so no model call."""
    return {
        "path": report.path,
        "verdict": report.verdict.value if report.verdict else None,
        "status": None,
        "title": None,
        "values": {},
        "errors": [_error(d, report.path) for d in report.diagnostics if d.severity == "error"],
        "context_block": None,
    }


# ------------------------------------------------------------------------- simulation


def _matched(match: Match) -> dict[str, Any]:
    return {"kind": match.kind, "value": json_safe(match.value)}


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
    reach = _reachability(entries, script.mode)
    for index, entry in enumerate(entries):
        out["entries"].append(
            {
                "index": index,
                "type": entry.type,
                "line": _line_of(doc, ("responses", index)),
                "conditional": entry.conditional,
                "reachability": reach[index],
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
                out["calls"].append(record)
                break
            except RegexFailure as exc:
                record.update(outcome="invalid_regex", entry=exc.entry, error=str(exc))
                out["calls"].append(record)
                break
            except RegexTimeout as exc:
                record.update(outcome="regex_timeout", error=str(exc), timeout=exc.as_json())
                out["calls"].append(record)
                break
            except Exception as exc:  # the runtime raises the same on this payload
                record.update(outcome="raised", error=f"{type(exc).__name__}: {exc}")
                out["calls"].append(record)
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
                line=_line_of(doc, ("responses", match.entry)),
                matched_by=_matched(match),
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
                    out["calls"].append(record)
                    continue
                record.update(
                    outcome="too_large",
                    error="the response expands to more than "
                    f"{EXPANSION_LIMIT:,} values through YAML aliases and to more than "
                    f"{SERVABLE_CHARACTERS:,} characters of JSON; encoding it may exhaust the runtime's memory",
                )
                out["calls"].append(record)
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
                out["calls"].append(record)
                break
            out["calls"].append(record)
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


def _reachability(entries: list[Any], mode: str) -> list[str]:
    states = []
    for entry in entries:
        if mode == "positional" and entry.conditional:
            states.append("never (conditional entries are skipped in positional mode)")
        elif mode == "when_only" and not entry.conditional:
            states.append("never (when_only mode serves only conditional entries)")
        elif entry.conditional:
            states.append("when its matcher matches (at most once)")
        else:
            states.append("positional")
    return states


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


def simulation_unread(report: FileReport) -> dict[str, Any]:
    """The simulation of a script that cannot be read as text: *report* (``lint.reading``)
    says why; the runtime's endpoint raises on it, so no call is served."""
    return {
        "version": CONTRACT_VERSION,
        "path": report.path,
        "verdict": report.verdict.value if report.verdict else None,
        "mode": None,
        "script_version": None,
        "calls": [],
        "unreached": [],
        "entries": [],
        "errors": [
            {"code": d.code, "message": d.message, "line": d.span.start.line + 1}
            for d in report.diagnostics
            if d.severity == "error"
        ],
    }


def _preview(response: Any) -> str:
    if isinstance(response, dict):
        message = response.get("choices", [{}])[0].get("message", {})
        if message.get("tool_calls"):
            call = message["tool_calls"][0]
            return f"tool call {call['function']['name']}({call['function']['arguments']})"
        return f"text {message.get('content')!r}"
    return json.dumps(response, ensure_ascii=False)[:200]
