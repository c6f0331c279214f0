"""Feature logic below the server, without LSP: positions, the indentation reader, key
documentation coverage and the settings layering."""

from __future__ import annotations

import pytest
import yaml
from lsprotocol import types

from formscript.document import Pos, Span
from formscript.lint.config import Settings
from formscript.lint.engine import lint_text
from formscript.lsp.analysis import analyse
from formscript.lsp.completion import plain
from formscript.lsp.context import cursor_context, read_line
from formscript.lsp.positions import Positions
from formscript.lsp.settings import editor_table


@pytest.mark.parametrize(("encoding", "column"), [("utf-8", 10), ("utf-16", 7), ("utf-32", 6)])
def test_positions_round_trip_beyond_the_bmp(encoding: str, column: int) -> None:
    positions = Positions("a: '😀é'\n", encoding)
    assert positions.position(Pos(0, 6)) == types.Position(0, column)
    assert positions.pos(types.Position(0, column)) == Pos(0, 6)


def test_positions_clamp_and_skip_a_byte_order_mark() -> None:
    positions = Positions("\ufeffab: 1\nx", "utf-16")
    assert positions.position(Pos(0, 0)) == types.Position(0, 1)
    assert positions.pos(types.Position(0, 1)) == Pos(0, 0)
    assert positions.position(Pos(9, 9)) == types.Position(1, 1)
    assert positions.pos(types.Position(0, 99)) == Pos(0, 5)


def test_positions_map_yaml_only_line_breaks() -> None:
    text = "a: 'x\u2028y'\nbb: 1\n"
    report = lint_text(text, "t.form.yaml")
    positions = Positions(text, "utf-16")
    # YAML counts LS as a line break; clients do not
    span = report.diagnostics[-1].span
    assert (report.diagnostics[-1].code, span) == ("FS001", Span(Pos(2, 0), Pos(2, 2)))
    assert positions.range(span) == types.Range(types.Position(1, 0), types.Position(1, 2))
    assert positions.pos(types.Position(1, 2)) == Pos(2, 2)


def test_positions_made_from_the_previous_version_have_the_lines_of_a_fresh_split() -> None:
    """The lines of a version made from the previous one's (``Positions(..., previous=)``),
    after random edits (line breaks of every kind, at the ends, texts that agree at both
    ends), are the lines a fresh split gives, and so is every converted position."""
    import random

    from formscript.core.ends import common_ends

    rand = random.Random(20261201)
    pieces = ["a", "b: 1", "\n", "\n", "é", "- x\n", "", "\r\n", "\r", "😀"]  # the last three: rarely
    text = ""
    positions = Positions(text)
    for _ in range(4000):
        if rand.random() < 0.05:
            text = "".join(rand.choice(pieces[:7]) for _ in range(rand.randint(0, 40)))
        else:
            begin = rand.randint(0, len(text))
            end = rand.randint(begin, min(len(text), begin + rand.choice([0, 1, 3, 10])))
            some = pieces if rand.random() < 0.02 else pieces[:7]
            typed = "".join(rand.choice(some) for _ in range(rand.randint(0, 3)))
            text = text[:begin] + typed + text[end:]
        made = Positions(text, "utf-16", positions)
        fresh = Positions(text, "utf-16")
        assert made.lines == fresh.lines, (positions.text, text, common_ends(positions.text, text))
        for line in range(len(fresh.lines) + 1):
            for column in (0, 2, 9):
                assert made.position(Pos(line, column)) == fresh.position(Pos(line, column))
        positions = made


def test_read_line() -> None:
    line = read_line(3, "  - type: text  # c")
    assert (line.indent, line.dash, line.content, line.key, line.value) == (2, 2, 4, "type", "text")
    quoted = read_line(0, "'a b': 1")
    assert quoted.key == "a b"
    assert read_line(0, "- plain item").key is None


