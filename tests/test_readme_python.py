"""The README's example of a Python test file: its output, as shown there, is what formscript
prints for it."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from formscript.cli import main

README = Path(__file__).resolve().parents[1] / "docs" / "python.md"  # the site's page


def _example() -> tuple[str, str]:
    text = README.read_text(encoding="utf-8")
    section = text.split("## Scripts and forms in Python files", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```(\w+)\n(.*?)```", section, re.DOTALL)
    source = next(body for kind, body in blocks if kind == "python")
    output = next(body for kind, body in blocks if kind == "text")
    return source, output


def test_the_readme_example_prints_what_the_readme_shows(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source, output = _example()
    (tmp_path / "test_support_bot.py").write_text(source, encoding="utf-8")
    before = Path.cwd()
    os.chdir(tmp_path)
    try:
        code = main(["lint", "--no-cache", "test_support_bot.py"])
    finally:
        os.chdir(before)
    assert code == 1
    assert capsys.readouterr().out == output


def test_the_negative_test_example_prints_what_the_page_shows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The site's negative-test example: one expected rejection passing silently, two wrong
    expectations flagged, as the page prints them."""
    text = README.read_text(encoding="utf-8")
    section = text.split("## Negative tests: expected outcomes", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```(\w+)\n(.*?)```", section, re.DOTALL)
    source = next(body for kind, body in blocks if kind == "python")
    output = next(body for kind, body in blocks if kind == "text")
    (tmp_path / "test_negative.py").write_text(source, encoding="utf-8")
    before = Path.cwd()
    os.chdir(tmp_path)
    try:
        code = main(["lint", "--no-cache", "test_negative.py"])
    finally:
        os.chdir(before)
    assert code == 1
    assert capsys.readouterr().out == output
