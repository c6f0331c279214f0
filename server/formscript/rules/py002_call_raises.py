"""PY002 call-raises: lionagi refuses the call itself, before it looks at the values."""

from __future__ import annotations

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule


class CallRaises(Rule):
    """lionagi refuses the call itself, before or instead of reading the script or form: a
    model given a positional argument, a `FieldSpec` without a `name`, a value `coerce`
    cannot take, an argument the model does not accept, arguments Python cannot bind to the
    function (too many, one given twice, a required one missing, a keyword neither it nor the
    `Branch(...)` it passes keywords to takes), or a literal Python cannot build (a list, dict
    or set as a dict key or set member).

    ## Why

    The call raises (`TypeError`, or pydantic's `ValidationError` for the argument), so the test
    fails where it builds its fixture. lionagi's models take keyword arguments only;
    `ScriptModel.coerce` takes a path, a dict, a list or a `ScriptModel`.

    ## Fails

    ```python
    from lionagi.testing import TextResponse

    reply = TextResponse("hello")
    ```

    ## Passes

    ```python
    from lionagi.testing import TextResponse

    reply = TextResponse(content="hello")
    ```
    """

    code = "PY002"
    name = "call-raises"
    kind = "any"
    severity = "error"
    rejects = True
    example_name = "example_test.py"

    def positional(self, *, call: str) -> Problem:
        """*call* was given a positional argument where it takes keywords only."""
        return self.found(f"{call}(...) takes keyword arguments only; this positional argument raises TypeError")

    def repeated(self, *, call: str, arguments: tuple[str, ...]) -> Problem:
        """*call* is given the keyword *arguments* twice (directly and through a ``**``)."""
        names = ", ".join(repr(a) for a in arguments)
        return self.found(f"{call}(...) is given {names} twice; the call raises TypeError")

    def binding(self, *, call: str, reason: str) -> Problem:
        """Python cannot bind the arguments of *call* to its signature (*reason*)."""
        return self.found(f"{call}(...) raises TypeError before it reads anything: {reason}")

    def unhashable(self, *, path: KeyPath, why: str) -> Problem:
        """Building the literal at *path* raises TypeError (*why*)."""
        return self.found(f"{why}, so Python raises TypeError building it; lionagi is never called", path)

    def missing(self, *, call: str, argument: str, path: KeyPath = ()) -> Problem:
        """*call* lacks its required *argument* (*path*: where the call's arguments are)."""
        return self.found(f"{call} needs {argument}=...; without it the call raises", path)

    def cannot_coerce(self, *, call: str, found: object) -> Problem:
        """*call* hands *found* to ScriptModel.coerce, which takes none of its type."""
        return self.found(
            f"{call} passes a {type(found).__name__} to ScriptModel.coerce, which takes a path, a dict, "
            "a list of entries or a ScriptModel; it raises TypeError"
        )

    def not_text(self, *, call: str, found: object) -> Problem:
        """*call* (TestBranch.from_text) is given *found*, neither a string nor strings."""
        return self.found(f"{call} takes a string or a list of strings; a {type(found).__name__} raises TypeError")

    def invalid(self, *, path: KeyPath, call: str, where: str, reason: str) -> Problem:
        """The argument at *where* of *call* is refused for *reason*."""
        return self.found(f"{call}(...): {where} is invalid ({reason})", path)


PY002 = CallRaises()
