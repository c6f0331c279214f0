"""SC007 invalid-version: a version that is not an integer."""

from __future__ import annotations

from formscript.core.printable import type_label
from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule


class InvalidVersion(Rule):
    """A version that is not an integer.

    ## Why

    The version is an int (lax: '1' and 1.0 pass, 1.5 does not).

    ## Fails

    ```yaml
    version: v1
    responses:
      - {type: text, content: hi}
    ```

    ## Passes

    ```yaml
    version: 1
    responses:
      - {type: text, content: hi}
    ```
    """

    code = "SC007"
    name = "invalid-version"
    kind = "script"
    severity = "error"
    rejects = True

    def problem(self, *, path: KeyPath, given: object) -> Problem:
        """*given* is the version as loaded."""
        return self.found(f"version must be an integer, found {type_label(given)} {given!r}", path)


SC007 = InvalidVersion()
