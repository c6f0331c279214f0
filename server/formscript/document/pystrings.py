"""String literals mapped character by character (``text_positions``): the position in the
file of each character of the string's value, through escapes, implicit concatenation,
``textwrap.dedent`` and ``strip``, so a YAML text written inside a Python string is located in
the Python file; and the quote a literal is written with (``quote_of``)."""

from __future__ import annotations

import ast
import os
import re
import textwrap
from dataclasses import dataclass

from formscript.document.model import Pos
from formscript.document.pyliteral import STR_METHODS, NameResolver, SourceLines

_PREFIX_QUOTE = re.compile(r"(?P<prefix>[rRuUbBfF]{0,2})(?P<quote>'''|\"\"\"|'|\")")


def quote_of(text: str) -> str:
    """The prefix and quote of a string literal's source *text* when it is one plain literal
    (no implicit concatenation, no raw prefix), else ''."""
    match = _PREFIX_QUOTE.match(text)
    if match is None:
        return ""
    prefix, quote = match.group("prefix"), match.group("quote")
    if prefix.lower() not in ("", "u"):
        return ""
    body = text[match.end() :]
    if not body.endswith(quote) or len(body) < len(quote):
        return ""
    inner = body[: -len(quote)]
    if quote in inner.replace("\\\\", "").replace("\\" + quote[0], ""):
        return ""  # more than one literal
    return prefix + quote


_SIMPLE_ESCAPES = {
    "\\": "\\",
    "'": "'",
    '"': '"',
    "a": "\a",
    "b": "\b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "v": "\v",
}
_OCTAL = re.compile(r"[0-7]{1,3}")


def _decode_literal(source: str, start: int) -> tuple[str, list[int], int, str] | None:
    """Decode the string literal beginning at *source*[*start*]: its value, the source offset
    of each character, the offset just past the literal and its quote character (None when
    no literal begins or ends there). The literal is one piece of a string constant Python
    parsed: never bytes or an f-string, and its escapes are valid."""
    match = _PREFIX_QUOTE.match(source, start)
    if match is None:
        return None
    raw = "r" in match.group("prefix").lower()
    quote = match.group("quote")
    index = match.end()
    chars: list[str] = []
    offsets: list[int] = []
    while index < len(source):
        if source.startswith(quote, index):
            return "".join(chars), offsets, index + len(quote), quote[0]
        char = source[index]
        if char == "\\" and raw:  # the backslash and the character after it, as written
            pair = source[index : index + 2]
            chars.extend(pair)
            offsets.extend(range(index, index + len(pair)))
            index += 2
        elif char == "\\":
            text, length = _escape(source, index)
            chars.extend(text)
            offsets.extend([index] * len(text))
            index += length
        elif char == "\r":
            chars.append("\n")  # the tokenizer reads \r\n and \r inside a string as \n
            offsets.append(index)
            index += 2 if source.startswith("\r\n", index) else 1
        else:
            chars.append(char)
            offsets.append(index)
            index += 1
    return None


def _escape(source: str, index: int) -> tuple[str, int]:
    """The text an escape at *index* stands for and its length in the source (an escape of a
    literal Python parsed: its digits and its name are valid)."""
    kind = source[index + 1]
    if kind in _SIMPLE_ESCAPES:
        return _SIMPLE_ESCAPES[kind], 2
    if kind == "\n":
        return "", 2
    if kind == "\r":
        return "", 3 if source.startswith("\r\n", index + 1) else 2
    octal = _OCTAL.match(source, index + 1)
    if octal is not None:
        return chr(int(octal.group(), 8)), 1 + len(octal.group())
    widths = {"x": 2, "u": 4, "U": 8}
    if kind in widths:
        digits = source[index + 2 : index + 2 + widths[kind]]
        return chr(int(digits, 16)), 2 + widths[kind]
    if kind == "N":
        close = source.find("}", index + 3)
        import unicodedata

        return unicodedata.lookup(source[index + 3 : close]), close + 1 - index
    return "\\" + kind, 2  # an unknown escape keeps its backslash


_BETWEEN = re.compile(r"(?:[ \t\f]|\\\r?\n|\r?\n|#[^\r\n]*)*")


