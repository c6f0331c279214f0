"""pytest plugin benchmark (issue 13): the same test session with and without ``--formscript``,
whole processes, alternating, medians of the rounds; only the ratio is reported.

    python bench/pytest_plugin.py               # 40 test files, 5 rounds
    python bench/pytest_plugin.py --files 100 --rounds 7

Every command runs from bytecode, as installed code does (a warm-up round writes it to a private
``PYTHONPYCACHEPREFIX``). Each generated test file loads a YAML fixture and a Python literal through lionagi's
TestBranch and makes three calls on each, and fills and validates a form with a rule set three
times, so the plugin lints every source once, observes every call and checks each against its
prediction (drift); the peer is pytest running the same files with the plugin inactive.
Target (issue 34): at most 1.3x.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

FIXTURE = """\
responses:
  - {type: text, content: hello, when: {prompt_contains: hello}}
  - {type: text, content: order, when: {prompt_contains: order}}
  - {type: text, content: fallback}
  - {type: text, content: never, when: {prompt_contains: refund}}
"""

TEST = """\
import asyncio
from pathlib import Path

from lionagi.testing import TestBranch
from lionagi.work import FieldSpec, Rule, RuleSet, WorkForm, fill_form, validate_form


def chat(branch, *prompts):
    async def run():
        return [await branch.chat(p) for p in prompts]

    return asyncio.run(run())


def test_fixture_{n}():
    branch = TestBranch.from_yaml(Path(__file__).parent / "fixtures" / "f{n}.script.yaml")
    assert chat(branch, "hello", "order", "x") == ["hello", "order", "fallback"]


def test_literal_{n}():
    branch = TestBranch.from_responses([
        {{"type": "text", "content": "one"}},
        {{"type": "text", "content": "two"}},
        {{"type": "text", "content": "three", "when": {{"prompt_contains": "rain"}}}},
    ])
    assert chat(branch, "a", "b", "rain") == ["one", "two", "three"]


def test_forms_{n}():
    form = WorkForm(
        title="Order {n}",
        fields={{
            "qty": FieldSpec(name="qty", type="int"),
            "email": FieldSpec(name="email"),
            "note": FieldSpec(name="note", required=False),
        }},
    )
    rules = RuleSet().add(Rule(rule_id="positive", field="qty", check="range", params={{"min": 1}}))
    rules.add(Rule(rule_id="email", field="email", check="pattern", params={{"regex": "^[^@]+@[^@]+$"}}))
    assert fill_form(form, {{"qty": "3", "email": "a@b.c"}}, ruleset=rules).status == "validated"
    assert fill_form(form, {{"qty": "0", "email": "nope"}}, ruleset=rules).status == "error"
    assert validate_form(form.model_copy(update={{"values": {{"qty": 2}}}})).status == "error"
"""


def build(root: Path, files: int) -> None:
    """The generated project under *root*."""
    (root / "fixtures").mkdir()
    for n in range(files):
        (root / "fixtures" / f"f{n}.script.yaml").write_text(FIXTURE, encoding="utf-8")
        (root / f"test_gen_{n}.py").write_text(TEST.format(n=n), encoding="utf-8")
    (root / "pytest.ini").write_text("[pytest]\naddopts = -p no:cacheprovider -q\n", encoding="utf-8")


def timed(args: list[str], cwd: Path, env: dict[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{args} failed:\n{done.stdout}\n{done.stderr}")
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=5)
    options = parser.parse_args()
    env = {**os.environ, "PYTHONPATH": str(ROOT / "server")}
    plugin = ["-p", "formscript.pytest_plugin"]
    try:
        from importlib import metadata

        if any(ep.name == "formscript" for ep in metadata.entry_points(group="pytest11")):
            plugin = []
    except Exception:  # pragma: no cover - the metadata is optional here
        pass
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder) / "project"
        root.mkdir()
        build(root, options.files)
        # As installed code runs: from bytecode (pip writes it at install time), which a warm-up
        # round writes to a private cache for both sessions (formscript's sources and the tests').
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(Path(folder) / "bytecode")
        base = [sys.executable, "-m", "pytest", *plugin]
        timed(base, root, env)
        timed([*base, "--formscript", "--formscript-report=r.json"], root, env)
        without: list[float] = []
        with_plugin: list[float] = []
        for _ in range(options.rounds):
            without.append(timed(base, root, env))
            with_plugin.append(timed([*base, "--formscript", "--formscript-report=r.json"], root, env))
    a, b = statistics.median(without), statistics.median(with_plugin)
    print(
        f"{options.files * 3} tests, {options.files * 2} sources, {options.files * 6} calls, "
        f"{options.files * 3} form calls, {options.rounds} rounds"
    )
    print(f"pytest --formscript / pytest: {b / a:.2f}x (median of the rounds)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
