"""Language features: hover, completion, symbols, navigation, rename, folding, code actions,
lenses and inlay hints. Each gets the document's analysis, asks a feature module, converts
the answer with ``convert`` and returns it."""

from __future__ import annotations

from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams

from formscript.document import Span
from formscript.lsp import actions, completion, convert, hover, lenses, navigation, pycompletion
from formscript.lsp.analysis import Analysis
from formscript.lsp.handlers.guard import Handler, guarded
from formscript.lsp.server import FormscriptServer


@guarded()
async def on_hover(ls: FormscriptServer, params: types.HoverParams) -> types.Hover | None:
    """Key documentation, or what the runtime sees for a value."""
    found = await ls.documents.current(params.text_document.uri)
    text = hover.hover(found, found.positions.pos(params.position))
    formats = ls.capability("text_document", "hover", "content_format") or ()
    md = types.MarkupKind.Markdown in formats
    return convert.hover(text, found.positions, md) if text is not None else None


@guarded(lambda: types.CompletionList(is_incomplete=False, items=[]))
async def on_completion(ls: FormscriptServer, params: types.CompletionParams) -> types.CompletionList:
    """Keys, values, field names and entry snippets valid at the cursor."""
    found = await ls.documents.current(params.text_document.uri)
    snippets = bool(ls.capability("text_document", "completion", "completion_item", "snippet_support"))
    modes = ls.capability("text_document", "completion", "completion_item", "insert_text_mode_support", "value_set")
    as_is = types.InsertTextMode.AsIs in (modes or ())
    formats = ls.capability("text_document", "completion", "completion_item", "documentation_format") or ()
    md = types.MarkupKind.Markdown in formats
    pos = found.positions.pos(params.position)
    if found.report.parts is not None:  # a Python file: inside the literals it hands to lionagi
        whole = bool(ls.capability("text_document", "completion", "completion_item", "insert_replace_support"))
        suggestions = await ls.documents.off_loop(pycompletion.complete_python, found, pos, whole)
    else:
        suggestions = completion.complete(found, pos, snippets=snippets, as_is=as_is)
    items = [convert.completion_item(s, found.positions, md, as_is) for s in suggestions]
    return types.CompletionList(is_incomplete=False, items=items)


@guarded(list)
async def on_document_symbol(
    ls: FormscriptServer, params: types.DocumentSymbolParams
) -> list[types.DocumentSymbol] | list[types.SymbolInformation]:
    """Fields and values; responses as ``#index type``; rules; calls."""
    uri = params.text_document.uri
    found = await ls.documents.current(uri)
    outline = navigation.symbols(found)
    if ls.capability("text_document", "document_symbol", "hierarchical_document_symbol_support"):
        return [convert.document_symbol(s, found.positions) for s in outline]
    return [flat for symbol in outline for flat in convert.symbol_information(symbol, found.positions, uri)]


@guarded()
async def on_definition(ls: FormscriptServer, params: types.DefinitionParams) -> types.Location | None:
    """From a value's key to its field declaration."""
    uri = params.text_document.uri
    found = await ls.documents.current(uri)
    span = navigation.definition(found, found.positions.pos(params.position))
    return convert.location(uri, span, found.positions) if span is not None else None


@guarded(list)
async def on_references(ls: FormscriptServer, params: types.ReferenceParams) -> list[types.Location]:
    """A field's declaration and its value."""
    uri = params.text_document.uri
    found = await ls.documents.current(uri)
    spans = navigation.references(
        found, found.positions.pos(params.position), declaration=params.context.include_declaration
    )
    return [convert.location(uri, span, found.positions) for span in spans]


@guarded()
async def on_prepare_rename(
    ls: FormscriptServer, params: types.PrepareRenameParams
) -> types.PrepareRenamePlaceholder | None:
    """Only field names (declaration or value key) can be renamed."""
    found = await ls.documents.current(params.text_document.uri)
    hit = navigation.rename_range(found, found.positions.pos(params.position))
    if hit is None:
        return None
    return types.PrepareRenamePlaceholder(range=found.positions.range(hit[0]), placeholder=hit[1])


@guarded()
async def on_rename(ls: FormscriptServer, params: types.RenameParams) -> types.WorkspaceEdit | None:
    """Rename a field in its declaration and its value together."""
    uri = params.text_document.uri
    found = await ls.documents.current(uri)
    try:
        edits = navigation.rename(found, found.positions.pos(params.position), params.new_name)
    except navigation.RenameError as exc:
        raise JsonRpcInvalidParams(str(exc)) from exc
    if not edits:
        return None
    lsp_edits = [types.TextEdit(range=found.positions.range(e.span), new_text=e.new_text) for e in edits]
    versioned = bool(ls.capability("workspace", "workspace_edit", "document_changes"))
    return convert.workspace_edit(uri, lsp_edits, found.version, versioned)


