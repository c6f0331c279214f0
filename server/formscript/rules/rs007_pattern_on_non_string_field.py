"""RS007 pattern-on-non-string-field: a pattern rule on a field declared other than str (with --form)."""

from __future__ import annotations

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule


class PatternOnNonStringField(Rule):
    """A pattern rule on a field declared other than str (with --form).

    ## Why

    Pattern checks fail on any non-string value.

    ## Fails

    ```yaml
    rules:
      - {rule_id: r1, field: age, check: pattern, params: {pattern: '^1'}}
    ```

    ## Passes

    ```yaml
    rules:
      - {rule_id: r1, field: name, check: pattern, params: {pattern: '^A'}}
    ```
    """

    code = "RS007"
    name = "pattern-on-non-string-field"
    kind = "rules"
    severity = "warning"

    def problem(self, *, path: KeyPath, rule_id: str, field: str, declared: str) -> Problem:
        """Rule *rule_id* pattern-checks *field*, declared *declared*."""
        return self.found(f"rule {rule_id!r} pattern-checks field {field!r}, declared {declared}", path)


RS007 = PatternOnNonStringField()
