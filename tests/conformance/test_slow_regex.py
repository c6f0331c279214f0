"""A prompt_regex the runtime answers slowly (quadratic, not catastrophic): ``simulate`` waits
for the answer when the growth says it comes within ``--regex-wait``, and shows the entry
lionagi 0.36.0 serves — matched or not — as lionagi itself does given the time."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from formscript.runs import simulate_text

from .engines import LionagiEngine, lionagi_missing_reason

#: (pattern, prompt): the search scans the rest of the prompt from every start.
SLOW = {
    "no match (the fallback serves)": ("a*b", "a" * 50_000),
    "a match at the very end": ("a*cd|c$", "a" * 50_000 + "c"),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SLOW))
def test_the_entry_served_after_a_slow_search_is_lionagis(name: str, tmp_path: Path) -> None:
    reason = lionagi_missing_reason()
    if reason is not None:
        pytest.skip(reason)
    pattern, prompt = SLOW[name]
    text = (
        "responses:\n  - type: text\n    content: by regex\n"
        f"    when: {{prompt_regex: {json.dumps(pattern)}}}\n"
        "  - type: text\n    content: fallback\n"
    )
    script = tmp_path / "slow.script.yaml"
    script.write_text(text, encoding="utf-8")
    transcript = ({"messages": [{"role": "user", "content": prompt}]},)
    engine = LionagiEngine()
    try:
        theirs = engine.script_outcome(str(script), transcript)
    finally:
        engine.close()
    calls = json.dumps([{"payload": transcript[0]}])
    ours = simulate_text(text, str(script), calls, "slow.calls.json", regex_timeout=0.2, regex_answer_bound=120)
    (call,) = ours["calls"]
    if call["outcome"] == "regex_timeout":  # the probes could not be timed here: nothing claimed
        assert call["timeout"]["estimated_seconds"] is None or call["timeout"]["estimated_seconds"] > 120
        return
    assert theirs.terminal is None
    assert [(s.entry, s.matched_by) for s in theirs.served] == [(call["entry"], call["matched_by"]["kind"])]
    assert call["slow_regexes"][0]["pattern"] == pattern
