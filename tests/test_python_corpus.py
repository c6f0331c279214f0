"""A hand-written Python test suite in the style of lionagi's own (``tests/fixtures/python/suite``):
pytest classes and async tests, payload helpers, literals at the call and through names,
helper-built entries, aliases of the imports, the plugin's fixtures, YAML and JSON written to
``tmp_path``, forms and rules. ``suite.json`` is the golden report (``formscript lint
--format json suite`` from ``tests/fixtures/python``; ``pytest --update-goldens`` rewrites it
for review). Each document's verdict in it was checked against lionagi 0.36.0 by running the
call; the generated modules of ``tests/conformance/test_python_literals.py`` prove the same
shapes against lionagi on every run.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from formscript.cli import main

ROOT = Path(__file__).parent / "fixtures" / "python"
GOLDEN = ROOT / "suite.json"


def _report(capsys: pytest.CaptureFixture[str]) -> str:
    before = Path.cwd()
    os.chdir(ROOT)
    try:
        code = main(["lint", "--no-cache", "--format", "json", "suite"])
    finally:
        os.chdir(before)
    assert code == 1
    return capsys.readouterr().out


def test_the_suite_matches_its_golden_report(
    capsys: pytest.CaptureFixture[str], request: pytest.FixtureRequest
) -> None:
    actual = _report(capsys)
    if request.config.getoption("--update-goldens"):
        GOLDEN.write_text(actual, encoding="utf-8")
    assert actual == GOLDEN.read_text(encoding="utf-8")


def test_every_literal_call_of_the_suite_is_a_document() -> None:
    report = json.loads(GOLDEN.read_text(encoding="utf-8"))
    paths = {f["path"] for f in report["files"]}
    # files that build nothing report nothing
    assert "suite/test_plain.py" not in paths and "suite/conftest.py" not in paths
    calls = [(f["path"], f["embedded"]["call"]) for f in report["files"]]
    assert calls.count(("suite/work/test_rules.py", "Rule")) == 10
    assert calls.count(("suite/work/test_form.py", "FieldSpec")) == 8
    assert {f["verdict"] for f in report["files"]} == {"accepted", "rejected", "insufficient_evidence"}
    for entry in report["files"]:
        start, end = entry["embedded"]["range"]["start"], entry["embedded"]["range"]["end"]
        assert (start["line"], start["column"]) < (end["line"], end["column"])
        for diagnostic in entry["diagnostics"]:
            assert diagnostic["range"]["start"]["line"] >= 1


def test_self_contained_calls_get_lionagis_verdict() -> None:
    """Each document whose call can be evaluated on its own (its names are the module's) is
    evaluated with lionagi 0.36.0: formscript's verdict must be what lionagi does."""
    from conformance.engines import lionagi_missing_reason

    reason = lionagi_missing_reason()
    if reason is not None:
        pytest.skip(reason)
    from formscript.document.pyliteral import SourceLines
    from formscript.lint.python_lint import lint_python

    checked = 0
    for path in sorted((ROOT / "suite").rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        namespace: dict[str, object] = {"__name__": "suite_module"}
        exec(compile(source, str(path), "exec"), namespace)
        lines = SourceLines(source)
        for part in lint_python(source, str(path)).parts or []:
            embedded = part.embedded
            if embedded is None or embedded.call_span is None or part.verdict is None:
                continue
            if part.verdict.value == "insufficient_evidence" or embedded.call.endswith("write"):
                continue
            expression = lines.source(embedded.call_span)
            try:
                result = eval(f"(\n{expression}\n)", dict(namespace))  # the oracle side: lionagi runs it
            except NameError:
                continue  # a local of the test: not self-contained
            except Exception:
                verdict = "rejected"
            else:
                verdict = "rejected" if getattr(result, "status", None) == "error" else "accepted"
            checked += 1
            assert verdict == part.verdict.value, f"{path.name}:{embedded.call_span.start.line + 1} {expression}"
    assert checked >= 25


def test_lionagi_agrees_with_every_document_of_the_suite() -> None:
    """The oracle runs each call of the suite with lionagi 0.36.0 (names read from their one
    assignment, the plugin's fixtures as the plugin builds them): every document's verdict is
    lionagi's, a call it cannot evaluate is insufficient_evidence, and no call of the API
    that lionagi decides is left unreported."""
    from conformance.python_tree import check_tree

    files, documents, agreeing, disagreements, misses = check_tree(ROOT / "suite")
    assert (disagreements, misses) == ([], [])
    assert documents == agreeing and documents >= 70 and files >= 8
