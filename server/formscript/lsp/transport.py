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
* The lifecycle is LSP 3.17's (``Protocol.admit``): a request before ``initialize`` is
  answered ServerNotInitialized (-32002) and a notification then dropped; after ``shutdown``
  a request is answered InvalidRequest and a notification dropped; ``exit`` ends the process
  with 0 after ``shutdown`` and 1 without; a notification sent with an id is answered
  InvalidRequest (the client waits for an answer) and not acted on; a second ``initialize``
  is answered InvalidRequest; ``shutdown`` while the server's own requests to the client are
  unanswered is answered null (pygls failed with "dictionary changed size during iteration").
* A message that cannot be read costs one short line on stderr, never a traceback
  (``CompactFormatter``; ``FORMSCRIPT_LSP_TRACEBACKS=1`` shows them).
* TCP (``serve_tcp``) reads frames the same way, and serves client after client: a client
  that disconnects (or sends ``exit``) ends its session, not the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import os
import re
import threading
from collections.abc import Awaitable, Callable, Generator, Sequence
from concurrent.futures import Future
from typing import Any, BinaryIO
from urllib.parse import unquote

import attrs
from lsprotocol import types
from pygls import workspace
from pygls.exceptions import (
    JsonRpcException,
    JsonRpcInvalidRequest,
    JsonRpcServerNotInitialized,
)
from pygls.io_ import StdoutWriter
from pygls.protocol import LanguageServerProtocol, lsp_method

log = logging.getLogger("formscript.lsp")

#: A Content-Length header, also at the end of a line that starts with the remains of a
#: broken frame; the latest one before the blank line counts.
_CONTENT_LENGTH = re.compile(rb"Content-Length: *(\d+) *\r?\n$", re.IGNORECASE)
#: The largest body read (a frame claiming more is dropped unread).
MAX_FRAME = 256 * 1024 * 1024
#: Line breaks of ``str.splitlines`` that LSP does not count.
_NOT_LSP_BREAKS = "\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


_LSP_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


class TextDocument(workspace.TextDocument):
    """A document whose lines end at CR, LF and CRLF only, as the client counts them."""

    @property
    def lines(self) -> Sequence[str]:
        source = self.source
        # one substring search per break: a regular expression's character class costs a
        # long text milliseconds
        if not any(char in source for char in _NOT_LSP_BREAKS):
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


#: The longest header or garbage line read at once (a longer one is read in pieces).
MAX_LINE = 1024 * 1024


def _is_notification(method: str) -> bool | None:
    """Whether LSP defines *method* as a notification (False: a request; None: unknown)."""
    found = types.METHOD_TO_TYPES.get(method)
    if found is None or found[0] is None:
        return None
    return "id" not in attrs.fields_dict(found[0])


def _valid_id(msg_id: Any) -> bool:
    return isinstance(msg_id, (int, str)) and not isinstance(msg_id, bool)


