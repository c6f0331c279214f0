"""Expected outcomes: a document's verdict set against what its test states (expectation-unmet).

``document.pyexpect`` reads what a test states about a call (an exception a block expects, a
status it asserts); here each document's report is compared with it:

- the outcome stated is the one lionagi gives: the report keeps its verdict, its findings are
  not reported (``report.expected`` says by what); the command line counts these apart;
- lionagi accepts what the test expects it to refuse, or raises what the block does not
  catch, or returns where the test expects an exception: one error at the call, in
  place of the document's findings — where the outcome is certain (the call is the first
  thing in the block that can raise, and for an accepted document the last);
- otherwise (the exception is not known, something else in the block may raise first) the
  findings are set aside as the test's own business, and nothing is claimed.
"""

from __future__ import annotations

import ast
import dataclasses
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from formscript import rules
from formscript.core.verdict import Verdict
from formscript.document.model import Span
from formscript.document.pyexpect import Expectation, applications, catches, expectations, shown
from formscript.lint.diagnostics import Diagnostic
from formscript.lint.engine import in_order
from formscript.lint.raised import message, refused_first
from formscript.lint.report import Expected, FileReport

if TYPE_CHECKING:
    from formscript.core.verdict import Problem
    from formscript.document.pyextract import Embedded
    from formscript.document.pyliteral import SourceLines
    from formscript.lint.config import Settings

__all__ = ["judge"]

_VALIDATION = "pydantic_core.ValidationError"
_TYPE = "builtins.TypeError"
#: A call that returns (a form with status "error"), raising nothing.
_RETURNS = ""


def judge(
    tree: ast.Module,
    lines: SourceLines,
    found: list[Embedded],
    reports: dict[int, FileReport | None],
    settings: Settings,
    path: str,
) -> None:
    """Set each report of *found* (by ``id`` of its Embedded in *reports*) against what its
    test states, in place."""
    calls: dict[int, str] = {}
    for embedded in found:
        report = reports.get(id(embedded))
        if report is None:
            continue
        if embedded.semantic in ("text", "dumped", "yaml_dumped"):
            for consumer in embedded.consumers:
                calls[id(consumer)] = embedded.semantic
            if report.kind == "form":
                calls.setdefault(id(embedded.node), "written_form")
            continue
        calls[id(embedded.node)] = embedded.semantic
    if not calls:
        return
    accepted = [e for e in found if (r := reports.get(id(e))) is not None and r.verdict is Verdict.ACCEPTED]
    quiet = frozenset(id(e.node) for e in accepted if e.semantic not in ("text", "dumped", "yaml_dumped"))
    stated = expectations(tree, lines, calls, quiet)
    applied = applications(tree, lines, calls, quiet)
    if not stated and not applied:
        return
    judging = _Judging(reports, settings, path, {id(e.node): e for e in found})
    for embedded in found:
        report = reports.get(id(embedded))
        if report is None:
            continue
        at = [(embedded.node, embedded.call, embedded.call_span)]
        at.extend((c, lines.source(lines.span(c.func)), lines.span(c)) for c in embedded.consumers)
        hit = next(((stated[id(node)], name, span) for node, name, span in at if id(node) in stated), None)
        if hit is not None:
            expectation, name, span = hit
            _judge(judging, embedded, report, expectation, _Call(name, span))
        # after the stated outcome, which may set the document's findings aside: a rule applied
        # in a block that expects an exception is a problem of its own
        for node, stated_there in applied.get(id(embedded.node), []):
            called = _Call(lines.source(lines.span(node.func)), lines.span(node))
            _never_raises(judging, embedded, report, stated_there, called)


