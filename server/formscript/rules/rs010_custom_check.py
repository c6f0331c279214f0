"""RS010 custom-check: a custom check cannot be decided from a file."""

from __future__ import annotations

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule


class CustomCheck(Rule):
    """A custom check cannot be decided from a file.

    ## Why

    Custom checks call a Python callable supplied at run time; from the file alone the verdict is
    insufficient_evidence.

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
    severity = "info"

    def problem(self, *, path: KeyPath, rule_id: str) -> Problem:
        """Rule *rule_id* is a custom check."""
        return self.found(
            f"rule {rule_id!r} is a custom check; its outcome depends on a Python callable "
            "and cannot be decided from the file",
            path,
        )


RS010 = CustomCheck()
