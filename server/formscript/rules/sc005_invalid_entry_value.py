"""SC005 invalid-entry-value: an entry value of the wrong type."""

from __future__ import annotations

from formscript.core.verdict import KeyPath, Problem, QuoteScalar
from formscript.rules.base import Rule


class InvalidEntryValue(Rule):
    """An entry value of the wrong type.

    ## Why

    For example content must be a string and arguments a mapping; the entry models refuse anything
    else. (A negative `delay_ms` is SC022.) Where the value is a plain YAML scalar that YAML 1.1
    reads as something else (`content: yes` is the boolean True, `name: 1.0` a number), the
    finding says so and its safe fix quotes the scalar, so the entry gets the text as written.

    ## Fails

    ```yaml
    responses:
      - {type: text, content: [hi]}
    ```

    ## Passes

    ```yaml
    responses:
      - {type: text, content: hi}
    ```
    """

    code = "SC005"
    name = "invalid-entry-value"
    kind = "script"
    severity = "error"
    rejects = True

    def problem(
        self, *, path: KeyPath, index: int, response_type: str, where: str, value: object, reason: str
    ) -> Problem:
        """*where* is the dotted location of the invalid *value* in response #*index*."""
        from formscript.core.expansion import explodes

        # an alias bomb is named, not printed (its repr would expand every alias)
        shown = f"<{type(value).__name__} of more than 10,000 values>" if explodes(value, 10_000) else repr(value)
        return self.found(f"response #{index} ({response_type}): {where} {shown} is invalid ({reason})", path)

    def misread(self, *, path: KeyPath, index: int, response_type: str, where: str, reading: str, text: str) -> Problem:
        """A string wanted at *where*, and the plain scalar *text* read as something else."""
        return self.found(
            f"response #{index} ({response_type}): {where}: {reading}; quote it to keep the text {text!r}",
            path,
            fix=QuoteScalar(path, text, True),
        )


SC005 = InvalidEntryValue()
