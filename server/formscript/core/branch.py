"""What a lionagi Branch sends to the scripted endpoint for ``branch.chat(...)``.

A test that drives a script through ``TestBranch.from_script(...)`` and ``branch.chat(text,
...)`` does not send *text*: the Branch builds an instruction message and renders it as
minimal YAML, ``Instruction: <text>`` with ``Guidance:``, ``Context:`` and ``Tools:``
sections when those options are given (``plain_content`` replaces the rendering). That
rendering is the last user message the script's matchers see. ``chat_payload`` builds the
request exactly; ``tests/conformance`` compares it with what a real TestBranch sends.

``chat`` does not add its messages to the Branch, so every call starts from an empty
history: each chat item of a transcript is one request with one user message. The Branch
is TestBranch's default one, without a system message (a Branch built with
``system=S`` puts ``S`` in front of the guidance: ``guidance: S`` sends the same).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import yaml

from formscript.core.entries import CONTENT_PREDICATES

if TYPE_CHECKING:
    from formscript.core.script import Replayer

#: The model name a TestBranch's scripted iModel sends (TestBranch.from_script's default).
TEST_MODEL = "scripted-test"

#: The options of a chat item, as ``Branch.chat`` takes them (``tools`` as a keyword it passes on).
CHAT_OPTIONS: tuple[str, ...] = ("guidance", "context", "plain_content", "tool_schemas", "tools")


class _BlockDumper(yaml.SafeDumper):
    """Block style, no anchors, multi-line text as a literal block (what the Branch renders)."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _text(dumper: yaml.SafeDumper, data: str) -> yaml.Node:
    return dumper.represent_scalar("tag:yaml.org,2002:str", data, style="|" if "\n" in data else None)


_BlockDumper.add_representer(str, _text)


def _empty(value: Any) -> bool:
    """Nothing worth rendering: None, blank text, an empty list or mapping (0 and False stay)."""
    if value is None:
        return True
    if isinstance(value, str):
        return not value.strip()
    if isinstance(value, dict | list | tuple | set):
        return not value
    return False


def _pruned(value: Any) -> Any:
    """*value* without the empty entries, inside out (a list left empty is dropped in turn)."""
    if isinstance(value, dict):
        kept = {k: _pruned(v) for k, v in value.items() if not _empty(v)}
        return {k: v for k, v in kept.items() if not _empty(v)}
    if isinstance(value, list):
        return [v for v in (_pruned(v) for v in value if not _empty(v)) if not _empty(v)]
    return value


def render_yaml(value: Any) -> str:
    """*value* pruned and dumped as the Branch dumps its messages (block YAML, keys in order,
    Unicode kept, never wrapped)."""
    return str(
        yaml.dump(
            _pruned(value),
            Dumper=_BlockDumper,
            default_flow_style=False,
            sort_keys=False,
            allow_unicode=True,
            indent=2,
            width=2**31 - 1,
        )
    )


def tool_schema_list(given: Any) -> list[Any]:
    """``tool_schemas`` as the instruction stores it: a mapping's ``tools`` (or the mapping
    itself), a list as it is, anything else as its one item; nothing for an empty value."""
    if not given:
        return []
    if isinstance(given, dict):
        given = given.get("tools", [given])
    return list(given) if isinstance(given, list) else [given]


def chat_payload(
    instruction: Any = None,
    *,
    guidance: Any = None,
    context: Any = None,
    plain_content: str | None = None,
    tool_schemas: Any = None,
    tools: Any = None,
) -> dict[str, Any]:
    """The request payload the scripted endpoint receives for ``branch.chat(instruction,
    guidance=, context=, plain_content=, tool_schemas=, tools=)``: the user message the
    Branch renders, and a ``tools=`` keyword as it is (it is what ``has_tool`` reads)."""
    payload: dict[str, Any] = {"model": TEST_MODEL}
    if tools is not None:
        payload["tools"] = tools
    if plain_content:
        message = plain_content
    else:
        items = [] if context is None else list(context) if isinstance(context, list) else [context]
        # The instruction keeps only values that are truthy: chat("") or chat(0) sends no text.
        sections = {
            "Guidance": guidance or None,
            "Instruction": instruction or None,
            "Context": items,
            "Tools": tool_schema_list(tool_schemas),
        }
        message = render_yaml(sections).strip()
    payload["messages"] = [{"role": "user", "content": message}]
    return payload


@dataclass(frozen=True)
class Miss:
    """A matcher that matches a chat call as the test wrote it but not what the Branch sends."""

    entry: int
    kind: str  # prompt_contains | prompt_regex | has_tool
    value: Any


def misses(replayer: Replayer, written: dict[str, Any], sent: dict[str, Any], call_index: int) -> list[Miss]:
    """The entries the call at *call_index* could still be served by whose matcher matches the
    request as *written* but not the request a Branch *sent*: they can never serve it."""
    found = []
    for index in replayer.candidates():
        try:
            hoped = replayer.matches(index, written, call_index)
            if hoped is None or hoped.kind not in CONTENT_PREDICATES:  # the gates see the same call
                continue
            if replayer.matches(index, sent, call_index) is not None:
                continue
        except Exception:  # a regex that fails or times out is reported when the call is served
            continue
        found.append(Miss(index, hoped.kind, hoped.value))
    return found
