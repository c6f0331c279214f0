"""RS100 rule-fails: a rule fails on the paired form's values (dry runs and --form)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule

if TYPE_CHECKING:
    from formscript.core.verdict import Failure


class RuleFails(Rule):
    """A rule fails on the paired form's values (dry runs and --form).

    ## Why

    fill_form appends rule errors after field errors and the form ends in status error.

    ## Fails

    ```yaml
    rules:
      - {rule_id: r1, field: age, check: range, params: {max: 5}}
    ```

    ## Passes

    ```yaml
    rules:
      - {rule_id: r1, field: age, check: range, params: {max: 50}}
    ```
    """

    code = "RS100"
    name = "rule-fails"
    kind = "rules"
    severity = "error"
    rejects = True

    def problem(self, *, path: KeyPath, failure: Failure) -> Problem:
        """*failure* is the rule's failure, whose message is kept as it is."""
        return self.found(failure.message, path, field=failure.field, rule_id=failure.rule_id)


RS100 = RuleFails()
