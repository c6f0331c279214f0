"""Dry runs and simulations: golden text output, JSON contracts and the replay outcomes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from formscript.cli import run
from formscript.runs import dry_run_text

ROOT = Path(__file__).resolve().parents[1]
RUNS = ROOT / "tests" / "fixtures" / "runs"

GOLDEN = {
    "dry_run_review": ["dry-run", "examples/forms/review.form.yaml", "examples/forms/budget.form.json"],
    "dry_run_rejected": ["dry-run", "examples/forms/onboarding.form.yaml"],
    "dry_run_rules": ["dry-run", "examples/forms/review.form.yaml", "--rules", "examples/rulesets/review.rules.yaml"],
    "dry_run_prompt": ["dry-run", "examples/forms/review.form.yaml", "--prompt", "Review the pull request."],
    "simulate_weather": [
        "simulate",
        "examples/scripts/weather.script.yaml",
        "--calls",
        "examples/scripts/weather.calls.yaml",
    ],
    "simulate_reachability": ["simulate", "examples/scripts/legacy.script.json"],
    "simulate_replay": [
        "simulate",
        "tests/fixtures/runs/replay.script.yaml",
        "--calls",
        "tests/fixtures/runs/replay.calls.yaml",
    ],
    "simulate_branch": [
        "simulate",
        "tests/fixtures/runs/branch.script.yaml",
        "--calls",
        "tests/fixtures/runs/branch.calls.yaml",
    ],
    "simulate_invalid_regex": [
        "simulate",
        "tests/fixtures/runs/badregex.script.yaml",
        "--calls",
        "tests/fixtures/runs/regex.calls.yaml",
    ],
}


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_text_output_matches_golden(
    name: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> None:
    monkeypatch.chdir(ROOT)
    run(GOLDEN[name])
    out = capsys.readouterr().out
    golden = RUNS / f"{name}.txt"
    if request.config.getoption("--update-goldens"):
        golden.write_text(out, encoding="utf-8")
    assert out == golden.read_text(encoding="utf-8")


def _json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict]:  # type: ignore[type-arg]
    code = run([*args, "--format", "json"])
    return code, json.loads(capsys.readouterr().out)


def test_dry_run_context_block_is_the_prompt_prefix(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = _json(capsys, "dry-run", str(ROOT / "examples/forms/budget.form.json"))
    (result,) = data["results"]
    assert code == 0 and data["version"] == 1
    assert result["verdict"] == "accepted" and result["status"] == "validated"
    assert result["context_block"] == (
        "[Work Form: Quarterly budget]\n  quarter: 'Q3'\n  amount: 12500.0\n  approved: True\n\n"
    )
    assert result["values"]["amount"]["given"] == 12500 and result["values"]["amount"]["value"] == 12500.0


def test_dry_run_of_a_rejected_form_sends_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = _json(capsys, "dry-run", str(ROOT / "examples/forms/onboarding.form.yaml"))
    (result,) = data["results"]
    assert code == 1 and result["verdict"] == "rejected" and result["context_block"] is None
    assert {e["code"] for e in result["errors"]} >= {"FS005", "FS008", "FS011"}


def test_simulation_replay_outcomes(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = _json(capsys, "simulate", str(RUNS / "replay.script.yaml"), "--calls", str(RUNS / "replay.calls.yaml"))
    calls = data["calls"]
    kinds = [(c["outcome"], c["entry"], c["matched_by"]["kind"] if c["matched_by"] else None) for c in calls]
    assert kinds == [
        ("served", 0, "positional"),
        ("served", 1, "has_tool"),
        ("served", 2, "call_index"),
        ("served", 3, "prompt_contains"),
        ("served", 4, "after_calls"),
        ("served", 5, "positional"),
        ("exhausted", None, None),
    ]
    raised = calls[2]["raises"]
    assert (raised["exception"], raised["status_code"], raised["message"]) == ("APIClientError", 429, "slow down")
    assert data["unreached"] == []
    assert code == 1  # the replay ended in exhaustion


def test_simulation_reports_a_catastrophic_regex_instead_of_hanging(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = _json(
        capsys,
        "simulate",
        str(RUNS / "regex.script.yaml"),
        "--calls",
        str(RUNS / "regex.calls.yaml"),
        "--regex-timeout",
        "0.5",
    )
    (call,) = data["calls"]
    assert call["outcome"] == "regex_timeout" and code == 1
    facts = call["timeout"]
    assert (facts["pattern"], facts["bound_seconds"]) == ("(a+)+$", 0.5)
    assert facts["explosive"] in (True, None)  # None: the growth could not be measured here
    assert "ran longer than the 0.5s bound" in call["error"]


def test_a_quadratic_regex_gets_an_estimate_of_the_runtimes_time() -> None:
    """Quadratic, not catastrophic: the runtime answers after a while, and the overrun says
    that it is expected to answer (the estimate's accuracy is measured by
    bench/regex_estimate.py, not here: a unit test asserts no timing)."""
    from formscript.core.regex_guard import BoundedSearch, RegexTimeout

    with pytest.raises(RegexTimeout) as caught, BoundedSearch(0.3) as search:
        search("a*b", "a" * 60_000)  # each start scans to the end: about n**2 / 2 steps
    found = caught.value.estimate
    facts = caught.value.as_json()
    assert facts["bound_seconds"] == 0.3
    if found is not None:  # None only when the machine was too busy to time the probes
        assert found.seconds >= 0.3 and not found.explosive
        assert "the runtime is expected to answer after about" in str(caught.value)
        assert facts["estimated_seconds"] == float(f"{found.seconds:.2g}")


def test_the_fit_extrapolates_the_growth_of_the_probes() -> None:
    """Probe timings growing as n**2 give growth 2 and the time of the full text; noise-level
    probes are left out; too little growth, or none, gives no estimate."""
    import math

    from formscript.core.regex_guard import fit

    quadratic = [(n, (n / 1000) ** 2 * 0.01) for n in (250, 500, 1000, 2000, 4000)]
    found = fit(quadratic, 40_000)
    assert found is not None and math.isclose(found.growth, 2.0, rel_tol=1e-9)
    assert math.isclose(found.seconds, 0.16 * 100, rel_tol=1e-9) and not found.explosive
    assert fit(quadratic, 40_000, at_least=99.0).seconds == 99.0  # type: ignore[union-attr]
    exponential = [(n, 1e-6 * 2.0**n) for n in range(16, 25)]
    steep = fit(exponential, 64)
    assert steep is not None and steep.explosive
    flat = [(n, 0.05) for n in (1000, 2000, 4000)]
    assert fit(flat, 40_000) is None
    assert fit([(n, 1e-9) for n in (1000, 2000)], 40_000) is None  # below the noise floor
    assert fit([], 10) is None


def test_what_a_timeout_says_without_an_estimate() -> None:
    import math

    from formscript.core.regex_guard import Estimate, RegexTimeout, shrunk

    bare = RegexTimeout("(x+)+y", 2.0)
    assert "the runtime takes at least that long" in str(bare)
    assert bare.as_json()["estimated_seconds"] is None
    endless = RegexTimeout("(x+)+y", 2.0, Estimate(math.inf, 40.0))
    assert endless.as_json() == {
        "pattern": "(x+)+y",
        "bound_seconds": 2.0,
        "estimated_seconds": None,
        "growth_exponent": 40.0,
        "explosive": True,
    }
    assert "not expected to answer in practice" in str(endless)
    assert shrunk("aaaaaaab", 4) == "aaab" and shrunk("ab", 10) == "ab"


def test_simulation_is_byte_identical_across_runs(capsys: pytest.CaptureFixture[str]) -> None:
    args = [
        "simulate",
        str(RUNS / "replay.script.yaml"),
        "--calls",
        str(RUNS / "replay.calls.yaml"),
        "--stream",
        "--format",
        "json",
    ]
    run(args)
    first = capsys.readouterr().out
    run(args)
    assert capsys.readouterr().out == first


def _write_rules_case(tmp_path: Path, rules: str) -> tuple[str, str]:
    form = tmp_path / "intake.form.yaml"
    form.write_text("fields:\n  age: {type: int}\n  email: {type: str}\nvalues:\n  age: 42\n  email: a@b.c\n")
    ruleset = tmp_path / "intake.rules.yaml"
    ruleset.write_text(rules)
    return str(form), str(ruleset)


@pytest.mark.parametrize(
    ("rules", "code", "line"),
    [
        (
            "rules:\n  - {rule_id: r1, field: age, check: required}\n"
            "  - {rule_id: r1, field: email, check: required}\n",
            "RS009",
            3,
        ),
        ("rules:\n  - {rule_id: r1, field: age, check: required, 5: x}\n", "RS011", 2),
        ("rules:\n  r1: {rule_id: r1, field: age, check: required}\n", "RS011", 2),
        ("rules:\n  - {rule_id: r1, field: age\n", "YM001", 2),  # at the brace never closed
        (
            "rules:\n  - {rule_id: ok, field: age, check: required}\n"
            "  - {rule_id: x1, field: age, check: range, params: {min: '18'}}\n",
            "RS101",
            3,
        ),
    ],
    ids=["duplicate", "non-string key", "rules mapping", "syntax", "rule raises"],
)
def test_dry_run_refuses_a_ruleset_the_program_cannot_build_or_apply(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], rules: str, code: str, line: int
) -> None:
    form, ruleset = _write_rules_case(tmp_path, rules)
    exit_code, data = _json(capsys, "dry-run", form, "--rules", ruleset)
    (result,) = data["results"]
    assert exit_code == 1 and result["verdict"] == "rejected"
    assert (result["status"], result["context_block"], result["values"]) == (None, None, {})
    first = result["errors"][0]
    assert (first["code"], first["path"], first["line"]) == (code, ruleset, line)


def test_re_debug_flags_never_reach_the_output(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    form, ruleset = _write_rules_case(
        tmp_path, "rules:\n  - {rule_id: r1, field: email, check: pattern, params: {pattern: '^[a-z]', flags: 128}}\n"
    )
    assert run(["dry-run", form, "--rules", ruleset, "--format", "json"]) == 0
    out, err = capfd.readouterr()
    assert json.loads(out)["results"][0]["verdict"] == "accepted" and err == ""
    run(["lint", ruleset, "--form", form, "--format", "json"])
    out, err = capfd.readouterr()
    assert json.loads(out)["files"][0]["verdict"] == "accepted" and err == ""


def test_dry_run_with_a_prompt_shows_the_prompt_li_agent_sends(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = _json(capsys, "dry-run", str(ROOT / "examples/forms/budget.form.json"), "--prompt", "Approve?")
    (result,) = data["results"]
    assert code == 0 and result["verdict"] == "accepted"
    assert result["prompt"] == result["context_block"] + "Approve?"
    assert result["prompt_room"] == 262_144 - len(result["context_block"])


def test_dry_run_refuses_a_prompt_over_the_cap(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    form = ROOT / "examples/forms/budget.form.json"
    prompt = tmp_path / "prompt.txt"
    prompt.write_text("x" * 262_144, encoding="utf-8")
    code, data = _json(capsys, "dry-run", str(form), "--prompt-file", str(prompt))
    (result,) = data["results"]
    assert code == 1 and result["verdict"] == "rejected" and result["prompt"] is None
    assert result["context_block"] is None and result["prompt_room"] is not None
    assert [e["code"] for e in result["errors"]] == ["FS024"]
    assert "262,144 it allows" in result["errors"][0]["message"]
    run(["dry-run", str(form), "--prompt-file", str(prompt)])
    out = capsys.readouterr().out
    assert "[FS024]" in out and out.endswith("no model call is made: li agent exits with status 1\n")


def test_dry_run_without_a_prompt_refuses_a_block_over_the_cap() -> None:
    case = ROOT / "tests/rules/FS024/fail_aliased_list.yaml"
    text = yaml.safe_load(case.read_text(encoding="utf-8"))["text"]
    result = dry_run_text(text, "example.form.yaml")
    assert (result["verdict"], result["context_block"], result["prompt_room"]) == ("rejected", None, None)
    assert [(e["code"], e["line"]) for e in result["errors"]] == [("FS024", 5)]
    assert result["status"] == "validated"  # the form itself is fine; its block is too long


def test_a_regex_the_runtime_answers_in_time_is_awaited_and_its_entry_shown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Quadratic: past --regex-timeout, the growth says the runtime answers within
    --regex-wait, so the search is awaited and the entry lionagi serves is shown (an unmatched
    prompt_regex: the fallback), with the estimate beside it; with --regex-wait 0 the same call
    is a regex_timeout."""
    script = tmp_path / "q.script.yaml"
    script.write_text(
        "responses:\n  - type: text\n    content: slow\n    when: {prompt_regex: 'a*b'}\n"
        "  - type: text\n    content: fallback\n",
        encoding="utf-8",
    )
    calls = tmp_path / "q.calls.json"
    calls.write_text(json.dumps([{"prompt": "a" * 60_000}]), encoding="utf-8")
    args = ["simulate", str(script), "--calls", str(calls), "--regex-timeout", "0.3"]
    code, data = _json(capsys, *args, "--regex-wait", "0")
    assert code == 1 and [c["outcome"] for c in data["calls"]] == ["regex_timeout"]
    code, data = _json(capsys, *args, "--regex-wait", "120")
    (call,) = data["calls"]
    if call["outcome"] == "regex_timeout":  # the probes could not be timed on this machine
        assert call["timeout"]["estimated_seconds"] is None or call["timeout"]["estimated_seconds"] > 120
        return
    assert (call["outcome"], call["entry"], code) == ("served", 1, 0)
    (slow,) = call["slow_regexes"]
    assert slow["pattern"] == "a*b" and slow["bound_seconds"] == 0.3 and slow["explosive"] is False
    assert slow["estimated_seconds"] >= 0.3 and "formscript waited for the answer" in slow["message"]


