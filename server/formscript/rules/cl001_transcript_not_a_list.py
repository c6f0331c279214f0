"""CL001 transcript-not-a-list: a calls transcript that is not a list."""

from __future__ import annotations

from formscript.core.printable import type_label
from formscript.core.verdict import Problem
from formscript.rules.base import Rule


class TranscriptNotAList(Rule):
    """A calls transcript that is not a list.

    ## Why

    A transcript is a list of calls: strings, {prompt, tools} or {payload} mappings.

    ## Fails

    ```yaml
    prompt: hello
    ```

    ## Passes

    ```yaml
    - hello
    ```
    """

    code = "CL001"
    name = "transcript-not-a-list"
    kind = "calls"
    severity = "error"
    rejects = True

    def problem(self, *, found: object) -> Problem:
        """The transcript is *found*."""
        return self.found(f"a calls transcript is a list of calls, found {type_label(found)}")


CL001 = TranscriptNotAList()
