"""SC003 unknown-entry-key: a key the entry, its matcher or a stream chunk does not accept."""

from __future__ import annotations

from collections.abc import Sequence

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule, did_you_mean, replace_with


class UnknownEntryKey(Rule):
    """A key the entry, its matcher or a stream chunk does not accept.

    ## Why

    Entries, matchers and chunks are closed models: a misspelt key refuses the script.

    ## Fails

    ```yaml
    responses:
      - type: text
        content: hi
        when: {prompt_contain: hello}
    ```

    ## Passes

    ```yaml
    responses:
      - type: text
        content: hi
        when: {prompt_contains: hello}
    ```
    """

    code = "SC003"
    name = "unknown-entry-key"
    kind = "script"
    severity = "error"
    rejects = True

    def problem(
        self,
        *,
        path: KeyPath,
        index: int,
        response_type: str,
        key: object,
        owner: str,
        allowed: Sequence[str],
        suggestion: str | None,
    ) -> Problem:
        """*key* is unknown in *owner* (the entry, its matcher or a chunk), which takes *allowed*."""
        return self.found(
            f"response #{index} ({response_type}): unknown key {key!r} in {owner}; "
            "expected one of " + ", ".join(allowed) + did_you_mean(suggestion),
            path,
            on_key=True,
            fix=replace_with(suggestion),
        )


SC003 = UnknownEntryKey()
