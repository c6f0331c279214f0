"""Loader boundaries (issue 12): what formscript's own stack, recursion or repr must never decide."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

import pytest

from formscript.core.printable import printable, printable_repr, unprintable_int
from formscript.document import MAX_DEPTH, parse_document, yamlread
from formscript.lint.engine import lint_text
from formscript.runs import dry_run_text, json_safe
from formscript.runs.common import MAX_NESTING
from formscript.runs.common import plain as _plain

HUGE = int("f" * 3600, 16)


def _block_list(levels: int) -> str:
    """A form whose value nests *levels* deep counted from the root (the list levels plus
    the root mapping, 'values' and the leaf)."""
    return "fields:\n  t: {type: list}\nvalues:\n  t:\n    " + "- " * (levels - 3) + "1\n"


def _at_depth(frames: int, call: Callable[[], Any]) -> Any:
    """*call*() with *frames* more Python frames on the stack."""
    if frames == 0:
        return call()
    return _at_depth(frames - 1, call)


@pytest.mark.parametrize("frames", [0, 300])
def test_depth_limit_does_not_depend_on_the_callers_stack(frames: int) -> None:
    # a tab sends the text to the pure-Python composer, which recurses two frames per level
    within, past = _block_list(MAX_DEPTH) + "#\t\n", _block_list(MAX_DEPTH + 1) + "#\t\n"
    assert yamlread.loader_for(within) is yamlread.yaml.SafeLoader
    assert _at_depth(frames, lambda: parse_document(within)).ok
    refused = _at_depth(frames, lambda: parse_document(past))
    assert not refused.ok and [p.code for p in refused.problems] == ["YM001"]


def test_libyaml_reading_is_held_to_the_same_depth() -> None:
    assert parse_document(_block_list(MAX_DEPTH)).ok
    refused = parse_document(_block_list(MAX_DEPTH + 1))
    (problem,) = refused.problems
    assert problem.code == "YM001" and problem.span is not None
    assert problem.span.start.line == 4  # on the first node past the limit, not at 1:1


def test_json_nested_past_libyaml_is_refused_without_the_quadratic_pure_scan(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(text: str) -> None:
        raise AssertionError("the pure-Python loader was asked to scan a text libyaml found too deep")

    monkeypatch.setattr(yamlread, "compose_pure", refuse)
    text = '{"responses": [{"type": "tool_call", "name": "x", "arguments": {"k": ' + "[" * 1300 + "]" * 1300 + "}}]}"
    report = lint_text(text, "deep.script.json")
    assert report.verdict is not None and report.verdict.value == "rejected"
    assert [d.code for d in report.diagnostics] == ["YM001"]


def test_deep_json_form_goes_through_the_json_fallback_and_prints() -> None:
    text = '{"fields": {"t": {"type": "list"}}, "values": {"t": ' + "[" * 900 + "1" + "]" * 900 + "}}"
    result = dry_run_text(text, "deep.form.json")
    assert result["verdict"] == "accepted"
    json.dumps(result)  # printable: no RecursionError on the way


def test_json_safe_is_iterative_and_keeps_back_references_finite() -> None:
    deep: list[Any] = [1]
    for _ in range(5 * sys.getrecursionlimit()):
        deep = [deep]
    out = json_safe(deep)
    assert json.loads(json.dumps(out)) == out  # what it gives can be encoded and compared
    for _ in range(MAX_NESTING - 1):
        out = out[0]
    assert out == ["<list nested more than 800 levels deep>"]  # past MAX_NESTING, a note
    shallow: list[Any] = [1]
    for _ in range(MAX_NESTING - 1):
        shallow = [shallow]
    assert json_safe(shallow) == shallow  # down to MAX_NESTING, written whole
    loop: dict[str, Any] = {"a": 1}
    loop["self"] = loop
    assert _plain({"x": loop}) == {"x": {"a": 1, "self": "{...}"}}  # the walk ends, as repr's does
    shared = [1, 2]
    assert json_safe([shared, shared]) == [[1, 2], [1, 2]]  # an alias is not a cycle


def test_ints_too_long_for_decimal_are_written_in_hex() -> None:
    assert unprintable_int(HUGE) and not unprintable_int(10**100) and not unprintable_int(True)
    with pytest.raises(ValueError):
        repr(HUGE)
    assert printable_repr(HUGE) == hex(HUGE)
    assert printable_repr([1, {"k": -HUGE}, (HUGE,)]) == f"[1, {{'k': {hex(-HUGE)}}}, ({hex(HUGE)},)]"
    assert eval(printable_repr({"n": [HUGE]})) == {"n": [HUGE]}  # a literal of the same value
    shown = printable({HUGE: [HUGE, "x"]})
    assert shown == {HUGE: [HUGE, "x"]} and f"{shown}" == f"{{{hex(HUGE)}: [{hex(HUGE)}, 'x']}}"
    assert type(next(iter(shown))).__name__ == "int"
    plain = {"a": [1, 2]}
    assert printable(plain) is plain  # nothing to replace: the value itself
    assert json_safe({"n": HUGE, HUGE: 1}) == {"n": hex(HUGE), hex(HUGE): 1}


def test_a_rule_message_with_such_an_int_is_written_in_hex() -> None:
    report = lint_text(f"title: {hex(HUGE)}\nfields:\n  n: {{type: int}}\n", "t.form.yaml")
    (title,) = [d for d in report.diagnostics if d.code == "FS019"]
    assert hex(HUGE) in title.message
