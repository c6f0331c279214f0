"""The formscript language server (pygls 2): handlers only.

Each handler gets the document, asks a feature module, converts the answer with
``convert`` and returns it. Diagnostics are linted off the event loop, debounced per
document; a newer version always wins and nothing is published for a closed document.
A failing handler is logged and answers with an empty result; the server keeps serving.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import gc
import logging
import os
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, BinaryIO, TypeVar
from uuid import uuid4

from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams
from pygls.lsp.server import LanguageServer

from formscript import __version__
from formscript.document.located import Span
from formscript.lint import discovery
from formscript.lsp import actions, completion, convert, hover, lenses, navigation, transport
from formscript.lsp.analysis import Analysis, analyse, path_to_uri, uri_to_path
from formscript.lsp.settings import CONFIG_FILES, SettingsStore

log = logging.getLogger("formscript.lsp")

#: Quiet time after a change before linting; a lint already running is never interrupted,
#: and the newest text is linted as soon as it finishes.
DEBOUNCE_MS = 10.0
_MAX_WORKSPACE_FILES = 5000

T = TypeVar("T")


class Absent(Exception):
    """A request about a document that is neither open nor readable: answered empty."""


class FormscriptServer(LanguageServer):
    """The server's state: settings, the open documents' analyses and their lint tasks."""

    def __init__(self) -> None:
        super().__init__(
            "formscript",
            __version__,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            protocol_cls=transport.Protocol,
        )
        self.settings = SettingsStore()
        self.analyses: dict[str, Analysis] = {}
        self.open_uris: set[str] = set()
        self.pull_diagnostics = False
        self.debounce = float(os.environ.get("FORMSCRIPT_LSP_DEBOUNCE_MS", DEBOUNCE_MS)) / 1000
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._waiting: set[str] = set()
        self._lint_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="formscript-lint")
        self._simulations: dict[str, tuple[tuple[str, str | None], dict[str, Any]]] = {}
        self._workspace_results: dict[str, tuple[tuple[int, int, int], str, list[Any]]] = {}
        self._files: tuple[float, int, list[str]] | None = None
        self._inflight: dict[str, tuple[str, int, asyncio.Future[Analysis]]] = {}
        #: Progress tokens the client cancelled, remembered even when the cancel arrives
        #: before the work that owns the token has registered it.
        self.cancelled_progress: set[types.ProgressToken] = set()

    def _start_io_async(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
        """Serve over stdio with frames that resynchronise (``transport``)."""
        transport.serve_stdio(self, stdin or sys.stdin.buffer, stdout or sys.stdout.buffer)

    # -- capabilities ---------------------------------------------------------------------

    @property
    def encoding(self) -> str:
        """The position encoding agreed with the client."""
        chosen = self.workspace.position_encoding
        if isinstance(chosen, types.PositionEncodingKind):
            return str(chosen.value)
        return chosen or convert.UTF16.value

    def capability(self, *names: str) -> Any:
        """A client capability by attribute path, or None."""
        current: Any = self.client_capabilities
        for name in names:
            current = getattr(current, name, None)
            if current is None:
                return None
        return current

    # -- documents -------------------------------------------------------------------------

    def read(self, path: str) -> str | None:
        """A file's text: the editor's buffer when it is open, else the disk."""
        uri = path_to_uri(path)
        if uri in self.open_uris:
            return self.text_of(uri)[0]
        try:
            return Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None

    def text_of(self, uri: str) -> tuple[str, int | None]:
        """A document's text and version: the editor's buffer, else the file ('' if none)."""
        document = self.workspace.get_text_document(uri)
        try:
            return document.source, document.version
        except (OSError, UnicodeDecodeError):
            return "", None

    def _cached(self, uri: str, text: str, version: int | None) -> Analysis | None:
        """The cached analysis of this very text (an edit back to the same text counts),
        carrying *version*."""
        cached = self.analyses.get(uri)
        if cached is None or cached.text != text or cached.generation != self.settings.generation:
            return None
        if cached.version != version:
            cached = dataclasses.replace(cached, version=version)
            self.analyses[uri] = cached
        return cached

    async def current(self, uri: str) -> Analysis:
        """The analysis of the document's current text (``Absent`` when the document is
        neither open nor readable: it has no text, not an empty one)."""
        if uri in self.open_uris:
            text, version = self.text_of(uri)
        else:
            try:
                text, version = self.workspace.get_text_document(uri).source, None
            except (OSError, UnicodeDecodeError):
                raise Absent(uri) from None
        return await self.analysis_off_loop(uri, text, version)

    async def analysis_off_loop(self, uri: str, text: str, version: int | None) -> Analysis:
        """Analyse *text* on the lint thread (the event loop keeps answering meanwhile).

        A request arriving while the same text is being linted waits for that lint rather
        than starting another; results are cached per text and settings."""
        cached = self._cached(uri, text, version)
        if cached is not None:
            return cached
        generation = self.settings.generation
        pending = self._inflight.get(uri)
        if pending is not None and pending[1] == generation and pending[0] == text:
            future = pending[2]
        else:
            settings = self.settings.for_path(uri_to_path(uri))
            future = asyncio.get_running_loop().run_in_executor(
                self._lint_pool, analyse, uri, text, version, settings, self.encoding, generation
            )
            self._inflight[uri] = (text, generation, future)
            future.add_done_callback(lambda done: self._landed(uri, done))
        # shielded: one cancelled request must not cancel the lint others wait for
        found = await asyncio.shield(future)
        if found.version != version:
            found = dataclasses.replace(found, version=version)
        return found

    def _landed(self, uri: str, future: asyncio.Future[Analysis]) -> None:
        """A lint finished: keep its result while it is still the document's text."""
        pending = self._inflight.get(uri)
        if pending is not None and pending[2] is future:
            del self._inflight[uri]
        if future.cancelled() or future.exception() is not None:
            return
        found = future.result()
        if (
            uri in self.open_uris
            and found.generation == self.settings.generation
            and self.text_of(uri)[0] == found.text
        ):
            self.analyses[uri] = found

    # -- pushed diagnostics ----------------------------------------------------------------

    def schedule(self, uri: str) -> None:
        """Lint *uri* after the debounce; a lint already running picks the change up."""
        task = self._tasks.get(uri)
        if task is not None and not task.done():
            if uri not in self._waiting:
                return
            task.cancel()
        self._tasks[uri] = asyncio.ensure_future(self._lint_later(uri))

    async def _lint_later(self, uri: str) -> None:
        self._waiting.add(uri)
        try:
            await asyncio.sleep(self.debounce)
        finally:
            self._waiting.discard(uri)
        try:
            while uri in self.open_uris:
                text, version = self.text_of(uri)
                found = await self.analysis_off_loop(uri, text, version)
                if uri not in self.open_uris:
                    return  # closed meanwhile: publish nothing
                if self.text_of(uri) != (text, version):
                    continue  # a newer version arrived while linting: lint that one
                if found.generation != self.settings.generation:
                    continue
                self.analyses[uri] = found
                self.publish(found)
                return
        except asyncio.CancelledError:
            raise
        except Exception:
            self.log_failure(f"linting {uri}")

    def publish(self, found: Analysis) -> None:
        """Push the diagnostics of an analysis (never in pull mode)."""
        if self.pull_diagnostics:
            return
        items = convert.diagnostics(found.report.diagnostics, found.positions, found.uri)
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=found.uri, diagnostics=items, version=found.version)
        )

    def forget(self, uri: str) -> None:
        """The document closed: stop its lint, drop its state, clear its diagnostics."""
        self.open_uris.discard(uri)
        task = self._tasks.pop(uri, None)
        if task is not None:
            task.cancel()
        self.analyses.pop(uri, None)
        self._simulations.pop(uri, None)
        if not self.pull_diagnostics:
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    def refresh(self) -> None:
        """Settings changed: lint the open documents again, or ask the client to pull."""
        if self.pull_diagnostics:
            if self.capability("workspace", "diagnostics", "refresh_support"):
                self.workspace_diagnostic_refresh(None)
            return
        for uri in list(self.open_uris):
            self.schedule(uri)

    # -- settings ---------------------------------------------------------------------------

    def take_settings(self, raw: Any) -> bool:
        """Apply the editor's settings; whether anything changed."""
        before = self.settings.generation
        error = self.settings.set_editor(raw)
        if error is not None:
            self.window_show_message(
                types.ShowMessageParams(type=types.MessageType.Warning, message=f"formscript: {error}")
            )
            return False
        return self.settings.generation != before

    async def pull_settings(self) -> None:
        """Ask the client for the "formscript" section and apply it."""
        if not self.capability("workspace", "configuration"):
            return
        answer = await self.workspace_configuration_async(
            types.ConfigurationParams(items=[types.ConfigurationItem(section="formscript")])
        )
        # None: the client has no such section; keep the initializationOptions then
        if answer and answer[0] is not None and self.take_settings(answer[0]):
            self.refresh()

    # -- failures ----------------------------------------------------------------------------

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

    # -- workspace files ----------------------------------------------------------------------

    def workspace_files_cached(self) -> list[str]:
        """The workspace's files, listed again at most every few seconds (clients pulling
        workspace diagnostics ask continually)."""
        now = time.monotonic()
        cached = self._files
        if cached is not None and cached[1] == self.settings.generation and now - cached[0] < 10:
            return cached[2]
        files = list(self.workspace_files())
        self._files = (now, self.settings.generation, files)
        return files

    def workspace_files(self) -> Iterator[str]:
        """Every file of a known kind under the workspace folders (``discovery.named``), each
        document once (a link to a listed file has the same URI)."""
        roots = [uri_to_path(f.uri) for f in self.workspace.folders.values()]
        if not roots and self.workspace.root_path:
            roots = [self.workspace.root_path]
        seen: set[str] = set()
        for root in roots:
            for path in discovery.named(root, self.settings.for_path):
                uri = path_to_uri(path)
                if uri in seen:
                    continue
                seen.add(uri)
                if len(seen) > _MAX_WORKSPACE_FILES:
                    return
                yield path


