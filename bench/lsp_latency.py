"""didChange → publishDiagnostics latency of the formscript language server.

Starts the real server over stdio (``python -m formscript.lsp``), drives it with a minimal
JSON-RPC client (standard library only), opens a generated script of 100 and of 2,000
entries and then types into it: each iteration sends one incremental change (one character
of an entry's content) and waits for the diagnostics published for that version. Prints
JSON with p50/p95/max per size and whether the targets hold (p95 < 25 ms for 100 entries,
< 150 ms for 2,000)::

    python bench/lsp_latency.py [--iterations 60] [--warmup 5]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

TARGETS_MS = {100: 25.0, 2000: 150.0}


def script(entries: int) -> str:
    """A script mixing every response type, with matchers, as a user would write it."""
    out = ["version: 1", "mode: auto", "responses:"]
    for i in range(entries):
        kind = i % 5
        if kind == 0:
            out += ["  - type: text", f"    content: answer number {i:05d}"]
        elif kind == 1:
            out += ["  - type: tool_call", f"    name: tool_{i}", f"    arguments: {{q: {i}}}",
                    "    when:", f"      prompt_contains: ask {i}"]
        elif kind == 2:
            out += ["  - type: structured", f"    data: {{a: {i}, b: [1, 2]}}"]
        elif kind == 3:
            out += ["  - type: stream", "    chunks:", "      - {type: text, content: hi}",
                    "      - {type: result}"]
        else:
            out += ["  - type: error", "    kind: timeout", f"    when: {{call_index: {i}}}"]
    return "\n".join(out) + "\n"


class Client:
    """A blocking JSON-RPC client over the server's stdio; a reader thread files messages."""

    def __init__(self, command: list[str]) -> None:
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=None if os.environ.get("BENCH_STDERR") else subprocess.DEVNULL)
        self.cond = threading.Condition()
        self.responses: dict[int, Any] = {}
        self.published: dict[tuple[str, int | None], float] = {}
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        stream = self.proc.stdout
        assert stream is not None
        while True:
            length = 0
            while True:
                line = stream.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            message = json.loads(stream.read(length))
            now = time.perf_counter()
            with self.cond:
                if message.get("method") == "textDocument/publishDiagnostics":
                    params = message["params"]
                    self.published[(params["uri"], params.get("version"))] = now
                elif "id" in message and "method" in message:
                    self._send({"jsonrpc": "2.0", "id": message["id"], "result": None})
                elif "id" in message:
                    self.responses[message["id"]] = message
                self.cond.notify_all()

    def _send(self, message: dict[str, Any]) -> None:
        body = json.dumps(message).encode("utf-8")
        stdin = self.proc.stdin
        assert stdin is not None
        stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        stdin.flush()

    def notify(self, method: str, params: Any) -> None:
        """Send a notification."""
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method: str, params: Any, timeout: float = 30.0) -> Any:
        """Send a request and wait for its answer."""
        with self.cond:
            self.next_id += 1
            number = self.next_id
        self._send({"jsonrpc": "2.0", "id": number, "method": method, "params": params})
        with self.cond:
            if not self.cond.wait_for(lambda: number in self.responses, timeout):
                raise TimeoutError(method)
            return self.responses.pop(number)

    def wait_published(self, uri: str, version: int, timeout: float = 30.0) -> float:
        """When the diagnostics of *version* arrived (perf_counter)."""
        with self.cond:
            if not self.cond.wait_for(lambda: (uri, version) in self.published, timeout):
                raise TimeoutError(f"no diagnostics for version {version}")
            return self.published[(uri, version)]

    def close(self) -> None:
        """Shut the server down."""
        try:
            self.request("shutdown", None, timeout=10)
            self.notify("exit", None)
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile."""
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(share * len(ordered) + 0.5) - 1))
    return ordered[rank]


def measure(client: Client, entries: int, iterations: int, warmup: int, root: Path) -> dict[str, Any]:
    """Type into a script of *entries* entries; latency of each change's diagnostics."""
    text = script(entries)
    uri = (root / f"bench{entries}.script.yaml").as_uri()
    client.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "yaml", "version": 1, "text": text}})
    client.wait_published(uri, 1)
    lines = text.split("\n")
    target = next(i for i, line in enumerate(lines) if line.startswith("    content: answer")
                  and i > len(lines) // 2)
    column = len(lines[target]) - 1
    samples = []
    for step in range(warmup + iterations):
        version = step + 2
        digit = str(step % 10)
        started = time.perf_counter()
        client.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"range": {"start": {"line": target, "character": column},
                                          "end": {"line": target, "character": column + 1}},
                                "text": digit}]})
        arrived = client.wait_published(uri, version)
        if step >= warmup:
            samples.append((arrived - started) * 1000)
        time.sleep(0.05)  # a typist's pause, so each change stands alone
    client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    p95 = percentile(samples, 0.95)
    return {
        "entries": entries,
        "bytes": len(text.encode("utf-8")),
        "iterations": len(samples),
        "p50_ms": round(statistics.median(samples), 2),
        "p95_ms": round(p95, 2),
        "max_ms": round(max(samples), 2),
        "target_p95_ms": TARGETS_MS.get(entries),
        "meets_target": p95 < TARGETS_MS[entries] if entries in TARGETS_MS else None,
    }


def main() -> int:
    """Run the benchmark and print JSON."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--iterations", type=int, default=60)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--sizes", type=int, nargs="*", default=[100, 2000])
    args = parser.parse_args()
    root = Path.cwd()
    client = Client([sys.executable, "-m", "formscript.lsp"])
    try:
        client.request("initialize", {"processId": os.getpid(), "rootUri": root.as_uri(),
                                      "capabilities": {}})
        client.notify("initialized", {})
        results = [measure(client, n, args.iterations, args.warmup, root) for n in args.sizes]
    finally:
        client.close()
    debounce = os.environ.get("FORMSCRIPT_LSP_DEBOUNCE_MS")
    print(json.dumps({"benchmark": "didChange -> publishDiagnostics", "python": sys.version.split()[0],
                      "debounce_ms": float(debounce) if debounce else "server default",
                      "results": results}, indent=2))
    return 0 if all(r["meets_target"] is not False for r in results) else 1


if __name__ == "__main__":
    raise SystemExit(main())
