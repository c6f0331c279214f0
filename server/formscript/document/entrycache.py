"""The entries of a script's versions, kept by their text (``EntryCache``): an edit parses again
only the entries between the common prefix and suffix of two versions, and a whole parse that
splits cleanly is adopted as the first version.

Kept for the keystroke figure ``lint.incremental`` names (an edit re-parses one piece).
"""

from __future__ import annotations

import bisect
import re

from formscript.core.ends import common_ends
from formscript.document.located import YamlDocument
from formscript.document.segments import (
    KEY,
    Part,
    SplicedDocument,
    entry_parsed,
    head_doc,
    line_numbers,
    patterns,
    split_entries,
    too_deep_piece,
    unsplittable,
    views_except,
)
from formscript.document.yamlread import loader_for, safe_loader_class

__all__ = ["EntryCache"]


class EntryCache:
    """The entries of one document parsed alone, across its versions.

    The text last spliced is kept: a new text is compared with it (the common prefix and
    suffix, found by C-speed comparisons), and only the entries in between are split and
    parsed again; the entries before keep their parse and line, those after their parse,
    shifted by the lines the edit added. Entries are also kept by their text, so an entry
    moved elsewhere (or an edit undone) is not parsed again."""

    def __init__(self) -> None:
        self._last: SplicedDocument | None = None
        #: How the last call made its document: "same", "window" (the entries an edit
        #: touched split and parsed again), "whole" (the whole text split) or "adopted"
        #: (the entries taken from a whole parse, ``adopt``); and the entries it parsed.
        self.how = ""
        self.parsed = 0

    def adopt(self, whole: YamlDocument) -> bool:
        """Take *whole* (``parse_document`` of its text) as the last version, its entries
        answered from its own node graph (``EntryView``) instead of parsed again alone, when
        each of them would parse alone to what it is in the whole; whether it was taken."""
        found = _adopted(whole)
        if found is None:
            return False
        self._last, self.how, self.parsed = found, "adopted", 0
        return True

    def document(self, text: str) -> SplicedDocument | None:
        """*text* as a spliced document, re-parsing only entries not seen before; None when
        the split cannot be trusted (see the module's notes)."""
        last = self._last
        self.parsed = 0
        found = self._window(last, text) if last is not None else None
        self.how = "window" if found is not None else "whole"
        if found is None:
            found = self._whole(last, text)
        elif found is last:
            self.how = "same"
        if found is not None:
            self._last = found
        return found

    def _whole(self, last: SplicedDocument | None, text: str) -> SplicedDocument | None:
        split = split_entries(text)
        if split is None:
            return None
        head = last.head if last is not None and last.head.text == split.head else head_doc(split.head)
        if head is None:
            return None
        parts = _parse_parts(self, text, split.offsets, len(text), last.parts if last is not None else [], split.indent)
        if parts is None:
            return None
        return SplicedDocument(text, head, parts, split.lines, split.offsets, split.indent)

    def _window(self, last: SplicedDocument, text: str) -> SplicedDocument | None:
        """*text* spliced from *last* and the entries the difference between them touches,
        or None when the difference reaches the head or may change how the text splits."""
        old = last.text
        if old == text:
            return last
        prefix, suffix = common_ends(old, text)
        offsets, lines = last.offsets, last.starts
        indent = last.indent
        # entries before the edit: their first line (and its item sign) before the change
        begin = bisect.bisect_right(offsets, prefix - indent - 2) - 1
        if begin < 0:
            return None
        old_end, new_end = len(old) - suffix, len(text) - suffix
        # entries after the edit: they start (and the line break before them) after the change
        after = bisect.bisect_right(offsets, old_end)
        shift = len(text) - len(old)
        start = offsets[begin]
        stop = offsets[after] + shift if after < len(offsets) else len(text)
        window = text[start:stop]
        if (
            unsplittable(window)
            or (any(c in window for c in "?{[") and loader_for(text) is not safe_loader_class())
            or re.search(rf"^{KEY}:", window, re.MULTILINE)
        ):
            return None
        item, stray = patterns(indent)
        if stray.search(window):
            return None
        inner = [start + m.start() for m in item.finditer(window)]
        if not inner or inner[0] != start:
            return None
        inner_lines = line_numbers(text, inner, lines[begin], start)
        middle = _parse_parts(self, text, inner, stop, last.parts[begin:after], indent)
        if middle is None:
            return None
        moved = text.count("\n", prefix, new_end) - old.count("\n", prefix, old_end)
        parts = [*last.parts[:begin], *middle, *last.parts[after:]]
        # the entries after: shifted at C speed (``map`` of the bound addition)
        starts = [*lines[:begin], *inner_lines, *(map(moved.__add__, lines[after:]) if moved else lines[after:])]
        new_offsets = [*offsets[:begin], *inner, *map(shift.__add__, offsets[after:])]
        entries = last.value[KEY]
        value = dict(last.value)  # the entries' values spliced as their parts are
        spliced = (part.value[0] if part is not None else None for part in middle)
        value[KEY] = [*entries[:begin], *spliced, *entries[after:]]
        return SplicedDocument(text, last.head, parts, starts, new_offsets, indent, value=value)


def _parse_parts(
    cache: EntryCache, text: str, offsets: list[int], stop: int, earlier: list[Part | None], indent: int
) -> list[Part | None] | None:
    """The entries starting at *offsets* (the last ending at *stop*), each taken from the
    *earlier* parts (by the text it was parsed from) or parsed alone (counted in *cache*);
    None when one does not parse alone."""
    kept: dict[str, list[Part]] = {}
    for part in earlier:
        if part is not None:
            kept.setdefault(part.text, []).append(part)
    parts: list[Part | None] = []
    sign = " " * indent + "-"
    for begin, end in zip(offsets, [*offsets[1:], stop], strict=True):
        piece = text[begin:end]
        last = end == len(text)
        spare = kept.get(piece if last else piece + sign)
        doc: Part | None = spare.pop() if spare else None
        if doc is None:
            cache.parsed += 1
            doc, alone = entry_parsed(piece, indent, last)
            if not alone or too_deep_piece(piece):
                return None
        parts.append(doc)
    return parts


def _adopted(whole: YamlDocument) -> SplicedDocument | None:
    """*whole* as a spliced document of views of its entries, when each entry lies within
    its lines as the split finds them, and so parses alone as it does in the whole: no
    aliases or merge keys (a node shared across entries), no duplicate keys or problems,
    every item of the sequence starting and ending between its item sign and the next."""
    if not whole.ok or whole.unconfirmed or whole.syntax != "yaml":
        return None
    text = whole.text
    split = split_entries(text)
    if split is None:
        return None
    parts = views_except(whole, text, split, {})
    if parts is None:
        return None
    head = head_doc(split.head)
    if head is None:
        return None
    spliced = SplicedDocument(text, head, parts, split.lines, split.offsets, split.indent)
    spliced.whole = whole
    return spliced
