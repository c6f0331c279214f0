"""FS014 uncoercible-value: a value that cannot be turned into its field's type."""

from __future__ import annotations

from typing import TYPE_CHECKING

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule

if TYPE_CHECKING:
    from formscript.core.verdict import Failure


class UncoercibleValue(Rule):
    """A value that cannot be turned into its field's type.

    ## Why

    Coercion accepts instances, int for float, numeric strings for int/float and true/1/yes,
    false/0/no for bool; anything else fails validation.

    ## Fails

    ```yaml
    fields:
      age: {type: int}
    values:
      age: thirty
    ```

    ## Passes

    ```yaml
    fields:
      age: {type: int}
    values:
      age: 30
    ```
    """

    code = "FS014"
    name = "uncoercible-value"
    kind = "form"
    severity = "error"
    rejects = True

    def problem(self, *, path: KeyPath, failure: Failure) -> Problem:
        """*failure* is the field's validation failure, whose message is kept as it is."""
        return self.found(failure.message, path, field=failure.field)


FS014 = UncoercibleValue()
