"""``formscript serve [--tcp HOST:PORT]``: the language server."""

from __future__ import annotations

import argparse
import os
import signal
import sys

#: Said on stderr when the server is started by hand (stdin is a terminal): an editor starts
#: it and speaks LSP on stdin and stdout, so a person sees otherwise nothing at all.
BANNER = (
    "formscript serve: the formscript language server, speaking LSP on stdin and stdout "
    "(--tcp HOST:PORT for a socket).\nEditors start it themselves; Ctrl-C stops it.\n"
)


def serve(args: argparse.Namespace) -> int:
    """Serve until the client exits, or until interrupted (Ctrl-C: exit status 130)."""
    signal.signal(signal.SIGINT, _interrupted)  # before the banner says Ctrl-C stops it
    if args.tcp is None and sys.stdin.isatty():
        sys.stderr.write(BANNER)
        sys.stderr.flush()
    from formscript.lsp.serve import run as run_server  # type: ignore[import-not-found, unused-ignore]

    return int(run_server(args.tcp))


def _interrupted(signum: int, frame: object) -> None:
    """Stop at once: the reader thread blocked on stdin would otherwise keep the process
    alive (a second Ctrl-C then aborted the interpreter while it shut its threads down)."""
    try:
        sys.stderr.write("formscript serve: interrupted, stopped\n")
        sys.stderr.flush()
    finally:
        os._exit(128 + signum)
