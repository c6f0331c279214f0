"""What formscript says about a script a test hands to lionagi: a file, or a Python value
written at a call site.

A file is linted as ``formscript lint`` lints it (positions in the YAML or JSON text). A
Python value is found as a literal at its call site (``document.pyextract`` through
``lint.python_lint``): when the literal decides the verdict, its located diagnostics are
used; otherwise (a helper's parameter, a list built at run time) the value the runtime
received is checked by the core and its findings are placed at the call.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from formscript.core.verdict import Verdict
from formscript.document import Pos, Span
from formscript.lint.config import Settings
from formscript.lint.diagnostics import Diagnostic
from formscript.lint.formats import render_text
from formscript.lint.report import FileReport
from formscript.runs.common import line_of

__all__ = [
    "CallSite",
    "Checked",
    "check_file",
    "check_spec_value",
    "check_value",
    "clear_cache",
    "is_plain",
    "read_python",
    "written_at",
]


@dataclass(frozen=True)
class CallSite:
    """Where a test called into lionagi: the file (as shown), its absolute path, and the
    call's 1-based line and 0-based column."""

    shown: str
    path: str
    line: int
    column: int


@dataclass
class Checked:
    """The outcome for one script source.

    ``key`` names the source in the coverage report (a file's path, ``FILE.py:LINE`` for a
    literal); ``lines`` holds the 1-based line of each entry; ``report`` is the lint report
    whose diagnostics a failure shows.
    """

    key: str
    kind: str  # "file", "literal" or "runtime"
    path: str  # as shown (relative to the rootdir where it can be)
    line: int | None  # the literal's (or the call's) line; None for a file
    call: str | None
    verdict: Verdict | None
    report: FileReport | None
    lines: list[int | None] = field(default_factory=list)

    @property
    def diagnostics(self) -> list[Diagnostic]:
        """The located findings (none when formscript could not read the source)."""
        return list(self.report.diagnostics) if self.report is not None else []

    def entry_line(self, index: int) -> int | None:
        """The 1-based line of entry *index*, or the source's own line."""
        if 0 <= index < len(self.lines) and self.lines[index] is not None:
            return self.lines[index]
        return self.line

    def render(self) -> str:
        """The diagnostics as ``formscript lint`` prints them (source line and caret), without
        the summary line; for a source formscript read (a rejected one always is)."""
        assert self.report is not None
        text = render_text([self.report], show_verdicts=False)
        return "".join(text.splitlines(keepends=True)[:-1])


def _entry_lines(report: FileReport) -> list[int | None]:
    if report.document is None or report.script is None:
        return []
    return [line_of(report.document, ("responses", index)) for index in range(len(report.script.entries))]


def check_file(path: str, shown: str, *, as_yaml: bool | None, settings: Settings, kind: str = "script") -> Checked:
    """Lint the script (or, with *kind* ``form``, the form spec) file *path*, shown as *shown*.
    *as_yaml* forces the loader the runtime uses for a script (``from_yaml`` reads YAML whatever
    the suffix, ``from_json`` JSON); None lets the suffix decide, as ``ScriptModel.coerce``
    does (``li agent --form`` reads YAML, then JSON, whatever the name)."""
    from formscript.core.script import loads_as_yaml
    from formscript.lint.engine import lint_text
    from formscript.lint.reading import read_report_or_text

    text, unread = read_report_or_text(path, kind, settings)
    if unread is not None:
        unread.path = shown
        return Checked(shown, "file", shown, None, None, unread.verdict, unread)
    lint_as = shown
    if kind == "script" and as_yaml is not None and as_yaml != loads_as_yaml(shown):
        lint_as = shown + (".yaml" if as_yaml else ".json")  # the loader the runtime picks
    report = lint_text(text or "", lint_as, settings=settings, kind=kind, fixes=True)
    report.path = shown
    return Checked(shown, "file", shown, None, None, report.verdict, report, _entry_lines(report))


def is_plain(value: Any, depth: int = 0) -> bool:
    """Whether *value* is plain data (what a YAML or JSON file could hold), so the core's
    answer on it is the runtime's."""
    if depth > 200:
        return False
    if value is None or isinstance(value, str | bool | int | float):
        return True
    if isinstance(value, list):
        return all(is_plain(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and is_plain(v, depth + 1) for k, v in value.items())
    return False


def _digest(value: Any) -> str:
    try:
        text = json.dumps(value, sort_keys=True, default=repr)
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:8]


