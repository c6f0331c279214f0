"""Negative tests: formscript predicts which generated tests fail, pytest with lionagi says which do.

The modules of ``negative_tests.py`` — tests that expect lionagi to refuse a document (or to
accept it), through every expectation form formscript reads, with right and wrong exception
classes — are written to a directory and run once by pytest in a subprocess, with lionagi
0.36.0 installed (the oracle). A test *fails* when pytest reports it failed or errored (a
strict xfail that passes is a failure; xfailed and non-strict xpassed are not).

formscript's prediction for a test: ``formscript lint --format json`` reports at least one
diagnostic of severity ``error`` whose range starts within the test function's lines
(decorators included), or one on a document whose call starts there (``call_range``: a
document written in a module constant has its findings at the constant). Prediction and
outcome must agree for every test; the disagreements
are listed by shape (API / expectation / document / exception class) with an example each.

``FORMSCRIPT_NEGATIVE_SERVER`` points the lint at another checkout's ``server`` directory
(default: this one's); ``FORMSCRIPT_NEGATIVE_REPORT`` names a file the summary is written to
as JSON; ``FORMSCRIPT_NEGATIVE_REPEAT`` runs more cases (each repeat draws new positions,
bindings and documents).
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from . import negative_tests as nt
from .conftest import Tally
from .engines import lionagi_missing_reason

SEED = int(os.environ.get("FORMSCRIPT_NEGATIVE_SEED", str(nt.DEFAULT_SEED)))
REPEAT = int(os.environ.get("FORMSCRIPT_NEGATIVE_REPEAT", "1"))
SERVER = Path(os.environ.get("FORMSCRIPT_NEGATIVE_SERVER", str(Path(__file__).resolve().parents[2] / "server")))

#: Records every test's reports (the oracle's side), written into the generated directory.
RECORDER = """
import json, os

_SEEN = {}


def pytest_collectreport(report):
    if report.failed:
        _SEEN[report.nodeid] = {"failed": True, "collect_error": True, "phases": ["collect:failed"]}


def pytest_runtest_logreport(report):
    entry = _SEEN.setdefault(report.nodeid, {"failed": False, "phases": []})
    entry["failed"] = entry["failed"] or report.failed
    xfail = "+xfail" if hasattr(report, "wasxfail") else ""
    entry["phases"].append(f"{report.when}:{report.outcome}{xfail}")
    if report.failed and report.longrepr is not None:
        entry.setdefault("why", str(getattr(report.longrepr, "reprcrash", None) or "")[-300:])


def pytest_sessionfinish(session):
    with open(os.environ["NEGATIVE_OUTCOMES"], "w", encoding="utf-8") as out:
        json.dump(_SEEN, out)