def _empty_list() -> list[Any]:
    return []


def _none() -> None:
    return None


def guarded(
    empty: Callable[[], Any] = _none,
) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """Answer with ``empty()`` (and log) when the handler fails; protocol errors pass."""

    def decorate(handler: Callable[..., T]) -> Callable[..., T]:
        if asyncio.iscoroutinefunction(handler):

            @functools.wraps(handler)
            async def run_async(ls: FormscriptServer, *args: Any) -> Any:
                try:
                    return await handler(ls, *args)
                except (asyncio.CancelledError, JsonRpcException):
                    raise
                except Absent:
                    return empty()
                except Exception:
                    ls.log_failure(handler.__name__)
                    return empty()

            return run_async  # type: ignore[return-value]

        @functools.wraps(handler)
        def run(ls: FormscriptServer, *args: Any) -> Any:
            try:
                return handler(ls, *args)
            except JsonRpcException:
                raise
            except Exception:
                ls.log_failure(handler.__name__)
                return empty()

        return run

    return decorate


# ================================================================================ handlers


@guarded()
def initialize(ls: FormscriptServer, params: types.InitializeParams) -> None:
    """Settings from initializationOptions; pull or push diagnostics."""
    ls.take_settings(params.initialization_options)
    ls.pull_diagnostics = ls.capability("text_document", "diagnostic") is not None


