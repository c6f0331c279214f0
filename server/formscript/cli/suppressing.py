"""``formscript lint --add-suppressions REASON``: adopt formscript on a suite in one commit.

Above every line holding a current finding, a ``# formscript: ignore[CODE, ...] REASON``
comment is written (an existing one on the line above is extended with the missing codes),
as ruff's ``--add-noqa`` does, so that only new problems are reported from then on. Each file
is linted again with its comments added: the comments must silence exactly those findings
and change nothing else — the documents read the same values with the same verdicts (a
comment line inside a YAML block scalar or a Python string that is not YAML would change the
text: such a line is left alone and reported). JSON has no comments: a JSON file is reported
and left as it is. Files are written as ``--fix`` writes them (a new file renamed over the
old one). A second run adds nothing.
"""

from __future__ import annotations

import argparse
import re
import sys
from typing import TYPE_CHECKING

from formscript import rules
from formscript.cli.fixing import NotWritten, _roots, _say, write_fixed
from formscript.cli.pool import lint_one
from formscript.lint.report import documents

if TYPE_CHECKING:
    from formscript.lint.config import Settings
    from formscript.lint.discovery import SettingsFor
    from formscript.lint.report import FileReport

__all__ = ["add_suppressions"]

_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")
_COMMENT = re.compile(r"#\s*formscript:\s*ignore\[(?P<codes>[A-Za-z0-9_,\s]*)\]")


def add_suppressions(
    reports: list[FileReport], settings_for: SettingsFor, args: argparse.Namespace, paired: tuple[str, str] | None
) -> int:
    """Write the comments for *reports* (unflattened: a Python file with its parts); 0 when
    every finding is now suppressed, 1 when some could not be."""
    reason = " ".join(args.add_suppressions.split())
    roots = _roots(args.paths)
    added = files = left = 0
    for report in sorted(reports, key=lambda r: r.path):
        wanted = _wanted(report)
        if not wanted:
            continue
        path = report.path
        if report.document is None or (path.endswith(".json") and report.parts is None):
            _say(path, f"{len(wanted)} line(s) with findings not suppressed: JSON has no comments")
            left += sum(len(codes) for codes in wanted.values())
            continue
        before = report.document.text
        after, done, refused = _commented(report, before, wanted, reason, settings_for(path), args, paired)
        for line in refused:
            _say(path, f"line {line + 1}: a comment above it would change the document; not suppressed")
        left += sum(len(wanted[line]) for line in refused)
        if after == before:
            continue
        try:
            write_fixed(path, before, after, roots)
        except NotWritten as exc:
            _say(path, f"suppressions not written: {exc}")
            left += sum(len(codes) for codes in wanted.values())
            continue
        added += done
        files += 1
    print(f"formscript: added {added} suppression comment(s) in {files} file(s)")
    if left:
        print(f"formscript: {left} finding(s) could not be suppressed (see above)", file=sys.stderr)
    return 1 if left else 0


def _wanted(report: FileReport) -> dict[int, list[str]]:
    """The codes to suppress on each (0-based) line of *report*'s file."""
    wanted: dict[int, list[str]] = {}
    for diagnostic in report.diagnostics:
        rule = rules.get(diagnostic.code)
        if rule is None or not rule.offer_suppression:
            continue
        codes = wanted.setdefault(diagnostic.span.start.line, [])
        if diagnostic.code not in codes:
            codes.append(diagnostic.code)
    return {line: sorted(codes) for line, codes in sorted(wanted.items())}


def _commented(
    report: FileReport,
    text: str,
    wanted: dict[int, list[str]],
    reason: str,
    settings: Settings,
    args: argparse.Namespace,
    paired: tuple[str, str] | None,
) -> tuple[str, int, list[int]]:
    """*text* with the comments that pass the check, how many were added, and the lines whose
    comment would change the document."""
    lint = _Relint(report, settings, args, paired)
    after = _with_comments(text, wanted, reason)
    if lint.holds(after, wanted):
        return after, len(wanted), []
    kept: dict[int, list[str]] = {}
    refused = []
    for line, codes in wanted.items():  # one at a time: the ones that pass together
        trial = {**kept, line: codes}
        if lint.holds(_with_comments(text, trial, reason), trial):
            kept = trial
        else:
            refused.append(line)
    return _with_comments(text, kept, reason), len(kept), refused


def _with_comments(text: str, wanted: dict[int, list[str]], reason: str) -> str:
    lines = _LINE.findall(text)
    newline = next((line[len(line.rstrip("\r\n")) :] for line in lines if line.endswith(("\n", "\r"))), "\n")
    for line in sorted(wanted, reverse=True):
        codes = wanted[line]
        above = lines[line - 1] if 0 < line <= len(lines) else None
        found = _COMMENT.search(above) if above is not None else None
        if found is not None and above is not None:  # extend the comment already there
            have = [c.strip().upper() for c in found.group("codes").split(",") if c.strip()]
            merged = ", ".join([*have, *(c for c in codes if c not in have)])
            lines[line - 1] = above[: found.start("codes")] + merged + above[found.end("codes") :]
            continue
        current = lines[line] if line < len(lines) else ""
        indent = current[: len(current) - len(current.lstrip(" \t"))]
        lines.insert(line, f"{indent}# formscript: ignore[{', '.join(codes)}] {reason}{newline}")
    return "".join(lines)


class _Relint:
    """The file linted again: the same documents, values and verdicts, and none of the
    suppressed findings left (nor an unused suppression)."""

    def __init__(
        self, report: FileReport, settings: Settings, args: argparse.Namespace, paired: tuple[str, str] | None
    ) -> None:
        self.job = (report.path, settings, args.kind, paired)
        path, text = report.path, report.document.text if report.document is not None else ""
        baseline = lint_one((path, text, settings, args.kind, paired), fixes=False)
        self.shape = _shape(baseline)
        self.unused = _unused(baseline)

    def holds(self, text: str, wanted: dict[int, list[str]]) -> bool:
        path, settings, kind, paired = self.job
        try:
            again = lint_one((path, text, settings, kind, paired), fixes=False)
        except Exception:  # a text that breaks the linter is not written
            return False
        still_found = any(d.code in codes for codes in wanted.values() for d in again.diagnostics)
        return _shape(again) == self.shape and _unused(again) <= self.unused and not still_found


def _unused(report: FileReport) -> int:
    """How many suppression comments of *report*'s file are unused or without a reason."""
    return sum(1 for d in report.diagnostics if d.code in (rules.FSX001.code, rules.FSX002.code))


def _shape(report: FileReport) -> list[tuple[object, ...]]:
    """What the file holds, comments aside: each document's kind, verdict and value."""
    shape: list[tuple[object, ...]] = []
    for part in documents(report):
        try:
            value = repr(part.document.value) if part.document is not None else None
        except Exception:  # a value repr() refuses (an int of more than 4,300 digits)
            value = None
        call = part.embedded.call if part.embedded is not None else None
        shape.append((call, part.kind, part.verdict, value))
    return shape
