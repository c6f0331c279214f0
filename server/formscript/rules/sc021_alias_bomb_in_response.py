"""SC021 alias-bomb-in-response: structured data or tool arguments that expand to more than a million values through
YAML aliases."""

from __future__ import annotations

from formscript.core.expansion import SERVABLE_CHARACTERS
from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule


class AliasBombInResponse(Rule):
    """Structured data or tool arguments that expand to more than a million values through YAML
    aliases.

    ## Why

    The script loads cheaply, but serving the entry JSON-encodes every expanded value. lionagi
    does serve it — the encoding is finite — but a few hundred bytes of YAML can stand for
    megabytes of JSON written at every call, or, past 100 million characters, for more memory
    than a test run has. A value that contains itself (`&x {k: *x}`) is no bomb: json.dumps
    refuses it at once with ValueError (SC020).

    ## Fails

    ```yaml
    responses:
      - type: structured
        data:
          rows:
            - &r1 [ok, ok, ok, ok, ok, ok, ok, ok, ok, ok]
            - &r2 [*r1, *r1, *r1, *r1, *r1, *r1, *r1, *r1, *r1, *r1]
            - &r3 [*r2, *r2, *r2, *r2, *r2, *r2, *r2, *r2, *r2, *r2]
            - &r4 [*r3, *r3, *r3, *r3, *r3, *r3, *r3, *r3, *r3, *r3]
            - &r5 [*r4, *r4, *r4, *r4, *r4, *r4, *r4, *r4, *r4, *r4]
            - &r6 [*r5, *r5, *r5, *r5, *r5, *r5, *r5, *r5, *r5, *r5]
            - *r6
    ```

    ## Passes

    ```yaml
    responses:
      - type: structured
        data: {items: [1, 2]}
    ```
    """

    code = "SC021"
    name = "alias-bomb-in-response"
    kind = "script"
    severity = "warning"

    def problem(self, *, path: KeyPath, index: int, what: str, limit: int) -> Problem:
        """*what* is 'data' or 'arguments'; *limit* the expansion formscript refuses to walk past."""
        return self.found(
            f"response #{index}: the {what} expand to more than {limit:,} values through YAML aliases, and their JSON "
            f"to more than {SERVABLE_CHARACTERS:,} characters: serving it makes the runtime encode all of them, "
            "which may exhaust its memory",
            path,
        )

    def served(self, *, path: KeyPath, index: int, what: str, length: int) -> Problem:
        """The expansion's JSON is *length* characters: lionagi serves it, at a cost."""
        return self.found(
            f"response #{index}: the {what} expand to more than a million values through YAML aliases; lionagi "
            f"serves it, encoding {length:,} characters of JSON each time, which costs time and memory",
            path,
        )


SC021 = AliasBombInResponse()
