"""The lint path (libyaml positions, located documents) reaches the same verdict as the core
fed by the runtime's own loaders, on the whole conformance corpus. With the conformance suite
proving the core equals lionagi, lint verdicts equal lionagi's too; the dry run's context
block and the simulation's served sequence are checked the same way."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest
import yaml

from conformance.corpus import generate_form_cases, generate_script_cases
from formscript.core.gate import SpecLoadError, check_form_spec, load_spec_text
from formscript.core.script import Replayer, ScriptExhausted, check_script, load_script_text
from formscript.lint.engine import lint_text
from formscript.runs import dry_run_text, simulate_text

pytestmark = pytest.mark.slow  # thousands of generated cases through both paths


@cache
def _forms() -> list[Any]:
    return generate_form_cases()


@cache
def _scripts() -> list[Any]:
    return generate_script_cases()


def _core_form(text: str, path: str) -> tuple[str, str | None]:
    try:
        spec = load_spec_text(text)
    except (SpecLoadError, RecursionError):
        return "rejected", None
    result = check_form_spec(spec, path)
    return result.verdict.value, (result.prompt_prefix if result.context_block is not None else None)


def _core_script(text: str, path: str) -> str:
    try:
        data = load_script_text(text, path)
    except (yaml.YAMLError, ValueError, RecursionError):
        return "rejected"
    return check_script(data).verdict.value


def test_form_verdicts_and_context_blocks_agree() -> None:
    disagreements = []
    for case in _forms():
        verdict, block = _core_form(case.text, case.filename)
        report = lint_text(case.text, case.filename, kind="form")
        dry = dry_run_text(case.text, case.filename)
        if report.verdict is None or report.verdict.value != verdict or dry["context_block"] != block:
            disagreements.append(case.name)
    assert disagreements == [], f"{len(disagreements)} of {len(_forms())}: {disagreements[:10]}"


def _core_sequence(text: str, path: str, transcript: Any) -> list[tuple[Any, ...]]:
    data = load_script_text(text, path)
    result = check_script(data)
    entries = [e for e in result.entries if e is not None]
    replayer = Replayer(entries, result.mode)
    served: list[tuple[Any, ...]] = []
    for count, item in enumerate(transcript):
        payload = item if isinstance(item, dict) else {"messages": [{"role": "user", "content": item}]}
        try:
            match = replayer.next(payload, count)
        except ScriptExhausted:
            served.append(("exhausted",))
            break
        except Exception:
            served.append(("raised",))
            break
        served.append((match.entry, match.kind))
    return served


@pytest.mark.parametrize("chunk", range(4))
def test_script_verdicts_and_served_sequences_agree(chunk: int) -> None:
    disagreements = []
    for case in _scripts()[chunk::4]:
        verdict = _core_script(case.text, case.filename)
        report = lint_text(case.text, case.filename, kind="script")
        if report.verdict is None or report.verdict.value != verdict:
            disagreements.append((case.name, "verdict"))
            continue
        if verdict != "accepted":
            continue
        calls = json.dumps([{"payload": p} if isinstance(p, dict) else p for p in case.transcript])
        simulated = simulate_text(case.text, case.filename, calls, "calls.json", regex_timeout=5)
        got: list[tuple[Any, ...]] = []
        for call in simulated["calls"]:
            if call["outcome"] in ("served", "serve_error"):
                got.append((call["entry"], call["matched_by"]["kind"]))
            else:
                got.append(("exhausted",) if call["outcome"] == "exhausted" else ("raised",))
            if call["outcome"] == "serve_error":
                break
        expected = _core_sequence(case.text, case.filename, case.transcript)
        stopped_early = bool(simulated["calls"]) and simulated["calls"][-1]["outcome"] == "serve_error"
        if got != expected[: len(got)] or (len(got) != len(expected) and not stopped_early):
            disagreements.append((case.name, "sequence"))
    assert disagreements == [], f"{len(disagreements)}: {disagreements[:10]}"
