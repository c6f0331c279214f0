"""Session fixtures for the conformance suite: the corpus on disk, the engines, the tally.

The corpus is generated and written once per session. ``FORMSCRIPT_CONFORMANCE_SEED``
picks another seed for exploration; the default keeps every run identical.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from .corpus import (
    DEFAULT_SEED,
    FormCase,
    ScriptCase,
    generate_form_cases,
    generate_script_cases,
    write_cases,
)
from .engines import FormscriptEngine, LionagiEngine, RunsEngine, lionagi_missing_reason

SEED = int(os.environ.get("FORMSCRIPT_CONFORMANCE_SEED", str(DEFAULT_SEED)))


@dataclass
class Corpus:
    """The generated cases and the directory their files live in."""

    root: Path
    forms: list[FormCase]
    scripts: list[ScriptCase]

    def path(self, case: FormCase | ScriptCase) -> str:
        return str(self.root / case.filename)


KINDS = (
    "form",
    "script",
    "runs_form",
    "runs_script",
    "named",
    "rules",
    "python",
    "python_modules",
    "negative_tests",
    "raised_messages",
)


@dataclass
class Tally:
    """What the suite compared, for the summary at the end of the run."""

    compared: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    disagreements: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    crashes: list[str] = field(default_factory=list)
    skipped_reason: str | None = None
    #: The engine the runs layer is compared with ("lionagi", or "formscript" without it).
    runs_reference: str = "lionagi"
    #: Scripts whose transcript has a reset, compared by the runs layer up to the reset.
    runs_up_to_reset: int = 0
    #: Python documents with a run-time part that formscript left undecided, and how many of
    #: those lionagi decided the same way whatever the part held (formscript was cautious).
    python_undecided: int = 0
    python_cautious: int = 0

    #: The red team (``test_redteam.py``): class -> (cases, compared, disagreements, known
    #: issue-12 item).
    redteam: dict[str, tuple[int, int, int, int | None]] = field(default_factory=dict)

    def add(self, kind: str, compared: int, disagreements: int) -> None:
        self.compared[kind] += compared
        self.disagreements[kind] += disagreements

    def add_redteam(self, klass: str, cases: int, compared: int, disagreements: int, known: int | None) -> None:
        self.redteam[klass] = (cases, compared, disagreements, known)


_TALLY = Tally()


@pytest.fixture(scope="session")
def tally() -> Tally:
    return _TALLY


@pytest.fixture(scope="session")
def corpus_sample(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    """The first cases of the corpus only (for the quick run)."""
    root = tmp_path_factory.mktemp("conformance-sample")
    forms = generate_form_cases(SEED, SAMPLE)
    scripts = generate_script_cases(SEED, SAMPLE)
    write_cases(root, forms)
    write_cases(root, scripts)
    return Corpus(root, forms, scripts)


#: Cases of each kind in the quick run's sample of the corpus.
SAMPLE = 200


@pytest.fixture(scope="session")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    root = tmp_path_factory.mktemp("conformance-corpus")
    forms = generate_form_cases(SEED)
    scripts = generate_script_cases(SEED)
    write_cases(root, forms)
    write_cases(root, scripts)
    return Corpus(root, forms, scripts)


class _Memo:
    """Remembers an engine's outcomes so several tests (and engine pairs) can share them."""

    def __init__(self) -> None:
        super().__init__()
        self._forms: dict[Any, Any] = {}
        self._scripts: dict[tuple[str, Any], Any] = {}

    def form_outcome(self, path: str, **options: Any) -> Any:
        key = (path, tuple(sorted(options.items())))
        if key not in self._forms:
            self._forms[key] = super().form_outcome(path, **options)  # type: ignore[misc]
        return self._forms[key]

    def script_outcome(self, path: str, transcript: Any) -> Any:
        key = (path, repr(transcript))
        if key not in self._scripts:
            self._scripts[key] = super().script_outcome(path, transcript)  # type: ignore[misc]
        return self._scripts[key]


class _MemoFormscriptEngine(_Memo, FormscriptEngine):
    """formscript's engine, remembering corpus outcomes."""


class _MemoLionagiEngine(_Memo, LionagiEngine):
    """lionagi's engine, remembering corpus outcomes (the runs layer is compared with them too)."""


