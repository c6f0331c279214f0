"""FS019 title-not-a-string: the title is not a string."""

from __future__ import annotations

from formscript.core.printable import type_label
from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule


class TitleNotAString(Rule):
    """The title is not a string.

    ## Why

    The title must be a string; numbers and null refuse the form. Without a title the runtime uses
    the spec's path as given on the command line.

    ## Fails

    ```yaml
    title: 2024
    fields:
      age: {type: int}
    values:
      age: 30
    ```

    ## Passes

    ```yaml
    title: '2024'
    fields:
      age: {type: int}
    values:
      age: 30
    ```
    """

    code = "FS019"
    name = "title-not-a-string"
    kind = "form"
    severity = "error"
    rejects = True

    def problem(self, *, path: KeyPath, title: object) -> Problem:
        """*title* is the loaded title."""
        return self.found(f"title must be a string, found {type_label(title)} {title!r}", path)


FS019 = TitleNotAString()
