"""The formscript language server (pygls 2): the parts, wired together.

- ``documents``: the open documents, their texts and analyses (``lsp.documents``);
- ``publisher``: pushed diagnostics (debounced, coalesced) and pulled ones (``lsp.publisher``);
- ``workspace_files``: the workspace folders' files and configuration files (``lsp.workspace``);
- ``settings``: the configuration with the editor's settings on top (``lsp.settings``);
- the handlers, by feature (``lsp.handlers``), each answering empty when it fails
  (``guarded``); frames over stdio resynchronise after garbage (``lsp.transport``).

The process around it (logging, the collector's tuning, stdio or TCP) is ``lsp.serve``.
"""

from __future__ import annotations

import logging
import sys
import threading
from typing import Any, BinaryIO

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from formscript import __version__
from formscript.lsp import positions, transport
from formscript.lsp.analysis import uri_to_path
from formscript.lsp.documents import DocumentStore
from formscript.lsp.publisher import Publisher
from formscript.lsp.settings import SettingsStore
from formscript.lsp.workspace import WorkspaceFiles

log = logging.getLogger("formscript.lsp")


class FormscriptServer(LanguageServer):
    """The server: settings, documents, publisher and workspace files, and the client's
    capabilities they consult."""

    def __init__(self) -> None:
        super().__init__(
            "formscript",
            __version__,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            protocol_cls=transport.Protocol,
        )
        self.protocol: transport.Protocol
        self.settings = SettingsStore()
        self.documents = DocumentStore(
            lambda uri: self.workspace.get_text_document(uri), self.settings, lambda: self.encoding
        )
        self.publisher = Publisher(
            self.documents,
            self.settings,
            send=self.text_document_publish_diagnostics,
            ask_to_pull=self._ask_to_pull,
            failed=self.log_failure,
        )
        self.workspace_files = WorkspaceFiles(self.roots, self.settings)

    #: The exit code of the last stdio session (``exit``: 0 after ``shutdown``, 1 without).
    exit_code = 0

    def _start_io_async(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
        """Serve over stdio with frames that resynchronise (``transport``)."""
        self._stop_event = stop = threading.Event()  # pygls's own field, set as its start_io does
        self.exit_code = transport.serve_stdio(self, stop, stdin or sys.stdin.buffer, stdout or sys.stdout.buffer)

    def start_tcp(self, host: str, port: int) -> None:
        """Serve over TCP, client after client, with the stdio transport's frame reader."""
        self._stop_event = threading.Event()
        transport.serve_tcp(self, host, port)

    def end_session(self) -> None:
        """The client went away (TCP): forget its documents, settings and pending work."""
        self.publisher.forget()
        for uri in self.documents.open_uris():
            self.documents.close(uri)
        self.settings.set_editor({})

    def _ask_to_pull(self) -> None:
        if self.capability("workspace", "diagnostics", "refresh_support"):
            self.workspace_diagnostic_refresh(None)

    # -- the client -------------------------------------------------------------------------

    @property
    def encoding(self) -> str:
        """The position encoding agreed with the client."""
        chosen = self.workspace.position_encoding
        if isinstance(chosen, types.PositionEncodingKind):
            return str(chosen.value)
        return chosen or positions.UTF16.value

    def capability(self, *names: str) -> Any:
        """A client capability by attribute path, or None."""
        current: Any = self.client_capabilities
        for name in names:
            current = getattr(current, name, None)
            if current is None:
                return None
        return current

    def roots(self) -> list[str]:
        """The workspace folders (the root path of clients without folders)."""
        roots = [uri_to_path(f.uri) for f in self.workspace.folders.values()]
        if not roots and self.workspace.root_path:
            roots = [self.workspace.root_path]
        return roots

    def log_failure(self, what: str) -> None:
        """Log the exception being handled, to stderr and to the client."""
        log.exception("formscript failed while %s", what)
        kind, error, _ = sys.exc_info()
        name = kind.__name__ if kind is not None else "error"
        self.window_log_message(
            types.LogMessageParams(
                type=types.MessageType.Error, message=f"formscript failed while {what}: {name}: {error}"
            )
        )