@guarded()
async def initialized(ls: FormscriptServer, params: types.InitializedParams) -> None:
    """Fetch the editor's settings and watch configuration files."""
    registrations = []
    if ls.capability("workspace", "did_change_configuration", "dynamic_registration"):
        registrations.append(
            types.Registration(
                id=str(uuid4()),
                method=types.WORKSPACE_DID_CHANGE_CONFIGURATION,
                register_options=types.DidChangeConfigurationRegistrationOptions(section="formscript"),
            )
        )
    if ls.capability("workspace", "did_change_watched_files", "dynamic_registration"):
        registrations.append(
            types.Registration(
                id=str(uuid4()),
                method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                register_options=types.DidChangeWatchedFilesRegistrationOptions(
                    watchers=[types.FileSystemWatcher(glob_pattern=f"**/{name}") for name in CONFIG_FILES]
                ),
            )
        )
    if registrations:
        ls.client_register_capability(types.RegistrationParams(registrations=registrations))
    await ls.pull_settings()


@guarded()
def did_open(ls: FormscriptServer, params: types.DidOpenTextDocumentParams) -> None:
    """Lint the opened document."""
    ls.open_uris.add(params.text_document.uri)
    ls.schedule(params.text_document.uri)


@guarded()
def did_change(ls: FormscriptServer, params: types.DidChangeTextDocumentParams) -> None:
    """Lint the changed document (debounced); a changed calls transcript refreshes hints."""
    uri = params.text_document.uri
    ls.schedule(uri)
    if ".calls." in uri and ls.capability("workspace", "inlay_hint", "refresh_support"):
        ls.workspace_inlay_hint_refresh(None)


