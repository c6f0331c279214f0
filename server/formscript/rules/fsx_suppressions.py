"""Suppression comments: one that suppresses nothing, one without a reason."""

from __future__ import annotations

from collections.abc import Sequence

from formscript.rules.base import Rule


class UnusedSuppression(Rule):
    """A `# formscript: ignore[...]` comment that suppresses nothing.

    ## Why

    Stale suppressions hide nothing today and hide a real problem tomorrow. Editors show the comment
    faded.

    ## Fails

    ```yaml
    fields:
      age: {type: int}
    # formscript: ignore[FS005] legacy
    values:
      age: 7
    ```

    ## Passes

    ```yaml
    fields:
      age: {type: int}
    values:
      age: 7
    ```
    """

    code = "FSX001"
    name = "unused-suppression"
    kind = "any"
    severity = "warning"
    unnecessary = True
    offer_suppression = False

    def message(self, *, unused: Sequence[str]) -> str:
        """The message for a comment whose codes *unused* match nothing."""
        return "suppression of " + ", ".join(unused) + " matches nothing here"


FSX001 = UnusedSuppression()


class SuppressionWithoutReason(Rule):
    """A suppression comment with no reason after the codes.

    ## Why

    Say why the finding is acceptable so the next reader can judge it.

    ## Fails

    ```yaml
    fields:
      retries: {type: int}
    values:
      # formscript: ignore[FS016]
      retries: '3'
    ```

    ## Passes

    ```yaml
    fields:
      retries: {type: int}
    values:
      # formscript: ignore[FS016] the legacy agent sends strings
      retries: '3'
    ```
    """

    code = "FSX002"
    name = "suppression-without-reason"
    kind = "any"
    severity = "warning"
    offer_suppression = False

    def message(self) -> str:
        """The message for a comment without a reason."""
        return "suppression gives no reason; add one after the closing bracket"


FSX002 = SuppressionWithoutReason()
