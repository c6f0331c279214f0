"""RS003 range-min-above-max: a range rule whose min is above its max."""

from __future__ import annotations

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule


class RangeMinAboveMax(Rule):
    """A range rule whose min is above its max.

    ## Why

    No value can pass such a rule.

    ## Fails

    ```yaml
    rules:
      - {rule_id: r1, field: age, check: range, params: {min: 10, max: 1}}
    ```

    ## Passes

    ```yaml
    rules:
      - {rule_id: r1, field: age, check: range, params: {min: 1, max: 100}}
    ```
    """

    code = "RS003"
    name = "range-min-above-max"
    kind = "rules"
    severity = "error"

    def problem(self, *, path: KeyPath, rule_id: str, low: float, high: float) -> Problem:
        """Rule *rule_id* has min *low* above max *high*."""
        return self.found(f"rule {rule_id!r} has min {low} above max {high}; no value passes", path)


RS003 = RangeMinAboveMax()
