"""What a lionagi upgrade that changes matching looks like; run it with
`pytest --formscript --formscript-strict -m upgrade`.

The fixture stands in for the new lionagi, inside this test only: its `when:` matchers no
longer match, so every call falls through to the positional entries. The test, written
against what it now gets, passes; formscript, which models lionagi 0.36.0, reports the drift.
"""

import asyncio
from pathlib import Path

import pytest
from lionagi.testing import ScriptModel, TestBranch

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def matching_changed(monkeypatch):
    monkeypatch.setattr(ScriptModel, "_matches", lambda self, when, payload, call_index: (False, ""))


@pytest.mark.upgrade
def test_greeting_after_the_upgrade(matching_changed):
    branch = TestBranch.from_yaml(FIXTURES / "support.script.yaml")
    replies = asyncio.run(branch.chat("hello"))
    assert replies == "Anything else?"