def check_value(data: Any, site: CallSite, text: str | None, *, settings: Settings) -> Checked:
    """What formscript says about the script *data* handed to lionagi at *site* (*text* is the
    caller's file, None when it cannot be read)."""
    part = _part_at(text, site, settings) if text is not None else None
    if part is not None and part.verdict in (Verdict.ACCEPTED, Verdict.REJECTED) and part.embedded is not None:
        return _literal(site, part)
    call = part.embedded.call if part is not None and part.embedded is not None else None
    key = f"{site.shown}:{site.line}#{_digest(data)}"
    if not is_plain(data):
        return Checked(key, "runtime", site.shown, site.line, call, None, None)
    from formscript.core.script import check_script

    result = check_script(data)
    report = FileReport(site.shown, "script", result.verdict, _at_call(result.problems, site))
    if text is not None:
        from formscript.lint.python_lint import PythonText

        report.document = PythonText(text)
    return Checked(key, "runtime", site.shown, site.line, call, result.verdict, report)


def check_spec_value(spec: Any, spec_path: str, site: CallSite) -> Checked:
    """What formscript says about the form spec *spec* (already loaded) that ``li agent
    --form``'s builder is handed with the name *spec_path* at *site*: its findings at the call."""
    from formscript.core.gate import check_form_spec

    key = f"{site.shown}:{site.line}#{_digest(spec)}"
    if not is_plain(spec):
        return Checked(key, "runtime", site.shown, site.line, None, None, None)
    result = check_form_spec(spec, spec_path)
    report = FileReport(site.shown, "form", result.verdict, _at_call(result.problems, site), gate=result)
    return Checked(key, "runtime", site.shown, site.line, None, result.verdict, report)


def _at_call(problems: list[Any], site: CallSite) -> list[Diagnostic]:
    """The core's findings on a value, placed at the call that handed it to lionagi (where a
    finding carries no span of its own)."""
    span = Span(Pos(site.line - 1, site.column), Pos(site.line - 1, site.column + 1))
    return [Diagnostic(p.code, p.rule.severity, p.message, p.span if p.span is not None else span) for p in problems]


def written_at(file_text: str, site: CallSite, text: str, *, kind: str, settings: Settings) -> Checked | None:
    """The text the caller's file writes (``write_text``, ``json.dump``, ...) that a file
    outside the project holds: a test that writes a script to ``tmp_path`` and loads it is
    reported at the literal it wrote. The nearest such text above the call; None when none
    has exactly this content."""
    from formscript.document.python import EmbeddedDocument

    bundle = _cached_python(text, site.shown, settings)
    found = [
        p
        for p in bundle.parts or []
        if p.kind == kind
        and p.embedded is not None
        and isinstance(p.document, EmbeddedDocument)
        and p.document.text == file_text
    ]
    if not found:
        return None
    above = [p for p in found if p.embedded is not None and p.embedded.span.start.line < site.line]
    return _literal(site, (above or found)[-1])


def _literal(site: CallSite, part: FileReport) -> Checked:
    """The outcome for the literal *part* of the caller's file, named by its line."""
    assert part.embedded is not None
    line = part.embedded.span.start.line + 1
    key = f"{site.shown}:{line}"
    return Checked(key, "literal", site.shown, line, part.embedded.call, part.verdict, part, _entry_lines(part))


def _part_at(text: str, site: CallSite, settings: Settings) -> FileReport | None:
    """The script the file hands to lionagi by the call at *site*: the call that starts at the
    call's position, else the innermost script call on its line."""
    bundle = _cached_python(text, site.shown, settings)
    at = Pos(site.line - 1, site.column)
    starts = [
        (part, part.embedded.call_span.start)
        for part in bundle.parts or []
        if part.kind == "script" and part.embedded is not None and part.embedded.call_span is not None
    ]
    exact = [part for part, start in starts if start == at]
    on_line = [part for part, start in starts if start.line == at.line]
    return exact[0] if exact else on_line[-1] if on_line else None


_PYTHON_CACHE: dict[tuple[str, str], FileReport] = {}


def _cached_python(text: str, shown: str, settings: Settings) -> FileReport:
    from formscript.lint.python_lint import lint_python

    key = (shown, hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest())
    if key not in _PYTHON_CACHE:
        # the plugin sees what lionagi does with each document: what the test states about it
        # (pytest.raises, ...) is pytest's business here, and judging it cost a third of the
        # plugin's time on form-heavy suites (bench/pytest_plugin.py: 1.31x -> see the bench)
        quiet = dataclasses.replace(settings, expected_outcomes=False)
        _PYTHON_CACHE[key] = lint_python(text, shown, settings=quiet, fixes=True)
    return _PYTHON_CACHE[key]


def clear_cache() -> None:
    """Forget the Python files linted so far (a new session may have other settings)."""
    _PYTHON_CACHE.clear()


def read_python(path: str) -> str | None:
    """The text of the caller's file, or None when it cannot be read."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
