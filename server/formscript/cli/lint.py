"""``formscript lint``: settings from the options, the files, the cache, the report, the exit code.

Linting itself (in this process or a pool) is ``cli.pool``; ``--fix`` and ``--diff`` are
``cli.fixing``. Heavy modules are imported inside the functions that need them.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from formscript.cli.output import read, read_stdin, write

if TYPE_CHECKING:
    from formscript.lint.discovery import SettingsFor
    from formscript.lint.report import FileReport

#: A ``--form`` paired with rulesets: (path, text).
Paired = tuple[str, str] | None


def _collect_less_often() -> None:
    """Linting allocates many short-lived objects (YAML nodes, values) while the reports
    accumulate: with the default thresholds the cyclic collector walks the growing live
    graph again and again (bench/run.py: 10-15% of a run on problem-heavy files). Objects
    loaded at start-up are frozen out of its walks; what a file leaves behind is freed by
    reference counting."""
    import gc

    gc.freeze()
    gc.set_threshold(50_000, 20, 20)


def lint(args: argparse.Namespace) -> int:
    """Lint the paths; 1 when a diagnostic at ``--fail-on`` or above is reported, 2 on misuse."""
    from formscript.lint.config import ConfigError

    if not args.paths:  # none given: stdin when it is named, else the current folder
        args.paths = ["-"] if args.stdin_filename else ["."]

    suppressing = args.add_suppressions is not None
    if suppressing:
        refused = _suppressions_refused(args)
        if refused:
            print(f"formscript: --add-suppressions {refused}", file=sys.stderr)
            return 2
    try:
        settings_for = settings_from_args(args)
        files, missing = collect(args.paths, settings_for, force_exclude=args.force_exclude)
        for path in files:  # every configuration that applies is read (and refused) before linting
            settings_for(_stdin_name(args) if path == "-" else path)
    except ConfigError as exc:
        print(f"formscript: configuration error: {exc}", file=sys.stderr)
        return 2
    for path in missing:
        print(f"formscript: {path}: no such file or directory", file=sys.stderr)
    if missing:
        return 2
    paired = None
    if args.form:
        form_text = read(args.form)
        if form_text is None:
            return 2
        paired = (args.form, form_text)
    _collect_less_often()
    if (args.fix or args.unsafe_fixes or suppressing) and not args.diff:
        from formscript.cli.fixing import remove_stale_temporaries, stop_on_sigterm

        stop_on_sigterm()
        removed = remove_stale_temporaries([f for f in files if f != "-"])
        if removed:
            print(f"formscript: removed {removed} temporary file(s) an interrupted run left", file=sys.stderr)
    reports = lint_files(files, settings_for, args, paired)
    if suppressing:
        from formscript.cli.suppressing import add_suppressions

        return add_suppressions(reports, settings_for, args, paired)
    not_written = 0
    if args.fix or args.diff or args.unsafe_fixes:
        from formscript.cli.fixing import apply_fixes

        found = sum(len(r.diagnostics) for r in reports)
        reports, not_written, changed = apply_fixes(reports, settings_for, args, paired)
        left = sum(len(r.diagnostics) for r in reports)
        if not args.diff:
            print(
                f"formscript: fixed {found - left} finding(s) in {changed} file(s); {left} remaining", file=sys.stderr
            )
    from formscript.lint.formats import render_chunks
    from formscript.lint.report import flatten

    reports = flatten(reports)

    color = args.color == "always" or (args.color == "auto" and sys.stdout.isatty() and not os.environ.get("NO_COLOR"))
    # with --diff the patch is what goes to stdout (lint --diff > fix.patch); the report to stderr
    to_stderr = bool(args.diff) and not args.output
    write(render_chunks(args.format, reports, color=color and not to_stderr), args.output, stderr=to_stderr)
    if args.exit_zero:
        return 0
    failing = {"error"} if args.fail_on == "error" else {"error", "warning"}
    return 1 if not_written or any(d.severity in failing for r in reports for d in r.diagnostics) else 0


def _suppressions_refused(args: argparse.Namespace) -> str | None:
    """Why ``--add-suppressions`` cannot run with these options (None: it can)."""
    if args.fix or args.diff or args.unsafe_fixes:
        return "writes comments, not fixes: run it without --fix, --unsafe-fixes and --diff"
    if "-" in args.paths:
        return "writes files: it does not read stdin"
    if not args.add_suppressions.strip():
        return 'needs a reason, written into every comment: --add-suppressions "adopted formscript"'
    return None


#: The formats that show fixes (the JSON contract's ``fix`` and ``fixable``, the text
#: format's ``= fix:`` lines and count); the others never pay for building them.
FORMATS_SHOWING_FIXES = ("text", "json")


def wants_fixes(args: argparse.Namespace) -> bool:
    """Whether this run builds fixes: to apply them, or because its format shows them."""
    return bool(args.fix or args.diff or args.unsafe_fixes) or args.format in FORMATS_SHOWING_FIXES


def _stdin_name(args: argparse.Namespace) -> str:
    """Where stdin's text is taken to be (its settings are that folder's)."""
    return str(args.stdin_filename or "<stdin>")


def settings_from_args(args: argparse.Namespace) -> SettingsFor:
    """Each file's settings: ``--config``, or the configuration found from the file's folder,
    with the code options on top."""
    from formscript.lint.config import ConfigError, Settings, SettingsFinder, load_file

    fixed = None
    if args.config:
        path = Path(args.config)
        if not path.is_file():
            raise ConfigError(f"{path}: no such configuration file")
        fixed = load_file(path)
        if fixed is None:
            raise ConfigError(f"{path}: has no [tool.formscript] table")
    overrides: dict[str, Any] = {}
    for name in ("select", "extend_select", "ignore"):
        given = getattr(args, name)  # comma-separated, each option repeatable
        if given is not None:
            overrides[name] = [c.strip().upper() for v in given for c in v.split(",") if c.strip()]
    if args.severity:
        table = {}
        for item in args.severity:
            code, _, level = item.partition("=")
            if not level:
                raise ConfigError(f"--severity {item!r}: expected CODE=LEVEL")
            table[code.strip().upper()] = level.strip().lower()
        overrides["severity"] = table
    if overrides:
        Settings().merged(overrides, "command line")  # the options' own errors, before any file
    return SettingsFinder(fixed, overrides)


def collect(paths: list[str], settings_for: SettingsFor, *, force_exclude: bool = False) -> tuple[list[str], list[str]]:
    """Files to lint (``-`` for stdin; the rest as ``lint.discovery.explicit`` finds them), and
    the paths that do not exist."""
    from formscript.lint.discovery import explicit

    files: list[str] = []
    missing: list[str] = []
    for given in paths:
        if given == "-":
            files.append("-")
        else:
            found, absent = explicit([given], settings_for, force_exclude=force_exclude)
            files += found
            missing += absent
    return files, missing


def lint_files(
    files: list[str], settings_for: SettingsFor, args: argparse.Namespace, paired: Paired
) -> list[FileReport]:
    """Read every file, answer from the cache where possible, lint the rest (in parallel)."""
    from formscript.cli.pool import Job, run_jobs, wants_progress
    from formscript.lint.files import MAX_BYTES
    from formscript.lint.kinds import kind_from_name
    from formscript.lint.reading import read_report_or_text, refused_report, text_or_report

    fixes = wants_fixes(args)
    cache = None
    if not args.no_cache:
        from formscript.lint.cache import LintCache, code_fingerprint, default_cache_dir

        salt = f"{code_fingerprint()}\0fixes={fixes}"
        directory = Path(args.cache_dir) if args.cache_dir else default_cache_dir()
        cache = LintCache(directory, salt, project=os.path.realpath(os.getcwd()))
    reports: list[FileReport | None] = []
    pending: list[tuple[int, str, Job]] = []
    stdin_data = read_stdin() if "-" in files else None
    for path in files:
        settings = settings_for(_stdin_name(args) if path == "-" else path)
        if path != "-":
            read_in, failed = read_report_or_text(path, args.kind, settings)
        else:
            path = _stdin_name(args)
            kind = args.kind or kind_from_name(path, settings) or "unknown"
            if stdin_data is None:
                read_in, failed = None, refused_report(path, kind, f"stdin holds more than {MAX_BYTES} bytes")
            else:
                read_in, failed = text_or_report(stdin_data, path, kind)
        if failed is not None:
            reports.append(failed)
            continue
        text = read_in or ""
        key = cache.key(path, text, args.kind, paired[1] if paired else None, repr(settings)) if cache else ""
        hit = cache.get(key, path, text) if cache is not None else None
        reports.append(hit)
        if hit is None:
            pending.append((len(reports) - 1, key, (path, text, settings, args.kind, paired)))
    done = run_jobs([job for _, _, job in pending], args.jobs, progress=wants_progress(len(pending)), fixes=fixes)
    for (slot, key, _), report in zip(pending, done, strict=True):
        reports[slot] = report
        if cache is not None:
            cache.put(key, report)
    if cache is not None:
        cache.save(gitignore=bool(args.cache_dir))
    return [r for r in reports if r is not None]
