"""SC011 unreachable-entry: an entry the runtime can never serve."""

from __future__ import annotations

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule


class UnreachableEntry(Rule):
    """An entry the runtime can never serve.

    ## Why

    Conditional entries are skipped in positional mode, unconditional ones in when_only mode;
    call_index below after_calls, a negative call_index, or a call_index gate already taken by an
    earlier gate-only entry never match. (A negative after_calls is SC023.)

    ## Fails

    ```yaml
    mode: positional
    responses:
      - type: text
        content: hi
        when: {call_index: 0}
    ```

    ## Passes

    ```yaml
    mode: auto
    responses:
      - type: text
        content: hi
        when: {call_index: 0}
    ```
    """

    code = "SC011"
    name = "unreachable-entry"
    kind = "script"
    severity = "warning"

    def conditional_in_positional(self, *, path: KeyPath, index: int) -> Problem:
        """Response #*index* has a matcher, in positional mode."""
        return self.found(
            f"response #{index} has a condition, and positional mode never serves conditional entries",
            path,
            on_key=True,
        )

    def unconditional_in_when_only(self, *, path: KeyPath, index: int) -> Problem:
        """Response #*index* has no matcher, in when_only mode."""
        return self.found(
            f"response #{index} has no condition, and when_only mode never serves positional entries", path
        )

    def negative_call_index(self, *, path: KeyPath, index: int, call: int) -> Problem:
        """Response #*index* waits for a negative call index."""
        return self.found(f"response #{index} waits for call_index {call}, and call indexes start at 0", path)

    def call_before_after(self, *, path: KeyPath, index: int, call: int, after: int) -> Problem:
        """Response #*index* needs call *call* and at least *after* earlier calls."""
        return self.found(
            f"response #{index} needs call_index {call} and at least "
            f"{after} earlier calls, which never happen together",
            path,
        )

    def call_taken(self, *, path: KeyPath, index: int, taken_by: int, call: int) -> Problem:
        """An earlier gate-only response #*taken_by* always takes call *call*."""
        return self.found(
            f"response #{index} can never match: response #{taken_by} has no other condition "
            f"and always takes call {call}",
            path,
        )


SC011 = UnreachableEntry()
