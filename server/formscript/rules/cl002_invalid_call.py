"""CL002 invalid-call: a call of the wrong shape."""

from __future__ import annotations

from formscript.core.fields import type_label
from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule, did_you_mean


class InvalidCall(Rule):
    """A call of the wrong shape.

    ## Why

    Each call is a string, a mapping with `prompt` (string) and optional `tools` (list of names), or
    a mapping with `payload` (a request payload mapping).

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
            f"call #{index} has unknown key {key!r}; expected prompt, tools or payload" + did_you_mean(suggestion),
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


CL002 = InvalidCall()
