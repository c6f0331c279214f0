"""Language-server behaviour the rest of the suite does not reach: completion in a Python file
for clients that replace only the word before the cursor, a key typed in a closed string
beside other keys, the Windows form of a ``file:`` URI, a long value's hover, and the outline
of a ruleset, CRLF suppressions, refused values' inlay hints, an invalid workspace
configuration, the home cache for results and the server's log formatter."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from formscript.document import Pos, Span
from formscript.lint.config import Settings
from formscript.lsp.analysis import Analysis, analyse, uri_to_path
from formscript.lsp.completion import complete
from formscript.lsp.hover import hover
from formscript.lsp.navigation import symbols
from formscript.lsp.pycompletion import complete_python

VALUE = 'from lionagi.testing import ScriptModel\n\nSCRIPT = ScriptModel.from_responses([{"type": "te"}])\n'
KEY = 'from lionagi.testing import ScriptModel\n\nSCRIPT = ScriptModel.from_responses([{"type": "text", "co"}])\n'
ESCAPED = (
    "from lionagi.testing import ScriptModel\n\n"
    'SCRIPT = ScriptModel.from_responses([{"type": "text", "content": "a\\"b", "wh"}])\n'
)
UNRELATED = (
    'from lionagi.testing import ScriptModel\n\nprint("co")\nSCRIPT = ScriptModel.from_responses([{"type": "text"}])\n'
)


def _analysis(name: str, text: str) -> Analysis:
    return analyse(f"file:///w/{name}", text, 1, Settings(), "utf-16", 0)


def _completed(text: str, line: int, column: int, whole_token: bool = True) -> list[tuple[str, str, Span, str]]:
    found = complete_python(_analysis("test_x.py", text), Pos(line, column), whole_token)
    return [(s.label, s.insert, s.replace, s.filter) for s in found]


def test_python_completion_replaces_only_the_word_before_the_cursor() -> None:
    # a client without insertReplaceSupport (Neovim's omnifunc): the quotes stay the user's
    here = Span(Pos(2, 47), Pos(2, 49))
    assert _completed(VALUE, 2, 49, whole_token=False) == [
        ("text", "text", here, ""),
        ("tool_call", "tool_call", here, ""),
        ("structured", "structured", here, ""),
        ("stream", "stream", here, ""),
        ("error", "error", here, ""),
    ]
    # the closing quote after the cursor is not written again (nor the key's colon after it)
    word = Span(Pos(2, 55), Pos(2, 57))
    assert _completed(KEY, 2, 57, whole_token=False) == [("content", "content", word, ""), ("when", "when", word, "")]
    token = Span(Pos(2, 54), Pos(2, 58))
    assert _completed(KEY, 2, 57) == [
        ("content", '"content": ', token, '"content"'),
        ("when", '"when": ', token, '"when"'),
    ]


def test_python_completion_of_a_closed_key_string_beside_other_keys() -> None:
    # `{"type": "text", "wh"}` mixes a dict and a set: it parses once the key gets a value;
    # the escaped quote before it does not end its string
    column = ESCAPED.splitlines()[2].index('"wh"')
    assert _completed(ESCAPED, 2, column + 3) == [
        ("when", '"when": ', Span(Pos(2, column), Pos(2, column + 4)), '"when"')
    ]


def test_python_completion_inside_an_unrelated_string_offers_nothing() -> None:
    assert _completed(UNRELATED, 2, 9) == []


def test_a_windows_file_uri_is_a_drive_path() -> None:
    assert uri_to_path("file:///C:/w/a%20b.form.yaml") == "C:/w/a b.form.yaml"
    assert uri_to_path("file:///w/a.form.yaml") == "/w/a.form.yaml"


def test_the_hover_of_a_long_value_is_cut() -> None:
    text = "title: T\nfields:\n  note: {type: str}\nvalues:\n  note: " + "x" * 400 + "\n"
    found = hover(_analysis("a.form.yaml", text), Pos(4, 10))
    assert found is not None and found.span == Span(Pos(4, 8), Pos(4, 408))
    assert found.markdown.endswith("The runtime sees `'" + "x" * 299 + "…` (str)")


def test_the_outline_of_a_ruleset() -> None:
    text = "rules:\n  - rule_id: R1\n    check: range\n    field: age\n  - 7\n"
    outline = symbols(_analysis("x.rules.yaml", text))
    assert [(s.name, s.kind, s.detail) for s in outline] == [("rules", "section", "")]
    assert [(c.name, c.kind, c.detail, c.span) for c in outline[0].children] == [
        ("#0 R1", "rule", "range age", Span(Pos(1, 4), Pos(3, 14))),
        ("#1 ?", "rule", "", Span(Pos(4, 4), Pos(4, 5))),
    ]


def test_a_field_name_ending_in_a_line_break_is_offered_on_one_line() -> None:
    # FIELD_NAME_RE's `$` matches before a final line break, so the runtime declares `"ab\n"`;
    # a client without snippets gets the first line of the text that does not read as YAML
    from formscript.lsp.completion import complete

    text = 'title: T\nfields:\n  "ab\\n": {type: str}\nvalues:\n  \n'
    found = _analysis("a.form.yaml", text)
    here = Span(Pos(4, 2), Pos(4, 2))
    assert [(s.label, s.insert, s.replace) for s in complete(found, Pos(4, 2), snippets=False)] == [
        ("ab\n", "ab", here)
    ]
    assert [(s.label, s.insert) for s in complete(found, Pos(4, 2))] == [("ab\n", "ab\n: $0")]


def test_a_suppression_comment_keeps_the_files_crlf_line_breaks() -> None:
    from formscript.document import Edit
    from formscript.lsp.actions import suppressions

    text = "title: T\r\nfields:\r\n  age: {type: int}\r\nvalues:\r\n  age: 3\r\n  agee: 3\r\n"
    (action,) = suppressions(_analysis("a.form.yaml", text), Span(Pos(5, 0), Pos(5, 5)))
    assert action.title == "Suppress FS005 on this line (with a reason)"
    assert action.edits == (Edit(Span(Pos(5, 0), Pos(5, 0)), "  # formscript: ignore[FS005] reason\r\n"),)


def test_inlay_hints_of_values_the_gate_refuses() -> None:
    from formscript.lsp.lenses import form_hints

    wrong = _analysis("a.form.yaml", "title: T\nfields:\n  age: {type: int}\nvalues:\n  age: abc\n")
    assert [(h.pos, h.label, h.tooltip) for h in form_hints(wrong)] == [
        (Pos(4, 10), "✗ not int", "field 'age' is int; the form is refused")
    ]
    missing = _analysis("a.form.yaml", "title: T\nfields:\n  age: {type: int}\nvalues:\n  age:\n")
    assert [(h.pos, h.label, h.tooltip) for h in form_hints(missing)] == [
        (Pos(4, 6), "✗ missing", "field 'age' is int; the form is refused")
    ]
    listed = _analysis("a.form.yaml", "title: T\nfields:\n  age: {type: int}\nvalues: [1]\n")
    assert form_hints(listed) == []


def test_an_invalid_workspace_configuration_is_ignored_and_said_once(tmp_path: Path, caplog: Any) -> None:
    from formscript.lsp.settings import SettingsStore

    (tmp_path / "formscript.toml").write_text("select = ['XX9']\n", encoding="utf-8")
    store = SettingsStore()
    message = (
        f"ignoring the workspace configuration: {tmp_path / 'formscript.toml'}:1: select: 'XX9' is not a rule"
        " code, a prefix of one, or ALL (codes look like CL001; ALL selects every rule)"
    )
    with caplog.at_level(logging.WARNING, logger="formscript.lsp.settings"):
        assert store.for_path(str(tmp_path / "a.form.yaml")) == Settings()
        store.invalidate_files()
        assert store.for_path(str(tmp_path / "a.form.yaml")) == Settings()
    assert store.errors == [message]
    assert [r.getMessage() for r in caplog.records] == [message]


def test_results_go_to_the_home_cache_without_an_absolute_xdg_cache_home(monkeypatch: Any) -> None:
    from formscript.lsp.results import candidates

    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")
    assert candidates()[0] == Path.home() / ".cache" / "formscript" / "results"


def test_the_server_log_formatter_survives_a_bad_format_and_keeps_tracebacks_on_request(monkeypatch: Any) -> None:
    from formscript.lsp.transport import CompactFormatter

    record = logging.LogRecord("x", logging.WARNING, "p", 1, "%d items", ("a",), None)
    assert CompactFormatter("%(levelname)s %(message)s").format(record) == "WARNING '%d items' (TypeError)"
    monkeypatch.setenv("FORMSCRIPT_LSP_TRACEBACKS", "1")
    record = logging.LogRecord("x", logging.WARNING, "p", 1, "two\nlines", None, None)
    assert CompactFormatter("%(levelname)s %(message)s").format(record) == "WARNING two\nlines"


def test_workspace_diagnostics_list_at_most_so_many_files(tmp_path: Path, monkeypatch: Any) -> None:
    from formscript.lsp import workspace
    from formscript.lsp.settings import SettingsStore

    for n in range(5):
        (tmp_path / f"f{n}.form.yaml").write_text("title: T\n", encoding="utf-8")
    monkeypatch.setattr(workspace, "MAX_WORKSPACE_FILES", 3)
    listed = workspace.WorkspaceFiles(lambda: [str(tmp_path)], SettingsStore()).files()
    assert len(listed) == 3 and set(listed) <= {str(tmp_path / f"f{n}.form.yaml") for n in range(5)}


def test_a_calls_transcript_behind_a_link_loop_is_not_read(tmp_path: Path) -> None:
    import dataclasses

    from formscript.lsp.lenses import calls_for

    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    script = tmp_path / "s.script.yaml"
    text = "responses:\n  - type: text\n    content: hi\n"
    script.write_text(text, encoding="utf-8")
    (tmp_path / "s.calls.yaml").write_text("- hello\n", encoding="utf-8")
    settings = dataclasses.replace(Settings(), calls={"*.script.yaml": "a/x.calls.yaml"}, root=str(tmp_path))
    found = analyse(script.as_uri(), text, 1, settings, "utf-16", 0)
    asked: list[str] = []

    def reader(path: str) -> str | None:
        asked.append(path)
        return Path(path).read_text(encoding="utf-8") if Path(path).is_file() else None

    # the table's transcript is not inside the workspace (it resolves nowhere): the sibling is read
    assert calls_for(found, reader, [str(tmp_path)]) == (str(tmp_path / "s.calls.yaml"), "- hello\n")
    assert asked == [str(tmp_path / "s.calls.yaml")]


def test_renaming_a_field_without_a_value_and_one_reached_through_an_alias() -> None:
    import pytest

    from formscript.document import Edit
    from formscript.lsp.navigation import RenameError, rename

    declared = _analysis("a.form.yaml", "title: T\nfields:\n  age: {type: int}\n")
    assert rename(declared, Pos(2, 3), "years") == [Edit(Span(Pos(2, 2), Pos(2, 5)), "years")]
    aliased = _analysis("a.form.yaml", "title: T\nf: &f {age: {type: int}}\nfields: *f\nvalues:\n  age: 3\n")
    with pytest.raises(RenameError) as refused:
        rename(aliased, Pos(4, 3), "years")
    assert str(refused.value) == "the key 'age' under fields cannot be renamed exactly (it is reached through an alias)"


def test_a_script_that_does_not_parse_has_no_served_hints() -> None:
    from formscript.lsp.lenses import script_hints

    broken = _analysis("s.script.yaml", "responses: [\n")
    assert broken.document is None
    assert script_hints({"calls_path": "/w/s.calls.yaml", "calls": [], "entries": [{"index": 0}]}, broken) == []


@pytest.mark.parametrize(
    ("check", "offered"),
    [
        ("pattern", ["pattern", "flags"]),
        ("range", ["min", "max"]),
        ("required", []),
        ("nope", ["type", "min", "max", "pattern", "flags", "callable", "error"]),  # any check's
    ],
)
def test_a_rules_params_offer_the_keys_of_its_check(check: str, offered: list[str]) -> None:
    # the check sits beside params, one level up from the mapping being completed
    text = f"rules:\n  - rule_id: R1\n    check: {check}\n    field: age\n    params:\n      \n"
    assert [s.label for s in complete(_analysis("x.rules.yaml", text), Pos(5, 6))] == offered
