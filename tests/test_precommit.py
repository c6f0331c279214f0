"""The pre-commit hook, run by pre-commit itself against a sample repository."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # pre-commit builds a fresh environment

ROOT = Path(__file__).resolve().parents[1]
PRE_COMMIT = Path(sys.executable).parent / "pre-commit"


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)


def test_hook_flags_a_bad_form_and_passes_once_fixed(tmp_path: Path) -> None:
    if not PRE_COMMIT.exists():
        pytest.fail("pre-commit is part of the test extras and must be installed")
    repo = tmp_path / "sample"
    repo.mkdir()
    _git(repo, "init", "-q")
    _git(repo, "config", "user.email", "t@example.com")
    _git(repo, "config", "user.name", "t")
    (repo / "agent.form.yaml").write_text("fields:\n  country: {type: str}\nvalues:\n  country: no\n", encoding="utf-8")
    (repo / "notes.yaml").write_text("country: no\n", encoding="utf-8")  # not a formscript file
    _git(repo, "add", ".")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "cache"), "NO_COLOR": "1"}
    command = [str(PRE_COMMIT), "try-repo", str(ROOT), "formscript-lint", "--all-files", "--verbose"]
    first = subprocess.run(command, cwd=repo, env=env, capture_output=True, text=True, timeout=900)
    assert first.returncode == 1, first.stdout + first.stderr
    assert "agent.form.yaml:4:12: error[FS015]" in first.stdout
    assert "notes.yaml" not in first.stdout
    (repo / "agent.form.yaml").write_text(
        "fields:\n  country: {type: str}\nvalues:\n  country: 'no'\n", encoding="utf-8"
    )
    _git(repo, "add", ".")
    second = subprocess.run(command, cwd=repo, env=env, capture_output=True, text=True, timeout=900)
    assert second.returncode == 0, second.stdout + second.stderr
    shutil.rmtree(tmp_path / "cache", ignore_errors=True)
