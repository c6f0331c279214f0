"""Lint one text: detect its kind, parse it with positions, run the core and the checks,
then apply configuration and suppressions. Never raises for any input."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING

from formscript import rules
from formscript.core.gate import GateResult, check_form_spec
from formscript.core.verdict import Problem, Verdict
from formscript.document import Document, Span, loads_json, parse_document
from formscript.document.model import ORIGIN
from formscript.lint.config import Settings
from formscript.lint.diagnostics import Change, Diagnostic, Fix
from formscript.lint.form_checks import FormMemo, form_checks
from formscript.lint.kinds import kind_from_name, sniff
from formscript.lint.report import NOT_A_KIND, FileReport

if TYPE_CHECKING:
    from formscript.core.script import ScriptResult
    from formscript.core.verdict import QuoteScalar, RemoveKey, ReplaceWith
    from formscript.lint.script_checks import ScriptMemo
    from formscript.lint.suppress import Suppression
    from formscript.rules.base import Rule

__all__ = [
    "FileReport",
    "PairedForm",
    "finish",
    "fix_for",
    "lint_document",
    "lint_text",
    "realize_fixes",
    "to_diagnostics",
]


@dataclass(frozen=True, slots=True)
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
    fixes: bool | None = True,
) -> FileReport:
    """Lint *text* as the file *path* (the path as given decides the title and the loader).

    ``fixes=False`` skips building fixes, for callers that only want the verdict and findings;
    ``fixes=None`` leaves them pending, each built when asked for (``fix_for``).
    """
    try:
        return _lint(text, path, settings or Settings(), kind, paired_form, fixes)
    except Exception as exc:  # a bug of ours must not crash the run: report it for this file
        return _failed(path, kind, exc)


def lint_document(
    doc: Document,
    path: str,
    *,
    settings: Settings | None = None,
    kind: str | None = None,
    fixes: bool | None = True,
    suppress: bool = True,
    memo: ScriptMemo | FormMemo | None = None,
) -> FileReport:
    """Lint an already located *doc* (of any syntax) as the file *path*; see ``lint_text``.

    ``suppress=False`` leaves suppression comments alone (a caller that lints several
    documents of one file applies them across all of them); *memo* keeps a script's built
    entries, or a form's built declarations and checked values, across versions of its text
    (``lint.incremental``)."""
    try:
        return _lint(doc.text, path, settings or Settings(), kind, None, fixes, doc, suppress, memo)
    except Exception as exc:  # a bug of ours must not crash the run: report it for this file
        return _failed(path, kind, exc)


def _failed(path: str, kind: str | None, exc: Exception) -> FileReport:
    """The report of a file whose linting raised *exc*."""
    failed = _located(rules.FSX000, rules.FSX000.message(error=exc), ORIGIN)
    return FileReport(path, kind, Verdict.VALIDATOR_ERROR, [failed])


def _lint(
    text: str,
    path: str,
    settings: Settings,
    kind: str | None,
    paired: PairedForm | None,
    fixes: bool | None = True,
    given: Document | None = None,
    suppress: bool = True,
    memo: ScriptMemo | FormMemo | None = None,
) -> FileReport:
    kind = kind or kind_from_name(path, settings)
    json_syntax = path.endswith(".json") and kind != "form"
    if kind == "script":
        from formscript.core.script import loads_as_yaml

        json_syntax = not loads_as_yaml(path)
    tolerated = tried = False
    if given is not None:
        doc = given
    elif kind == "script" and not json_syntax:
        doc, tolerated, tried = _script_document(text)
    else:
        doc = parse_document(text, "json" if json_syntax else "yaml")
    as_yaml: Document | None = None  # the text read as YAML, where a script's name says JSON
    if kind is None:
        kind = sniff(doc.value) if doc.ok else None
        if kind is None:
            return FileReport(path, None, None, note=NOT_A_KIND, document=doc)
        if kind == "script" and given is None:
            # Detected by content: the runtime still picks its loader by the suffix alone.
            from formscript.core.script import loads_as_yaml

            if json_syntax == loads_as_yaml(path):
                as_yaml = None if json_syntax else doc
                json_syntax = not json_syntax
                doc = parse_document(text, "json" if json_syntax else "yaml")
    if kind == "script" and not doc.ok and not json_syntax and given is None and not tried:
        from formscript.document.tolerate import tolerate

        partial = tolerate(text)
        if partial is not None:
            doc, tolerated = partial, True
    problems: list[Problem] = []
    report = FileReport(path, kind, None, document=doc)
    if kind == "form":
        problems, report.gate = _form(doc, text, path, memo if isinstance(memo, FormMemo) else None)
    elif kind == "script":
        script_memo = memo if memo is not None and not isinstance(memo, FormMemo) else None
        problems, report.script = _script(doc, text, path, json_syntax, as_yaml, script_memo)
        if tolerated:  # the runtime loads nothing: only the findings of the entries that parse
            broken = {("responses", i) for i, part in enumerate(getattr(doc, "parts", ())) if part is None}
            problems = [p for p in problems if tuple(p.path[:2]) not in broken]
            report.script = None
    elif kind == "rules":
        problems = _rules(doc, paired)
    else:
        from formscript.core.calls import read_calls  # the shape of a calls transcript, as core reads it

        problems = read_calls(doc.value).problems if doc.ok else []
    parse_problems = [_to_diagnostic(doc, p, None) for p in doc.problems]
    rejected = any(p.rejects for p in problems) or any(p.rejects for p in doc.problems)
    report.verdict = Verdict.REJECTED if rejected else Verdict.ACCEPTED
    diagnostics = parse_problems + to_diagnostics(doc, problems, None)
    report.diagnostics = realize_fixes(finish(diagnostics, doc, settings, path, suppress=suppress), doc, fixes)
    return report


def _script_document(text: str) -> tuple[Document, bool, bool]:
    """A YAML script's document, whether it is tolerated (some entries do not parse) and
    whether tolerating it was tried. Where libyaml refuses the text, the split into entries
    is tried before the pure-Python loader reads the whole text: when that loader refuses
    some entry alone (the cause), it refuses the whole; otherwise the whole text is read as
    ``parse_document`` reads it."""
    doc = parse_document(text, confirm=False)
    if not doc.unconfirmed:
        return doc, False, False
    from formscript.document.tolerate import tolerate

    partial = tolerate(text, refused=doc.refused_lines)
    if partial is not None:  # one broken entry hides none of the others
        return partial, True, True
    return parse_document(text), False, True


def realize_fixes(diagnostics: list[Diagnostic], doc: Document, fixes: bool | None = True) -> list[Diagnostic]:
    """*diagnostics* with the fixes still pending built on *doc* (when *fixes*), dropped (not
    *fixes*) or left pending (None): lint builds a fix only for a diagnostic it keeps
    (selected, not suppressed)."""
    if fixes is None:
        return diagnostics
    realized = []
    for diagnostic in diagnostics:
        if diagnostic.pending is not None:
            fix = _fix(doc, diagnostic.pending) if fixes else None
            diagnostic = dataclasses.replace(diagnostic, fix=fix, pending=None)
        realized.append(diagnostic)
    return realized


def _form(doc: Document, text: str, path: str, memo: FormMemo | None = None) -> tuple[list[Problem], GateResult | None]:
    value = doc.value
    if not doc.ok:
        # The runtime falls back to json.loads when YAML fails.
        try:
            value = loads_json(text)
        except Exception:
            return [], None
        doc.ok = True
        doc.problems.clear()
        doc.value = value
    result = check_form_spec(value, path, memo=memo.declarations if memo is not None else None)
    return result.problems + form_checks(doc, result, memo), result


def _script(
    doc: Document,
    text: str,
    path: str,
    json_syntax: bool,
    as_yaml: Document | None = None,
    memo: ScriptMemo | None = None,
) -> tuple[list[Problem], ScriptResult | None]:
    if not doc.ok:
        if json_syntax:
            yaml_doc = as_yaml if as_yaml is not None else parse_document(text, "yaml")
            if yaml_doc.ok:
                doc.problems.clear()
                return [rules.SC017.problem()], None
        return [], None
    from formscript.core.script import check_script
    from formscript.lint.script_checks import misread_strings, script_checks

    result = check_script(doc.value, memo.entries if memo is not None else None)
    return misread_strings(doc, result.problems) + script_checks(doc, result, memo), result


def _rules(doc: Document, paired: PairedForm | None) -> list[Problem]:
    if not doc.ok:
        return []
    from formscript.core.rulesets import apply_ruleset, load_ruleset
    from formscript.lint.checks import paired_rule_checks, ruleset_checks

    loaded = load_ruleset(doc.value)
    problems = loaded.problems + ruleset_checks(loaded.built)
    if paired is not None:
        form_doc = parse_document(paired.text)
        gate = check_form_spec(form_doc.value, paired.path) if form_doc.ok else None
        if gate is not None:
            values = form_doc.value.get("values") if isinstance(form_doc.value, dict) else None
            built = loaded.built
            problems.extend(paired_rule_checks(built, gate.declarations, values if isinstance(values, dict) else {}))
            if not loaded.refused:  # a ruleset that cannot be built is never applied
                ruled = apply_ruleset(form_doc.value, paired.path, loaded)
                if ruled.raised is not None:
                    problems.append(ruled.raised)
                index_of = {r.rule_id: i for i, r in built}
                for problem in ruled.gate.problems:
                    if problem.rule is rules.RS100:
                        where = ("rules", index_of.get(str(problem.rule_id), 0))
                        problems.append(dataclasses.replace(problem, path=where))
    return problems


def _dedupe(problems: list[Problem]) -> list[Problem]:
    """Drop the generic problem where a more specific one explains the same value."""
    replaced = {(rule.code, problem.path) for problem in problems for rule in problem.replaces}
    if not replaced:
        return problems
    return [p for p in problems if (p.code, p.path) not in replaced]


def _located(rule: Rule, message: str, span: Span) -> Diagnostic:
    """A diagnostic of *rule* made directly at *span* (no document path to resolve)."""
    return Diagnostic(rule.code, rule.severity, message, span)


def fix_for(diagnostic: Diagnostic, doc: Document) -> Fix | None:
    """The fix of *diagnostic* (made on *doc*), built now if it was left pending."""
    if diagnostic.fix is not None or diagnostic.pending is None:
        return diagnostic.fix
    return _fix(doc, diagnostic.pending)


def to_diagnostics(doc: Document, problems: list[Problem], fixes: bool | None = True) -> list[Diagnostic]:
    """*problems* located on *doc* (a more specific problem replacing a generic one), with
    their fixes realized as text edits when *fixes*."""
    return [_to_diagnostic(doc, p, fixes) for p in _dedupe(problems)]


def _to_diagnostic(doc: Document, problem: Problem, fixes: bool | None = True) -> Diagnostic:
    """*problem* located on *doc*, its fix built (*fixes*), left out (False) or left pending
    (None: see ``realize_fixes`` and ``fix_for``)."""
    span = problem.span if problem.span is not None else doc.locate(problem.path, on_key=problem.on_key)
    fix = _fix(doc, problem) if fixes and problem.fix is not None else None
    pending = problem if fixes is None and problem.fix is not None else None
    return Diagnostic(problem.code, problem.rule.severity, problem.message, span, fix, pending=pending)


def _fix(doc: Document, problem: Problem) -> Fix | None:
    """The text edits that realize the problem's fix on *doc*, or None when they cannot be made
    safely (*problem* has a fix: ``_to_diagnostic`` asks only then, and leaves only such pending)."""
    from formscript.core.verdict import QuoteScalar, RemoveKey

    plan = problem.fix
    if isinstance(plan, RemoveKey):
        return _remove_key_fix(doc, plan)
    if isinstance(plan, QuoteScalar):
        return _quote_fix(doc, plan)
    assert plan is not None
    return _replace_fix(doc, problem, plan)


def _quote_fix(doc: Document, plan: QuoteScalar) -> Fix | None:
    path = tuple(plan.path)
    edit = doc.replacement(path, plan.text, quoted=True)
    if edit is None:
        return None
    change = Change("set", path, plan.text)
    return Fix(f"quote {plan.text!r} so it stays a string", (edit,), safe=plan.safe, change=change)


def _replace_fix(doc: Document, problem: Problem, plan: ReplaceWith) -> Fix | None:
    path = tuple(problem.path)
    entry = doc.entry(path)
    if entry is None:
        return None
    on_key = problem.on_key and entry.key is not None
    if entry.scalar is None and not on_key:
        return None
    edit = doc.replacement(path, plan.text, on_key=on_key)
    if edit is None:
        return None
    change = Change("rename" if on_key else "set", path, plan.text)
    return Fix(f"replace with {plan.text!r}", (edit,), safe=False, change=change)


def _remove_key_fix(doc: Document, plan: RemoveKey) -> Fix | None:
    path = tuple(plan.path)
    edits = doc.removal(path)
    if edits is None:
        return None
    return Fix(plan.description, edits, safe=plan.safe, change=Change("remove", path))


def finish(
    diagnostics: list[Diagnostic], doc: Document, settings: Settings, path: str, *, suppress: bool = True
) -> list[Diagnostic]:
    """*diagnostics* as configured for *path* (selection, severities), less those *doc*'s
    suppression comments silence (with the findings on the comments themselves, unless
    not *suppress*), in output order."""
    suppressions = []
    if suppress and "formscript:" in doc.text:
        from formscript.lint.suppress import find_suppressions

        suppressions = find_suppressions(doc.comments())
    kept: list[Diagnostic] = []
    enabled: dict[str, bool] = {}  # a file's findings share a few codes: each asked once
    for diagnostic in diagnostics:
        code = diagnostic.code
        wanted = enabled.get(code)
        if wanted is None:
            wanted = enabled[code] = settings.enabled(code, path)
        if not wanted:
            continue
        if suppressions:
            line = diagnostic.span.start.line
            hit = next((s for s in suppressions if s.covers(code, line)), None)
            if hit is not None:
                hit.used.add(code)
                continue
        severity = settings.severity_of(code, diagnostic.severity)
        if severity != diagnostic.severity:
            diagnostic = dataclasses.replace(diagnostic, severity=severity)
        kept.append(diagnostic)
    kept.extend(suppression_findings(suppressions, settings, path))
    return in_order(kept)


def in_order(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """*diagnostics* without repeats, in output order."""
    # (start, code, message, end): sort_key() and then the end, as positions are (line, column)
    unique = {(d.span[0], d.code, d.message, d.span[1]): d for d in diagnostics}
    return [unique[key] for key in sorted(unique)]


def suppression_findings(suppressions: list[Suppression], settings: Settings, path: str) -> list[Diagnostic]:
    """The findings on suppression comments (after they have been applied): one whose codes
    matched nothing, one without a reason; as configured for *path*."""
    found: list[Diagnostic] = []
    for suppression in suppressions:
        unused = [c for c in suppression.codes if c not in suppression.used]
        extra: list[Diagnostic] = []
        if unused:
            extra.append(_located(rules.FSX001, rules.FSX001.message(unused=unused), suppression.span))
        if not suppression.reason:
            extra.append(_located(rules.FSX002, rules.FSX002.message(), suppression.span))
        for item in extra:
            if settings.enabled(item.code, path):
                found.append(dataclasses.replace(item, severity=settings.severity_of(item.code, item.severity)))
    return found
