"""A suppression counts only in a real comment: the same text inside a string value (quoted,
block, plain, a key, a JSON string), in any line-break style and with a BOM, suppresses
nothing; written as a comment beside it, it does (the control)."""

from __future__ import annotations

import itertools

import pytest

from formscript.lint.engine import lint_text

SUPPRESS = "# formscript: ignore-file[FS005] it is fine"

PLACES = {
    "double": f'title: "x {SUPPRESS}"',
    "single": f"title: 'x {SUPPRESS}'",
    "double_multiline": f'title: "x\n  {SUPPRESS}"',
    "literal": f"title: |\n  {SUPPRESS}",
    "folded": f"title: >-\n  x\n  {SUPPRESS}",
    "plain_hash": "title: x#formscript:ignore-file[FS005] it is fine",
    "flow": f'title: T\nnote: ["{SUPPRESS}"]',
    "key": f'"{SUPPRESS}": 1',
    "after_emoji": f'title: "😀😀😀😀😀😀 {SUPPRESS}"',
}
BREAKS = ["\n", "\r\n", "\r", "\x85", "\u2028", "\u2029"]
BODY = "fields:\n  a: {type: str, required: false}\nvalues:\n  b: 1\n"


@pytest.mark.parametrize(("place", "brk", "bom"), list(itertools.product(PLACES, BREAKS, ["", "\ufeff"])))
def test_a_suppression_inside_a_string_suppresses_nothing(place: str, brk: str, bom: str) -> None:
    text = bom + (PLACES[place] + "\n" + BODY).replace("\n", brk)
    codes = [d.code for d in lint_text(text, "x.form.yaml").diagnostics]
    assert "FS005" in codes, text
    assert "FSX001" not in codes  # not even read as an unused suppression


@pytest.mark.parametrize(("brk", "bom"), list(itertools.product(BREAKS, ["", "\ufeff"])))
def test_the_same_text_as_a_comment_suppresses(brk: str, bom: str) -> None:
    text = bom + (f"title: x  {SUPPRESS}\n" + BODY).replace("\n", brk)
    codes = [d.code for d in lint_text(text, "x.form.yaml").diagnostics]
    assert "FS005" not in codes, text


def test_a_json_string_suppresses_nothing() -> None:
    text = '{"responses": [{"type": "text", "content": "# formscript: ignore-file[SC012] r", "when": {}}]}\n'
    codes = [d.code for d in lint_text(text, "x.script.json").diagnostics]
    assert "SC012" in codes
