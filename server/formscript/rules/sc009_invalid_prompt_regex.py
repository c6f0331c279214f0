"""SC009 invalid-prompt-regex: a prompt_regex that does not compile."""

from __future__ import annotations

import re

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule, shorten


class InvalidPromptRegex(Rule):
    """A prompt_regex that does not compile.

    ## Why

    The script loads, but the first call that evaluates the matcher raises: re.error for a
    syntax error, OverflowError for a repeat count past 4,294,967,295, ValueError for
    incompatible inline flags (`(?a)(?u)`), RecursionError for groups nested too deep.

    ## Fails

    ```yaml
    responses:
      - type: text
        content: hi
        when: {prompt_regex: '(unclosed'}
    ```

    ## Passes

    ```yaml
    responses:
      - type: text
        content: hi
        when: {prompt_regex: '(closed)'}
    ```
    """

    code = "SC009"
    name = "invalid-prompt-regex"
    kind = "script"
    severity = "error"

    def problem(self, *, path: KeyPath, pattern: str, error: Exception) -> Problem:
        """*error* is why *pattern* does not compile."""
        raised = "re.error" if isinstance(error, re.error) else type(error).__name__
        return self.found(
            f"prompt_regex {shorten(pattern)} does not compile ({error}); the call that evaluates it raises {raised}",
            path,
        )


SC009 = InvalidPromptRegex()
