"""Helpers for the end-to-end tests: a pytest-lsp client that records every
``publishDiagnostics`` (with its version), client capabilities to taste, and files on disk."""

from __future__ import annotations

import asyncio
import sys
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

SERVER = [sys.executable, "-m", "formscript.lsp"]
HERE = Path(__file__).resolve().parent


class Client(LanguageClient):
    """The pytest-lsp client, also keeping every publish per document."""

    published: dict[str, list[types.PublishDiagnosticsParams]]
    registrations: list[types.Registration]


def make_client() -> Client:
    """A client recording publishes (with versions) and capability registrations."""
    client = Client(converter_factory=default_converter)
    client.published = defaultdict(list)
    client.registrations = []

    def on_publish(ls: Client, params: types.PublishDiagnosticsParams) -> None:
        ls.diagnostics[params.uri] = params.diagnostics
        ls.published[params.uri].append(params)

    def on_register(ls: Client, params: types.RegistrationParams) -> None:
        ls.registrations.extend(params.registrations)

    features = dict(DEFAULT_CLIENT_FEATURES)
    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = on_publish
    features[types.CLIENT_REGISTER_CAPABILITY] = on_register
    register_lsp_features(client, features)
    return client


def config(command: list[str] | None = None, env: dict[str, str] | None = None) -> ClientServerConfig:
    """Start the server (``python -m formscript.lsp``) with our client."""
    return ClientServerConfig(server_command=command or SERVER, client_factory=make_client, server_env=env)


def capabilities(
    *,
    pull: bool = False,
    encodings: list[str] | None = None,
    snippets: bool = True,
    configuration: bool = True,
    hierarchical: bool = True,
    progress: bool = True,
    document_changes: bool = False,
) -> types.ClientCapabilities:
    """Client capabilities for a test: push diagnostics unless *pull*."""
    text = types.TextDocumentClientCapabilities(
        synchronization=types.TextDocumentSyncClientCapabilities(did_save=True),
        publish_diagnostics=types.PublishDiagnosticsClientCapabilities(
            version_support=True,
            related_information=True,
            code_description_support=True,
            tag_support=types.ClientDiagnosticsTagOptions(value_set=[types.DiagnosticTag.Unnecessary]),
        ),
        hover=types.HoverClientCapabilities(content_format=[types.MarkupKind.Markdown]),
        completion=types.CompletionClientCapabilities(
            completion_item=types.ClientCompletionItemOptions(
                snippet_support=snippets,
                insert_replace_support=True,
                documentation_format=[types.MarkupKind.Markdown],
                insert_text_mode_support=types.ClientCompletionItemInsertTextModeOptions(
                    value_set=[types.InsertTextMode.AsIs]
                ),
            )
        ),
        document_symbol=types.DocumentSymbolClientCapabilities(hierarchical_document_symbol_support=hierarchical),
        code_action=types.CodeActionClientCapabilities(
            code_action_literal_support=types.ClientCodeActionLiteralOptions(
                code_action_kind=types.ClientCodeActionKindOptions(
                    value_set=[
                        types.CodeActionKind.QuickFix,
                        types.CodeActionKind.Source,
                        types.CodeActionKind.SourceFixAll,
                    ]
                )
            ),
            is_preferred_support=True,
        ),
        rename=types.RenameClientCapabilities(prepare_support=True),
        folding_range=types.FoldingRangeClientCapabilities(line_folding_only=True),
        code_lens=types.CodeLensClientCapabilities(),
        inlay_hint=types.InlayHintClientCapabilities(),
        diagnostic=types.DiagnosticClientCapabilities() if pull else None,
        definition=types.DefinitionClientCapabilities(),
        references=types.ReferenceClientCapabilities(),
    )
    return types.ClientCapabilities(
        text_document=text,
        workspace=types.WorkspaceClientCapabilities(
            configuration=configuration,
            workspace_edit=types.WorkspaceEditClientCapabilities(document_changes=document_changes),
            diagnostics=types.DiagnosticWorkspaceClientCapabilities(refresh_support=True) if pull else None,
            did_change_configuration=types.DidChangeConfigurationClientCapabilities(dynamic_registration=True),
            did_change_watched_files=types.DidChangeWatchedFilesClientCapabilities(dynamic_registration=True),
        ),
        window=types.WindowClientCapabilities(work_done_progress=progress),
        general=types.GeneralClientCapabilities(position_encodings=encodings) if encodings else None,
    )


async def start(client: LanguageClient, root: Path, *, options: Any = None, **caps: Any) -> types.InitializeResult:
    """Initialize a session rooted at *root*."""
    return await client.initialize_session(
        types.InitializeParams(
            capabilities=capabilities(**caps),
            root_uri=root.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name=root.name)],
            initialization_options=options,
        )
    )


def write(root: Path, name: str, text: str) -> str:
    """Write a file under *root*; its URI."""
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path.as_uri()


def open_doc(client: LanguageClient, uri: str, text: str, version: int = 1) -> None:
    """Open a document in the server."""
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="yaml", version=version, text=text)
        )
    )


def change_doc(client: LanguageClient, uri: str, text: str, version: int) -> None:
    """Replace a document's whole text."""
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


async def until(predicate: Callable[[], Any], timeout: float = 10.0) -> Any:
    """Wait until *predicate* returns something truthy; that value."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError("timed out waiting")
        await asyncio.sleep(0.01)


async def published(
    client: Client, uri: str, version: int | None = None, timeout: float = 10.0
) -> list[types.Diagnostic]:
    """The diagnostics published for *uri* (at *version*, when given)."""

    def hit() -> types.PublishDiagnosticsParams | None:
        for params in reversed(client.published.get(uri, [])):
            if version is None or params.version == version:
                return params
        return None

    params = await until(hit, timeout)
    return list(params.diagnostics)


def pos(line: int, character: int) -> types.Position:
    """A position."""
    return types.Position(line=line, character=character)


def rng(l1: int, c1: int, l2: int, c2: int) -> types.Range:
    """A range."""
    return types.Range(start=pos(l1, c1), end=pos(l2, c2))


def doc_id(uri: str) -> types.TextDocumentIdentifier:
    """A document identifier."""
    return types.TextDocumentIdentifier(uri=uri)
