"""didChange → publishDiagnostics latency: formscript's language server against yaml-language-server.

Starts the real servers over stdio and drives them with a minimal JSON-RPC client (standard
library only):

* ``formscript``: ``python -m formscript.lsp``, as shipped (its own short debounce);
* ``yaml-language-server``: the pinned 1.25.0 in tests/yamlls (``npm ci`` there when
  node_modules is missing or stale), with schemas/script.schema.json bound to ``*.script.yaml``
  through the ``yaml.schemas`` setting, as shipped: it validates 200 ms after the last change;
* ``yaml-language-server (no delay)``: the same server with that fixed 200 ms wait set to 0 by
  bench/yamlls_no_delay.cjs, so the bare validation cost is visible too.

All of them open the same generated script of 100 and of 2,000 entries (written to a temporary
workspace) and get the same edits, interleaved step by step (the order alternates each step) so
machine noise hits them alike. Each step is one incremental one-character change to the key of
an entry in the middle of the file, toggling a typo in and out: odd steps turn ``content`` into
``conten<x>`` with a letter *x* different from the previous typo's, even steps restore it. The
clock runs from the didChange to the publishDiagnostics *for that change*:

* formscript publishes the document version, so the publication must carry the edited version;
* yaml-language-server publishes no version (1.25.0 leaves it out even when the client
  advertises ``versionSupport``), so the publication must arrive after the change was sent
  *and* show that change's state: a typo step must report ``conten<x>`` for its own *x*, a
  restoring step must report no mistyped key at all. A publication that does not match (e.g. a
  stale or an empty one) does not stop the clock; such publications are counted and reported.

formscript's diagnostics are checked the same way, so both servers are known to see every edit.
Prints JSON: p50/p95/max per server and size, the ratios formscript / yaml-language-server, and
whether formscript's targets hold (p95 < 25 ms for 100 entries, < 150 ms for 2,000)::

    python bench/lsp_latency.py                  # full: 60 measured steps per size (~90 s)
    python bench/lsp_latency.py --short --check  # CI: 20 steps per size (~35 s); exit 1 on a
                                                 # regression (see --check)

``--check`` fails when formscript's p95 exceeds a target by more than ``--noise`` (2x), or
exceeds the p95 of yaml-language-server as shipped on the same file. The no-delay variant is
reported, not gated: on the 100-entry file the two are within noise of each other. The absolute
figures scale with the machine's load (reported as ``load_average``); the ratios much less, as
the servers take turns.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SCHEMA = ROOT / "schemas" / "script.schema.json"
HARNESS = ROOT / "tests" / "yamlls"
YAMLLS_PACKAGE = HARNESS / "node_modules" / "yaml-language-server"
YAMLLS_JS = YAMLLS_PACKAGE / "bin" / "yaml-language-server"
YAMLLS_SETTINGS_JS = YAMLLS_PACKAGE / "out" / "server" / "src" / "yamlSettings.js"
#: Shared with tests/test_yamlls.py: a hash of package.json and the lock, written after ``npm ci``.
STAMP = HARNESS / "node_modules" / ".formscript-install-stamp"
NO_DELAY = HERE / "yamlls_no_delay.cjs"

FORMSCRIPT = "formscript"
YAMLLS = "yaml-language-server"
YAMLLS_NO_DELAY = "yaml-language-server (no delay)"

TARGETS_MS = {100: 25.0, 2000: 150.0}
#: --check fails only when formscript's p95 exceeds a target by more than this factor.
NOISE = 2.0
#: Letters for the typos: anything but the "t" that makes the key right again.
TYPOS = "abcdfghijklmopqrsuvwxyz"
MISTYPED = re.compile(r"conten[^t]")
#: A typist's pause after each publication, so each change stands alone.
PAUSE = 0.05
TIMEOUT = 30.0


def script(entries: int) -> str:
    """A script mixing every response type, with matchers, as a user would write it."""
    out = ["version: 1", "mode: auto", "responses:"]
    for i in range(entries):
        kind = i % 5
        if kind == 0:
            out += ["  - type: text", f"    content: answer number {i:05d}"]
        elif kind == 1:
            out += [
                "  - type: tool_call",
                f"    name: tool_{i}",
                f"    arguments: {{q: {i}}}",
                "    when:",
                f"      prompt_contains: ask {i}",
            ]
        elif kind == 2:
            out += ["  - type: structured", f"    data: {{a: {i}, b: [1, 2]}}"]
        elif kind == 3:
            out += ["  - type: stream", "    chunks:", "      - {type: text, content: hi}", "      - {type: result}"]
        else:
            out += ["  - type: error", "    kind: timeout", f"    when: {{call_index: {i}}}"]
    return "\n".join(out) + "\n"


@dataclass
class Publication:
    """One textDocument/publishDiagnostics as it arrived."""

    arrived: float
    version: int | None
    messages: list[str]


class Client:
    """A blocking JSON-RPC client over a server's stdio; a reader thread files messages.

    It answers the server's own requests: ``workspace/configuration`` from *settings*, anything
    else (registrations, progress) with null.
    """

    def __init__(
        self,
        name: str,
        command: list[str],
        *,
        settings: dict[str, Any] | None = None,
        env: dict[str, str] | None = None,
        cwd: Path | None = None,
    ) -> None:
        self.name = name
        self.settings = settings
        self.proc = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=cwd,
            env=env,
            stderr=None if os.environ.get("BENCH_STDERR") else subprocess.DEVNULL,
        )
        self.cond = threading.Condition()
        self.responses: dict[int, Any] = {}
        self.published: dict[str, list[Publication]] = {}
        self.closed = False
        self.next_id = 0
        self.write_lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        stream = self.proc.stdout
        assert stream is not None
        while True:
            length = 0
            while True:
                line = stream.readline()
                if not line:
                    with self.cond:
                        self.closed = True
                        self.cond.notify_all()
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            message = json.loads(stream.read(length))
            now = time.perf_counter()
            method = message.get("method")
            if method == "textDocument/publishDiagnostics":
                params = message["params"]
                publication = Publication(
                    now, params.get("version"), [str(d.get("message", "")) for d in params["diagnostics"]]
                )
                with self.cond:
                    self.published.setdefault(params["uri"], []).append(publication)
                    self.cond.notify_all()
            elif method is not None and "id" in message:
                self._send(
                    {"jsonrpc": "2.0", "id": message["id"], "result": self._answer(method, message.get("params") or {})}
                )
            elif method is None and "id" in message:
                with self.cond:
                    self.responses[message["id"]] = message
                    self.cond.notify_all()

    def _answer(self, method: str, params: dict[str, Any]) -> Any:
        if method != "workspace/configuration":
            return None
        return [self._section(item.get("section")) for item in params.get("items", [])]

    def _section(self, section: str | None) -> Any:
        value: Any = self.settings
        if not section or not isinstance(value, dict) or section in value:
            return value.get(section) if section and isinstance(value, dict) else value
        for part in section.split("."):
            if not isinstance(value, dict) or part not in value:
                return None
            value = value[part]
        return value

    def _send(self, message: dict[str, Any]) -> None:
        body = json.dumps(message).encode("utf-8")
        stdin = self.proc.stdin
        assert stdin is not None
        with self.write_lock:
            stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            stdin.flush()

    def notify(self, method: str, params: Any) -> None:
        """Send a notification."""
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method: str, params: Any, timeout: float = TIMEOUT) -> Any:
        """Send a request and wait for its answer."""
        with self.cond:
            self.next_id += 1
            number = self.next_id
        self._send({"jsonrpc": "2.0", "id": number, "method": method, "params": params})
        with self.cond:
            if not self.cond.wait_for(lambda: number in self.responses or self.closed, timeout):
                raise TimeoutError(f"{self.name}: no answer to {method}")
            if number not in self.responses:
                raise RuntimeError(f"{self.name} exited during {method}")
            return self.responses.pop(number)

    def initialize(self, root: Path) -> None:
        """The handshake with the capabilities of an ordinary editor, then the settings."""
        self.request(
            "initialize",
            {
                "processId": os.getpid(),
                "rootUri": root.as_uri(),
                "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}],
                "capabilities": {
                    "workspace": {"configuration": True, "didChangeConfiguration": {"dynamicRegistration": True}},
                    "textDocument": {
                        "synchronization": {"dynamicRegistration": False},
                        "publishDiagnostics": {"relatedInformation": True, "versionSupport": True},
                    },
                },
                "initializationOptions": {},
            },
        )
        self.notify("initialized", {})
        if self.settings is not None:
            self.notify("workspace/didChangeConfiguration", {"settings": self.settings})

    def count(self, uri: str) -> int:
        """How many publications for *uri* arrived so far."""
        with self.cond:
            return len(self.published.get(uri, []))

    def wait(self, uri: str, start: int, accept: Callable[[Publication], bool], timeout: float = TIMEOUT) -> int:
        """Index of the first publication for *uri* from index *start* on that *accept* takes."""

        def found() -> int | None:
            for index, publication in enumerate(self.published.get(uri, [])[start:], start):
                if accept(publication):
                    return index
            return None

        with self.cond:
            if not self.cond.wait_for(lambda: found() is not None or self.closed, timeout):
                seen = [p.messages[:3] for p in self.published.get(uri, [])[start:]]
                raise TimeoutError(
                    f"{self.name}: no matching diagnostics in {timeout:.0f} s; seen since the change: {seen}"
                )
            index = found()
            if index is None:
                raise RuntimeError(f"{self.name} exited")
            return index

    def close(self) -> None:
        """Shut the server down."""
        try:
            self.request("shutdown", None, timeout=10)
            self.notify("exit", None)
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()
            self.proc.wait(timeout=10)


# --------------------------------------------------------------------------- yaml-language-server


def _install_digest() -> str:
    digest = hashlib.sha256()
    for name in ("package.json", "package-lock.json"):
        digest.update((HARNESS / name).read_bytes())
    return digest.hexdigest()


def ensure_yamlls() -> str:
    """The pinned yaml-language-server installed in tests/yamlls (``npm ci`` when needed); its version."""
    if shutil.which("node") is None:
        raise SystemExit("lsp_latency: node is not installed; yaml-language-server cannot run")
    digest = _install_digest()
    if not (YAMLLS_JS.is_file() and STAMP.is_file() and STAMP.read_text() == digest):
        npm = shutil.which("npm")
        if npm is None:
            raise SystemExit("lsp_latency: node is installed but npm is not")
        print("lsp_latency: npm ci in tests/yamlls ...", file=sys.stderr)
        done = subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts"],
            cwd=HARNESS,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        if done.returncode != 0:
            raise SystemExit(f"lsp_latency: npm ci failed in {HARNESS}:\n{done.stdout}\n{done.stderr}")
        STAMP.write_text(digest)
    pinned = json.loads((HARNESS / "package.json").read_text())["dependencies"]["yaml-language-server"]
    installed = str(json.loads((YAMLLS_PACKAGE / "package.json").read_text())["version"])
    if installed != pinned:
        raise SystemExit(f"lsp_latency: yaml-language-server {installed} installed, {pinned} pinned")
    return installed


def yamlls_settings() -> dict[str, Any]:
    """Our script schema bound to ``*.script.yaml``; no network catalogues (as tests/test_yamlls.py)."""
    return {
        "yaml": {
            "validate": True,
            "schemas": {str(SCHEMA): ["*.script.yaml"]},
            "schemaStore": {"enable": False},
            "kubernetesCRDStore": {"enable": False},
            # Parse as the runtime does (PyYAML speaks YAML 1.1), as schemas/README.md recommends.
            "yamlVersion": "1.1",
        },
        "http": {"proxy": "", "proxyStrictSSL": False},
        "[yaml]": {"editor.tabSize": 2},
        "editor": {"tabSize": 2},
    }


def start_servers(root: Path) -> list[Client]:
    """formscript, yaml-language-server as shipped and without its validation delay."""
    node = shutil.which("node")
    assert node is not None
    env = dict(os.environ, BENCH_YAMLLS_SETTINGS_JS=str(YAMLLS_SETTINGS_JS), BENCH_YAMLLS_DELAY_MS="0")
    clients = [
        Client(FORMSCRIPT, [sys.executable, "-m", "formscript.lsp"], cwd=root),
        Client(YAMLLS, [node, str(YAMLLS_JS), "--stdio"], settings=yamlls_settings(), cwd=root),
        Client(
            YAMLLS_NO_DELAY,
            [node, "--require", str(NO_DELAY), str(YAMLLS_JS), "--stdio"],
            settings=yamlls_settings(),
            env=env,
            cwd=root,
        ),
    ]
    for client in clients:
        client.initialize(root)
    return clients


# --------------------------------------------------------------------------- measuring


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile."""
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(share * len(ordered) + 0.5) - 1))
    return ordered[rank]


