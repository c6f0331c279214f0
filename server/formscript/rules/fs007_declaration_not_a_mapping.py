"""FS007 declaration-not-a-mapping: a field declaration is not a mapping."""

from __future__ import annotations

from formscript.core.printable import type_label
from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule


class DeclarationNotAMapping(Rule):
    """A field declaration is not a mapping.

    ## Why

    Each field is declared with a mapping (type, required, default, description); a bare type name
    is refused.

    ## Fails

    ```yaml
    fields:
      age: int
    ```

    ## Passes

    ```yaml
    fields:
      age: {type: int}
    values:
      age: 30
    ```
    """

    code = "FS007"
    name = "declaration-not-a-mapping"
    kind = "form"
    severity = "error"
    rejects = True

    def problem(self, *, path: KeyPath, key: object, found: object) -> Problem:
        """*key* is the field's name; *found* the declaration as loaded."""
        return self.found(
            f"field {key!r} must be declared with a mapping, found {type_label(found)}",
            path,
            field=key if isinstance(key, str) else None,
        )


FS007 = DeclarationNotAMapping()
