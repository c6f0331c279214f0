"""The protocol's lifecycle as LSP 3.17 specifies it, and transports that never go deaf:

- a request before ``initialize`` is answered ServerNotInitialized (-32002), a notification
  then is dropped; a second ``initialize`` is answered InvalidRequest;
- after ``shutdown`` requests are answered InvalidRequest (-32600); ``exit`` ends the process
  with 0 after ``shutdown`` and with 1 without;
- a notification sent with an id is answered with an error (the client waits for one);
- a malformed message costs stderr one short line, never a traceback;
- TCP reads frames as stdio does, and serves client after client.

Real server processes, over stdio and over TCP.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .server_harness import PATIENCE, PROBE_FORM, RawServer, alive, frame, started

pytestmark = pytest.mark.slow  # language-server processes

INVALID_REQUEST = -32600
NOT_INITIALIZED = -32002
HOVER = {"textDocument": {"uri": "file:///nowhere.form.yaml"}, "position": {"line": 0, "character": 0}}


@pytest.fixture()
def servers() -> Iterator[list[RawServer]]:
    made: list[RawServer] = []
    yield made
    for server in made:
        server.close()


def _raw(root: Path, servers: list[RawServer]) -> RawServer:
    server = RawServer(root)
    servers.append(server)
    return server


def _error(server: RawServer, method: str, params: Any) -> dict[str, Any]:
    answer = server.response(server.send_request(method, params), timeout=PATIENCE)
    assert "error" in answer, answer
    return dict(answer["error"])


def _initialize_params(root: Path) -> dict[str, Any]:
    return {"processId": None, "rootUri": root.as_uri(), "capabilities": {}}


def _exit_code(server: RawServer) -> int:
    try:
        return server.proc.wait(timeout=PATIENCE)
    except subprocess.TimeoutExpired:
        raise AssertionError("the server did not exit") from None


def test_requests_before_initialize_are_refused(tmp_path: Path, servers: list[RawServer]) -> None:
    server = _raw(tmp_path, servers)
    assert _error(server, "textDocument/hover", HOVER)["code"] == NOT_INITIALIZED
    assert _error(server, "shutdown", None)["code"] == NOT_INITIALIZED
    server.notify(
        "textDocument/didOpen", {"textDocument": {"uri": "file:///x", "languageId": "yaml", "version": 1, "text": ""}}
    )
    assert "capabilities" in server.request("initialize", _initialize_params(tmp_path))
    assert _error(server, "initialize", _initialize_params(tmp_path))["code"] == INVALID_REQUEST
    server.notify("initialized", {})
    assert server.request("textDocument/hover", HOVER) is None
    # the notification before initialize was dropped: nothing was published for it
    assert not server.publishes("file:///x")


def test_requests_after_shutdown_are_refused_and_exit_is_zero(tmp_path: Path, servers: list[RawServer]) -> None:
    server = started(tmp_path)
    servers.append(server)
    assert server.request("shutdown", None) is None
    assert _error(server, "textDocument/hover", HOVER)["code"] == INVALID_REQUEST
    assert _error(server, "shutdown", None)["code"] == INVALID_REQUEST
    server.notify(
        "textDocument/didOpen", {"textDocument": {"uri": "file:///y", "languageId": "yaml", "version": 1, "text": ""}}
    )
    server.notify("exit", None)
    assert _exit_code(server) == 0
    assert not server.publishes("file:///y")


@pytest.mark.parametrize("initialized", [True, False])
def test_exit_without_shutdown_is_one(tmp_path: Path, servers: list[RawServer], initialized: bool) -> None:
    server = started(tmp_path) if initialized else _raw(tmp_path, servers)
    servers.append(server)
    server.notify("exit", None)
    assert _exit_code(server) == 1


def test_end_of_input_ends_the_server(tmp_path: Path, servers: list[RawServer]) -> None:
    server = started(tmp_path)
    servers.append(server)
    assert server.proc.stdin is not None
    server.proc.stdin.close()
    _exit_code(server)


def test_input_ending_inside_a_frame_ends_the_server_quietly(tmp_path: Path, servers: list[RawServer]) -> None:
    server = started(tmp_path)
    servers.append(server)
    assert server.proc.stdin is not None
    server.send_bytes(b"Content-Length: 10\r\n\r\n")
    server.proc.stdin.close()
    assert _exit_code(server) == 0
    assert "dropping a frame" not in server.stderr_tail(10**9)


@pytest.mark.parametrize(
    "method",
    [
        "textDocument/didOpen",
        "initialized",
        "textDocument/didChange",
        "$/cancelRequest",
        "exit",
        "workspace/didChangeConfiguration",
    ],
)
def test_notifications_sent_with_an_id_are_answered(tmp_path: Path, servers: list[RawServer], method: str) -> None:
    server = started(tmp_path)
    servers.append(server)
    error = _error(server, method, {})
    assert error["code"] == INVALID_REQUEST and "notification" in error["message"]
    alive(server)  # exit with an id did not end it, either


def test_requests_that_are_not_json_rpc_2_are_answered(tmp_path: Path, servers: list[RawServer]) -> None:
    server = started(tmp_path)
    servers.append(server)
    for version in ("1.0", None, 2):
        msg_id = server.new_id()
        server.send({"jsonrpc": version, "id": msg_id, "method": "textDocument/hover", "params": HOVER})
        assert server.response(msg_id, timeout=PATIENCE)["error"]["code"] == INVALID_REQUEST
    alive(server)


def test_requests_sent_without_an_id_are_dropped(tmp_path: Path, servers: list[RawServer]) -> None:
    server = started(tmp_path)
    servers.append(server)
    before = len(server.responses)
    server.notify("textDocument/hover", HOVER)
    server.notify("shutdown", None)
    alive(server)
    assert len(server.responses) == before + 1  # the probe's answer only


MALFORMED: list[bytes] = [
    frame({"jsonrpc": "2.0", "id": 1, "method": "textDocument/hover", "params": {"textDocument": 5}}),
    frame({"jsonrpc": "2.0", "id": 2, "method": "textDocument/didOpen", "params": None}),
    frame({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": []}}),
    frame([1, 2, 3]),
    frame("just a string"),
    frame({"jsonrpc": "2.0", "id": [1], "method": "textDocument/hover", "params": HOVER}),
    frame({"jsonrpc": "2.0", "id": 3, "method": 17}),
    frame({"jsonrpc": "1.0", "id": 4, "method": "textDocument/hover", "params": HOVER}),
    b'Content-Length: 9\r\n\r\n{"a": [1,',
    b"Content-Length: 5000\r\n\r\n" + b"[" * 4999 + b"\n",
    b"Content-Length: 12\r\n\r\n\xff\xfe\x00garbage!!",
    frame({"jsonrpc": "2.0", "id": 5, "method": "workspace/executeCommand", "params": {"command": "nope"}}),
    frame({"jsonrpc": "2.0", "id": 6, "method": "textDocument/completion", "params": {"textDocument": {"uri": 1}}}),
]


def test_malformed_messages_cost_one_short_line_each(tmp_path: Path, servers: list[RawServer]) -> None:
    server = started(tmp_path)
    servers.append(server)
    alive(server)
    before = server.stderr_tail(10**9)
    rounds = 20
    for _ in range(rounds):
        for data in MALFORMED:
            server.send_bytes(data)
    alive(server)
    added = server.stderr_tail(10**9)[len(before) :]
    lines = added.splitlines()
    assert "Traceback" not in added, added[:3000]
    assert len(lines) <= rounds * len(MALFORMED), len(lines)  # one line a message at most
    assert all(len(line) <= 420 for line in lines), max(lines, key=len)


# ----------------------------------------------------------------------------- TCP


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class TcpClient:
    """A blocking JSON-RPC client over a TCP connection (answers are read in order)."""

    def __init__(self, port: int) -> None:
        deadline = time.monotonic() + PATIENCE
        while True:
            try:
                self.sock = socket.create_connection(("127.0.0.1", port), timeout=PATIENCE)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        self.buffer = b""
        self.next_id = 10**6  # apart from the ids of MALFORMED

    def send_bytes(self, data: bytes) -> None:
        self.sock.sendall(data)

    def _message(self) -> dict[str, Any]:
        while b"\r\n\r\n" not in self.buffer:
            self._fill()
        head, _, rest = self.buffer.partition(b"\r\n\r\n")
        fields = dict(line.split(b":", 1) for line in head.split(b"\r\n"))
        length = int(fields[b"Content-Length"])
        while len(rest) < length:
            self.buffer = head + b"\r\n\r\n" + rest
            self._fill()
            head, _, rest = self.buffer.partition(b"\r\n\r\n")
        self.buffer = rest[length:]
        return dict(json.loads(rest[:length]))

    def _fill(self) -> None:
        chunk = self.sock.recv(65536)
        if not chunk:
            raise AssertionError("the server closed the connection")
        self.buffer += chunk

    def request(self, method: str, params: Any) -> dict[str, Any]:
        self.next_id += 1
        self.send_bytes(frame({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}))
        while True:
            message = self._message()
            if message.get("id") == self.next_id and "method" not in message:
                return message

    def notify(self, method: str, params: Any) -> None:
        self.send_bytes(frame({"jsonrpc": "2.0", "method": method, "params": params}))

    def close(self) -> None:
        self.sock.close()


@pytest.fixture()
def tcp_server(tmp_path: Path) -> Iterator[tuple[int, subprocess.Popen[bytes], Path]]:
    port = _free_port()
    stderr = tmp_path / "tcp.stderr"
    with stderr.open("wb") as sink:
        proc = subprocess.Popen(
            [sys.executable, "-m", "formscript", "serve", "--tcp", f"127.0.0.1:{port}"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=sink,
            cwd=tmp_path,
        )
        try:
            yield port, proc, stderr
        finally:
            proc.kill()
            proc.wait(timeout=30)


def _session(client: TcpClient, root: Path) -> None:
    """initialize, open the probe form, hover it."""
    assert "capabilities" in client.request("initialize", _initialize_params(root))["result"]
    client.notify("initialized", {})
    probe = root / "probe.form.yaml"
    probe.write_text(PROBE_FORM, encoding="utf-8")
    client.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": probe.as_uri(), "languageId": "yaml", "version": 1, "text": PROBE_FORM}},
    )
    hover = client.request(
        "textDocument/hover", {"textDocument": {"uri": probe.as_uri()}, "position": {"line": 4, "character": 3}}
    )
    assert hover["result"] is not None and "name" in str(hover["result"]["contents"]), hover


def test_tcp_serves_client_after_client(tmp_path: Path, tcp_server: tuple[int, subprocess.Popen[bytes], Path]) -> None:
    port, proc, _ = tcp_server
    first = TcpClient(port)
    _session(first, tmp_path)
    first.close()  # gone without shutdown or exit
    second = TcpClient(port)
    _session(second, tmp_path)
    assert second.request("shutdown", None)["result"] is None
    assert second.request("textDocument/hover", HOVER)["error"]["code"] == INVALID_REQUEST
    second.notify("exit", None)
    second.close()
    third = TcpClient(port)
    assert third.request("textDocument/hover", HOVER)["error"]["code"] == NOT_INITIALIZED
    _session(third, tmp_path)
    third.close()
    assert proc.poll() is None


def test_tcp_frames_resynchronise(tmp_path: Path, tcp_server: tuple[int, subprocess.Popen[bytes], Path]) -> None:
    port, proc, stderr = tcp_server
    client = TcpClient(port)
    _session(client, tmp_path)
    garbage = [
        b"Content-Length: 99999999999\r\n\r\n",
        b"Content-Length: 0\r\n\r\n",
        b"no header at all\r\n\r\n{}",
        b"x" * (2 * 1024 * 1024) + b"\r\n",  # a line past the reader's limit
        b"Content-Length: 4\r\n\r\n{]}x",
        *MALFORMED,
    ]
    for data in garbage:
        client.send_bytes(data)
    hover = client.request("textDocument/hover", HOVER)
    assert "result" in hover and hover["result"] is None, hover
    client.close()
    assert proc.poll() is None
    assert "Traceback" not in stderr.read_text(encoding="utf-8", errors="replace")
