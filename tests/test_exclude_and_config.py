"""Which files ``formscript lint`` reads and with which settings: each file's own configuration
(so the order of paths never changes a result), the ``exclude`` setting, .gitignore files, and
``--force-exclude``; the language server's workspace listing walks the same way."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from formscript import rules
from formscript.lint import discovery
from formscript.lint.config import ConfigError, SettingsFinder, settings_from_mapping
from formscript.lsp.settings import SettingsStore

#: A form with two errors: FS012 (a required value missing) and FS005 (a value not declared).
BROKEN = "title: T\nfields:\n  a: {type: str}\nvalues:\n  b: 1\n"


def _lint(cwd: Path, *args: str) -> tuple[int, dict[str, list[str]]]:
    """Exit code and the codes reported per path, from ``formscript lint --format json``."""
    done = subprocess.run(
        [sys.executable, "-m", "formscript", "lint", "--no-cache", "--format", "json", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode in (0, 1, 2), done.stderr
    if done.returncode == 2:
        return 2, {"stderr": [done.stderr]}
    data = json.loads(done.stdout)
    found = {Path(entry["path"]).as_posix(): sorted(d["code"] for d in entry["diagnostics"]) for entry in data["files"]}
    return done.returncode, found


def _tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_each_file_takes_its_own_configuration_whatever_the_order(tmp_path: Path) -> None:
    _tree(
        tmp_path,
        {
            "a/formscript.toml": f'ignore = ["{rules.FS005.code}"]\n',
            "a/x.form.yaml": BROKEN,
            "b/x.form.yaml": BROKEN,
        },
    )
    code_ab, ab = _lint(tmp_path, "a", "b")
    code_ba, ba = _lint(tmp_path, "b", "a")
    assert code_ab == code_ba == 1
    assert (
        ab
        == ba
        == {
            "a/x.form.yaml": [rules.FS012.code],
            "b/x.form.yaml": sorted([rules.FS005.code, rules.FS012.code]),
        }
    )
    # --config names one configuration for every file
    _, fixed = _lint(tmp_path, "--config", "a/formscript.toml", "b", "a")
    assert fixed == {"a/x.form.yaml": [rules.FS012.code], "b/x.form.yaml": [rules.FS012.code]}
    # the command line's codes go on top of each file's configuration (a list replaces the
    # configuration's list, as every layer above does)
    _, narrowed = _lint(tmp_path, "--ignore", rules.FS012.code, "b", "a")
    assert narrowed == {"a/x.form.yaml": [rules.FS005.code], "b/x.form.yaml": [rules.FS005.code]}


def test_a_broken_configuration_anywhere_is_refused_with_its_location(tmp_path: Path) -> None:
    _tree(tmp_path, {"a/x.form.yaml": BROKEN, "b/formscript.toml": "select = 3\n", "b/x.form.yaml": BROKEN})
    code, out = _lint(tmp_path, "a", "b")
    assert code == 2
    assert "b/formscript.toml" in out["stderr"][0] and "select" in out["stderr"][0]


def test_exclude_leaves_folders_and_files_out_of_walks_not_out_of_named_paths(tmp_path: Path) -> None:
    _tree(
        tmp_path,
        {
            "pyproject.toml": '[tool.formscript]\nexclude = ["legacy/", "*.draft.form.yaml"]\n',
            "legacy/old.form.yaml": BROKEN,
            "specs/new.form.yaml": BROKEN,
            "specs/wip.draft.form.yaml": BROKEN,
        },
    )
    _, walked = _lint(tmp_path, ".")
    assert list(walked) == ["specs/new.form.yaml"]
    # a file named on the command line is read (as ruff does) ...
    _, named = _lint(tmp_path, "legacy/old.form.yaml", "specs/wip.draft.form.yaml")
    assert sorted(named) == ["legacy/old.form.yaml", "specs/wip.draft.form.yaml"]
    # ... unless --force-exclude (pre-commit names every changed file)
    code, forced = _lint(tmp_path, "--force-exclude", "legacy/old.form.yaml", "specs/wip.draft.form.yaml")
    assert (code, forced) == (0, {})
    # the patterns are relative to the configuration's folder, wherever lint is run from
    _, below = _lint(tmp_path / "specs", ".")
    assert list(below) == ["new.form.yaml"]


def test_gitignore_is_honoured_inside_a_repository(tmp_path: Path) -> None:
    _tree(
        tmp_path,
        {
            ".gitignore": "generated/\n*.out.form.yaml\n",
            "sub/.gitignore": "!keep.out.form.yaml\n",
            "generated/g.form.yaml": BROKEN,
            "a.out.form.yaml": BROKEN,
            "sub/keep.out.form.yaml": BROKEN,
            "sub/drop.out.form.yaml": BROKEN,
            "x.form.yaml": BROKEN,
        },
    )
    _, outside = _lint(tmp_path, ".")  # no .git: not a repository, nothing is ignored
    assert len(outside) == 5
    (tmp_path / ".git").mkdir()
    _, inside = _lint(tmp_path, ".")
    assert sorted(inside) == ["sub/keep.out.form.yaml", "x.form.yaml"]
    (tmp_path / "formscript.toml").write_text("respect-gitignore = false\n", encoding="utf-8")
    _, all_of_them = _lint(tmp_path, ".")
    assert len(all_of_them) == 5


def test_the_git_info_exclude_file_counts_and_the_deepest_gitignore_wins(tmp_path: Path) -> None:
    _tree(
        tmp_path,
        {
            ".git/info/exclude": "private/\n",
            ".gitignore": "!*.form.yaml\nspecs/*.form.yaml\n",
            "specs/.gitignore": "!kept.form.yaml\n",
            "private/p.form.yaml": BROKEN,
            "specs/kept.form.yaml": BROKEN,
            "specs/dropped.form.yaml": BROKEN,
        },
    )
    _, found = _lint(tmp_path, ".")
    assert sorted(found) == ["specs/kept.form.yaml"]


def test_the_workspace_listing_of_the_server_leaves_out_the_same_files(tmp_path: Path) -> None:
    _tree(
        tmp_path,
        {
            "formscript.toml": 'exclude = ["legacy/"]\n',
            ".gitignore": "out/\n",
            "legacy/old.form.yaml": BROKEN,
            "out/o.form.yaml": BROKEN,
            "specs/new.form.yaml": BROKEN,
        },
    )
    (tmp_path / ".git").mkdir()
    store = SettingsStore()
    listed = [Path(p).relative_to(tmp_path).as_posix() for p in discovery.listed(str(tmp_path), store.for_path)]
    assert listed == ["specs/new.form.yaml"]


def test_exclude_takes_a_list_of_patterns() -> None:
    assert settings_from_mapping({"exclude": ["a/", "*.x"]}).exclude == ("a/", "*.x")
    with pytest.raises(ConfigError, match="exclude: expected a list"):
        settings_from_mapping({"exclude": "a/"})
    with pytest.raises(ConfigError, match="respect-gitignore: expected true or false"):
        settings_from_mapping({"respect-gitignore": "no"})


def test_the_finder_reads_each_configuration_once(tmp_path: Path) -> None:
    _tree(tmp_path, {"formscript.toml": 'ignore = ["FS0"]\n', "a/b/c/x.form.yaml": "", "a/y.form.yaml": ""})
    finder = SettingsFinder()
    first = finder(str(tmp_path / "a/b/c/x.form.yaml"))
    second = finder(str(tmp_path / "a/y.form.yaml"))
    assert first.ignore == second.ignore == ("FS0",)
    assert first is finder(str(tmp_path / "a/b/c/x.form.yaml"))
