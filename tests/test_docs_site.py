"""The README and the documentation site: a short README whose example is what formscript
prints, and a site that builds with ``mkdocs build --strict`` (no broken link, no missing page),
with a page per rule made from the rule modules, each showing what formscript prints for its
examples. The site's other examples are run by the tests that read its pages
(test_readme_python.py, test_readme_editors.py, tests/nvim, tests/emacs, test_pytest_plugin.py)."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from html import unescape
from pathlib import Path

import pytest

from formscript import rules
from formscript.cli import main

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"


def test_the_readme_fits_on_a_screen_and_tells_no_history() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 200
    for diary in ("this round", "This round", "instructions per", "last session", "round before"):
        assert diary not in text
    for page in re.findall(r"\]\((docs/[^)#]+)", text):
        assert (ROOT / page).is_file(), page
    assert (ROOT / "LICENSE").is_file() and (ROOT / "CHANGELOG.md").is_file()


def test_the_readme_example_is_what_lint_prints(capsys: pytest.CaptureFixture[str]) -> None:
    text = README.read_text(encoding="utf-8")
    section = text.split("## What it prints", 1)[1].split("\n## ", 1)[0]
    command = re.search(r"`formscript lint ([^`]+)`", section)
    shown = re.search(r"```text\n(.*?)```", section, re.DOTALL)
    assert command is not None and shown is not None
    before = Path.cwd()
    os.chdir(ROOT)
    try:
        code = main(["lint", "--no-cache", *command.group(1).split()])
    finally:
        os.chdir(before)
    assert code == 1
    assert capsys.readouterr().out == shown.group(1)


def _hook() -> object:
    spec = importlib.util.spec_from_file_location("rules_hook", ROOT / "docs" / "hooks" / "rules.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except ImportError as exc:  # mkdocs is the docs extra's
        pytest.skip(f"mkdocs is not installed (pip install '.[docs]'): {exc}")
    return module


@pytest.mark.parametrize("rule", [r for r in rules.all_rules() if r.has_examples], ids=lambda r: r.code)
def test_each_rule_page_shows_its_examples_and_what_lint_prints(rule: rules.Rule) -> None:
    page: str = _hook().rule_page(rule)  # type: ignore[attr-defined]
    assert page.startswith(f"# {rule.code} {rule.name}\n")
    fails = page.split("## Fails", 1)[1].split("\n## ", 1)[0]
    passes = page.split("## Passes", 1)[1].split("\n## ", 1)[0]
    assert rule.fails is not None and rule.fails.strip() in fails
    assert rule.passes is not None and rule.passes.strip() in passes
    printed_fails = fails.split("```text\n", 1)[1].split("```", 1)[0]
    printed_passes = passes.split("```text\n", 1)[1].split("```", 1)[0]
    assert f"[{rule.code}]" in printed_fails
    assert "[" + rule.code + "]" not in printed_passes


def _mkdocs() -> str:
    found = shutil.which("mkdocs", path=os.path.dirname(sys.executable)) or shutil.which("mkdocs")
    if found is None:
        pytest.skip("mkdocs is not installed (pip install '.[docs]')")
    return found


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    done = subprocess.run(
        [_mkdocs(), "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        check=False,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    assert "WARNING" not in done.stderr, done.stderr[-4000:]
    return out


def test_the_site_builds_strictly_with_every_page(site: Path) -> None:
    pages = sorted(p.relative_to(site).as_posix() for p in site.rglob("index.html"))
    for name in (
        "index.html",
        "getting-started/index.html",
        "cli/index.html",
        "editors/index.html",
        "python/index.html",
        "pytest-plugin/index.html",
        "dry-runs/index.html",
        "exactness/index.html",
        "performance/index.html",
        "limits/index.html",
        "architecture/index.html",
        "rules/index.html",
    ):
        assert name in pages
    for rule in rules.all_rules():
        assert f"rules/{rule.code}/index.html" in pages
    html = (site / "rules" / "FS015" / "index.html").read_text(encoding="utf-8")
    fs015 = unescape(re.sub(r"<[^>]+>", "", html))  # the text, without the highlighting's spans
    assert "country: no" in fs015 and "country: 'no'" in fs015
    assert "error[FS015]" in fs015 and "example.form.yaml: accepted" in fs015
    assert (site / "search" / "search_index.json").is_file()
