"""A script that does not load, checked but for its broken entries (``tolerate``): when its head
and all but some entries parse alone, a document of those, whose problems are the syntax errors
of the entries that do not, each at its cause."""

from __future__ import annotations

import bisect
import dataclasses

from formscript.core.verdict import Problem
from formscript.document.located import YamlDocument, parse_document
from formscript.document.segments import (
    Part,
    SplicedDocument,
    Split,
    entry_parsed,
    head_doc,
    moved_span,
    split_entries,
    too_deep_piece,
    views_except,
)

__all__ = ["tolerate"]


def tolerate(text: str, refused: tuple[int, ...] = ()) -> SplicedDocument | None:
    """For a text that does not load: when its head and all but some entries parse alone, a
    document of those (the others ``None``), whose problems are the syntax errors of the
    entries that do not parse alone, each found at its cause within that entry. None when
    the split cannot be made or every entry parses alone (the error lies between entries).

    *refused*: the lines where libyaml refused the text (``YamlDocument.refused_lines``);
    the entries there are tried first (``_tolerate_around``), so a file with one broken
    entry among many is parsed about twice, not once per entry."""
    split = split_entries(text)
    if split is None:
        return None
    head = head_doc(split.head)
    if head is None:
        return None
    if refused:
        around = _tolerate_around(text, split, head, refused)
        if around is not None:
            return around
    parts: list[Part | None] = []
    problems: list[Problem] = []
    ends = [*split.offsets[1:], len(text)]
    for begin, end, line in zip(split.offsets, ends, split.lines, strict=True):
        piece = text[begin:end]
        last = end == len(text)
        alone, whole_item = entry_parsed(piece, split.indent, last)
        doc = alone if whole_item else None
        if doc is not None and too_deep_piece(piece):
            return None
        if doc is None:
            found = [p for p in alone.problems if p.span is not None]
            if alone.ok or not found:
                return None  # it parses, as something other than one entry: not tolerated
            for problem in found:
                assert problem.span is not None
                problems.append(dataclasses.replace(problem, span=moved_span(problem.span, line)))
        parts.append(doc)
    if len(problems) == 0:
        return None
    return SplicedDocument(text, head, parts, split.lines, split.offsets, split.indent, problems=problems)


#: How many times ``_tolerate_around`` parses the whole text before leaving it to the
#: entry-by-entry way (each time it has found another entry that does not parse alone).
_AROUND_ROUNDS = 4


def _tolerate_around(text: str, split: Split, head: YamlDocument, refused: tuple[int, ...]) -> SplicedDocument | None:
    """What ``tolerate`` answers, found from where libyaml refused the text: the entries at
    those lines that do not parse alone are written over with comment lines (the lines kept,
    so every position stays), and the text is parsed again, until it parses; its entries are
    then views of that parse (``views_except``). Each entry kept so parses alone as it does
    there (the argument of ``_adopted``: a comment line between entries holds no token), and
    each entry written over was seen not to parse alone: the same entries as parsing every
    entry alone finds. None wherever that does not hold plainly: ``tolerate`` then parses
    every entry alone."""
    offsets, lines, indent = split.offsets, split.lines, split.indent
    count = len(offsets)
    ends = [*offsets[1:], len(text)]
    broken: dict[int, list[Problem]] = {}
    marks = refused
    for _ in range(_AROUND_ROUNDS):
        candidates: set[int] = set()
        for line in marks:
            at = bisect.bisect_right(lines, line) - 1
            candidates.update(i for i in (at - 1, at) if 0 <= i < count and i not in broken)
        found_more = False
        for index in sorted(candidates):
            alone, whole_item = entry_parsed(text[offsets[index] : ends[index]], indent, ends[index] == len(text))
            if whole_item:
                continue
            found = [p for p in alone.problems if p.span is not None]
            if alone.ok or not found:
                return None
            broken[index] = [
                dataclasses.replace(p, span=moved_span(p.span, lines[index])) for p in found if p.span is not None
            ]
            found_more = True
        if not found_more:
            return None
        whole = parse_document(_written_over(text, offsets, ends, broken, indent), confirm=False)
        if whole.unconfirmed:
            marks = whole.refused_lines
            continue
        parts = views_except(whole, text, split, broken)
        if parts is None:
            return None
        problems = [problem for index in sorted(broken) for problem in broken[index]]
        return SplicedDocument(text, head, parts, lines, offsets, indent, problems=problems)
    return None


def _written_over(text: str, offsets: list[int], ends: list[int], broken: dict[int, list[Problem]], indent: int) -> str:
    """*text* with each line of the *broken* entries replaced by a comment at the entries'
    indent (an empty last line stays empty)."""
    comment = " " * indent + "#"
    out: list[str] = []
    done = 0
    for index in sorted(broken):
        begin, end = offsets[index], ends[index]
        out.append(text[done:begin])
        rows = text[begin:end].split("\n")
        out.append("\n".join([comment] * (len(rows) - 1) + ([comment] if rows[-1] else [""])))
        done = end
    out.append(text[done:])
    return "".join(out)
