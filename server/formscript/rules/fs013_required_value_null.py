"""FS013 required-value-null: a required field whose value is null."""

from __future__ import annotations

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule


class RequiredValueNull(Rule):
    """A required field whose value is null.

    ## Why

    The runtime treats null as missing. Note that YAML reads `~`, `null` and an empty value as null.

    ## Fails

    ```yaml
    fields:
      age: {type: int}
    values:
      age: ~
    ```

    ## Passes

    ```yaml
    fields:
      age: {type: int}
    values:
      age: 30
    ```
    """

    code = "FS013"
    name = "required-value-null"
    kind = "form"
    severity = "error"
    rejects = True

    def problem(self, *, path: KeyPath, field: str) -> Problem:
        """*path* is the null value."""
        return self.found(f"required field {field!r} is null; the runtime treats null as missing", path, field=field)


FS013 = RequiredValueNull()
