"""The engine-agnostic contract suite (seed 004): every case, every engine, equal outcomes.

Corpus cases are compared engine against engine: formscript's core against lionagi itself,
and formscript's dry-run and simulation layer (``runs.py``) against lionagi too.
Named cases in ``cases.yaml`` carry their expected outcome, so they also hold formscript to
account when lionagi is not installed.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
import yaml

from .conftest import Corpus, Tally
from .corpus import FORM_CASES, SCRIPT_CASES, FormCase, ScriptCase
from .engines import (
    FORM_CATEGORIES,
    RESET,
    CliEngine,
    FormOutcome,
    FormscriptEngine,
    LionagiEngine,
    RunsEngine,
    ScriptOutcome,
    as_json_reads,
    is_chat,
    up_to_reset,
)

CHUNK = 400
FORM_CHUNKS = range((FORM_CASES + CHUNK - 1) // CHUNK)
SCRIPT_CHUNKS = range((SCRIPT_CASES + CHUNK - 1) // CHUNK)
CASES_FILE = Path(__file__).with_name("cases.yaml")


def _differences(ours: Any, theirs: Any, names: tuple[str, str] = ("formscript", "lionagi")) -> list[str]:
    lines = []
    width = max(len(n) for n in names) + 1
    for item in dataclasses.fields(ours):
        if not item.compare:
            continue
        a, b = getattr(ours, item.name), getattr(theirs, item.name)
        if a != b:
            lines.append(f"  {item.name}:\n    {names[0] + ':':<{width}} {a!r}\n    {names[1] + ':':<{width}} {b!r}")
    return lines


def _describe(
    case: FormCase | ScriptCase, ours: Any, theirs: Any, names: tuple[str, str] = ("formscript", "lionagi")
) -> str:
    head = f"{case.name} ({case.filename})\n--- text ---\n{case.text[:1200]}"
    if isinstance(case, ScriptCase):
        head += f"\n--- transcript ---\n{case.transcript!r}"[:2000]
    return head + "\n--- differences ---\n" + "\n".join(_differences(ours, theirs, names))


# ----------------------------------------------------------------------------- corpus vs lionagi


@pytest.mark.slow
@pytest.mark.parametrize("chunk", FORM_CHUNKS)
def test_form_specs_agree_with_lionagi(
    chunk: int,
    corpus: Corpus,
    formscript_engine: FormscriptEngine,
    lionagi_engine: LionagiEngine,
    tally: Tally,
) -> None:
    cases = corpus.forms[chunk * CHUNK : (chunk + 1) * CHUNK]
    assert cases, "the corpus is smaller than the chunking expects"
    report = []
    for case in cases:
        path = corpus.path(case)
        ours = formscript_engine.form_outcome(path)
        theirs = lionagi_engine.form_outcome(path)
        if theirs.crashed:
            tally.crashes.append(case.name)
        if ours != theirs:
            report.append(_describe(case, ours, theirs))
    tally.add("form", len(cases), len(report))
    assert not report, f"{len(report)} of {len(cases)} form specs disagree:\n\n" + "\n\n".join(report[:4])


@pytest.mark.slow
@pytest.mark.parametrize("chunk", SCRIPT_CHUNKS)
def test_scripts_agree_with_lionagi(
    chunk: int,
    corpus: Corpus,
    formscript_engine: FormscriptEngine,
    lionagi_engine: LionagiEngine,
    tally: Tally,
) -> None:
    cases = corpus.scripts[chunk * CHUNK : (chunk + 1) * CHUNK]
    assert cases, "the corpus is smaller than the chunking expects"
    report = []
    for case in cases:
        path = corpus.path(case)
        ours = formscript_engine.script_outcome(path, case.transcript)
        theirs = lionagi_engine.script_outcome(path, case.transcript)
        if ours != theirs:
            report.append(_describe(case, ours, theirs))
    tally.add("script", len(cases), len(report))
    assert not report, f"{len(report)} of {len(cases)} scripts disagree:\n\n" + "\n\n".join(report[:4])


# ----------------------------------------------------------------------------- corpus, runs layer


@pytest.mark.slow
@pytest.mark.parametrize("chunk", FORM_CHUNKS)
def test_dry_runs_agree_with_lionagi(
    chunk: int,
    corpus: Corpus,
    runs_engine: RunsEngine,
    reference_engine: FormscriptEngine | LionagiEngine,
    tally: Tally,
) -> None:
    """``runs.dry_run_text`` (``formscript dry-run``) gives lionagi's verdict, values and block."""
    cases = corpus.forms[chunk * CHUNK : (chunk + 1) * CHUNK]
    assert cases, "the corpus is smaller than the chunking expects"
    names = ("runs", reference_engine.name)
    report = []
    for case in cases:
        path = corpus.path(case)
        ours = runs_engine.form_outcome(path)
        theirs = reference_engine.form_outcome(path)
        if ours != theirs:
            report.append(_describe(case, ours, theirs, names))
    tally.add("runs_form", len(cases), len(report))
    assert not report, f"{len(report)} of {len(cases)} dry runs disagree:\n\n" + "\n\n".join(report[:4])


