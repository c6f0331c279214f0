"""RS006 invalid-pattern: a pattern rule whose regex (or flags) does not compile."""

from __future__ import annotations

import re

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule, shorten


class InvalidPattern(Rule):
    """A pattern rule whose regex (or flags) does not compile.

    ## Why

    A pattern with a syntax error (re.error) makes the rule fail on every string value with an
    invalid-pattern error. Flags that are not a number, a pattern that is not a string, or one
    whose compiling raises OverflowError, ValueError or RecursionError make applying the rule
    raise instead, which stops fill_form (RS101 with `--form`).

    ## Fails

    ```yaml
    rules:
      - {rule_id: r1, field: name, check: pattern, params: {pattern: '[a-'}}
    ```

    ## Passes

    ```yaml
    rules:
      - {rule_id: r1, field: name, check: pattern, params: {pattern: '[A-Z][a-z]+'}}
    ```
    """

    code = "RS006"
    name = "invalid-pattern"
    kind = "rules"
    severity = "error"

    def problem(self, *, path: KeyPath, rule_id: str, pattern: object, error: Exception) -> Problem:
        """*error* is why *pattern* (or its flags) does not compile."""
        if isinstance(error, re.error):
            effect = "the rule fails on every string value"
        else:
            effect = f"applying the rule to a string value raises {type(error).__name__}"
        return self.found(f"rule {rule_id!r} has an invalid pattern {shorten(pattern)} ({error}); {effect}", path)


RS006 = InvalidPattern()
