"""The session and the documents' life: initialize, open, change, save, close, settings."""

from __future__ import annotations

from typing import Any
from uuid import uuid4

from lsprotocol import types

from formscript.lsp.analysis import uri_to_path
from formscript.lsp.handlers.guard import Handler, guarded
from formscript.lsp.server import FormscriptServer


def apply_editor_settings(ls: FormscriptServer, raw: Any) -> None:
    """Take the editor's settings and lint again when anything changed (invalid ones are
    shown, not taken)."""
    before = ls.settings.generation
    error = ls.settings.set_editor(raw)
    if error is not None:
        ls.window_show_message(types.ShowMessageParams(type=types.MessageType.Warning, message=f"formscript: {error}"))
    elif ls.settings.generation != before:
        ls.publisher.refresh()


async def pull_settings(ls: FormscriptServer) -> None:
    """Ask the client for the "formscript" section and apply it."""
    if not ls.capability("workspace", "configuration"):
        return
    answer = await ls.workspace_configuration_async(
        types.ConfigurationParams(items=[types.ConfigurationItem(section="formscript")])
    )
    # None: the client has no such section; keep the initializationOptions then
    if answer and answer[0] is not None:
        apply_editor_settings(ls, answer[0])


def configuration_files_changed(ls: FormscriptServer) -> None:
    """A configuration file changed: discover the settings again, lint again."""
    ls.settings.invalidate_files()
    ls.publisher.refresh()


def check_configuration_files(ls: FormscriptServer, uri: str) -> None:
    """For a client that does not watch files for the server: whether the configuration files
    of *uri*'s folder changed on disk (``SettingsStore.files_changed``)."""
    if ls.capability("workspace", "did_change_watched_files", "dynamic_registration"):
        return
    if ls.settings.files_changed(uri_to_path(uri)):
        configuration_files_changed(ls)


@guarded()
def initialize(ls: FormscriptServer, params: types.InitializeParams) -> None:
    """Settings from initializationOptions; pull or push diagnostics."""
    apply_editor_settings(ls, params.initialization_options)
    ls.publisher.pull = ls.capability("text_document", "diagnostic") is not None


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
                register_options=types.DidChangeWatchedFilesRegistrationOptions(watchers=ls.workspace_files.watchers()),
            )
        )
    if registrations:
        ls.client_register_capability(types.RegistrationParams(registrations=registrations))
    await pull_settings(ls)


@guarded()
def did_open(ls: FormscriptServer, params: types.DidOpenTextDocumentParams) -> None:
    """Lint the opened document (and all of them, when a configuration file changed unseen)."""
    ls.documents.open(params.text_document.uri)
    check_configuration_files(ls, params.text_document.uri)
    ls.publisher.schedule(params.text_document.uri)


@guarded()
def did_change(ls: FormscriptServer, params: types.DidChangeTextDocumentParams) -> None:
    """Lint the changed document (debounced); a changed calls transcript refreshes hints."""
    uri = params.text_document.uri
    check_configuration_files(ls, uri)
    ls.publisher.schedule(uri)
    if ".calls." in uri and ls.capability("workspace", "inlay_hint", "refresh_support"):
        ls.workspace_inlay_hint_refresh(None)


@guarded()
def did_save(ls: FormscriptServer, params: types.DidSaveTextDocumentParams) -> None:
    """Lint on save; a saved configuration file re-reads the settings."""
    uri = params.text_document.uri
    if ls.workspace_files.is_configuration(uri):
        configuration_files_changed(ls)
        return
    check_configuration_files(ls, uri)
    if ls.documents.is_open(uri):
        ls.publisher.schedule(uri)


@guarded()
def did_close(ls: FormscriptServer, params: types.DidCloseTextDocumentParams) -> None:
    """Forget the document and clear its diagnostics."""
    ls.documents.close(params.text_document.uri)
    ls.publisher.closed(params.text_document.uri)


@guarded()
async def did_change_configuration(ls: FormscriptServer, params: types.DidChangeConfigurationParams) -> None:
    """New settings: pushed with the notification, or pulled from the client."""
    settings = params.settings
    if isinstance(settings, dict) and settings:
        apply_editor_settings(ls, settings)
    else:
        await pull_settings(ls)


@guarded()
def did_change_watched_files(ls: FormscriptServer, params: types.DidChangeWatchedFilesParams) -> None:
    """A configuration file changed on disk."""
    if any(ls.workspace_files.is_configuration(c.uri) for c in params.changes):
        configuration_files_changed(ls)


FEATURES: list[tuple[str, Handler, Any]] = [
    (types.INITIALIZE, initialize, None),
    (types.INITIALIZED, initialized, None),
    (types.TEXT_DOCUMENT_DID_OPEN, did_open, None),
    (types.TEXT_DOCUMENT_DID_CHANGE, did_change, None),
    (types.TEXT_DOCUMENT_DID_SAVE, did_save, None),
    (types.TEXT_DOCUMENT_DID_CLOSE, did_close, None),
    (types.WORKSPACE_DID_CHANGE_CONFIGURATION, did_change_configuration, None),
    (types.WORKSPACE_DID_CHANGE_WATCHED_FILES, did_change_watched_files, None),
]
COMMANDS: list[tuple[str, Handler]] = []
