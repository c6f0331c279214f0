"""RS009 duplicate-rule-id: two rules share a rule_id."""

from __future__ import annotations

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule


class DuplicateRuleId(Rule):
    """Two rules share a rule_id.

    ## Why

    RuleSet.add raises on a duplicate id.

    ## Fails

    ```yaml
    rules:
      - {rule_id: r1, field: age, check: required}
      - {rule_id: r1, field: name, check: required}
    ```

    ## Passes

    ```yaml
    rules:
      - {rule_id: r1, field: age, check: required}
      - {rule_id: r2, field: name, check: required}
    ```
    """

    code = "RS009"
    name = "duplicate-rule-id"
    kind = "rules"
    severity = "error"
    rejects = True

    def problem(self, *, path: KeyPath, rule_id: str, first: int) -> Problem:
        """*rule_id* is already used by rule #*first*."""
        return self.found(f"rule_id {rule_id!r} is already used by rule #{first}", path)


RS009 = DuplicateRuleId()