def _context(text: str):  # type: ignore[no-untyped-def]
    lines = text.split("\n")
    for number, line in enumerate(lines):
        if "|" in line:
            column = line.index("|")
            lines[number] = line.replace("|", "")
            return cursor_context(lines, number, column)
    raise AssertionError("no cursor")


@pytest.mark.parametrize(
    ("text", "where", "path", "present"),
    [
        ("responses:\n  - type: text\n    con|\n", "key", ("responses", 0), {"type": "text"}),
        ("responses:\n  - type: text\n  - |\n", "key", ("responses", 1), {}),
        (
            "responses:\n- type: text\n- type: error\n  kind: |\n",
            "value",
            ("responses", 1),
            {"type": "error", "kind": ""},
        ),
        (
            "responses:\n  - type: stream\n    chunks:\n      - type: text\n        |\n",
            "key",
            ("responses", 0, "chunks", 0),
            {"type": "text"},
        ),
        ("fields:\n  age:\n    type: int\nvalues:\n  age: 3\n  |\n", "key", ("values",), {"age": "3"}),
        ("rules:\n  - rule_id: a\n    check: range\n    params:\n      |\n", "key", ("rules", 0, "params"), {}),
        (
            "responses:\n  - type: tool_call\n    |\n    name: x\n",
            "key",
            ("responses", 0),
            {"type": "tool_call", "name": "x"},
        ),
    ],
)
def test_cursor_context_from_indentation(
    text: str, where: str, path: tuple[object, ...], present: dict[str, str]
) -> None:
    found = _context(text)
    assert found is not None
    assert (found.where, found.path, found.present) == (where, path, present)


def test_plain_snippets() -> None:
    assert plain("kind: ${1|a,b|}\nmessage: ${2:scripted error}$0 {${3}}") == ("kind: a\nmessage: scripted error {}")


def test_editor_table_drops_unset_values() -> None:
    raw = {
        "formscript": {
            "select": [],
            "extendSelect": ["FS"],
            "ignore": [],
            "severity": {},
            "kinds": {"form": [], "script": ["*.s.yaml"]},
            "unknown": 1,
        }
    }
    assert editor_table(raw) == {"select": [], "extend_select": ["FS"], "kinds": {"script": ["*.s.yaml"]}}
    assert editor_table(None) == {}


def test_analysis_values() -> None:
    found = analyse("file:///w/a.form.yaml", "values:\n  a: [1, {b: 2}]\n", 1, Settings(), "utf-16", 0)
    assert found.value_at(("values", "a", 1, "b")) == 2
    assert found.value_at(("values", "zz", 3)) is None
    assert found.kind == "form"
    values = found.entry(("values",))
    assert values is not None
    assert (values.key, values.value, values.scalar) == (Span(Pos(0, 0), Pos(0, 6)), Span(Pos(1, 2), Pos(1, 16)), None)
    item = found.entry(("values", "a"))
    assert item is not None and (item.key, item.value) == (Span(Pos(1, 2), Pos(1, 3)), Span(Pos(1, 5), Pos(1, 16)))
    inner = found.entry(("values", "a", 1, "b"))
    assert inner is not None and inner.scalar is not None
    assert (inner.value, inner.scalar.text, inner.scalar.tag) == (
        Span(Pos(1, 13), Pos(1, 14)),
        "2",
        "tag:yaml.org,2002:int",
    )
    assert found.entry(("values", "zz")) is None


