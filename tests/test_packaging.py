"""What is shipped: the wheel and the source distribution built from this repository carry
the license, take their version from its one source (``formscript.__version__``), and hold
exactly what they should; the VS Code extension has the same version; every dependency the
package declares is one it imports."""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

import formscript

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A wheel and an sdist built from a copy of the sources (the checkout stays clean)."""
    source = tmp_path_factory.mktemp("source")
    for name in ("pyproject.toml", "MANIFEST.in", "LICENSE", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    shutil.copytree(ROOT / "server", source / "server", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    out = tmp_path_factory.mktemp("dist")
    # as pip builds it: in an isolated environment with the build-system's own setuptools
    done = subprocess.run(
        [sys.executable, "-m", "build", "--sdist", "--wheel", "--outdir", str(out), str(source)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    (wheel,) = out.glob("*.whl")
    (sdist,) = out.glob("*.tar.gz")
    return {"wheel": wheel, "sdist": sdist}


def test_the_version_has_one_source(built: dict[str, Path]) -> None:
    version = formscript.__version__
    assert built["wheel"].name.startswith(f"formscript-{version}-")
    assert built["sdist"].name == f"formscript-{version}.tar.gz"
    manifest = json.loads((ROOT / "vscode-extension" / "package.json").read_text(encoding="utf-8"))
    assert manifest["version"] == version
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert f'version = "{version}"' not in pyproject  # written once, in formscript/__init__.py


def test_the_license_is_shipped(built: dict[str, Path]) -> None:
    license_text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert "Apache License" in license_text and "Version 2.0" in license_text
    with zipfile.ZipFile(built["wheel"]) as wheel:
        names = wheel.namelist()
        shipped = [n for n in names if n.endswith("/licenses/LICENSE")]
        assert len(shipped) == 1 and wheel.read(shipped[0]).decode("utf-8") == license_text
        metadata = wheel.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode("utf-8")
    assert "License-Expression: Apache-2.0" in metadata
    with tarfile.open(built["sdist"]) as sdist:
        members = sdist.getnames()
    top = members[0].split("/")[0]
    assert f"{top}/LICENSE" in members


def test_the_sdist_holds_the_package_and_no_half_test_suite(built: dict[str, Path]) -> None:
    with tarfile.open(built["sdist"]) as sdist:
        members = [m.split("/", 1)[1] for m in sdist.getnames() if "/" in m]
    assert "server/formscript/cli/__init__.py" in members and "server/formscript/py.typed" in members
    assert not [m for m in members if m.startswith(("tests/", "bench/", "vscode-extension/"))]


def test_every_declared_dependency_is_imported() -> None:
    import tomllib

    declared = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    names = {d.split(">")[0].split("<")[0].split("=")[0].strip().lower() for d in declared}
    modules = {
        "pydantic": "pydantic",
        "pyyaml": "yaml",
        "pygls": "pygls",
        "lsprotocol": "lsprotocol",
        "rich": "rich",
        "pathspec": "pathspec",
    }
    assert names <= set(modules), f"a dependency this test does not know: {names - set(modules)}"
    imported: set[str] = set()
    for path in (ROOT / "server" / "formscript").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                imported.add(node.module.split(".")[0])
    assert {modules[name] for name in names} <= imported
