"""Fuzzing: valid-then-mutated documents and byte-level mutations of the examples.

Every case must get a real verdict (never validator_error, never an exception), positions
inside the text, and — differentially — the same verdict as the runtime's own loader path
(pure-Python ``yaml.safe_load``/``json`` feeding the core), which proves the libyaml-based
located parser yields the runtime's values.

CI runs a bounded number of cases; the long run is
``FORMSCRIPT_FUZZ_CASES=100000 pytest tests/fuzz`` (see the README). A failing
byte-mutation case prints its seed; ``FORMSCRIPT_FUZZ_SEED=<seed> FORMSCRIPT_FUZZ_CASES=1``
replays it. Hypothesis prints its own reproduction blob.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from formscript.core.gate import SpecLoadError, check_form_spec, load_spec_text
from formscript.core.script import check_script, load_script_text
from formscript.lint.engine import lint_text

pytestmark = pytest.mark.slow  # hundreds of mutated files per strategy

CASES = int(os.environ.get("FORMSCRIPT_FUZZ_CASES", "400"))
BASE_SEED = int(os.environ.get("FORMSCRIPT_FUZZ_SEED", "20261129"))
#: The shipped documents (examples/pytest-plugin also holds a sample project's Python and TOML files).
EXAMPLES = sorted(
    p
    for p in (Path(__file__).resolve().parents[2] / "examples").rglob("*")
    if p.is_file()
    and p.suffix in (".yaml", ".yml", ".json")
    and any(kind in p.name for kind in (".form.", ".script.", ".rules.", ".calls."))
)
REAL = {"accepted", "rejected", "insufficient_evidence"}

SCALARS = st.sampled_from(
    [
        "yes",
        "no",
        "on",
        "off",
        "y",
        "n",
        "~",
        "null",
        "017",
        "0x1F",
        "0b101",
        "1_000",
        "12:30",
        "1e3",
        "1.0e+3",
        "2024-01-01",
        "2024-01-01 10:00:00",
        ".nan",
        ".inf",
        "NaN",
        " 7 ",
        "nan",
        "inf",
        "İstanbul",
        "straße",
        "true",
        "7",
        "3.5",
        "",
        "'quoted'",
        '"dq"',
        "[1, 2]",
        "{a: 1}",
    ]
)
TYPES = st.sampled_from(["str", "int", "float", "bool", "list", "dict", "integer", "string", 5])


def _mutate(text: str, rng: random.Random, rounds: int) -> str:
    chars = list(text)
    pool = [*":-[]{}#&*!|>'\"\n\t ,?%@`\\", "\x00", "é", "😀", "\r\n", "  ", "- ", ": "]
    for _ in range(rounds):
        op = rng.randrange(5)
        at = rng.randrange(len(chars) + 1)
        if op == 0 and chars:
            del chars[min(at, len(chars) - 1)]
        elif op == 1:
            chars.insert(at, rng.choice(pool))
        elif op == 2 and chars:
            chars[min(at, len(chars) - 1)] = rng.choice(pool)
        elif op == 3:
            lines = "".join(chars).split("\n")
            if lines:
                i = rng.randrange(len(lines))
                lines.insert(i, lines[i])
            chars = list("\n".join(lines))
        else:
            lines = "".join(chars).split("\n")
            if lines:
                i = rng.randrange(len(lines))
                lines[i] = " " * rng.randrange(4) + lines[i].lstrip()
            chars = list("\n".join(lines))
    return "".join(chars)


def _runtime_form_verdict(text: str, path: str) -> str:
    try:
        spec = load_spec_text(text)
    except (SpecLoadError, RecursionError):
        return "rejected"
    return check_form_spec(spec, path).verdict.value


def _runtime_script_verdict(text: str, path: str) -> str:
    try:
        data = load_script_text(text, path)
    except (yaml.YAMLError, ValueError, RecursionError):
        return "rejected"
    return check_script(data).verdict.value


def _check(text: str, path: str) -> None:
    report = lint_text(text, path)
    assert report.verdict is not None and report.verdict.value in REAL, (path, report.diagnostics)
    lines = text.splitlines() or [""]
    for d in report.diagnostics:
        assert 0 <= d.span.start.line <= len(lines), d
    if path.endswith((".form.yaml", ".form.json")):
        assert report.verdict.value == _runtime_form_verdict(text, path), text
    elif ".script." in path:
        assert report.verdict.value == _runtime_script_verdict(text, path), text


@st.composite
def form_specs(draw: st.DrawFn) -> dict[str, Any]:
    names = draw(
        st.lists(st.sampled_from(["age", "name", "ok", "first-name", "_x", "1a", "name"]), max_size=5, unique=True)
    )
    fields = {n: {"type": draw(TYPES), "required": draw(st.sampled_from([True, False, "yes", 2]))} for n in names}
    values = {n: draw(SCALARS) for n in draw(st.lists(st.sampled_from([*names, "extra"]), max_size=5))}
    spec: dict[str, Any] = {"fields": fields, "values": values}
    if draw(st.booleans()):
        spec["title"] = draw(st.sampled_from(["T", 5, None, "yes"]))
    return spec


@st.composite
def scripts(draw: st.DrawFn) -> dict[str, Any]:
    entries = []
    for _ in range(draw(st.integers(0, 5))):
        kind = draw(st.sampled_from(["text", "tool_call", "structured", "stream", "error", "txt"]))
        entry: dict[str, Any] = {"type": kind, "content": draw(SCALARS)}
        if draw(st.booleans()):
            entry["when"] = {
                draw(
                    st.sampled_from(
                        ["prompt_contains", "prompt_regex", "has_tool", "call_index", "after_calls", "promt"]
                    )
                ): draw(SCALARS)
            }
        entries.append(entry)
    return {"mode": draw(st.sampled_from(["auto", "positional", "when_only", "other"])), "responses": entries}


@settings(max_examples=CASES, deadline=None, suppress_health_check=list(HealthCheck))
@given(form_specs(), st.integers(0, 6), st.randoms(use_true_random=False))
def test_mutated_forms_get_real_verdicts(spec: dict[str, Any], rounds: int, rng: random.Random) -> None:
    text = yaml.safe_dump(spec, sort_keys=False).replace("'", "")
    _check(_mutate(text, rng, rounds), "case.form.yaml")


@settings(max_examples=CASES, deadline=None, suppress_health_check=list(HealthCheck))
@given(scripts(), st.integers(0, 6), st.randoms(use_true_random=False), st.booleans())
def test_mutated_scripts_get_real_verdicts(
    script: dict[str, Any], rounds: int, rng: random.Random, as_json: bool
) -> None:
    if as_json:
        _check(_mutate(json.dumps(script), rng, rounds), "case.script.json")
    else:
        _check(_mutate(yaml.safe_dump(script, sort_keys=False), rng, rounds), "case.script.yaml")


def test_byte_mutations_of_the_examples() -> None:
    for number in range(CASES):
        seed = BASE_SEED + number
        rng = random.Random(seed)
        source = EXAMPLES[rng.randrange(len(EXAMPLES))]
        data = bytearray(source.read_bytes())
        for _ in range(rng.randint(1, 8)):
            at = rng.randrange(len(data) + 1)
            if rng.random() < 0.5 and data:
                data[min(at, len(data) - 1)] = rng.randrange(256)
            else:
                data[at:at] = bytes([rng.randrange(256)])
        text = data.decode("utf-8", errors="replace")
        try:
            _check(text, source.name)
        except AssertionError as exc:
            raise AssertionError(f"byte mutation failed: FORMSCRIPT_FUZZ_SEED={seed} ({source.name})") from exc
