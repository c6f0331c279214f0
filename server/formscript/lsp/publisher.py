"""Diagnostics out of the server: pushed (debounced, coalesced) or pulled (result ids).

Push mode: a change schedules a lint after a quiet time; a lint already running is never
interrupted, and the newest text is linted as soon as it finishes; a newer version always
wins and nothing is published for a closed document. Pull mode (the client supports
``textDocument/diagnostic``): nothing is pushed; reports carry result ids so an unchanged
document or file is answered "unchanged".
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from typing import Any

from lsprotocol import types

from formscript.lsp import convert
from formscript.lsp.analysis import Analysis, path_to_uri
from formscript.lsp.documents import DocumentStore
from formscript.lsp.settings import SettingsStore

#: Quiet time before linting a change that follows another this closely
#: (``FORMSCRIPT_LSP_DEBOUNCE_MS`` overrides it); a change after a quiet time is linted at once.
DEBOUNCE_MS = 10.0


def result_id(found: Analysis) -> str:
    """The result id of an analysis: changes with the settings, the version and the text."""
    return f"{found.generation}:{found.version}:{len(found.text)}:{hash(found.text)}"


class Publisher:
    """When and what diagnostics the client gets."""

    def __init__(
        self,
        documents: DocumentStore,
        settings: SettingsStore,
        *,
        send: Callable[[types.PublishDiagnosticsParams], None],
        ask_to_pull: Callable[[], None],
        failed: Callable[[str], None],
    ) -> None:
        self._documents = documents
        self._settings = settings
        self._send = send
        self._ask_to_pull = ask_to_pull
        self._failed = failed
        #: Pull mode: the client asks for diagnostics, nothing is pushed.
        self.pull = False
        self.debounce = float(os.environ.get("FORMSCRIPT_LSP_DEBOUNCE_MS", DEBOUNCE_MS)) / 1000
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._waiting: set[str] = set()
        #: When each document was last scheduled (the event loop's clock).
        self._changed: dict[str, float] = {}
        #: Closed files' workspace reports: uri -> ((generation, mtime, size), result id, items).
        self._files: dict[str, tuple[tuple[int, int, int], str, list[Any]]] = {}
        #: Progress tokens of workspace reports the client cancelled, remembered even when the
        #: cancel arrives before the work that owns the token has registered it.
        self.cancelled_progress: set[types.ProgressToken] = set()

    # -- pushed ---------------------------------------------------------------------------

    def schedule(self, uri: str) -> None:
        """Lint *uri*: at once after a quiet time (a keystroke waits for nothing), else after
        the debounce (changes in quick succession are linted once they settle); a lint
        already running picks the change up."""
        now = asyncio.get_running_loop().time()
        last = self._changed.get(uri)
        self._changed[uri] = now
        task = self._tasks.get(uri)
        if task is not None and not task.done():
            if uri not in self._waiting:
                return
            task.cancel()
        settled = last is None or now - last >= self.debounce
        self._tasks[uri] = asyncio.ensure_future(self._lint_later(uri, 0.0 if settled else self.debounce))

    async def _lint_later(self, uri: str, delay: float) -> None:
        self._waiting.add(uri)
        try:
            await asyncio.sleep(delay)
        finally:
            self._waiting.discard(uri)
        documents = self._documents
        try:
            while documents.is_open(uri):
                text, version = documents.text_of(uri)
                found = await documents.analyse(uri, text, version)
                if not documents.is_open(uri):
                    return  # closed meanwhile: publish nothing
                if documents.text_of(uri) != (text, version):
                    continue  # a newer version arrived while linting: lint that one
                if found.generation != self._settings.generation:
                    continue
                documents.keep(found)
                self.publish(found)
                return
        except Exception:  # not a cancellation: that is no Exception
            self._failed(f"linting {uri}")

    def publish(self, found: Analysis) -> None:
        """Push the diagnostics of an analysis (never in pull mode)."""
        if self.pull:
            return
        items = convert.diagnostics(found.report.diagnostics, found.positions, found.uri)
        self._send(types.PublishDiagnosticsParams(uri=found.uri, diagnostics=items, version=found.version))

    def closed(self, uri: str) -> None:
        """The document closed: stop its lint and clear its diagnostics."""
        task = self._tasks.pop(uri, None)
        self._changed.pop(uri, None)
        if task is not None:
            task.cancel()
        if not self.pull:
            self._send(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    def forget(self) -> None:
        """The client went away: stop every pending lint and forget what was sent."""
        for task in self._tasks.values():
            task.cancel()
        self._tasks.clear()
        self._waiting.clear()
        self._changed.clear()
        self._files.clear()
        self.cancelled_progress.clear()
        self.pull = False

    def refresh(self) -> None:
        """Settings changed: lint the open documents again, or ask the client to pull."""
        if self.pull:
            self._ask_to_pull()
            return
        for uri in self._documents.open_uris():
            self.schedule(uri)

    # -- pulled ---------------------------------------------------------------------------

    def document_report(self, found: Analysis, previous: str | None) -> types.DocumentDiagnosticReport:
        """A document's report, "unchanged" when the client has *previous* already."""
        rid = result_id(found)
        if previous == rid:
            return types.RelatedUnchangedDocumentDiagnosticReport(result_id=rid)
        items = convert.diagnostics(found.report.diagnostics, found.positions, found.uri)
        return types.RelatedFullDocumentDiagnosticReport(items=items, result_id=rid)

    async def workspace_item(self, path: str, previous: dict[str, str]) -> Any:
        """A workspace report for one file: an open document's current analysis; a closed
        file's report is kept while its modification time, size and the settings stay."""
        uri = path_to_uri(path)
        documents = self._documents
        if documents.is_open(uri):
            found = await documents.current(uri)
            items = convert.diagnostics(found.report.diagnostics, found.positions, uri)
            return _workspace_report(uri, found.version, result_id(found), items, previous)
        try:
            stat = await documents.off_loop_read(os.stat, path)
        except (OSError, TimeoutError):
            return types.WorkspaceFullDocumentDiagnosticReport(uri=uri, items=[], version=None)
        key = (self._settings.generation, stat.st_mtime_ns, stat.st_size)
        cached = self._files.get(uri)
        if cached is None or cached[0] != key:
            found = await documents.from_disk(uri, path)
            items = convert.diagnostics(found.report.diagnostics, found.positions, uri)
            cached = (key, f"disk:{key[0]}:{key[1]}:{key[2]}", items)
            self._files[uri] = cached
        return _workspace_report(uri, None, cached[1], cached[2], previous)


def _workspace_report(uri: str, version: int | None, rid: str, items: list[Any], previous: dict[str, str]) -> Any:
    """One file's workspace report: "unchanged" when the client has *rid* already."""
    if previous.get(uri) == rid:
        return types.WorkspaceUnchangedDocumentDiagnosticReport(uri=uri, result_id=rid, version=version)
    return types.WorkspaceFullDocumentDiagnosticReport(uri=uri, version=version, result_id=rid, items=items)
