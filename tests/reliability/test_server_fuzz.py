"""An LSP fuzz: a real server over stdio gets a seeded stream of messages — every request and
notification the server handles with params valid, mangled or absent, positions and URIs out
of range or naming FIFOs, links to ``/dev/stdin`` and ``/dev/zero``, notifications with ids,
requests without, ids of every JSON type, frames that are not JSON or not UTF-8, bodies cut
short — and must answer every request that has an id (exactly the ones it should), answer a
hover on a probe document every few hundred messages, and never print a traceback.

CI sends ``scale(1500, 20000)`` messages; ``FORMSCRIPT_RELIABILITY=long`` sends 20,000 and
``FORMSCRIPT_RELIABILITY_CASES=N`` any number. ``FORMSCRIPT_RELIABILITY_SEED`` replays a run.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

from .server_harness import PATIENCE, RawServer, alive, frame, scale, started

pytestmark = pytest.mark.slow  # a language-server process and thousands of messages

MESSAGES = scale(1500, 20000)
SEED = int(os.environ.get("FORMSCRIPT_RELIABILITY_SEED", "20261201"))
#: A hover on the probe every this many messages.
PROBE_EVERY = 400

TEXTS = [
    "title: t\nfields:\n  a: {type: int}\nvalues:\n  a: '12'\n",
    "responses:\n  - type: text\n    content: hi\n    when: {prompt_regex: '(a+)+$'}\n",
    "responses: [{type: tool_use, name: x, input: {}}, {type: text, content: ok}]\n",
    "rules:\n  - {id: r, field: a, check: range, min: 3, max: 1}\n",
    "- hello\n- {prompt: x, system: y}\n",
    "a: &x [*x]\n",
    "{" * 500,
    "values: {a: 99999999999999999999999999999999999999}\n",
    "\ufeff\x1b]52;c;aGk=\x07title: \u202eevil\x85\u2028x: 1\n",
    "title: t\r\nfields:\r\n  b: {type: bool}\rvalues: {b: yes}\n",
    "",
    "\x00\x01\x02",
]
METHODS = [
    "textDocument/hover",
    "textDocument/completion",
    "textDocument/documentSymbol",
    "textDocument/definition",
    "textDocument/references",
    "textDocument/prepareRename",
    "textDocument/rename",
    "textDocument/foldingRange",
    "textDocument/codeAction",
    "textDocument/codeLens",
    "textDocument/inlayHint",
    "textDocument/diagnostic",
    "workspace/executeCommand",
    "workspace/diagnostic",
    "initialize",
    "formscript/unknown",
    "textDocument/formatting",
]
NOTIFICATIONS = [
    "textDocument/didOpen",
    "textDocument/didChange",
    "textDocument/didSave",
    "textDocument/didClose",
    "workspace/didChangeConfiguration",
    "workspace/didChangeWatchedFiles",
    "$/cancelRequest",
    "$/setTrace",
    "window/workDoneProgress/cancel",
    "formscript/unknownNotification",
]
COMMANDS = ["formscript.dryRun", "formscript.simulate", "formscript.ruleDoc", "nope"]


class Fuzzer:
    """Seeded messages for a workspace at *root*; ``expected`` holds the ids to be answered."""

    def __init__(self, root: Path, seed: int) -> None:
        self.rand = random.Random(seed)
        self.root = root
        self.expected: set[Any] = set()
        #: Ids far from the harness's own (1001 up).
        self.first_id = self.next_id = 10**7
        names = ["a.form.yaml", "b.script.yaml", "c.rules.yaml", "b.calls.yaml", "d.json", "e.script.yaml"]
        self.uris = [(root / name).as_uri() for name in names]
        self.uris += [
            (root / "pipe.form.yaml").as_uri(),
            (root / "stdin.calls.yaml").as_uri(),
            (root / "zero.form.yaml").as_uri(),
            "file:///dev/stdin",
            "file:///dev/zero",
            "file:///proc/self/fd/0",
            "untitled:Untitled-1",
            "file:///nonexistent/x.form.yaml",
            "not a uri",
            "file://%ff%fe/x",
        ]
        self.versions: dict[str, int] = {}

    # -- values ---------------------------------------------------------------------------

    def junk(self, depth: int = 0) -> Any:
        r = self.rand
        choice = r.randrange(12 if depth < 3 else 8)
        if choice == 0:
            return None
        if choice == 1:
            return r.choice([True, False])
        if choice == 2:
            return r.choice([0, -1, 1, 2**31, -(2**63), 10**30, 7])
        if choice == 3:
            return r.choice([0.5, -1e308, 1e308])
        if choice in (4, 5):
            return r.choice(["", "x", "\x00", "\ud800", "é" * 50, "../../etc/passwd", "\x1b[2J", self.uri()])
        if choice == 6:
            return self.position()
        if choice == 7:
            return self.uri()
        if choice in (8, 9):
            return [self.junk(depth + 1) for _ in range(r.randrange(4))]
        return {r.choice(["uri", "line", "character", "textDocument", "x"]): self.junk(depth + 1) for _ in range(3)}

    def uri(self) -> str:
        return self.rand.choice(self.uris)

    def position(self) -> dict[str, Any]:
        r = self.rand
        if r.random() < 0.8:
            return {"line": r.randrange(8), "character": r.randrange(40)}
        return {"line": r.choice([-1, 2**31 - 1, 10**9]), "character": r.choice([-5, 2**31 - 1, 0])}

    def range(self) -> dict[str, Any]:
        start, end = self.position(), self.position()
        return {"start": start, "end": end}

    # -- messages -------------------------------------------------------------------------

    def params(self, method: str) -> Any:
        r = self.rand
        if r.random() < 0.1:
            return self.junk()
        doc = {"uri": self.uri()}
        if method in ("textDocument/hover", "textDocument/completion", "textDocument/definition"):
            return {"textDocument": doc, "position": self.position()}
        if method == "textDocument/prepareRename":
            return {"textDocument": doc, "position": self.position()}
        if method == "textDocument/rename":
            return {"textDocument": doc, "position": self.position(), "newName": r.choice(["b", "", "no", "a b", "\n"])}
        if method == "textDocument/references":
            return {"textDocument": doc, "position": self.position(), "context": {"includeDeclaration": True}}
        if method == "textDocument/codeAction":
            return {"textDocument": doc, "range": self.range(), "context": {"diagnostics": []}}
        if method == "textDocument/inlayHint":
            return {"textDocument": doc, "range": self.range()}
        if method == "workspace/executeCommand":
            return {"command": r.choice(COMMANDS), "arguments": [r.choice([self.uri(), {"uri": self.uri()}, 5])]}
        if method == "workspace/diagnostic":
            return {"previousResultIds": []}
        if method == "initialize":
            return {"processId": None, "capabilities": {}}
        if method == "textDocument/didOpen":
            uri = self.uri()
            self.versions[uri] = 1
            return {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": r.choice(TEXTS)}}
        if method == "textDocument/didChange":
            uri = self.uri()
            version = self.versions.get(uri, 0) + 1
            self.versions[uri] = version
            change: dict[str, Any] = {"text": r.choice(TEXTS)}
            if r.random() < 0.7:
                change = {"range": self.range(), "text": r.choice(["x", "\n", "", "\r\n  - ", "\u2028", "é"])}
            return {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]}
        if method in ("textDocument/didSave", "textDocument/didClose"):
            return {"textDocument": doc}
        if method == "workspace/didChangeConfiguration":
            return {"settings": r.choice([{}, {"formscript": {"ignore": ["FS016"]}}, {"select": [""]}, self.junk()])}
        if method == "workspace/didChangeWatchedFiles":
            return {"changes": [{"uri": (self.root / "pyproject.toml").as_uri(), "type": 2}]}
        if method == "$/cancelRequest":
            return {"id": r.randrange(self.first_id, self.next_id + 2)}
        if method == "window/workDoneProgress/cancel":
            return {"token": self.junk()}
        return {"textDocument": doc}

    def message(self) -> bytes:
        """One message (or a run of bytes no client should send)."""
        r = self.rand
        roll = r.random()
        if roll < 0.45:
            return self.request(r.choice(METHODS))
        if roll < 0.8:
            return frame({"jsonrpc": "2.0", "method": (m := r.choice(NOTIFICATIONS)), "params": self.params(m)})
        if roll < 0.85:  # a notification with an id: answered with an error
            return self.request(r.choice(NOTIFICATIONS))
        if roll < 0.88:  # a request without an id: nobody to answer
            return frame({"jsonrpc": "2.0", "method": (m := r.choice(METHODS)), "params": self.params(m)})
        if roll < 0.91:  # an id that is no JSON-RPC id: no answer
            bad_id = r.choice([None, [1], {"a": 1}, 1.5, True])
            return frame({"jsonrpc": "2.0", "id": bad_id, "method": "textDocument/hover", "params": {}})
        return self.garbage()

    def request(self, method: str) -> bytes:
        self.next_id += 1
        msg_id: Any = self.next_id if self.rand.random() < 0.8 else f"s-{self.next_id}"
        self.expected.add(msg_id)
        return frame({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": self.params(method)})

    def garbage(self) -> bytes:
        r = self.rand
        body = json.dumps({"jsonrpc": "2.0", "method": "textDocument/hover", "params": {}}).encode()
        return r.choice(
            [
                b"Content-Length: 0\r\n\r\n",
                b"Content-Length: 99999999999999\r\n\r\n",
                b"garbage without a header\r\n",
                b"Content-Length: %d\r\n\r\n" % (len(body) - 5) + body,  # understated
                b"Content-Length: 3\r\n\r\n\xff\xfe\xfd",
                b"Content-Length: 7\r\n\r\n[1,2,3]",
                b"Content-Length: 5\r\n\r\n{]]]}",
                b"Content-Type: x\r\n\r\n",
                b"Content-Length: 1002\r\n\r\n" + b"[" * 1001 + b"\n",
                frame("a string"),
                frame({"jsonrpc": "1.0", "method": "x"}),
                frame({"id": 5}),
            ]
        )


def _workspace(root: Path) -> None:
    os.mkfifo(root / "pipe.form.yaml")
    (root / "stdin.calls.yaml").symlink_to("/dev/stdin")
    (root / "zero.form.yaml").symlink_to("/dev/zero")
    # prompts a catastrophic pattern answers at once (overrunning ones cost seconds each: tests/test_regex_guard.py)
    (root / "b.calls.yaml").write_text("- hi\n- aaaa\n", encoding="utf-8")
    (root / "a.form.yaml").write_text(TEXTS[0], encoding="utf-8")
    (root / "pyproject.toml").write_text('[tool.formscript]\ncalls = {"*.script.yaml" = "/dev/stdin"}\n')


def test_the_server_answers_through_a_fuzzed_stream(tmp_path: Path) -> None:
    _workspace(tmp_path)
    server: RawServer = started(tmp_path)
    try:
        fuzzer = Fuzzer(tmp_path, SEED)
        for number in range(MESSAGES):
            server.send_bytes(fuzzer.message())
            if number % PROBE_EVERY == PROBE_EVERY - 1:
                try:
                    alive(server)
                except AssertionError as exc:
                    raise AssertionError(
                        f"deaf after {number + 1} messages; replay with FORMSCRIPT_RELIABILITY_SEED={SEED} "
                        f"FORMSCRIPT_RELIABILITY_CASES={number + 1}"
                    ) from exc
        alive(server)

        def unanswered() -> bool:
            return all(msg_id in server.responses for msg_id in fuzzer.expected)

        server.wait(unanswered, PATIENCE * 5, "answers to every request")
        stray = [k for k in server.responses if k not in fuzzer.expected and isinstance(k, (int, str))]
        probes = {k for k in stray if isinstance(k, int) and k > 1000}  # the harness's own ids
        assert set(stray) <= probes, f"answers to what was no request: {sorted(map(str, set(stray) - probes))[:10]}"
        errors = server.stderr_tail(10**9)
        assert "Traceback" not in errors, errors[:4000]
        assert len(errors.encode()) <= 400 * MESSAGES, len(errors)
        lines = errors.splitlines()
        print(
            f"{MESSAGES} messages, {len(fuzzer.expected)} requests answered, {len(lines)} log lines "
            f"({len(errors.encode())} bytes, the longest {max(map(len, lines), default=0)} characters)"
        )
    finally:
        server.close()


@pytest.mark.parametrize("text", ["a: &x [*x]\n", "a: &x {b: *x}\n", "values: &v {n: *v}\nfields: {n: {type: str}}\n"])
def test_features_on_a_collection_that_holds_itself(tmp_path: Path, text: str) -> None:
    """Found by the fuzz: every position-based feature walked into ``a: &x [*x]`` forever."""
    server: RawServer = started(tmp_path)
    try:
        uri = (tmp_path / "self.form.yaml").as_uri()
        server.open(uri, text)
        for line, character in [(0, 0), (0, 5), (0, 8), (0, 10), (1, 3)]:
            at = {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}
            for method in ("textDocument/hover", "textDocument/prepareRename", "textDocument/definition"):
                server.request(method, at, timeout=PATIENCE)
            server.request("textDocument/completion", at, timeout=PATIENCE)
            server.request("textDocument/references", {**at, "context": {"includeDeclaration": True}})
        alive(server)
    finally:
        server.close()
