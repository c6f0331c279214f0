"""RS010 custom-check: a custom check in a ruleset file always fails (no file can give it a callable)."""

from __future__ import annotations

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule


class CustomCheck(Rule):
    """A custom check in a ruleset file always fails.

    ## Why

    A custom check calls `params['callable']` on the value. A file cannot hold a callable: without
    one (or with null) the rule fails ("requires params['callable']"), and with a string or a
    number the call raises TypeError, which the rule reports as its failure. So every form the ruleset is applied
    to ends in status error (with `--form`, RS100 says so for that form). A disabled rule
    (`enabled: false`) never runs and is not reported.

    ## Fails

    ```yaml
    rules:
      - {rule_id: r1, field: age, check: custom}
    ```

    ## Passes

    ```yaml
    rules:
      - {rule_id: r1, field: age, check: required}
    ```
    """

    code = "RS010"
    name = "custom-check"
    kind = "rules"
    severity = "error"

    def problem(self, *, path: KeyPath, rule_id: str) -> Problem:
        """Rule *rule_id* is an enabled custom check."""
        return self.found(
            f"rule {rule_id!r} is a custom check; a file cannot give it a callable, so it fails on every "
            "form it is applied to",
            path,
        )


RS010 = CustomCheck()
