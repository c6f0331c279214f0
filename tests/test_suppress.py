"""Suppressions are read from real comments only: the same text inside a quoted, block or
plain scalar, or inside a JSON string, silences nothing."""

from __future__ import annotations

import json

import pytest

from formscript.document import Pos, parse_document
from formscript.lint.engine import lint_text

WHEN_ONLY = "mode: when_only\nresponses:\n"


def _codes(text: str, path: str = "s.script.yaml") -> list[tuple[str, int]]:
    return [(d.code, d.span.start.line) for d in lint_text(text, path).diagnostics]


def test_a_string_that_looks_like_a_suppression_suppresses_nothing() -> None:
    text = WHEN_ONLY + '  - {type: text, content: "# formscript: ignore[SC011] looks like a comment"}\n'
    assert _codes(text) == [("SC011", 2)]


@pytest.mark.parametrize(
    "entries",
    [
        pytest.param(
            "  - type: text\n    content: |\n      # formscript: ignore[SC011] block text\n  - type: text\n"
            "    content: b\n",
            id="block-scalar",
        ),
        pytest.param(
            "  - type: text\n    content: 'it # formscript: ignore[SC011] single'\n  - type: text\n    content: b\n",
            id="single-quoted",
        ),
        pytest.param(
            "  - type: text\n    content: x#formscript:ignore[SC011]\n  - type: text\n    content: b\n",
            id="plain-scalar-with-a-hash",
        ),
        pytest.param(
            '  - type: text\n    content: "multi\n      # formscript: ignore[SC011] line"\n  - type: text\n'
            "    content: b\n",
            id="multi-line-double-quoted",
        ),
    ],
)
def test_scalars_holding_the_text_suppress_nothing(entries: str) -> None:
    found = _codes(WHEN_ONLY + entries)
    assert [code for code, _ in found] == ["SC011", "SC011"], found


@pytest.mark.parametrize(
    ("entries", "kept"),
    [
        pytest.param(
            "  - {type: text, content: a}  # formscript: ignore[SC011] after the value\n  - {type: text, content: b}\n",
            [],  # the comment covers its own line and the next
            id="after-a-value",
        ),
        pytest.param(
            "  - {type: text, content: a}\n  # formscript: ignore[SC011] on its own line\n"
            "  - {type: text, content: b}\n",
            [("SC011", 2)],
            id="own-line",
        ),
        pytest.param(
            "  - {type: text,  # formscript: ignore[SC011] inside a flow mapping\n     content: a}\n"
            "  - {type: text, content: b}\n  - {type: text, content: c}\n",
            [("SC011", 4), ("SC011", 5)],
            id="in-a-flow-collection",
        ),
        pytest.param(
            "  - type: text\n    content: |\n      x\n  # formscript: ignore[SC011] after a block scalar\n"
            "  - type: text\n    content: b\n",
            [("SC011", 2)],
            id="after-a-block-scalar",
        ),
        pytest.param(
            "  - content: |  # formscript: ignore[SC011] on the block header\n      x\n    type: text\n"
            "  - type: text\n    content: b\n",
            [("SC011", 5)],
            id="on-a-block-scalar-header",
        ),
        pytest.param(
            "  - {type: text, content: 'a # b'}  # formscript: ignore[SC011] after a quoted hash\n",
            [],
            id="after-a-quoted-hash",
        ),
    ],
)
def test_real_comments_still_suppress(entries: str, kept: list[tuple[str, int]]) -> None:
    text = WHEN_ONLY + entries
    unsuppressed = _codes(text.replace("formscript: ignore", "formscript: noted"))
    assert len(unsuppressed) > len(kept), unsuppressed  # the comment does hide something
    assert _codes(text) == kept


def test_a_whole_file_suppression_in_a_comment_and_not_in_a_string() -> None:
    entries = "  - {type: text, content: a}\n  - {type: text, content: b}\n"
    assert _codes("# formscript: ignore-file[SC011] all of them\n" + WHEN_ONLY + entries) == []
    quoted = WHEN_ONLY + entries + "  - {type: text, content: '# formscript: ignore-file[SC011] no'}\n"
    assert [code for code, _ in _codes(quoted)] == ["SC011"] * 3


def test_json_has_no_comments_so_its_strings_suppress_nothing() -> None:
    script = {
        "mode": "when_only",
        "responses": [{"type": "text", "content": "# formscript: ignore-file[SC011] x"}],
    }
    text = json.dumps(script, indent=2) + "\n"
    assert [code for code, _ in _codes(text, "s.script.json")] == ["SC011"]
    assert parse_document(text, "json").comments() == []


def test_comment_positions_and_text() -> None:
    doc = parse_document("a: 'x # y'  # one\nb: |  # two\n  c # d\n# three\ne: f#g\n")
    found = [(c.span.start, c.span.end, c.text) for c in doc.comments()]
    assert found == [
        (Pos(0, 12), Pos(0, 17), "# one"),
        (Pos(1, 6), Pos(1, 11), "# two"),
        (Pos(3, 0), Pos(3, 7), "# three"),
    ]


def test_unused_and_reasonless_suppressions_are_still_reported() -> None:
    text = "fields:\n  seats: {type: int}\nvalues:\n  seats: 3  # formscript: ignore[FS005]\n"
    report = lint_text(text, "f.form.yaml")
    assert [(d.code, d.span.start) for d in report.diagnostics] == [("FSX001", Pos(3, 12)), ("FSX002", Pos(3, 12))]
