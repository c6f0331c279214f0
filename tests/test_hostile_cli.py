"""Hostile files through the whole CLI, each in its own process under the documented bounds
(1.5 GB of address space; a generous wall-clock guard so a hang fails instead of stalling CI)."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path

import pytest

MEMORY_LIMIT = 1536 * 1024 * 1024
HANG_GUARD_SECONDS = 120

LAUGHS = "".join(f"  - &{n} [{', '.join([f'*{p}'] * 10)}]\n" for p, n in zip("abcdefg", "bcdefgh", strict=True))


def _limit() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def lint(*paths: Path) -> dict[str, dict]:  # type: ignore[type-arg]
    result = subprocess.run(
        [sys.executable, "-m", "formscript", "lint", "--no-cache", "--format", "json", *map(str, paths)],
        capture_output=True,
        text=True,
        timeout=HANG_GUARD_SECONDS,
        preexec_fn=_limit,
        check=False,
    )
    assert result.returncode in (0, 1), result.stderr
    assert "Traceback" not in result.stderr
    return {Path(f["path"]).name: f for f in json.loads(result.stdout)["files"]}


def _codes(entry: dict) -> set[str]:  # type: ignore[type-arg]
    return {d["code"] for d in entry["diagnostics"]}


@pytest.mark.slow
def test_hostile_files_get_verdicts(tmp_path: Path) -> None:
    (tmp_path / "latin1.form.yaml").write_bytes("title: caf\xe9\n".encode("latin-1"))
    (tmp_path / "utf16.form.yaml").write_bytes("title: x\n".encode("utf-16"))
    (tmp_path / "oneline.form.yaml").write_text("title: " + "x" * 3_000_000 + "\n", encoding="utf-8")
    fields = "".join(f"  f{i}: {{type: int}}\n" for i in range(30_000))
    values = "".join(f"  f{i}: {i}\n" for i in range(30_000))
    (tmp_path / "wide.form.yaml").write_text(f"fields:\n{fields}values:\n{values}", encoding="utf-8")
    (tmp_path / "bomb.form.yaml").write_text(
        "fields:\n  items: {type: list}\nvalues:\n  items:\n  - &a [x, x, x, x, x, x, x, x, x, x]\n" + LAUGHS,
        encoding="utf-8",
    )
    (tmp_path / "bomb.script.yaml").write_text(
        "responses:\n- type: structured\n  data:\n    items:\n  - &a [x, x, x, x, x, x, x, x, x, x]\n".replace(
            "    items:\n  - ", "    items:\n    - "
        )
        + LAUGHS.replace("  - ", "    - "),
        encoding="utf-8",
    )
    (tmp_path / "loop.form.yaml").symlink_to(tmp_path / "loop.form.yaml")
    (tmp_path / "dangling.script.yaml").symlink_to(tmp_path / "missing.yaml")
    (tmp_path / "dir.form.yaml").mkdir()
    report = lint(tmp_path, tmp_path / "dir.form.yaml")
    assert report["latin1.form.yaml"]["verdict"] == "rejected"  # the runtime reads UTF-8
    assert report["utf16.form.yaml"]["verdict"] == "rejected"
    assert report["oneline.form.yaml"]["verdict"] == "accepted"
    # 30,000 values render a context block of ~480,000 characters: li agent refuses the prompt
    assert report["wide.form.yaml"]["verdict"] == "rejected" and "FS024" in _codes(report["wide.form.yaml"])
    assert "FS022" in _codes(report["bomb.form.yaml"])
    assert "SC021" in _codes(report["bomb.script.yaml"])
    assert report["loop.form.yaml"]["verdict"] == "rejected"
    assert report["dangling.script.yaml"]["verdict"] == "rejected"
    for name, entry in report.items():
        assert entry["verdict"] in ("accepted", "rejected", "insufficient_evidence"), name


@pytest.mark.slow
@pytest.mark.parametrize("depth", [20_000])
def test_deep_nesting_in_yaml_and_json(tmp_path: Path, depth: int) -> None:
    (tmp_path / "deep.form.yaml").write_text("[" * depth + "]" * depth, encoding="utf-8")
    (tmp_path / "deep.script.json").write_text('{"a":' * depth + "1" + "}" * depth, encoding="utf-8")
    report = lint(tmp_path)
    assert report["deep.form.yaml"]["verdict"] == "rejected"
    assert report["deep.script.json"]["verdict"] == "rejected"


def test_unreadable_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Root reads files whatever their mode, so the refusal is simulated at the open call
    # (lint.files opens with os.open, non-blocking).
    from formscript.lint import files, reading
    from formscript.lint.config import Settings

    path = tmp_path / "secret.form.yaml"
    path.write_text("title: x\n", encoding="utf-8")

    def refuse(*args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(files.os, "open", refuse)
    text, report = reading.read_report_or_text(str(path), None, Settings())
    assert text is None and report is not None
    assert report.verdict is not None and report.verdict.value == "rejected"
    assert "Permission denied" in report.diagnostics[0].message


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    from formscript.cli import run

    code = run(argv)
    return code, capsys.readouterr().out


def test_paths_that_are_not_files_get_verdicts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A directory named like a form (or a link to one), a dangling link, a file that is not
    UTF-8, given by name: the runtime refuses each, so lint, dry-run and simulate say rejected
    (exit 1), with a message located at the start of the path (or at the first byte that is not
    UTF-8); a directory's files are still
    linted."""
    (tmp_path / "dir.form.yaml").mkdir()
    (tmp_path / "dir.form.yaml" / "inner.form.yaml").write_text("title: x\n", encoding="utf-8")
    (tmp_path / "link.script.yaml").symlink_to(tmp_path / "dir.form.yaml")
    (tmp_path / "gone.form.yaml").symlink_to(tmp_path / "missing.yaml")
    (tmp_path / "latin1.script.yaml").write_bytes("responses: [{type: text, content: caf\xe9}]\n".encode("latin-1"))
    (tmp_path / "plain").mkdir()  # not named like a file: walked only
    names = ["dir.form.yaml", "link.script.yaml", "gone.form.yaml", "latin1.script.yaml"]
    given = [str(tmp_path / n) for n in names]
    code, out = _run(["lint", "--no-cache", "--format", "json", *given, str(tmp_path / "plain")], capsys)
    files = {Path(f["path"]).relative_to(tmp_path).as_posix(): f for f in json.loads(out)["files"]}
    assert code == 1
    assert set(files) == {*names, "dir.form.yaml/inner.form.yaml", "link.script.yaml/inner.form.yaml"}
    for name in names:
        assert files[name]["verdict"] == "rejected", name
        (diagnostic,) = files[name]["diagnostics"]
        assert diagnostic["code"] == "YM001"
        # at the start of the path; in the Latin-1 file, at the byte that is not UTF-8
        column = len("responses: [{type: text, content: caf") + 1 if name.startswith("latin1") else 1
        assert diagnostic["range"]["start"] == {"line": 1, "column": column}, name
    assert files["dir.form.yaml/inner.form.yaml"]["verdict"] == "accepted"
    code, out = _run(["dry-run", "--format", "json", *given], capsys)
    assert code == 1
    assert [r["verdict"] for r in json.loads(out)["results"]] == ["rejected"] * 4
    for path in given:
        code, out = _run(["simulate", path, "--format", "json"], capsys)
        assert (code, json.loads(out)["verdict"]) == (1, "rejected"), path
        code, out = _run(["simulate", path], capsys)
        assert code == 1 and "[YM001]" in out
    # nothing at all at the path is misuse, as for lint
    assert _run(["dry-run", str(tmp_path / "nothing.form.yaml")], capsys)[0] == 2
    assert _run(["simulate", str(tmp_path / "nothing.script.yaml")], capsys)[0] == 2


def test_validator_error_fails_simulate_and_is_counted_as_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """formscript failing on a file is not a pass: simulate exits 1, lint counts the file as
    checked (not skipped) and shows the FSX000 diagnostic."""
    from formscript.lint import engine

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug of ours")

    monkeypatch.setattr(engine, "_lint", broken)
    script = tmp_path / "s.script.yaml"
    script.write_text("responses: [{type: text, content: hi}]\n", encoding="utf-8")
    code, out = _run(["simulate", str(script), "--format", "json"], capsys)
    assert (code, json.loads(out)["verdict"]) == (1, "validator_error")
    other = tmp_path / "notes.yaml"  # no kind known before the failure
    other.write_text("a: 1\n", encoding="utf-8")
    code, out = _run(["lint", "--no-cache", str(other)], capsys)
    assert "error[FSX000]" in out
    assert out.splitlines()[-1].startswith("1 file(s) checked, 0 skipped")
