"""FS020 invalid-declaration-value: a declaration key with a value of the wrong type."""

from __future__ import annotations

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule


class InvalidDeclarationValue(Rule):
    """A declaration key with a value of the wrong type.

    ## Why

    `required` takes a boolean (pydantic also accepts yes/no/1/0 strings), `description` a string;
    `description: 5` refuses the field.

    ## Fails

    ```yaml
    fields:
      age: {type: int, description: 5}
    ```

    ## Passes

    ```yaml
    fields:
      age: {type: int, description: Age in years}
    values:
      age: 30
    ```
    """

    code = "FS020"
    name = "invalid-declaration-value"
    kind = "form"
    severity = "error"
    rejects = True

    def problem(self, *, path: KeyPath, key: object, sub: str, value: object, reason: str) -> Problem:
        """*sub* is the declaration key of field *key* whose *value* is invalid for *reason*."""
        return self.found(
            f"field {key!r}: {sub} {value!r} is invalid ({reason})", path, field=key if isinstance(key, str) else None
        )


FS020 = InvalidDeclarationValue()
