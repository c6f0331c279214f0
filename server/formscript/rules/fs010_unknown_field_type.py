"""FS010 unknown-field-type: a field type other than str, int, float, bool, list and dict."""

from __future__ import annotations

from collections.abc import Sequence

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule, did_you_mean, replace_with


class UnknownFieldType(Rule):
    """A field type other than str, int, float, bool, list and dict.

    ## Why

    The runtime knows exactly six type names; anything else refuses the declaration.

    ## Fails

    ```yaml
    fields:
      age: {type: integer}
    ```

    ## Passes

    ```yaml
    fields:
      age: {type: int}
    values:
      age: 30
    ```
    """

    code = "FS010"
    name = "unknown-field-type"
    kind = "form"
    severity = "error"
    rejects = True

    def problem(
        self, *, path: KeyPath, key: object, given: object, types: Sequence[str], suggestion: str | None
    ) -> Problem:
        """*given* is the declared type as written; *types* the type names the runtime knows."""
        return self.found(
            f"field {key!r} has unknown type {given!r}; expected one of " + ", ".join(types) + did_you_mean(suggestion),
            path,
            field=key if isinstance(key, str) else None,
            fix=replace_with(suggestion),
        )


FS010 = UnknownFieldType()
