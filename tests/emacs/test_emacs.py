"""A real editor: Debian's Emacs 28 with eglot 1.9 and yaml-mode, in batch, loading exactly
the README's Emacs setup, drives ``formscript serve`` (tests/emacs/drive.el) on copies of the
examples and checks what the user sees against the CLI: Flymake's diagnostics are
``formscript lint``'s (with the setup's ``ignore`` setting), hover reaches eldoc, completion
offers the fields still without a value, the fix-all action changes the file as
``formscript lint --fix`` does, ``eglot-rename`` renames a field in its declaration and its
value, the dry run and the simulation run as code actions and show their result (eglot 1.9
has no lenses and no ``window/showDocument``), Python test files join the server, and both
shutdowns (after work, and right after connecting) are clean.

On CI (``CI=true``) a missing ``emacs`` (or eglot, yaml-mode) is a failure, not a skip:
``.ci/extras-emacs.sh`` installs them."""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
README = ROOT / "docs" / "editors.md"  # the site's editors page
EXAMPLES = ROOT / "examples"
SERVER = ROOT / "server"

pytestmark = [pytest.mark.emacs, pytest.mark.slow]

#: The Python test files of tests/test_readme_editors.py: a typo in a script handed to lionagi,
#: and a file that does not use lionagi.
USES = """from lionagi.testing import TestBranch


async def test_greets():
    branch = TestBranch.from_responses([{"type": "text", "contnet": "hi"}])
"""
PLAIN = "import os\n\n\ndef test_cwd():\n    assert os.getcwd()\n"

#: The onboarding example, with a value the setup's ``ignore = ["FS016"]`` silences.
SIGNUP_EXTRA_FIELD = "  newsletter:\n    type: bool\n"


def readme_snippet() -> str:
    """The README's Emacs setup: the one elisp block of its Emacs section."""
    text = README.read_text(encoding="utf-8")
    section = text.split("### Emacs\n", 1)[1].split("\n### ", 1)[0]
    (block,) = re.findall(r"```elisp\n(.*?)```", section, re.DOTALL)
    return block


def _emacs() -> str:
    found = shutil.which("emacs")
    ready = found is not None and (
        subprocess.run(
            [found, "--batch", "--eval", "(progn (package-initialize) (require 'eglot) (require 'yaml-mode))"],
            capture_output=True,
            timeout=120,
            check=False,
        ).returncode
        == 0
    )
    if not ready:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("emacs with eglot and yaml-mode is not installed on CI; .ci/extras-emacs.sh installs it")
        pytest.skip("emacs, eglot or yaml-mode is not installed (apt-get install emacs-nox elpa-eglot elpa-yaml-mode)")
    assert found is not None
    return found


