"""Lint one text: detect its kind, parse it with positions, run the core and the checks,
then apply configuration and suppressions. Never raises for any input."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from formscript.core.gate import GateResult, check_form_spec
from formscript.core.verdict import Problem, Severity, Verdict
from formscript.document.located import Document, Pos, Span, parse_document
from formscript.lint.config import Settings
from formscript.lint.diagnostics import Diagnostic, Fix, TextEdit
from formscript.lint.form_checks import form_checks
from formscript.lint.kinds import kind_from_name, sniff
from formscript.lint.report import FileReport

if TYPE_CHECKING:
    from formscript.core.script import ScriptResult

__all__ = ["FileReport", "PairedForm", "lint_text"]


@dataclass(frozen=True)
class PairedForm:
    """A form spec to check a ruleset against (``--form``)."""

    text: str
    path: str


def lint_text(
    text: str,
    path: str,
    *,
    settings: Settings | None = None,
    kind: str | None = None,
    paired_form: PairedForm | None = None,
    fixes: bool = True,
) -> FileReport:
    """Lint *text* as the file *path* (the path as given decides the title and the loader).

    ``fixes=False`` skips building fixes, for callers that only want the verdict and findings.
    """
    settings = settings or Settings()
    try:
        report = _lint(text, path, settings, kind, paired_form, fixes)
    except Exception as exc:  # a bug of ours must not crash the run: report it for this file
        span = Span(Pos(0, 0), Pos(0, 0))
        message = f"formscript failed on this file ({type(exc).__name__}: {exc}); please report it"
        return FileReport(path, kind, Verdict.VALIDATOR_ERROR, [Diagnostic("FSX000", "error", message, span)])
    return report


def _lint(
    text: str,
    path: str,
    settings: Settings,
    kind: str | None,
    paired: PairedForm | None,
    fixes: bool = True,
) -> FileReport:
    kind = kind or kind_from_name(path, settings)
    json_syntax = path.endswith(".json") and kind != "form"
    if kind == "script":
        from formscript.core.script import loads_as_yaml

        json_syntax = not loads_as_yaml(path)
    doc = parse_document(text, "json" if json_syntax else "yaml")
    if kind is None:
        kind = sniff(doc.value) if doc.ok else None
        if kind is None:
            note = "skipped: not a form spec, script, ruleset or calls transcript"
            return FileReport(path, None, None, note=note, document=doc)
    problems: list[Problem] = []
    report = FileReport(path, kind, None, document=doc)
    undecidable = False
    if kind == "form":
        problems, report.gate = _form(doc, text, path)
    elif kind == "script":
        problems, report.script = _script(doc, text, path, json_syntax)
    elif kind == "rules":
        problems, undecidable = _rules(doc, paired)
    else:
        from formscript.lint.checks import calls_checks

        problems = calls_checks(doc.value) if doc.ok else []
    parse_problems = _parse_problems(doc, kind, problems)
    rejected = any(p.rejects for p in problems) or any(p.rejects for p in doc.problems)
    if rejected:
        report.verdict = Verdict.REJECTED
    elif undecidable:
        report.verdict = Verdict.INSUFFICIENT_EVIDENCE
    else:
        report.verdict = Verdict.ACCEPTED
    diagnostics = parse_problems + [_to_diagnostic(doc, p, fixes) for p in _dedupe(problems)]
    report.diagnostics = _finish(diagnostics, doc, settings, path)
    return report


def _form(doc: Document, text: str, path: str) -> tuple[list[Problem], GateResult | None]:
    value = doc.value
    if not doc.ok:
        # The runtime falls back to json.loads when YAML fails.
        try:
            value = json.loads(text)
        except Exception:
            return [], None
        doc.ok = True
        doc.problems.clear()
        doc.value = value
    result = check_form_spec(value, path)
    return result.problems + form_checks(doc, result), result


def _script(doc: Document, text: str, path: str, json_syntax: bool) -> tuple[list[Problem], ScriptResult | None]:
    if not doc.ok:
        if json_syntax:
            yaml_doc = parse_document(text, "yaml")
            if yaml_doc.ok:
                doc.problems.clear()
                return [
                    Problem(
                        "SC017",
                        "this file is read with json.load because its name does "
                        "not end in .yaml or .yml, and it is not strict JSON; rename it "
                        "or write JSON",
                        rejects=True,
                    )
                ], None
        return [], None
    from formscript.core.script import check_script
    from formscript.lint.script_checks import script_checks

    result = check_script(doc.value)
    return result.problems + script_checks(doc, result), result


def _rules(doc: Document, paired: PairedForm | None) -> tuple[list[Problem], bool]:
    if not doc.ok:
        return [], False
    from formscript.core.rules import RuleSet
    from formscript.lint.checks import paired_rule_checks, ruleset_rules

    rules, problems, undecidable = ruleset_rules(doc.value)
    if paired is not None:
        form_doc = parse_document(paired.text)
        gate = check_form_spec(form_doc.value, paired.path) if form_doc.ok else None
        if gate is not None:
            values = form_doc.value.get("values") if isinstance(form_doc.value, dict) else None
            problems.extend(paired_rule_checks(rules, gate.declarations, values if isinstance(values, dict) else {}))
            decidable = [(i, r) for i, r in rules if r.check != "custom"]
            ruleset = RuleSet()
            for _, rule in decidable:
                ruleset.add(rule)
            index_of = {r.rule_id: i for i, r in decidable}
            try:
                ruled = check_form_spec(form_doc.value, paired.path, ruleset=ruleset)
            except Exception as exc:  # a rule the runtime itself would crash on
                problems.append(
                    Problem("RS100", f"applying the rules raises {type(exc).__name__}: {exc}", rejects=True)
                )
            else:
                for problem in ruled.problems:
                    if problem.code == "RS100":
                        rule_id = problem.data.get("rule_id")
                        where = ("rules", index_of.get(str(rule_id), 0))
                        problems.append(Problem("RS100", problem.message, path=where, rejects=True, data=problem.data))
    return problems, undecidable


def _parse_problems(doc: Document, kind: str, problems: list[Problem]) -> list[Diagnostic]:
    out = []
    for problem in doc.problems:
        out.append(Diagnostic(problem.code, _default_severity(problem.code), problem.message, problem.span))
    return out


def _default_severity(code: str) -> Severity:
    from formscript.lint import catalogue  # only files with findings need the catalogue

    return catalogue.default_severity(code)


def _dedupe(problems: list[Problem]) -> list[Problem]:
    """Drop the generic problem where a more specific one explains the same value."""
    replaced: set[tuple[str, tuple[object, ...]]] = set()
    for problem in problems:
        for code in problem.data.get("replaces", ()):  # type: ignore[attr-defined]
            replaced.add((code, problem.path))
    return [p for p in problems if (p.code, p.path) not in replaced]


def _to_diagnostic(doc: Document, problem: Problem, fixes: bool = True) -> Diagnostic:
    span = doc.locate(problem.path, on_key=problem.on_key)
    severity = problem.severity or ("error" if problem.rejects else _default_severity(problem.code))
    return Diagnostic(problem.code, severity, problem.message, span, _fix(doc, problem) if fixes else None)


def _fix(doc: Document, problem: Problem) -> Fix | None:
    spec: Any = problem.data.get("fix")
    suggestion = problem.data.get("suggest")
    if isinstance(spec, dict) and spec.get("op") == "remove_key":
        return _remove_key_fix(doc, spec)
    if isinstance(spec, dict) and spec.get("op") == "quote":
        entry = doc.entry(tuple(spec["path"]))
        if entry is None:
            return None
        text = str(spec["text"])
        quoted = "'" + text.replace("'", "''") + "'"
        return Fix(
            f"quote {text!r} so it stays a string", (TextEdit(entry.value, quoted),), safe=bool(spec.get("safe"))
        )
    if isinstance(suggestion, str):
        entry = doc.entry(tuple(problem.path))
        if entry is None:
            return None
        target = entry.key if problem.on_key and entry.key is not None else entry.value
        if entry.scalar is None and not problem.on_key:
            return None
        return Fix(f"replace with {suggestion!r}", (TextEdit(target, suggestion),), safe=False)
    return None


def _remove_key_fix(doc: Document, spec: dict[str, Any]) -> Fix | None:
    path = tuple(spec["path"])
    entry = doc.entry(path)
    if entry is None or entry.key is None:
        return None
    from formscript.lint.structural import remove_key_edits

    end_line = entry.value.end.line - (1 if entry.value.end.column == 0 else 0)
    edits = remove_key_edits(doc.text, path, doc.value, (entry.key.start.line, max(end_line, entry.key.start.line)))
    if edits is None:
        return None
    return Fix(str(spec.get("description", "remove the key")), edits, safe=bool(spec.get("safe")))


def _finish(diagnostics: list[Diagnostic], doc: Document, settings: Settings, path: str) -> list[Diagnostic]:
    suppressions = []
    if "formscript:" in doc.text:
        from formscript.lint.suppress import find_suppressions

        suppressions = find_suppressions(doc.lines)
    kept: list[Diagnostic] = []
    for diagnostic in diagnostics:
        if not settings.enabled(diagnostic.code, path):
            continue
        line = diagnostic.span.start.line
        hit = next((s for s in suppressions if s.covers(diagnostic.code, line)), None)
        if hit is not None:
            hit.used.add(diagnostic.code)
            continue
        severity = settings.severity_of(diagnostic.code, diagnostic.severity)
        if severity != diagnostic.severity:
            diagnostic = Diagnostic(
                diagnostic.code, severity, diagnostic.message, diagnostic.span, diagnostic.fix, diagnostic.related
            )
        kept.append(diagnostic)
    for suppression in suppressions:
        unused = [c for c in suppression.codes if c not in suppression.used]
        extra: list[Diagnostic] = []
        if unused:
            extra.append(
                Diagnostic(
                    "FSX001",
                    "warning",
                    "suppression of " + ", ".join(unused) + " matches nothing here",
                    suppression.span,
                )
            )
        if not suppression.reason:
            extra.append(
                Diagnostic(
                    "FSX002",
                    "warning",
                    "suppression gives no reason; add one after the closing bracket",
                    suppression.span,
                )
            )
        for item in extra:
            if settings.enabled(item.code, path):
                kept.append(
                    Diagnostic(item.code, settings.severity_of(item.code, item.severity), item.message, item.span)
                )
    unique = {(d.sort_key(), d.span.end): d for d in kept}
    return sorted(unique.values(), key=lambda d: (d.sort_key(), d.span.end.line, d.span.end.column))
