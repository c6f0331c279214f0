"""SC004 missing-entry-key: an entry lacks a key its type requires."""

from __future__ import annotations

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule


class MissingEntryKey(Rule):
    """An entry lacks a key its type requires.

    ## Why

    text needs content, tool_call needs name, structured needs data, stream needs chunks.

    ## Fails

    ```yaml
    responses:
      - {type: tool_call}
    ```

    ## Passes

    ```yaml
    responses:
      - {type: tool_call, name: search}
    ```
    """

    code = "SC004"
    name = "missing-entry-key"
    kind = "script"
    severity = "error"
    rejects = True

    def problem(self, *, path: KeyPath, index: int, response_type: str, key: object, within: str = "") -> Problem:
        """*path* is the mapping that lacks *key*: the entry, or the part of it *within* names
        (``chunks.0``, a stream chunk)."""
        owner = f"response #{index} ({response_type})" + (f": {within}" if within else "")
        return self.found(f"{owner} is missing required key {key!r}", path)


SC004 = MissingEntryKey()
