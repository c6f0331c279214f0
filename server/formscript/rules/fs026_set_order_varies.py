"""FS026 set-order-varies: a value holds a set whose order the runtime decides anew each run."""

from __future__ import annotations

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule


class SetOrderVaries(Rule):
    """A value of the form holds a set (`!!set`) of text, bytes or dates, whose members the
    runtime writes into the context block in an order that changes from run to run.

    ## Why

    `li agent --form` writes each value with `repr`, and `repr` of a set lists its members in
    the order Python keeps them, which follows their hashes. Python draws a new hash seed for
    text, bytes and dates in every process (unless `PYTHONHASHSEED` is set), so the same form
    gives a different context block, and a different prompt, on each run: a model's answer or
    a recorded prompt that depends on it is not reproducible. `formscript dry-run` shows the
    order of its own process, which is one of them. Sets of numbers keep one order. Use a list
    when the order matters.

    ## Fails

    ```yaml
    fields:
      tags: {type: list}
    values:
      tags: [!!set {urgent, billing, refund}]
    ```

    ## Passes

    ```yaml
    fields:
      tags: {type: list}
    values:
      tags: [[urgent, billing, refund]]
    ```
    """

    code = "FS026"
    name = "set-order-varies"
    kind = "form"
    severity = "warning"
    rejects = False

    def problem(self, *, path: KeyPath, key: object) -> Problem:
        """The value of *key* holds such a set."""
        return self.found(
            f"the value of {key!r} holds a set of text, bytes or dates: the runtime writes its members "
            "in an order that changes from run to run (Python's hash seed), so the context block does too",
            path,
            field=key if isinstance(key, str) else None,
        )


FS026 = SetOrderVaries()