@guarded()
def did_save(ls: FormscriptServer, params: types.DidSaveTextDocumentParams) -> None:
    """Lint on save; a saved configuration file re-reads the settings."""
    uri = params.text_document.uri
    if Path(uri_to_path(uri)).name in CONFIG_FILES:
        ls.settings.invalidate_files()
        ls.refresh()
    elif uri in ls.open_uris:
        ls.schedule(uri)


@guarded()
def did_close(ls: FormscriptServer, params: types.DidCloseTextDocumentParams) -> None:
    """Forget the document and clear its diagnostics."""
    ls.forget(params.text_document.uri)


@guarded()
async def did_change_configuration(ls: FormscriptServer, params: types.DidChangeConfigurationParams) -> None:
    """New settings: pushed with the notification, or pulled from the client."""
    settings = params.settings
    if isinstance(settings, dict) and settings:
        if ls.take_settings(settings):
            ls.refresh()
        return
    await ls.pull_settings()


@guarded()
def did_change_watched_files(ls: FormscriptServer, params: types.DidChangeWatchedFilesParams) -> None:
    """A configuration file changed on disk."""
    if any(Path(uri_to_path(c.uri)).name in CONFIG_FILES for c in params.changes):
        ls.settings.invalidate_files()
        ls.refresh()


# -- pulled diagnostics ------------------------------------------------------------------


def _result_id(found: Analysis) -> str:
    return f"{found.generation}:{found.version}:{len(found.text)}:{hash(found.text)}"


@guarded(lambda: types.RelatedFullDocumentDiagnosticReport(items=[]))
async def document_diagnostic(
    ls: FormscriptServer, params: types.DocumentDiagnosticParams
) -> types.DocumentDiagnosticReport:
    """The document's diagnostics, or "unchanged" when the client has them already."""
    uri = params.text_document.uri
    found = await ls.current(uri)
    result_id = _result_id(found)
    if params.previous_result_id == result_id:
        return types.RelatedUnchangedDocumentDiagnosticReport(result_id=result_id)
    items = convert.diagnostics(found.report.diagnostics, found.positions, uri)
    return types.RelatedFullDocumentDiagnosticReport(items=items, result_id=result_id)


