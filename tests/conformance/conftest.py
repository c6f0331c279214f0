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
from .engines import FormscriptEngine, LionagiEngine, lionagi_missing_reason

SEED = int(os.environ.get("FORMSCRIPT_CONFORMANCE_SEED", str(DEFAULT_SEED)))


@dataclass
class Corpus:
    """The generated cases and the directory their files live in."""

    root: Path
    forms: list[FormCase]
    scripts: list[ScriptCase]

    def path(self, case: FormCase | ScriptCase) -> str:
        return str(self.root / case.filename)


@dataclass
class Tally:
    """What the suite compared, for the summary at the end of the run."""

    compared: dict[str, int] = field(default_factory=lambda: {"form": 0, "script": 0, "named": 0,
                                                               "rules": 0})
    disagreements: dict[str, int] = field(default_factory=lambda: {"form": 0, "script": 0,
                                                                    "named": 0, "rules": 0})
    crashes: list[str] = field(default_factory=list)
    skipped_reason: str | None = None

    def add(self, kind: str, compared: int, disagreements: int) -> None:
        self.compared[kind] += compared
        self.disagreements[kind] += disagreements


_TALLY = Tally()


@pytest.fixture(scope="session")
def tally() -> Tally:
    return _TALLY


@pytest.fixture(scope="session")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    root = tmp_path_factory.mktemp("conformance-corpus")
    forms = generate_form_cases(SEED)
    scripts = generate_script_cases(SEED)
    write_cases(root, forms)
    write_cases(root, scripts)
    return Corpus(root, forms, scripts)


class _MemoFormscriptEngine(FormscriptEngine):
    """formscript's engine, remembering corpus outcomes so several tests can share them."""

    def __init__(self) -> None:
        self._forms: dict[str, Any] = {}
        self._scripts: dict[tuple[str, Any], Any] = {}

    def form_outcome(self, path: str) -> Any:
        if path not in self._forms:
            self._forms[path] = super().form_outcome(path)
        return self._forms[path]

    def script_outcome(self, path: str, transcript: Any) -> Any:
        key = (path, repr(transcript))
        if key not in self._scripts:
            self._scripts[key] = super().script_outcome(path, transcript)
        return self._scripts[key]


@pytest.fixture(scope="session")
def formscript_engine() -> FormscriptEngine:
    return _MemoFormscriptEngine()


@pytest.fixture(scope="session")
def lionagi_engine() -> Iterator[LionagiEngine]:
    reason = lionagi_missing_reason()
    if reason is not None:
        _TALLY.skipped_reason = reason
        pytest.skip(reason)
    engine = LionagiEngine()
    yield engine
    engine.close()


def pytest_terminal_summary(terminalreporter: Any) -> None:
    total = sum(_TALLY.compared.values())
    if not total and _TALLY.skipped_reason is None:
        return
    write = terminalreporter.write_line
    terminalreporter.section("conformance (formscript core vs lionagi 0.36.0)")
    labels = {
        "form": "corpus form specs, formscript vs lionagi",
        "script": "corpus scripts + transcripts, formscript vs lionagi",
        "named": "named quirk cases x engines, vs expectations (and each other)",
        "rules": "seeded rule sets, formscript vs lionagi.work",
    }
    for kind, label in labels.items():
        write(f"{_TALLY.compared[kind]:>6} compared, {_TALLY.disagreements[kind]:>4} "
              f"disagreements: {label}")
    if _TALLY.crashes:
        write(f"lionagi raised an undocumented exception on {len(_TALLY.crashes)} form specs "
              f"(counted as refusals): {', '.join(_TALLY.crashes[:5])}")
    if _TALLY.skipped_reason:
        write(f"lionagi engine skipped: {_TALLY.skipped_reason}")
