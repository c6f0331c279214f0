"""The documents the server knows: which are open, their texts and versions, their analyses.

Texts live in pygls' workspace (it applies the incremental changes); this store decides
which analysis belongs to which text. Analyses run on one lint thread, so the event loop
keeps answering meanwhile; a request arriving while the same text is being linted waits for
that lint rather than starting another; results are kept per text and settings generation.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable, Hashable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Protocol, TypeVar

from formscript.lsp.analysis import Analysis, analyse, path_to_uri, uri_to_path
from formscript.lsp.settings import SettingsStore

T = TypeVar("T")


class Absent(Exception):
    """A request about a document that is neither open nor readable: answered empty."""


class TextSource(Protocol):
    """What the store needs of a pygls text document."""

    @property
    def source(self) -> str: ...

    @property
    def version(self) -> int | None: ...


class DocumentStore:
    """Open documents, their texts, and the analysis of each text."""

    def __init__(
        self, texts: Callable[[str], TextSource], settings: SettingsStore, encoding: Callable[[], str]
    ) -> None:
        self._texts = texts
        self._settings = settings
        self._encoding = encoding
        self._open: set[str] = set()
        self._analyses: dict[str, Analysis] = {}
        self._inflight: dict[str, tuple[str, int, asyncio.Future[Analysis]]] = {}
        #: Results derived from an open document (a simulation), dropped when it closes.
        self._memos: dict[str, dict[str, tuple[Hashable, Any]]] = {}
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="formscript-lint")

    # -- open and closed ------------------------------------------------------------------

    def open(self, uri: str) -> None:
        """The editor opened *uri*."""
        self._open.add(uri)

    def close(self, uri: str) -> None:
        """The editor closed *uri*: forget its analysis and what was derived from it."""
        self._open.discard(uri)
        self._analyses.pop(uri, None)
        self._memos.pop(uri, None)

    def is_open(self, uri: str) -> bool:
        """Whether the editor has *uri* open."""
        return uri in self._open

    def open_uris(self) -> list[str]:
        """The open documents."""
        return list(self._open)

    # -- texts ----------------------------------------------------------------------------

    def text_of(self, uri: str) -> tuple[str, int | None]:
        """A document's text and version: the editor's buffer, else the file ('' if none)."""
        document = self._texts(uri)
        try:
            return document.source, document.version
        except (OSError, UnicodeDecodeError):
            return "", None

    def read(self, path: str) -> str | None:
        """A file's text: the editor's buffer when it is open, else the disk."""
        uri = path_to_uri(path)
        if uri in self._open:
            return self.text_of(uri)[0]
        try:
            return Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None

    # -- analyses -------------------------------------------------------------------------

    def analysis(self, uri: str) -> Analysis | None:
        """The analysis kept for *uri* (of some recent text; ``current`` is the one of now)."""
        return self._analyses.get(uri)

    def keep(self, found: Analysis) -> None:
        """Keep *found* as the document's analysis."""
        self._analyses[found.uri] = found

    async def current(self, uri: str) -> Analysis:
        """The analysis of the document's current text (``Absent`` when the document is
        neither open nor readable: it has no text, not an empty one)."""
        if uri in self._open:
            text, version = self.text_of(uri)
        else:
            try:
                text, version = self._texts(uri).source, None
            except (OSError, UnicodeDecodeError):
                raise Absent(uri) from None
        return await self.analyse(uri, text, version)

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
            future = asyncio.get_running_loop().run_in_executor(
                self._pool, analyse, uri, text, version, settings, self._encoding(), generation
            )
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

    def remembered(self, uri: str, name: str, key: Hashable) -> Any | None:
        """What ``remember`` kept under *name* for *uri*, if it was made from *key*."""
        memo = self._memos.get(uri, {}).get(name)
        return memo[1] if memo is not None and memo[0] == key else None

    def remember(self, uri: str, name: str, key: Hashable, value: Any) -> None:
        """Keep *value* (made from *key*) while *uri* is open."""
        if uri in self._open:
            self._memos.setdefault(uri, {})[name] = (key, value)

    # -- the lint thread --------------------------------------------------------------------

    async def off_loop(self, work: Callable[..., T], *args: Any) -> T:
        """Run *work* on the lint thread (after the lints queued before it)."""
        return await asyncio.get_running_loop().run_in_executor(self._pool, work, *args)

    def shutdown(self) -> None:
        """Stop the lint thread once the work queued on it is done."""
        self._pool.shutdown(wait=True)
