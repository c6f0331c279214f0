"""RS001 unknown-check-kind: a rule check other than required, type, range, pattern and custom."""

from __future__ import annotations

from collections.abc import Sequence

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule, did_you_mean, replace_with


class UnknownCheckKind(Rule):
    """A rule check other than required, type, range, pattern and custom.

    ## Why

    Rule validates `check` against exactly these kinds.

    ## Fails

    ```yaml
    rules:
      - {rule_id: r1, field: age, check: ranges}
    ```

    ## Passes

    ```yaml
    rules:
      - {rule_id: r1, field: age, check: range, params: {min: 0}}
    ```
    """

    code = "RS001"
    name = "unknown-check-kind"
    kind = "rules"
    severity = "error"
    rejects = True

    def problem(
        self, *, path: KeyPath, index: int, given: object, kinds: Sequence[str], suggestion: str | None
    ) -> Problem:
        """Rule #*index* names the unknown check *given*; *kinds* are the check kinds."""
        return self.found(
            f"rule #{index} has unknown check {given!r}; expected one of "
            + ", ".join(kinds)
            + did_you_mean(suggestion),
            path,
            fix=replace_with(suggestion),
        )


RS001 = UnknownCheckKind()
