"""The documentation site in a real browser: the built site served locally and driven in
headless Chromium (puppeteer-core, from the tools .ci/extras-vscode-e2e.sh installs): the home
page renders, the site's search finds FS015, the FS015 page shows both examples and what
formscript prints, the editors page has its VS Code section. Screenshots are kept
(``FORMSCRIPT_DOCS_ARTIFACTS`` names a folder for them)."""

from __future__ import annotations

import functools
import http.server
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
DRIVER = Path(__file__).with_name("drive_site.cjs")


def _tools() -> Any:
    """The browser tools of the VS Code end-to-end test (its ``Tools``: skips, or fails on CI,
    when .ci/extras-vscode-e2e.sh has not installed them), loaded from its file."""
    path = ROOT / "tests" / "vscode_e2e" / "test_vscode_e2e.py"
    spec = importlib.util.spec_from_file_location("formscript_vscode_e2e_tools", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.Tools()


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    site = tmp_path_factory.mktemp("site")
    mkdocs = shutil.which("mkdocs", path=str(Path(sys.executable).parent)) or shutil.which("mkdocs")
    if mkdocs is None:
        pytest.skip("mkdocs is not installed (pip install '.[docs]')")
    done = subprocess.run(
        [mkdocs, "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()


def test_the_site_in_chromium(served: str, tmp_path: Path) -> None:
    tools = _tools()
    folder = Path(os.environ.get("FORMSCRIPT_DOCS_ARTIFACTS") or tmp_path / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    plan = {
        "url": served,
        "puppeteer": str(tools.puppeteer),
        "chromium": tools.chromium,
        "screenshots": str(folder),
        "out": str(tmp_path / "seen.json"),
    }
    (tmp_path / "plan.json").write_text(json.dumps(plan), encoding="utf-8")
    drive = subprocess.run(
        [str(tools.node), str(DRIVER), str(tmp_path / "plan.json")],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PATH": f"{tools.node_bin}{os.pathsep}{os.environ.get('PATH', '')}"},
        check=False,
    )
    seen = json.loads((tmp_path / "seen.json").read_text(encoding="utf-8"))
    assert drive.returncode == 0 and "error" not in seen, f"{seen.get('error')}\n{drive.stderr[-3000:]}"
    print(f"\ndocumentation site screenshots: {folder}")
    assert seen["homeHeading"] == "formscript" and "formscript" in seen["homeTitle"]
    assert seen["homePicture"]["src"].endswith("vscode.png") and seen["homePicture"]["width"] > 800
    assert any("FS015" in result for result in seen["searchResults"])
    assert seen["fs015Heading"].startswith("FS015 yaml11-surprise")
    code = "\n".join(seen["fs015Code"])
    assert "country: no" in code and "country: 'no'" in code and "error[FS015]" in code
    assert "VS Code" in seen["editorHeadings"]
    assert "Negative tests: expected outcomes" in seen["pythonHeadings"]
    for name in ("home", "search", "fs015", "editors-vscode", "python"):
        assert (folder / f"{name}.png").stat().st_size > 0
