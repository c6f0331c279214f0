"""FS003 section-not-a-mapping: `fields` or `values` is present but is not a mapping."""

from __future__ import annotations

from formscript.core.printable import type_label
from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule


class SectionNotAMapping(Rule):
    """`fields` or `values` is present but is not a mapping.

    ## Why

    Both sections are mappings keyed by field name; a list (a common slip) is refused.

    ## Fails

    ```yaml
    fields:
      - age
    ```

    ## Passes

    ```yaml
    fields:
      age: {type: int}
    values:
      age: 30
    ```
    """

    code = "FS003"
    name = "section-not-a-mapping"
    kind = "form"
    severity = "error"
    rejects = True

    def problem(self, *, path: KeyPath, section: str, found: object) -> Problem:
        """*section* is 'fields' or 'values'; *found* its loaded value."""
        return self.found(f"{section!r} must be a mapping, found {type_label(found)}", path)


FS003 = SectionNotAMapping()
