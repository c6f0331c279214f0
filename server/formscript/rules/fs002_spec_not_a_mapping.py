"""FS002 spec-not-a-mapping: the form spec's top level is not a mapping."""

from __future__ import annotations

from formscript.core.printable import type_label
from formscript.core.verdict import Problem
from formscript.rules.base import Rule


class SpecNotAMapping(Rule):
    """The form spec's top level is not a mapping.

    ## Why

    The runtime needs a mapping with title, fields and values; a list or a scalar is refused.

    ## Fails

    ```yaml
    - age
    - name
    ```

    ## Passes

    ```yaml
    fields:
      age: {type: int}
    values:
      age: 30
    ```
    """

    code = "FS002"
    name = "spec-not-a-mapping"
    kind = "form"
    severity = "error"
    rejects = True

    def problem(self, *, found: object) -> Problem:
        """*found* is the loaded top-level value."""
        return self.found(f"a form spec must be a mapping at the top level, found {type_label(found)}")


FS002 = SpecNotAMapping()
