"""SC012 empty-matcher: `when: {}` sets no condition, so the entry is positional."""

from __future__ import annotations

from formscript.core.verdict import KeyPath, Problem, RemoveKey
from formscript.rules.base import Rule


class EmptyMatcher(Rule):
    """`when: {}` sets no condition, so the entry is positional.

    ## Why

    An empty matcher is treated exactly like no matcher; drop it or add a condition. The fix removes
    it.

    ## Fails

    ```yaml
    responses:
      - {type: text, content: hi, when: {}}
    ```

    ## Passes

    ```yaml
    responses:
      - {type: text, content: hi}
    ```
    """

    code = "SC012"
    name = "empty-matcher"
    kind = "script"
    severity = "info"

    def problem(self, *, path: KeyPath, index: int) -> Problem:
        """*path* is response #*index*'s empty 'when'."""
        return self.found(
            f"response #{index} has an empty matcher, so it is positional",
            path,
            fix=RemoveKey(path, "remove the empty matcher", safe=True),
        )


SC012 = EmptyMatcher()
