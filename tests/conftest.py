"""Shared pytest options."""

from __future__ import annotations

import pytest

#: Test files written as data for formscript to lint (another project's test suite), not run here.
collect_ignore = ["fixtures"]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-goldens", action="store_true", help="rewrite golden .out files")


@pytest.fixture(autouse=True)
def _private_lint_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test (and every formscript process it starts) caches in a folder of its own,
    never in the user's cache."""
    monkeypatch.setenv("FORMSCRIPT_CACHE_DIR", str(tmp_path_factory.mktemp("formscript-cache")))
