"""RS101 rule-raises: applying the rules to the paired form's values raises (with --form)."""

from __future__ import annotations

from formscript.core.verdict import Problem
from formscript.rules.base import Rule


class RuleRaises(Rule):
    """Applying the rules to the paired form's values raises (with --form).

    ## Why

    Some rules make the runtime's own check raise instead of failing: a type rule whose type is not
    hashable, pattern flags that are not a number. fill_form then stops with that exception instead
    of an error status. Split from RS100.

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

    def problem(self, *, error: Exception) -> Problem:
        """*error* is what applying the rules raised."""
        return self.found(f"applying the rules raises {type(error).__name__}: {error}")


RS101 = RuleRaises()