@dataclass
class _Judging:
    """The judging of one file's reports (*reports*, by ``id`` of their Embedded; *by_node*,
    its documents by ``id`` of their call), under its *settings*."""

    reports: dict[int, FileReport | None]
    settings: Settings
    path: str
    by_node: dict[int, Embedded]
    #: What lionagi raises for each document asked about so far (see ``raised``).
    judged: dict[int, str | None] = field(default_factory=dict)

    def raised(self, embedded: Embedded, report: FileReport) -> str | None:
        """The exception lionagi raises for a rejected document (qualified), ``_RETURNS`` when the
        call returns, None when it is not known."""
        key = id(embedded)
        if key not in self.judged:
            self.judged[key] = None  # a cycle reads as "not known"
            self.judged[key] = self._raise_of(embedded, report)
        return self.judged[key]

    def _raise_of(self, embedded: Embedded, report: FileReport) -> str | None:
        codes = [d.code for d in report.diagnostics]
        call_problems = [p for p in embedded.problems if p.rule is rules.PY002]
        if call_problems:  # Python or the model refuses the call itself, before anything else
            return _TYPE if "TypeError" in call_problems[0].message else _VALIDATION
        if any(d.code == rules.PY002.code and "TypeError" in d.message for d in report.diagnostics):
            return _TYPE
        first = refused_first(embedded, self.reports)
        if first is not None:  # a document built before this one is refused first
            return self.raised(*first)
        semantic = embedded.semantic
        if semantic in ("fill_form", "validate_form"):
            if rules.FS025.code in codes:
                return None
            return _not_a_mapping(embedded) or _RETURNS
        if semantic == "ruleset":
            repeated, not_a_rule = rules.RS009.code in codes, rules.RS011.code in codes
            if embedded.api == "RuleSet().add" and not_a_rule:
                # add() reads the rule's rule_id: a value that is no Rule has none
                return None if repeated else "builtins.AttributeError"
            return "builtins.ValueError" if repeated else _VALIDATION
        if semantic == "yaml_dumped":  # the loaded file is the value itself
            return _VALIDATION if embedded.consumers else None
        if semantic in ("text", "dumped"):
            name = embedded.target or ""
            if not embedded.consumers:
                return None  # who reads the file, and how, is not known
            if embedded.reads_as == "mapping":  # lionagi's form loader: ValueError for anything else
                return "builtins.ValueError"
            if rules.YM001.code in codes:
                json_read = embedded.reads_as == "json" or (embedded.reads_as is None and name.endswith(".json"))
                return "json.JSONDecodeError" if json_read else "yaml.YAMLError"
            if rules.SC017.code in codes:
                return "json.JSONDecodeError"
            return _VALIDATION if report.kind == "script" else None
        return _VALIDATION

    def unmet(self, report: FileReport, problem: Problem, call: _Call, *, keep: bool = False) -> None:
        """Report *problem* at the call: beside the document's findings (*keep*: it is accepted,
        and they stand), or in their place (they say why it is refused, which the test wants)."""
        kept = report.diagnostics if keep else []
        if self.settings.enabled(problem.code, self.path):
            severity = self.settings.severity_of(problem.code, problem.rule.severity)
            kept = in_order([*kept, Diagnostic(problem.code, severity, problem.message, call.span)])
        report.diagnostics = kept


def _never_raises(
    judging: _Judging, embedded: Embedded, report: FileReport, expectation: Expectation, call: _Call
) -> None:
    """``rule.apply(form)`` in a block that expects an exception: a rule returns its
    failure (or None) and never raises, unless a custom callable decides it."""
    if report.verdict is not Verdict.ACCEPTED or embedded.root is None:
        return
    if any(d.code in (rules.RS010.code, rules.RS101.code) for d in report.diagnostics):
        return
    for where, _key, node in embedded.root.walk():
        custom = bool(where) and where[-1] == "check" and node.kind == "scalar" and node.value == "custom"
        if custom or node.kind == "opaque":
            return  # a callable of the test's may raise, or a part is only known at run time
    why = _fails_when_it_returns(expectation)
    if why is not None:
        what = "a rule reports a failure by returning its message (None when it passes); it never raises"
        if call.name.endswith("apply_all"):
            what = (
                "a rule set returns the messages of the rules that fail (an empty list when none does); it never raises"
            )
        problem = rules.PY003.returns(call=call.name, expected=_stated(expectation), outcome=what)
        judging.unmet(report, problem, call, keep=True)


class _Call(NamedTuple):
    """The call a test states the outcome of: the document's own, or the one reading the
    text it writes (``ScriptModel.from_yaml(path)``), as written and where."""

    name: str
    span: Span


