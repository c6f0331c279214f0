"""RS101 rule-raises: applying the rules to the paired form's values raises (with --form)."""

from __future__ import annotations

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule


class RuleRaises(Rule):
    """Applying the rules to the paired form's values raises (with --form).

    ## Why

    Some rules make the runtime's own check raise instead of failing: a type rule whose type is not
    hashable, pattern flags that are not a number, a pattern that is not a string or that compiles
    with OverflowError, ValueError or RecursionError, a range bound that does not compare with the
    value. fill_form then stops with that exception instead of an error status. Rules run in order,
    so the first one that raises is reported. Split from RS100.

    ## Fails

    ```yaml
    rules:
      - {rule_id: r1, field: age, check: type, params: {type: [int]}}
    ```

    ## Passes

    ```yaml
    rules:
      - {rule_id: r1, field: age, check: type, params: {type: int}}
    ```
    """

    code = "RS101"
    name = "rule-raises"
    kind = "rules"
    severity = "error"
    rejects = True

    def problem(self, *, path: KeyPath, rule_id: str, error: Exception) -> Problem:
        """*error* is what applying rule *rule_id* (the first that raises) raised."""
        return self.found(
            f"applying rule {rule_id!r} raises {type(error).__name__}: {error}; fill_form stops there, "
            "before any model call",
            path,
            rule_id=rule_id,
        )


RS101 = RuleRaises()
