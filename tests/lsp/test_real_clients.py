"""The capabilities real editors send (recorded by pytest-lsp): every feature answers, in a
form the client accepts, with what the user should see; push or pull as the client supports."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
import pytest_lsp
from lsp_support import Client, config, doc_id, open_doc, pos, published, write
from lsprotocol import types
from pytest_lsp import LspSpecificationWarning, client_capabilities

pytestmark = pytest.mark.slow  # a language server per recorded client

FORM = 'fields:\n  age: {type: int}\n  note: {type: str}\nvalues: {note: "😀", age: "7", aeg: 1}\n'

CLIENTS = ["visual-studio-code@v1.65.2", "neovim@v0.11.0", "neovim@v0.7.0", "emacs@v29.1"]


def _column(line: str, word: str, encoding: str) -> int:
    """The column of *word* in *line*, in the negotiated position encoding's units."""
    before = line[: line.index(word)]
    if encoding == "utf-8":
        return len(before.encode("utf-8"))
    if encoding == "utf-32":
        return len(before)
    return len(before.encode("utf-16-le")) // 2


@pytest_lsp.fixture(config=config(), params=CLIENTS)
async def client(lsp_client: Client, request: pytest.FixtureRequest, tmp_path: Path):
    capabilities = client_capabilities(request.param)
    result = await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=capabilities,
            root_uri=tmp_path.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=tmp_path.as_uri(), name="ws")],
        )
    )
    lsp_client.result = result  # type: ignore[attr-defined]
    lsp_client.root = tmp_path  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


async def test_features_answer_within_the_client_capabilities(client: Client) -> None:
    warnings.simplefilter("error", LspSpecificationWarning)
    caps = client.capabilities
    assert caps is not None
    uri = write(client.root, "real.form.yaml", FORM)  # type: ignore[attr-defined]
    open_doc(client, uri, FORM)
    pull = caps.text_document is not None and caps.text_document.diagnostic is not None
    if pull:
        report = await client.text_document_diagnostic_async(types.DocumentDiagnosticParams(text_document=doc_id(uri)))
        items = list(report.items)  # type: ignore[union-attr]
    else:
        items = await published(client, uri, version=1)
    assert sorted(str(d.code) for d in items) == ["FS005", "FS016"]
    encoding = client.result.capabilities.position_encoding  # type: ignore[attr-defined]
    offered = caps.general.position_encodings if caps.general else None
    assert encoding == (offered[0] if offered else "utf-16")
    hover = await client.text_document_hover_async(types.HoverParams(text_document=doc_id(uri), position=pos(1, 3)))
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    markdown = caps.text_document is not None and types.MarkupKind.Markdown in (
        (caps.text_document.hover.content_format or []) if caps.text_document.hover else []
    )
    assert hover.contents.kind == (types.MarkupKind.Markdown if markdown else types.MarkupKind.PlainText)
    assert hover.contents.value.startswith("**field `age`**" if markdown else "field `age`"), hover.contents.value
    assert hover.range == types.Range(start=pos(1, 2), end=pos(1, 5))
    completion = await client.text_document_completion_async(
        types.CompletionParams(text_document=doc_id(uri), position=pos(4, 0))
    )
    assert isinstance(completion, types.CompletionList)
    assert [item.label for item in completion.items] == ["title"]
    symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=doc_id(uri)))
    assert symbols is not None
    if all(isinstance(s, types.DocumentSymbol) for s in symbols):
        outline = [(s.name, [c.name for c in s.children or []]) for s in symbols]  # type: ignore[union-attr]
        assert outline == [("fields", ["age", "note"]), ("values", ["note", "age", "aeg"])]
    else:
        flat = [(s.name, s.container_name) for s in symbols if isinstance(s, types.SymbolInformation)]
        assert flat == [
            ("fields", None),
            ("age", "fields"),
            ("note", "fields"),
            ("values", None),
            ("note", "values"),
            ("age", "values"),
            ("aeg", "values"),
        ]
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=doc_id(uri),
            range=types.Range(start=pos(3, 0), end=pos(3, 40)),
            context=types.CodeActionContext(diagnostics=[]),
        )
    )
    assert actions is not None
    offered = [a for a in actions if isinstance(a, types.CodeAction)]
    # renaming 'aeg' to 'age' would duplicate the key 'age' (and the later value would win):
    # the fixed text fails the check, so only the suppressions are offered here
    assert [a.title for a in offered] == [
        "Suppress FS016 on this line (with a reason)",
        "Suppress FS005 on this line (with a reason)",
    ]
    free = FORM.replace(' age: "7",', "")  # no 'age' among the values: the rename is exact
    renamed = write(client.root, "rename.form.yaml", free)  # type: ignore[attr-defined]
    open_doc(client, renamed, free)
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=doc_id(renamed),
            range=types.Range(start=pos(3, 0), end=pos(3, 40)),
            context=types.CodeActionContext(diagnostics=[]),
        )
    )
    offered = [a for a in actions or [] if isinstance(a, types.CodeAction)]
    assert offered[0].title == "replace with 'age' (FS005)"
    fix = offered[0].edit
    assert fix is not None
    edits = list(fix.changes[renamed]) if fix.changes else [e for d in fix.document_changes or [] for e in d.edits]  # type: ignore[union-attr]
    start = _column(free.splitlines()[3], "aeg", encoding)
    assert [(e.range, e.new_text) for e in edits] == [(types.Range(start=pos(3, start), end=pos(3, start + 3)), "age")]
    folds = await client.text_document_folding_range_async(types.FoldingRangeParams(text_document=doc_id(uri)))
    assert [(f.start_line, f.end_line) for f in folds or []] == [(0, 2)]