def _judge(judging: _Judging, embedded: Embedded, report: FileReport, expectation: Expectation, call: _Call) -> None:
    verdict = report.verdict
    outcome = expectation.outcome
    if outcome == "raises":
        raised = judging.raised(embedded, report) if verdict is Verdict.REJECTED else None
        if verdict is Verdict.ACCEPTED or raised == _RETURNS:
            why = _fails_when_it_returns(expectation)
            if why is None:
                if verdict is Verdict.REJECTED:
                    _expected(report, expectation, None)
                return
            if verdict is Verdict.ACCEPTED:
                problem = rules.PY003.accepted(call=call.name, expected=_stated(expectation), why=why)
                judging.unmet(report, problem, call, keep=True)
            else:
                what = "lionagi returns the form with status 'error' (fill_form and validate_form report, not raise)"
                problem = rules.PY003.returns(call=call.name, expected=_stated(expectation), outcome=what)
                judging.unmet(report, problem, call)
        elif verdict is Verdict.REJECTED:
            if raised is None or expectation.classes is None or _caught(expectation, raised):
                said = _unmatched(embedded, report, judging.reports, expectation) if raised is not None else None
                if said is not None:
                    problem = rules.PY003.unmatched(
                        call=call.name, expected=_stated(expectation), raised=shown(raised or ""), message=said
                    )
                    judging.unmet(report, problem, call)
                else:
                    _expected(report, expectation, raised)
            elif expectation.first:
                problem = rules.PY003.uncaught(call=call.name, expected=_stated(expectation), raised=shown(raised))
                judging.unmet(report, problem, call)
            else:
                _expected(report, expectation, raised)
        return
    if outcome == "error_status":
        if verdict is Verdict.REJECTED and judging.raised(embedded, report) == _RETURNS:
            _expected(report, expectation, None)
        elif verdict is Verdict.ACCEPTED:
            problem = rules.PY003.asserted(
                assertion=expectation.by.removeprefix("assert "),
                outcome=f"lionagi validates what {call.name}(...) is given: the form it returns has status 'validated'",
            )
            judging.unmet(report, problem, call)
        return
    if outcome in ("rule_fails", "rule_passes"):
        if verdict is Verdict.REJECTED:
            return  # Rule(...) raises: its findings say so
        fails = _applied(embedded, expectation, judging.by_node)
        wanted = outcome == "rule_fails"
        if fails is None:
            failing = [d for d in report.diagnostics if _rule_failure(d.code)]
            if failing and wanted:
                _expected(report, expectation, None)
        elif fails == wanted:
            if wanted:  # a failure the test expects; a pass it expects is nothing to set aside
                _expected(report, expectation, None)
        else:
            what = "passes on the form's values (apply returns nothing)" if wanted else "fails on the form's values"
            which = "the rule set" if embedded.semantic == "ruleset" else "the rule"
            problem = rules.PY003.asserted(assertion=expectation.by.removeprefix("assert "), outcome=f"{which} {what}")
            judging.unmet(report, problem, call, keep=True)
        return
    if outcome == "discarded":
        if verdict is Verdict.REJECTED and judging.raised(embedded, report) == _RETURNS:
            _discarded(report, call)
        return
    if outcome == "exit_1" and verdict is Verdict.REJECTED:
        _expected(report, expectation, None)


def _unmatched(
    embedded: Embedded, report: FileReport, reports: dict[int, FileReport | None], expectation: Expectation
) -> str | None:
    """lionagi's message when the block's pattern (``match=``) is surely not found in it:
    the call is the first thing in the block that can raise, the message is known to the
    character, and no outer block catches the AssertionError the failed match raises."""
    pattern = expectation.match
    if pattern is None or not expectation.first or _caught(expectation.outer, "builtins.AssertionError"):
        return None
    try:
        compiled = re.compile(pattern)
    except (re.error, RecursionError, OverflowError):
        return None
    said = message(embedded, report, reports)
    if said is None or compiled.search(said) is not None:
        return None
    return said


def _discarded(report: FileReport, call: _Call) -> None:
    """A form filled and thrown away: lionagi returns it with status 'error' and nothing
    looks at it, so nothing fails; its errors are reported as warnings, saying so."""
    note = f" (a warning here: {call.name}(...) returns the form with status 'error', and its result is not used)"
    report.diagnostics = [
        dataclasses.replace(d, severity="warning", message=d.message + note) if d.severity == "error" else d
        for d in report.diagnostics
    ]


