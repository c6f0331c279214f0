"""The lint CLI end to end: formats, exit codes, configuration, suppression, fixes, stdin, jobs."""

from __future__ import annotations

import io
import json
import os
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from formscript.cli import run

BAD_FORM = """title: Onboarding
fields:
  country: {type: str}   # keep this comment
  seats: {type: int}
values:
  country: no
  seats: 3
"""
CLEAN_FORM = "fields:\n  seats: {type: int}\nvalues:\n  seats: 3\n"


def lint(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = run(["lint", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.form.yaml").write_text(BAD_FORM, encoding="utf-8")
    (tmp_path / "clean.form.yaml").write_text(CLEAN_FORM, encoding="utf-8")
    return tmp_path


def test_json_contract(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = lint(capsys, "--format", "json", ".")
    assert code == 1
    data = json.loads(out)
    assert data["version"] == 1
    files = {f["path"]: f for f in data["files"]}
    bad = files["bad.form.yaml"]
    assert bad["kind"] == "form" and bad["verdict"] == "rejected"
    (diag,) = bad["diagnostics"]
    assert diag["code"] == "FS015" and diag["severity"] == "error"
    assert diag["range"] == {"start": {"line": 6, "column": 12}, "end": {"line": 6, "column": 14}}
    assert diag["fix"]["safe"] is True
    assert files["clean.form.yaml"] == {
        "path": "clean.form.yaml",
        "kind": "form",
        "verdict": "accepted",
        "diagnostics": [],
    }
    assert data["summary"]["by_verdict"]["rejected"] == 1


def test_text_format_has_caret_under_the_value(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = lint(capsys, "bad.form.yaml")
    lines = out.splitlines()
    assert lines[0].startswith("bad.form.yaml:6:12: error[FS015] ")
    assert lines[1] == "   6 |   country: no"
    assert lines[2] == " " * 18 + "^^"


def test_concise_github_junit(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = lint(capsys, "--format", "concise", "bad.form.yaml")
    assert out.startswith("bad.form.yaml:6:12: error[FS015] YAML 1.1 reads unquoted 'no'")
    _, out, _ = lint(capsys, "--format", "github", "bad.form.yaml")
    assert out.startswith("::error file=bad.form.yaml,line=6,col=12,endLine=6,endColumn=14,title=FS015::")
    _, out, _ = lint(capsys, "--format", "junit", ".")
    suite = ET.fromstring(out)
    assert suite.get("tests") == "2" and suite.get("failures") == "1"
    failing = [c for c in suite if c.find("failure") is not None]
    assert [c.get("name") for c in failing] == ["bad.form.yaml"]


def test_sarif_validates_against_the_sarif_model(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from sarif_pydantic import Sarif

    _, out, _ = lint(capsys, "--format", "sarif", ".")
    data = json.loads(out)
    log = Sarif.model_validate(data)
    assert log.version == "2.1.0"
    (result,) = data["runs"][0]["results"]
    assert result["ruleId"] == "FS015"
    assert result["locations"][0]["physicalLocation"]["region"]["startLine"] == 6
    (rule,) = data["runs"][0]["tool"]["driver"]["rules"]
    assert rule["id"] == "FS015" and rule["name"] == "yaml11-surprise"
    assert rule["help"]["markdown"].startswith("# FS015 yaml11-surprise\n")
    assert "helpUri" not in rule  # the rule pages have no web address


def test_exit_codes(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert lint(capsys, "clean.form.yaml")[0] == 0
    assert lint(capsys, "bad.form.yaml")[0] == 1
    assert lint(capsys, "--exit-zero", "bad.form.yaml")[0] == 0
    assert lint(capsys, "missing.form.yaml")[0] == 2
    (project / "warn.script.yaml").write_text("responses: []\n", encoding="utf-8")
    assert lint(capsys, "warn.script.yaml")[0] == 0
    assert lint(capsys, "--fail-on", "warning", "warn.script.yaml")[0] == 1


def test_config_select_ignore_and_severity(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "pyproject.toml").write_text('[tool.formscript]\nseverity = {FS015 = "warning"}\n', encoding="utf-8")
    code, out, _ = lint(capsys, "--format", "concise", "bad.form.yaml")
    assert code == 0 and "warning[FS015]" in out
    code, out, _ = lint(capsys, "--format", "concise", "--ignore", "FS0", "bad.form.yaml")
    assert out == "" and code == 0
    (project / "pyproject.toml").write_text('[tool.formscript]\nselct = ["FS"]\n', encoding="utf-8")
    code, _, err = lint(capsys, "bad.form.yaml")
    assert code == 2 and "unknown setting 'selct'" in err


def test_per_file_ignores(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "formscript.toml").write_text('[per-file-ignores]\n"bad.*" = ["FS015"]\n', encoding="utf-8")
    code, out, _ = lint(capsys, "--format", "concise", ".")
    assert code == 0 and out == ""


def test_inline_suppression_and_unused_suppression(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = BAD_FORM.replace(
        "  country: no\n", "  # formscript: ignore[FS015] Norway's code, fixed upstream\n  country: no\n"
    )
    (project / "bad.form.yaml").write_text(text, encoding="utf-8")
    code, out, _ = lint(capsys, "--format", "concise", "bad.form.yaml")
    assert out == "" and code == 0
    text = CLEAN_FORM + "# formscript: ignore[FS005]\n"
    (project / "clean.form.yaml").write_text(text, encoding="utf-8")
    _, out, _ = lint(capsys, "--format", "concise", "clean.form.yaml")
    assert "warning[FSX001]" in out and "warning[FSX002]" in out


def test_fix_keeps_comments_and_layout(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = lint(capsys, "--diff", "bad.form.yaml")
    # the patch alone on stdout (lint --diff > fix.patch), the report on stderr
    assert out.startswith("--- bad.form.yaml") or out.startswith("--- a/"), out
    assert "+  country: 'no'" in out and "error[" not in out and "FS015" in err
    assert (project / "bad.form.yaml").read_text(encoding="utf-8") == BAD_FORM
    code, out, err = lint(capsys, "--fix", "--format", "concise", "bad.form.yaml")
    assert code == 0 and out == ""
    assert err == "formscript: fixed 1 finding(s) in 1 file(s); 0 remaining\n"
    assert (project / "bad.form.yaml").read_text(encoding="utf-8") == BAD_FORM.replace("country: no", "country: 'no'")


def test_unsafe_fix_only_with_the_flag(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = "fields:\n  seats: {type: int}\nvalues:\n  saets: 3  # typo\n"
    (project / "typo.form.yaml").write_text(text, encoding="utf-8")
    lint(capsys, "--fix", "typo.form.yaml")
    assert (project / "typo.form.yaml").read_text(encoding="utf-8") == text
    code, _, _ = lint(capsys, "--fix", "--unsafe-fixes", "typo.form.yaml")
    assert code == 0
    assert (project / "typo.form.yaml").read_text(encoding="utf-8") == text.replace("saets", "seats")


def test_stdin_with_filename(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(BAD_FORM))
    code, out, _ = lint(capsys, "--format", "concise", "--stdin-filename", "in.form.yaml", "-")
    assert code == 1 and out.startswith("in.form.yaml:6:12: error[FS015]")
    # naming stdin's file is enough: no path means stdin, not the whole folder
    monkeypatch.setattr(sys, "stdin", io.StringIO(BAD_FORM))
    code, again, _ = lint(capsys, "--format", "concise", "--stdin-filename", "in.form.yaml")
    assert (code, again) == (1, out)


def test_jobs_give_the_same_report(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import formscript.cli.pool

    monkeypatch.setattr(formscript.cli.pool, "PARALLEL_THRESHOLD", 2)  # use the pool for 6 files
    for i in range(6):
        (project / f"f{i}.form.yaml").write_text(BAD_FORM if i % 2 else CLEAN_FORM, encoding="utf-8")
    _, one, _ = lint(capsys, "--no-cache", "--format", "json", "--jobs", "1", ".")
    _, two, _ = lint(capsys, "--no-cache", "--format", "json", "--jobs", "2", ".")
    assert one == two


def test_cache_serves_unchanged_files_and_misses_changed_ones(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, first, _ = lint(capsys, "--format", "text", ".")
    assert list(Path(os.environ["FORMSCRIPT_CACHE_DIR"]).glob("lint-v3-*.json"))
    assert not (project / ".formscript_cache").exists()  # outside the repository
    _, second, _ = lint(capsys, "--format", "text", ".")
    assert second == first
    (project / "bad.form.yaml").write_text(BAD_FORM.replace("country: no", "country: 'no'"), encoding="utf-8")
    code, third, _ = lint(capsys, "--format", "concise", ".")
    assert code == 0 and third == ""


def test_unknown_files_are_skipped_with_a_note(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "other.yaml").write_text("name: ci\non: push\n", encoding="utf-8")
    code, out, _ = lint(capsys, "--format", "json", "other.yaml")
    (entry,) = json.loads(out)["files"]
    assert code == 0 and entry["kind"] is None and entry["note"].startswith("skipped")


def test_rule_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["rule", "fs015"]) == 0
    assert capsys.readouterr().out.startswith("# FS015 yaml11-surprise")
    assert run(["rule", "--all", "--format", "json"]) == 0
    rules = json.loads(capsys.readouterr().out)
    assert {"FS001", "SC008", "RS010"} <= {r["code"] for r in rules}
    assert run(["rule", "NOPE"]) == 2


def test_examples_directory_shows_the_typical_mistakes(capsys: pytest.CaptureFixture[str]) -> None:
    root = Path(__file__).resolve().parents[1] / "examples"
    code, out, _ = lint(capsys, "--format", "json", str(root))
    data = json.loads(out)
    verdicts = {Path(f["path"]).name: f["verdict"] for f in data["files"]}
    assert code == 1
    assert verdicts["review.form.yaml"] == "accepted"
    assert verdicts["onboarding.form.yaml"] == "rejected"
    assert verdicts["weather.script.yaml"] == "accepted"
    names = ("review.form.yaml", "weather.script.yaml", "weather.calls.yaml")
    clean = [f for f in data["files"] if Path(f["path"]).name in names]
    assert all(f["diagnostics"] == [] for f in clean)


def test_fix_removes_empty_matchers_through_a_round_trip(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (
        "# fixtures for the support bot\n"
        "responses:\n"
        "  - type: text\n"
        "    content: hi   # greeting\n"
        "    when: {}\n"
        "  - {type: text, content: bye, when: {}}\n"
    )
    (project / "bot.script.yaml").write_text(text, encoding="utf-8")
    code, out, _ = lint(capsys, "--fix", "--format", "concise", "bot.script.yaml")
    assert code == 0 and out == ""
    assert (project / "bot.script.yaml").read_text(encoding="utf-8") == (
        "# fixtures for the support bot\n"
        "responses:\n"
        "  - type: text\n"
        "    content: hi   # greeting\n"
        "  - {type: text, content: bye}\n"
    )


def test_calls_setting_must_map_globs_to_paths(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "formscript.toml").write_text("calls = [1]\n", encoding="utf-8")
    code, _, err = lint(capsys, "clean.form.yaml")
    assert code == 2 and "calls must be a table" in err
