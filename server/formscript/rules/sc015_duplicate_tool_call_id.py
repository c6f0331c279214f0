"""SC015 duplicate-tool-call-id: two tool_call entries share an id."""

from __future__ import annotations

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule


class DuplicateToolCallId(Rule):
    """Two tool_call entries share an id.

    ## Why

    Tool results are matched to calls by id; a repeated id confuses the conversation.

    ## Fails

    ```yaml
    responses:
      - {type: tool_call, name: a, id: call_1}
      - {type: tool_call, name: b, id: call_1}
    ```

    ## Passes

    ```yaml
    responses:
      - {type: tool_call, name: a, id: call_1}
      - {type: tool_call, name: b, id: call_2}
    ```
    """

    code = "SC015"
    name = "duplicate-tool-call-id"
    kind = "script"
    severity = "warning"

    def problem(self, *, path: KeyPath, index: int, call_id: str, first: int) -> Problem:
        """Response #*index* reuses *call_id* from response #*first*."""
        return self.found(f"response #{index} reuses tool call id {call_id!r} from response #{first}", path)


SC015 = DuplicateToolCallId()