class Protocol(LanguageServerProtocol):
    """pygls's protocol, answering unparsable requests, forgetting finished handlers,
    keeping documents in a ``Workspace`` and keeping LSP's lifecycle (``admit``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: Whether ``initialize`` has been received in this session.
        self.initialize_seen = False
        #: The exit code ``exit`` asked for (None: no ``exit`` yet).
        self.exit_code: int | None = None

    def new_session(self) -> None:
        """A new client (TCP): the lifecycle starts again."""
        self.initialize_seen = False
        self._shutdown = False
        self.exit_code = None
        for future in list(self._request_futures.values()):
            future.cancel()
        self._request_futures.clear()

    def admit(self, data: Any) -> bool:
        """Whether a decoded message goes on to pygls; the lifecycle's refusals are answered
        (requests) or dropped (notifications) here, each with one line in the log."""
        if not isinstance(data, dict):
            log.warning("dropping a message that is not a JSON object (%s)", type(data).__name__)
            return False
        method = data.get("method")
        has_id = "id" in data
        msg_id = data.get("id")
        if method is None:
            return has_id  # a response to one of the server's requests
        if data.get("jsonrpc") != "2.0":
            log.warning("dropping a message that is not JSON-RPC 2.0")
            if has_id and _valid_id(msg_id):
                self._refuse(msg_id, JsonRpcInvalidRequest('"jsonrpc" must be "2.0"'))
            return False
        if not isinstance(method, str):
            log.warning("dropping a message whose method is not a string")
            if has_id and _valid_id(msg_id):
                self._refuse(msg_id, JsonRpcInvalidRequest("the method must be a string"))
            return False
        notification = _is_notification(method)
        if has_id and notification:
            log.warning("%s is a notification but came with an id: answered with an error", _short(method))
            if _valid_id(msg_id):
                self._refuse(msg_id, JsonRpcInvalidRequest(f"{method} is a notification: it takes no id"))
            return False
        if not has_id and notification is False:
            log.warning("dropping %s: a request without an id cannot be answered", _short(method))
            return False
        if has_id and not _valid_id(msg_id):
            log.warning("dropping %s: its id is neither a number nor a string", _short(method))
            return False
        if method == types.EXIT:
            return True
        if not self.initialize_seen:
            if method != types.INITIALIZE:
                if has_id:
                    self._refuse(msg_id, JsonRpcServerNotInitialized(f"{method} before initialize"))
                return False
            self.initialize_seen = True
            return True
        if self._shutdown:
            if has_id:
                self._refuse(msg_id, JsonRpcInvalidRequest(f"{method} after shutdown"))
            return False
        if method == types.INITIALIZE:
            self._refuse(msg_id, JsonRpcInvalidRequest("initialize may only be sent once"))
            return False
        return True

    def _refuse(self, msg_id: Any, error: JsonRpcException) -> None:
        self._send_response(msg_id, error=error.to_response_error())

    @lsp_method(types.EXIT)
    def lsp_exit(self, *args: Any) -> Generator[Any, Any, None]:
        """End the session: 0 after ``shutdown``, 1 without (the transport ends the process,
        or over TCP the connection)."""
        self.exit_code = 0 if self._shutdown else 1
        raise SystemExit(self.exit_code)
        yield  # a generator, as pygls's lsp methods are

    @lsp_method(types.SHUTDOWN)
    def lsp_shutdown(self, *args: Any) -> Generator[Any, Any, None]:
        """Cancel what is pending and refuse what follows. pygls cancels while iterating its
        table of pending requests, and a cancelled future whose callbacks run at once (one
        of the server's own requests the client has not answered, e.g.
        ``workspace/configuration``) removes itself from that table: the iteration failed
        with "dictionary changed size during iteration" and ``shutdown`` was answered with
        that error. Here the table is copied first."""
        current = self.msg_id
        for msg_id, future in list(self._request_futures.items()):
            if msg_id != current and not future.done():
                future.cancel()
        self._shutdown = True
        return None
        yield  # a generator, as pygls's lsp methods are

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


def _short(text: str, size: int = 120) -> str:
    text = text.replace("\r", "\\r").replace("\n", "\\n")
    return text if len(text) <= size else text[: size - 3] + "..."


class FrameReader:
    """What ``read_frames`` reads from: lines of at most ``MAX_LINE`` bytes (a longer one comes
    in pieces: garbage, dropped, losing nothing after it) and bodies, through a buffer of its
    own that *chunk* (at most the size asked, of what has arrived; b"" at the end) fills.
    A TCP connection is one as it is: ``FrameReader(stream.read)``."""

    def __init__(self, chunk: Callable[[int], Awaitable[bytes]]) -> None:
        self.buffer = bytearray()
        self._chunk = chunk

    def _take(self, size: int) -> bytes:
        taken = bytes(self.buffer[:size])
        del self.buffer[:size]
        return taken

    async def readline(self) -> bytes:
        while True:
            end = self.buffer.find(b"\n")
            if end >= 0 or len(self.buffer) >= MAX_LINE:
                return self._take(end + 1 if end >= 0 else MAX_LINE)
            chunk = await self._chunk(65536)
            if not chunk:
                return self._take(len(self.buffer))
            self.buffer += chunk

    async def readexactly(self, n: int) -> bytes:
        while len(self.buffer) < n:
            chunk = await self._chunk(min(n - len(self.buffer), 1 << 20))
            if not chunk:
                break
            self.buffer += chunk
        return self._take(n)


class StdinReader(FrameReader):
    """stdin, read on a thread of *executor*.

    Read in chunks of what has arrived (``read1``), so a message's header lines and body,
    which arrive together, cost the event loop one trip to the reader thread rather than one
    per line; the rest of a body longer than the buffer holds is read at once. A stream
    without ``read1`` is read line by line."""

    def __init__(self, stdin: BinaryIO, executor: Any) -> None:
        read1 = getattr(stdin, "read1", None)
        super().__init__(functools.partial(self._off_loop, read1 if read1 is not None else stdin.readline))
        self.stdin, self.executor = stdin, executor

    def _off_loop(self, work: Callable[[int], bytes], size: int) -> Awaitable[bytes]:
        return asyncio.get_running_loop().run_in_executor(self.executor, work, size)

    async def readexactly(self, n: int) -> bytes:
        if len(self.buffer) < n:
            self.buffer += await self._off_loop(self.stdin.read, n - len(self.buffer))
        return self._take(n)


async def read_frames(
    stop: threading.Event,
    reader: FrameReader,
    protocol: Protocol,
    error_handler: Callable[[Exception, type[JsonRpcException]], Any],
) -> int | None:
    """Read frames until end of input (None) or ``exit`` (its exit code) and hand each
    message to *protocol*."""
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
            data = json.loads(body)
        except (ValueError, RecursionError) as exc:
            log.warning("dropping a frame that is not JSON: %s", _short(f"{type(exc).__name__}: {exc}"))
            continue
        try:
            if not protocol.admit(data):
                continue
            message = protocol.structure_message(data)
            protocol.handle_message(message)
        except SystemExit:
            return protocol.exit_code if protocol.exit_code is not None else 1
        except JsonRpcException as exc:  # answered already when it had an id
            log.debug("dropped a message: %s", _short(str(exc) or type(exc).__name__))
        except Exception as exc:
            log.warning("unable to handle a message: %s", _short(f"{type(exc).__name__}: {exc}"))
            error_handler(exc, JsonRpcException)
    return None


def serve_stdio(server: Any, stop: threading.Event, stdin: BinaryIO, stdout: BinaryIO) -> int:
    """pygls's ``_start_io_async`` with ``read_frames`` for pygls's frame reader; *stop* is
    the server's stop event (``shutdown`` sets it). The exit code: ``exit``'s (0 after
    ``shutdown``, 1 without), 0 when the input ends."""
    reader = StdinReader(stdin, server.thread_pool)
    server.protocol.set_writer(StdoutWriter(stdout))
    code: int | None = None
    try:
        code = asyncio.run(read_frames(stop, reader, server.protocol, server.report_server_error))
    except BrokenPipeError:
        log.error("Connection to the client is lost! Shutting down the server.")
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.shutdown()
    return code or 0


def serve_tcp(server: Any, host: str, port: int) -> None:
    """Serve clients over TCP at *host*:*port*, one session at a time, client after client:
    a client that disconnects or sends ``exit`` ends its session (``Protocol.new_session``
    readies the server for the next)."""
    protocol: Protocol = server.protocol

    async def main() -> None:
        one_at_a_time = asyncio.Lock()

        async def session(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            async with one_at_a_time:
                protocol.new_session()
                protocol.set_writer(writer)
                try:
                    await read_frames(threading.Event(), FrameReader(reader.read), protocol, server.report_server_error)
                except (ConnectionError, OSError) as exc:
                    log.warning("a client's connection failed: %s", _short(str(exc)))
                finally:
                    server.end_session()
                    writer.close()
                    with contextlib.suppress(ConnectionError, OSError):
                        await writer.wait_closed()

        listening = await asyncio.start_server(session, host, port)
        async with listening:
            await listening.serve_forever()

    try:
        asyncio.run(main())
    except (KeyboardInterrupt, asyncio.CancelledError):
        pass
    finally:
        server.shutdown()


class CompactFormatter(logging.Formatter):
    """Log records as one line each: the first line of the message, cut at 300 characters,
    and of an exception its type, its message and where it was raised, not the traceback
    (``FORMSCRIPT_LSP_TRACEBACKS=1`` keeps tracebacks)."""

    def __init__(self, fmt: str) -> None:
        super().__init__(fmt)
        self.tracebacks = os.environ.get("FORMSCRIPT_LSP_TRACEBACKS") == "1"

    def format(self, record: logging.LogRecord) -> str:
        if self.tracebacks:
            return super().format(record)
        try:
            message = record.getMessage()
        except Exception as exc:  # a bad format string in someone's log call
            message = f"{record.msg!r} ({type(exc).__name__})"
        first = message.split("\n", 1)[0]
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            tb = error.__traceback__
            while tb is not None and tb.tb_next is not None:
                tb = tb.tb_next
            where = f" at {os.path.basename(tb.tb_frame.f_code.co_filename)}:{tb.tb_lineno}" if tb else ""
            first = f"{first}: {type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}{where}"
        first = _short(first, 300)
        line = logging.LogRecord(
            record.name, record.levelno, record.pathname, record.lineno, first, None, None, record.funcName
        )
        line.created, line.msecs = record.created, record.msecs
        return super().format(line)
