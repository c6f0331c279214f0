"""Completion inside the literals a Python file hands to lionagi: the keys of the dict the
cursor is in (not yet written) and the enum values of the key whose value it is in, from the
same key knowledge as YAML (``core/keys.py``).

A Python file being typed rarely parses (``{"type": "text", "co`` is not Python), so the
cursor's text is completed the few ways it can be — the string closed, a value given to a key,
an empty key or value written — and the first that parses into a document holding the cursor
answers. Outside any document nothing is offered: the user's own Python server answers there.

A client that does not offer ``insertReplaceSupport`` may insert the text as a word: from the
start of the word at the cursor to the cursor, leaving the rest (Neovim's omnifunc, 0.7 to 0.12,
ignores the edit's range). Its items replace just that, never a quote nor what follows the
cursor: ``"co|"`` becomes ``"content"``, not ``"content""``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from formscript.document import Pos, Span
from formscript.lint.python_lint import lint_python
from formscript.lsp.analysis import Analysis
from formscript.lsp.completion import Suggestion, keys, values
from formscript.lsp.context import CursorContext, node_at
from formscript.lsp.facade import owner_of


@dataclass(frozen=True)
class _Attempt:
    """The text with the cursor's token completed; where the cursor sits in it."""

    text: str
    at: Pos
    #: key or value: what the cursor's token is taken to be.
    where: str
    #: The span of the original text the suggestion replaces.
    replace: Span
    #: The quote character to write (the user's own, when typing inside a string).
    quote: str
    #: Whether the key written needs its ``: `` (it has no value in the original).
    needs_colon: bool


def _string_at(line: str, column: int) -> tuple[int, str] | None:
    """The start column and quote of the one-line string literal *column* is inside."""
    quote: str | None = None
    start = 0
    index = 0
    while index < min(column, len(line)):
        char = line[index]
        if quote is None:
            if char == "#":
                return None
            if char in "\"'":
                quote, start = char, index
        elif char == "\\":
            index += 1
        elif char == quote:
            quote = None
        index += 1
    return (start, quote) if quote is not None else None


def _attempts(text: str, pos: Pos) -> Iterator[_Attempt]:
    lines = text.split("\n")
    if not 0 <= pos.line < len(lines):
        return
    line = lines[pos.line]
    column = min(pos.column, len(line))
    before = "\n".join([*lines[: pos.line], line[:column]])
    after_cursor = line[column:]
    after = "\n".join([after_cursor, *lines[pos.line + 1 :]])
    inside = _string_at(line, column)
    if inside is not None:
        start, quote = inside
        close = after_cursor.find(quote)
        if close >= 0:  # the editor closed the string: "co|"
            end = Pos(pos.line, column + close + 1)
            token = Span(Pos(pos.line, start), end)
            yield _Attempt(text, pos, "value", token, quote, False)
            yield _Attempt(text, pos, "key", token, quote, False)
            closed = before + after_cursor[: close + 1] + ": 0" + after[close + 1 :]
            yield _Attempt(closed, pos, "key", token, quote, True)
        else:  # "co|
            token = Span(Pos(pos.line, start), pos)
            for close_dict in ("", "}"):  # the dict may not be closed yet either
                yield _Attempt(before + quote + ": 0" + close_dict + after, pos, "key", token, quote, True)
                yield _Attempt(before + quote + close_dict + after, pos, "value", token, quote, False)
        return
    here = Span(pos, pos)
    inner = Pos(pos.line, column + 1)
    for close_dict in ("", "}"):
        yield _Attempt(before + '"": 0' + (close_dict or ", ") + after, inner, "key", here, '"', True)
        yield _Attempt(before + '""' + close_dict + after, inner, "value", here, '"', False)


def complete_python(analysis: Analysis, pos: Pos, whole_token: bool = True) -> list[Suggestion]:
    """Keys and enum values for the cursor inside a document of the Python file; each replaces
    the whole token (its quotes too) when *whole_token*, else only the word before *pos*."""
    found = _complete(analysis, pos)
    if whole_token:
        return found
    return [_up_to_cursor(s, analysis.text, pos) for s in found]


def _up_to_cursor(found: Suggestion, text: str, pos: Pos) -> Suggestion:
    """*found* replacing only the word before *pos*: the user's opening quote and the text after
    the cursor (a closing quote) are left as they are, and not written again."""
    start, end = found.replace
    if start.line != pos.line or end.line != pos.line:
        return found
    line = text.split("\n")[pos.line]
    insert = found.insert
    if start.column < pos.column and line[start.column] in "\"'" and insert.startswith(line[start.column]):
        insert, start, found = insert[1:], Pos(start.line, start.column + 1), replace(found, filter="")
    if end > pos:
        tail = line[pos.column : end.column]
        if tail and tail in insert:
            insert = insert[: insert.rindex(tail)]
    return replace(found, insert=insert, replace=Span(start, pos))


def _complete(analysis: Analysis, pos: Pos) -> list[Suggestion]:
    for attempt in _attempts(analysis.text, pos):
        if attempt.text is analysis.text:
            trial = analysis
        else:
            report = lint_python(attempt.text, analysis.path, settings=analysis.settings, fixes=False)
            trial = replace(analysis, text=attempt.text, report=report)
        part = trial.part_at(attempt.at)
        if part is None or part.document is None or part.kind is None:
            continue
        hit = node_at(part.document, attempt.at)
        if hit is None:
            continue
        path, on_key = hit
        if on_key != (attempt.where == "key") or not path:
            continue
        return _suggest(part, path, attempt)
    return []


def _written(value: Any) -> str:
    return value if isinstance(value, str) else repr(value)


def _suggest(part: Analysis, path: tuple[Any, ...], attempt: _Attempt) -> list[Suggestion]:
    parent, name = path[:-1], path[-1]
    owner = owner_of(part.kind, parent)
    if owner is None:
        return []
    value = part.value_at(parent)
    present = {str(k): _written(v) for k, v in value.items() if k != name} if isinstance(value, dict) else {}
    q = attempt.quote
    token = attempt.text.split("\n")[attempt.replace.start.line][attempt.replace.start.column :]

    def quoted(name: str) -> str:
        """What the client matches against the token (the quote too, when the token has it)."""
        return f"{q}{name}{q}" if token[:1] == q and attempt.replace.start != attempt.replace.end else ""

    if attempt.where == "key":
        colon = ": " if attempt.needs_colon else ""
        in_dict = CursorContext("key", parent, present=present, in_flow=True)  # a dict is a flow mapping
        return [
            replace(found, insert=f"{q}{found.label}{q}{colon}", snippet=False, filter=quoted(found.label))
            for found in keys(owner, in_dict, attempt.replace, present)
        ]
    if not isinstance(name, str):
        return []
    return [
        replace(found, insert=f"{q}{found.insert}{q}", filter=quoted(found.label))
        for found in values(owner, name, present, attempt.replace)
    ]
