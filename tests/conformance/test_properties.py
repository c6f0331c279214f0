"""Property checks against lionagi on the small pieces the corpus exercises only in passing.

Hypothesis runs derandomized (the same examples every run) with no example database, so
these stay deterministic like the rest of the suite.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from formscript.core.forms import FieldSpec, coerce_value
from formscript.core.script import Replayer, ScriptExhausted
from formscript.core.script_models import TextResponse, WhenMatcher

from .engines import lionagi_missing_reason

pytestmark = pytest.mark.skipif(lionagi_missing_reason() is not None, reason=str(lionagi_missing_reason()))

DETERMINISTIC = settings(
    derandomize=True, database=None, deadline=None, max_examples=250, suppress_health_check=[HealthCheck.too_slow]
)
TYPES = ["str", "int", "float", "bool", "list", "dict"]

#: Characters that make numeric and boolean words interesting: signs, separators, exponents,
#: whitespace (ASCII and not), non-ASCII digits and letters with unusual case mappings.
NUMERIC_ALPHABET = "0123456789_ +-.eExXoObBnNaAiIfFtTrRuUyYsSlL\t\n\u00a0\u0661\u0662\u0663İß½"
WORDS = st.sampled_from(
    [
        "true",
        "TRUE",
        "yes",
        "Yes",
        "no",
        "NO",
        "0",
        "1",
        "false",
        "on",
        "nan",
        "-inf",
        "Infinity",
        " 7 ",
        "1_000",
        "1e3",
        "0x1F",
        "\u0661\u0662",
        "İ",
        "ı",
        "ß",
        "ﬁ",
        "ǅ",
        "K",
        "k",
        "Σ",
        "ς",
        "σ",
    ]
)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**20), max_value=10**20),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(NUMERIC_ALPHABET, max_size=8),
    WORDS,
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
)


def _result(call: Any) -> tuple[str, str]:
    try:
        value = call()
    except Exception as exc:
        return ("raises", type(exc).__name__)
    if isinstance(value, float) and math.isnan(value):
        return ("float", "nan")
    return (type(value).__name__, repr(value))


@DETERMINISTIC
@given(value=SCALARS, field_type=st.sampled_from(TYPES))
def test_coerce_agrees(value: Any, field_type: str) -> None:
    from lionagi.work import FieldSpec as TheirFieldSpec

    theirs = _result(lambda: TheirFieldSpec(name="f", type=field_type).coerce(value))
    ours = _result(lambda: coerce_value("f", field_type, value))
    assert ours[0] == theirs[0] and (ours == theirs or theirs[0] == "raises")


@DETERMINISTIC
@given(default=SCALARS, field_type=st.sampled_from(TYPES))
def test_default_check_agrees(default: Any, field_type: str) -> None:
    from lionagi.work import FieldSpec as TheirFieldSpec

    theirs = _result(lambda: TheirFieldSpec(name="f", type=field_type, default=default))
    ours = _result(lambda: FieldSpec(name="f", type=field_type, default=default))
    assert (ours[0] == "raises") == (theirs[0] == "raises")


@DETERMINISTIC
@given(name=st.text(alphabet="aZ_09-. \nİßé", max_size=5))
def test_field_name_check_agrees(name: str) -> None:
    from lionagi.work import FieldSpec as TheirFieldSpec

    theirs = _result(lambda: TheirFieldSpec(name=name))
    ours = _result(lambda: FieldSpec(name=name))
    assert (ours[0] == "raises") == (theirs[0] == "raises")


CASE_ALPHABET = "aAiIİıßSsKkΣσςﬁǅ \u0307"


@DETERMINISTIC
@given(needle=st.text(CASE_ALPHABET, max_size=3), prompt=st.text(CASE_ALPHABET, max_size=6), as_parts=st.booleans())
def test_prompt_contains_agrees(needle: str, prompt: str, as_parts: bool) -> None:
    from lionagi.testing._script import ScriptExhaustedError, ScriptModel

    content: Any = [{"type": "text", "text": c} for c in prompt] if as_parts else prompt
    payload = {"messages": [{"role": "user", "content": content}]}
    when = {"prompt_contains": needle}
    model = ScriptModel.model_validate(
        {"mode": "when_only", "responses": [{"type": "text", "content": "x", "when": when}]}
    )
    try:
        model.next(payload, 0)
        theirs = True
    except ScriptExhaustedError:
        theirs = False
    entry = TextResponse(content="x", when=WhenMatcher(**when))
    try:
        Replayer([entry], "when_only").next(payload, 0)
        ours = True
    except ScriptExhausted:
        ours = False
    assert ours == theirs
