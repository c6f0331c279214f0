"""``formscript lint --fix / --unsafe-fixes / --diff``: apply fixes until none is left."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from formscript.cli.pool import lint_one

if TYPE_CHECKING:
    from formscript.lint.config import Settings
    from formscript.lint.report import FileReport

#: Overlapping fixes need another pass; this many at most.
MAX_PASSES = 5


def apply_fixes(
    reports: list[FileReport], settings: Settings, args: argparse.Namespace, paired: tuple[str, str] | None
) -> list[FileReport]:
    """Fix each file (write it, or print the diff with ``--diff``); the reports after fixing."""
    from formscript.lint.fixes import apply_edits, fix_edits, unified_diff

    updated = []
    for report in reports:
        from_stdin = "-" in args.paths and report.path == (args.stdin_filename or "<stdin>")
        if report.document is None or (from_stdin and not args.diff):
            updated.append(report)
            continue
        path = report.path
        before = report.document.text
        after = before
        current = report
        for _ in range(MAX_PASSES):
            edits = fix_edits(current.diagnostics, unsafe=args.unsafe_fixes)
            if not edits:
                break
            candidate = apply_edits(after, edits)
            if candidate == after:
                break
            after = candidate
            current = lint_one((path, after, settings, args.kind, paired))
        if after != before:
            if args.diff:
                sys.stderr.write(unified_diff(before, after, path))
                updated.append(report)
                continue
            Path(path).write_text(after, encoding="utf-8")
        updated.append(current)
    return updated
