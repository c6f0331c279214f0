"""core/lax.py gives pydantic's errors for script entries and headers, without pydantic.

Every generated input is validated both ways; wherever lax.py answers (it gives None where
pydantic's lax mode might coerce), its error list equals pydantic's: the same types,
locations and messages in the same order."""

from __future__ import annotations

import datetime as dt
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from formscript.core.entries import ENTRY_KEYS, MATCHER_KEYS
from formscript.core.lax import entry_errors, header_errors
from formscript.core.script_models import ENTRY_MODELS, ScriptHeader

CASES = int(os.environ.get("FORMSCRIPT_LAX_CASES", "6000"))
CHUNK_FIELDS = ("type", "content", "tool_name", "tool_id", "tool_input", "tool_output", "is_error", "is_delta")
WORDS = ("text", "auto", "error", "timeout", "rate_limit", "tool_use", "positional", "x", "", "Text", "auto\n")


def _scalar(rng: random.Random) -> Any:
    return rng.choice(
        [
            lambda: rng.choice(WORDS),
            lambda: str(rng.randint(-3, 12)),
            lambda: rng.choice([" 4 ", "1_000", "0x10", "2.0", "true", "no", "on", "1e3"]),
            lambda: rng.randint(-2, 3),
            lambda: rng.choice([True, False]),
            lambda: rng.choice([0.0, 1.0, 2.5, -1.0, float("nan")]),
            lambda: None,
            lambda: b"bytes",
            lambda: dt.date(2024, 1, 2),
            lambda: dt.datetime(2024, 1, 2, 3, 4),
            lambda: frozenset({1}),
            lambda: (1, 2),
        ]
    )()


def _value(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.random()
    if depth < 2 and roll < 0.15:
        return [_value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    if depth < 2 and roll < 0.3:
        keys = [rng.choice(["k", "a", 1, True, None])] if rng.random() < 0.3 else ["k", "v"]
        return {key: _value(rng, depth + 1) for key in keys[: rng.randint(0, 2)]}
    return _scalar(rng)


def _mapping(rng: random.Random, keys: tuple[str, ...], extra: tuple[Any, ...]) -> dict[Any, Any]:
    chosen = rng.sample(keys, rng.randint(0, len(keys)))
    if rng.random() < 0.3:
        chosen.append(rng.choice(extra))
    return {key: _value(rng) for key in chosen}


def _matcher(rng: random.Random) -> Any:
    if rng.random() < 0.2:
        return _value(rng)
    return _mapping(rng, MATCHER_KEYS, ("prompt", "call", 3))


def _chunk(rng: random.Random) -> Any:
    if rng.random() < 0.15:
        return _value(rng)
    chunk = _mapping(rng, CHUNK_FIELDS, ("kind", "text"))
    if rng.random() < 0.5:
        chunk["type"] = rng.choice(["text", "thinking", "tool_use", "bogus", 3])
    if rng.random() < 0.3:
        chunk["metadata"] = _value(rng)
    return chunk


def _entry(rng: random.Random) -> tuple[str, dict[Any, Any]]:
    kind = rng.choice(list(ENTRY_KEYS))
    raw = _mapping(rng, tuple(k for k in ENTRY_KEYS[kind] if k != "type"), ("contents", "prompt", "args", 7, None))
    raw["type"] = kind
    if "when" in raw and rng.random() < 0.7:
        raw["when"] = _matcher(rng)
    if "chunks" in raw and rng.random() < 0.7:
        raw["chunks"] = [_chunk(rng) for _ in range(rng.randint(0, 3))]
    if "kind" in raw and rng.random() < 0.5:
        raw["kind"] = rng.choice(["timeout", "rate_limit", "fatal", 5])
    return kind, raw


def _pydantic(model: Any, raw: dict[Any, Any]) -> list[tuple[Any, ...]]:
    try:
        model.model_validate(raw)
    except ValidationError as exc:
        return [(e["type"], tuple(e["loc"]), e["msg"]) for e in exc.errors()]
    return []


def _ours(errors: list[dict[str, Any]] | None) -> list[tuple[Any, ...]] | None:
    return None if errors is None else [(e["type"], tuple(e["loc"]), e["msg"]) for e in errors]


def test_entry_errors_equal_pydantic_s_wherever_given() -> None:
    rng = random.Random(20261201)
    answered = 0
    for _ in range(CASES):
        kind, raw = _entry(rng)
        ours = _ours(entry_errors(raw, kind))
        if ours is None:
            continue
        answered += 1
        assert ours == _pydantic(ENTRY_MODELS[kind], raw), raw
        assert ours, "an answer is never an empty list: a valid entry is the fast path's"
    assert answered > CASES // 4, answered  # the generator reaches the answered cases often


def test_header_errors_equal_pydantic_s_wherever_given() -> None:
    rng = random.Random(7)
    answered = 0
    for _ in range(CASES // 3):
        header = _mapping(rng, ("version", "mode"), ("version",))
        ours = _ours(header_errors(header))
        if ours is None:
            continue
        answered += 1
        assert ours == _pydantic(ScriptHeader, header), header
        if ours == []:  # valid: the version formscript reads is the model's
            model = ScriptHeader.model_validate(header)
            assert (model.mode, model.version) == (header.get("mode", "auto"), int(header.get("version", 1)))
    assert answered > CASES // 12, answered


def test_common_mistakes_are_answered_without_pydantic() -> None:
    """The mistakes people make get an answer here (None would send them to pydantic)."""
    cases = [
        ({"type": "text", "content": 5}, "text"),
        ({"type": "text", "contents": "hi"}, "text"),
        ({"type": "tool_call", "name": "f", "arguments": "x=1"}, "tool_call"),
        ({"type": "structured", "data": ["a"]}, "structured"),
        ({"type": "stream", "chunks": [{"type": "txt", "content": "a"}]}, "stream"),
        ({"type": "error", "kind": "fatal"}, "error"),
        ({"type": "text", "content": "hi", "when": {"prompt_contain": "x"}}, "text"),
        ({"type": "text", "content": "hi", "when": "hello"}, "text"),
    ]
    for raw, kind in cases:
        assert entry_errors(raw, kind), raw
    assert header_errors({"mode": "strict"}) and header_errors({"version": None})


def test_linting_the_problem_corpus_imports_no_pydantic(tmp_path: Path) -> None:
    """bench/'s problem corpus (typos, wrong types, YAML 1.1 surprises) lints its scripts
    and forms (core/lax_fields.py) without importing pydantic."""
    root = Path(__file__).resolve().parents[1]
    sys.path.insert(0, str(root / "bench"))
    try:
        from corpus import write_problem_corpus
    finally:
        sys.path.remove(str(root / "bench"))
    write_problem_corpus(tmp_path, 300)
    code = (
        "import sys\n"
        "from formscript.cli import main\n"
        "try:\n"
        "    main(['lint', '--no-cache', '--format', 'json', '--exit-zero', *sys.argv[1:]])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print('pydantic' in sys.modules, file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, check=False)
    assert '"files": 300' in done.stdout
    assert done.stderr.splitlines()[-1] == "False", done.stderr[-2000:]
