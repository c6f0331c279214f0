"""SC014 tool-use-without-name: a tool_use chunk without tool_name."""

from __future__ import annotations

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule


class ToolUseWithoutName(Rule):
    """A tool_use chunk without tool_name.

    ## Why

    A tool call event with no tool name cannot be dispatched by the consumer.

    ## Fails

    ```yaml
    responses:
      - type: stream
        chunks:
          - {type: tool_use}
          - {type: result}
    ```

    ## Passes

    ```yaml
    responses:
      - type: stream
        chunks:
          - {type: tool_use, tool_name: search}
          - {type: result}
    ```
    """

    code = "SC014"
    name = "tool-use-without-name"
    kind = "script"
    severity = "warning"

    def problem(self, *, path: KeyPath, index: int, position: int) -> Problem:
        """Chunk *position* of stream response #*index*."""
        return self.found(f"stream response #{index}: tool_use chunk {position} has no tool_name", path)


SC014 = ToolUseWithoutName()
