"""Conversions between formscript's domain objects and LSP types, with a document's
``lsp.positions.Positions`` (which maps formscript's positions to the client's)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from lsprotocol import types

from formscript import rules
from formscript.document import Span
from formscript.lint.diagnostics import Diagnostic
from formscript.lsp.positions import Positions

if TYPE_CHECKING:
    from formscript.lsp.actions import Action
    from formscript.lsp.completion import Suggestion
    from formscript.lsp.hover import HoverText
    from formscript.lsp.lenses import Hint, Lens
    from formscript.lsp.navigation import Symbol


SOURCE = "formscript"

_SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "info": types.DiagnosticSeverity.Information,
    "hint": types.DiagnosticSeverity.Hint,
}


# ------------------------------------------------------------------------------ diagnostics


def diagnostic(found: Diagnostic, positions: Positions, uri: str) -> types.Diagnostic:
    """An LSP diagnostic with the lint's code, message and severity; faded when its rule marks
    dead text. No codeDescription: the rule pages have no web address (``formscript.ruleDoc``
    and ``formscript rule CODE`` show them; the documentation site has them all)."""
    rule = rules.get(found.code)
    related = [
        types.DiagnosticRelatedInformation(location=location(uri, span, positions), message=message)
        for message, span in found.related
    ]
    return types.Diagnostic(
        range=positions.range(found.span),
        message=found.message,
        severity=_SEVERITY.get(found.severity, types.DiagnosticSeverity.Warning),
        code=found.code,
        source=SOURCE,
        related_information=related or None,
        tags=[types.DiagnosticTag.Unnecessary] if rule is not None and rule.unnecessary else None,
    )


def diagnostics(found: Iterable[Diagnostic], positions: Positions, uri: str) -> list[types.Diagnostic]:
    """Every diagnostic of a report, converted."""
    return [diagnostic(d, positions, uri) for d in found]


def workspace_edit(uri: str, edits: list[types.TextEdit], version: int | None, versioned: bool) -> types.WorkspaceEdit:
    """A workspace edit of one document; versioned when the client supports documentChanges."""
    if versioned:
        return types.WorkspaceEdit(
            document_changes=[
                types.TextDocumentEdit(
                    text_document=types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version),
                    edits=list(edits),
                )
            ]
        )
    return types.WorkspaceEdit(changes={uri: list(edits)})


_FENCE = re.compile(r"^```[a-z]*\n?", re.MULTILINE)


def documentation(text: str, markdown: bool = True) -> types.MarkupContent | str:
    """Markdown content, or for a client that does not declare Markdown plain text (code
    fences, backticks and bold markers dropped)."""
    if markdown:
        return types.MarkupContent(kind=types.MarkupKind.Markdown, value=text)
    return _FENCE.sub("", text).replace("**", "").replace("`", "")


# -------------------------------------------------------------------------- features
# The feature modules answer with formscript's own small types; these turn them into LSP.

_SYMBOL_KINDS = {
    "section": types.SymbolKind.Namespace,
    "setting": types.SymbolKind.Property,
    "field": types.SymbolKind.Field,
    "value": types.SymbolKind.Variable,
    "entry": types.SymbolKind.Object,
    "rule": types.SymbolKind.Function,
    "call": types.SymbolKind.Event,
}
_COMPLETION_KINDS = {
    "key": types.CompletionItemKind.Property,
    "value": types.CompletionItemKind.EnumMember,
    "field": types.CompletionItemKind.Field,
    "snippet": types.CompletionItemKind.Snippet,
}


def hover(found: HoverText, positions: Positions, md: bool = True) -> types.Hover:
    """A hover from a ``hover.HoverText``."""
    span = found.span
    return types.Hover(
        contents=documentation(found.markdown, md), range=positions.range(span) if span is not None else None
    )


def completion_item(
    found: Suggestion, positions: Positions, md: bool = True, as_is: bool = True
) -> types.CompletionItem:
    """A completion item from a ``completion.Suggestion`` (its later lines indented for their
    column when *as_is*, else relative to the line's: ``completion.complete``)."""
    return types.CompletionItem(
        label=found.label,
        kind=_COMPLETION_KINDS.get(found.kind, types.CompletionItemKind.Text),
        detail=found.detail or None,
        documentation=documentation(found.documentation, md) if found.documentation else None,
        sort_text=found.sort or None,
        filter_text=(found.filter or found.label) if found.kind != "snippet" else None,
        insert_text_format=(types.InsertTextFormat.Snippet if found.snippet else types.InsertTextFormat.PlainText),
        insert_text_mode=types.InsertTextMode.AsIs if as_is else types.InsertTextMode.AdjustIndentation,
        text_edit=types.TextEdit(range=positions.range(found.replace), new_text=found.insert),
    )


def document_symbol(found: Symbol, positions: Positions) -> types.DocumentSymbol:
    """A document symbol (with children) from a ``navigation.Symbol``."""
    return types.DocumentSymbol(
        name=found.name,
        kind=_SYMBOL_KINDS.get(found.kind, types.SymbolKind.Object),
        range=positions.range(found.span),
        selection_range=positions.range(found.selection),
        detail=found.detail or None,
        children=[document_symbol(c, positions) for c in found.children] or None,
    )


def symbol_information(
    found: Symbol, positions: Positions, uri: str, container: str | None = None
) -> list[types.SymbolInformation]:
    """Flat symbols, for clients without hierarchical document symbols."""
    out = [
        types.SymbolInformation(
            name=found.name,
            kind=_SYMBOL_KINDS.get(found.kind, types.SymbolKind.Object),
            location=types.Location(uri=uri, range=positions.range(found.span)),
            container_name=container,
        )
    ]
    for child in found.children:
        out.extend(symbol_information(child, positions, uri, found.name))
    return out


def location(uri: str, span: Span, positions: Positions) -> types.Location:
    """A location in the document *uri*."""
    return types.Location(uri=uri, range=positions.range(span))


def code_lens(found: Lens, positions: Positions) -> types.CodeLens:
    """A code lens from a ``lenses.Lens``."""
    return types.CodeLens(
        range=positions.range(found.span),
        command=types.Command(title=found.title, command=found.command, arguments=list(found.arguments)),
    )


def inlay_hint(found: Hint, positions: Positions) -> types.InlayHint:
    """An inlay hint from a ``lenses.Hint``."""
    return types.InlayHint(
        position=positions.position(found.pos),
        label=found.label,
        padding_left=True,
        tooltip=found.tooltip or None,
    )


def code_action(
    found: Action, positions: Positions, uri: str, version: int | None, versioned: bool
) -> types.CodeAction:
    """A code action from an ``actions.Action``."""
    edits = [types.TextEdit(range=positions.range(e.span), new_text=e.new_text) for e in found.edits]
    command = None
    if found.command is not None:
        command = types.Command(title=found.title, command=found.command, arguments=list(found.arguments))
    return types.CodeAction(
        title=found.title,
        kind=found.kind,
        diagnostics=[diagnostic(d, positions, uri) for d in found.diagnostics] or None,
        is_preferred=True if found.preferred else None,
        edit=workspace_edit(uri, edits, version, versioned) if edits or command is None else None,
        command=command,
    )
