"""Dry runs, simulations and rule documentation for the editor: code lenses, inlay hints and
the commands behind them. The work itself is formscript.runs'; this module finds the
sibling files and shapes the answers."""

from __future__ import annotations

import fnmatch
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from formscript import rules as registry
from formscript.document import Pos, Span
from formscript.document.model import ORIGIN
from formscript.lint.config import KINDS
from formscript.lint.kinds import SUFFIXES, without_ending
from formscript.lint.report import FileReport
from formscript.lsp.analysis import Analysis, inside
from formscript.lsp.hover import shown

DRY_RUN = "formscript.dryRun"
SIMULATE = "formscript.simulate"
RULE_DOC = "formscript.ruleDoc"

#: Reads a file by path: the editor's unsaved text when it is open, else the disk; None if
#: there is no such file.
Reader = Callable[[str], str | None]


@dataclass(frozen=True)
class Lens:
    """A command shown above a line."""

    span: Span
    title: str
    command: str
    arguments: tuple[Any, ...]


@dataclass(frozen=True)
class Hint:
    """A label shown after a position."""

    pos: Pos
    label: str
    tooltip: str = ""


def sibling(path: str, kind: str, reader: Reader) -> tuple[str, str] | None:
    """The ``<name>.<kind>.yaml`` (or .yml, .json) next to *path*, with its text."""
    source = Path(path)
    name = without_ending(source.name)
    name = next((name.removesuffix(f".{k}") for k in KINDS if name.endswith(f".{k}")), name)
    for suffix in SUFFIXES:
        candidate = str(source.with_name(f"{name}.{kind}{suffix}"))
        text = reader(candidate)
        if text is not None:
            return candidate, text
    return None


def calls_for(analysis: Analysis, reader: Reader, roots: Sequence[str] = ()) -> tuple[str, str] | None:
    """The calls transcript for a script: one named in the settings' ``calls`` table for this
    script, else the sibling ``<name>.calls.yaml``. A transcript the table names must lie
    inside the workspace folders *roots* (without any: the configuration's folder, or the
    script's); one outside is not read."""
    settings = analysis.settings
    if settings.calls:
        root = Path(settings.root) if settings.root else Path(analysis.path).parent
        allowed = tuple(roots) or (str(root),)
        try:
            relative = Path(analysis.path).resolve().relative_to(root.resolve()).as_posix()
        except (ValueError, OSError):
            relative = Path(analysis.path).name
        for pattern, target in settings.calls.items():
            if fnmatch.fnmatch(relative, pattern) or fnmatch.fnmatch(Path(analysis.path).name, pattern):
                candidate = str(root / target)
                if not inside(candidate, allowed):
                    continue
                text = reader(candidate)
                if text is not None:
                    return candidate, text
    return sibling(analysis.path, "calls", reader)


def python_lenses(analysis: Analysis) -> list[Lens]:
    """In a Python file, "Dry run" above each form it hands to lionagi and "Simulate" above
    each script, on the line of the call; the commands get the document's line (the
    ``FILE.py:LINE`` of ``formscript dry-run`` and ``simulate``)."""
    found = []
    for part, embedded in analysis.runnable():
        start = (embedded.call_span or embedded.span).start
        line = embedded.span.start.line + 1
        title, command = ("▶ Dry run", DRY_RUN) if part.kind == "form" else ("▶ Simulate", SIMULATE)
        found.append(Lens(Span(start, start), f"{title} {embedded.call}", command, (analysis.uri, line)))
    return found


def lenses(analysis: Analysis, reader: Reader, roots: Sequence[str] = ()) -> list[Lens]:
    """ "Dry run" above a form, "Simulate" above a script."""
    if analysis.report.parts is not None:
        return python_lenses(analysis)
    doc = analysis.document
    first = ORIGIN
    if doc is not None:
        top = doc.value if isinstance(doc.value, dict) else {}
        keys = [e.key for k in top if (e := doc.entry((k,))) is not None and e.key is not None]
        if keys:
            first = min(keys, key=lambda s: s.start)
    if analysis.kind == "form":
        rules = sibling(analysis.path, "rules", reader)
        title = "▶ Dry run" + (f" with {Path(rules[0]).name}" if rules else "")
        return [Lens(first, title, DRY_RUN, (analysis.uri,))]
    if analysis.kind == "script":
        calls = calls_for(analysis, reader, roots)
        title = "▶ Simulate" + (f" with {Path(calls[0]).name}" if calls else "")
        return [Lens(first, title, SIMULATE, (analysis.uri,))]
    return []


def _embedded(analysis: Analysis, line: int | None, kind: str) -> tuple[FileReport | str, int] | None:
    """For a Python file, the report of the document of *kind* on *line* (when None, the first
    that has a lens: a ``FieldSpec(...)`` on its own is no form to run) or the message why there
    is none, and the line; None for another file."""
    import formscript.runs as runs

    if analysis.report.parts is None:
        return None
    if line is None:
        lines = [embedded.span.start.line + 1 for part, embedded in analysis.runnable() if part.kind == kind]
        if not lines:
            return f"{analysis.path}: no {kind} is handed to lionagi here", 0
        line = lines[0]
    return runs.embedded_report(analysis.text, analysis.path, line, kind), line


