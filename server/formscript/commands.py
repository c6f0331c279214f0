"""Subcommands of the ``formscript`` CLI. Heavy modules are imported inside each command."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from formscript.lint.config import Settings
    from formscript.lint.report import FileReport


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="formscript",
        description="Check lionagi work-form specs and response scripts before anything runs.",
    )
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    lint = sub.add_parser("lint", help="lint files and directories")
    lint.add_argument("paths", nargs="*", default=["."], help="files, directories, or - for stdin")
    lint.add_argument("--format", default="text", choices=("text", "concise", "json", "sarif", "github", "junit"))
    lint.add_argument(
        "--select",
        action="append",
        default=None,
        metavar="CODES",
        help="only these codes or prefixes (comma-separated)",
    )
    lint.add_argument("--extend-select", action="append", default=None, metavar="CODES")
    lint.add_argument("--ignore", action="append", default=None, metavar="CODES")
    lint.add_argument(
        "--severity",
        action="append",
        default=[],
        metavar="CODE=LEVEL",
        help="override a code's severity (error, warning, info, hint, off)",
    )
    lint.add_argument("--config", help="a formscript.toml or pyproject.toml to use")
    lint.add_argument("--kind", choices=("form", "script", "rules", "calls"))
    lint.add_argument("--form", help="a form spec to check rulesets against")
    lint.add_argument("--fix", action="store_true", help="apply safe fixes")
    lint.add_argument("--unsafe-fixes", action="store_true", help="also apply unsafe fixes")
    lint.add_argument("--diff", action="store_true", help="show fixes as a diff, write nothing")
    lint.add_argument("--fail-on", choices=("error", "warning"), default="error")
    lint.add_argument("--exit-zero", action="store_true")
    lint.add_argument("--stdin-filename", help="the path to report for stdin input")
    lint.add_argument("--jobs", "-j", type=int, default=1, help="parallel workers (0 = cores)")
    lint.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    lint.add_argument("--output", "-o", help="write the report to this file")
    lint.add_argument("--no-cache", action="store_true", help="neither read nor write the cache")
    lint.add_argument("--cache-dir", default=".formscript_cache", help="where results are cached")

    rule = sub.add_parser("rule", help="show the documentation of a rule")
    rule.add_argument("code", nargs="?")
    rule.add_argument("--all", action="store_true")
    rule.add_argument("--format", choices=("text", "json", "markdown"), default="text")

    schema = sub.add_parser("schema", help="print a JSON Schema (form, script, rules, calls)")
    schema.add_argument("kind")

    dry = sub.add_parser("dry-run", help="show what li agent --form sends to the model")
    dry.add_argument("forms", nargs="+")
    dry.add_argument("--rules", help="a ruleset to apply with fill_form")
    dry.add_argument("--format", choices=("text", "json"), default="text")

    sim = sub.add_parser("simulate", help="replay calls against a response script")
    sim.add_argument("script")
    sim.add_argument("--calls", help="a calls transcript (YAML or JSON list)")
    sim.add_argument("--stream", action="store_true", help="show stream chunk sequences")
    sim.add_argument("--format", choices=("text", "json"), default="text")
    sim.add_argument("--regex-timeout", type=float, default=2.0)

    serve = sub.add_parser("serve", help="run the language server (stdio by default)")
    serve.add_argument("--tcp", metavar="HOST:PORT")
    serve.add_argument("--stdio", action="store_true", help="accepted for client compatibility")
    return parser


def run(argv: Sequence[str]) -> int:
    """Run the CLI; returns the exit code."""
    parser = _parser()
    args = parser.parse_args(list(argv))
    if args.version:
        from formscript import __version__

        print(f"formscript {__version__}")
        return 0
    if args.command is None:
        parser.print_help()
        return 2
    handler = {
        "lint": _lint,
        "rule": _rule,
        "schema": _schema,
        "dry-run": _dry_run,
        "simulate": _simulate,
        "serve": _serve,
    }[args.command]
    try:
        return handler(args)
    except BrokenPipeError:
        return 0


def _write(text: str, output: str | None = None) -> None:
    if output:
        Path(output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)


# ------------------------------------------------------------------------------ lint


def _split_codes(values: list[str] | None) -> list[str] | None:
    if values is None:
        return None
    return [c.strip().upper() for v in values for c in v.split(",") if c.strip()]


def _settings(args: argparse.Namespace, anchor: Path) -> Settings:
    from formscript.lint.config import ConfigError, discover, load_file

    if args.config:
        path = Path(args.config)
        if not path.is_file():
            raise ConfigError(f"{path}: no such configuration file")
        settings = load_file(path)
        if settings is None:
            raise ConfigError(f"{path}: has no [tool.formscript] table")
    else:
        settings = discover(anchor)
    overrides: dict[str, Any] = {}
    for name in ("select", "extend_select", "ignore"):
        codes = _split_codes(getattr(args, name))
        if codes is not None:
            overrides[name] = codes
    if args.severity:
        table = {}
        for item in args.severity:
            code, _, level = item.partition("=")
            if not level:
                raise ConfigError(f"--severity {item!r}: expected CODE=LEVEL")
            table[code.strip().upper()] = level.strip().lower()
        overrides["severity"] = table
    return settings.merged(overrides) if overrides else settings


def _collect(paths: list[str], settings: Settings) -> tuple[list[str], list[str]]:
    """Files to lint (explicit files always; directories walked for candidates), and errors."""
    from formscript.lint.discovery import candidates

    files: list[str] = []
    missing: list[str] = []
    for given in paths:
        if given == "-":
            files.append("-")
        elif Path(given).is_dir():
            files.extend(candidates(given, lambda _: settings))
        elif Path(given).exists() or Path(given).is_symlink():
            files.append(given)
        else:
            missing.append(given)
    return files, missing


Job = tuple[str, str, "Settings", str | None, tuple[str, str] | None]


def _lint_one(job: Job) -> FileReport:
    path, text, settings, kind, paired = job
    from formscript.lint.engine import PairedForm, lint_text

    pair = PairedForm(paired[1], paired[0]) if paired else None
    return lint_text(text, path, settings=settings, kind=kind, paired_form=pair)


def _lint_one_light(job: Job) -> FileReport:
    """_lint_one keeping only what the CLI needs: no parse tree is held for thousands of files,
    and from a worker process only that crosses back."""
    from formscript.document.located import Document

    report = _lint_one(job)
    report.document = Document(text=job[1])
    report.gate = None
    report.script = None
    return report


def _lint(args: argparse.Namespace) -> int:
    from formscript.lint.config import ConfigError

    anchor = Path(args.paths[0]) if args.paths and args.paths[0] != "-" else Path.cwd()
    try:
        settings = _settings(args, anchor if anchor.exists() else Path.cwd())
    except ConfigError as exc:
        print(f"formscript: configuration error: {exc}", file=sys.stderr)
        return 2
    files, missing = _collect(args.paths, settings)
    for path in missing:
        print(f"formscript: {path}: no such file or directory", file=sys.stderr)
    if missing:
        return 2
    paired = None
    if args.form:
        try:
            paired = (args.form, Path(args.form).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as exc:
            print(f"formscript: --form {args.form}: cannot read ({exc})", file=sys.stderr)
            return 2
    reports = _lint_files(files, settings, args, paired)
    if args.fix or args.diff or args.unsafe_fixes:
        reports = _apply_fixes(reports, settings, args, paired)
    from formscript.lint.formats import render

    color = args.color == "always" or (args.color == "auto" and sys.stdout.isatty() and not os.environ.get("NO_COLOR"))
    _write(render(args.format, reports, color=color), args.output)
    if args.exit_zero:
        return 0
    failing = {"error"} if args.fail_on == "error" else {"error", "warning"}
    return 1 if any(d.severity in failing for r in reports for d in r.diagnostics) else 0


def _lint_files(
    files: list[str], settings: Settings, args: argparse.Namespace, paired: tuple[str, str] | None
) -> list[FileReport]:
    """Read every file, answer from the cache where possible, lint the rest (in parallel)."""
    from formscript.lint.reading import read_report_or_text

    cache = None
    if not args.no_cache:
        from formscript.lint.cache import LintCache, code_fingerprint

        salt = code_fingerprint() + repr(settings)
        cache = LintCache(Path(args.cache_dir), salt)
    reports: list[FileReport | None] = []
    pending: list[tuple[int, str, Job]] = []
    stdin_text = sys.stdin.read() if "-" in files else None
    for path in files:
        if path == "-":
            path, text = args.stdin_filename or "<stdin>", stdin_text or ""
        else:
            read, failed = read_report_or_text(path, args.kind, settings)
            if failed is not None:
                reports.append(failed)
                continue
            text = read or ""
        key = cache.key(path, text, args.kind, paired[1] if paired else None) if cache else ""
        hit = cache.get(key, path, text) if cache is not None else None
        reports.append(hit)
        if hit is None:
            pending.append((len(reports) - 1, key, (path, text, settings, args.kind, paired)))
    done = _run_jobs([job for _, _, job in pending], args.jobs, progress=_wants_progress(len(pending)))
    for (slot, key, _), report in zip(pending, done, strict=True):
        reports[slot] = report
        if cache is not None:
            cache.put(key, report)
    if cache is not None:
        cache.save()
    return [r for r in reports if r is not None]


#: Fewer files than this are linted in one process whatever --jobs says: starting a pool and
#: shipping texts costs more than it saves below it (bench/run.py's scaling curve).
PARALLEL_THRESHOLD = 1500

#: Runs with at least this many files to lint show a progress bar (on a terminal only).
PROGRESS_THRESHOLD = 200


def _wants_progress(count: int) -> bool:
    return count >= PROGRESS_THRESHOLD and sys.stderr.isatty() and not os.environ.get("CI")


def _run_jobs(jobs: list[Job], workers: int, *, progress: bool = False) -> list[FileReport]:
    if workers == 0:
        workers = os.cpu_count() or 1
    if workers <= 1 or len(jobs) < PARALLEL_THRESHOLD:
        results: Any = (_lint_one_light(job) for job in jobs)
        return _with_progress(results, len(jobs)) if progress else list(results)
    from concurrent.futures import ProcessPoolExecutor

    # Settings and the paired form go to each worker once; a job is its path and text, and
    # the report comes back without the text (the main process still has it).
    shared = (jobs[0][2], jobs[0][3], jobs[0][4])
    small = [(job[0], job[1]) for job in jobs]
    chunk = max(1, len(jobs) // (workers * 4))
    with ProcessPoolExecutor(max_workers=workers, initializer=_worker_init, initargs=shared) as pool:
        mapped = pool.map(_lint_in_worker, small, chunksize=chunk)
        reports = _with_progress(mapped, len(jobs)) if progress else list(mapped)
    from formscript.document.located import Document

    for report, job in zip(reports, jobs, strict=True):
        report.document = Document(text=job[1])
    return reports


_WORKER: dict[str, Any] = {}


def _worker_init(settings: Settings, kind: str | None, paired: tuple[str, str] | None) -> None:
    _WORKER.update(settings=settings, kind=kind, paired=paired)


def _lint_in_worker(item: tuple[str, str]) -> FileReport:
    report = _lint_one((item[0], item[1], _WORKER["settings"], _WORKER["kind"], _WORKER["paired"]))
    report.document = None
    report.gate = None
    report.script = None
    return report


def _with_progress(results: Any, total: int) -> list[FileReport]:
    from rich.console import Console
    from rich.progress import Progress

    collected = []
    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("linting", total=total)
        for report in results:
            collected.append(report)
            bar.advance(task)
    return collected


def _apply_fixes(
    reports: list[FileReport], settings: Settings, args: argparse.Namespace, paired: tuple[str, str] | None
) -> list[FileReport]:
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
        for _ in range(5):  # overlapping fixes need another pass
            edits = fix_edits(current.diagnostics, unsafe=args.unsafe_fixes)
            if not edits:
                break
            candidate = apply_edits(after, edits)
            if candidate == after:
                break
            after = candidate
            current = _lint_one((path, after, settings, args.kind, paired))
        if after != before:
            if args.diff:
                sys.stderr.write(unified_diff(before, after, path))
                updated.append(report)
                continue
            Path(path).write_text(after, encoding="utf-8")
        updated.append(current)
    return updated


# ------------------------------------------------------------------------------ rule


def _rule(args: argparse.Namespace) -> int:
    from formscript import rules

    if args.all:
        chosen = list(rules.all_rules())
    elif args.code:
        found = rules.get(args.code)
        if found is None:
            print(f"formscript: unknown rule {args.code!r}; see `formscript rule --all`", file=sys.stderr)
            return 2
        chosen = [found]
    else:
        print("formscript: give a rule code or --all", file=sys.stderr)
        return 2
    if args.format == "json":
        data = [
            {
                "code": r.code,
                "name": r.name,
                "kind": r.kind,
                "severity": r.severity,
                "rejects": r.rejects,
                "summary": r.summary,
                "why": r.why,
                "fails": r.fails,
                "passes": r.passes,
            }
            for r in chosen
        ]
        _write(json.dumps(data if args.all else data[0], indent=2, ensure_ascii=False) + "\n")
    elif args.format == "markdown":
        from formscript.rules.base import reference

        _write(reference() if args.all else chosen[0].page())
    elif args.all:
        _write("".join(f"{r.code:<7}{r.severity:<8}{r.kind:<7}{r.name}: {r.summary}\n" for r in chosen))
    else:
        _write(chosen[0].page())
    return 0


def _schema(args: argparse.Namespace) -> int:
    try:
        from formscript.schemas import SCHEMA_KINDS, schema_text
    except ImportError:
        print("formscript: schemas are not available in this build", file=sys.stderr)
        return 2
    aliases = {
        "form": "form",
        "form-spec": "form",
        "script": "script",
        "rules": "rules",
        "ruleset": "rules",
        "calls": "calls",
    }
    kind = aliases.get(args.kind, args.kind)
    if kind not in SCHEMA_KINDS:
        print(f"formscript: unknown schema {args.kind!r}; choose from {', '.join(SCHEMA_KINDS)}", file=sys.stderr)
        return 2
    _write(schema_text(kind))
    return 0


# ------------------------------------------------------------------- dry run, simulate


def _read(path: str) -> str | None:
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        print(f"formscript: {path}: cannot read ({exc})", file=sys.stderr)
        return None


def _dry_run(args: argparse.Namespace) -> int:
    from formscript.runs import CONTRACT_VERSION, dry_run_text, render_dry_run

    rules_text = _read(args.rules) if args.rules else None
    if args.rules and rules_text is None:
        return 2
    results = []
    for path in args.forms:
        text = _read(path)
        if text is None:
            return 2
        results.append(dry_run_text(text, path, rules_text, args.rules))
    if args.format == "json":
        _write(json.dumps({"version": CONTRACT_VERSION, "results": results}, indent=2, ensure_ascii=False) + "\n")
    else:
        _write("\n".join(render_dry_run(r) for r in results))
    return 0 if all(r["verdict"] == "accepted" for r in results) else 1


def _simulate(args: argparse.Namespace) -> int:
    from formscript.runs import render_simulation, simulate_text

    text = _read(args.script)
    calls = _read(args.calls) if args.calls else None
    if text is None or (args.calls and calls is None):
        return 2
    result = simulate_text(text, args.script, calls, args.calls, stream=args.stream, regex_timeout=args.regex_timeout)
    if args.format == "json":
        _write(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    else:
        _write(render_simulation(result))
    if result["verdict"] == "rejected":
        return 1
    return 0 if all(c["outcome"] == "served" for c in result["calls"]) else 1


def _serve(args: argparse.Namespace) -> int:
    from formscript.lsp.server import run as run_server  # type: ignore[import-not-found, unused-ignore]

    run_server(args.tcp)
    return 0
