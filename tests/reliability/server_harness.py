"""What the reliability suite's server tests share: the raw stdio client of ``tests/lsp``, the
suite's mode (``FORMSCRIPT_RELIABILITY=long`` for the long run), and a liveness probe.

Every wait has a deadline (``PATIENCE`` seconds): a server that goes deaf fails the test
with the tail of its stderr instead of hanging it. The deadlines guard against hangs; no
test asserts how fast anything is.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lsp"))

from raw_lsp import RawServer, frame

__all__ = ["LONG", "PATIENCE", "RawServer", "alive", "frame", "scale", "started"]

#: The long mode: ``FORMSCRIPT_RELIABILITY=long``.
LONG = os.environ.get("FORMSCRIPT_RELIABILITY") == "long"
#: Seconds any one answer may take before the server counts as deaf.
PATIENCE = float(os.environ.get("FORMSCRIPT_LSP_PATIENCE", "120"))

PROBE_FORM = "title: probe\nfields:\n  name: {type: str}\nvalues:\n  name: x\n"


def scale(ci: int, long: int) -> int:
    """A case count: *ci* in CI, *long* in the long mode (``FORMSCRIPT_RELIABILITY_CASES``
    overrides both)."""
    given = os.environ.get("FORMSCRIPT_RELIABILITY_CASES")
    if given:
        return int(given)
    return long if LONG else ci


def started(root: Path, initialization_options: Any = None, capabilities: Any = None) -> RawServer:
    """A server over stdio, initialized, with the probe form open."""
    server = RawServer(root)
    server.request(
        "initialize",
        {
            "processId": None,
            "rootUri": root.as_uri(),
            "workspaceFolders": [{"uri": root.as_uri(), "name": "ws"}],
            "initializationOptions": initialization_options,
            "capabilities": capabilities
            or {
                "textDocument": {
                    "publishDiagnostics": {"versionSupport": True},
                    "hover": {"contentFormat": ["markdown"]},
                },
            },
        },
        timeout=PATIENCE,
    )
    server.notify("initialized", {})
    probe = root / "probe.form.yaml"
    probe.write_text(PROBE_FORM, encoding="utf-8")
    server.open(probe.as_uri(), PROBE_FORM)
    return server


def alive(server: RawServer) -> None:
    """The server answers a hover on the probe form with the field's documentation."""
    uri = (server.root / "probe.form.yaml").as_uri()
    answer = server.request(
        "textDocument/hover",
        {"textDocument": {"uri": uri}, "position": {"line": 4, "character": 3}},
        timeout=PATIENCE,
    )
    assert answer is not None and "name" in str(answer["contents"]), answer