@pytest.mark.slow
@pytest.mark.parametrize("chunk", SCRIPT_CHUNKS)
def test_simulations_agree_with_lionagi(
    chunk: int,
    corpus: Corpus,
    runs_engine: RunsEngine,
    reference_engine: FormscriptEngine | LionagiEngine,
    tally: Tally,
) -> None:
    """``runs.simulate_text`` (``formscript simulate``) serves what lionagi serves, call by call."""
    cases = corpus.scripts[chunk * CHUNK : (chunk + 1) * CHUNK]
    assert cases, "the corpus is smaller than the chunking expects"
    names = ("runs", reference_engine.name)
    report = []
    for case in cases:
        path = corpus.path(case)
        ours = runs_engine.script_outcome(path, case.transcript)
        theirs = up_to_reset(reference_engine.script_outcome(path, case.transcript), case.transcript)
        tally.runs_up_to_reset += RESET in case.transcript
        if ours != theirs:
            report.append(_describe(case, ours, theirs, names))
    tally.add("runs_script", len(cases), len(report))
    assert not report, f"{len(report)} of {len(cases)} simulations disagree:\n\n" + "\n\n".join(report[:4])


# ----------------------------------------------------------------------------- corpus, formscript only


@pytest.mark.slow
def test_formscript_engine_is_total_on_the_corpus(corpus: Corpus, formscript_engine: FormscriptEngine) -> None:
    """Every case gets a well-formed outcome, never a crash (the floor that holds even where
    no oracle is installed)."""
    for case in corpus.forms:
        outcome = formscript_engine.form_outcome(corpus.path(case))
        assert outcome.verdict in ("accepted", "rejected"), case.name
        assert (outcome.verdict == "accepted") == (outcome.category is None), case.name
        assert outcome.category is None or outcome.category in FORM_CATEGORIES, case.name
    for script in corpus.scripts:
        result = formscript_engine.script_outcome(corpus.path(script), script.transcript)
        assert result.verdict in ("accepted", "rejected"), script.name
        assert (
            result.terminal is None
            or result.terminal in ("exhausted", "invalid_regex")
            or (result.terminal.startswith("crash:"))
        ), script.name


# ----------------------------------------------------------------------------- named cases


def _load_named() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    data = yaml.safe_load(CASES_FILE.read_text(encoding="utf-8"))
    return data["forms"], data["scripts"]


NAMED_FORMS, NAMED_SCRIPTS = _load_named()
ENGINES = ["formscript", "lionagi", "runs", "cli"]
#: The engines that read a case's text themselves (the others are given the path).
TEXT_ENGINES = ("formscript", "runs")
#: ``node`` in cases.yaml: what stands at the case's path instead of a file.
NODES = ("directory", "directory-with-file", "dangling-symlink", "symlink-to-directory")


def _is_text(case: dict[str, Any]) -> bool:
    """Whether the case is a regular file of UTF-8 text (what every engine can take)."""
    return "node" not in case and case.get("encoding", "utf-8") == "utf-8"


def _named_params(cases: list[dict[str, Any]]) -> list[Any]:
    """(case, engine) for every engine that can take the case: a path that is not UTF-8 text
    in a regular file goes to lionagi and the command line only."""
    return [
        pytest.param(case, engine, id=f"{case['name']}-{engine}")
        for case in cases
        for engine in ENGINES
        if _is_text(case) or engine not in TEXT_ENGINES
    ]


def _engine(name: str, formscript_engine: FormscriptEngine, request: pytest.FixtureRequest) -> Any:
    if name == "formscript":
        return formscript_engine
    if name == "cli":
        return CliEngine()
    return request.getfixturevalue(f"{name}_engine")


def _counterpart(
    engine_name: str, formscript_engine: FormscriptEngine, request: pytest.FixtureRequest, case: dict[str, Any]
) -> tuple[str, Any]:
    """The engine a named case's outcome is also compared with (None: formscript itself)."""
    if engine_name == "lionagi":
        return ("formscript", formscript_engine) if _is_text(case) else ("cli", CliEngine())
    if engine_name in ("runs", "cli"):
        reference = request.getfixturevalue("reference_engine")
        if reference is formscript_engine and not _is_text(case):
            return "formscript", None  # without lionagi, only the expectations
        return reference.name, reference
    return "formscript", None


def _write(tmp_path: Path, case: dict[str, Any]) -> str:
    """Put the case at its path: the text in its ``encoding`` (UTF-8 by default), or the
    ``node`` it names (a directory holding the text in ``inner.yaml``, a link)."""
    target = tmp_path / case.get("file", "spec.yaml")
    target.parent.mkdir(parents=True, exist_ok=True)
    node = case.get("node")
    assert node is None or node in NODES, f"cases.yaml: unknown node {node!r}"
    if node in ("directory", "directory-with-file"):
        target.mkdir()
        if node == "directory-with-file":
            (target / "inner.yaml").write_text(case["text"], encoding="utf-8")
    elif node == "dangling-symlink":
        target.symlink_to(tmp_path / "missing.yaml")
    elif node == "symlink-to-directory":
        (tmp_path / "folder").mkdir()
        target.symlink_to(tmp_path / "folder")
    else:
        with open(target, "w", encoding=case.get("encoding", "utf-8"), newline="") as handle:
            handle.write(case["text"])
    return str(target)


