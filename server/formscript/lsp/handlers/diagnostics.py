"""Pulled diagnostics: ``textDocument/diagnostic`` and ``workspace/diagnostic`` (with
progress, cancellable). Pushed diagnostics are the publisher's (``lsp.publisher``)."""

from __future__ import annotations

import asyncio
from typing import Any
from uuid import uuid4

from lsprotocol import types

from formscript.lsp.handlers.guard import Handler, guarded
from formscript.lsp.server import FormscriptServer


@guarded(lambda: types.RelatedFullDocumentDiagnosticReport(items=[]))
async def document_diagnostic(
    ls: FormscriptServer, params: types.DocumentDiagnosticParams
) -> types.DocumentDiagnosticReport:
    """The document's diagnostics, or "unchanged" when the client has them already."""
    found = await ls.documents.current(params.text_document.uri, unread=True)
    return ls.publisher.document_report(found, params.previous_result_id)


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
    files = await asyncio.get_running_loop().run_in_executor(None, ls.workspace_files.files)
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
            items.append(await ls.publisher.workspace_item(path, previous))
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
            ls.publisher.cancelled_progress.discard(token)
    return types.WorkspaceDiagnosticReport(items=items)


def _progress_cancelled(ls: FormscriptServer, token: types.ProgressToken) -> bool:
    if token in ls.publisher.cancelled_progress:
        return True
    future = ls.work_done_progress.tokens.get(token)
    return future is not None and future.cancelled()


def progress_cancel(ls: FormscriptServer, params: types.WorkDoneProgressCancelParams) -> None:
    """Remember a cancelled progress token (pygls itself only cancels tokens it knows)."""
    ls.publisher.cancelled_progress.add(params.token)


FEATURES: list[tuple[str, Handler, Any]] = [
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
]
COMMANDS: list[tuple[str, Handler]] = []
