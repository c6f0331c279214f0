"""User regexes: compiled and searched raising exactly what re raises, and never printing
(re.DEBUG's dump, re's warnings), in process or in the bounded worker."""

from __future__ import annotations

import re

import pytest

from formscript.core.entries import plain_entry
from formscript.core.fields import ValuesView
from formscript.core.regex_guard import BoundedSearch
from formscript.core.regex_risk import backtracking_risk, compile_user_regex
from formscript.core.rules import Rule
from formscript.core.script import RegexFailure, Replayer

NESTED = "(" * 1200 + "x" + ")" * 1200
#: Patterns whose compile fails without re.error, with what re.search raises for them.
FAILING = [
    ("a{4294967296}", OverflowError),
    ("x{1,99999999999999}", OverflowError),
    ("(?a)(?u)x", ValueError),
    (NESTED, RecursionError),
    ("(unclosed", re.error),
]


def _raised(call: object) -> type[BaseException] | None:
    try:
        call()  # type: ignore[operator]
    except Exception as exc:
        return type(exc)
    return None


@pytest.mark.parametrize(("pattern", "expected"), FAILING, ids=[p[:20] for p, _ in FAILING])
def test_every_search_raises_what_re_search_raises(pattern: str, expected: type[BaseException]) -> None:
    re.purge()
    assert _raised(lambda: re.search(pattern, "text")) is expected
    assert _raised(lambda: compile_user_regex(pattern)) is expected
    with BoundedSearch(2.0) as search:
        assert _raised(lambda: search(pattern, "text")) is expected
    entries = [plain_entry({"type": "text", "content": "x", "when": {"prompt_regex": pattern}})]
    replayer = Replayer([e for e in entries if e is not None])
    payload = {"messages": [{"role": "user", "content": "text"}]}
    failure = _raised(lambda: replayer.next(payload, 0))
    # re.error is the runtime's invalid regex; anything else escapes as itself.
    assert failure is (RegexFailure if expected is re.error else expected)


def test_the_worker_reraises_under_the_exception_s_own_type(monkeypatch: pytest.MonkeyPatch) -> None:
    # Compiling in the caller is skipped, so the worker meets the failure itself.
    monkeypatch.setattr(BoundedSearch, "_check", staticmethod(lambda pattern, flags=0: None))
    with BoundedSearch(2.0) as search:
        assert _raised(lambda: search("(?a)(?u)x", "text")) is ValueError
        assert _raised(lambda: search("a{4294967296}", "text")) is OverflowError
        assert search("^te", "text") is True


def test_re_debug_never_prints(capfd: pytest.CaptureFixture[str]) -> None:
    """re.DEBUG (128) makes re print the parsed pattern; formscript masks it everywhere,
    in process and in the forked worker (whose stdout is ours)."""
    re.purge()
    assert compile_user_regex("^[a-z]+$", 128 | re.IGNORECASE).search("ABC")
    assert backtracking_risk("(a+)+", 128) is not None
    with BoundedSearch(2.0) as search:
        assert search("^[a-z]", "abc", 128) is True
    rule = Rule(rule_id="r1", field="email", check="pattern", params={"pattern": "^[a-z]", "flags": 128})
    assert rule.failure(ValuesView({"email": "abc"})) is None
    assert rule.failure(ValuesView({"email": "ABC"})) is not None
    out, err = capfd.readouterr()
    assert (out, err) == ("", "")


def test_masking_debug_keeps_every_other_bit() -> None:
    # ~re.DEBUG on the flag enum would clear unknown bits too and hide the runtime's OverflowError.
    assert _raised(lambda: compile_user_regex("a", 2**31)) is OverflowError
    assert _raised(lambda: compile_user_regex("a", -1)) is ValueError
    assert _raised(lambda: re.compile("a", 2**31)) is OverflowError
