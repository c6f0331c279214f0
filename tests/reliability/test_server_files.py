"""The language server never goes deaf on what it reads: every file it reads from disk (a
sibling transcript or ruleset, a ``calls`` setting's transcript, a workspace file, a document
the editor never opened) is read only if it is a regular file of at most 8 MiB, off the event
loop. A FIFO, a link to ``/dev/stdin`` (the server's own input), ``/dev/zero`` and a
too-big file each get an answer — a YM001 diagnostic where diagnostics are asked for, an
empty answer elsewhere — and the server answers the next request.

A real server process over stdio; its stdin is a pipe, so ``/dev/stdin`` is that pipe.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .server_harness import PATIENCE, RawServer, alive, started

SCRIPT = (
    "responses:\n"
    "  - type: text\n    content: weather report\n    when: {prompt_regex: 'weath(er)+'}\n"
    "  - type: text\n    content: fallback\n"
)
CALLS = "- what is the weather today\n- hello\n"
FORM = "title: t\nfields:\n  a: {type: str}\nvalues:\n  a: x\n"

pytestmark = pytest.mark.slow  # language-server processes


@pytest.fixture()
def root(tmp_path: Path) -> Path:
    return tmp_path


@pytest.fixture()
def servers() -> Iterator[list[RawServer]]:
    made: list[RawServer] = []
    yield made
    for server in made:
        server.close()


def _start(root: Path, servers: list[RawServer], options: Any = None) -> RawServer:
    server = started(root, options)
    servers.append(server)
    return server


def _open_script(server: RawServer, path: Path, text: str = SCRIPT) -> str:
    path.write_text(text, encoding="utf-8")
    server.open(path.as_uri(), text)
    return path.as_uri()


def _lens_titles(server: RawServer, uri: str) -> list[str]:
    lenses = server.request("textDocument/codeLens", {"textDocument": {"uri": uri}}, timeout=PATIENCE)
    return [lens["command"]["title"] for lens in lenses or []]


def _simulate(server: RawServer, uri: str) -> str:
    answer = server.request(
        "workspace/executeCommand", {"command": "formscript.simulate", "arguments": [uri]}, timeout=PATIENCE
    )
    assert isinstance(answer, str)
    return answer


def _hints(server: RawServer, uri: str) -> list[Any]:
    whole = {"start": {"line": 0, "character": 0}, "end": {"line": 20, "character": 0}}
    return list(
        server.request("textDocument/inlayHint", {"textDocument": {"uri": uri}, "range": whole}, timeout=PATIENCE) or []
    )


def _not_regular(kind: str, target: Path) -> None:
    """Make *target* a file that is not regular: a FIFO, or a link to a device."""
    if kind == "fifo":
        os.mkfifo(target)
    else:
        target.symlink_to(kind)


NOT_REGULAR = ["fifo", "/dev/stdin", "/dev/zero"]


@pytest.mark.parametrize("kind", NOT_REGULAR)
def test_a_sibling_transcript_that_is_not_a_file(root: Path, servers: list[RawServer], kind: str) -> None:
    server = _start(root, servers)
    _not_regular(kind, root / "s.calls.yaml")
    uri = _open_script(server, root / "s.script.yaml")
    assert _lens_titles(server, uri) == ["▶ Simulate"]  # no transcript to name
    assert _hints(server, uri) == []
    simulated = _simulate(server, uri)
    assert "accepted" in simulated and "served" not in simulated  # entries only: no calls replayed
    alive(server)


@pytest.mark.parametrize("kind", NOT_REGULAR)
def test_a_sibling_ruleset_that_is_not_a_file(root: Path, servers: list[RawServer], kind: str) -> None:
    server = _start(root, servers)
    _not_regular(kind, root / "f.rules.yaml")
    (root / "f.form.yaml").write_text(FORM, encoding="utf-8")
    server.open((root / "f.form.yaml").as_uri(), FORM)
    assert _lens_titles(server, (root / "f.form.yaml").as_uri()) == ["▶ Dry run"]
    answer = server.request(
        "workspace/executeCommand",
        {"command": "formscript.dryRun", "arguments": [(root / "f.form.yaml").as_uri()]},
        timeout=PATIENCE,
    )
    assert "accepted" in answer
    alive(server)


@pytest.mark.parametrize("target", ["/dev/stdin", "/dev/zero", "fifo"])
def test_a_calls_setting_that_names_no_file(root: Path, servers: list[RawServer], target: str) -> None:
    if target == "fifo":
        os.mkfifo(root / "pipe.calls.yaml")
        target = str(root / "pipe.calls.yaml")
    server = _start(root, servers, {"calls": {"*.script.yaml": target}})
    uri = _open_script(server, root / "c.script.yaml")
    assert _lens_titles(server, uri) == ["▶ Simulate"]
    assert _hints(server, uri) == []
    assert "served" not in _simulate(server, uri)
    alive(server)


def test_a_calls_setting_may_not_leave_the_workspace(tmp_path: Path, servers: list[RawServer]) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    outside = tmp_path / "secret.calls.yaml"
    outside.write_text("- the secret prompt\n", encoding="utf-8")
    (root / "pyproject.toml").write_text(
        '[tool.formscript]\ncalls = {"*.script.yaml" = "../secret.calls.yaml"}\n', encoding="utf-8"
    )
    inside = root / "in.calls.yaml"
    inside.write_text(CALLS, encoding="utf-8")
    server = _start(root, servers)
    uri = _open_script(server, root / "x.script.yaml")
    assert _lens_titles(server, uri) == ["▶ Simulate"]
    assert "secret" not in _simulate(server, uri)
    # a link inside the workspace that leads out of it is outside too
    (root / "link.calls.yaml").symlink_to(outside)
    (root / "pyproject.toml").write_text(
        '[tool.formscript]\ncalls = {"*.script.yaml" = "link.calls.yaml"}\n', encoding="utf-8"
    )
    server.notify(
        "workspace/didChangeWatchedFiles", {"changes": [{"uri": (root / "pyproject.toml").as_uri(), "type": 2}]}
    )
    uri = _open_script(server, root / "y.script.yaml")
    assert _lens_titles(server, uri) == ["▶ Simulate"]
    assert "secret" not in _simulate(server, uri)
    # the same table naming a transcript inside the workspace is read
    (root / "pyproject.toml").write_text(
        '[tool.formscript]\ncalls = {"*.script.yaml" = "in.calls.yaml"}\n', encoding="utf-8"
    )
    server.notify(
        "workspace/didChangeWatchedFiles", {"changes": [{"uri": (root / "pyproject.toml").as_uri(), "type": 2}]}
    )
    uri = _open_script(server, root / "z.script.yaml")
    assert _lens_titles(server, uri) == ["▶ Simulate with in.calls.yaml"]
    alive(server)


def _ym001(items: list[dict[str, Any]]) -> list[str]:
    return [d["message"] for d in items if d.get("code") == "YM001"]


def test_workspace_files_that_are_not_regular_get_a_diagnostic(root: Path, servers: list[RawServer]) -> None:
    os.mkfifo(root / "pipe.form.yaml")
    (root / "stdin.form.yaml").symlink_to("/dev/stdin")
    (root / "zero.script.yaml").symlink_to("/dev/zero")
    big = root / "big.form.yaml"
    big.write_bytes(b"title: t\n" + b"#" * (9 * 1024 * 1024) + b"\n")
    (root / "fine.form.yaml").write_text(FORM, encoding="utf-8")
    server = _start(root, servers)
    for _ in range(2):  # the second pull reads again (or from the kept reports)
        report = server.request("workspace/diagnostic", {"previousResultIds": []}, timeout=PATIENCE)
        by_name = {Path(item["uri"]).name: item for item in report["items"]}
        # links are reported under their targets' URIs (as every link is)
        refused = [item for item in report["items"] if any("not a regular file" in m for m in _ym001(item["items"]))]
        assert len(refused) == 3, report["items"]
        assert "pipe.form.yaml" in {Path(item["uri"]).name for item in refused}
        assert any("above formscript's limit of 8388608" in m for m in _ym001(by_name["big.form.yaml"]["items"]))
        assert by_name["fine.form.yaml"]["items"] == []
        alive(server)


@pytest.mark.parametrize("uri", ["file:///dev/stdin", "file:///dev/zero", "file:///proc/self/fd/0"])
def test_requests_about_devices(servers: list[RawServer], root: Path, uri: str) -> None:
    server = _start(root, servers)
    position = {"line": 0, "character": 0}
    assert server.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": position}) is None
    assert server.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}}) == []
    assert server.request("textDocument/codeLens", {"textDocument": {"uri": uri}}) == []
    report = server.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
    assert any("not a regular file" in m for m in _ym001(report["items"])), report
    assert server.request("workspace/executeCommand", {"command": "formscript.simulate", "arguments": [uri]}) == ""
    alive(server)


def test_a_fifo_document_and_a_sibling_fifo_opened_later(root: Path, servers: list[RawServer]) -> None:
    """A FIFO the editor then opens is judged by the editor's text, not read."""
    os.mkfifo(root / "later.form.yaml")
    server = _start(root, servers)
    uri = (root / "later.form.yaml").as_uri()
    assert (
        server.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}})
        is None
    )
    server.open(uri, FORM)
    assert server.published(uri, 1) == []
    alive(server)


def test_prompt_regex_simulations_are_answered_in_the_server(root: Path, servers: list[RawServer]) -> None:
    """The bounded-regex worker is a fresh interpreter, not a fork of the server (whose
    stdin reader holds a lock a forked child would wait on forever): every ``prompt_regex``
    is evaluated, none reported as overrunning its bound."""
    (root / "r.calls.yaml").write_text(CALLS, encoding="utf-8")
    server = _start(root, servers)
    uri = _open_script(server, root / "r.script.yaml")
    for _ in range(3):  # a worker per server, reused
        simulated = _simulate(server, uri)
        assert "regex_timeout" not in simulated and "bound" not in simulated, simulated
        assert "served" in simulated, simulated
    labels = [hint["label"] for hint in _hints(server, uri)]
    assert labels == ["served at call 0", "served at call 1"], labels
    alive(server)
