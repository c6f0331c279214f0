"""SC013 stream-terminal-chunk: a stream does not end in exactly one terminal chunk (result or error)."""

from __future__ import annotations

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule


class StreamTerminalChunk(Rule):
    """A stream does not end in exactly one terminal chunk (result or error).

    ## Why

    Consumers stop at the terminal event: one must come last and none before it.

    ## Fails

    ```yaml
    responses:
      - type: stream
        chunks:
          - {type: text, content: hi}
    ```

    ## Passes

    ```yaml
    responses:
      - type: stream
        chunks:
          - {type: text, content: hi}
          - {type: result}
    ```
    """

    code = "SC013"
    name = "stream-terminal-chunk"
    kind = "script"
    severity = "warning"

    def no_terminal_last(self, *, path: KeyPath, index: int) -> Problem:
        """Stream response #*index* does not end with a result or error chunk."""
        return self.found(f"stream response #{index} does not end with a result or error chunk", path)

    def early_terminal(self, *, path: KeyPath, index: int, chunk_type: str, position: int) -> Problem:
        """A terminal chunk at *position*, before the last one."""
        return self.found(
            f"stream response #{index} has a terminal {chunk_type} chunk at position {position}, before the end", path
        )


SC013 = StreamTerminalChunk()
