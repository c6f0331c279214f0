"""PY001 not-a-literal: part of a script or form written in Python is built at run time."""

from __future__ import annotations

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule


class NotALiteral(Rule):
    """Part of a script or form written in Python is built at run time, so formscript cannot
    check it: the verdict is `insufficient_evidence` unless the literal parts already decide it.

    ## Why

    A helper whose result depends on the run (the environment, a file, a fixture), a parameter,
    an f-string or a name bound to something other than one literal has its value only when
    the test runs (a helper that only returns an expression of its arguments is read with
    them). formscript reads Python without running it, so it
    says which part it could not see instead of guessing. Write the part as a literal (or bind
    it once to one) to have it checked, or accept the note.

    ## Fails

    ```python
    import os

    from lionagi.testing import ScriptModel


    def reply(name):
        return {"type": "text", "content": os.environ[name]}


    script = ScriptModel.from_responses([reply("GREETING")])
    ```

    ## Passes

    ```python
    from lionagi.testing import ScriptModel

    script = ScriptModel.from_responses([{"type": "text", "content": "hello"}])
    ```
    """

    code = "PY001"
    name = "not-a-literal"
    kind = "any"
    severity = "info"
    offer_suppression = False
    example_name = "example_test.py"

    def problem(self, *, path: KeyPath, what: str) -> Problem:
        """The part at *path* is *what* (its source, as written)."""
        return self.found(f"{what} is only known at run time; formscript cannot check it", path)


PY001 = NotALiteral()
