"""Linting many files: in this process below ``PARALLEL_THRESHOLD`` files, else in a pool of
worker processes; a progress bar on a terminal for long runs."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from formscript.lint.config import Settings
    from formscript.lint.report import FileReport

#: One file to lint: path, text, settings, --kind, the paired --form (path, text).
Job = tuple[str, str, "Settings", str | None, tuple[str, str] | None]

#: Fewer files than this are linted in one process whatever --jobs says: starting a pool and
#: shipping texts costs more than it saves below it (bench/run.py's scaling curve).
PARALLEL_THRESHOLD = 1500

#: Runs with at least this many files to lint show a progress bar (on a terminal only).
PROGRESS_THRESHOLD = 200


def lint_one(job: Job, *, fixes: bool = True) -> FileReport:
    """The full report of one file (with its fixes built when *fixes*)."""
    path, text, settings, kind, paired = job
    if path.endswith(".py"):
        from formscript.lint.python_lint import lint_python

        return lint_python(text, path, settings=settings, fixes=fixes)
    from formscript.lint.engine import PairedForm, lint_text

    pair = PairedForm(paired[1], paired[0]) if paired else None
    return lint_text(text, path, settings=settings, kind=kind, paired_form=pair, fixes=fixes)


def lint_one_light(job: Job, *, fixes: bool = True) -> FileReport:
    """``lint_one`` keeping only what the CLI needs: no parse tree is held for thousands of
    files, and from a worker process only that crosses back."""
    from formscript.document import TextDocument

    report = lint_one(job, fixes=fixes)
    _lighten(report, TextDocument(job[1]) if report.parts is None else report.document)
    return report


def _lighten(report: FileReport, document: Any) -> None:
    """Drop what the CLI does not need from *report* (and its parts): parse trees, models."""
    report.document = document
    report.gate = None
    report.script = None
    for part in report.parts or ():
        _lighten(part, document)


def wants_progress(count: int) -> bool:
    """Whether linting *count* files shows a progress bar."""
    return count >= PROGRESS_THRESHOLD and sys.stderr.isatty() and not os.environ.get("CI")


def run_jobs(jobs: list[Job], workers: int, *, progress: bool = False, fixes: bool = True) -> list[FileReport]:
    """The reports of *jobs*, in order (``workers`` 0: one per core; fixes built when *fixes*)."""
    if workers == 0:
        workers = os.cpu_count() or 1
    if workers <= 1 or len(jobs) < PARALLEL_THRESHOLD:
        results: Any = (lint_one_light(job, fixes=fixes) for job in jobs)
        return _with_progress(results, len(jobs)) if progress else list(results)
    from concurrent.futures import ProcessPoolExecutor

    # --kind and the paired form go to each worker once; a job is its path, text and settings
    # (one object for most files: pickled once per chunk), and the report comes back without
    # the text (the main process still has it).
    shared = (jobs[0][3], jobs[0][4], fixes)
    small = [(job[0], job[1], job[2]) for job in jobs]
    chunk = max(1, len(jobs) // (workers * 4))
    with ProcessPoolExecutor(max_workers=workers, initializer=_worker_init, initargs=shared) as pool:
        mapped = pool.map(_lint_in_worker, small, chunksize=chunk)
        reports = _with_progress(mapped, len(jobs)) if progress else list(mapped)
    from formscript.document import TextDocument
    from formscript.lint.python_lint import PythonText

    for report, job in zip(reports, jobs, strict=True):
        _lighten(report, TextDocument(job[1]) if report.parts is None else PythonText(job[1]))
    return reports


_WORKER: dict[str, Any] = {}


def _worker_init(kind: str | None, paired: tuple[str, str] | None, fixes: bool) -> None:
    _WORKER.update(kind=kind, paired=paired, fixes=fixes)


def _lint_in_worker(item: tuple[str, str, Settings]) -> FileReport:
    job = (item[0], item[1], item[2], _WORKER["kind"], _WORKER["paired"])
    report = lint_one(job, fixes=_WORKER["fixes"])
    _lighten(report, None)
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
