"""Calls transcripts (formscript's own format, for ``simulate``): the calls a test makes.

A transcript is a list; each item is one call, written as a string (the last user message),
a mapping with ``prompt`` (a string) and optional ``tools`` (tool names), or a mapping with a
raw request ``payload``. ``read_calls`` turns a loaded transcript into one ``Call`` per item
(the request payload the script's matchers see) and the problems of its shape; lint reports
the problems, the simulation replays the calls.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from formscript import rules
from formscript.core.suggest import closest
from formscript.core.verdict import Problem

CALL_KEYS: tuple[str, ...] = ("prompt", "tools", "payload")

#: How an item was written: a string, a prompt mapping, a raw payload, or neither.
CallForm = Literal["text", "prompt", "payload", "invalid"]


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
    prompt = item.get("prompt", "")
    tools = item.get("tools") or []
    names = tuple(tools) if isinstance(tools, Iterable) else ()
    payload: dict[str, Any] = {"messages": [{"role": "user", "content": prompt}]}
    payload["tools"] = [{"type": "function", "function": {"name": t}} for t in names]
    return Call("prompt", payload, prompt, names)


def _item_problems(index: int, item: Any) -> list[Problem]:
    where: tuple[object, ...] = (index,)
    if isinstance(item, str):
        return []
    if not isinstance(item, dict):
        return [rules.CL002.not_a_call(path=where, index=index, found=item)]
    found: list[Problem] = []
    for key in item:
        if key not in CALL_KEYS:
            found.append(
                rules.CL002.unknown_key(path=(*where, key), index=index, key=key, suggestion=closest(key, CALL_KEYS))
            )
    if "payload" in item:
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
