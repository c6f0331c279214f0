"""RS008 pattern-input-too-long: a value longer than the 4,096-character pattern input cap (with --form)."""

from __future__ import annotations

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule


class PatternInputTooLong(Rule):
    """A value longer than the 4,096-character pattern input cap (with --form).

    ## Why

    Pattern rules refuse longer inputs before compiling the regex.

    ## Fails

    ```yaml
    rules:
      - {rule_id: r1, field: bio, check: pattern, params: {pattern: x}}
    ```

    ## Passes

    ```yaml
    rules:
      - {rule_id: r1, field: name, check: pattern, params: {pattern: A}}
    ```
    """

    code = "RS008"
    name = "pattern-input-too-long"
    kind = "rules"
    severity = "error"
    rejects = True

    def problem(self, *, path: KeyPath, rule_id: str, field: str, length: int, cap: int) -> Problem:
        """*field* holds *length* characters, over the *cap* of pattern rule *rule_id*."""
        return self.found(
            f"field {field!r} holds {length} characters; pattern rule {rule_id!r} refuses inputs over {cap}", path
        )


RS008 = PatternInputTooLong()
