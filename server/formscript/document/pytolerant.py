"""A Python file read while it is being typed: the parts that parse, without the part that does not.

``ast.parse`` refuses a whole file for one half-typed list. Here the statement that holds the
error is blanked out and the rest parsed again: a top-level statement (a test function with
its decorators, an assignment) as a whole, or, inside a class, the one method or statement of
its body that holds it (a ``pass`` keeps the body a body). Blanked lines stay as empty lines,
so every position outside them is the file's own. This repeats for each error, up to
``MAX_REGIONS`` times; a file that still does not parse, or an error that blanking does not
move, gives up as ``ast.parse`` does.
"""

from __future__ import annotations

import ast
import contextlib
import io
import re
import tokenize
import warnings
from typing import NamedTuple

__all__ = ["Blanked", "parse", "parse_tolerantly"]

#: Errors at most blanked out of one file before it is given up (a file broken everywhere
#: is not being typed: it is not Python).
MAX_REGIONS = 20

#: Words that continue the statement above them (``if``/``try``) rather than start one.
_CONTINUES = frozenset({"else", "elif", "except", "finally"})
_WORD = re.compile(r"[A-Za-z_]+")
#: Where Python names the line an error belongs to ("expected an indented block after
#: function definition on line 3" is reported on the line after it).
_ON_LINE = re.compile(r"on line (\d+)")


class Blanked(NamedTuple):
    """A region left out: its first and last line (1-based), and Python's error there."""

    first: int
    last: int
    message: str
    line: int


def parse(source: str) -> ast.Module:
    """``ast.parse(source)``, without the warnings the compiler gives about the file's own code
    (an invalid escape such as ``"\\d"`` is a SyntaxWarning from Python 3.12): they are the
    file's business, and would reach the user's terminal without the file's name."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ast.parse(source)


def parse_tolerantly(source: str) -> tuple[ast.Module, str, list[Blanked]]:
    """The module of *source*, the text it was parsed from (*source* with the regions blanked)
    and the regions; raises the first SyntaxError (or ValueError, for a NUL byte) when no
    blanking makes it parse."""
    try:
        return parse(source), source, []
    except SyntaxError as exc:
        first = error = exc
    lines = source.splitlines(keepends=True)
    original = list(lines)
    blanked: list[Blanked] = []
    done: list[tuple[int, int]] = []  # the regions blanked, as [start, end) of 0-based lines
    text = source
    for _ in range(MAX_REGIONS):
        named = _ON_LINE.search(str(error.msg))
        number = int(named.group(1)) if named else error.lineno or len(lines)
        line = min(max(number - 1, 0), max(len(lines) - 1, 0))
        line = _opened_at(text, line)
        region = _region(lines, line, done)
        if region is None:
            raise first
        start, end, filler = region
        done.append((start, end))
        for index in range(start, end):
            lines[index] = _newline(lines[index])
        if filler:
            lines[start] = filler + _newline(lines[start])
        shown = end
        while shown > start + 1 and not original[shown - 1].strip():
            shown -= 1  # the blank lines after a statement are not part of what is left out
        blanked.append(Blanked(start + 1, shown, str(error.msg), line + 1))
        text = "".join(lines)
        try:
            return parse(text), text, sorted(blanked)
        except SyntaxError as again:
            error = again
    raise first


def _region(lines: list[str], line: int, done: list[tuple[int, int]]) -> tuple[int, int, str] | None:
    """The lines to blank for an error at *line* (0-based): start, end (exclusive) and the
    text its first line gets (``pass`` inside a class body); None when nothing new is left."""
    top_start, top_end = _statement(lines, line, 0, 0, len(lines))
    header = _header(lines, top_start, top_end)
    if header is not None and lines[header].lstrip().startswith("class "):
        body = _body_indent(lines, header + 1, top_end)
        if body is not None and line > header:
            start, end = _statement(lines, line, body, header + 1, top_end)
            if start > header and not _covered(done, start, end):
                return start, end, " " * body + "pass"
    return None if _covered(done, top_start, top_end) else (top_start, top_end, "")


def _opened_at(text: str, line: int) -> int:
    """The line of the outermost bracket still open where *line* (0-based) begins, else
    *line*: inside an unclosed ``[``, the next ``def`` is where Python sees the error."""
    opened: list[int] = []
    with contextlib.suppress(tokenize.TokenError, SyntaxError):
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.start[0] - 1 >= line:
                break
            if token.type == tokenize.OP and token.string in "([{":
                opened.append(token.start[0] - 1)
            elif token.type == tokenize.OP and token.string in ")]}" and opened:
                opened.pop()
    return opened[0] if opened else line


def _covered(done: list[tuple[int, int]], start: int, end: int) -> bool:
    return any(first <= start and end <= last for first, last in done)


def _statement(lines: list[str], line: int, indent: int, low: int, high: int) -> tuple[int, int]:
    """The statement at *indent* holding *line*, within lines [low, high): from the last line
    at or before *line* that starts one at that indentation (with the decorators above it),
    to the next that does."""
    start = line
    while start > low and not _starts(lines[start], indent):
        start -= 1
    while start > low and _starts(lines[start - 1], indent) and lines[start - 1].lstrip().startswith("@"):
        start -= 1
    end = line + 1
    while end < high and not _starts(lines[end], indent):
        end += 1
    while end > start + 1 and lines[end - 1].lstrip().startswith("@"):
        end -= 1  # the decorators of the next statement are its own
    return start, end


def _starts(line: str, indent: int) -> bool:
    """Whether *line* starts a statement at *indent* (blank lines, comments, closing brackets
    and ``else``/``except``... do not)."""
    stripped = line.lstrip(" \t")
    if not stripped.strip() or stripped.startswith("#") or len(line) - len(stripped) != indent:
        return False
    if stripped[0] in ")]}":
        return False
    word = _WORD.match(stripped)
    return word is None or word.group() not in _CONTINUES


def _header(lines: list[str], start: int, end: int) -> int | None:
    """The line of the ``def``/``class`` a statement begins with (after its decorators)."""
    for index in range(start, end):
        stripped = lines[index].lstrip()
        if not stripped.startswith("@"):
            return index if stripped.startswith(("class ", "def ", "async def ")) else None
    return None


def _body_indent(lines: list[str], start: int, end: int) -> int | None:
    """The indentation of the first statement of a block's body."""
    for index in range(start, end):
        stripped = lines[index].lstrip(" \t")
        if stripped.strip() and not stripped.startswith("#"):
            indent = len(lines[index]) - len(stripped)
            return indent if indent > 0 else None
    return None


def _newline(line: str) -> str:
    return line[len(line.rstrip("\r\n")) :]
