"""FS001 unknown-top-level-key: a form spec key other than title, fields and values."""

from __future__ import annotations

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule, did_you_mean, replace_with


class UnknownTopLevelKey(Rule):
    """A form spec key other than title, fields and values.

    ## Why

    `li agent --form` has a closed schema: any other top-level key refuses the whole form.

    ## Fails

    ```yaml
    title: Review
    feilds:
      age: {type: int}
    ```

    ## Passes

    ```yaml
    title: Review
    fields:
      age: {type: int}
    values:
      age: 30
    ```
    """

    code = "FS001"
    name = "unknown-top-level-key"
    kind = "form"
    severity = "error"
    rejects = True

    def problem(self, *, path: KeyPath, key: object, suggestion: str | None) -> Problem:
        """*key* is the unknown key; *suggestion* the allowed key it is likely a typo of."""
        return self.found(
            f"unknown top-level key {key!r}; a form spec has only title, fields and values" + did_you_mean(suggestion),
            path,
            on_key=True,
            fix=replace_with(suggestion),
        )


FS001 = UnknownTopLevelKey()
