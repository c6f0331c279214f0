"""PY003 expectation-unmet: a test expects an outcome lionagi does not give."""

from __future__ import annotations

from formscript.core.verdict import Problem
from formscript.rules.base import Rule


class ExpectationUnmet(Rule):
    """A test states the outcome of a call, and lionagi gives another: the test fails.

    A test that proves lionagi refuses bad input wraps the call in `pytest.raises(E)` (or
    `self.assertRaises(E)`, `@pytest.mark.xfail(raises=E, strict=True)`), or asserts what the
    call returns (`fill_form(...).status == "error"`). formscript predicts what lionagi does with
    the script or form, so it compares the two. When they agree, the test's broken script or form
    is an expected rejection: nothing is reported for it (`formscript lint` counts these apart,
    and its JSON report keeps the verdict `rejected` with the expectation beside it). When they
    do not, this error says why the test will fail: lionagi accepts what the test expects it to
    refuse, or it raises an exception the test does not catch.

    ## Why

    A negative test that expects the wrong thing fails at run time with `DID NOT RAISE` or with
    an exception nobody expected, usually after a change in the fixture nobody connected to the
    expectation. The error is reported only where the outcome is certain: the call is the first
    thing in the block that can raise, and (for a document lionagi accepts) the last.

    ## Fails

    ```python
    import pytest
    from lionagi.testing import ScriptModel


    def test_plain_text_is_refused():
        with pytest.raises(ValueError):
            ScriptModel.from_responses([{"type": "text", "content": "ok"}])
    ```

    ## Passes

    ```python
    import pytest
    from lionagi.testing import ScriptModel


    def test_unknown_type_is_refused():
        with pytest.raises(ValueError):
            ScriptModel.from_responses([{"type": "made_up"}])
    ```

    ## Fix

    Make the document break the way the test means it to, or expect what lionagi does: the
    message names the exception lionagi raises (pydantic's `ValidationError` is a
    `ValueError`). Set `expected-outcomes = false` to report the rejections of such tests as
    errors instead.
    """

    code = "PY003"
    name = "expectation-unmet"
    kind = "any"
    severity = "error"
    example_name = "example_test.py"

    def accepted(self, *, call: str, expected: str, why: str) -> Problem:
        """lionagi accepts what *call* builds, where the test *expected* it refused."""
        return self.found(f"the test expects {expected}, but lionagi accepts {call}(...): {why}")

    def uncaught(self, *, call: str, expected: str, raised: str) -> Problem:
        """lionagi refuses *call* with *raised*, which the *expected* statement does not catch."""
        return self.found(
            f"{call}(...) raises {raised} in lionagi, which {expected} does not catch; the test fails with {raised}"
        )

    def unmatched(self, *, call: str, expected: str, raised: str, message: str) -> Problem:
        """lionagi refuses *call* with *raised*, which the block catches, but its *message*
        does not contain the block's pattern."""
        # pydantic's links to its error pages name its version: left out of what is shown
        lines = [line for line in message.split("\n") if not line.startswith("    For further information visit ")]
        shown = "\n".join(lines)
        shown = shown if len(shown) <= 400 else shown[:400] + "..."
        return self.found(
            f"{call}(...) raises {raised}, which {expected} catches, but its message does not match "
            f"the pattern; the test fails. lionagi's message: {shown!r}"
        )

    def asserted(self, *, assertion: str, outcome: str) -> Problem:
        """The test asserts *assertion* on what a call returns, and lionagi gives *outcome*."""
        return self.found(f"the test asserts `{assertion}`, but {outcome}; the assertion fails")

    def returns(self, *, call: str, expected: str, outcome: str) -> Problem:
        """lionagi returns from *call* (*outcome*) where the test *expected* an exception."""
        return self.found(f"the test expects {expected}, but {call}(...) raises nothing: {outcome}")


PY003 = ExpectationUnmet()
