"""``formscript serve [--tcp HOST:PORT]``: the language server."""

from __future__ import annotations

import argparse


def serve(args: argparse.Namespace) -> int:
    """Serve until the client exits."""
    from formscript.lsp.serve import run as run_server  # type: ignore[import-not-found, unused-ignore]

    return int(run_server(args.tcp))
