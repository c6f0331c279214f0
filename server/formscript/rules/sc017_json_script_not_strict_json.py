"""SC017 json-script-not-strict-json: a script whose name does not end in .yaml/.yml but which is not strict JSON."""

from __future__ import annotations

from formscript.core.verdict import Problem
from formscript.rules.base import Rule


class JsonScriptNotStrictJson(Rule):
    """A script whose name does not end in .yaml/.yml but which is not strict JSON.

    ## Why

    The runtime reads every other suffix with json.load, so YAML syntax there is refused.

    ## Fails

    ```yaml
    responses:
      - {type: text, content: hi}
    ```

    ## Passes

    ```json
    {"responses": [{"type": "text", "content": "hi"}]}
    ```
    """

    code = "SC017"
    name = "json-script-not-strict-json"
    kind = "script"
    severity = "error"
    rejects = True
    example_name = "example.script.json"

    def problem(self) -> Problem:
        """The text is YAML the runtime will read with json.load."""
        return self.found(
            "this file is read with json.load because its name does not end in .yaml or .yml, "
            "and it is not strict JSON; rename it or write JSON"
        )


SC017 = JsonScriptNotStrictJson()
