"""RS005 type-rule-mismatch: a type rule that disagrees with the field's declared type (with --form)."""

from __future__ import annotations

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule


class TypeRuleMismatch(Rule):
    """A type rule that disagrees with the field's declared type (with --form).

    ## Why

    Rules see coerced values, so a type rule other than the declared type fails on every value the
    field holds (a float rule on an int field is fine: an int passes it). A type rule naming no
    known type is RS014.

    ## Fails

    ```yaml
    rules:
      - {rule_id: r1, field: age, check: type, params: {type: str}}
    ```

    ## Passes

    ```yaml
    rules:
      - {rule_id: r1, field: age, check: type, params: {type: int}}
    ```
    """

    code = "RS005"
    name = "type-rule-mismatch"
    kind = "rules"
    severity = "warning"

    def problem(self, *, path: KeyPath, rule_id: str, expected: str, field: str, declared: str) -> Problem:
        """Rule *rule_id* expects *expected* of *field*, declared *declared*."""
        return self.found(
            f"rule {rule_id!r} expects {expected} but field {field!r} is declared {declared}; "
            "rules see the coerced value",
            path,
        )


RS005 = TypeRuleMismatch()
