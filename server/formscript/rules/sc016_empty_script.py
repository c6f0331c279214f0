"""SC016 empty-script: the script has no responses."""

from __future__ import annotations

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule


class EmptyScript(Rule):
    """The script has no responses.

    ## Why

    The first call raises ScriptExhaustedError.

    ## Fails

    ```yaml
    responses: []
    ```

    ## Passes

    ```yaml
    responses:
      - {type: text, content: hi}
    ```
    """

    code = "SC016"
    name = "empty-script"
    kind = "script"
    severity = "warning"

    def problem(self, *, path: KeyPath) -> Problem:
        """*path* is 'responses' when the key is present."""
        return self.found("the script has no responses; the first call raises ScriptExhaustedError", path)


SC016 = EmptyScript()
