"""CL002 invalid-call: a call of the wrong shape."""

from __future__ import annotations

from formscript.core.printable import type_label
from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule, did_you_mean


class InvalidCall(Rule):
    """A call of the wrong shape.

    ## Why

    Each call is a string, a mapping with `prompt` (string) and optional `tools` (list of names),
    a mapping with `payload` (a request payload mapping), or a mapping with `chat` (what a test
    passes to `branch.chat`) and its options: `guidance`, `context` and `tool_schemas` (JSON
    values), `plain_content` (a string) and `tools` (a list). An item of any other shape cannot
    be replayed as the test makes it.

    ## Fails

    ```yaml
    - {prompt: hello, tool: [search]}
    ```

    ## Passes

    ```yaml
    - {prompt: hello, tools: [search]}
    ```
    """

    code = "CL002"
    name = "invalid-call"
    kind = "calls"
    severity = "error"
    rejects = True

    def not_a_call(self, *, path: KeyPath, index: int, found: object) -> Problem:
        """Call #*index* is *found*."""
        return self.found(f"call #{index} must be a string or a mapping, found {type_label(found)}", path)

    def unknown_key(self, *, path: KeyPath, index: int, key: object, suggestion: str | None) -> Problem:
        """Call #*index* has the unknown key *key*."""
        return self.found(
            f"call #{index} has unknown key {key!r}; expected prompt, tools, payload or chat"
            + did_you_mean(suggestion),
            path,
            on_key=True,
        )

    def payload_not_a_mapping(self, *, path: KeyPath, index: int) -> Problem:
        """Call #*index*'s payload is not a mapping."""
        return self.found(f"call #{index}: payload must be a mapping", path)

    def payload_mixed(self, *, path: KeyPath, index: int) -> Problem:
        """Call #*index* gives payload and prompt or tools."""
        return self.found(f"call #{index} mixes payload with prompt/tools; give one or the other", path)

    def prompt_missing(self, *, path: KeyPath, index: int) -> Problem:
        """Call #*index* has no string prompt."""
        return self.found(f"call #{index} needs a string 'prompt'", path)

    def tools_invalid(self, *, path: KeyPath, index: int) -> Problem:
        """Call #*index*'s tools are not a list of names."""
        return self.found(f"call #{index}: tools must be a list of tool names", path)

    def unknown_chat_key(self, *, path: KeyPath, index: int, key: object, suggestion: str | None) -> Problem:
        """Chat call #*index* has the key *key*, which ``branch.chat`` has no option for."""
        return self.found(
            f"chat call #{index} has unknown key {key!r}; expected chat, guidance, context, plain_content, "
            "tool_schemas or tools" + did_you_mean(suggestion),
            path,
            on_key=True,
        )

    def chat_mixed(self, *, path: KeyPath, index: int, other: str) -> Problem:
        """Call #*index* gives chat and *other*."""
        return self.found(f"call #{index} mixes chat with {other}; give one or the other", path)

    def chat_option_without_chat(self, *, path: KeyPath, index: int, key: str) -> Problem:
        """Call #*index* has the chat option *key* but no chat."""
        return self.found(
            f"call #{index}: {key} is an option of a chat call, and this call has no chat", path, on_key=True
        )

    def chat_option_invalid(self, *, path: KeyPath, index: int, key: str) -> Problem:
        """Chat call #*index*'s *key* is not of the type ``branch.chat`` takes."""
        wanted = {
            "plain_content": "a string",
            "tools": "a list (passed to the request as it is)",
        }.get(key, "plain JSON data (null, booleans, numbers, strings, lists, mappings with string keys)")
        return self.found(f"chat call #{index}: {key} must be {wanted}", path)


CL002 = InvalidCall()
