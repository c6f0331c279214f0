"""FS022 alias-bomb-in-values: values that expand to more than a million items through YAML aliases."""

from __future__ import annotations

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule


class AliasBombInValues(Rule):
    """Values that expand to more than a million items through YAML aliases.

    ## Why

    Anchors and aliases share one object, so loading stays cheap, but the context block is rendered
    with repr, which expands every alias: a few hundred bytes stand for millions of values. Such a
    block is always longer than the prompt cap, so li agent refuses the form (FS024, an error)
    after rendering it; this warning is about what the rendering costs: seconds and hundreds of
    megabytes for millions of values, all the memory for more. A value that contains itself
    (`&x [1, *x]`) is no bomb: repr writes the inner reference as `[...]`.

    ## Fails

    ```yaml
    fields:
      items: {type: list}
    values:
      items:
        - &a [x, x, x, x, x, x, x, x, x, x]
        - &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]
        - &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]
        - &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]
        - &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]
        - &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]
        - *f
    ```

    ## Passes

    ```yaml
    fields:
      items: {type: list}
    values:
      items:
        - &a [x, x]
        - *a
    ```
    """

    code = "FS022"
    name = "alias-bomb-in-values"
    kind = "form"
    severity = "warning"

    def problem(self, *, path: KeyPath, limit: int) -> Problem:
        """*limit* is the expansion formscript refuses to walk past."""
        return self.found(
            f"the values expand to more than {limit:,} items through YAML aliases: li agent renders them all "
            "into the context block before refusing it (FS024), which costs time and memory, and "
            "exhausts the memory when the expansion is large enough",
            path,
        )


FS022 = AliasBombInValues()
