"""SC023 negative-after-calls: a matcher whose `after_calls` is negative."""

from __future__ import annotations

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule


class NegativeAfterCalls(Rule):
    """A matcher whose `after_calls` is negative.

    ## Why

    Every call index is at least 0, so the gate never holds the entry back: it can be served from
    the first call on, which is rarely what a negative count was meant to say. Drop it or give the
    count you meant. Split from SC011, which is about entries that can never be served.

    ## Fails

    ```yaml
    responses:
      - type: text
        content: hi
        when: {prompt_contains: hi, after_calls: -1}
    ```

    ## Passes

    ```yaml
    responses:
      - type: text
        content: hi
        when: {prompt_contains: hi, after_calls: 1}
    ```
    """

    code = "SC023"
    name = "negative-after-calls"
    kind = "script"
    severity = "info"

    def problem(self, *, path: KeyPath, index: int, after: int) -> Problem:
        """Response #*index* has after_calls *after*."""
        return self.found(f"response #{index} has after_calls {after}, which never holds anything back", path)


SC023 = NegativeAfterCalls()
