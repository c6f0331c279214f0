"""Loads a fixture lionagi rejects; run it with `pytest --formscript -m broken`."""

from pathlib import Path

import pytest
from lionagi.testing import TestBranch

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.mark.broken
def test_loads_the_broken_fixture():
    TestBranch.from_yaml(FIXTURES / "broken.script.yaml")
