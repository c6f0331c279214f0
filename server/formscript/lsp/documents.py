"""The documents the server knows: which are open, their texts and versions, their analyses.

Texts live in pygls' workspace (it applies the incremental changes); this store decides
which analysis belongs to which text. Analyses run on one lint thread, so the event loop
keeps answering meanwhile; a request arriving while the same text is being linted waits for
that lint rather than starting another; results are kept per text and settings generation.

Files the editor has not opened are read from disk by ``lint.files.read_bytes`` only
(regular files, at most ``MAX_DISK_BYTES``, never blocking on a FIFO or ``/dev/stdin``), on a
reader thread and under a time bound (``READ_SECONDS``), never on the event loop; pygls never
reads a file itself. A file that cannot be read gets a diagnostic of its own (the rule of
files that do not load).
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
from collections.abc import Callable, Hashable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar, TypeVarTuple

from pygls.workspace import TextDocument

from formscript import rules
from formscript.lint.files import Unreadable, read_text
from formscript.lint.incremental import Incremental
from formscript.lint.kinds import kind_from_name
from formscript.lint.reading import read_report_or_text, refused_report
from formscript.lsp.analysis import Analysis, analyse, path_to_uri, uri_to_path
from formscript.lsp.positions import Positions
from formscript.lsp.settings import SettingsStore

T = TypeVar("T")
Args = TypeVarTuple("Args")

#: Files the server reads from disk (not opened by the editor) are refused above this size
#: (a YM001 diagnostic): linting more in an editor takes too long to be of use.
MAX_DISK_BYTES = 8 * 1024 * 1024
#: A read from disk that takes longer than this is given up (the file counts as unreadable).
READ_SECONDS = 10.0


class Absent(Exception):
    """A request about a document that is neither open nor readable: answered empty."""


class DocumentStore:
    """Open documents, their texts, and the analysis of each text."""

    def __init__(
        self, texts: Callable[[str], TextDocument], settings: SettingsStore, encoding: Callable[[], str]
    ) -> None:
        self._texts = texts
        self._settings = settings
        self._encoding = encoding
        self._open: set[str] = set()
        self._analyses: dict[str, Analysis] = {}
        #: What each open document's earlier versions left for linting the next one.
        self._incremental: dict[str, Incremental] = {}
        self._inflight: dict[str, tuple[str, int, asyncio.Future[Analysis]]] = {}
        #: A result derived from each open document (its simulation), dropped when it closes.
        self._memos: dict[str, tuple[Hashable, Any]] = {}
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="formscript-lint")
        #: Disk reads and the file lookups of lenses, apart from the lints (a slow disk never
        #: holds a lint back, a long lint never holds a read back).
        self._readers = ThreadPoolExecutor(max_workers=2, thread_name_prefix="formscript-read")
        #: Dry runs and simulations, apart from the lints too (a regex that overruns its bound
        #: costs a simulation seconds; hovers and diagnostics do not wait for it).
        self._runs = ThreadPoolExecutor(max_workers=1, thread_name_prefix="formscript-run")
        #: Run on the lint thread after each lint (the server process's ``Collector.settle``).
        self.settle: Callable[[], None] | None = None

    # -- open and closed ------------------------------------------------------------------

    def open(self, uri: str) -> None:
        """The editor opened *uri*."""
        self._open.add(uri)

    def close(self, uri: str) -> None:
        """The editor closed *uri*: forget its analysis and what was derived from it."""
        self._open.discard(uri)
        self._analyses.pop(uri, None)
        self._incremental.pop(uri, None)
        self._memos.pop(uri, None)

    def is_open(self, uri: str) -> bool:
        """Whether the editor has *uri* open."""
        return uri in self._open

    def open_uris(self) -> list[str]:
        """The open documents."""
        return list(self._open)

    # -- texts ----------------------------------------------------------------------------

    def text_of(self, uri: str) -> tuple[str, int | None]:
        """An open document's text and version ('' for one that is not open: the disk is
        ``read``'s, off the event loop)."""
        if uri not in self._open:
            return "", None
        document = self._texts(uri)
        try:
            return document.source, document.version
        except (OSError, UnicodeDecodeError):  # pygls reads the disk when it has no text
            return "", None

    def read(self, path: str) -> str | None:
        """A file's text: the editor's buffer when it is open, else the UTF-8 text of a regular
        file of at most ``MAX_DISK_BYTES`` on disk, else None (never blocking on anything that
        is not a regular file, blocking for the time a regular file takes: call it off the
        event loop)."""
        uri = path_to_uri(path)
        if uri in self._open:
            return self.text_of(uri)[0]
        try:
            return read_text(path, MAX_DISK_BYTES)
        except Unreadable:
            return None

    async def off_loop_read(self, work: Callable[[*Args], T], *args: *Args) -> T:
        """Run *work* (which reads files) on a reader thread, under ``READ_SECONDS``
        (``TimeoutError`` past it)."""
        future = asyncio.get_running_loop().run_in_executor(self._readers, work, *args)
        return await asyncio.wait_for(future, READ_SECONDS)

    async def from_disk(self, uri: str, path: str, *, unread: bool = True) -> Analysis:
        """The analysis of the closed file at *path* as the document *uri*. Of a file that
        cannot be read (not a regular file, too big, not UTF-8, read slower than
        ``READ_SECONDS``): with *unread*, the analysis of the report of why (no text), else
        ``Absent``."""
        settings = self._settings.for_path(path)
        try:
            text, refused = await self.off_loop_read(read_report_or_text, path, None, settings, MAX_DISK_BYTES)
        except TimeoutError:
            kind = kind_from_name(path, settings) or "unknown"
            detail = f"reading took longer than {READ_SECONDS:g} s"
            text, refused = None, refused_report(path, kind, rules.YM001.cannot_read(detail=detail))
        if refused is None:
            return await self.analyse(uri, text or "", None)
        if not unread:
            raise Absent(uri)
        named = uri_to_path(uri)
        positions = Positions("", self._encoding())
        return Analysis(
            uri, named, None, "", refused, positions, self._settings.generation, self._settings.for_path(named)
        )

    # -- analyses -------------------------------------------------------------------------

    def analysis(self, uri: str) -> Analysis | None:
        """The analysis kept for *uri* (of some recent text; ``current`` is the one of now)."""
        return self._analyses.get(uri)

    def keep(self, found: Analysis) -> None:
        """Keep *found* as the document's analysis."""
        self._analyses[found.uri] = found

    async def current(self, uri: str, *, unread: bool = False) -> Analysis:
        """The analysis of the document's current text (``Absent`` when the document is
        neither open nor readable: it has no text, not an empty one). With *unread*, a file
        that exists but cannot be read (not a regular file, too big, not UTF-8) has the
        analysis of its report instead (diagnostics show why)."""
        if uri in self._open:
            text, version = self.text_of(uri)
            return await self.analyse(uri, text, version)
        if not uri.startswith("file:"):
            raise Absent(uri)
        path = uri_to_path(uri)
        if not await self.off_loop_read(os.path.lexists, path):
            raise Absent(uri)
        return await self.from_disk(uri, path, unread=unread)

    async def analyse(self, uri: str, text: str, version: int | None) -> Analysis:
        """The analysis of *text* as the document *uri* (from the cache, or linted on the
        lint thread)."""
        cached = self._cached(uri, text, version)
        if cached is not None:
            return cached
        generation = self._settings.generation
        pending = self._inflight.get(uri)
        if pending is not None and pending[1] == generation and pending[0] == text:
            future = pending[2]
        else:
            settings = self._settings.for_path(uri_to_path(uri))
            incremental = previous = basis = None
            if uri in self._open:  # a closed file's text is linted once: nothing to keep
                incremental = self._incremental.setdefault(uri, Incremental())
                kept = self._analyses.get(uri)
                if kept is not None:  # its lines and their shapes, for what the edit left alone
                    previous, basis = kept.positions, kept.handed_on()
            future = asyncio.get_running_loop().run_in_executor(
                self._pool,
                analyse,
                uri,
                text,
                version,
                settings,
                self._encoding(),
                generation,
                incremental,
                previous,
                basis,
            )
            if incremental is not None:
                # after the lint (one thread): split the first version for the edits to come
                self._pool.submit(incremental.warm)
            if self.settle is not None:
                self._pool.submit(self.settle)
            self._inflight[uri] = (text, generation, future)
            future.add_done_callback(lambda done: self._landed(uri, done))
        # shielded: one cancelled request must not cancel the lint others wait for
        found = await asyncio.shield(future)
        if found.version != version:
            found = dataclasses.replace(found, version=version)
        return found

    def _cached(self, uri: str, text: str, version: int | None) -> Analysis | None:
        """The cached analysis of this very text (an edit back to the same text counts),
        carrying *version*."""
        cached = self._analyses.get(uri)
        if cached is None or cached.text != text or cached.generation != self._settings.generation:
            return None
        if cached.version != version:
            cached = dataclasses.replace(cached, version=version)
            self._analyses[uri] = cached
        return cached

    def _landed(self, uri: str, future: asyncio.Future[Analysis]) -> None:
        """A lint finished: keep its result while it is still the document's text."""
        pending = self._inflight.get(uri)
        if pending is not None and pending[2] is future:
            del self._inflight[uri]
        if future.cancelled() or future.exception() is not None:
            return
        found = future.result()
        if uri in self._open and found.generation == self._settings.generation and self.text_of(uri)[0] == found.text:
            self._analyses[uri] = found

    # -- derived results --------------------------------------------------------------------

    def remembered(self, uri: str, key: Hashable) -> Any | None:
        """What ``remember`` kept for *uri*, if it was made from *key*."""
        memo = self._memos.get(uri)
        return memo[1] if memo is not None and memo[0] == key else None

    def remember(self, uri: str, key: Hashable, value: Any) -> None:
        """Keep *value* (made from *key*) while *uri* is open."""
        if uri in self._open:
            self._memos[uri] = (key, value)

    # -- the lint thread --------------------------------------------------------------------

    async def off_loop(self, work: Callable[[*Args], T], *args: *Args) -> T:
        """Run *work* on the lint thread (after the lints queued before it)."""
        return await asyncio.get_running_loop().run_in_executor(self._pool, work, *args)

    async def off_loop_run(self, work: Callable[[*Args], T], *args: *Args) -> T:
        """Run *work* (a dry run, a simulation) on the runs thread, apart from the lints."""
        return await asyncio.get_running_loop().run_in_executor(self._runs, work, *args)

    def shutdown(self) -> None:
        """Stop the lint thread once the work queued on it is done."""
        self._pool.shutdown(wait=True)