def dry_run(analysis: Analysis, reader: Reader, line: int | None = None) -> str:
    """The dry run of a form (with its sibling ruleset, if any), as text; in a Python file,
    of the form handed to lionagi on *line* (1-based; the first when None)."""
    import formscript.runs as runs

    embedded = _embedded(analysis, line, "form")
    if embedded is not None:
        report, at = embedded
        if isinstance(report, str):
            return report
        return str(runs.render_dry_run(runs.dry_run_report(report, f"{analysis.path}:{at}", None, None)))
    rules = sibling(analysis.path, "rules", reader)
    result = runs.dry_run_text(analysis.text, analysis.path, rules[1] if rules else None, rules[0] if rules else None)
    return str(runs.render_dry_run(result))


def simulation(analysis: Analysis, reader: Reader, roots: Sequence[str] = ()) -> dict[str, Any]:
    """The simulation of a script against its calls transcript (settings, or sibling), if any."""
    import formscript.runs as runs

    calls = calls_for(analysis, reader, roots)
    result: dict[str, Any] = runs.simulate_text(
        analysis.text, analysis.path, calls[1] if calls else None, calls[0] if calls else None
    )
    result["calls_path"] = calls[0] if calls else None
    return result


def simulate(analysis: Analysis, reader: Reader, roots: Sequence[str] = (), line: int | None = None) -> str:
    """The simulation as text; in a Python file, of the script handed to lionagi on *line*
    (1-based; the first when None), against the calls the settings' ``calls`` table names."""
    import formscript.runs as runs

    embedded = _embedded(analysis, line, "script")
    if embedded is not None:
        report, at = embedded
        if isinstance(report, str):
            return report
        calls = calls_for(analysis, reader, roots) if analysis.settings.calls else None
        result = runs.simulate_report(
            report, f"{analysis.path}:{at}", calls[1] if calls else None, calls[0] if calls else None
        )
        return str(runs.render_simulation(result))
    return str(runs.render_simulation(simulation(analysis, reader, roots)))


def rule_doc(code: str) -> str:
    """A rule's documentation as Markdown."""
    found = registry.get(code)
    if found is None:
        return f"No formscript rule is called {code!r}."
    return found.page()


# ---------------------------------------------------------------------------- inlay hints


def python_hints(analysis: Analysis) -> list[Hint]:
    """In a Python file, the coerced value beside each value of each form it fills
    (``fill_form``, ``validate_form``, a form spec written to a file)."""
    hints: list[Hint] = []
    for part in analysis.report.parts or []:
        if part.kind == "form" and part.gate is not None and part.embedded is not None:
            hints += form_hints(replace(analysis, report=part))
    return hints


def form_hints(analysis: Analysis) -> list[Hint]:
    """The coerced value beside each form value."""
    gate = analysis.report.gate
    doc = analysis.document
    values = analysis.value_at(("values",))
    if gate is None or doc is None or not isinstance(values, dict):
        return []
    form = gate.form
    fields = analysis.value_at(("fields",))
    written = fields if isinstance(fields, dict) else {}
    hints = []
    for name, raw in values.items():
        entry = doc.entry(("values", name))
        spec = gate.declarations.get(name)
        if entry is None or entry.key is None:
            continue
        if spec is None and name in written:
            label = "✗ declaration refused"
            tip = f"field {name!r} is declared, but its declaration does not build; the gate refuses the form"
        elif spec is None:
            label, tip = "✗ undeclared", "no field declares this value; the gate refuses it"
        elif form is not None and any(f.field == name and f.source == "field" for f in form.failures):
            label = f"✗ not {spec.type}" if raw is not None else "✗ missing"
            tip = f"field {name!r} is {spec.type}; the form is refused"
        else:
            stored = form.values.get(name, raw) if form is not None else raw
            label = f"→ {_short(stored)}: {type(stored).__name__}"
            tip = "the runtime sees " + shown(stored)
        end = entry.value.end if entry.scalar is not None else entry.key.end
        hints.append(Hint(end, label, tip))
    return hints


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 30 else text[:29] + "…"


def script_hints(simulated: dict[str, Any], analysis: Analysis) -> list[Hint]:
    """ "served at call N" / "never served" beside each entry, from a simulation."""
    doc = analysis.document
    if doc is None or simulated.get("calls_path") is None:
        return []
    served: dict[int, list[int]] = {}
    for call in simulated.get("calls", []):
        entry = call.get("entry")
        if isinstance(entry, int) and call.get("outcome") in ("served", "serve_error"):
            served.setdefault(entry, []).append(int(call["index"]))
    lines = analysis.positions.lines
    hints = []
    for item in simulated.get("entries", []):
        index = item["index"]
        entry = doc.entry(("responses", index))
        if entry is None:
            continue
        line = entry.value.start.line
        calls = served.get(index)
        if calls:
            label = ("served at call " if len(calls) == 1 else "served at calls ") + ", ".join(str(c) for c in calls)
        else:
            label = "never served"
        tip = f"simulated with {Path(simulated['calls_path']).name}"
        hints.append(Hint(Pos(line, len(lines[line]) if line < len(lines) else 0), label, tip))
    return hints
