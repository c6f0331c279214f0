"""FS008 unknown-declaration-key: a declaration key the runtime does not know."""

from __future__ import annotations

from collections.abc import Sequence

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule, did_you_mean, replace_with


class UnknownDeclarationKey(Rule):
    """A declaration key the runtime does not know.

    ## Why

    Declarations are closed: a misspelt key such as `requried` refuses the form instead of being
    ignored.

    ## Fails

    ```yaml
    fields:
      age: {type: int, requried: false}
    ```

    ## Passes

    ```yaml
    fields:
      age: {type: int, required: false}
    ```
    """

    code = "FS008"
    name = "unknown-declaration-key"
    kind = "form"
    severity = "error"
    rejects = True

    def problem(
        self, *, path: KeyPath, key: object, sub: object, allowed: Sequence[str], suggestion: str | None
    ) -> Problem:
        """*sub* is the unknown key in field *key*'s declaration; *allowed* the keys a declaration takes."""
        return self.found(
            f"field {key!r} has unknown key {sub!r}; a declaration takes "
            + ", ".join(allowed)
            + did_you_mean(suggestion),
            path,
            on_key=True,
            field=key if isinstance(key, str) else None,
            fix=replace_with(suggestion),
        )


FS008 = UnknownDeclarationKey()
