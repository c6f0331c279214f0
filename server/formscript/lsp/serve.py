"""The language server's process: logging, the garbage collector's tuning, stdio or TCP."""

from __future__ import annotations

import gc
import logging
import sys

from formscript.lsp.collector import Collector
from formscript.lsp.handlers import commands, diagnostics, features, sync
from formscript.lsp.server import FormscriptServer
from formscript.lsp.transport import CompactFormatter


def create_server() -> FormscriptServer:
    """A server with every handler registered (the handlers import the server's class, so
    they are put together here, above both)."""
    server = FormscriptServer()
    for module in (sync, diagnostics, features, commands):
        for method, handler, options in module.FEATURES:
            server.feature(method, options)(handler)
        for name, handler in module.COMMANDS:
            server.command(name)(handler)
    return server


def tune_garbage_collector() -> None:
    """Collect garbage less often than Python's default.

    Linting allocates hundreds of thousands of short-lived objects (YAML nodes, values,
    models) while the previous analysis stays alive; with the default thresholds the
    collector walks that live graph again and again, which nearly doubles the time from a
    change to its diagnostics on large files. Objects loaded at start-up are frozen out of
    the collector's walks altogether."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)


def run(tcp: str | None = None) -> int:
    """Serve over stdio, or over TCP at ``HOST:PORT`` (``formscript serve [--tcp ...]``); the
    exit code (``exit`` without ``shutdown`` is 1)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(CompactFormatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
    logging.basicConfig(level=logging.WARNING, handlers=[handler])
    server = create_server()
    tune_garbage_collector()
    server.documents.settle = Collector().settle
    if tcp:
        host, _, port = tcp.rpartition(":")
        server.start_tcp(host or "127.0.0.1", int(port))
        return 0
    server.start_io()
    return server.exit_code
