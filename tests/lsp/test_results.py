"""Where the result of a dry run or simulation run from a code action is written
(``lsp.results``): the user's cache, else a folder of the user's in the temporary directory,
never inside a workspace folder, never through a link; one file per document (and line)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from formscript.lsp import results


@pytest.fixture
def dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    cache, temporary = tmp_path / "cache", tmp_path / "tmp"
    temporary.mkdir()
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))
    return cache, temporary


def test_the_result_goes_to_the_cache_under_a_name_of_its_document(dirs: tuple[Path, Path], tmp_path: Path) -> None:
    cache, _ = dirs
    source = str(tmp_path / "ws" / "a.form.yaml")
    written = results.write(source, "dry-run", None, "a: accepted\n", [str(tmp_path / "ws")])
    assert written is not None and written.parent == cache / "formscript" / "results"
    assert written.name.startswith("a.form.yaml-") and written.name.endswith(".dry-run.txt")
    assert written.read_text(encoding="utf-8") == "a: accepted\n"
    # the next run replaces it; no temporary file is left beside it
    assert results.write(source, "dry-run", None, "again\n", []) == written
    assert written.read_text(encoding="utf-8") == "again\n"
    assert [p.name for p in written.parent.iterdir()] == [written.name]


def test_documents_of_the_same_name_and_lines_of_one_file_get_their_own_files(dirs: tuple[Path, Path]) -> None:
    names = {
        results.file_name("/one/a.form.yaml", "dry-run", None),
        results.file_name("/two/a.form.yaml", "dry-run", None),
        results.file_name("/one/test_a.py", "simulation", 5),
        results.file_name("/one/test_a.py", "simulation", 9),
    }
    assert len(names) == 4
    assert results.file_name("/x/we ird\n名.yaml", "dry-run", None).startswith("we_ird__.yaml-")


def test_a_cache_inside_the_workspace_is_not_used(dirs: tuple[Path, Path], tmp_path: Path) -> None:
    cache, temporary = dirs
    cache.mkdir()  # the workspace holds the cache (XDG_CACHE_HOME inside a project)
    written = results.write(str(tmp_path / "a.form.yaml"), "dry-run", None, "t\n", [str(cache)])
    uid = os.getuid()
    assert written is not None and written.parent == temporary / f"formscript-results-{uid}"
    assert list(cache.iterdir()) == []


def test_nowhere_outside_the_workspace_means_no_file_and_the_message_says_the_log(
    dirs: tuple[Path, Path], tmp_path: Path
) -> None:
    assert results.write(str(tmp_path / "a.form.yaml"), "dry-run", None, "t\n", [str(tmp_path)]) is None
    assert list(tmp_path.rglob("*.txt")) == []
    assert results.summary("dry run", "\nfirst: accepted\nmore\n", None) == (
        "formscript dry run: first: accepted; the whole result is in the server log"
    )


def test_a_results_folder_that_is_a_link_is_not_written_through(dirs: tuple[Path, Path], tmp_path: Path) -> None:
    cache, temporary = dirs
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (cache / "formscript").mkdir(parents=True)
    (cache / "formscript" / "results").symlink_to(elsewhere)
    written = results.write(str(tmp_path / "a.form.yaml"), "dry-run", None, "t\n", [])
    assert written is not None and written.parent == temporary / f"formscript-results-{os.getuid()}"
    assert list(elsewhere.iterdir()) == []


def test_text_that_cannot_be_encoded_is_escaped_not_lost(dirs: tuple[Path, Path], tmp_path: Path) -> None:
    written = results.write(str(tmp_path / "a.form.yaml"), "dry-run", None, "bad \udcff end\n", [])
    assert written is not None
    assert written.read_bytes().decode("utf-8") == "bad \\udcff end\n"
