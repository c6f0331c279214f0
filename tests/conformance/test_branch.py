"""What a Branch sends (issue 12 item 14), against a real ``lionagi.testing.TestBranch``.

A chat item of a calls transcript (``{chat: TEXT, guidance: ..., ...}``) stands for
``branch.chat(TEXT, guidance=..., ...)`` on ``TestBranch.from_script(script)``; formscript
builds the request payload itself (``formscript.core.branch``). Here the same call is made on
a real TestBranch and the payload its scripted endpoint records is compared with formscript's,
for written cases and for seeded random ones; and a simulation's warning that a matcher can
never serve a chat call is checked against what the Branch serves.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from formscript.core.calls import read_calls
from formscript.runs import simulate_text

from . import redteam
from .engines import CHAT_ARGUMENTS, LionagiEngine, lionagi_missing_reason

WRITTEN: list[dict[str, Any]] = [
    {"chat": "hello"},
    {"chat": "yes"},
    {"chat": "it's: raining"},
    {"chat": "line one\nline two\n"},
    {"chat": ""},
    {"chat": 0},
    {"chat": None, "guidance": "only guidance"},
    {"chat": {"q": "hello", "n": [1, 2]}},
    {"chat": "hello", "guidance": "be brief", "context": {"city": "Oslo"}},
    {"chat": "hello", "context": ["a", "", None, 0, False, {"k": ""}]},
    {"chat": "hello", "guidance": {"style": "short"}, "context": "one string"},
    {"chat": "hello", "plain_content": "sent as it is"},
    {"chat": "hello", "plain_content": ""},
    {"chat": "hello", "tool_schemas": [{"type": "function", "function": {"name": "search"}}]},
    {"chat": "hello", "tool_schemas": {"tools": [{"name": "a"}, {"name": "b"}]}},
    {"chat": "hello", "tool_schemas": {"name": "single"}},
    {"chat": "hello", "tools": [{"type": "function", "function": {"name": "search"}}]},
    {"chat": "hello", "tools": []},
    {"chat": "café ✓ 😀 \t tab"},
    {"chat": "  padded  ", "guidance": "   "},
]


@pytest.fixture(scope="module")
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    reason = lionagi_missing_reason()
    if reason is not None:
        pytest.skip(reason)
    running = asyncio.new_event_loop()
    yield running
    running.close()


def _sent(loop: asyncio.AbstractEventLoop, items: list[dict[str, Any]]) -> list[Any]:
    """What a TestBranch's endpoint records for each chat item (the exception's name where
    the Branch raises), one Branch for all of them, as one test would make the calls."""
    from lionagi.protocols.generic.log import DataLoggerConfig
    from lionagi.testing import TestBranch

    responses = [{"type": "text", "content": "ok"}] * len(items)
    branch = TestBranch.from_responses(responses, log_config=DataLoggerConfig(auto_save_on_exit=False))
    calls = TestBranch.calls(branch)

    async def make() -> list[Any]:
        sent: list[Any] = []
        for item in items:
            before = len(calls)
            try:
                await branch.chat(item["chat"], **{k: item[k] for k in CHAT_ARGUMENTS if k in item})
            except Exception as exc:
                sent.append(f"raises {type(exc).__name__}")
                continue
            sent.append(calls[-1].payload if len(calls) > before else "nothing recorded")
        await branch.chat_model.close()
        return sent

    return loop.run_until_complete(make())


def _ours(items: list[dict[str, Any]]) -> list[Any]:
    transcript = read_calls(items)
    assert transcript.problems == []
    return [call.payload for call in transcript.calls]


def test_written_chat_calls_send_the_payload_a_testbranch_sends(loop: asyncio.AbstractEventLoop) -> None:
    assert _ours(WRITTEN) == _sent(loop, WRITTEN)


@pytest.mark.parametrize("seed", range(3))
def test_random_chat_calls_send_the_payload_a_testbranch_sends(loop: asyncio.AbstractEventLoop, seed: int) -> None:
    r = redteam._R(random.Random(f"branch:{seed}"))
    items = [redteam._chat_item(r) for _ in range(150)]
    ours, theirs = _ours(items), _sent(loop, items)
    differing = [(item, a, b) for item, a, b in zip(items, ours, theirs, strict=True) if a != b]
    assert differing == []


SCRIPT = """\
responses:
  - {type: text, content: greeted, when: {prompt_regex: '^hello'}}
  - {type: tool_call, name: search, arguments: {q: x}, when: {has_tool: search}}
  - {type: text, content: quoted, when: {prompt_contains: "it's: fine"}}
  - {type: text, content: fallback}
  - {type: text, content: fallback}
  - {type: text, content: fallback}
"""
CALLS = [
    {"chat": "hello"},
    {"chat": "look it up", "tool_schemas": [{"type": "function", "function": {"name": "search"}}]},
    {"chat": "it's: fine"},
]


def test_a_warned_matcher_is_one_the_testbranch_never_serves(tmp_path: Path) -> None:
    """Each chat call gets a warning naming the entry written for its text; the TestBranch
    serves none of them, while the same texts sent as they are would be served by them."""
    reason = lionagi_missing_reason()
    if reason is not None:
        pytest.skip(reason)
    import json

    script = tmp_path / "greet.script.yaml"
    script.write_text(SCRIPT, encoding="utf-8")
    result = simulate_text(SCRIPT, str(script), json.dumps(CALLS), "greet.calls.json")
    warned = [[w["entry"] for w in call.get("warnings", [])] for call in result["calls"]]
    assert warned == [[0], [1], [2]]
    assert all("cannot serve this call" in w["message"] for c in result["calls"] for w in c["warnings"])
    engine = LionagiEngine()
    try:
        through_branch = engine.script_outcome(str(script), tuple(CALLS))
        raw = tuple(
            {"messages": [{"role": "user", "content": c["chat"]}], "tools": c.get("tool_schemas", [])} for c in CALLS
        )
        as_written = engine.script_outcome(str(script), raw)
    finally:
        engine.close()
    assert [s.entry for s in through_branch.served] == [3, 4, 5]
    assert [s.entry for s in as_written.served] == [0, 1, 2]
    assert [c["entry"] for c in result["calls"]] == [3, 4, 5]
