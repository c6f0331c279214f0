"""RS011 invalid-rule: a ruleset or rule of the wrong shape (missing rule_id, field or check; wrong types)."""

from __future__ import annotations

from formscript.core.fields import type_label
from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule, did_you_mean


class InvalidRule(Rule):
    """A ruleset or rule of the wrong shape (missing rule_id, field or check; wrong types).

    ## Why

    A ruleset file is a mapping with `rules:`, a list of Rule mappings.

    ## Fails

    ```yaml
    rules:
      - {field: age, check: required}
    ```

    ## Passes

    ```yaml
    rules:
      - {rule_id: r1, field: age, check: required}
    ```
    """

    code = "RS011"
    name = "invalid-rule"
    kind = "rules"
    severity = "error"
    rejects = True

    def not_a_ruleset(self, *, found: object) -> Problem:
        """The file is *found*, not a mapping with a 'rules' list."""
        return self.found(f"a ruleset is a mapping with 'rules:', a list of rules, found {type_label(found)}")

    def unknown_key(self, *, path: KeyPath, key: object, suggestion: str | None) -> Problem:
        """*key* is a top-level key other than 'rules'."""
        return self.found(f"unknown top-level key {key!r} in a ruleset" + did_you_mean(suggestion), path, on_key=True)

    def not_a_mapping(self, *, path: KeyPath, index: int, found: object) -> Problem:
        """Rule #*index* is *found*."""
        return self.found(f"rule #{index} must be a mapping, found {type_label(found)}", path)

    def missing(self, *, path: KeyPath, index: int, key: object) -> Problem:
        """Rule #*index* lacks *key*."""
        return self.found(f"rule #{index} is missing {key!r}", path)

    def invalid(self, *, path: KeyPath, index: int, where: str, reason: str) -> Problem:
        """The value at *where* (dotted) in rule #*index* is invalid for *reason*."""
        return self.found(f"rule #{index}: {where} is invalid ({reason})", path)


RS011 = InvalidRule()
