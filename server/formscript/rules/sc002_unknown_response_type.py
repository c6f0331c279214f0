"""SC002 unknown-response-type: an entry whose `type` is missing or not text, tool_call, structured, stream or error."""

from __future__ import annotations

from collections.abc import Sequence

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule, did_you_mean, replace_with


class UnknownResponseType(Rule):
    """An entry whose `type` is missing or not text, tool_call, structured, stream or error.

    ## Why

    Entries are dispatched on `type`; an unknown or missing one refuses the script.

    ## Fails

    ```yaml
    responses:
      - {type: txt, content: hi}
    ```

    ## Passes

    ```yaml
    responses:
      - {type: text, content: hi}
    ```
    """

    code = "SC002"
    name = "unknown-response-type"
    kind = "script"
    severity = "error"
    rejects = True

    def missing(self, *, path: KeyPath, index: int, types: Sequence[str]) -> Problem:
        """Response #*index* has no 'type'; *types* are the response types."""
        return self.found(f"response #{index} has no 'type'; expected one of " + ", ".join(types), path, on_key=True)

    def unknown(
        self, *, path: KeyPath, index: int, given: object, types: Sequence[str], suggestion: str | None
    ) -> Problem:
        """Response #*index* has the unknown type *given*."""
        return self.found(
            f"response #{index} has unknown type {given!r}; expected one of "
            + ", ".join(types)
            + did_you_mean(suggestion),
            path,
            fix=replace_with(suggestion),
        )


SC002 = UnknownResponseType()
