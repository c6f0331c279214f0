"""Scripts and forms written in Python test files get lionagi 0.36.0's verdict (issue 16).

Two ways in, both against lionagi itself:

- the corpus through ``PythonLiteralEngine``: every corpus script written as a literal in a
  Python file, every form spec written to a file by a Python test, linted (not run), must
  give the outcome lionagi gives on the file: verdict, mode, entries and every served call,
  gate stage, coerced values;
- generated test modules (``python_literals.py``) in the shapes test suites use — pytest
  classes, async tests, literals at the call and through names, helper-built entries, the
  imports under aliases, the fixtures, YAML written to ``tmp_path`` — executed with lionagi
  as the oracle, once per value their run-time parts may take. formscript's verdict must be
  lionagi's; ``insufficient_evidence`` only where the module has a run-time part, and never
  where lionagi's verdict is the same whatever that part holds is it a disagreement — it is
  counted (formscript was cautious), not failed.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

import pytest

from .conftest import SEED, Corpus, Tally
from .engines import LionagiEngine, PythonLiteralEngine, ScriptOutcome, lionagi_missing_reason
from .python_literals import PyCase, formscript_verdict, generate, lionagi_verdict
from .test_conformance import CHUNK, FORM_CHUNKS, SCRIPT_CHUNKS, _describe
from .test_rules_conformance import rule_cases

#: Every how-many-th corpus case the generated modules are made from (slow run, quick run).
SHARE_SLOW = 4
SHARE_QUICK = 8


@pytest.fixture(scope="module")
def python_engine() -> PythonLiteralEngine:
    return PythonLiteralEngine(SEED)


def _titled(outcome: Any, path: str, name: str) -> Any:
    """lionagi's outcome with the default title (the path as given) as the name the test
    writes the file under (which is all formscript can know of it)."""
    if outcome is None or outcome.title != path:
        return outcome
    block = outcome.context_block
    if block is not None:
        block = block.replace(f"[Work Form: {path}]", f"[Work Form: {name}]", 1)
    return dataclasses.replace(outcome, title=name, context_block=block)


def _named_for_a_kind(case: PyCase) -> bool:
    return case.written is not None and any(f".{kind}." in case.written[0] for kind in ("form", "script"))


def _has_runtime_part(source: str) -> bool:
    return "datetime." in source


@pytest.mark.slow
@pytest.mark.parametrize("chunk", SCRIPT_CHUNKS)
def test_corpus_scripts_in_python_agree_with_lionagi(
    chunk: int, corpus: Corpus, python_engine: PythonLiteralEngine, lionagi_engine: LionagiEngine, tally: Tally
) -> None:
    cases = corpus.scripts[chunk * CHUNK : (chunk + 1) * CHUNK]
    report, compared, undecided = [], 0, 0
    for case in cases:
        path = corpus.path(case)
        ours = python_engine.script_outcome(path, case.transcript)
        if ours is None:
            continue
        theirs = lionagi_engine.script_outcome(path, case.transcript)
        compared += 1
        if ours.verdict == "insufficient_evidence" and _has_runtime_part(python_engine.script_source(path) or ""):
            undecided += 1
            continue
        if ours != theirs:
            report.append(_describe(case, ours, theirs))
    tally.add("python", compared, len(report))
    tally.python_undecided += undecided
    assert compared > len(cases) // 2, "most corpus scripts can be written as Python literals"
    assert not report, f"{len(report)} of {compared} scripts written in Python disagree:\n\n" + "\n\n".join(report[:4])


@pytest.mark.slow
@pytest.mark.parametrize("chunk", FORM_CHUNKS)
def test_corpus_forms_written_by_python_agree_with_lionagi(
    chunk: int, corpus: Corpus, python_engine: PythonLiteralEngine, lionagi_engine: LionagiEngine, tally: Tally
) -> None:
    cases = corpus.forms[chunk * CHUNK : (chunk + 1) * CHUNK]
    report, compared = [], 0
    for case in cases:
        path = corpus.path(case)
        ours = python_engine.form_outcome(path)
        if ours is None:
            continue
        theirs = _titled(lionagi_engine.form_outcome(path), path, python_engine.form_name(path))
        compared += 1
        if ours != theirs:
            report.append(_describe(case, ours, theirs))
    tally.add("python", compared, len(report))
    assert compared > len(cases) // 2
    assert not report, f"{len(report)} of {compared} forms written by Python disagree:\n\n" + "\n\n".join(report[:4])


def _modules(corpus: Corpus, share: int) -> list[PyCase]:
    rules = [case.rules for case in rule_cases(SEED)]
    return generate(corpus.scripts, corpus.forms, rules, SEED, share)


def _judge(cases: list[PyCase], tmp_path: Path, tally: Tally) -> list[str]:
    reason = lionagi_missing_reason()
    if reason is not None:
        tally.skipped_reason = reason
        pytest.skip(reason)
    engine = LionagiEngine()
    report: list[str] = []
    decided = undecided = cautious = undetected = 0
    try:
        for case in cases:
            workdir = tmp_path / case.name
            workdir.mkdir()
            module = workdir / f"test_{case.name.replace('-', '_')}.py"
            module.write_text(case.source, encoding="utf-8")
            ours = formscript_verdict(case, str(module))
            theirs = lionagi_verdict(case, workdir, engine)
            if ours is None and case.judge == "file" and not _named_for_a_kind(case):
                undetected += 1  # neither the name nor the content says what the file is
                continue
            if ours is None:
                report.append(f"{case.name}: no document reported for {case.call} on line {case.line}\n{case.source}")
                continue
            if ours == "insufficient_evidence":
                if not case.runtime_parts and not _has_runtime_part(case.source) and case.judge != "file":
                    report.append(f"{case.name}: a literal left undecided (lionagi: {sorted(theirs)})\n{case.source}")
                    continue
                undecided += 1
                cautious += len(theirs) == 1
                continue
            decided += 1
            if theirs != {ours}:
                report.append(f"{case.name}: formscript {ours}, lionagi {sorted(theirs)}\n{case.source}")
    finally:
        engine.close()
    assert undetected <= len(cases) // 10
    tally.add("python_modules", decided + undecided, len(report))
    tally.python_undecided += undecided
    tally.python_cautious += cautious
    return report


def test_generated_test_modules_agree_with_lionagi_quick(corpus_sample: Corpus, tmp_path: Path, tally: Tally) -> None:
    cases = _modules(corpus_sample, SHARE_QUICK)
    assert len(cases) >= 40
    report = _judge(cases, tmp_path, tally)
    assert not report, f"{len(report)} of {len(cases)} modules disagree:\n\n" + "\n\n".join(report[:3])


@pytest.mark.slow
def test_generated_test_modules_agree_with_lionagi(corpus: Corpus, tmp_path: Path, tally: Tally) -> None:
    cases = _modules(corpus, SHARE_SLOW)
    shapes = {tag for case in cases for tag in case.tags}
    assert {"model_validate", "from_responses", "fixture", "fill", "fieldspec"} <= shapes
    report = _judge(cases, tmp_path, tally)
    assert not report, f"{len(report)} of {len(cases)} modules disagree:\n\n" + "\n\n".join(report[:3])


def test_generated_modules_have_the_shapes_test_suites_use(corpus_sample: Corpus) -> None:
    cases = _modules(corpus_sample, SHARE_QUICK)
    sources = "\n".join(case.source for case in cases)
    for shape in (
        "class TestGenerated",
        "async def test_target",
        "make_part(",
        "textwrap.dedent",
        " as TB",
        "import lionagi",
    ):
        assert shape in sources, shape
    assert re.search(r"^DATA_0 = ", sources, re.MULTILINE)


def test_the_python_engine_answers_the_contract(corpus_sample: Corpus, python_engine: PythonLiteralEngine) -> None:
    """Without lionagi: the Python route reaches the core's own outcome on the sampled corpus."""
    from .engines import FormscriptEngine

    core = FormscriptEngine()
    compared = 0
    for case in corpus_sample.scripts[:: SHARE_QUICK // 4]:
        path = corpus_sample.path(case)
        ours = python_engine.script_outcome(path, case.transcript)
        if ours is None or (
            ours.verdict == "insufficient_evidence" and "datetime." in (python_engine.script_source(path) or "")
        ):
            continue
        compared += 1
        assert ours == core.script_outcome(path, case.transcript), case.name
    assert compared >= 20
    assert isinstance(ours, ScriptOutcome | type(None))