@pytest.fixture(scope="session")
def formscript_engine() -> FormscriptEngine:
    return _MemoFormscriptEngine()


@pytest.fixture(scope="session")
def lionagi_engine() -> Iterator[LionagiEngine]:
    reason = lionagi_missing_reason()
    if reason is not None:
        _TALLY.skipped_reason = reason
        pytest.skip(reason)
    engine = _MemoLionagiEngine()
    yield engine
    engine.close()


@pytest.fixture(scope="session")
def runs_engine() -> RunsEngine:
    return RunsEngine()


@pytest.fixture(scope="session")
def reference_engine(
    formscript_engine: FormscriptEngine, request: pytest.FixtureRequest
) -> FormscriptEngine | LionagiEngine:
    """What the runs layer is compared with: lionagi, or formscript's core without it."""
    if lionagi_missing_reason() is None:
        engine: FormscriptEngine | LionagiEngine = request.getfixturevalue("lionagi_engine")
        return engine
    _TALLY.runs_reference = "formscript"
    return formscript_engine


def pytest_terminal_summary(terminalreporter: Any) -> None:
    total = sum(_TALLY.compared.values())
    if _TALLY.redteam:
        _redteam_summary(terminalreporter)
    if not total and _TALLY.skipped_reason is None:
        return
    write = terminalreporter.write_line
    terminalreporter.section("conformance (formscript core and runs layer vs lionagi 0.36.0)")
    reference = _TALLY.runs_reference
    labels = {
        "form": "corpus form specs, formscript vs lionagi",
        "script": "corpus scripts + transcripts, formscript vs lionagi",
        "runs_form": f"corpus form specs, runs.dry_run_text vs {reference}",
        "runs_script": f"corpus scripts + transcripts, runs.simulate_text vs {reference}",
        "named": "named quirk cases x engines, vs expectations (and each other)",
        "rules": "seeded rule sets, formscript vs lionagi.work",
        "python": "corpus scripts and forms written in Python files, formscript vs lionagi",
        "python_modules": "generated Python test modules (shapes of test suites), formscript vs lionagi",
        "negative_tests": "generated tests that state an outcome, formscript's prediction vs pytest",
        "raised_messages": "messages of lionagi's refusals (for match= patterns), formscript vs lionagi",
    }
    for kind, label in labels.items():
        write(f"{_TALLY.compared[kind]:>6} compared, {_TALLY.disagreements[kind]:>4} disagreements: {label}")
    if _TALLY.runs_up_to_reset:
        write(
            f"runs.simulate_text has no reset item: {_TALLY.runs_up_to_reset} transcripts with a "
            "reset were compared up to it"
        )
    if _TALLY.python_undecided:
        write(
            f"{_TALLY.python_undecided} Python documents with a run-time part left insufficient_evidence "
            f"({_TALLY.python_cautious} of them lionagi decides the same whatever the part holds)"
        )
    if _TALLY.crashes:
        write(
            f"lionagi raised an undocumented exception on {len(_TALLY.crashes)} form specs "
            f"(counted as refusals): {', '.join(_TALLY.crashes[:5])}"
        )
    if _TALLY.skipped_reason:
        write(f"lionagi engine skipped: {_TALLY.skipped_reason}")


def _redteam_summary(terminalreporter: Any) -> None:
    from .test_redteam import CASES, SEED

    write = terminalreporter.write_line
    terminalreporter.section(f"red team (issue 12): {CASES:,} cases, seed {SEED}, formscript vs lionagi 0.36.0")
    for klass, (cases, compared, disagreements, known) in sorted(_TALLY.redteam.items()):
        note = ""
        if known is not None:
            note = f"  (known: issue 12 item {known}"
            note += ")" if compared == cases else f"; stopped after {compared:,} of {cases:,})"
        write(f"{cases:>6} cases, {disagreements:>5} disagreements: {klass}{note}")
    cases = sum(row[0] for row in _TALLY.redteam.values())
    compared = sum(row[1] for row in _TALLY.redteam.values())
    disagreements = sum(row[2] for row in _TALLY.redteam.values())
    write(f"{cases:>6} cases, {disagreements:>5} disagreements: all classes ({compared:,} compared)")
