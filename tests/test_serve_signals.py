"""``formscript serve`` started by hand: it says what it is, and Ctrl-C stops it at once, with
no traceback (the reader thread blocked on stdin used to keep it alive, and a second Ctrl-C
aborted the interpreter)."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys

import pytest

pty = pytest.importorskip("pty")

COMMAND = [sys.executable, "-m", "formscript", "serve"]


def _read_until(stream: int, marker: bytes, timeout: float = 30.0) -> bytes:
    """What *stream* gives until *marker* (or the timeout)."""
    seen = b""
    while marker not in seen:
        ready, _, _ = select.select([stream], [], [], timeout)
        if not ready:
            break
        chunk = os.read(stream, 4096)
        if not chunk:
            break
        seen += chunk
    return seen


def test_ctrl_c_at_a_terminal_stops_it_and_says_so() -> None:
    main, terminal = pty.openpty()
    process = subprocess.Popen(COMMAND, stdin=terminal, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert process.stderr is not None
        said = _read_until(process.stderr.fileno(), b"Ctrl-C stops it.\n")
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=20)
    finally:
        os.close(main)
        os.close(terminal)
    text = (said + err).decode()
    assert process.returncode == 130, text
    assert text.startswith("formscript serve: the formscript language server, speaking LSP on stdin and stdout")
    assert text.rstrip().endswith("interrupted, stopped")
    assert "Traceback" not in text and "Fatal Python error" not in text
    assert out == b""  # nothing on stdout that is not LSP


def test_an_interrupt_stops_an_editor_session_too() -> None:
    process = subprocess.Popen(COMMAND, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdin is not None and process.stdout is not None
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}).encode()
    process.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
    process.stdin.flush()
    answered = _read_until(process.stdout.fileno(), b'"id": 1')
    assert b"capabilities" in answered  # serving: its reader now waits on stdin
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=20)
    assert process.returncode == 130
    text = err.decode()
    assert "Traceback" not in text and "speaking LSP" not in text  # no banner for an editor
