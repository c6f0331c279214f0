"""FS006 invalid-field-name: a field name that is not an identifier."""

from __future__ import annotations

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule


class InvalidFieldName(Rule):
    """A field name that is not an identifier.

    ## Why

    Names must start with a letter or underscore and hold only letters, digits and underscores; the
    runtime refuses the declaration otherwise.

    ## Fails

    ```yaml
    fields:
      first-name: {type: str}
    ```

    ## Passes

    ```yaml
    fields:
      first_name: {type: str}
    values:
      first_name: Ada
    ```
    """

    code = "FS006"
    name = "invalid-field-name"
    kind = "form"
    severity = "error"
    rejects = True

    def problem(self, *, path: KeyPath, key: object) -> Problem:
        """*key* is the field's name as written."""
        return self.found(
            f"field name {key!r} is not an identifier (letters, digits and underscores, not starting with a digit)",
            path,
            on_key=True,
        )


FS006 = InvalidFieldName()
