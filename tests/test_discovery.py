"""The shared file walk (``formscript.lint.discovery``); the CLI and the server agreeing on a
tricky workspace is tests/lsp/test_workspace_files.py."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from formscript.lint.config import Settings, settings_from_mapping
from formscript.lint.discovery import SKIPPED_DIRS, candidates, listed, walk
from formscript.lint.kinds import kind_from_name


def touch(root: Path, *names: str) -> None:
    for name in names:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x: 1\n", encoding="utf-8")


def test_walk_lists_in_sorted_path_order(tmp_path: Path) -> None:
    # "a.b" sorts before "a/…", "a" before "a.b", "a-" before "a." — as the full paths do
    names = ["a/x.form.yaml", "a.b", "a-", "a.form.yaml", "a/b/c.yaml", "ab/z", "A", "_"]
    touch(tmp_path, *names)
    found = list(walk(str(tmp_path)))
    assert found == sorted(str(tmp_path / n) for n in names)


def test_walk_skips_folders_below_the_root_only(tmp_path: Path) -> None:
    root = tmp_path / ".hidden-root"
    touch(root, "keep.form.yaml", ".cache/no.form.yaml", "deep/.git/no.form.yaml")
    for folder in SKIPPED_DIRS:
        touch(root, f"{folder}/no.form.yaml", f"deep/{folder}/no.form.yaml")
    assert [Path(p).relative_to(root).as_posix() for p in walk(str(root))] == ["keep.form.yaml"]
    assert list(walk(str(root / "build"))) == [str(root / "build" / "no.form.yaml")]  # a given root is walked


def test_links_to_folders_are_not_followed_links_to_files_are_listed(tmp_path: Path) -> None:
    touch(tmp_path, "real/f.form.yaml")
    os.symlink(tmp_path / "real", tmp_path / "alias")
    os.symlink(".", tmp_path / "real" / "here")
    os.symlink("f.form.yaml", tmp_path / "real" / "g.form.yaml")
    os.symlink("loop.form.yaml", tmp_path / "loop.form.yaml")
    found = [Path(p).relative_to(tmp_path).as_posix() for p in walk(str(tmp_path))]
    assert found == ["loop.form.yaml", "real/f.form.yaml", "real/g.form.yaml"]


def test_relative_roots_give_normalised_paths(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    touch(tmp_path, "one.form.yaml", "sub/two.script.yaml")
    monkeypatch.chdir(tmp_path)
    assert list(walk(".")) == ["one.form.yaml", os.path.join("sub", "two.script.yaml")]
    assert list(walk("./sub/")) == [os.path.join("sub", "two.script.yaml")]


def test_candidates_and_listed(tmp_path: Path) -> None:
    touch(tmp_path, "a.form.yaml", "b.yaml", "c.json", "d.txt", "data/e.yml", "f.script.yml")
    plain = Settings()
    everything = [Path(p).relative_to(tmp_path).as_posix() for p in candidates(str(tmp_path), lambda _: plain)]
    assert everything == ["a.form.yaml", "b.yaml", "c.json", "data/e.yml", "f.script.yml"]
    by_name = [Path(p).relative_to(tmp_path).as_posix() for p in listed(str(tmp_path), lambda _: plain)]
    assert by_name == ["a.form.yaml", "f.script.yml"]
    globbed = settings_from_mapping({"kinds": {"rules": ["data/*.yml"]}}, root=str(tmp_path))
    by_glob = [Path(p).relative_to(tmp_path).as_posix() for p in listed(str(tmp_path), lambda _: globbed)]
    assert by_glob == ["a.form.yaml", "data/e.yml", "f.script.yml"]


def test_the_editor_lists_the_python_files_that_can_hand_lionagi_a_document(tmp_path: Path) -> None:
    """As ``formscript lint DIR`` reports them: a test that names lionagi's API is listed; one
    that only imports lionagi, or never mentions it, holds nothing formscript reads."""
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_api.py").write_text("from lionagi.testing import TestBranch\n", encoding="utf-8")
    (tmp_path / "tests" / "test_import.py").write_text("import lionagi\n", encoding="utf-8")
    (tmp_path / "tests" / "test_plain.py").write_text("def test_x():\n    pass\n", encoding="utf-8")
    latin1 = "# caf\xe9\nfrom lionagi.testing import ScriptModel\n".encode("latin-1")
    (tmp_path / "tests" / "test_latin1.py").write_bytes(latin1)
    found = [Path(p).relative_to(tmp_path).as_posix() for p in listed(str(tmp_path), lambda _: Settings())]
    assert found == ["tests/test_api.py", "tests/test_latin1.py"]


def test_kinds_globs_are_relative_to_the_configuration(tmp_path: Path) -> None:
    settings = settings_from_mapping({"kinds": {"script": ["fixtures/*.yaml"]}}, root=str(tmp_path))
    assert kind_from_name(str(tmp_path / "fixtures" / "a.yaml"), settings) == "script"  # absolute, as the server
    assert kind_from_name("fixtures/a.yaml", Settings(kinds={"script": ("fixtures/*.yaml",)})) == "script"
    assert kind_from_name(str(tmp_path / "other" / "a.yaml"), settings) is None
