"""A minimal JSON-RPC/LSP client that drives the real yaml-language-server over stdio.

Used by tests/test_yamlls.py; also runnable by hand to see what the server reports::

    python tests/yamlls/lsp_client.py path/to/file.yaml [SCHEMA.json GLOB ...]

Only the standard library: a reader thread parses ``Content-Length`` frames, answers the
server's own requests (``workspace/configuration`` and registrations) and files responses and
``textDocument/publishDiagnostics`` notifications for the test thread to wait on.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SERVER_JS = HERE / "node_modules" / "yaml-language-server" / "bin" / "yaml-language-server"


class LspError(RuntimeError):
    """The server answered a request with an error, died, or did not answer in time."""


class YamlLanguageServer:
    """One yaml-language-server process and the state this client has seen from it."""

    def __init__(self, settings: dict[str, Any], *, node: str | None = None, root: Path | None = None) -> None:
        self.settings = settings
        self.root = root or HERE
        node = node or shutil.which("node")
        if node is None:
            raise LspError("node is not installed")
        self.proc = subprocess.Popen(
            [node, str(SERVER_JS), "--stdio"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=str(self.root),
        )
        self._lock = threading.Condition()
        self._responses: dict[int, dict[str, Any]] = {}
        self._diagnostics: dict[str, list[dict[str, Any]]] = {}
        self._diagnostic_versions: dict[str, int] = {}
        self.log: list[str] = []
        self._next_id = 0
        self._versions: dict[str, int] = {}
        self._closed = False
        self._reader = threading.Thread(target=self._read_loop, daemon=True)
        self._reader.start()
        self._stderr = threading.Thread(target=self._drain_stderr, daemon=True)
        self._stderr.start()

    # ------------------------------------------------------------------ wire

    def _send(self, message: dict[str, Any]) -> None:
        body = json.dumps(message).encode("utf-8")
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def _read_loop(self) -> None:
        stream = self.proc.stdout
        assert stream is not None
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    with self._lock:
                        self._closed = True
                        self._lock.notify_all()
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value.strip())
            if length is None:
                continue
            message = json.loads(stream.read(length).decode("utf-8"))
            self._dispatch(message)

    def _drain_stderr(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.log.append(line.decode("utf-8", "replace").rstrip())

    def _dispatch(self, message: dict[str, Any]) -> None:
        method = message.get("method")
        if method is not None and "id" in message:
            self._send(
                {"jsonrpc": "2.0", "id": message["id"], "result": self._answer(method, message.get("params") or {})}
            )
            return
        if method == "textDocument/publishDiagnostics":
            params = message["params"]
            with self._lock:
                self._diagnostics[params["uri"]] = params["diagnostics"]
                self._diagnostic_versions[params["uri"]] = self._diagnostic_versions.get(params["uri"], 0) + 1
                self._lock.notify_all()
            return
        if method == "window/logMessage":
            self.log.append(str(message["params"].get("message")))
            return
        if method is None and "id" in message:
            with self._lock:
                self._responses[int(message["id"])] = message
                self._lock.notify_all()

    def _answer(self, method: str, params: dict[str, Any]) -> Any:
        if method == "workspace/configuration":
            return [self._section(item.get("section")) for item in params.get("items", [])]
        return None  # client/registerCapability, window/workDoneProgress/create, ...

    def _section(self, section: str | None) -> Any:
        if not section:
            return self.settings
        value: Any = self.settings
        for part in section.split("."):
            if not isinstance(value, dict) or part not in value:
                return None
            value = value[part]
        return value

    # ------------------------------------------------------------------ API

    def request(self, method: str, params: Any, timeout: float = 10.0) -> Any:
        """Send a request and wait for its result."""
        with self._lock:
            self._next_id += 1
            request_id = self._next_id
        self._send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        deadline = time.monotonic() + timeout
        with self._lock:
            while request_id not in self._responses:
                remaining = deadline - time.monotonic()
                if self._closed or remaining <= 0:
                    raise LspError(f"no answer to {method} ({self._tail()})")
                self._lock.wait(remaining)
            response = self._responses.pop(request_id)
        if "error" in response:
            raise LspError(f"{method} failed: {response['error']}")
        return response.get("result")

    def notify(self, method: str, params: Any) -> None:
        """Send a notification."""
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def initialize(self) -> dict[str, Any]:
        """The initialize handshake, then the settings pushed as a configuration change."""
        result = self.request(
            "initialize",
            {
                "processId": os.getpid(),
                "rootUri": self.root.as_uri(),
                "workspaceFolders": [{"uri": self.root.as_uri(), "name": self.root.name}],
                "capabilities": {
                    "workspace": {"configuration": True, "didChangeConfiguration": {"dynamicRegistration": True}},
                    "textDocument": {
                        "publishDiagnostics": {"relatedInformation": True},
                        "completion": {
                            "completionItem": {
                                "snippetSupport": True,
                                "documentationFormat": ["markdown", "plaintext"],
                            }
                        },
                        "hover": {"contentFormat": ["markdown", "plaintext"]},
                    },
                },
                "initializationOptions": {},
            },
            timeout=20.0,
        )
        self.notify("initialized", {})
        self.notify("workspace/didChangeConfiguration", {"settings": self.settings})
        return dict(result or {})

    def open(self, path: Path, text: str | None = None) -> str:
        """Open *path* (with *text*, default its content) and return its URI."""
        uri = path.resolve().as_uri()
        self._versions[uri] = 1
        with self._lock:
            self._diagnostics.pop(uri, None)
        self.notify(
            "textDocument/didOpen",
            {
                "textDocument": {
                    "uri": uri,
                    "languageId": "yaml",
                    "version": 1,
                    "text": path.read_text("utf-8") if text is None else text,
                }
            },
        )
        return uri

    def diagnostics(self, uri: str, timeout: float = 10.0, *, settle: float = 0.4) -> list[dict[str, Any]]:
        """The diagnostics last published for *uri*, once they stop changing for *settle* s.

        The server may publish more than once (e.g. before and after a schema loads), so the
        last publication in a quiet period is the answer.
        """
        deadline = time.monotonic() + timeout
        with self._lock:
            while uri not in self._diagnostics:
                remaining = deadline - time.monotonic()
                if self._closed or remaining <= 0:
                    raise LspError(f"no diagnostics for {uri} ({self._tail()})")
                self._lock.wait(remaining)
            while True:
                seen = self._diagnostic_versions[uri]
                self._lock.wait(min(settle, max(deadline - time.monotonic(), 0.01)))
                if self._diagnostic_versions[uri] == seen or time.monotonic() >= deadline:
                    return list(self._diagnostics[uri])

    def completion(self, uri: str, line: int, character: int) -> list[dict[str, Any]]:
        """Completion items at a 0-based position."""
        result = self.request(
            "textDocument/completion",
            {
                "textDocument": {"uri": uri},
                "position": {"line": line, "character": character},
            },
        )
        if isinstance(result, dict):
            return list(result.get("items", []))
        return list(result or [])

    def hover(self, uri: str, line: int, character: int) -> Any:
        """Hover content at a 0-based position."""
        return self.request(
            "textDocument/hover",
            {
                "textDocument": {"uri": uri},
                "position": {"line": line, "character": character},
            },
        )

    def close(self) -> None:
        """Shut the server down politely, then make sure it is gone."""
        try:
            if self.proc.poll() is None:
                self.request("shutdown", None, timeout=5.0)
                self.notify("exit", None)
                self.proc.wait(timeout=5.0)
        except (LspError, OSError, subprocess.TimeoutExpired):
            pass
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait(timeout=5.0)
            for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
                if stream is not None:
                    stream.close()

    def _tail(self) -> str:
        return "server log: " + " | ".join(self.log[-5:]) if self.log else "no server log"

    def __enter__(self) -> YamlLanguageServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def yaml_settings(schemas: dict[str, list[str]], **extra: Any) -> dict[str, Any]:
    """Client settings: our schema mapping, no network catalogues (SchemaStore, CRDs)."""
    yaml: dict[str, Any] = {
        "validate": True,
        "completion": True,
        "hover": True,
        "schemas": schemas,
        "schemaStore": {"enable": False},
        "kubernetesCRDStore": {"enable": False},
    }
    yaml.update(extra)
    return {
        "yaml": yaml,
        "http": {"proxy": "", "proxyStrictSSL": False},
        "[yaml]": {"editor.tabSize": 2},
        "editor": {"tabSize": 2},
    }


def _main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    target = Path(argv[0])
    mapping: dict[str, list[str]] = {}
    for schema, glob in zip(argv[1::2], argv[2::2], strict=False):
        mapping.setdefault(Path(schema).resolve().as_uri(), []).append(glob)
    with YamlLanguageServer(yaml_settings(mapping, yamlVersion="1.1"), root=target.resolve().parent) as server:
        server.initialize()
        uri = server.open(target)
        for diagnostic in server.diagnostics(uri):
            start = diagnostic["range"]["start"]
            print(f"{target}:{start['line'] + 1}:{start['character'] + 1}: {diagnostic['message']}")
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
