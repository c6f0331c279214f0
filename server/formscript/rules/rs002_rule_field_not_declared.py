"""RS002 rule-field-not-declared: a rule names a field the paired form does not declare (with --form)."""

from __future__ import annotations

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule, did_you_mean


class RuleFieldNotDeclared(Rule):
    """A rule names a field the paired form does not declare (with --form).

    ## Why

    The rule reads values.get(field); for an undeclared field it always sees None.

    ## Fails

    ```yaml
    rules:
      - {rule_id: r1, field: agee, check: required}
    ```

    ## Passes

    ```yaml
    rules:
      - {rule_id: r1, field: age, check: required}
    ```
    """

    code = "RS002"
    name = "rule-field-not-declared"
    kind = "rules"
    severity = "warning"

    def problem(self, *, path: KeyPath, rule_id: str, field: str, suggestion: str | None) -> Problem:
        """Rule *rule_id* checks *field*, which the form does not declare."""
        return self.found(
            f"rule {rule_id!r} checks field {field!r}, which the form does not declare" + did_you_mean(suggestion), path
        )


RS002 = RuleFieldNotDeclared()