@guarded(list)
async def on_folding_range(ls: FormscriptServer, params: types.FoldingRangeParams) -> list[types.FoldingRange]:
    """One fold per multi-line mapping or sequence: entries, declarations, sections."""
    found = await ls.documents.current(params.text_document.uri)
    return [
        types.FoldingRange(start_line=start, end_line=end, kind=types.FoldingRangeKind.Region)
        for start, end in navigation.folding(found)
    ]


def _wanted(kind: str, only: list[str] | None) -> bool:
    return not only or any(kind == k or kind.startswith(k + ".") for k in only)


@guarded(list)
async def on_code_action(ls: FormscriptServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    """Quick fixes and suppressions at the range; all safe fixes as source.fixAll; the dry run
    or simulation (``source.formscript.*``) for clients without lenses."""
    uri = params.text_document.uri
    found = await ls.documents.current(uri)
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
    chosen += [a for a in actions.runs(found, span) if _wanted(a.kind, only)]
    versioned = bool(ls.capability("workspace", "workspace_edit", "document_changes"))
    return [convert.code_action(a, positions, uri, found.version, versioned) for a in chosen]


@guarded(list)
async def on_code_lens(ls: FormscriptServer, params: types.CodeLensParams) -> list[types.CodeLens]:
    """ "Dry run" above a form, "Simulate" above a script."""
    found = await ls.documents.current(params.text_document.uri)
    shown = await ls.documents.off_loop_read(lenses.lenses, found, ls.documents.read, ls.roots())
    return [convert.code_lens(lens, found.positions) for lens in shown]


async def _calls(ls: FormscriptServer, found: Analysis) -> tuple[str, str] | None:
    """The calls transcript of a script (read off the event loop)."""
    return await ls.documents.off_loop_read(lenses.calls_for, found, ls.documents.read, ls.roots())


async def _simulation(ls: FormscriptServer, found: Analysis) -> dict[str, Any]:
    """The simulation of a script against its calls, kept while the texts stay."""
    calls = await _calls(ls, found)
    key = (found.text, calls)
    cached = ls.documents.remembered(found.uri, key)
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    result = await ls.documents.off_loop_run(lenses.simulation, found, ls.documents.read, ls.roots())
    ls.documents.remember(found.uri, key, result)
    return result


@guarded(list)
async def on_inlay_hint(ls: FormscriptServer, params: types.InlayHintParams) -> list[types.InlayHint]:
    """Coerced values beside form values; "served at call N" beside script entries."""
    found = await ls.documents.current(params.text_document.uri)
    if found.report.parts is not None:  # a Python file: beside the values each fill_form coerces
        hints = lenses.python_hints(found)
    elif found.kind == "form":
        hints = lenses.form_hints(found)
    elif found.kind == "script" and await _calls(ls, found) is not None:
        hints = lenses.script_hints(await _simulation(ls, found), found)
    else:
        hints = []
    wanted = params.range
    converted = [convert.inlay_hint(h, found.positions) for h in hints]
    return [h for h in converted if wanted.start.line <= h.position.line <= wanted.end.line]


FEATURES: list[tuple[str, Handler, Any]] = [
    (types.TEXT_DOCUMENT_HOVER, on_hover, None),
    (
        types.TEXT_DOCUMENT_COMPLETION,
        on_completion,
        types.CompletionOptions(trigger_characters=[":", " ", "-", '"', "'"]),
    ),
    (types.TEXT_DOCUMENT_DOCUMENT_SYMBOL, on_document_symbol, None),
    (types.TEXT_DOCUMENT_DEFINITION, on_definition, None),
    (types.TEXT_DOCUMENT_REFERENCES, on_references, None),
    (types.TEXT_DOCUMENT_PREPARE_RENAME, on_prepare_rename, None),
    (types.TEXT_DOCUMENT_RENAME, on_rename, types.RenameOptions(prepare_provider=True)),
    (types.TEXT_DOCUMENT_FOLDING_RANGE, on_folding_range, None),
    (
        types.TEXT_DOCUMENT_CODE_ACTION,
        on_code_action,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, actions.FIX_ALL, actions.RUN]),
    ),
    (types.TEXT_DOCUMENT_CODE_LENS, on_code_lens, types.CodeLensOptions()),
    (types.TEXT_DOCUMENT_INLAY_HINT, on_inlay_hint, types.InlayHintOptions()),
]
COMMANDS: list[tuple[str, Handler]] = []
