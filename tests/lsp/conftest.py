"""Fixtures for the language-server tests."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh workspace folder per test module."""
    return tmp_path_factory.mktemp("ws")
