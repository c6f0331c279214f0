"""SC019 responses-not-a-list: `responses` is not a list."""

from __future__ import annotations

from formscript.core.printable import type_label
from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule


class ResponsesNotAList(Rule):
    """`responses` is not a list.

    ## Why

    ScriptModel needs a list of entries.

    ## Fails

    ```yaml
    responses:
      type: text
    ```

    ## Passes

    ```yaml
    responses:
      - {type: text, content: hi}
    ```
    """

    code = "SC019"
    name = "responses-not-a-list"
    kind = "script"
    severity = "error"
    rejects = True

    def problem(self, *, path: KeyPath, found: object) -> Problem:
        """'responses' is *found*."""
        return self.found(f"'responses' must be a list of entries, found {type_label(found)}", path)


SC019 = ResponsesNotAList()
