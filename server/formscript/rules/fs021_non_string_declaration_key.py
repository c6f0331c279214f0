"""FS021 non-string-declaration-key: a declaration key that is not a string."""

from __future__ import annotations

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule


class NonStringDeclarationKey(Rule):
    """A declaration key that is not a string.

    ## Why

    The declaration is passed as keyword arguments, which must be strings; YAML turns `yes:` or `1:`
    into a bool or an int.

    ## Fails

    ```yaml
    fields:
      age: {type: int, 1: x}
    ```

    ## Passes

    ```yaml
    fields:
      age: {type: int}
    values:
      age: 30
    ```
    """

    code = "FS021"
    name = "non-string-declaration-key"
    kind = "form"
    severity = "error"
    rejects = True

    def problem(self, *, path: KeyPath, key: object, sub: object) -> Problem:
        """*sub* is the non-string key in field *key*'s declaration."""
        return self.found(f"field {key!r} has a non-string key {sub!r} in its declaration", path, on_key=True)


FS021 = NonStringDeclarationKey()