def expected(typo: str | None) -> Callable[[list[str]], bool]:
    """Whether published messages show the state after a step (*typo* None: the key is right)."""
    if typo is None:
        return lambda messages: not any(MISTYPED.search(m) for m in messages)
    key = f"conten{typo}"
    return lambda messages: any(key in m for m in messages)


@dataclass
class Track:
    """One server's samples on one file."""

    client: Client
    uri: str
    samples: list[float] = field(default_factory=list)
    unmatched: int = 0  # publications after a change that did not show it (stale, empty, ...)
    extra: int = 0  # publications after the one that showed the change, before the next change
    last_match: int = -1

    def summary(self) -> dict[str, Any]:
        return {
            "p50_ms": round(statistics.median(self.samples), 2),
            "p95_ms": round(percentile(self.samples, 0.95), 2),
            "max_ms": round(max(self.samples), 2),
            "unmatched_publications": self.unmatched,
            "extra_publications": self.extra,
        }


def step(track: Track, version: int, change: dict[str, Any], typo: str | None, record: bool) -> None:
    """Send one change and wait for the diagnostics that show it."""
    client, uri = track.client, track.uri
    start = client.count(uri)
    if track.last_match >= 0:
        track.extra += start - track.last_match - 1
    shows = expected(typo)
    by_version = client.name == FORMSCRIPT

    def accept(publication: Publication) -> bool:
        if by_version and publication.version != version:
            return False
        if not shows(publication.messages):
            if by_version:
                raise AssertionError(
                    f"{client.name}: version {version} does not show the change: {publication.messages[:5]}"
                )
            return False
        return True

    started = time.perf_counter()
    client.notify(
        "textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]}
    )
    index = client.wait(uri, start, accept)
    arrived = client.published[uri][index].arrived
    if record:
        track.samples.append((arrived - started) * 1000)
        track.unmatched += index - start
    track.last_match = index
    time.sleep(PAUSE)


