"""``formscript lint --add-suppressions REASON``: a comment above every current finding, so a
team adopts formscript on a large suite in one commit and sees only new problems."""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest

from formscript.cli import main

SCRIPT = "responses:\n  - {type: bogus}\n  - type: text\n    content: hi\n    typo: 1\n"
FORM = "fields:\n  age: {type: int}\n  country: {type: str}\nvalues:\n  age: seven\n  country: no\n"
TEST_PY = textwrap.dedent(
    '''
    import textwrap

    from lionagi.testing import ScriptModel
    from lionagi.work import FieldSpec


    def test_script():
        ScriptModel.from_responses([
            {"type": "text", "content": "hi", "when": {"prompt_contians": "x"}},
        ])


    def test_field():
        AGE = FieldSpec(name="age", type="int", default="x")


    def test_written(tmp_path):
        (tmp_path / "intake.form.yaml").write_text(textwrap.dedent("""
            fields:
              country: {type: str}
            values:
              country: no
        """))
    '''
)


def _run(tmp_path: Path, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    before = Path.cwd()
    os.chdir(tmp_path)
    try:
        code = main(["lint", "--no-cache", *argv])
    finally:
        os.chdir(before)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "a.script.yaml").write_text(SCRIPT, encoding="utf-8")
    (tmp_path / "b.form.yaml").write_text(FORM, encoding="utf-8")
    (tmp_path / "test_suite.py").write_text(TEST_PY, encoding="utf-8")
    return tmp_path


def test_every_finding_gets_a_comment_and_is_silenced(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(project, capsys, ".")
    assert code == 1 and "error" in out
    code, out, err = _run(project, capsys, "--add-suppressions", "adopted formscript", ".")
    assert (code, err) == (0, "")
    assert out == "formscript: added 7 suppression comment(s) in 3 file(s)\n"
    assert (project / "a.script.yaml").read_text(encoding="utf-8") == (
        "responses:\n"
        "  # formscript: ignore[SC002] adopted formscript\n"
        "  - {type: bogus}\n"
        "  - type: text\n"
        "    content: hi\n"
        "    # formscript: ignore[SC003] adopted formscript\n"
        "    typo: 1\n"
    )
    form = (project / "b.form.yaml").read_text(encoding="utf-8")
    assert "  # formscript: ignore[FS014] adopted formscript\n  age: seven\n" in form
    assert "  # formscript: ignore[FS015] adopted formscript\n  country: no\n" in form
    python = (project / "test_suite.py").read_text(encoding="utf-8")
    assert '        # formscript: ignore[SC003] adopted formscript\n        {"type": "text"' in python
    assert "    # formscript: ignore[FS011] adopted formscript\n    AGE = FieldSpec(" in python
    # inside the YAML text the test writes: a YAML comment, the text reads the same
    assert "          # formscript: ignore[FS015] adopted formscript\n          country: no\n" in python
    # now silent, every document as it was; a second run adds nothing
    code, out, _ = _run(project, capsys, ".")
    assert code == 0 and "0 error(s), 0 warning(s)" in out
    written = {p.name: p.read_text(encoding="utf-8") for p in project.iterdir()}
    code, out, _ = _run(project, capsys, "--add-suppressions", "adopted formscript", ".")
    assert (code, out) == (0, "formscript: added 0 suppression comment(s) in 0 file(s)\n")
    assert {p.name: p.read_text(encoding="utf-8") for p in project.iterdir()} == written


def test_a_comment_already_above_is_extended(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = "responses:\n  # formscript: ignore[SC011] known\n  - {type: text, content: hi, typo: 1}\n"
    (tmp_path / "a.script.yaml").write_text(text, encoding="utf-8")
    code, out, _ = _run(tmp_path, capsys, "--add-suppressions", "adopted", "a.script.yaml")
    assert (code, out) == (0, "formscript: added 1 suppression comment(s) in 1 file(s)\n")
    assert (tmp_path / "a.script.yaml").read_text(encoding="utf-8") == text.replace("[SC011]", "[SC011, SC003]")


def test_what_cannot_hold_a_comment_is_left_and_said(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "c.script.json").write_text('{"responses": [{"type": "bogus"}]}', encoding="utf-8")
    inside_json = textwrap.dedent(
        '''
        def test_written(tmp_path):
            (tmp_path / "a.script.json").write_text("""{
              "responses": [
                {"type": "bogus"}
              ]
            }""")
        '''
    )
    (tmp_path / "test_json.py").write_text("import lionagi\n" + inside_json, encoding="utf-8")
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    code, out, err = _run(tmp_path, capsys, "--add-suppressions", "adopted", ".")
    assert code == 1
    assert out == "formscript: added 0 suppression comment(s) in 0 file(s)\n"
    assert "c.script.json: 1 line(s) with findings not suppressed: JSON has no comments" in err
    assert "test_json.py: line 6: a comment above it would change the document; not suppressed" in err
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--fix"], "without --fix"),
        (["--diff"], "without --fix"),
        (["-"], "does not read stdin"),
    ],
)
def test_it_runs_alone(project: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, _, err = _run(project, capsys, "--add-suppressions", "adopted", *argv)
    assert code == 2 and message in err


def test_it_needs_a_reason(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(project, capsys, "--add-suppressions", "  ", ".")
    assert code == 2 and "needs a reason" in err