def _literal_positions(lines: SourceLines, node: ast.Constant) -> TextPositions | None:
    """The characters of a string constant with their file positions, and the position of
    its closing quote (None when the source cannot be decoded to the same value)."""
    span = lines.span(node)
    text = lines.text
    start, stop = lines.index.offset(span.start), lines.index.offset(span.end)
    chars: list[str] = []
    offsets: list[int] = []
    quotes: set[str] = set()
    index = start
    closing = start
    while index < stop:
        decoded = _decode_literal(text, index)
        if decoded is None:
            return None
        value, where, after, quote = decoded
        quotes.add(quote)
        chars.extend(value)
        offsets.extend(where)
        closing = after - 1
        gap = _BETWEEN.match(text, after, stop)
        index = gap.end() if gap is not None else after
        if index == after and index < stop:
            return None
    if "".join(chars) != node.value:
        return None
    positions = [lines.index.pos(offset) for offset in [*offsets, closing]]
    return TextPositions("".join(chars), tuple(positions[:-1]), positions[-1], frozenset(quotes))


@dataclass(frozen=True)
class TextPositions:
    """A string's value and, for each of its characters, where it is written in the file;
    ``end`` is where the text ends (the closing quote, or the character after the last)."""

    text: str
    positions: tuple[Pos, ...]
    end: Pos
    #: The quote characters of the literals the text is written in.
    quotes: frozenset[str] = frozenset()

    def at(self, offset: int) -> Pos:
        """The file position of character *offset* (the end for the offset past the last)."""
        if 0 <= offset < len(self.positions):
            return self.positions[offset]
        return self.end


def text_positions(lines: SourceLines, node: ast.expr, resolve: NameResolver) -> TextPositions | None:
    """The value of a string expression with the file position of each character: a string
    literal (escapes and implicit concatenation decoded), ``textwrap.dedent(...)`` or
    ``dedent(...)`` of one, and ``.strip()`` / ``.lstrip()`` / ``.rstrip()`` of either, or a
    name bound once to one of those. None for anything else."""
    for _ in range(20):
        if not isinstance(node, ast.Name):
            break
        bound = resolve(node)
        if bound is None:
            return None
        node = bound
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return _literal_positions(lines, node)
    if not isinstance(node, ast.Call) or node.keywords:
        return None
    func = node.func
    if isinstance(func, ast.Attribute) and func.attr in STR_METHODS and not node.args:
        inner = text_positions(lines, func.value, resolve)
        return _stripped(inner, func.attr) if inner is not None else None
    dedent = (isinstance(func, ast.Name) and func.id == "dedent") or (
        isinstance(func, ast.Attribute) and func.attr == "dedent"
    )
    if dedent and len(node.args) == 1:
        inner = text_positions(lines, node.args[0], resolve)
        return _dedented(inner) if inner is not None else None
    return None


def _stripped(inner: TextPositions, how: str) -> TextPositions:
    text = inner.text
    head = len(text) - len(text.lstrip()) if how in ("strip", "lstrip") else 0
    kept = getattr(text, how)()
    positions = inner.positions[head : head + len(kept)]
    end = inner.at(head + len(kept))
    return TextPositions(kept, positions, end, inner.quotes)


def _dedented(inner: TextPositions) -> TextPositions | None:
    """textwrap.dedent with the positions kept (checked against textwrap itself)."""
    text = inner.text
    lines = text.split("\n")
    indents = [line[: len(line) - len(line.lstrip(" \t"))] for line in lines if line.strip(" \t")]
    common = os.path.commonprefix(indents)  # noqa: RUF071 (the common characters of the indents)
    kept: list[int] = []
    start = 0
    for line in lines:
        # what follows the common indent (all of a blank line goes), and the line break
        skip = len(common) if line.strip(" \t") else len(line)
        kept.extend(range(start + skip, min(start + len(line) + 1, len(text))))
        start += len(line) + 1
    result = "".join(text[i] for i in kept)
    if result != textwrap.dedent(text):
        return None
    return TextPositions(result, tuple(inner.positions[i] for i in kept), inner.end, inner.quotes)
