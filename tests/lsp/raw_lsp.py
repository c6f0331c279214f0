"""A raw JSON-RPC client over the server's stdio, for tests that must write bytes no
well-behaved client would (broken frames, bodies that are not JSON-RPC) or that need the
server's process id.

The server runs as ``python -m formscript serve``; a reader thread parses its frames
strictly and keeps responses by id and notifications in order. Every wait has a deadline and
fails with the tail of the server's stderr, so a hung or dead server fails the test instead
of hanging it.
"""

from __future__ import annotations

import itertools
import json
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

SERVE = [sys.executable, "-m", "formscript", "serve"]
_SERVERS = itertools.count(1)
#: Content-Length of a frame the reader refuses to read (the server went mad).
_MAX_FRAME = 512 * 1024 * 1024


def frame(message: Any) -> bytes:
    """One well-formed frame carrying *message* as JSON."""
    body = json.dumps(message).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class ServerGone(AssertionError):
    """The server closed its output or did not answer in time."""


class RawServer:
    """The language server as a subprocess, spoken to in raw frames."""

    def __init__(self, root: Path, command: list[str] | None = None, env: dict[str, str] | None = None) -> None:
        self.root = root
        self.stderr_path = root / f"server-{next(_SERVERS)}.stderr"
        self._stderr: IO[bytes] = self.stderr_path.open("wb")
        self.proc = subprocess.Popen(
            command or SERVE, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr, cwd=root, env=env
        )
        self.responses: dict[Any, dict[str, Any]] = {}
        self.notifications: list[dict[str, Any]] = []
        self.server_requests: list[dict[str, Any]] = []
        self.closed = False
        self.reader_error: str | None = None
        self._cond = threading.Condition()
        self._write_lock = threading.Lock()
        self._next_id = 1000
        self._replies: queue.Queue[Any] = queue.Queue()
        self._reader = threading.Thread(target=self._read, name="raw-lsp-reader", daemon=True)
        self._reader.start()
        # answers the server's requests, so that the reader never blocks on a write
        threading.Thread(target=self._reply, name="raw-lsp-replier", daemon=True).start()

    # -- process ---------------------------------------------------------------------------

    @property
    def pid(self) -> int:
        return self.proc.pid

    def rss_kib(self) -> int:
        """The server's resident set size (VmRSS), in KiB."""
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise AssertionError("no VmRSS in /proc/<pid>/status")

    def stderr_tail(self, size: int = 3000) -> str:
        self._stderr.flush()
        text = self.stderr_path.read_bytes().decode("utf-8", "replace")
        return text[-size:]

    def close(self) -> None:
        """Shut the server down politely; kill it if it does not go."""
        try:
            if not self.closed and self.proc.poll() is None:
                self.request("shutdown", None, timeout=10)
                self.notify("exit", None)
                self.proc.wait(timeout=10)
        except (ServerGone, OSError, subprocess.TimeoutExpired):
            pass
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait(timeout=10)
            for stream in (self.proc.stdin, self.proc.stdout):
                try:
                    if stream is not None:
                        stream.close()
                except OSError:  # unflushed bytes for a dead server
                    pass
            self._stderr.close()
            self._replies.put(None)

    # -- reading ---------------------------------------------------------------------------

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        try:
            while True:
                length = None
                while True:
                    line = out.readline()
                    if not line:
                        return
                    if line in (b"\r\n", b"\n"):
                        break
                    name, _, value = line.decode("ascii").partition(":")
                    if name.strip().lower() == "content-length":
                        length = int(value.strip())
                if length is None or not 0 <= length <= _MAX_FRAME:
                    raise ValueError(f"the server sent a frame without a sane Content-Length: {length}")
                body = out.read(length)
                if len(body) < length:
                    return
                self._take(json.loads(body))
        except Exception as exc:  # the server broke the protocol: fail every wait
            self.reader_error = f"{type(exc).__name__}: {exc}"
        finally:
            with self._cond:
                self.closed = True
                self._cond.notify_all()

    def _take(self, message: dict[str, Any]) -> None:
        if "method" in message and "id" in message:
            # a request of the server's (configuration, registration, progress): say yes
            self.server_requests.append(message)
            self._replies.put(message["id"])
            return
        with self._cond:
            if "method" in message:
                self.notifications.append(message)
            else:
                self.responses[message.get("id")] = message
            self._cond.notify_all()

    def _reply(self) -> None:
        while True:
            msg_id = self._replies.get()
            if msg_id is None:
                return
            try:
                self.send({"jsonrpc": "2.0", "id": msg_id, "result": None})
            except ServerGone:
                return

    def wait(self, predicate: Callable[[], Any], timeout: float, what: str) -> Any:
        """Wait until *predicate* (called under the lock) returns something truthy."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                value = predicate()
                if value:
                    return value
                if self.closed:
                    raise ServerGone(
                        f"the server closed its output while waiting for {what} "
                        f"(exit code {self.proc.poll()}, reader: {self.reader_error})"
                        f"\n--- server stderr ---\n{self.stderr_tail()}"
                    )
                left = deadline - time.monotonic()
                if left <= 0:
                    raise ServerGone(f"no {what} within {timeout:.0f}s\n--- server stderr ---\n{self.stderr_tail()}")
                self._cond.wait(min(left, 0.5))

    # -- writing ---------------------------------------------------------------------------

    def send_bytes(self, data: bytes) -> None:
        """Write raw bytes to the server's stdin."""
        stdin = self.proc.stdin
        assert stdin is not None
        with self._write_lock:
            try:
                stdin.write(data)
                stdin.flush()
            except (BrokenPipeError, ValueError) as exc:
                raise ServerGone(
                    f"the server's stdin is closed: {exc}\n--- server stderr ---\n{self.stderr_tail()}"
                ) from exc

    def send(self, message: Any) -> None:
        self.send_bytes(frame(message))

    def new_id(self) -> int:
        with self._write_lock:
            self._next_id += 1
            return self._next_id

    def notify(self, method: str, params: Any) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def send_request(self, method: str, params: Any) -> int:
        """Send a request; its id (answer it with ``response``)."""
        msg_id = self.new_id()
        self.send({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params})
        return msg_id

    def response(self, msg_id: Any, timeout: float = 30) -> dict[str, Any]:
        """The whole response message for *msg_id*."""
        found: dict[str, Any] = self.wait(
            lambda: self.responses.get(msg_id), timeout, f"response to request {msg_id!r}"
        )
        return found

    def request(self, method: str, params: Any, timeout: float = 30) -> Any:
        """Send a request and return its result; an error response fails."""
        answer = self.response(self.send_request(method, params), timeout)
        if "error" in answer:
            raise AssertionError(f"{method} answered with an error: {answer['error']}")
        return answer.get("result")

    # -- LSP -------------------------------------------------------------------------------

    def initialize(self) -> dict[str, Any]:
        """initialize/initialized with modest capabilities (UTF-16, pushed diagnostics)."""
        result: dict[str, Any] = self.request(
            "initialize",
            {
                "processId": None,
                "rootUri": self.root.as_uri(),
                "workspaceFolders": [{"uri": self.root.as_uri(), "name": "ws"}],
                "capabilities": {
                    "textDocument": {
                        "publishDiagnostics": {"versionSupport": True},
                        "hover": {"contentFormat": ["markdown"]},
                        "documentSymbol": {"hierarchicalDocumentSymbolSupport": True},
                    },
                },
            },
            timeout=60,
        )
        self.notify("initialized", {})
        return result

    def open(self, uri: str, text: str, version: int = 1) -> None:
        self.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": "yaml", "version": version, "text": text}},
        )

    def publishes(self, uri: str) -> list[dict[str, Any]]:
        """The publishDiagnostics params received for *uri*, in order."""
        with self._cond:
            return [
                n["params"]
                for n in self.notifications
                if n["method"] == "textDocument/publishDiagnostics" and n["params"]["uri"] == uri
            ]

    def published(self, uri: str, version: int, timeout: float = 60) -> list[dict[str, Any]]:
        """The diagnostics published for *uri* at *version*."""

        def hit() -> dict[str, Any] | None:
            for message in reversed(self.notifications):
                params = message.get("params") or {}
                if (
                    message["method"] == "textDocument/publishDiagnostics"
                    and params.get("uri") == uri
                    and params.get("version") == version
                ):
                    return params
            return None

        params = self.wait(hit, timeout, f"diagnostics of {uri} version {version}")
        return list(params["diagnostics"])