@guarded(lambda: types.WorkspaceDiagnosticReport(items=[]))
async def workspace_diagnostic(
    ls: FormscriptServer, params: types.WorkspaceDiagnosticParams
) -> types.WorkspaceDiagnosticReport:
    """Diagnostics of every matching file in the workspace, with progress; cancellable."""
    previous = {p.uri: p.value for p in params.previous_result_ids}
    token = params.work_done_token
    if token is None and ls.capability("window", "work_done_progress"):
        token = str(uuid4())
        # shielded: a cancelled request must not cancel the client's pending answer
        await asyncio.shield(ls.work_done_progress.create_async(token))
    files = await asyncio.get_running_loop().run_in_executor(None, ls.workspace_files_cached)
    if token is not None:
        ls.work_done_progress.begin(
            token,
            types.WorkDoneProgressBegin(
                title="formscript", message=f"checking {len(files)} files", percentage=0, cancellable=True
            ),
        )
    items: list[Any] = []
    try:
        for number, path in enumerate(files):
            if token is not None and _progress_cancelled(ls, token):
                break
            await asyncio.sleep(0)  # let a $/cancelRequest in
            items.append(await _workspace_item(ls, path, previous))
            if token is not None and (number % 20 == 19 or number == len(files) - 1):
                ls.work_done_progress.report(
                    token,
                    types.WorkDoneProgressReport(
                        message=f"{number + 1}/{len(files)} files",
                        percentage=int(100 * (number + 1) / max(len(files), 1)),
                    ),
                )
    finally:
        if token is not None:
            ls.work_done_progress.end(token, types.WorkDoneProgressEnd(message="done"))
            ls.cancelled_progress.discard(token)
    return types.WorkspaceDiagnosticReport(items=items)


def _progress_cancelled(ls: FormscriptServer, token: types.ProgressToken) -> bool:
    if token in ls.cancelled_progress:
        return True
    future = ls.work_done_progress.tokens.get(token)
    return future is not None and future.cancelled()


def progress_cancel(ls: FormscriptServer, params: types.WorkDoneProgressCancelParams) -> None:
    """Remember a cancelled progress token (pygls itself only cancels tokens it knows)."""
    ls.cancelled_progress.add(params.token)


async def _workspace_item(ls: FormscriptServer, path: str, previous: dict[str, str]) -> Any:
    uri = path_to_uri(path)
    if uri in ls.open_uris:
        found = await ls.current(uri)
        version = found.version
        result_id = _result_id(found)
        if previous.get(uri) == result_id:
            return types.WorkspaceUnchangedDocumentDiagnosticReport(uri=uri, result_id=result_id, version=version)
        return types.WorkspaceFullDocumentDiagnosticReport(
            uri=uri,
            version=version,
            result_id=result_id,
            items=convert.diagnostics(found.report.diagnostics, found.positions, uri),
        )
    try:
        stat = os.stat(path)
    except OSError:
        return types.WorkspaceFullDocumentDiagnosticReport(uri=uri, items=[], version=None)
    key = (ls.settings.generation, stat.st_mtime_ns, stat.st_size)
    cached = ls._workspace_results.get(uri)
    if cached is None or cached[0] != key:
        text = ls.read(path) or ""
        found = await ls.analysis_off_loop(uri, text, None)
        items = convert.diagnostics(found.report.diagnostics, found.positions, uri)
        cached = (key, f"disk:{key[0]}:{key[1]}:{key[2]}", items)
        ls._workspace_results[uri] = cached
    if previous.get(uri) == cached[1]:
        return types.WorkspaceUnchangedDocumentDiagnosticReport(uri=uri, result_id=cached[1], version=None)
    return types.WorkspaceFullDocumentDiagnosticReport(uri=uri, version=None, result_id=cached[1], items=cached[2])


# -- reading features -------------------------------------------------------------------


@guarded()
async def on_hover(ls: FormscriptServer, params: types.HoverParams) -> types.Hover | None:
    """Key documentation, or what the runtime sees for a value."""
    found = await ls.current(params.text_document.uri)
    text = hover.hover(found, found.positions.pos(params.position))
    formats = ls.capability("text_document", "hover", "content_format") or ()
    md = types.MarkupKind.Markdown in formats
    return convert.hover(text, found.positions, md) if text is not None else None


