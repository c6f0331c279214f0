"""Conversions between formscript's domain objects and LSP types: the only module that knows
how a client counts positions.

Inside formscript a position is a YAML line and a column in Unicode code points
(``document.located.Pos``). A client counts lines by ``\\n``, ``\\r\\n`` and ``\\r`` only,
and columns in the code units of the negotiated position encoding (UTF-16 unless the client
offers another). YAML 1.1 also breaks lines at NEL, LS and PS, and the linter drops a
leading byte-order mark, so the mapping goes through absolute offsets when either occurs.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from lsprotocol import types

from formscript import rules
from formscript.document import Pos, Span
from formscript.lint.diagnostics import Diagnostic
from formscript.lsp.facade import common_ends

if TYPE_CHECKING:
    from formscript.lsp.actions import Action
    from formscript.lsp.completion import Suggestion
    from formscript.lsp.hover import HoverText
    from formscript.lsp.lenses import Hint, Lens
    from formscript.lsp.navigation import Symbol

UTF8 = types.PositionEncodingKind.Utf8
UTF16 = types.PositionEncodingKind.Utf16
UTF32 = types.PositionEncodingKind.Utf32
SUPPORTED_ENCODINGS: tuple[str, ...] = (UTF8.value, UTF16.value, UTF32.value)

SOURCE = "formscript"

_LSP_BREAK = re.compile(r"\r\n|\r|\n")
_YAML_BREAK = re.compile(r"\r\n|\r|\n|\x85|\u2028|\u2029")
_EXOTIC = ("\x85", "\u2028", "\u2029")

_SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "info": types.DiagnosticSeverity.Information,
    "hint": types.DiagnosticSeverity.Hint,
}


def choose_encoding(offered: Sequence[str] | None) -> str:
    """The first encoding the client offers that we support; UTF-16 when it offers none."""
    for encoding in offered or ():
        if str(encoding) in SUPPORTED_ENCODINGS:
            return str(encoding)
    return UTF16.value


def _units(text: str, encoding: str) -> int:
    if encoding == UTF32.value or text.isascii():
        return len(text)
    if encoding == UTF8.value:
        return len(text.encode("utf-8"))
    return len(text.encode("utf-16-le")) // 2


def _char_units(char: str, encoding: str) -> int:
    code = ord(char)
    if encoding == UTF32.value:
        return 1
    if encoding == UTF8.value:
        return 1 if code < 0x80 else 2 if code < 0x800 else 3 if code < 0x10000 else 4
    return 2 if code > 0xFFFF else 1


def _line_starts(text: str, pattern: re.Pattern[str]) -> list[int]:
    return [0, *(m.end() for m in pattern.finditer(text))]


def _lsp_lines(text: str, previous: Positions | None) -> list[str]:
    """*text*'s LSP lines; from *previous* (an earlier text's) those the difference between
    the two texts leaves alone, so that only the lines an edit touches are split again."""
    if "\r" in text:
        return _LSP_BREAK.split(text)
    if previous is None or "\r" in previous.text:
        return text.split("\n")
    old = previous.text
    if old == text:
        return list(previous.lines)
    prefix, suffix = common_ends(old, text)
    begin = old.rfind("\n", 0, prefix) + 1  # the first line the difference touches
    first = old.count("\n", 0, begin)
    after = old.find("\n", len(old) - suffix)  # the line break after it, in the common end
    if after < 0:
        return [*previous.lines[:first], *text[begin:].split("\n")]
    kept = old.count("\n", after)  # the lines after that break: as they were
    stop = after + len(text) - len(old)
    return [*previous.lines[:first], *text[begin:stop].split("\n"), *previous.lines[len(previous.lines) - kept :]]


class Positions:
    """Converts positions of one text between formscript (YAML lines, code points) and a
    client (LSP lines, code units of *encoding*). Made with the *previous* version's, it
    splits only the lines the edit between them touches (the lines are the same)."""

    def __init__(self, text: str, encoding: str = UTF16.value, previous: Positions | None = None) -> None:
        self.text = text
        self.encoding = encoding
        self.lines = _lsp_lines(text, previous)
        self._bom = 1 if text.startswith("\ufeff") else 0
        self._exotic = any(c in text for c in _EXOTIC)
        self._lsp_starts: list[int] | None = None
        self._yaml_starts: list[int] | None = None

    # -- formscript -> client -----------------------------------------------------------

    def _lsp_line_col(self, pos: Pos) -> tuple[int, int]:
        """The LSP line and code-point column of a formscript position."""
        if not self._exotic:
            column = pos.column + (self._bom if pos.line == 0 else 0)
            return pos.line, column
        if self._yaml_starts is None:
            self._yaml_starts = _line_starts(self.text[self._bom :], _YAML_BREAK)
            self._lsp_starts = _line_starts(self.text, _LSP_BREAK)
        assert self._lsp_starts is not None
        line = min(pos.line, len(self._yaml_starts) - 1)
        offset = self._yaml_starts[line] + pos.column + self._bom
        lsp_line = bisect.bisect_right(self._lsp_starts, offset) - 1
        return lsp_line, offset - self._lsp_starts[lsp_line]

    def position(self, pos: Pos) -> types.Position:
        """The client position of *pos*, clamped to the text."""
        line, column = self._lsp_line_col(pos)
        if line >= len(self.lines):
            last = len(self.lines) - 1
            return types.Position(last, _units(self.lines[last], self.encoding))
        text = self.lines[line]
        column = min(max(column, 0), len(text))
        return types.Position(line, _units(text[:column], self.encoding))

    def range(self, span: Span) -> types.Range:
        """The client range of *span*."""
        return types.Range(self.position(span.start), self.position(span.end))

    # -- client -> formscript -----------------------------------------------------------

    def code_point_column(self, position: types.Position) -> tuple[int, int]:
        """The LSP line and code-point column of a client position, clamped to the text."""
        line = min(max(position.line, 0), len(self.lines) - 1)
        text = self.lines[line]
        wanted = max(position.character, 0)
        if self.encoding == UTF32.value or text.isascii():
            return line, min(wanted, len(text))
        counted = 0
        for index, char in enumerate(text):
            if counted >= wanted:
                return line, index
            counted += _char_units(char, self.encoding)
        return line, len(text)

    def pos(self, position: types.Position) -> Pos:
        """The formscript position of a client position."""
        line, column = self.code_point_column(position)
        if not self._exotic:
            if line == 0:
                column = max(column - self._bom, 0)
            return Pos(line, column)
        if self._yaml_starts is None:
            self._yaml_starts = _line_starts(self.text[self._bom :], _YAML_BREAK)
            self._lsp_starts = _line_starts(self.text, _LSP_BREAK)
        assert self._lsp_starts is not None
        offset = max(self._lsp_starts[line] + column - self._bom, 0)
        yaml_line = bisect.bisect_right(self._yaml_starts, offset) - 1
        return Pos(yaml_line, offset - self._yaml_starts[yaml_line])


# ------------------------------------------------------------------------------ diagnostics


def severity(level: str) -> types.DiagnosticSeverity:
    """The LSP severity of a formscript severity."""
    return _SEVERITY.get(level, types.DiagnosticSeverity.Warning)


def diagnostic(found: Diagnostic, positions: Positions, uri: str) -> types.Diagnostic:
    """An LSP diagnostic with the lint's code, message and severity; faded when its rule marks
    dead text. No codeDescription: the rule pages have no web address (``formscript.ruleDoc``
    and ``formscript rule CODE`` show them; the documentation site has them all)."""
    rule = rules.get(found.code)
    related = [
        types.DiagnosticRelatedInformation(
            location=types.Location(uri=uri, range=positions.range(span)), message=message
        )
        for message, span in found.related
    ]
    return types.Diagnostic(
        range=positions.range(found.span),
        message=found.message,
        severity=severity(found.severity),
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


def markdown(text: str) -> types.MarkupContent:
    """Markdown content."""
    return types.MarkupContent(kind=types.MarkupKind.Markdown, value=text)


def documentation(text: str, supported: bool = True) -> types.MarkupContent | str:
    """Markdown content, or a plain string for a client that does not declare Markdown."""
    return markdown(text) if supported else plain_text(text)


_FENCE = re.compile(r"^```[a-z]*\n?", re.MULTILINE)


def plain_text(text: str) -> str:
    """Markdown as plain text: code fences, backticks and bold markers dropped."""
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
