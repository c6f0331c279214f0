"""FS017 bool-as-number: a boolean given to an int or float field."""

from __future__ import annotations

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule


class BoolAsNumber(Rule):
    """A boolean given to an int or float field.

    ## Why

    bool is an int in Python, so the runtime accepts `true` for an int field silently (and stores
    1.0 for a float field).

    ## Fails

    ```yaml
    fields:
      age: {type: int}
    values:
      age: true
    ```

    ## Passes

    ```yaml
    fields:
      age: {type: int}
    values:
      age: 1
    ```
    """

    code = "FS017"
    name = "bool-as-number"
    kind = "form"
    severity = "warning"

    def problem(self, *, path: KeyPath, field: str, declared: str, given: bool, stored: object) -> Problem:
        """*stored* is what the runtime keeps for the boolean *given*."""
        return self.found(
            f"field {field!r} is {declared} but gets the boolean {given!r}; the runtime "
            f"accepts it silently and stores {stored!r}",
            path,
            field=field,
        )


FS017 = BoolAsNumber()
