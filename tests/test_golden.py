"""Golden fixtures: each ``err/<case>`` has its expected concise output in ``<case>.out``;
every ``ok/`` file must produce nothing. Run pytest with ``--update-goldens`` after an
intended change and review the diff."""

from __future__ import annotations

from pathlib import Path

import pytest

from formscript.lint.engine import lint_text
from formscript.lint.formats import render_concise

FIXTURES = Path(__file__).parent / "fixtures"
ERR = sorted(p for p in FIXTURES.glob("*/err/*") if p.suffix != ".out")
OK = sorted(FIXTURES.glob("*/ok/*"))


def _render(path: Path) -> str:
    rel = path.relative_to(FIXTURES).as_posix()
    report = lint_text(path.read_text(encoding="utf-8"), rel)
    verdict = report.verdict.value if report.verdict else "skipped"
    return f"verdict: {verdict}\n" + render_concise([report])


@pytest.mark.parametrize("path", ERR, ids=lambda p: p.relative_to(FIXTURES).as_posix())
def test_err_fixture_matches_golden(path: Path, request: pytest.FixtureRequest) -> None:
    golden = path.with_name(path.name + ".out")
    actual = _render(path)
    if request.config.getoption("--update-goldens"):
        golden.write_text(actual, encoding="utf-8")
    assert golden.exists(), f"missing golden {golden.name}; run pytest --update-goldens"
    assert actual == golden.read_text(encoding="utf-8")
    assert "error[" in actual or "warning[" in actual


@pytest.mark.parametrize("path", OK, ids=lambda p: p.relative_to(FIXTURES).as_posix())
def test_ok_fixture_is_silent(path: Path) -> None:
    rel = path.relative_to(FIXTURES).as_posix()
    report = lint_text(path.read_text(encoding="utf-8"), rel)
    assert report.diagnostics == []
    assert report.verdict is not None and report.verdict.value == "accepted"