@guarded(lambda: types.CompletionList(is_incomplete=False, items=[]))
async def on_completion(ls: FormscriptServer, params: types.CompletionParams) -> types.CompletionList:
    """Keys, values, field names and entry snippets valid at the cursor."""
    found = await ls.current(params.text_document.uri)
    snippets = bool(ls.capability("text_document", "completion", "completion_item", "snippet_support"))
    formats = ls.capability("text_document", "completion", "completion_item", "documentation_format") or ()
    md = types.MarkupKind.Markdown in formats
    suggestions = completion.complete(found, found.positions.pos(params.position), snippets=snippets)
    items = [convert.completion_item(s, found.positions, md) for s in suggestions]
    return types.CompletionList(is_incomplete=False, items=items)


@guarded(_empty_list)
async def on_document_symbol(
    ls: FormscriptServer, params: types.DocumentSymbolParams
) -> list[types.DocumentSymbol] | list[types.SymbolInformation]:
    """Fields and values; responses as ``#index type``; rules; calls."""
    uri = params.text_document.uri
    found = await ls.current(uri)
    outline = navigation.symbols(found)
    if ls.capability("text_document", "document_symbol", "hierarchical_document_symbol_support"):
        return [convert.document_symbol(s, found.positions) for s in outline]
    flat: list[types.SymbolInformation] = []
    for symbol in outline:
        flat.extend(convert.symbol_information(symbol, found.positions, uri))
    return flat


@guarded()
async def on_definition(ls: FormscriptServer, params: types.DefinitionParams) -> types.Location | None:
    """From a value's key to its field declaration."""
    uri = params.text_document.uri
    found = await ls.current(uri)
    span = navigation.definition(found, found.positions.pos(params.position))
    return convert.location(uri, span, found.positions) if span is not None else None


@guarded(_empty_list)
async def on_references(ls: FormscriptServer, params: types.ReferenceParams) -> list[types.Location]:
    """A field's declaration and its value."""
    uri = params.text_document.uri
    found = await ls.current(uri)
    spans = navigation.references(
        found, found.positions.pos(params.position), declaration=params.context.include_declaration
    )
    return [convert.location(uri, span, found.positions) for span in spans]


@guarded()
async def on_prepare_rename(
    ls: FormscriptServer, params: types.PrepareRenameParams
) -> types.PrepareRenamePlaceholder | None:
    """Only field names (declaration or value key) can be renamed."""
    found = await ls.current(params.text_document.uri)
    hit = navigation.rename_range(found, found.positions.pos(params.position))
    if hit is None:
        return None
    return types.PrepareRenamePlaceholder(range=found.positions.range(hit[0]), placeholder=hit[1])


@guarded()
async def on_rename(ls: FormscriptServer, params: types.RenameParams) -> types.WorkspaceEdit | None:
    """Rename a field in its declaration and its value together."""
    uri = params.text_document.uri
    found = await ls.current(uri)
    try:
        edits = navigation.rename(found, found.positions.pos(params.position), params.new_name)
    except navigation.RenameError as exc:
        raise JsonRpcInvalidParams(str(exc)) from exc
    if not edits:
        return None
    lsp_edits = [types.TextEdit(range=found.positions.range(e.span), new_text=e.new_text) for e in edits]
    versioned = bool(ls.capability("workspace", "workspace_edit", "document_changes"))
    return convert.workspace_edit(uri, lsp_edits, found.version, versioned)


@guarded(_empty_list)
async def on_folding_range(ls: FormscriptServer, params: types.FoldingRangeParams) -> list[types.FoldingRange]:
    """One fold per multi-line mapping or sequence: entries, declarations, sections."""
    found = await ls.current(params.text_document.uri)
    return [
        types.FoldingRange(start_line=start, end_line=end, kind=types.FoldingRangeKind.Region)
        for start, end in navigation.folding(found)
    ]


