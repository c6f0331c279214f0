"""FS016 implicit-coercion: a string value the runtime converts to the field's type."""

from __future__ import annotations

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule


class ImplicitCoercion(Rule):
    """A string value the runtime converts to the field's type.

    ## Why

    `"7"` in an int field is stored as 7; the context block shows the converted value.

    ## Fails

    ```yaml
    fields:
      age: {type: int}
    values:
      age: '7'
    ```

    ## Passes

    ```yaml
    fields:
      age: {type: int}
    values:
      age: 7
    ```
    """

    code = "FS016"
    name = "implicit-coercion"
    kind = "form"
    severity = "info"

    def problem(self, *, path: KeyPath, field: str, given: str, declared: str, coerced: object) -> Problem:
        """*given* is the string value, *coerced* what the runtime stores for the *declared* type."""
        return self.found(
            f"{given!r} is a string; the runtime converts it to {declared} {coerced!r}", path, field=field
        )


FS016 = ImplicitCoercion()
