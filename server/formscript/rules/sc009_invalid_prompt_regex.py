"""SC009 invalid-prompt-regex: a prompt_regex that does not compile."""

from __future__ import annotations

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule


class InvalidPromptRegex(Rule):
    """A prompt_regex that does not compile.

    ## Why

    The script loads, but the first call that evaluates the matcher raises re.error.

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
        return self.found(
            f"prompt_regex {pattern!r} does not compile ({error}); the call that evaluates it raises re.error", path
        )


SC009 = InvalidPromptRegex()