def measure(clients: list[Client], entries: int, iterations: int, warmup: int, root: Path) -> dict[str, Any]:
    """Type into one script of *entries* entries with every server, step by step."""
    text = script(entries)
    path = root / f"bench{entries}.script.yaml"
    path.write_text(text, encoding="utf-8")
    uri = path.as_uri()
    tracks = []
    for client in clients:
        start = client.count(uri)
        client.notify(
            "textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}}
        )
        client.wait(uri, start, lambda p: p.version in (1, None))
        tracks.append(Track(client, uri))
    lines = text.split("\n")
    target = next(i for i, line in enumerate(lines) if line.startswith("    content: answer") and i > len(lines) // 2)
    column = lines[target].index("content") + len("conten")
    for number in range(warmup + iterations):
        typo = TYPOS[(number // 2) % len(TYPOS)] if number % 2 == 0 else None
        change = {
            "range": {"start": {"line": target, "character": column}, "end": {"line": target, "character": column + 1}},
            "text": typo or "t",
        }
        order = tracks if number % 2 == 0 else tracks[::-1]
        for track in order:
            step(track, number + 2, change, typo, record=number >= warmup)
    for track in tracks:
        track.extra += track.client.count(uri) - track.last_match - 1
        track.client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    by_name = {track.client.name: track.summary() for track in tracks}
    ours = by_name[FORMSCRIPT]

    def ratio(other: str, key: str) -> float:
        return round(float(ours[key]) / float(by_name[other][key]), 3)

    p95 = ours["p95_ms"]
    return {
        "entries": entries,
        "bytes": len(text.encode("utf-8")),
        "iterations": iterations,
        "servers": by_name,
        "ratio_p95": ratio(YAMLLS, "p95_ms"),
        "ratio_p50": ratio(YAMLLS, "p50_ms"),
        "ratio_p95_no_delay": ratio(YAMLLS_NO_DELAY, "p95_ms"),
        "ratio_p50_no_delay": ratio(YAMLLS_NO_DELAY, "p50_ms"),
        "target_p95_ms": TARGETS_MS.get(entries),
        "meets_target": p95 < TARGETS_MS[entries] if entries in TARGETS_MS else None,
    }


def check(results: list[dict[str, Any]], noise: float) -> list[str]:
    """Why --check fails: a target missed by more than *noise*, or slower than yaml-language-server."""
    failures = []
    for result in results:
        entries, p95 = result["entries"], result["servers"][FORMSCRIPT]["p95_ms"]
        target = result["target_p95_ms"]
        if target is not None and p95 > target * noise:
            failures.append(f"{entries} entries: formscript p95 {p95} ms > {noise}x the {target} ms target")
        theirs = result["servers"][YAMLLS]["p95_ms"]
        if p95 > theirs:
            failures.append(f"{entries} entries: formscript p95 {p95} ms > yaml-language-server p95 {theirs} ms")
    return failures


def main() -> int:
    """Run the benchmark and print JSON."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--short", action="store_true", help="CI mode: 20 measured steps, 4 warm-up")
    parser.add_argument("--iterations", type=int, help="measured steps per size (default 60, --short 20)")
    parser.add_argument("--warmup", type=int, help="unmeasured first steps (default 6, --short 4)")
    parser.add_argument("--sizes", type=int, nargs="*", default=[100, 2000])
    parser.add_argument(
        "--check",
        action="store_true",
        help=f"exit 1 when formscript's p95 exceeds a target by more than --noise, or "
        f"exceeds {YAMLLS}'s p95 on the same file",
    )
    parser.add_argument("--noise", type=float, default=NOISE, help=f"--check's allowance (default {NOISE}x)")
    args = parser.parse_args()
    iterations = args.iterations or (20 if args.short else 60)
    warmup = args.warmup if args.warmup is not None else (4 if args.short else 6)
    version = ensure_yamlls()
    load_before = os.getloadavg()[0]
    began = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="lsp-latency-") as workspace:
        root = Path(workspace).resolve()
        clients = start_servers(root)
        try:
            results = [measure(clients, n, iterations, warmup, root) for n in args.sizes]
        finally:
            for client in clients:
                client.close()
    node = subprocess.run(["node", "--version"], capture_output=True, text=True, check=False).stdout.strip()
    debounce = os.environ.get("FORMSCRIPT_LSP_DEBOUNCE_MS")
    failures = check(results, args.noise)
    print(
        json.dumps(
            {
                "benchmark": "didChange -> publishDiagnostics",
                "mode": "short" if args.short else "full",
                "python": sys.version.split()[0],
                "node": node,
                "yaml_language_server": version,
                "formscript_debounce_ms": float(debounce) if debounce else "server default",
                "yaml_language_server_delay_ms": {YAMLLS: 200, YAMLLS_NO_DELAY: 0},
                "edit": "one character of a key in the middle of the file, toggling a typo in and out",
                "ratios": "formscript / yaml-language-server on the same file and edits",
                "results": results,
                "check": {"noise_factor": args.noise, "failures": failures} if args.check else None,
                "seconds": round(time.perf_counter() - began, 1),
                # 1-minute load average before and after on this machine: absolute figures scale with it.
                "load_average": [round(load_before, 2), round(os.getloadavg()[0], 2), os.cpu_count()],
            },
            indent=2,
        )
    )
    for failure in failures if args.check else []:
        print(f"lsp_latency: FAIL {failure}", file=sys.stderr)
    return 1 if args.check and failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
