"""``formscript lint --fix / --unsafe-fixes / --diff``: apply fixes until none is left.

Each file is linted afresh (a fix is never taken from the cache), its fixes applied at the
parser's own positions, and the fixed text linted again and checked (``lint.fixes.verify``):
it loads to exactly the values the fixes promise, keeps every comment and its line-break
style. A fix that fails the check is declined with a message and the file keeps its text.
The file is written as a new file beside it, renamed over it (its mode kept), so a failed
write leaves it as it was; a file that is read-only, or a link leading out of the folders
being linted, is not written. Every such case is reported for that file and the others are
still fixed.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import stat
import sys
import tempfile
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from formscript.cli.pool import lint_one

if TYPE_CHECKING:
    from formscript.document.positions import Breaks
    from formscript.lint.config import Settings
    from formscript.lint.diagnostics import Fix
    from formscript.lint.discovery import SettingsFor
    from formscript.lint.report import FileReport

#: Overlapping fixes need another pass; this many at most.
MAX_PASSES = 5

#: When fixes applied together fail the check, at most this many are tried one by one.
MAX_SINGLE_TRIES = 25


class NotWritten(Exception):
    """The fixed text was not written to the file (the reason is the message)."""


@dataclass
class _Fixing:
    """One file's fixing: its text so far, its latest report, what was declined."""

    path: str
    breaks: Breaks
    settings: Settings
    args: argparse.Namespace
    paired: tuple[str, str] | None
    text: str
    report: FileReport
    declined: dict[tuple[str, str, str], str] = field(default_factory=dict)

    def lint(self, text: str) -> FileReport:
        return lint_one((self.path, text, self.settings, self.args.kind, self.paired), fixes=True)


def apply_fixes(
    reports: list[FileReport], settings_for: SettingsFor, args: argparse.Namespace, paired: tuple[str, str] | None
) -> tuple[list[FileReport], int, int]:
    """Fix each file (write it, or print the diff with ``--diff`` on stdout): the reports after
    fixing, how many files could not be written and how many were (or, with ``--diff``, would
    be) changed."""
    from formscript.lint.fixes import applicable, unified_diff

    roots = _roots(args.paths)
    updated = []
    failed = changed = 0
    for report in reports:
        from_stdin = "-" in args.paths and report.path == (args.stdin_filename or "<stdin>")
        nothing = not applicable(report.diagnostics, unsafe=args.unsafe_fixes)
        if report.document is None or nothing or (from_stdin and not args.diff):
            updated.append(report)
            continue
        path = report.path
        before = report.document.text
        fixing = _Fixing(
            path, "python" if path.endswith(".py") else "yaml", settings_for(path), args, paired, before, report
        )
        fixing.report = fixing.lint(before)
        _fix_file(fixing)
        for (_, description, _), reason in sorted(fixing.declined.items()):
            _say(path, f"fix declined ({description}): {reason}")
        if fixing.text == before:
            updated.append(fixing.report)
            continue
        changed += 1
        if args.diff:
            sys.stdout.write(unified_diff(before, fixing.text, path))
            updated.append(report)
            continue
        try:  # (stdin's text was left out above: it is only ever diffed)
            write_fixed(path, before, fixing.text, roots)
        except NotWritten as exc:
            _say(path, f"fixes not written: {exc}")
            failed += 1
            changed -= 1
            updated.append(fixing.lint(before))
            continue
        updated.append(fixing.report)
    return updated, failed, changed


def _say(path: str, message: str) -> None:
    sys.stderr.write(f"formscript: {path}: {message}\n")


def _fix_file(fixing: _Fixing) -> None:
    """Apply the fixes that pass the check, pass after pass, to ``fixing.text``."""
    from formscript.lint.fixes import applicable

    for _ in range(MAX_PASSES):
        found = applicable(fixing.report.diagnostics, unsafe=fixing.args.unsafe_fixes)
        fixes = [f for f in found if _identity(f) not in fixing.declined]
        if not fixes or not _apply(fixing, fixes):
            return


def _identity(fix: Fix) -> tuple[str, str, str]:
    change = fix.change
    return (repr(change.path) if change else "", fix.description, change.op if change else "")


def _attempt(fixing: _Fixing, fixes: list[Fix]) -> tuple[str, FileReport] | str:
    """The fixed text and its report, or why the fixes together fail the check."""
    from formscript.lint.fixes import checked

    return checked(fixing.report, fixing.text, fixes, fixing.lint, fixing.breaks)


