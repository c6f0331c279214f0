"""RS011 invalid-rule: a ruleset or rule of the wrong shape (missing rule_id, field or check; wrong types)."""

from __future__ import annotations

from formscript.core.printable import type_label
from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule


class InvalidRule(Rule):
    """A ruleset or rule of the wrong shape (missing rule_id, field or check; wrong types).

    ## Why

    A ruleset file is a mapping with `rules:`, a list of Rule mappings; it is loaded by building
    `Rule(**m)` for each item and adding it to a RuleSet. Whatever that raises stops the program
    before any model call: no `rules:` (KeyError), `rules:` that is not a list or a rule that is
    not a mapping (TypeError), a key that is not a string (TypeError: keywords must be strings),
    a missing or wrongly typed value (pydantic's ValidationError).

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
        if isinstance(found, dict):
            return self.found("a ruleset is a mapping with 'rules:', a list of rules; this mapping has no 'rules'")
        return self.found(f"a ruleset is a mapping with 'rules:', a list of rules, found {type_label(found)}")

    def rules_not_a_list(self, *, path: KeyPath, found: object) -> Problem:
        """'rules' is *found*, not a list (iterating it gives no rule mappings)."""
        # Written as a bare 'rules:', the value has no text to point at: the key stands for it.
        return self.found(f"'rules' must be a list of rules, found {type_label(found)}", path, on_key=found is None)

    def non_string_key(self, *, path: KeyPath, index: int, key: object) -> Problem:
        """Rule #*index* has the key *key*, which is not a string."""
        return self.found(
            f"rule #{index} has the key {key!r}, which is not a string; Rule(**m) raises TypeError",
            path,
            on_key=True,
        )

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