def _expected_form(case: dict[str, Any], path: str) -> dict[str, Any]:
    expect = dict(case["expect"])
    if "values" in expect:
        expect["values"] = tuple((repr(k), v) for k, v in expect["values"].items())
    if "failing_fields" in expect:
        expect["failing_fields"] = frozenset(expect["failing_fields"])
    if "error_fields" in expect:
        expect["error_fields"] = tuple(expect["error_fields"])
    for key in ("context_block", "title", "prompt"):
        if isinstance(expect.get(key), str):
            expect[key] = expect[key].replace("{path}", path)
    unknown = set(expect) - {f.name for f in dataclasses.fields(FormOutcome)}
    assert not unknown, f"cases.yaml: unknown expectation keys {unknown}"
    return expect


@pytest.mark.parametrize(("case", "engine_name"), _named_params(NAMED_FORMS))
def test_named_form_case(
    case: dict[str, Any],
    engine_name: str,
    tmp_path: Path,
    formscript_engine: FormscriptEngine,
    request: pytest.FixtureRequest,
    tally: Tally,
) -> None:
    engine = _engine(engine_name, formscript_engine, request)
    path = _write(tmp_path, case)
    extra: dict[str, Any] = {}
    if "rules" in case:  # a ruleset file, built and applied as the README's loading does
        extra["rules"] = _write(tmp_path, {"file": "spec.rules.yaml", "text": case["rules"]})
    if "prompt" in case:  # the prompt li agent is given
        extra["prompt"] = _prompt(case)
    outcome = engine.form_outcome(path, **extra)
    expect = _expected_form(case, path)
    got = {key: getattr(outcome, key) for key in expect}
    other_name, other = _counterpart(engine_name, formscript_engine, request, case)
    theirs = outcome if other is None else other.form_outcome(path, **extra)
    if engine_name == "cli":  # read from the command's JSON
        expect, theirs = as_json_reads(expect), as_json_reads(theirs)
    tally.add("named", 1, int(got != expect or theirs != outcome))
    assert got == expect, f"{case['name']} ({case.get('quirk', '')})"
    assert theirs == outcome, f"{other_name} and {engine_name} disagree:\n" + "\n".join(
        _differences(theirs, outcome, (other_name, engine_name))
    )


def _prompt(case: dict[str, Any]) -> str:
    """A case's prompt text: ``prompt``, written ``repeat`` times (default once), then ``tail``."""
    return str(case["prompt"]) * int(case.get("repeat", 1)) + str(case.get("tail", ""))


def _payload(item: Any) -> dict[str, Any] | str:
    """Shorthand in cases.yaml: a string is the last user message; a mapping is the payload,
    or a chat item (a call through ``branch.chat``) when it has ``chat``."""
    if item == RESET:
        return RESET
    if is_chat(item):
        return dict(item)
    if isinstance(item, str):
        return {"messages": [{"role": "user", "content": item}]}
    return dict(item)


def _served_view(outcome: ScriptOutcome, expect: dict[str, Any]) -> dict[str, Any]:
    got: dict[str, Any] = {}
    for key in expect:
        if key == "served":
            got[key] = [[s.entry, s.matched_by] for s in outcome.served]
        elif key == "call_indexes":
            got[key] = [s.call_index for s in outcome.served]
        elif key == "stream_served":
            got[key] = [[s.entry, s.matched_by] for s in outcome.stream_served]
        elif key == "texts":
            got[key] = [s.summary for s in outcome.served]
        else:
            got[key] = getattr(outcome, key)
    return got


@pytest.mark.parametrize(("case", "engine_name"), _named_params(NAMED_SCRIPTS))
def test_named_script_case(
    case: dict[str, Any],
    engine_name: str,
    tmp_path: Path,
    formscript_engine: FormscriptEngine,
    request: pytest.FixtureRequest,
    tally: Tally,
) -> None:
    engine = _engine(engine_name, formscript_engine, request)
    path = _write(tmp_path, {"file": "script.yaml", **case})
    transcript = tuple(_payload(item) for item in case.get("calls", []))
    outcome = engine.script_outcome(path, transcript)
    expect = case["expect"]
    got = _served_view(outcome, expect)
    other_name, other = _counterpart(engine_name, formscript_engine, request, case)
    theirs = outcome if other is None else other.script_outcome(path, transcript)
    if engine_name in ("runs", "cli") and RESET in transcript:
        # A simulation has no reset item: only the calls before it are compared.
        theirs = up_to_reset(theirs, transcript)
        got = expect = {}
    if engine_name == "cli":  # read from the command's JSON
        expect, theirs = as_json_reads(expect), as_json_reads(theirs)
    tally.add("named", 1, int(got != expect or theirs != outcome))
    assert got == expect, f"{case['name']} ({case.get('quirk', '')})"
    assert theirs == outcome, f"{other_name} and {engine_name} disagree:\n" + "\n".join(
        _differences(theirs, outcome, (other_name, engine_name))
    )