def _apply(fixing: _Fixing, fixes: list[Fix]) -> bool:
    """Apply *fixes* (or the largest checked subset found); whether anything was applied."""
    outcome = _attempt(fixing, fixes)
    if isinstance(outcome, str) and len(fixes) > 1:
        good = []
        for fix in fixes[:MAX_SINGLE_TRIES]:
            single = _attempt(fixing, [fix])
            if isinstance(single, str):
                fixing.declined[_identity(fix)] = single
            else:
                good.append(fix)
        for fix in fixes[MAX_SINGLE_TRIES:]:
            fixing.declined[_identity(fix)] = "not tried: too many fixes failed the check together"
        outcome = _attempt(fixing, good) if good else "no fix passes the check"
        if isinstance(outcome, str) and good:
            outcome = _attempt(fixing, good[:1])
    elif isinstance(outcome, str):
        fixing.declined[_identity(fixes[0])] = outcome
    if isinstance(outcome, str):
        return False
    fixing.text, fixing.report = outcome
    return True


# ------------------------------------------------------------------------------ writing


def _roots(paths: list[str]) -> list[str]:
    """The folders whose files may be written: each folder named, a named file's folder."""
    roots = []
    for given in paths:
        if given == "-":
            continue
        if os.path.isdir(given):
            roots.append(os.path.realpath(given))
        else:  # the folder it is named in, not wherever a link named so leads
            roots.append(os.path.realpath(os.path.dirname(os.path.abspath(given))))
    return roots


def _inside(path: str, roots: list[str]) -> bool:
    return any(path == root or path.startswith(root.rstrip(os.sep) + os.sep) for root in roots)


#: The temporary file a write makes beside *NAME* (``tempfile.mkstemp``'s eight characters):
#: one a killed run left behind is removed by the next run that writes, by this pattern only.
_TEMPORARY = re.compile(r"\.(?P<name>.+)\.[a-z0-9_]{8}\.formscript-fix")


def remove_stale_temporaries(paths: list[str]) -> int:
    """Remove, from the folders of *paths*, the temporaries an interrupted write left (a
    regular file named by the pattern beside the file it was for); how many."""
    removed = 0
    for folder in sorted({os.path.dirname(os.path.abspath(p)) for p in paths}):
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        present = set(names)
        for name in names:
            found = _TEMPORARY.fullmatch(name)
            if found is None or found.group("name") not in present:
                continue
            path = os.path.join(folder, name)
            with contextlib.suppress(OSError):
                if stat.S_ISREG(os.lstat(path).st_mode):
                    os.unlink(path)
                    removed += 1
    return removed


def stop_on_sigterm() -> None:
    """Let SIGTERM (what CI runners and pre-commit send on a timeout) stop a run that writes
    as Ctrl-C does: the write under way removes its temporary file."""
    import signal

    def stop(signum: int, frame: object) -> None:
        raise Terminated

    with contextlib.suppress(ValueError):  # not the main thread: the default stays
        signal.signal(signal.SIGTERM, stop)


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived while files were being written."""


def write_fixed(path: str, before: str, after: str, roots: list[str]) -> None:
    """Write *after* over the file *path* (read as *before*): through a link only to a file
    inside *roots*, never to a read-only file, as a new file renamed over the old one with
    the old one's mode. Raises NotWritten saying why it was not written."""
    target = os.path.realpath(path)
    if target != os.path.abspath(path) and not _inside(target, roots):
        raise NotWritten(f"it is a link to {target}, outside the folders being linted")
    try:
        info = os.stat(target)
        if not stat.S_ISREG(info.st_mode):
            raise NotWritten("not a regular file")
        if not info.st_mode & 0o222 or not os.access(target, os.W_OK):
            raise NotWritten("the file is read-only")
        with open(target, encoding="utf-8", newline="") as handle:
            if handle.read() != before:
                raise NotWritten("the file changed since it was read")
        _replace(target, after, stat.S_IMODE(info.st_mode))
    except (OSError, UnicodeError) as exc:
        raise NotWritten(f"{type(exc).__name__}: {exc}") from exc


def _replace(target: str, text: str, mode: int) -> None:
    """Write *text* to a new file beside *target*, then rename it over *target*."""
    folder, name = os.path.split(target)
    fd, temporary = tempfile.mkstemp(prefix=f".{name}.", suffix=".formscript-fix", dir=folder or ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
