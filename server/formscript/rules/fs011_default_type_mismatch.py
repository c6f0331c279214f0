"""FS011 default-type-mismatch: a default that is not already of the declared type."""

from __future__ import annotations

from formscript.core.printable import type_label
from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule


class DefaultTypeMismatch(Rule):
    """A default that is not already of the declared type.

    ## Why

    Defaults are checked with isinstance when the field is built and never coerced: `default: "5"`
    refuses an int field, while an int default is fine for a float field.

    ## Fails

    ```yaml
    fields:
      age: {type: int, default: '5'}
    ```

    ## Passes

    ```yaml
    fields:
      age: {type: int, default: 5}
    ```
    """

    code = "FS011"
    name = "default-type-mismatch"
    kind = "form"
    severity = "error"
    rejects = True

    def problem(self, *, path: KeyPath, key: object, declared: str, default: object) -> Problem:
        """*default* is the declared default, which is not an instance of *declared*."""
        article = "an" if declared == "int" else "a"
        return self.found(
            f"field {key!r} has default {default!r} ({type_label(default)}), which is not "
            f"{article} {declared}; defaults are checked as they are, never coerced",
            path,
            field=key if isinstance(key, str) else None,
        )


FS011 = DefaultTypeMismatch()
