"""The comments of a YAML text (``located``'s ``comments``): each ``#`` outside every token
the scanner produced."""

from __future__ import annotations

import re
from typing import Any

import yaml

from formscript.document.model import Comment, Span
from formscript.document.positions import YAML_BREAKS, LineIndex
from formscript.document.yamlread import loader_for

_BLOCK_HEADER = re.compile(r"[|>][-+0-9]*[ \t]*")


def comments_of(text: str) -> list[Comment]:
    """The comments of a YAML text: each ``#`` outside every token the scanner produced.

    The scanner skips only white space, line breaks and comments between tokens, so any
    ``#`` outside a scalar, tag, anchor, alias or directive token starts a comment. A block
    scalar's token also covers its header line, whose comment is split off here. Where the
    scanner stops at an error, comments after the last token it delivered are unknown and
    not reported.
    """
    covered, known = _token_ranges(text)
    found: list[Comment] = []
    position = LineIndex(text)
    index = text.find("#", 0, known)
    block = 0
    while index >= 0:
        while block < len(covered) and covered[block][1] <= index:
            block += 1
        if block < len(covered) and covered[block][0] <= index:
            index = text.find("#", covered[block][1], known)
            continue
        end = line_end(text, index)
        found.append(Comment(Span(position.pos(index), position.pos(end)), text[index:end]))
        index = text.find("#", end, known)
    return found


def _token_ranges(text: str) -> tuple[list[tuple[int, int]], int]:
    """Sorted, disjoint [start, end) character ranges of the tokens that may hold a ``#``,
    and how far the text was scanned (all of it, unless the scanner fails). As in parsing,
    the runtime's pure-Python scanner decides where libyaml refuses the text."""
    loader_class = yaml.SafeLoader if text.startswith("\ufeff") else loader_for(text)
    ranges, known = _scan(text, loader_class)
    if known < len(text) and loader_class is not yaml.SafeLoader:
        ranges, known = _scan(text, yaml.SafeLoader)
    return ranges, known


def _scan(text: str, loader_class: type[Any]) -> tuple[list[tuple[int, int]], int]:
    ranges: list[tuple[int, int]] = []
    try:
        loader = loader_class(text)
    except yaml.YAMLError:
        return ranges, 0
    known = 0
    try:
        while True:
            token = loader.get_token()
            if token is None or isinstance(token, yaml.StreamEndToken):
                known = len(text)
                break
            start, end = token.start_mark.index, token.end_mark.index
            known = end
            if isinstance(token, yaml.ScalarToken) and token.style in ("|", ">"):
                header = _BLOCK_HEADER.match(text, start)
                header_end = header.end() if header is not None else start + 1
                if header_end < len(text) and text[header_end] == "#":
                    ranges.append((start, header_end))
                    start = line_end(text, header_end)
                ranges.append((start, end))
            elif isinstance(token, yaml.DirectiveToken):
                # an unknown directive's parameters run to the end of its line
                ranges.append((start, end if token.name in ("YAML", "TAG") else line_end(text, end)))
            elif isinstance(token, yaml.ScalarToken | yaml.TagToken | yaml.AnchorToken | yaml.AliasToken):
                ranges.append((start, end))
    except (yaml.YAMLError, RecursionError):
        pass
    finally:
        loader.dispose()
    return ranges, known


def line_end(text: str, index: int) -> int:
    while index < len(text) and text[index] not in YAML_BREAKS:
        index += 1
    return index
