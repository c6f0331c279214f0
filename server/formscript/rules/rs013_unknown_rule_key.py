"""RS013 unknown-rule-key: a rule key the runtime does not know; it is silently dropped."""

from __future__ import annotations

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule, did_you_mean, replace_with


class UnknownRuleKey(Rule):
    """A rule key the runtime does not know; it is silently dropped.

    ## Why

    Rule ignores unknown keys instead of refusing them, so a misspelt `mesage:` or `enable:` never
    takes effect.

    ## Fails

    ```yaml
    rules:
      - {rule_id: r1, field: age, check: required, mesage: Age is needed}
    ```

    ## Passes

    ```yaml
    rules:
      - {rule_id: r1, field: age, check: required, message: Age is needed}
    ```
    """

    code = "RS013"
    name = "unknown-rule-key"
    kind = "rules"
    severity = "warning"

    def problem(self, *, path: KeyPath, rule_id: str, key: object, suggestion: str | None) -> Problem:
        """Rule *rule_id* has the unknown key *key*."""
        return self.found(
            f"rule {rule_id!r} has unknown key {key!r}, which the runtime silently drops" + did_you_mean(suggestion),
            path,
            on_key=True,
            fix=replace_with(suggestion),
        )


RS013 = UnknownRuleKey()
