"""SC018 entry-not-a-mapping: a response entry that is not a mapping."""

from __future__ import annotations

from formscript.core.printable import type_label
from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule


class EntryNotAMapping(Rule):
    """A response entry that is not a mapping.

    ## Why

    Entries are mappings with a `type`; a bare string is refused.

    ## Fails

    ```yaml
    responses:
      - hello
    ```

    ## Passes

    ```yaml
    responses:
      - {type: text, content: hello}
    ```
    """

    code = "SC018"
    name = "entry-not-a-mapping"
    kind = "script"
    severity = "error"
    rejects = True

    def problem(self, *, path: KeyPath, index: int, found: object) -> Problem:
        """Response #*index* is *found*."""
        return self.found(f"response #{index} must be a mapping with a 'type', found {type_label(found)}", path)


SC018 = EntryNotAMapping()
