"""Calls transcripts (formscript's own format, for ``simulate``): the calls a test makes.

A transcript is a list; each item is one call, written as a string (the last user message),
a mapping with ``prompt`` (a string) and optional ``tools`` (tool names), a mapping with a
raw request ``payload``, or a mapping with ``chat``: what a test passes to a lionagi
Branch's ``chat`` (the instruction, with the options ``guidance``, ``context``,
``plain_content``, ``tool_schemas`` and ``tools``), whose payload is the one the Branch
builds (:mod:`formscript.core.branch`). ``read_calls`` turns a
loaded transcript into one ``Call`` per item (the request payload the script's matchers see)
and the problems of its shape; lint reports the problems, the simulation replays the calls.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from formscript import rules
from formscript.core.branch import CHAT_OPTIONS, chat_payload, tool_schema_list
from formscript.core.suggest import closest
from formscript.core.verdict import Problem

CALL_KEYS: tuple[str, ...] = ("prompt", "tools", "payload", "chat", *(k for k in CHAT_OPTIONS if k != "tools"))
#: The keys of each kind of mapping item.
CHAT_KEYS: tuple[str, ...] = ("chat", *CHAT_OPTIONS)

#: How an item was written: a string, a prompt mapping, a raw payload, a Branch chat, or neither.
CallForm = Literal["text", "prompt", "payload", "chat", "invalid"]


@dataclass(frozen=True)
class Call:
    """One call: how it was written and the request payload the matchers see.

    ``prompt`` and ``tools`` are as written (a string and tool names in a valid transcript);
    a raw payload has neither. An item of the wrong shape still yields a call (its payload as
    far as it can be read), so a simulation can go on while lint reports the item.
    """

    form: CallForm
    payload: dict[str, Any]
    prompt: Any = None
    tools: tuple[Any, ...] = ()
    #: A chat call's request as the test wrote it: its text (``chat``, or ``plain_content``)
    #: as the last user message and the tools it names, which is what a reader expects the
    #: matchers to see (None for every other form).
    written: dict[str, Any] | None = None


@dataclass
class Transcript:
    """A loaded transcript read: one call per item, and the problems of its shape."""

    calls: list[Call] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def read_calls(data: Any) -> Transcript:
    """The calls of a loaded transcript and the problems of its shape."""
    if not isinstance(data, list):
        return Transcript([], [rules.CL001.problem(found=data)])
    transcript = Transcript()
    for index, item in enumerate(data):
        transcript.calls.append(_call(item))
        transcript.problems.extend(_item_problems(index, item))
    return transcript


def _call(item: Any) -> Call:
    if isinstance(item, str):
        return Call("text", {"messages": [{"role": "user", "content": item}]}, item)
    if not isinstance(item, dict):
        return Call("invalid", {})
    if "payload" in item:
        given = item["payload"]
        return Call("payload", dict(given) if isinstance(given, dict) else {})
    if "chat" in item:
        return _chat_call(item)
    prompt = item.get("prompt", "")
    tools = item.get("tools") or []
    names = tuple(tools) if isinstance(tools, Iterable) else ()
    payload: dict[str, Any] = {"messages": [{"role": "user", "content": prompt}]}
    payload["tools"] = [{"type": "function", "function": {"name": t}} for t in names]
    return Call("prompt", payload, prompt, names)


def _chat_call(item: dict[Any, Any]) -> Call:
    """The request a Branch sends for a chat item (values of the wrong type are left out,
    so a call still comes of it while lint reports them)."""
    given = {k: item.get(k) for k in CHAT_KEYS}
    for key in CHAT_KEYS:
        if not _valid_option(key, given[key]):
            given[key] = None
    instruction = given.pop("chat")
    payload = chat_payload(instruction, **given)
    text = given["plain_content"] or (instruction if isinstance(instruction, str) else "")
    named = [*tool_schema_list(given["tool_schemas"]), *(given["tools"] or [])]
    written = {"messages": [{"role": "user", "content": text}], "tools": named}
    return Call("chat", payload, instruction, written=written)


def _valid_option(key: str, value: Any) -> bool:
    if value is None:
        return True
    if key == "plain_content":
        return isinstance(value, str)
    if key == "tools":
        return isinstance(value, list) and is_json(value)
    return is_json(value)


def is_json(value: Any, _seen: tuple[int, ...] = ()) -> bool:
    """Whether *value* is plain JSON data (null, booleans, numbers, strings, lists, mappings
    with string keys) with no value inside itself."""
    if value is None or isinstance(value, bool | int | float | str):
        return True
    if id(value) in _seen or len(_seen) > 200:
        return False
    if isinstance(value, list):
        return all(is_json(v, (*_seen, id(value))) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and is_json(v, (*_seen, id(value))) for k, v in value.items())
    return False


def _item_problems(index: int, item: Any) -> list[Problem]:
    where: tuple[object, ...] = (index,)
    if isinstance(item, str):
        return []
    if not isinstance(item, dict):
        return [rules.CL002.not_a_call(path=where, index=index, found=item)]
    if "chat" in item and "payload" not in item:
        return _chat_problems(index, item)
    found: list[Problem] = []
    for key in item:
        if key not in CALL_KEYS:
            found.append(
                rules.CL002.unknown_key(
                    path=(*where, key), index=index, key=key, suggestion=closest(key, CALL_KEYS, item)
                )
            )
        elif key in CHAT_KEYS and key not in ("chat", "tools"):
            found.append(rules.CL002.chat_option_without_chat(path=(*where, key), index=index, key=key))
    if "payload" in item:
        if "chat" in item:
            found.append(rules.CL002.chat_mixed(path=where, index=index, other="payload"))
        if not isinstance(item["payload"], dict):
            found.append(rules.CL002.payload_not_a_mapping(path=(*where, "payload"), index=index))
        if "prompt" in item or "tools" in item:
            found.append(rules.CL002.payload_mixed(path=where, index=index))
        return found
    if not isinstance(item.get("prompt"), str):
        found.append(rules.CL002.prompt_missing(path=where, index=index))
    tools = item.get("tools", [])
    if not isinstance(tools, list) or not all(isinstance(t, str) for t in tools):
        found.append(rules.CL002.tools_invalid(path=(*where, "tools"), index=index))
    return found


def _chat_problems(index: int, item: dict[Any, Any]) -> list[Problem]:
    where: tuple[object, ...] = (index,)
    found: list[Problem] = []
    for key, value in item.items():
        if key == "prompt":
            found.append(rules.CL002.chat_mixed(path=where, index=index, other="prompt"))
        elif key not in CHAT_KEYS:
            found.append(
                rules.CL002.unknown_chat_key(
                    path=(*where, key), index=index, key=key, suggestion=closest(key, CHAT_KEYS, item)
                )
            )
        elif not _valid_option(key, value):
            found.append(rules.CL002.chat_option_invalid(path=(*where, key), index=index, key=key))
    return found