ALL_KEYS = {
    "x.form.yaml": (
        "title: T\nfields:\n  age:\n    type: int\n    required: true\n    default: 1\n"
        "    description: d\n    id: 6f1c2d3e-0000-4000-8000-000000000000\n"
        "    created_at: 0\n    metadata: {}\nvalues:\n  age: 2\n"
    ),
    "x.script.yaml": (
        "version: 1\nmode: auto\nresponses:\n"
        "  - type: text\n    content: c\n    when:\n      prompt_contains: a\n"
        "      prompt_regex: b\n      has_tool: t\n      after_calls: 0\n      call_index: 0\n"
        "  - type: tool_call\n    name: n\n    arguments: {}\n    id: i\n"
        "  - type: structured\n    data: {}\n"
        "  - type: stream\n    chunks:\n      - type: text\n        content: c\n"
        "        tool_name: t\n        tool_id: i\n        tool_input: {}\n"
        "        tool_output: o\n        is_error: false\n        is_delta: false\n"
        "        metadata: {}\n"
        "  - type: error\n    kind: timeout\n    message: m\n    delay_ms: 0\n"
    ),
    "x.rules.yaml": (
        "rules:\n  - rule_id: a\n    field: f\n    check: range\n    params: {min: 0, max: 1}\n"
        "    message: m\n    enabled: true\n"
        "  - rule_id: b\n    field: f\n    check: pattern\n    params: {pattern: x, flags: 0}\n"
        "  - rule_id: c\n    field: f\n    check: type\n    params: {type: int}\n"
        "  - rule_id: d\n    field: f\n    check: custom\n    params: {callable: x, error: e}\n"
    ),
    "x.calls.yaml": "- prompt: p\n  tools: [t]\n- payload: {messages: []}\n",
}


def _keys(value: object, path: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    found = []
    if isinstance(value, dict):
        for key, child in value.items():
            found.append((*path, key))
            if key not in ("arguments", "data", "tool_input", "metadata", "payload"):
                found.extend(_keys(child, (*path, key)))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found.extend(_keys(child, (*path, index)))
    return found


@pytest.mark.parametrize("name", sorted(ALL_KEYS))
def test_hover_documents_every_key_of_every_kind(name: str) -> None:
    from formscript.lsp.hover import hover

    found = analyse(f"file:///w/{name}", ALL_KEYS[name], 1, Settings(), "utf-16", 0)
    doc = found.document
    assert doc is not None
    paths = _keys(doc.value)
    assert len(paths) >= 3
    for path in paths:
        entry = doc.entry(path)
        assert entry is not None and entry.key is not None
        shown = hover(found, entry.key.start)
        assert shown is not None, path
        key = path[-1]
        if path[:1] == ("fields",) and len(path) == 2:
            assert shown.markdown.startswith(f"**field `{key}`**"), path
        elif path[:1] == ("values",) and len(path) == 2:
            assert shown.markdown.startswith(f"**value of field `{key}`**"), path
        else:
            assert shown.markdown.startswith(f"**`{key}`** ("), (path, shown.markdown)


def test_other_yaml_gets_no_answers() -> None:
    from formscript.lsp.completion import complete
    from formscript.lsp.hover import hover
    from formscript.lsp.navigation import folding, symbols

    found = analyse("file:///w/compose.yaml", "services:\n  web:\n    image: x\n", 1, Settings(), "utf-16", 0)
    assert found.kind is None
    assert hover(found, Pos(0, 2)) is None
    assert symbols(found) == [] and folding(found) == []
    assert complete(found, Pos(2, 4)) == []


def test_one_line_items_mean_what_the_snippet_text_means() -> None:
    from formscript.lsp.completion import one_line

    cases = [
        ("responses:\n    - ", 2, "responses: "),
        ("values:\n  ", 0, "values: "),
        ("type: text\n    content: 'a: b'", 4, "{type: text, content: 'a: b'}"),
        ("- type: tool_call\n    arguments:\n      arg: ", 2, "- {type: tool_call, arguments: {arg: null}}"),
        ("name:\n    required: true", 2, "name: {required: true}"),
        ("mode: auto", 0, "mode: auto"),
    ]
    for text, column, expected in cases:
        written = one_line(text, column)
        assert written == expected and "\n" not in written
        block, flat = yaml.safe_load(" " * column + text), yaml.safe_load(" " * column + written)
        assert block == flat or (block == {"responses": [None]} and flat == {"responses": None})
