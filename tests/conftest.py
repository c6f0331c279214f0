"""Shared pytest options."""

from __future__ import annotations

import pytest

#: Test files written as data for formscript to lint (another project's test suite), not run here.
collect_ignore = ["fixtures"]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-goldens", action="store_true", help="rewrite golden .out files")
