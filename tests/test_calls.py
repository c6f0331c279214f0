"""The calls transcript model in core: one call per item, the payload the matchers see, and
the shape problems lint reports; the simulation replays the same calls."""

from __future__ import annotations

from formscript.core.calls import Call, read_calls
from formscript.core.script import last_user_message, tool_names
from formscript.runs import simulate_text


def test_each_written_form_becomes_a_call() -> None:
    transcript = read_calls(
        [
            "hello",
            {"prompt": "weather?", "tools": ["get_weather"]},
            {"payload": {"input": "raw", "tools": [{"name": "t"}]}},
        ]
    )
    assert transcript.problems == []
    text, prompted, raw = transcript.calls
    assert text == Call("text", {"messages": [{"role": "user", "content": "hello"}]}, "hello")
    assert (prompted.form, prompted.prompt, prompted.tools) == ("prompt", "weather?", ("get_weather",))
    assert last_user_message(prompted.payload) == "weather?"
    assert tool_names(prompted.payload) == ["get_weather"]
    assert (raw.form, raw.prompt, last_user_message(raw.payload), tool_names(raw.payload)) == (
        "payload",
        None,
        "raw",
        ["t"],
    )


def test_shape_problems_are_located_and_every_item_still_yields_a_call() -> None:
    transcript = read_calls(
        [5, {"prompt": 3, "tool": ["x"]}, {"payload": [], "prompt": "p"}, {"prompt": "a", "tools": 5}]
    )
    found = [(p.code, p.path, p.on_key) for p in transcript.problems]
    assert found == [
        ("CL002", (0,), False),
        ("CL002", (1, "tool"), True),
        ("CL002", (1,), False),
        ("CL002", (2, "payload"), False),
        ("CL002", (2,), False),
        ("CL002", (3, "tools"), False),
    ]
    assert "did you mean 'tools'" in transcript.problems[1].message
    assert [c.form for c in transcript.calls] == ["invalid", "prompt", "payload", "prompt"]
    assert transcript.calls[0].payload == {} and transcript.calls[2].payload == {}
    assert transcript.calls[3].tools == ()


def test_a_transcript_that_is_not_a_list() -> None:
    transcript = read_calls({"prompt": "a"})
    assert transcript.calls == []
    assert [(p.code, p.rejects) for p in transcript.problems] == [("CL001", True)]


def test_simulating_a_transcript_with_unreadable_tools_does_not_crash() -> None:
    # tools: 5 used to raise TypeError out of `formscript simulate`
    script = "responses:\n  - type: text\n    content: hi\n"
    result = simulate_text(script, "a.script.yaml", "- {prompt: a, tools: 5}\n", "a.calls.yaml")
    assert [(c["outcome"], c["entry"]) for c in result["calls"]] == [("served", 0)]
