"""A Python test file being typed: the statement that does not parse is left out, with its
lines and Python's reason, and every document outside it keeps its findings (CLI; the
language server is tests/lsp/test_python_documents.py)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from formscript import rules
from formscript.document.pytolerant import MAX_REGIONS, parse_tolerantly
from formscript.lint.python_lint import lint_python

HEALTHY = """from lionagi.testing import TestBranch
from lionagi.work import FieldSpec


def test_served():
    TestBranch.from_responses([{"type": "txt", "content": "x"}])


class TestForms:
    def test_age(self):
        FieldSpec(name="age", type="integer")

    def test_other(self):
        pass


AGE = FieldSpec(name="age", type="integr")
"""

#: Half-typed edits: (what replaces which line of HEALTHY, the functions still there).
EDITS = {
    "an unclosed list in a function": ("def test_served():\n    TestBranch.from_responses([{", 5),
    "an unterminated string in a method": ('    def test_other(self):\n        x = "abc', 13),
    "a def with no body yet": ("    def test_other(self):\n        # to do", 13),
    "an unclosed call at the top": ("AGE = FieldSpec(name=", 17),
}


def _edited(replacement: str, line: int) -> str:
    lines = HEALTHY.splitlines()
    count = replacement.count("\n") + 1
    lines[line - 1 : line - 1 + count] = replacement.splitlines()
    return "\n".join(lines) + "\n"


def _codes(text: str) -> list[tuple[int, str]]:
    report = lint_python(text, "test_x.py")
    return [(d.span.start.line + 1, d.code) for d in report.diagnostics]


def test_the_healthy_file_has_its_three_findings() -> None:
    assert _codes(HEALTHY) == [(6, rules.SC002.code), (11, rules.FS010.code), (17, rules.FS010.code)]


@pytest.mark.parametrize("name", sorted(EDITS))
def test_a_half_typed_statement_leaves_the_other_findings(name: str) -> None:
    replacement, line = EDITS[name]
    text = _edited(replacement, line)
    with pytest.raises(SyntaxError):
        ast.parse(text)
    found = _codes(text)
    healthy = _codes(HEALTHY)
    # every finding outside the statement being typed stays, at its place
    lost = [f for f in healthy if f not in found]
    assert len(lost) <= 1 and all(abs(at - line) <= 2 for at, _ in lost), (found, healthy)
    skipped = [p for p in lint_python(text, "test_x.py").parts or [] if p.skipped]
    assert len(skipped) == 1 and "not Python that parses" in skipped[0].note


def test_the_text_parsed_keeps_every_position_outside_the_blanked_lines() -> None:
    text = _edited("def test_served():\n    TestBranch.from_responses([{", 5)
    tree, parsed, blanked = parse_tolerantly(text)
    assert [(b.first, b.last) for b in blanked] == [(5, 6)]
    original, kept = text.splitlines(), parsed.splitlines()
    assert len(original) == len(kept)
    assert all(a == b for i, (a, b) in enumerate(zip(original, kept, strict=True)) if not 5 <= i + 1 <= 6)
    assert [n.name for n in tree.body if isinstance(n, ast.ClassDef)] == ["TestForms"]


def test_a_class_keeps_its_other_methods() -> None:
    text = _edited('    def test_other(self):\n        x = "abc', 13)
    tree, _, blanked = parse_tolerantly(text)
    assert [(b.first, b.last) for b in blanked] == [(13, 14)]
    (cls,) = [n for n in tree.body if isinstance(n, ast.ClassDef)]
    assert [n.name for n in cls.body if isinstance(n, ast.FunctionDef)] == ["test_age"]


def test_an_error_inside_brackets_is_taken_back_to_the_bracket() -> None:
    # Python reports the def after an unclosed "[" as the error; the list is what is left out
    text = "def a():\n    x = [\ndef b():\n    pass\n"
    tree, _, blanked = parse_tolerantly(text)
    assert [(b.first, b.last, b.line) for b in blanked] == [(1, 2, 2)]
    assert [n.name for n in tree.body if isinstance(n, ast.FunctionDef)] == ["b"]


def test_a_file_broken_everywhere_is_still_refused() -> None:
    text = "".join(f"def f{i}():\n    x = [\n\n" for i in range(MAX_REGIONS + 5))
    with pytest.raises(SyntaxError):
        parse_tolerantly(text)
    report = lint_python("from lionagi.work import FieldSpec\n" + text, "test_x.py")
    assert [p.note[:31] for p in report.parts or []] == ["skipped: not Python that parses"]


def test_the_command_line_lists_the_left_out_lines_and_keeps_the_findings(tmp_path: Path) -> None:
    path = tmp_path / "test_half.py"
    path.write_text(_edited("def test_served():\n    TestBranch.from_responses([{", 5), encoding="utf-8")
    text = subprocess.run(
        [sys.executable, "-m", "formscript", "lint", "--no-cache", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert text.returncode == 1
    note = "lines 5-6 skipped: not Python that parses ('{' was never closed at line 6)"
    assert f"{path}: {note}" in text.stdout
    assert "error[FS010]" in text.stdout and "error[SC002]" not in text.stdout
    data = subprocess.run(
        [sys.executable, "-m", "formscript", "lint", "--no-cache", "--format", "json", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    files = json.loads(data.stdout)["files"]
    assert [f.get("note") for f in files if f.get("verdict") is None] == [note]
    assert sum(len(f["diagnostics"]) for f in files) == 2


@pytest.mark.parametrize("typing", [False, True])
def test_the_files_own_warnings_stay_its_own(typing: bool) -> None:
    """Python warns of an invalid escape in a string (a SyntaxWarning from 3.12, a
    DeprecationWarning before): reading a test file shows none of them to the user, whose
    terminal would get them without the file's name; the findings are unchanged."""
    escape = 'PATTERN = "\\d+ items"\n'
    text = escape + (_edited("def test_served():\n    TestBranch.from_responses([{", 5) if typing else HEALTHY)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        found = _codes(text)
    assert [str(w.message) for w in caught] == []
    assert found == [(at + 1, code) for at, code in _codes(text[len(escape) :])]
