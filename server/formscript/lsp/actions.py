"""Code actions: each diagnostic's own fix, all safe fixes at once, suppression comments, and
the dry run of a form or the simulation of a script for clients that show no code lenses."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from formscript import rules
from formscript.document import Edit, Pos, Span
from formscript.lint.diagnostics import Diagnostic
from formscript.lint.suppress import Suppression, find_suppressions
from formscript.lsp.analysis import Analysis

QUICK_FIX = "quickfix"
FIX_ALL = "source.fixAll.formscript"
#: The kinds of the actions that run a dry run or a simulation and show its result.
RUN = "source.formscript"
DRY_RUN_KIND = "source.formscript.dryRun"
SIMULATE_KIND = "source.formscript.simulate"
#: Their commands: ``formscript.dryRun`` / ``formscript.simulate`` (what the lenses run), with
#: the result shown by the server (``window/showDocument``, else a message).
SHOW_DRY_RUN = "formscript.showDryRun"
SHOW_SIMULATION = "formscript.showSimulation"


@dataclass(frozen=True)
class Action:
    """A titled set of edits to one document, and the diagnostics it resolves."""

    title: str
    kind: str
    edits: tuple[Edit, ...]
    diagnostics: tuple[Diagnostic, ...] = ()
    preferred: bool = False
    #: A command the client executes (after the edits, if any), and its arguments.
    command: str | None = None
    arguments: tuple[Any, ...] = ()


def touches(a: Span, b: Span) -> bool:
    """Whether two spans overlap or touch."""
    return a.start <= b.end and b.start <= a.end


def quick_fixes(analysis: Analysis, span: Span) -> list[Action]:
    """The fix of every diagnostic at *span* that has one."""
    found = []
    for diagnostic in analysis.report.diagnostics:
        if (diagnostic.fix is None and diagnostic.pending is None) or not touches(diagnostic.span, span):
            continue
        fix = analysis.fix_of(diagnostic)
        if fix is None:
            continue
        found.append(
            Action(f"{fix.description} ({diagnostic.code})", QUICK_FIX, fix.edits, (diagnostic,), preferred=fix.safe)
        )
    return found


def suppressions(analysis: Analysis, span: Span) -> list[Action]:
    """A ``# formscript: ignore[CODE] reason`` comment above each diagnostic at *span*."""
    lines = analysis.positions.lines
    doc = analysis.report.document
    existing = find_suppressions(doc.comments()) if doc is not None and "formscript:" in doc.text else []
    found = []
    seen: set[tuple[str, int]] = set()
    for diagnostic in analysis.report.diagnostics:
        line = diagnostic.span.start.line
        if not touches(diagnostic.span, span) or (diagnostic.code, line) in seen:
            continue
        rule = rules.get(diagnostic.code)
        if rule is not None and not rule.offer_suppression:
            continue  # e.g. suppressions cannot silence themselves or a file that does not load
        seen.add((diagnostic.code, line))
        edit = _suppression_edit(lines, line, diagnostic.code, existing, _line_break(analysis.text))
        found.append(
            Action(f"Suppress {diagnostic.code} on this line (with a reason)", QUICK_FIX, (edit,), (diagnostic,))
        )
    return found


def _line_break(text: str) -> str:
    """The line break a new line in *text* gets: the one the text uses (of those an LSP client
    counts), so a file written with ``\\r\\n`` does not get a lone ``\\n``."""
    if "\r\n" in text:
        return "\r\n"
    return "\r" if "\r" in text and "\n" not in text else "\n"


def _suppression_edit(lines: list[str], line: int, code: str, existing: list[Suppression], newline: str = "\n") -> Edit:
    above = line - 1
    comment = next((s for s in existing if s.line == above and not s.whole_file), None)
    if comment is not None and 0 <= above < len(lines):
        close = lines[above].index("]", comment.span.start.column)
        return Edit(Span(Pos(above, close), Pos(above, close)), f", {code}")
    text = lines[line] if line < len(lines) else ""
    indent = text[: len(text) - len(text.lstrip(" \t"))]
    return Edit(Span(Pos(line, 0), Pos(line, 0)), f"{indent}# formscript: ignore[{code}] reason{newline}")


def fix_all(analysis: Analysis) -> Action | None:
    """Every safe fix in the document, without overlapping edits, when together they pass the
    check ``formscript lint --fix`` applies; None when there is none."""
    from formscript.lint.fixes import applicable

    candidates = [d for d in analysis.report.diagnostics if d.fix is not None or d.pending is not None]
    fixes: dict[int, Diagnostic] = {}
    realized = []
    for diagnostic in candidates:
        fix = analysis.fix_of(diagnostic)
        if fix is not None and fix.safe:
            fixes[id(fix)] = diagnostic
            realized.append(dataclasses.replace(diagnostic, fix=fix, pending=None))
    chosen = applicable(realized, unsafe=False)
    if chosen and analysis.check(chosen) is not None:
        chosen = chosen[:1]  # each passed alone; together they do not
    if not chosen:
        return None
    edits = sorted((e for f in chosen for e in f.edits), key=lambda e: (e.span.start, e.span.end))
    resolved = tuple(fixes[id(f)] for f in chosen)
    return Action("Fix all safe formscript problems", FIX_ALL, tuple(edits), resolved)


def runs(analysis: Analysis, span: Span) -> list[Action]:
    """ "formscript: Dry run" in a form, "formscript: Simulate" in a script, anywhere in the
    file; in a Python file, on the call that hands a form or script to lionagi (the lenses'
    commands with the same arguments; Emacs's eglot, Helix and Neovim 0.7 show no lenses)."""
    if analysis.report.parts is not None:
        found = []
        for part, embedded in analysis.runnable():
            start = (embedded.call_span or embedded.span).start
            if not touches(Span(start, embedded.span.end), span):
                continue
            line = embedded.span.start.line + 1
            found.append(_run(part.kind == "form", (analysis.uri, line), f" ({embedded.call}, line {line})"))
        return found
    if analysis.kind in ("form", "script"):
        return [_run(analysis.kind == "form", (analysis.uri,), "")]
    return []


def _run(form: bool, arguments: tuple[Any, ...], where: str) -> Action:
    if form:
        return Action(f"formscript: Dry run{where}", DRY_RUN_KIND, (), command=SHOW_DRY_RUN, arguments=arguments)
    return Action(f"formscript: Simulate{where}", SIMULATE_KIND, (), command=SHOW_SIMULATION, arguments=arguments)