"""


@dataclass(frozen=True)
class Verdict:
    """One test: lionagi's outcome, formscript's prediction, and why."""

    module: str
    case: nt.NegCase
    fails: bool
    phases: tuple[str, ...]
    why: str
    predicted: bool
    errors: tuple[str, ...]

    @property
    def agrees(self) -> bool:
        return self.fails == self.predicted


def run_pytest(root: Path) -> dict[str, dict[str, Any]]:
    """Every test's reports, by node id, from one pytest run over *root*."""
    (root / "conftest.py").write_text(RECORDER, encoding="utf-8")
    (root / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    out = root / "outcomes.json"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "FORMSCRIPT_"))}
    env["NEGATIVE_OUTCOMES"] = str(out)
    env.pop("PYTHONPATH", None)
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-c", str(root / "pytest.ini")]
    command += ["--rootdir", str(root), "-W", "ignore::DeprecationWarning", str(root)]
    done = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, timeout=600)
    assert out.exists(), (
        f"pytest did not finish (exit {done.returncode}):\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    )
    outcomes: dict[str, dict[str, Any]] = json.loads(out.read_text(encoding="utf-8"))
    return outcomes


def run_lint(paths: list[Path], attempts: int = 4) -> dict[str, Any]:
    """``formscript lint --format json`` over *paths* with the code under :data:`SERVER`
    (retried: that tree may be mid-change)."""
    env = dict(os.environ, PYTHONPATH=str(SERVER))
    command = [sys.executable, "-m", "formscript", "lint", "--no-cache", "--format", "json", *map(str, paths)]
    problem = ""
    for attempt in range(attempts):
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
        if done.returncode in (0, 1):
            try:
                data: dict[str, Any] = json.loads(done.stdout)
                return data
            except json.JSONDecodeError as exc:
                problem = f"not JSON: {exc}"
        else:
            problem = f"exit {done.returncode}: {done.stderr[-1500:]}"
        time.sleep(2 * (attempt + 1))
    raise AssertionError(f"formscript lint failed {attempts} times; last: {problem}")


def error_lines(lint: dict[str, Any]) -> dict[str, list[tuple[tuple[int, ...], str]]]:
    """Error diagnostics by path: the 1-based lines they speak for (where they start, and
    where the call reading their document starts: a literal bound to a module constant has
    its findings at the constant), and "CODE message"."""
    found: dict[str, list[tuple[tuple[int, ...], str]]] = defaultdict(list)
    for entry in lint.get("files", []):
        call = ((entry.get("embedded") or {}).get("call_range") or {}).get("start", {}).get("line")
        for diagnostic in entry.get("diagnostics", []):
            if diagnostic.get("severity") != "error":
                continue
            line = (diagnostic.get("range") or {}).get("start", {}).get("line")
            lines = tuple(n for n in (line, call) if isinstance(n, int)) or (0,)
            text = f"{diagnostic.get('code')} {diagnostic.get('message', '')}"
            found[str(Path(entry["path"]).resolve())].append((lines, text))
    return found


def judge(modules: list[nt.NegModule], root: Path) -> tuple[list[Verdict], list[str]]:
    """Every generated test's verdict, and the errors that lie in no test (reported, not judged)."""
    paths = []
    for module in modules:
        path = root / f"{module.name}.py"
        path.write_text(module.source, encoding="utf-8")
        paths.append(path)
    outcomes = run_pytest(root)
    broken = [node for node, entry in outcomes.items() if entry.get("collect_error")]
    assert not broken, f"generated modules that do not import: {broken}"
    errors = error_lines(run_lint(paths))
    verdicts: list[Verdict] = []
    stray: list[str] = []
    for module, path in zip(modules, paths, strict=True):
        mine = errors.get(str(path.resolve()), [])
        used: set[int] = set()
        for case in module.cases:
            node = f"{module.name}.py::{case.qualname}"
            assert node in outcomes, f"pytest did not run {node}"
            first, last = module.spans[case.qualname]
            inside = [(i, text) for i, (lines, text) in enumerate(mine) if any(first <= n <= last for n in lines)]
            used.update(i for i, _ in inside)
            entry = outcomes[node]
            verdicts.append(
                Verdict(
                    module=module.name,
                    case=case,
                    fails=bool(entry["failed"]),
                    phases=tuple(entry["phases"]),
                    why=str(entry.get("why", "")),
                    predicted=bool(inside),
                    errors=tuple(text for _, text in inside),
                )
            )
        stray += [f"{module.name}.py:{lines[0]}: {text}" for i, (lines, text) in enumerate(mine) if i not in used]
    return verdicts, stray


def summarize(verdicts: list[Verdict], stray: list[str]) -> dict[str, Any]:
    """Counts by shape, and each disagreeing shape with one example."""
    wrong = [v for v in verdicts if not v.agrees]
    by: dict[str, Counter[str]] = {key: Counter() for key in ("api", "expectation", "document", "position", "binding")}
    for v in wrong:
        for key in by:
            by[key][getattr(v.case, key)] += 1
    shapes: dict[str, dict[str, Any]] = {}
    for v in wrong:
        direction = "formscript predicts a failure, the test passes" if v.predicted else "the test fails, no error"
        where = "call last in its block" if v.case.position == "last" else f"call {v.case.position}"
        key = f"{v.case.expectation} / {v.case.document} / {where} / {direction}"
        shape = shapes.setdefault(key, {"count": 0, "apis": Counter(), "catches": Counter(), "example": None})
        shape["count"] += 1
        shape["apis"][v.case.api] += 1
        shape["catches"][v.case.catch or "-"] += 1
        if shape["example"] is None or len("\n".join(v.case.lines)) < len(shape["example"]["source"]):
            shape["example"] = {
                "test": f"{v.module}.py::{v.case.qualname}",
                "source": "\n".join((*v.case.prelude, *v.case.lines)),
                "pytest": " ".join(v.phases) + (f" ({v.why})" if v.why else ""),
                "formscript": list(v.errors),
            }
    return {
        "seed": SEED,
        "cases": len(verdicts),
        "failing": sum(v.fails for v in verdicts),
        "predicted": sum(v.predicted for v in verdicts),
        "disagreements": len(wrong),
        "by": {key: dict(counter.most_common()) for key, counter in by.items()},
        "shapes": {
            key: {**value, "apis": dict(value["apis"]), "catches": dict(value["catches"])}
            for key, value in sorted(shapes.items(), key=lambda item: -item[1]["count"])
        },
        "stray_errors": stray,
    }


def _render(summary: dict[str, Any], limit: int = 12) -> str:
    lines = [
        f"{summary['disagreements']} of {summary['cases']} generated tests disagree "
        f"(pytest: {summary['failing']} fail; formscript predicts {summary['predicted']}).",
        "by expectation: " + ", ".join(f"{k} {n}" for k, n in summary["by"]["expectation"].items()),
        "by API: " + ", ".join(f"{k} {n}" for k, n in summary["by"]["api"].items()),
    ]
    for key, shape in list(summary["shapes"].items())[:limit]:
        example = shape["example"]
        lines += [
            "",
            f"[{shape['count']}] {key}  (APIs: {', '.join(shape['apis'])})",
            f"  e.g. {example['test']}: pytest {example['pytest']}",
            *("  formscript: " + text for text in example["formscript"][:2]),
            *("    | " + line for line in example["source"].splitlines()),
        ]
    if len(summary["shapes"]) > limit:
        lines.append(f"... and {len(summary['shapes']) - limit} more shapes")
    return "\n".join(lines)


# ----------------------------------------------------------------------------- the tests


def test_negative_tests_agree_with_pytest(tmp_path: Path, tally: Tally) -> None:
    """formscript predicts exactly the generated tests that fail under lionagi 0.36.0."""
    reason = lionagi_missing_reason()
    if reason is not None:
        tally.skipped_reason = reason
        pytest.skip(reason)
    modules = nt.generate(SEED, REPEAT)
    verdicts, stray = judge(modules, tmp_path)
    summary = summarize(verdicts, stray)
    report = os.environ.get("FORMSCRIPT_NEGATIVE_REPORT")
    if report:
        Path(report).write_text(json.dumps(summary, indent=2, default=str), encoding="utf-8")
    tally.add("negative_tests", len(verdicts), summary["disagreements"])
    print("\n" + _render(summary, limit=len(summary["shapes"])))
    # The oracle is not one-sided: every expectation form has tests that fail and tests that pass.
    for expectation in nt.EXPECTATIONS:
        outcomes = {v.fails for v in verdicts if v.case.expectation == expectation}
        assert outcomes == {True, False}, (
            f"{expectation}: every generated test {'fails' if True in outcomes else 'passes'}"
        )
    # formscript never says a test fails that passes, nor misses one that fails
    wrong = [v for v in verdicts if v.predicted and not v.fails]
    assert not wrong, "formscript reports an error in tests that pass:\n" + _render(summary)
    missed = [v for v in verdicts if v.fails and not v.predicted]
    assert not missed, f"{len(missed)} failing tests without an error\n" + _render(summary)


def test_generator_is_seeded_and_covers_every_shape() -> None:
    """Without lionagi: the same seed gives the same modules, another seed others; every API
    meets every expectation it takes with each document kind; the catches, positions and
    bindings all occur; every module parses and every test has its span."""
    import ast

    modules = nt.generate(SEED)
    assert [m.source for m in nt.generate(SEED)] == [m.source for m in modules]
    assert [m.source for m in nt.generate(SEED + 1)] != [m.source for m in modules]
    cases = [case for module in modules for case in module.cases]
    combos = {(c.api, c.expectation, c.document) for c in cases}
    for api in nt.APIS:
        for expectation in nt._expectations(api):
            for document in nt._documents(api):
                assert (api.name, expectation, document) in combos
    assert {c.catch for c in cases} >= set(nt.CATCHES)
    assert {c.position for c in cases} == set(nt.POSITIONS)
    assert {c.binding for c in cases} == {"inline", "local", "module"}
    for module in modules:
        ast.parse(module.source)
        assert set(module.spans) == {c.qualname for c in module.cases}
        spans = sorted(module.spans.values())
        assert all(a[1] < b[0] for a, b in itertools.pairwise(spans)), module.name
    assert len({c.name for c in cases}) == len(cases)
