"""SC020 not-json-encodable: structured data or tool arguments hold values JSON cannot encode (dates, for instance)."""

from __future__ import annotations

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule


class NotJsonEncodable(Rule):
    """Structured data or tool arguments hold values JSON cannot encode (dates, for instance).

    ## Why

    The endpoint encodes them with json.dumps when serving, which raises TypeError; YAML turns
    unquoted dates into date objects. A value that contains itself through an anchor
    (`&x {k: *x}`) makes it raise ValueError (circular reference).

    ## Fails

    ```yaml
    responses:
      - type: structured
        data: {due: 2024-01-01}
    ```

    ## Passes

    ```yaml
    responses:
      - type: structured
        data: {due: '2024-01-01'}
    ```
    """

    code = "SC020"
    name = "not-json-encodable"
    kind = "script"
    severity = "error"

    def problem(self, *, path: KeyPath, index: int, what: str, error: Exception) -> Problem:
        """*what* is 'data' or 'arguments'; *error* what json.dumps raised."""
        return self.found(
            f"response #{index}: {what} cannot be JSON-encoded ({error}); serving this entry raises", path
        )


SC020 = NotJsonEncodable()
