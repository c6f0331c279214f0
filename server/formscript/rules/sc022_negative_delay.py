"""SC022 negative-delay: an error entry whose `delay_ms` is negative."""

from __future__ import annotations

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule


class NegativeDelay(Rule):
    """An error entry whose `delay_ms` is negative.

    ## Why

    The script loads, but serving the entry raises ValueError from the runtime's sleep, before the
    call is recorded and instead of the scripted error, so the test sees the wrong exception. Split
    from SC005, which is about values the entry models refuse.

    ## Fails

    ```yaml
    responses:
      - {type: error, kind: timeout, delay_ms: -5}
    ```

    ## Passes

    ```yaml
    responses:
      - {type: error, kind: timeout, delay_ms: 5}
    ```
    """

    code = "SC022"
    name = "negative-delay"
    kind = "script"
    severity = "warning"

    def problem(self, *, path: KeyPath, index: int, delay: int) -> Problem:
        """Response #*index* waits *delay* milliseconds."""
        return self.found(
            f"response #{index}: delay_ms {delay} is negative; the runtime's sleep raises "
            "ValueError before the scripted error is served",
            path,
        )


SC022 = NegativeDelay()
