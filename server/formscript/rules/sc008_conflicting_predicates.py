"""SC008 conflicting-predicates: a matcher sets more than one of prompt_contains, prompt_regex and has_tool."""

from __future__ import annotations

from collections.abc import Sequence

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule


class ConflictingPredicates(Rule):
    """A matcher sets more than one of prompt_contains, prompt_regex and has_tool.

    ## Why

    The runtime consults only the first set one in that order; the others are never evaluated (they
    are not ANDed, whatever the docstring says).

    ## Fails

    ```yaml
    responses:
      - type: text
        content: hi
        when: {prompt_contains: weather, has_tool: search}
    ```

    ## Passes

    ```yaml
    responses:
      - type: text
        content: hi
        when: {prompt_contains: weather}
    ```
    """

    code = "SC008"
    name = "conflicting-predicates"
    kind = "script"
    severity = "warning"

    def problem(self, *, path: KeyPath, index: int, configured: Sequence[str]) -> Problem:
        """*configured* are the content predicates set, in the order the runtime consults them."""
        winner, *ignored = configured
        verb = "is" if len(ignored) == 1 else "are"
        return self.found(
            f"response #{index} sets {', '.join(configured)}; only {winner} is evaluated and "
            f"{' and '.join(ignored)} {verb} never consulted (predicates are not combined)",
            path,
            on_key=True,
        )


SC008 = ConflictingPredicates()