def _stated(expectation: Expectation) -> str:
    return f"`{expectation.by}`"


def _fails_when_it_returns(expectation: Expectation) -> str | None:
    """Why the test surely fails when the call returns (None: it may pass, or it is not
    known). Certain only where the call is the first thing in the block that can raise and
    nothing after it can, but an assertion on its result that fails: a ``raises`` block
    then fails (DID NOT RAISE), unless it catches that assertion's error; an ``xfail`` fails
    only when strict and nothing is raised (XPASS(strict)), or when it does not catch the
    assertion's error."""
    if not (expectation.first and expectation.last):
        return None
    after = expectation.after
    if after is not None:
        if _caught(expectation, after):
            return None
        return f"the call returns, and the assertion after it raises {shown(after)}, which it does not catch"
    if not expectation.xfail:
        return "the call returns and nothing else in the block raises, so the test fails (DID NOT RAISE)"
    if expectation.strict and expectation.classes is not None:
        return "the test passes, which a strict xfail reports as a failure (XPASS(strict))"
    return None


def _caught(expectation: Expectation | None, raised: str) -> bool:
    """Whether *raised* is caught by the block or by an outer block expecting an exception
    (unknown classes count as catching: nothing is claimed)."""
    while expectation is not None:
        if expectation.classes is None or catches(expectation.classes, raised):
            return True
        expectation = expectation.outer
    return False


def _applied(embedded: Embedded, expectation: Expectation, by_node: dict[int, Embedded]) -> bool | None:
    """Whether the rule (or rule set) of *embedded* reports a failure when applied to the form
    the test gives it; None when that is not known (a part built at run time, a custom check)."""
    from formscript.core.constructors import build_rules
    from formscript.core.fields import ValuesView

    subject = by_node.get(id(expectation.subject)) if expectation.subject is not None else None
    root, form = embedded.root, subject.root if subject is not None else None
    if root is None or form is None or form.kind != "dict" or subject is None or subject.semantic != "workform":
        return None
    found = form.child("values")
    values = found[1] if found is not None else None
    listed = root.child("rules")
    nodes = [n for n in (values, listed[1] if listed is not None else None) if n is not None]
    if listed is None or any(n.kind == "opaque" for node in nodes for _, _, n in node.walk()):
        return None
    given = values.materialize() if values is not None else {}
    if not isinstance(given, dict):
        return None
    problems: list[Problem] = []
    ruleset, undecidable = build_rules(listed[1].materialize(), problems)
    if ruleset is None or undecidable or problems:
        return None
    view = ValuesView(given)
    try:
        return any(rule.failure(view) is not None for rule in ruleset.rules())
    except Exception:  # the rule raises on these values: not a plain pass or failure
        return None


def _rule_failure(code: str) -> bool:
    """Whether a finding of *code* on a Rule says the rule reports a failure when applied."""
    rule = rules.get(code)
    return rule is not None and rule.kind == "rules" and not rule.rejects


def _not_a_mapping(embedded: Embedded) -> str | None:
    """What fill_form raises when its values are not a mapping (``name in values`` for each
    declared field, then ``values.items()``); None when they are one, or not known."""
    root = embedded.root
    if embedded.semantic != "fill_form" or root is None or root.kind != "dict":
        return None
    found = root.child("values")
    fields = root.child("fields")
    if found is None or found[1].kind in ("dict", "opaque"):
        return None
    values = found[1]
    declared = fields is not None and fields[1].kind == "dict" and bool(fields[1].pairs)
    if values.kind == "scalar" and not isinstance(values.value, str) and declared:
        return "builtins.TypeError"  # `name in values` on None or a number
    return "builtins.AttributeError"  # a list, a string, or nothing declared: `values.items()`


def _expected(report: FileReport, expectation: Expectation, raised: str | None) -> None:
    """The outcome *expectation* states is the one lionagi gives: the findings are the test's own."""
    report.expected = Expected(expectation.by, expectation.outcome, expectation.span, shown(raised) if raised else None)
    report.diagnostics = []