def _alias_chain_form(tmp_path: Path, depth: int) -> str:
    """A form whose value nests *depth* lists deep through a chain of aliases (a depth the
    loader accepts, since no text nests past one level)."""
    chain = ["  - &a0 [1]", *(f"  - &a{i} [*a{i - 1}]" for i in range(1, depth))]
    text = "\n".join(["title: t", "fields:", "  deep: {type: list}", "chain:", *chain, "values:"])
    path = tmp_path / "deep.form.yaml"
    path.write_text(f"{text}\n  deep: *a{depth - 1}\n", encoding="utf-8")
    return str(path)


def test_dry_run_shows_a_value_nested_past_the_recursion_limit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _alias_chain_form(tmp_path, 1500)
    assert run(["dry-run", path]) == 1
    out = capsys.readouterr().out
    assert "  deep: <list nested too deeply to print> (list)\n" in out
    code, data = _json(capsys, "dry-run", path)
    (result,) = data["results"]
    given, levels = result["values"]["deep"]["given"], 0
    while isinstance(given, list):
        (given,), levels = given, levels + 1
    assert code == 1 and (levels, given) == (800, "<list nested more than 800 levels deep>")
    assert result["values"]["deep"]["value"] == result["values"]["deep"]["given"]


def test_dry_run_writes_a_value_nested_within_the_limit_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, data = _json(capsys, "dry-run", _alias_chain_form(tmp_path, 700))
    given, levels = data["results"][0]["values"]["deep"]["given"], 0
    while isinstance(given, list):
        (given,), levels = given, levels + 1
    assert code == 1 and (levels, given) == (700, 1)
