"""SC001 invalid-script-top-level: the script is not a mapping, or has a key other than version, mode and responses."""

from __future__ import annotations

from formscript.core.printable import type_label
from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule, did_you_mean, replace_with


class InvalidScriptTopLevel(Rule):
    """The script is not a mapping, or has a key other than version, mode and responses.

    ## Why

    ScriptModel forbids extra keys, so a misspelt `response:` refuses the script.

    ## Fails

    ```yaml
    responses:
      - {type: text, content: hi}
    modes: auto
    ```

    ## Passes

    ```yaml
    responses:
      - {type: text, content: hi}
    mode: auto
    ```
    """

    code = "SC001"
    name = "invalid-script-top-level"
    kind = "script"
    severity = "error"
    rejects = True

    def not_a_mapping(self, *, found: object) -> Problem:
        """The script's top level is *found*, not a mapping."""
        return self.found(f"a script must be a mapping with 'responses' at the top level, found {type_label(found)}")

    def unknown_key(self, *, path: KeyPath, key: object, suggestion: str | None) -> Problem:
        """*key* is a top-level key other than version, mode and responses."""
        return self.found(
            f"unknown top-level key {key!r}; a script has version, mode and responses" + did_you_mean(suggestion),
            path,
            on_key=True,
            fix=replace_with(suggestion),
        )


SC001 = InvalidScriptTopLevel()
