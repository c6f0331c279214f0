"""SC010 regex-backtracking-risk: a prompt_regex with nested quantifiers that can backtrack catastrophically."""

from __future__ import annotations

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule


class RegexBacktrackingRisk(Rule):
    """A prompt_regex with nested quantifiers that can backtrack catastrophically.

    ## Why

    Python's re backtracks; `(a+)+$` on a long non-matching prompt can hang a test run.

    ## Fails

    ```yaml
    responses:
      - type: text
        content: hi
        when: {prompt_regex: '(a+)+$'}
    ```

    ## Passes

    ```yaml
    responses:
      - type: text
        content: hi
        when: {prompt_regex: 'a+$'}
    ```
    """

    code = "SC010"
    name = "regex-backtracking-risk"
    kind = "script"
    severity = "warning"

    def problem(self, *, path: KeyPath, pattern: str, risk: str) -> Problem:
        """*risk* names the construct that can backtrack."""
        return self.found(f"prompt_regex {pattern!r} risks catastrophic backtracking: {risk}", path)


SC010 = RegexBacktrackingRisk()
