"""``formscript dry-run``: what the model would receive from a form (the context block and the
prompt), the verdict, and what a ruleset says of the values."""

from __future__ import annotations

from typing import Any

from formscript.core.expansion import explodes
from formscript.core.gate import PROMPT_CAP, GateResult, final_prompt, prompt_problem
from formscript.core.printable import printable_repr, type_label
from formscript.core.rulesets import apply_ruleset, load_ruleset
from formscript.core.verdict import Problem, Span
from formscript.document import Document, parse_document
from formscript.lint.diagnostics import Diagnostic
from formscript.lint.engine import lint_text
from formscript.lint.formats import printable, terminal_safe
from formscript.lint.report import FileReport
from formscript.runs.common import json_safe, reads_a_file


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
        result["errors"] = [_error(d, source, d.span) for d in report.diagnostics if d.severity == "error"]
        return result
    if rules_doc is not None and loaded is not None and reads_a_file(report):
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
        result["errors"].append(_error(problem, source, span, field=problem.field, rule_id=problem.rule_id))
    result["context_block"] = gate.prompt_prefix if gate.context_block is not None else None
    if result["verdict"] == "accepted" and reads_a_file(report):
        result["prompt_room"] = gate.prompt_room
        if prompt is not None:
            _apply_prompt(result, gate, prompt, source)
    if report.embedded is not None:
        result["embedded"] = {"call": report.embedded.call, "line": report.embedded.span.start.line + 1}
        result["sends_prompt"] = reads_a_file(report)
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
    return _error(problem, rules_path or "", span, rule_id=problem.rule_id)


def _error(
    found: Problem | Diagnostic, path: str, span: Span | None, *, field: Any = None, rule_id: Any = None
) -> dict[str, Any]:
    """One of a dry run's errors, at *span* in the file *path* (1-based; None: not located)."""
    return {
        "code": found.code,
        "message": found.message,
        "field": field,
        "rule_id": rule_id,
        "path": path,
        "line": span.start.line + 1 if span is not None else None,
        "column": span.start.column + 1 if span is not None else None,
    }


def _apply_prompt(result: dict[str, Any], gate: GateResult, prompt: str, path: str) -> None:
    """The prompt cap on the form's prefix and *prompt*: the final prompt, or the refusal."""
    problem = prompt_problem(gate, prompt)
    if problem is None:
        result["prompt"] = final_prompt(gate.prompt_prefix, prompt)
        return
    result["verdict"] = "rejected"
    result["context_block"] = None
    result["errors"].append(_error(problem, path, None))


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
        heading = f"li agent sends this prompt ({len(sent):,} of at most {PROMPT_CAP:,} characters):"
        lines += [heading, "-" * 40, sent[:-1] if sent.endswith("\n") else sent, "-" * 40]
    elif result["context_block"] is not None:
        lines += ["the model receives, before the prompt:", "-" * 40, result["context_block"].rstrip("\n"), "-" * 40]
    elif result["verdict"] == "accepted":
        lines.append("nothing is added to the prompt (no values)")
    else:
        lines.append("no model call is made: li agent exits with status 1")
    return printable(terminal_safe("\n".join(lines) + "\n", lines=True))  # nothing raw reaches a terminal


def dry_run_unread(report: FileReport) -> dict[str, Any]:
    """The dry run of a file that cannot be read as text (not a regular file, not UTF-8, …):
    *report* (``lint.reading``) says why; the runtime refuses it too, so no model call (and
    the result has no prompt to show)."""
    result = dry_run_report(report, report.path)
    del result["prompt"], result["prompt_room"]
    return result
