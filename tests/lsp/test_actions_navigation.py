"""Code actions (each fix, fix-all, suppress with a reason) and navigation (symbols,
definition, references, rename, folding)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import pytest_lsp
from lsp_support import (
    Client,
    change_doc,
    config,
    doc_id,
    open_doc,
    pos,
    published,
    rng,
    start,
    write,
)
from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams

FORM = (
    "title: T\nfields:\n  age: {type: int}\n  ok: {type: str}\n  note: {type: str}\n"
    "values:\n  age: 3\n  ok: no\n  note: off\n  aeg: 3\n"
)
SCRIPT = (
    "responses:\n  - type: text\n    content: hi\n  - type: tool_call\n    name: t\n"
    "    when: {prompt_contains: x}\n  - type: stream\n    chunks:\n      - type: text\n"
    "        content: a\n      - type: result\n"
)


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: Client, workspace: Path):
    await start(lsp_client, workspace)
    yield
    await lsp_client.shutdown_session()


pytestmark = pytest.mark.asyncio(loop_scope="module")


async def _opened(client: Client, workspace: Path, name: str, text: str) -> str:
    uri = write(workspace, name, text)
    open_doc(client, uri, text)
    await published(client, uri, version=1)
    return uri


async def _actions(
    client: Client, uri: str, where: types.Range, only: list[str] | None = None
) -> list[types.CodeAction]:
    found = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=doc_id(uri), range=where, context=types.CodeActionContext(diagnostics=[], only=only)
        )
    )
    return [a for a in found or [] if isinstance(a, types.CodeAction)]


def _edits(action: types.CodeAction, uri: str) -> list[tuple[types.Range, str]]:
    assert action.edit is not None and action.edit.changes is not None
    return [(e.range, e.new_text) for e in action.edit.changes[uri]]


async def test_quick_fix_and_suppression_at_a_diagnostic(client: Client, workspace: Path) -> None:
    uri = await _opened(client, workspace, "fix.form.yaml", FORM)
    actions = await _actions(client, uri, rng(7, 6, 7, 6), only=["quickfix"])
    assert [(a.title, a.kind, a.is_preferred) for a in actions] == [
        ("quote 'no' so it stays a string (FS015)", "quickfix", True),
        ("Suppress FS015 on this line (with a reason)", "quickfix", None),
    ]
    assert _edits(actions[0], uri) == [(rng(7, 6, 7, 8), "'no'")]
    assert [d.code for d in actions[0].diagnostics or []] == ["FS015"]
    assert _edits(actions[1], uri) == [(rng(7, 0, 7, 0), "  # formscript: ignore[FS015] reason\n")]
    # renaming 'aeg' to 'age' would duplicate the key 'age' (a later one silently wins): the
    # fixed text fails the check, so the rename is not offered
    typo = await _actions(client, uri, rng(9, 3, 9, 3), only=["quickfix"])
    assert [(a.title, a.is_preferred) for a in typo] == [("Suppress FS005 on this line (with a reason)", None)]
    uri = await _opened(client, workspace, "typo.form.yaml", FORM.replace("  age: 3\n", ""))
    typo = await _actions(client, uri, rng(8, 3, 8, 3), only=["quickfix"])
    assert [(a.title, a.is_preferred) for a in typo] == [
        ("replace with 'age' (FS005)", None),
        ("Suppress FS005 on this line (with a reason)", None),
    ]
    assert _edits(typo[0], uri) == [(rng(8, 2, 8, 5), "age")]


async def test_fix_all_applies_only_safe_fixes(client: Client, workspace: Path) -> None:
    uri = await _opened(client, workspace, "fixall.form.yaml", FORM)
    actions = await _actions(client, uri, rng(0, 0, 0, 0), only=["source.fixAll"])
    assert len(actions) == 1
    assert actions[0].title == "Fix all safe formscript problems"
    assert actions[0].kind == "source.fixAll.formscript"
    assert _edits(actions[0], uri) == [(rng(7, 6, 7, 8), "'no'"), (rng(8, 8, 8, 11), "'off'")]
    assert await _actions(client, uri, rng(0, 0, 0, 0), only=["refactor"]) == []


async def test_suppression_joins_an_existing_comment(client: Client, workspace: Path) -> None:
    text = FORM.replace("  ok: no\n", "  # formscript: ignore[FS016] known\n  ok: no\n")
    uri = await _opened(client, workspace, "join.form.yaml", text)
    actions = await _actions(client, uri, rng(8, 7, 8, 7), only=["quickfix"])
    suppress = [a for a in actions if a.title.startswith("Suppress")]
    assert _edits(suppress[0], uri) == [(rng(7, 28, 7, 28), ", FS015")]


async def test_document_symbols(client: Client, workspace: Path) -> None:
    uri = await _opened(client, workspace, "symbols.form.yaml", FORM)
    symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=doc_id(uri)))
    assert symbols is not None
    outline = [
        (s.name, s.kind, s.detail, [(c.name, c.kind, c.detail, c.selection_range) for c in s.children or []])
        for s in symbols
        if isinstance(s, types.DocumentSymbol)
    ]
    assert outline == [
        ("title", types.SymbolKind.Property, "T", []),
        (
            "fields",
            types.SymbolKind.Namespace,
            None,
            [
                ("age", types.SymbolKind.Field, "int", rng(2, 2, 2, 5)),
                ("ok", types.SymbolKind.Field, "str", rng(3, 2, 3, 4)),
                ("note", types.SymbolKind.Field, "str", rng(4, 2, 4, 6)),
            ],
        ),
        (
            "values",
            types.SymbolKind.Namespace,
            None,
            [
                ("age", types.SymbolKind.Variable, "3", rng(6, 2, 6, 5)),
                ("ok", types.SymbolKind.Variable, "False", rng(7, 2, 7, 4)),
                ("note", types.SymbolKind.Variable, "False", rng(8, 2, 8, 6)),
                ("aeg", types.SymbolKind.Variable, "3", rng(9, 2, 9, 5)),
            ],
        ),
    ]
    fields = symbols[1]
    assert isinstance(fields, types.DocumentSymbol) and fields.range == rng(1, 0, 4, 19)
    script = await _opened(client, workspace, "symbols.script.yaml", SCRIPT)
    entries = await client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=doc_id(script)))
    responses = entries[0]  # type: ignore[index]
    assert isinstance(responses, types.DocumentSymbol)
    assert [(c.name, c.detail, c.range) for c in responses.children or []] == [
        ("#0 text", "hi", rng(1, 4, 2, 15)),
        ("#1 tool_call", "when prompt_contains='x'; t", rng(3, 4, 5, 30)),
        ("#2 stream", None, rng(6, 4, 10, 20)),
    ]


async def test_definition_and_references(client: Client, workspace: Path) -> None:
    uri = await _opened(client, workspace, "nav.form.yaml", FORM)
    definition = await client.text_document_definition_async(
        types.DefinitionParams(text_document=doc_id(uri), position=pos(7, 3))
    )
    assert definition == types.Location(uri=uri, range=rng(3, 2, 3, 4))
    references = await client.text_document_references_async(
        types.ReferenceParams(
            text_document=doc_id(uri), position=pos(3, 3), context=types.ReferenceContext(include_declaration=True)
        )
    )
    assert list(references or []) == [
        types.Location(uri=uri, range=rng(3, 2, 3, 4)),
        types.Location(uri=uri, range=rng(7, 2, 7, 4)),
    ]
    only_values = await client.text_document_references_async(
        types.ReferenceParams(
            text_document=doc_id(uri), position=pos(3, 3), context=types.ReferenceContext(include_declaration=False)
        )
    )
    assert list(only_values or []) == [types.Location(uri=uri, range=rng(7, 2, 7, 4))]
    nothing = await client.text_document_definition_async(
        types.DefinitionParams(text_document=doc_id(uri), position=pos(0, 2))
    )
    assert nothing is None


async def test_rename_field_and_value_together(client: Client, workspace: Path) -> None:
    uri = await _opened(client, workspace, "rename.form.yaml", FORM)
    prepared = await client.text_document_prepare_rename_async(
        types.PrepareRenameParams(text_document=doc_id(uri), position=pos(6, 3))
    )
    assert prepared == types.PrepareRenamePlaceholder(range=rng(6, 2, 6, 5), placeholder="age")
    edit = await client.text_document_rename_async(
        types.RenameParams(text_document=doc_id(uri), position=pos(6, 3), new_name="years")
    )
    assert edit is not None and edit.changes is not None
    assert list(edit.changes[uri]) == [
        types.TextEdit(range=rng(2, 2, 2, 5), new_text="years"),
        types.TextEdit(range=rng(6, 2, 6, 5), new_text="years"),
    ]
    assert (
        await client.text_document_prepare_rename_async(
            types.PrepareRenameParams(text_document=doc_id(uri), position=pos(0, 1))
        )
        is None
    )
    with pytest.raises(JsonRpcInvalidParams, match="not a field name"):
        await client.text_document_rename_async(
            types.RenameParams(text_document=doc_id(uri), position=pos(6, 3), new_name="2bad")
        )
    with pytest.raises(JsonRpcInvalidParams, match="already has"):
        await client.text_document_rename_async(
            types.RenameParams(text_document=doc_id(uri), position=pos(6, 3), new_name="note")
        )


async def test_folding_ranges_per_entry(client: Client, workspace: Path) -> None:
    uri = await _opened(client, workspace, "fold.script.yaml", SCRIPT)
    ranges = await client.text_document_folding_range_async(types.FoldingRangeParams(text_document=doc_id(uri)))
    assert [(r.start_line, r.end_line) for r in ranges or []] == [(0, 10), (1, 2), (3, 5), (6, 10), (7, 10), (8, 9)]


async def test_requests_right_after_a_change_see_the_new_text(client: Client, workspace: Path) -> None:
    uri = await _opened(client, workspace, "fresh.form.yaml", FORM)
    change_doc(client, uri, FORM.replace("  aeg: 3\n", "  extra: 3\n"), 2)
    symbols, folds = await asyncio.gather(
        client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=doc_id(uri))),
        client.text_document_folding_range_async(types.FoldingRangeParams(text_document=doc_id(uri))),
    )
    values = symbols[2]  # type: ignore[index]
    assert isinstance(values, types.DocumentSymbol)
    assert [c.name for c in values.children or []] == ["age", "ok", "note", "extra"]
    assert [(r.start_line, r.end_line) for r in folds or []] == [(1, 4), (5, 9)]