def _formscript_on_path(tmp_path: Path) -> dict[str, str]:
    """An environment whose ``formscript`` is this checkout's, as an installed one would be."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "formscript"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m formscript "$@"\n', encoding="utf-8")
    shim.chmod(shim.stat().st_mode | stat.S_IXUSR)
    python_path = os.pathsep.join(p for p in (str(SERVER), os.environ.get("PYTHONPATH", "")) if p)
    return {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        "PYTHONPATH": python_path,
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "HOME": str(tmp_path / "home"),
    }


def _cli(env: dict[str, str], cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "formscript", *args], env=env, cwd=cwd, capture_output=True, text=True, check=False
    )


def _project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    project.mkdir()
    onboarding = (EXAMPLES / "forms" / "onboarding.form.yaml").read_text(encoding="utf-8")
    signup = onboarding.replace("values:\n", SIGNUP_EXTRA_FIELD + "values:\n") + '  newsletter: "yes"\n'
    (project / "signup.form.yaml").write_text(signup, encoding="utf-8")
    shutil.copy(EXAMPLES / "forms" / "review.form.yaml", project / "review.form.yaml")
    shutil.copy(EXAMPLES / "forms" / "review.form.yaml", project / "plain.form.yaml")
    shutil.copy(EXAMPLES / "scripts" / "weather.script.yaml", project / "weather.script.yaml")
    shutil.copy(EXAMPLES / "scripts" / "weather.calls.yaml", project / "weather.calls.yaml")
    (project / "test_uses.py").write_text(USES, encoding="utf-8")
    (project / "test_plain.py").write_text(PLAIN, encoding="utf-8")
    (project / "other").mkdir()
    shutil.copy(EXAMPLES / "forms" / "review.form.yaml", project / "other" / "quick.form.yaml")
    return project


@pytest.fixture(scope="module")
def drive(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Run Emacs once over the project; what it saw, with the paths and the environment."""
    emacs = _emacs()
    tmp_path = tmp_path_factory.mktemp("emacs")
    project = _project(tmp_path)
    originals = {p.name: p.read_text(encoding="utf-8") for p in project.iterdir() if p.is_file()}
    snippet = tmp_path / "readme-emacs.el"
    snippet.write_text(readme_snippet(), encoding="utf-8")
    out = tmp_path / "seen.json"
    env = {
        **_formscript_on_path(tmp_path),
        "FORMSCRIPT_SNIPPET": str(snippet),
        "FORMSCRIPT_DIR": str(project),
        "FORMSCRIPT_OUT": str(out),
    }
    (tmp_path / "home").mkdir()
    done = subprocess.run(
        [emacs, "--batch", "-l", str(HERE / "drive.el")],
        env=env,
        cwd=project,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert out.exists(), done.stderr[-4000:]
    seen: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return {"seen": seen, "project": project, "env": env, "originals": originals, "stderr": done.stderr}


def _lint(drive: dict[str, Any], text: str, name: str, *args: str) -> Any:
    """``formscript lint`` of *text* written as *name* in a scratch folder (the project's
    files have been edited by then)."""
    scratch = drive["project"].parent / "scratch"
    scratch.mkdir(exist_ok=True)
    (scratch / name).write_text(text, encoding="utf-8")
    return _cli(drive["env"], scratch, "lint", *args, name), scratch / name


def test_emacs_drove_every_step_without_an_error(drive: dict[str, Any]) -> None:
    assert (drive["seen"]["errors"] or []) == [], drive["stderr"][-4000:]
    # one server for the project's YAML and Python buffers, as the setup's entry says
    assert drive["seen"]["server_modes"] == ["yaml-mode", "python-mode"]
    assert drive["seen"]["servers"] == 1


def test_flymake_shows_what_formscript_lint_reports_with_the_setups_settings(drive: dict[str, Any]) -> None:
    text = drive["originals"]["signup.form.yaml"]
    everything, _ = _lint(drive, text, "signup.form.yaml", "--format", "json")
    ignored, _ = _lint(drive, text, "signup.form.yaml", "--format", "json", "--ignore", "FS016")
    assert "FS016" in {d["code"] for d in json.loads(everything.stdout)["files"][0]["diagnostics"]}
    kinds = {"error": "eglot-error", "warning": "eglot-warning", "info": "eglot-note", "hint": "eglot-note"}
    expected = [
        {
            "line": d["range"]["start"]["line"],
            "column": d["range"]["start"]["column"] - 1,
            "end_line": d["range"]["end"]["line"],
            "end_column": d["range"]["end"]["column"] - 1,
            "type": kinds[d["severity"]],
            "text": f"formscript [{d['code']}]: {d['message']}",
        }
        for d in json.loads(ignored.stdout)["files"][0]["diagnostics"]
    ]
    assert len(expected) == 5
    assert drive["seen"]["diagnostics"] == expected


def test_eldoc_gets_the_hover_text(drive: dict[str, Any]) -> None:
    # on the unquoted `no` of `country: no` (a str field); eglot 1.9 without markdown-mode asks
    # for plain text, and gets it
    assert drive["seen"]["hover"] == (
        "The runtime sees False (bool), which is not a str: the form is refused\n\n"
        "YAML 1.1 reads the unquoted no as a boolean; quote it to keep the text."
    )


def test_completion_offers_the_fields_still_without_a_value(drive: dict[str, Any]) -> None:
    # a new line under values: seats, country and newsletter have values, trial_days has a
    # default, the misspelt `contcat` gives contact none
    assert drive["seen"]["completions"] == ["contact"]


def test_the_fix_all_action_changes_the_file_as_lint_fix_does(drive: dict[str, Any]) -> None:
    # at the unquoted `no`: its quick fix and suppression, all safe fixes, and the dry run
    assert drive["seen"]["actions"] == [
        "quote 'no' so it stays a string (FS015)",
        "Suppress FS015 on this line (with a reason)",
        "Fix all safe formscript problems",
        "formscript: Dry run",
    ]
    fixed, path = _lint(drive, drive["originals"]["signup.form.yaml"], "signup.form.yaml", "--fix")
    assert fixed.returncode == 1  # unsafe fixes and other errors remain
    after = (drive["project"] / "signup.form.yaml").read_text(encoding="utf-8")
    assert after == path.read_text(encoding="utf-8") != drive["originals"]["signup.form.yaml"]


def test_eglot_rename_renames_the_field_in_its_declaration_and_its_value(drive: dict[str, Any]) -> None:
    before = drive["originals"]["review.form.yaml"]
    assert before.count("pull_request") == 2
    after = (drive["project"] / "review.form.yaml").read_text(encoding="utf-8")
    assert after == before.replace("pull_request", "pr_number")
    linted, _ = _lint(drive, after, "review.form.yaml")
    assert linted.returncode == 0, linted.stdout


def _shown(message: str, what: str) -> tuple[str, Path]:
    match = re.fullmatch(
        rf"\[eglot\] Server reports \(type=3\): formscript {what}: (.*); "
        r"the whole result is in (\S+) and the server log\n",
        message,
    )
    assert match, message
    return match.group(1), Path(match.group(2))


def test_the_dry_run_code_action_shows_what_formscript_dry_run_prints(drive: dict[str, Any]) -> None:
    project = drive["project"]
    printed = _cli(drive["env"], project, "dry-run", str(project / "plain.form.yaml")).stdout
    first, path = _shown(drive["seen"]["dry_run"], "dry run")
    assert first == printed.splitlines()[0] == f"{project / 'plain.form.yaml'}: accepted (status validated)"
    assert path.parent == Path(drive["env"]["XDG_CACHE_HOME"]) / "formscript" / "results"
    assert path.read_text(encoding="utf-8") == printed


def test_the_simulate_code_action_shows_the_simulation_with_the_sibling_calls(drive: dict[str, Any]) -> None:
    project = drive["project"]
    assert drive["seen"]["script_actions"] == ["formscript: Simulate"]  # no dry run of a script
    printed = _cli(
        drive["env"], project, "simulate", str(project / "weather.script.yaml"), "--calls", "weather.calls.yaml"
    ).stdout
    first, path = _shown(drive["seen"]["simulation"], "simulation")
    assert first == printed.splitlines()[0]
    assert path.read_text(encoding="utf-8") == printed and "call 2: entry #2" in printed
    # nothing was written into the project but the edits the user saved
    assert sorted(p.name for p in project.iterdir()) == sorted([*drive["originals"], "other"])


def test_python_test_files_join_the_server(drive: dict[str, Any]) -> None:
    assert drive["seen"]["python_mode"] == "python-mode"
    codes = sorted(re.match(r"formscript \[(\w+)\]", d["text"]).group(1) for d in drive["seen"]["uses"])  # type: ignore[union-attr]
    assert codes == ["SC003", "SC004"]
    assert (drive["seen"]["plain"] or []) == []


@pytest.mark.parametrize("which", ["shutdown", "quick_shutdown"])
def test_shutdown_is_answered_null(drive: dict[str, Any], which: str) -> None:
    """After the work, and right after connecting: eglot 1.9 then deletes the process itself
    (status 9); tests/lsp/test_shutdown_race.py checks the server's own exit code."""
    seen = drive["seen"][which]
    assert seen["error"] is None
    events = seen["events"]
    shutdown = re.search(r':id (\d+) :method "shutdown"', events)
    assert shutdown, events[-3000:]
    assert f'(:id {shutdown.group(1)} :jsonrpc "2.0" :result nil)' in events, events[-3000:]
    assert "RuntimeError" not in events and "changed size during iteration" not in events
