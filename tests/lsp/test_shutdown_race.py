"""Shutting down at once after connecting, while the server's own requests to the client
(``workspace/configuration``, ``client/registerCapability``) are still unanswered: eglot does
this when a buffer is killed right after the server started, and pygls's shutdown once
answered it with ``RuntimeError: dictionary changed size during iteration``.

The client here never answers the server's requests, asks for ``shutdown`` as soon as
``initialized`` is sent, and expects a null result, no error on stderr and exit code 0."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from raw_lsp import RawServer

#: What eglot 1.9 advertises that makes the server ask the client things after ``initialized``.
EGLOT_WORKSPACE = {
    "applyEdit": True,
    "workspaceEdit": {"documentChanges": True},
    "didChangeWatchedFiles": {"dynamicRegistration": True},
    "configuration": True,
    "workspaceFolders": True,
}


class Silent(RawServer):
    """A client that records the server's requests and never answers them."""

    def _take(self, message: dict[str, Any]) -> None:
        if "method" in message and "id" in message:
            with self._cond:
                self.server_requests.append(message)
                self._cond.notify_all()
            return
        super()._take(message)


def _initialize(server: RawServer, root: Path, open_first: bool) -> None:
    server.request(
        "initialize",
        {
            "processId": None,
            "rootUri": root.as_uri(),
            "workspaceFolders": [{"uri": root.as_uri(), "name": "ws"}],
            "capabilities": {
                "workspace": {**EGLOT_WORKSPACE, "didChangeConfiguration": {"dynamicRegistration": True}},
                "textDocument": {"publishDiagnostics": {}},
                "window": {"workDoneProgress": True},
            },
        },
        timeout=60,
    )
    server.notify("initialized", {})
    if open_first:
        uri = (root / "a.form.yaml").as_uri()
        server.open(uri, "fields:\n  name: {type: str}\nvalues:\n  name: ada\n")


@pytest.mark.parametrize("wait_for_requests", [False, True], ids=["at-once", "after-its-requests"])
@pytest.mark.parametrize("open_first", [False, True], ids=["idle", "with-a-document"])
def test_shutdown_right_after_connecting_answers_null_and_exits_0(
    tmp_path: Path, wait_for_requests: bool, open_first: bool
) -> None:
    for attempt in range(5):  # the race needs no luck to lose: each attempt must be clean
        root = tmp_path / f"attempt-{attempt}"
        root.mkdir()
        server = Silent(root)
        try:
            _initialize(server, root, open_first)
            if wait_for_requests:  # the server has asked, and is waiting for answers that never come
                server.wait(lambda s=server: len(s.server_requests) >= 1, 30, "the server's own requests")
            answer = server.response(server.send_request("shutdown", None), timeout=30)
            assert answer.get("error") is None, answer
            assert "result" in answer and answer["result"] is None, answer
            server.notify("exit", None)
            assert server.proc.wait(timeout=30) == 0
            errors = server.stderr_tail(20000)
            assert "Traceback" not in errors and "RuntimeError" not in errors, errors
            assert "changed size during iteration" not in errors, errors
        finally:
            server.close()
