"""RS006 invalid-pattern: a pattern rule whose regex (or flags) does not compile."""

from __future__ import annotations

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule


class InvalidPattern(Rule):
    """A pattern rule whose regex (or flags) does not compile.

    ## Why

    The rule then always fails with an invalid-pattern error.

    ## Fails

    ```yaml
    rules:
      - {rule_id: r1, field: name, check: pattern, params: {pattern: '[a-'}}
    ```

    ## Passes

    ```yaml
    rules:
      - {rule_id: r1, field: name, check: pattern, params: {pattern: '[A-Z][a-z]+'}}
    ```
    """

    code = "RS006"
    name = "invalid-pattern"
    kind = "rules"
    severity = "error"

    def problem(self, *, path: KeyPath, rule_id: str, pattern: object, error: Exception) -> Problem:
        """*error* is why *pattern* does not compile."""
        return self.found(f"rule {rule_id!r} has an invalid pattern {pattern!r} ({error})", path)


RS006 = InvalidPattern()
