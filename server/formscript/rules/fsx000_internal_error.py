"""FSX000 internal-error: formscript itself failed on this file: a bug of ours, not a problem of the file."""

from __future__ import annotations

from formscript.rules.base import Rule


class InternalError(Rule):
    """formscript itself failed on this file: a bug of ours, not a problem of the file.

    ## Why

    The failure is reported for that file, with the verdict validator_error, instead of crashing the
    run; the message names the exception. Please report it with the file. There is no example: no
    file should produce it.
    """

    code = "FSX000"
    name = "internal-error"
    kind = "any"
    severity = "error"
    offer_suppression = False
    has_examples = False

    def message(self, *, error: Exception) -> str:
        """The message for a file formscript failed on with *error*."""
        return f"formscript failed on this file ({type(error).__name__}: {error}); please report it"


FSX000 = InternalError()