# -- code actions ---------------------------------------------------------------------------


def _wanted(kind: str, only: list[str] | None) -> bool:
    return not only or any(kind == k or kind.startswith(k + ".") for k in only)


@guarded(_empty_list)
async def on_code_action(ls: FormscriptServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    """Quick fixes and suppressions at the range; all safe fixes as source.fixAll."""
    uri = params.text_document.uri
    found = await ls.current(uri)
    positions = found.positions
    span = Span(positions.pos(params.range.start), positions.pos(params.range.end))
    only = [str(k.value if hasattr(k, "value") else k) for k in (params.context.only or [])]
    chosen: list[actions.Action] = []
    if _wanted(actions.QUICK_FIX, only):
        chosen += actions.quick_fixes(found, span) + actions.suppressions(found, span)
    if _wanted(actions.FIX_ALL, only):
        everything = actions.fix_all(found)
        if everything is not None:
            chosen.append(everything)
    versioned = bool(ls.capability("workspace", "workspace_edit", "document_changes"))
    return [convert.code_action(a, positions, uri, found.version, versioned) for a in chosen]


# -- lenses, hints, commands ---------------------------------------------------------------


@guarded(_empty_list)
async def on_code_lens(ls: FormscriptServer, params: types.CodeLensParams) -> list[types.CodeLens]:
    """ "Dry run" above a form, "Simulate" above a script."""
    found = await ls.current(params.text_document.uri)
    return [convert.code_lens(lens, found.positions) for lens in lenses.lenses(found, ls.read)]


async def _simulation(ls: FormscriptServer, found: Analysis) -> dict[str, Any]:
    calls = lenses.sibling(found.path, "calls", ls.read)
    key = (found.text, calls[1] if calls else None)
    cached = ls._simulations.get(found.uri)
    if cached is not None and cached[0] == key:
        return cached[1]
    loop = asyncio.get_running_loop()
    result = await loop.run_in_executor(ls._lint_pool, lenses.simulation, found, ls.read)
    if found.uri in ls.open_uris:
        ls._simulations[found.uri] = (key, result)
    return result


@guarded(_empty_list)
async def on_inlay_hint(ls: FormscriptServer, params: types.InlayHintParams) -> list[types.InlayHint]:
    """Coerced values beside form values; "served at call N" beside script entries."""
    found = await ls.current(params.text_document.uri)
    if found.kind == "form":
        hints = lenses.form_hints(found)
    elif found.kind == "script" and lenses.sibling(found.path, "calls", ls.read) is not None:
        hints = lenses.script_hints(await _simulation(ls, found), found)
    else:
        hints = []
    wanted = params.range
    converted = [convert.inlay_hint(h, found.positions) for h in hints]
    return [h for h in converted if wanted.start.line <= h.position.line <= wanted.end.line]


def _uri_argument(args: tuple[Any, ...]) -> str:
    if not args:
        raise JsonRpcInvalidParams("expected the document's URI as the argument")
    first = args[0]
    if isinstance(first, dict):
        first = first.get("uri") or first.get("textDocument", {}).get("uri")
    if not isinstance(first, str):
        raise JsonRpcInvalidParams("expected the document's URI as the argument")
    return first


@guarded(lambda: "")
async def cmd_dry_run(ls: FormscriptServer, *args: Any) -> str:
    """``formscript.dryRun [uri]``: the dry run of a form, as text."""
    found = await ls.current(_uri_argument(args))
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(ls._lint_pool, lenses.dry_run, found, ls.read)


@guarded(lambda: "")
async def cmd_simulate(ls: FormscriptServer, *args: Any) -> str:
    """``formscript.simulate [uri]``: the simulation of a script, as text."""
    found = await ls.current(_uri_argument(args))
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(ls._lint_pool, lenses.simulate, found, ls.read)


@guarded(lambda: "")
def cmd_rule_doc(ls: FormscriptServer, *args: Any) -> str:
    """``formscript.ruleDoc [code]``: a rule's documentation as Markdown."""
    if not args or not isinstance(args[0], str):
        raise JsonRpcInvalidParams("expected a rule code as the argument")
    return lenses.rule_doc(args[0])


# ==================================================================================== wiring

_Handler = Callable[..., Any] | Callable[..., Awaitable[Any]]


def create_server() -> FormscriptServer:
    """A server with every handler registered."""
    server = FormscriptServer()
    features: list[tuple[str, _Handler, Any]] = [
        (types.INITIALIZE, initialize, None),
        (types.INITIALIZED, initialized, None),
        (types.TEXT_DOCUMENT_DID_OPEN, did_open, None),
        (types.TEXT_DOCUMENT_DID_CHANGE, did_change, None),
        (types.TEXT_DOCUMENT_DID_SAVE, did_save, None),
        (types.TEXT_DOCUMENT_DID_CLOSE, did_close, None),
        (types.WORKSPACE_DID_CHANGE_CONFIGURATION, did_change_configuration, None),
        (types.WORKSPACE_DID_CHANGE_WATCHED_FILES, did_change_watched_files, None),
        (
            types.TEXT_DOCUMENT_DIAGNOSTIC,
            document_diagnostic,
            types.DiagnosticOptions(
                identifier="formscript",
                inter_file_dependencies=False,
                workspace_diagnostics=True,
                work_done_progress=True,
            ),
        ),
        (types.WORKSPACE_DIAGNOSTIC, workspace_diagnostic, None),
        (types.WINDOW_WORK_DONE_PROGRESS_CANCEL, progress_cancel, None),
        (types.TEXT_DOCUMENT_HOVER, on_hover, None),
        (types.TEXT_DOCUMENT_COMPLETION, on_completion, types.CompletionOptions(trigger_characters=[":", " ", "-"])),
        (types.TEXT_DOCUMENT_DOCUMENT_SYMBOL, on_document_symbol, None),
        (types.TEXT_DOCUMENT_DEFINITION, on_definition, None),
        (types.TEXT_DOCUMENT_REFERENCES, on_references, None),
        (types.TEXT_DOCUMENT_PREPARE_RENAME, on_prepare_rename, None),
        (types.TEXT_DOCUMENT_RENAME, on_rename, types.RenameOptions(prepare_provider=True)),
        (types.TEXT_DOCUMENT_FOLDING_RANGE, on_folding_range, None),
        (
            types.TEXT_DOCUMENT_CODE_ACTION,
            on_code_action,
            types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, actions.FIX_ALL]),
        ),
        (types.TEXT_DOCUMENT_CODE_LENS, on_code_lens, types.CodeLensOptions()),
        (types.TEXT_DOCUMENT_INLAY_HINT, on_inlay_hint, types.InlayHintOptions()),
    ]
    for method, handler, options in features:
        if options is None:
            server.feature(method)(handler)
        else:
            server.feature(method, options)(handler)
    server.command(lenses.DRY_RUN)(cmd_dry_run)
    server.command(lenses.SIMULATE)(cmd_simulate)
    server.command(lenses.RULE_DOC)(cmd_rule_doc)
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


def run(tcp: str | None = None) -> None:
    """Serve over stdio, or over TCP at ``HOST:PORT`` (``formscript serve [--tcp ...]``)."""
    logging.basicConfig(
        stream=sys.stderr, level=logging.WARNING, format="%(asctime)s %(name)s %(levelname)s %(message)s"
    )
    server = create_server()
    tune_garbage_collector()
    if tcp:
        host, _, port = tcp.rpartition(":")
        server.start_tcp(host or "127.0.0.1", int(port))
    else:
        server.start_io()
