"""FS005 undeclared-value: a key in `values` has no declaration in `fields`."""

from __future__ import annotations

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule, did_you_mean, replace_with


class UndeclaredValue(Rule):
    """A key in `values` has no declaration in `fields`.

    ## Why

    The gate refuses undeclared values; it is usually a typo of a declared name.

    ## Fails

    ```yaml
    fields:
      age: {type: int}
    values:
      aeg: 7
    ```

    ## Passes

    ```yaml
    fields:
      age: {type: int}
    values:
      age: 7
    ```
    """

    code = "FS005"
    name = "undeclared-value"
    kind = "form"
    severity = "error"
    rejects = True

    def problem(self, *, path: KeyPath, key: object, suggestion: str | None) -> Problem:
        """*key* is the undeclared value's key; *suggestion* the declared name it is likely a typo of."""
        return self.found(
            f"value {key!r} has no field declaration" + did_you_mean(suggestion),
            path,
            on_key=True,
            field=key if isinstance(key, str) else None,
            fix=replace_with(suggestion),
        )


FS005 = UndeclaredValue()
