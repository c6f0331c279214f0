"""RS004 range-on-non-numeric-field: a range rule on a field declared str, list or dict (with --form)."""

from __future__ import annotations

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule


class RangeOnNonNumericField(Rule):
    """A range rule on a field declared str, list or dict (with --form).

    ## Why

    Range checks fail on any non-numeric value (bool counts as numeric).

    ## Fails

    ```yaml
    rules:
      - {rule_id: r1, field: name, check: range, params: {min: 1}}
    ```

    ## Passes

    ```yaml
    rules:
      - {rule_id: r1, field: age, check: range, params: {min: 1}}
    ```
    """

    code = "RS004"
    name = "range-on-non-numeric-field"
    kind = "rules"
    severity = "warning"

    def problem(self, *, path: KeyPath, rule_id: str, field: str, declared: str) -> Problem:
        """Rule *rule_id* range-checks *field*, declared *declared*."""
        return self.found(f"rule {rule_id!r} range-checks field {field!r}, declared {declared}", path)


RS004 = RangeOnNonNumericField()
