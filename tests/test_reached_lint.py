"""The CLI, lint and run paths no other test reached: each asserts what a user sees there."""

from __future__ import annotations

from pathlib import Path

import pytest

from formscript import __version__
from formscript.cli import run

SPLIT_CALL = """\
from lionagi.testing import ScriptModel

SCRIPT = ScriptModel.from_responses(
    [
        {"type": "text", "content": "hello"},
    ]
)
"""


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = run(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_version_and_no_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(capsys, "--version") == (0, f"formscript {__version__}\n", "")
    code, out, err = cli(capsys)
    assert (code, err) == (2, "")
    assert out.startswith("usage: formscript [-h] [--version] COMMAND ...\n")


def test_rule_needs_a_code_and_prints_markdown(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(capsys, "rule") == (2, "", "formscript: give a rule code or --all\n")
    from formscript import rules

    assert cli(capsys, "rule", "--format", "markdown", "FS015") == (0, rules.get("FS015").page(), "")  # type: ignore[union-attr]
    assert cli(capsys, "rule", "--format", "markdown", "--all") == (0, rules.reference(), "")


def test_unknown_schema(capsys: pytest.CaptureFixture[str]) -> None:
    message = "formscript: unknown schema 'nope'; choose from form, script, rules, calls\n"
    assert cli(capsys, "schema", "nope") == (2, "", message)


def test_lint_configuration_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.form.yaml").write_text("fields: {}\n", encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "pyproject.toml").write_text("[tool.other]\nx = 1\n", encoding="utf-8")
    said = "formscript: configuration error: "
    assert cli(capsys, "lint", "--config", "nope.toml", "a.form.yaml") == (
        2,
        "",
        said + "nope.toml: no such configuration file\n",
    )
    assert cli(capsys, "lint", "--config", "sub/pyproject.toml", "a.form.yaml") == (
        2,
        "",
        said + "sub/pyproject.toml: has no [tool.formscript] table\n",
    )
    assert cli(capsys, "lint", "--severity", "FS015", "a.form.yaml") == (
        2,
        "",
        said + "--severity 'FS015': expected CODE=LEVEL\n",
    )


def test_simulate_by_the_call_line_and_a_line_without_a_script(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "test_split.py"
    path.write_text(SPLIT_CALL, encoding="utf-8")
    code, out, _ = cli(capsys, "simulate", f"{path}:3")  # the call's line; the literal starts on 4
    assert code == 0 and out.startswith(f"{path}:3: accepted, mode auto\n#0 text (line 5)")
    message = f"formscript: {path}:1: no script is handed to lionagi on this line (lines with one: 4)\n"
    assert cli(capsys, "simulate", f"{path}:1") == (2, "", message)


def test_progress_bar_and_one_worker_per_core(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from formscript.cli import pool
    from formscript.lint.config import Settings

    texts = ["fields:\n  seats: {type: int}\nvalues:\n  seats: 3\n", "fields: {}\nvalues:\n  country: no\n"]
    jobs: list[pool.Job] = [(f"f{i}.form.yaml", text, Settings(), None, None) for i, text in enumerate(texts)]
    plain = [(r.path, r.verdict, [d.code for d in r.diagnostics]) for r in pool.run_jobs(jobs, 1)]
    shown = [(r.path, r.verdict, [d.code for d in r.diagnostics]) for r in pool.run_jobs(jobs, 1, progress=True)]
    assert shown == plain and plain[1][2]
    # --jobs 0 asks for one worker per core (here below the pool's threshold: the same reports)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.form.yaml").write_text(texts[1], encoding="utf-8")
    one, zero = run(["lint", "--no-cache", "--jobs", "1", "."]), run(["lint", "--no-cache", "--jobs", "0", "."])
    out = capsys.readouterr().out
    assert (one, zero) == (1, 1) and out[: len(out) // 2] == out[len(out) // 2 :]
    counted = []
    monkeypatch.setattr(pool.os, "cpu_count", lambda: counted.append(1) or 4)
    assert run(["lint", "--no-cache", "--jobs", "0", "."]) == 1 and counted == [1]


def test_stdin_among_the_paths_adds_no_folder_fixes_may_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io
    import sys

    monkeypatch.chdir(tmp_path)
    bad = "fields:\n  country: {type: str}\nvalues:\n  country: no\n"
    (tmp_path / "b.form.yaml").write_text(bad, encoding="utf-8")
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "a.form.yaml").symlink_to("../b.form.yaml")
    monkeypatch.setattr(sys, "stdin", io.StringIO("fields: {}\n"))
    code, _, err = cli(capsys, "lint", "--no-cache", "--fix", "-", "x/a.form.yaml")
    target = tmp_path.resolve() / "b.form.yaml"
    assert code == 1 and (tmp_path / "b.form.yaml").read_text(encoding="utf-8") == bad
    assert err == (
        f"formscript: x/a.form.yaml: fixes not written: it is a link to {target}, outside the folders being linted\n"
        "formscript: fixed 0 finding(s) in 0 file(s); 1 remaining\n"
    )


YAML_DUMPED_FORM = """\
import yaml
from lionagi.cli.agent import _load_form_spec


def test_form(tmp_path):
    p = tmp_path / "x.form.yaml"
    p.write_text(yaml.safe_dump({"fields": {"a": {"type": "str"}}, "values": {"a": "no"}}))
    _load_form_spec(p)
"""


def test_a_yaml_dumped_form_is_not_checked() -> None:
    from formscript.lint.python_lint import lint_python

    bundle = lint_python(YAML_DUMPED_FORM, "test_dump.py")
    assert (bundle.parts, bundle.diagnostics) == ([], [])
