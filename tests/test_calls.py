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


def test_a_chat_item_sends_what_a_branch_sends() -> None:
    (call,) = read_calls([{"chat": "hello", "guidance": "be brief", "context": {"city": "Oslo"}}]).calls
    assert call.form == "chat" and call.prompt == "hello"
    assert call.payload == {
        "model": "scripted-test",
        "messages": [{"role": "user", "content": "Guidance: be brief\nInstruction: hello\nContext:\n- city: Oslo"}],
    }
    assert call.written == {"messages": [{"role": "user", "content": "hello"}], "tools": []}


def test_a_chat_items_tools_reach_the_request_and_its_tool_schemas_the_text() -> None:
    search = {"type": "function", "function": {"name": "search"}}
    (schemas, passed) = read_calls(
        [{"chat": "find", "tool_schemas": [search]}, {"chat": "find", "tools": [search]}]
    ).calls
    assert tool_names(schemas.payload) == [] and "Tools:\n- type: function" in last_user_message(schemas.payload)
    assert tool_names(passed.payload) == ["search"] and last_user_message(passed.payload) == "Instruction: find"
    assert tool_names(schemas.written or {}) == ["search"]  # what the test named, for the warnings


def test_chat_item_problems() -> None:
    transcript = read_calls(
        [
            {"chat": "x", "guidence": "g"},
            {"chat": "x", "prompt": "y"},
            {"prompt": "y", "context": "c"},
            {"chat": "x", "plain_content": 5, "tools": "search"},
            {"chat": {1: "non-string key"}},
            {"payload": {}, "chat": "x"},
        ]
    )
    found = [(p.code, p.path, p.on_key) for p in transcript.problems]
    assert found == [
        ("CL002", (0, "guidence"), True),
        ("CL002", (1,), False),
        ("CL002", (2, "context"), True),
        ("CL002", (3, "plain_content"), False),
        ("CL002", (3, "tools"), False),
        ("CL002", (4, "chat"), False),
        ("CL002", (5,), False),
    ]
    assert "did you mean 'guidance'" in transcript.problems[0].message
    # every item still yields a call; a value of the wrong type is left out of the request
    assert [c.form for c in transcript.calls] == ["chat", "chat", "prompt", "chat", "chat", "payload"]
    assert last_user_message(transcript.calls[3].payload) == "Instruction: x"
    assert "tools" not in transcript.calls[3].payload


def test_a_simulated_chat_call_warns_of_a_matcher_that_only_matches_the_written_text() -> None:
    script = (
        "responses:\n"
        "  - {type: text, content: hi, when: {prompt_regex: '^hello'}}\n"
        "  - {type: text, content: fallback}\n"
    )
    result = simulate_text(script, "a.script.yaml", "- chat: hello\n- prompt: hello\n", "a.calls.yaml")
    through_branch, raw = result["calls"]
    assert (through_branch["entry"], raw["entry"]) == (1, 0)
    assert through_branch["payload"]["messages"] == [{"role": "user", "content": "Instruction: hello"}]
    (warning,) = through_branch["warnings"]
    assert warning["entry"] == 0 and warning["matched_by"] == {"kind": "prompt_regex", "value": "^hello"}
    assert "'Instruction: hello'" in warning["message"]
    assert "warnings" not in raw and "payload" not in raw


def test_no_warning_when_the_branch_message_matches_too() -> None:
    script = "responses:\n  - {type: text, content: hi, when: {prompt_contains: hello}}\n"
    result = simulate_text(script, "a.script.yaml", "- chat: hello\n", "a.calls.yaml")
    (call,) = result["calls"]
    assert call["entry"] == 0 and "warnings" not in call
