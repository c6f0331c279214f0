"""SC006 invalid-mode: a mode other than auto, positional and when_only."""

from __future__ import annotations

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule, did_you_mean, replace_with


class InvalidMode(Rule):
    """A mode other than auto, positional and when_only.

    ## Why

    ScriptModel validates the mode against exactly these three names.

    ## Fails

    ```yaml
    mode: positonal
    responses:
      - {type: text, content: hi}
    ```

    ## Passes

    ```yaml
    mode: positional
    responses:
      - {type: text, content: hi}
    ```
    """

    code = "SC006"
    name = "invalid-mode"
    kind = "script"
    severity = "error"
    rejects = True

    def problem(self, *, path: KeyPath, given: object, suggestion: str | None) -> Problem:
        """*given* is the mode as loaded."""
        return self.found(
            f"mode {given!r} is not one of auto, positional, when_only" + did_you_mean(suggestion),
            path,
            fix=replace_with(suggestion),
        )


SC006 = InvalidMode()
