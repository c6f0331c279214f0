"""Every rule case reports exactly the diagnostics it expects (code, severity, range, in
order) and, when it names one, the verdict. Messages are not compared, but none is empty."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from .cases import Case, case_paths, diagnostic_lines, load, report, verdict_of

#: Cases written as the output should be, where today's output is wrong: CODE/file -> the bug.
#: strict xfail, so fixing the bug fails the test until its entry is removed here.
KNOWN_BUGS: dict[str, str] = {}


def _param(path: Path) -> object:
    case_id = f"{path.parent.name}/{path.name}"
    marks = []
    if case_id in KNOWN_BUGS:
        marks.append(pytest.mark.xfail(reason=KNOWN_BUGS[case_id], strict=True, raises=AssertionError))
    return pytest.param(path, id=case_id, marks=marks)


def _diff(expected: list[str], actual: list[str], case: Case) -> str:
    lines = difflib.unified_diff(expected, actual, "expected", "actual", lineterm="", n=len(expected) + len(actual))
    return f"{case.id} ({case.summary}), linted as {case.name}:\n" + "\n".join(lines)


@pytest.mark.parametrize("path", [_param(p) for p in case_paths()])
def test_case(path: Path) -> None:
    case = load(path)
    linted = report(path)
    actual = diagnostic_lines(linted)
    if case.verdict is not None:
        actual.append(f"verdict: {verdict_of(linted)}")
    expected = [*case.expect, *([f"verdict: {case.verdict}"] if case.verdict is not None else [])]
    assert actual == expected, _diff(expected, actual, case)
    assert all(d.message.strip() for d in linted.diagnostics), "every diagnostic has a message"


def test_known_bugs_name_existing_cases() -> None:
    ids = {f"{p.parent.name}/{p.name}" for p in case_paths()}
    assert sorted(set(KNOWN_BUGS) - ids) == []
