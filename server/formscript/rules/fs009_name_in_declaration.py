"""FS009 name-in-declaration: a declaration carries its own `name` key."""

from __future__ import annotations

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule


class NameInDeclaration(Rule):
    """A declaration carries its own `name` key.

    ## Why

    The mapping key is the field's name; the runtime passes it as `name` and a second `name` makes
    the declaration fail.

    ## Fails

    ```yaml
    fields:
      age: {name: age, type: int}
    ```

    ## Passes

    ```yaml
    fields:
      age: {type: int}
    values:
      age: 30
    ```
    """

    code = "FS009"
    name = "name-in-declaration"
    kind = "form"
    severity = "error"
    rejects = True

    def problem(self, *, path: KeyPath, key: object) -> Problem:
        """*key* is the field whose declaration has a 'name'."""
        return self.found(
            f"field {key!r} declares 'name'; the name is the mapping key, and a second "
            "one makes the runtime refuse the declaration",
            path,
            on_key=True,
        )


FS009 = NameInDeclaration()
