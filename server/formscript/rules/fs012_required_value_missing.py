"""FS012 required-value-missing: a required field with no value and no default."""

from __future__ import annotations

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule


class RequiredValueMissing(Rule):
    """A required field with no value and no default.

    ## Why

    Fields are required unless `required: false`; with no value and no default the form fails
    validation and no model call is made.

    ## Fails

    ```yaml
    fields:
      age: {type: int}
    values: {}
    ```

    ## Passes

    ```yaml
    fields:
      age: {type: int, default: 30}
    ```
    """

    code = "FS012"
    name = "required-value-missing"
    kind = "form"
    severity = "error"
    rejects = True

    def problem(self, *, path: KeyPath, field: str) -> Problem:
        """*path* is the field's declaration key."""
        return self.found(f"required field {field!r} has no value and no default", path, on_key=True, field=field)


FS012 = RequiredValueMissing()
