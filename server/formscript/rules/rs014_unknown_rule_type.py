"""RS014 unknown-rule-type: a type rule naming a type other than str, int, float, bool, list and dict."""

from __future__ import annotations

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule, did_you_mean


class UnknownRuleType(Rule):
    """A type rule naming a type other than str, int, float, bool, list and dict.

    ## Why

    The rule then fails with an unknown-type error on every value that is present (a missing value
    skips type rules). Split from RS005, which now covers only a type rule that disagrees with the
    declared type.

    ## Fails

    ```yaml
    rules:
      - {rule_id: r1, field: age, check: type, params: {type: integer}}
    ```

    ## Passes

    ```yaml
    rules:
      - {rule_id: r1, field: age, check: type, params: {type: int}}
    ```
    """

    code = "RS014"
    name = "unknown-rule-type"
    kind = "rules"
    severity = "warning"

    def problem(self, *, path: KeyPath, rule_id: str, given: object, suggestion: str | None) -> Problem:
        """Rule *rule_id* names the type *given*."""
        return self.found(f"rule {rule_id!r} names unknown type {given!r}" + did_you_mean(suggestion), path)


RS014 = UnknownRuleType()
