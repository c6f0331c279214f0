"""FS025 value-crashes-runtime: a value the runtime cannot convert or write out, so the run stops."""

from __future__ import annotations

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule


class ValueCrashesRuntime(Rule):
    """A value the runtime cannot convert or write out, so ``li agent`` stops before the model call.

    ## Why

    Python refuses to write an int of more than 4,300 decimal digits as text, and to turn an
    int above about 1.8e308 into a float. YAML loads such ints from hex, octal or binary
    literals (``0xfff…``), and the form passes every check until the runtime meets the value:
    filling a float field raises OverflowError, a coercion message or the context block's
    repr raises ValueError. Either way the run ends with an error and no model call.

    ## Fails

    ```yaml
    fields:
      limit: {type: float}
    values:
      limit: 0x10000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000
    ```

    ## Passes

    ```yaml
    fields:
      limit: {type: float}
    values:
      limit: 1.0e+300
    ```
    """  # noqa: E501 (the failing example's value must be long)

    code = "FS025"
    name = "value-crashes-runtime"
    kind = "form"
    severity = "error"
    rejects = True

    def filling(
        self, *, path: KeyPath, field: object, error: Exception, stops: str = "li agent stops before the model call"
    ) -> Problem:
        """Coercing *field*'s value raises *error* inside fill_form (*stops*: what that stops)."""
        return self.found(
            f"the runtime raises while it fills field {field!r} ({_what(error)}); {stops}",
            path,
            field=field if isinstance(field, str) else None,
        )

    def rendering(self, *, path: KeyPath, key: object, error: Exception) -> Problem:
        """Writing *key*'s line of the context block raises *error*."""
        return self.found(
            f"the runtime cannot write the value of {key!r} into the context block ({_what(error)}); "
            "li agent stops before the model call",
            path,
            field=key if isinstance(key, str) else None,
        )


def _what(error: Exception) -> str:
    if isinstance(error, OverflowError):
        return "OverflowError: the int is too large for a float"
    if isinstance(error, ValueError) and "digits" in str(error):
        return "ValueError: an int of more than 4,300 digits cannot be written in decimal"
    return f"{type(error).__name__}: {error}"


FS025 = ValueCrashesRuntime()
