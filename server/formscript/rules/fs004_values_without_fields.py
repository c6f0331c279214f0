"""FS004 values-without-fields: `values` has entries but no fields are declared."""

from __future__ import annotations

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule


class ValuesWithoutFields(Rule):
    """`values` has entries but no fields are declared.

    ## Why

    The gate refuses values it cannot validate, so that unchecked text never reaches the model.

    ## Fails

    ```yaml
    values:
      age: 7
    ```

    ## Passes

    ```yaml
    fields:
      age: {type: int}
    values:
      age: 7
    ```
    """

    code = "FS004"
    name = "values-without-fields"
    kind = "form"
    severity = "error"
    rejects = True

    def problem(self, *, path: KeyPath) -> Problem:
        """*path* is the 'values' key."""
        return self.found(
            "'values' has entries but no fields are declared, so nothing would validate them", path, on_key=True
        )


FS004 = ValuesWithoutFields()
