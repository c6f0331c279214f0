"""The CLI and the server find the same files (one discovery, ``formscript.lint.discovery``).

A workspace with the awkward entries: folders skipped by name, links to folders that loop,
links to files (one dangling, one pointing at itself), YAML that is not formscript's, and a
``kinds`` glob relative to the configuration file (the server sees absolute paths). The CLI's
``lint DIR`` and the server's workspace diagnostics list the same documents, in the same order
(a Python test that hands lionagi a script included); the CLI also opens unnamed YAML to judge
it by content, which the server does not.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import pytest_lsp
from lsp_support import Client, config, start, write
from lsprotocol import types

from formscript.cli import run
from formscript.lsp.analysis import path_to_uri

FORM = "fields:\n  age: {type: int}\nvalues:\n  age: seven\n"
SCRIPT = "responses:\n  - type: text\n    content: hi\n"
RULES = "rules: {}\n"
CALLS = "- prompt: hello\n"
PYTHON_TEST = (
    "from lionagi.testing import TestBranch\n\n\n"
    "def test_reply():\n"
    '    TestBranch.from_responses([{"type": "text", "content": 5}])\n'
)

#: Listed by both, in this order (the sorted paths).
NAMED = [
    "a.form.yaml",
    "b.rules.yml",
    "dangling.form.yaml",
    "fixtures/nested/more.yaml",
    "fixtures/replies.yaml",
    "link.form.yaml",
    "self.form.yaml",
    "sub.form.yaml",
    "sub/c.script.json",
    "sub/deeper/d.calls.yaml",
    "tests/test_replies.py",
]
#: Opened by the CLI only: no kind in the name, the content decides.
BY_CONTENT = ["other.yaml", "plain.yaml"]
SKIPPED_FOLDERS = [".git", ".venv", ".formscript_cache", "node_modules", "__pycache__", "venv"]
SKIPPED_FOLDERS += ["site-packages", "build", "dist"]


def tricky_tree(root: Path) -> None:
    write(root, "formscript.toml", 'kinds = { script = ["fixtures/*.yaml"] }\n')
    write(root, "a.form.yaml", FORM)
    write(root, "b.rules.yml", RULES)
    write(root, "sub.form.yaml", FORM)
    write(root, "sub/c.script.json", '{"responses": []}\n')
    write(root, "sub/deeper/d.calls.yaml", CALLS)
    write(root, "fixtures/replies.yaml", SCRIPT)
    write(root, "fixtures/nested/more.yaml", SCRIPT)
    write(root, "other.yaml", "name: ci\non: push\n")
    write(root, "plain.yaml", FORM)
    write(root, "notes.txt", "not ours\n")
    write(root, "tests/test_replies.py", PYTHON_TEST)
    write(root, "tests/test_other.py", "def test_sum():\n    assert sum([1, 2]) == 3\n")
    write(root, "sub/README.md", "# not ours\n")
    for folder in SKIPPED_FOLDERS:
        write(root, f"{folder}/x.form.yaml", FORM)
        write(root, f"sub/{folder}/y.script.yaml", SCRIPT)
    os.symlink("..", root / "sub" / "loop")  # a folder link looping back up
    os.symlink(root, root / "sub" / "deeper" / "top")
    os.symlink(root / "sub", root / "linked-sub")  # a folder link: not followed
    os.symlink("a.form.yaml", root / "link.form.yaml")
    os.symlink("nowhere.form.yaml", root / "dangling.form.yaml")
    os.symlink("self.form.yaml", root / "self.form.yaml")


@pytest.fixture(scope="module")
def tree(workspace: Path) -> Path:
    tricky_tree(workspace)
    return workspace


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: Client, tree: Path):
    await start(lsp_client, tree, pull=True)
    yield
    await lsp_client.shutdown_session()


pytestmark = [
    pytest.mark.asyncio(loop_scope="module"),
    pytest.mark.slow,  # the workspace walk through a language server (tests/test_discovery.py is in-process)
]


def cli_files(root: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, str | None]:
    """The files ``formscript lint ROOT`` reports, in order, with the kind it gave each."""
    run(["lint", "--no-cache", "--format", "json", str(root)])
    files = json.loads(capsys.readouterr().out)["files"]
    return {f["path"]: f["kind"] for f in files}


async def test_cli_and_server_list_the_same_files(
    client: Client, tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    listed = cli_files(tree, capsys)
    relative = [Path(p).relative_to(tree).as_posix() for p in listed]
    assert relative == sorted(NAMED + BY_CONTENT)
    assert listed[str(tree / "fixtures" / "replies.yaml")] == "script"  # the kinds glob
    assert listed[str(tree / "plain.yaml")] == "form" and listed[str(tree / "other.yaml")] is None

    report = await client.workspace_diagnostic_async(types.WorkspaceDiagnosticParams(previous_result_ids=[]))
    served = [item.uri for item in report.items]
    # the server names a document by its resolved URI: the link is a.form.yaml itself
    expected: list[str] = []
    for name in NAMED:
        uri = path_to_uri(tree / name)
        if uri not in expected:
            expected.append(uri)
    assert served == expected
    assert (tree / "link.form.yaml").as_uri() not in served and len(served) == len(NAMED) - 1
    by_content = {path_to_uri(tree / name) for name in BY_CONTENT}
    assert served == [u for u in dict.fromkeys(path_to_uri(p) for p in listed) if u not in by_content]
    codes = {item.uri: [d.code for d in item.items] for item in report.items}  # type: ignore[union-attr]
    assert codes[path_to_uri(tree / "fixtures" / "replies.yaml")] == []  # linted as the script it is
    assert codes[path_to_uri(tree / "a.form.yaml")] == ["FS014"]
    assert codes[path_to_uri(tree / "tests" / "test_replies.py")] == ["SC005"]  # as the CLI reports it
