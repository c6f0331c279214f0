"""RS015 unknown-ruleset-key: a top-level key beside `rules:`, which loading a ruleset ignores."""

from __future__ import annotations

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule, did_you_mean, replace_with


class UnknownRulesetKey(Rule):
    """A top-level key beside `rules:`, which loading a ruleset ignores.

    ## Why

    A ruleset is loaded by building `Rule(**m)` for each item of `rules:`; nothing else in the
    file is read, so a `version:` or `name:` beside it has no effect (and a misspelt `rule:`
    leaves the file without rules). Split from RS011: the rules still build and apply.

    ## Fails

    ```yaml
    version: 2
    rules:
      - {rule_id: r1, field: age, check: required}
    ```

    ## Passes

    ```yaml
    # version 2 of the intake rules
    rules:
      - {rule_id: r1, field: age, check: required}
    ```
    """

    code = "RS015"
    name = "unknown-ruleset-key"
    kind = "rules"
    severity = "warning"

    def problem(self, *, path: KeyPath, key: object, suggestion: str | None) -> Problem:
        """*key* is a top-level key other than 'rules'."""
        return self.found(
            f"top-level key {key!r} is ignored: loading a ruleset reads only 'rules'" + did_you_mean(suggestion),
            path,
            on_key=True,
            fix=replace_with(suggestion),
        )


RS015 = UnknownRulesetKey()
