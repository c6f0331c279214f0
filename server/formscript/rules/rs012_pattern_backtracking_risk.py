"""RS012 pattern-backtracking-risk: a pattern with nested quantifiers that can backtrack catastrophically."""

from __future__ import annotations

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule


class PatternBacktrackingRisk(Rule):
    """A pattern with nested quantifiers that can backtrack catastrophically.

    ## Why

    The 4,096-character cap bounds the input, not the pattern; `(a+)+$` can still take seconds.

    ## Fails

    ```yaml
    rules:
      - {rule_id: r1, field: name, check: pattern, params: {pattern: '(a+)+$'}}
    ```

    ## Passes

    ```yaml
    rules:
      - {rule_id: r1, field: name, check: pattern, params: {pattern: '^A[a-z]+$'}}
    ```
    """

    code = "RS012"
    name = "pattern-backtracking-risk"
    kind = "rules"
    severity = "warning"

    def problem(self, *, path: KeyPath, rule_id: str, pattern: str, risk: str) -> Problem:
        """*risk* names the construct that can backtrack."""
        return self.found(f"rule {rule_id!r} pattern {pattern!r} risks catastrophic backtracking: {risk}", path)


RS012 = PatternBacktrackingRisk()
