"""pygls's JSON-RPC transport, hardened so that no client input takes the server down.

* Frames resynchronise: a header with a broken, zero or absurd Content-Length, one that
  understates its body, or one without the blank line after it loses that one message,
  not every later one. (pygls
  only recognises a header on a line of its own, and a body without a trailing newline
  glues the next header to its end, so one broken frame made the server deaf for good; an
  absurd length was allocated at once and killed it.)
* A request whose params do not parse is answered with an error instead of never.
* A finished notification handler no longer leaves its future behind (pygls kept one per
  notification, about 2 KB per keystroke, for the life of the server).
* Changes to a document that was never opened are ignored (pygls raised a KeyError that
  the client showed the user as "Error in server").
* Documents break lines where LSP does (CR, LF, CRLF) and nowhere else: pygls splits at
  every ``str.splitlines`` break (NEL, LS, PS, form feed...), so an edit below such a
  character landed on the wrong line and the server's text drifted from the editor's.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import threading
from collections.abc import Callable, Generator, Sequence
from concurrent.futures import Future
from typing import Any, BinaryIO
from urllib.parse import unquote

from lsprotocol import types
from pygls import workspace
from pygls.exceptions import JsonRpcException
from pygls.io_ import StdinAsyncReader, StdoutWriter
from pygls.protocol import LanguageServerProtocol, lsp_method

log = logging.getLogger("formscript.lsp")

#: A Content-Length header, also at the end of a line that starts with the remains of a
#: broken frame; the latest one before the blank line counts.
_CONTENT_LENGTH = re.compile(rb"Content-Length: *(\d+) *\r?\n$", re.IGNORECASE)
#: The largest body read (a frame claiming more is dropped unread).
MAX_FRAME = 256 * 1024 * 1024
#: Line breaks of ``str.splitlines`` that LSP does not count.
_NOT_LSP_BREAKS = re.compile("[\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
_LSP_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


class TextDocument(workspace.TextDocument):
    """A document whose lines end at CR, LF and CRLF only, as the client counts them."""

    @property
    def lines(self) -> Sequence[str]:
        source = self.source
        if _NOT_LSP_BREAKS.search(source) is None:
            return tuple(source.splitlines(True))
        return tuple(_LSP_LINE.findall(source))


class Workspace(workspace.Workspace):
    """pygls's workspace, with ``TextDocument``."""

    def _create_text_document(
        self,
        doc_uri: str,
        source: str | None = None,
        version: int | None = None,
        language_id: str | None = None,
    ) -> TextDocument:
        return TextDocument(
            doc_uri,
            source=source,
            version=version,
            language_id=language_id,
            sync_kind=self._sync_kind,
            position_codec=self._position_codec,
        )


class Protocol(LanguageServerProtocol):
    """pygls's protocol, answering unparsable requests, forgetting finished handlers and
    keeping documents in a ``Workspace``."""

    @lsp_method(types.INITIALIZE)
    def lsp_initialize(self, params: types.InitializeParams) -> Generator[Any, Any, types.InitializeResult]:
        answer = yield from super().lsp_initialize(params)
        made = self.workspace  # empty still: no document opens before the answer
        self._workspace = Workspace(made.root_uri, made._sync_kind, list(made.folders.values()), made.position_encoding)
        return answer

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams) -> Generator[Any, Any, None]:
        uri = params.text_document.uri
        if unquote(uri) not in self.workspace.text_documents:
            log.warning("ignoring changes to %s, which is not open", uri)
            return
        yield from super().lsp_text_document__did_change(params)

    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except JsonRpcException as exc:
            msg_id = data.get("id")
            if "method" in data and isinstance(msg_id, (int, str)):
                self._send_response(msg_id, error=exc.to_response_error())
            raise

    def _execute_handler(
        self,
        msg_id: Any,
        handler: Any,
        callback: Callable[[Future[Any]], None],
        args: tuple[Any, ...] | None = None,
        kwargs: dict[str, Any] | None = None,
    ) -> None:
        def release(future: Future[Any]) -> None:
            if self._request_futures.get(msg_id) is future:
                del self._request_futures[msg_id]
            callback(future)

        super()._execute_handler(msg_id, handler, release, args, kwargs)


async def read_frames(
    stop: threading.Event,
    reader: StdinAsyncReader,
    protocol: LanguageServerProtocol,
    error_handler: Callable[[Exception, type[JsonRpcException]], Any],
) -> None:
    """Read frames until end of input and hand each message to *protocol*."""
    length: int | None = None
    while not stop.is_set():
        line = await reader.readline()
        if not line:
            break
        header = _CONTENT_LENGTH.search(line)
        if header is not None:
            claimed = int(header.group(1))
            length = claimed if 0 < claimed <= MAX_FRAME else None
            if length is None:
                log.error("dropping a frame with Content-Length %d", claimed)
            continue
        if line.strip() or length is None:
            continue  # another header, or garbage between frames
        body = await reader.readexactly(length)
        length = None
        if not body:
            break
        try:
            message = json.loads(body, object_hook=protocol.structure_message)
            protocol.handle_message(message)
        except Exception as exc:
            log.exception("Unable to handle message")
            error_handler(exc, JsonRpcException)


def serve_stdio(server: Any, stop: threading.Event, stdin: BinaryIO, stdout: BinaryIO) -> None:
    """pygls's ``_start_io_async`` with ``read_frames`` for pygls's frame reader; *stop* is
    the server's stop event (``shutdown`` sets it)."""
    reader = StdinAsyncReader(stdin, server.thread_pool)
    server.protocol.set_writer(StdoutWriter(stdout))
    try:
        asyncio.run(read_frames(stop, reader, server.protocol, server.report_server_error))
    except BrokenPipeError:
        log.error("Connection to the client is lost! Shutting down the server.")
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.shutdown()
