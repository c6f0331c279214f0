"""The outline completion and hover read (``lsp.context.Outline``, kept per version on
``Analysis.outline``) answers exactly as the reading it replaced, which scanned every line it
passed with a regular expression and was rebuilt on every request.

``ReferenceOutline`` below is that earlier reading, unchanged. On generated scripts and forms
(valid, half typed, broken by random edits) every query of the outline, and completion and
hover at many cursor positions, must give the same answer through both: the items, their
order, their text and their edits. Seeded: ``FORMSCRIPT_OUTLINE_DOCUMENTS`` (150 here) and
``FORMSCRIPT_OUTLINE_SEED``.
"""

from __future__ import annotations

import dataclasses
import os
import random

import pytest

from formscript.document import Pos
from formscript.lint.config import Settings
from formscript.lsp import context
from formscript.lsp.analysis import Analysis, analyse
from formscript.lsp.completion import complete
from formscript.lsp.context import Line, Outline, read_line
from formscript.lsp.hover import hover

DOCUMENTS = int(os.environ.get("FORMSCRIPT_OUTLINE_DOCUMENTS", "150"))
SEED = int(os.environ.get("FORMSCRIPT_OUTLINE_SEED", "20261201"))
#: What the test compared, for its report line.
COUNTS = {"documents": 0, "unparsed": 0, "queries": 0, "completions": 0, "items": 0, "hovers": 0, "unparsed hovers": 0}
#: Completion items compared, by kind (declared fields read from the outline: ``outline fields``).
KINDS: dict[str, int] = {}


class ReferenceOutline:
    """The outline as it was: every scan reads each line it passes (the fast one must agree)."""

    def __init__(self, lines: list[str], previous: object = None) -> None:  # previous: ignored
        self.texts = lines
        self._cache: dict[int, Line] = {}

    def __len__(self) -> int:
        return len(self.texts)

    def line(self, number: int) -> Line:
        """Line *number*, read."""
        found = self._cache.get(number)
        if found is None:
            found = read_line(number, self.texts[number])
            self._cache[number] = found
        return found

    def item_index(self, number: int, dash: int) -> int:
        """The index of the sequence item whose dash is at (*number*, *dash*)."""
        index = 0
        for above in range(number - 1, -1, -1):
            line = self.line(above)
            if line.blank:
                continue
            if line.dash == dash:
                index += 1
            elif line.indent < dash or (line.indent == dash and line.dash is None):
                break
        return index

    def parent(self, number: int, column: int) -> tuple[object, ...]:
        """The path of the mapping holding a key at *column* on line *number*."""
        path: list[object] = []
        target = column
        seq: int | None = None  # looking for the key owning a sequence at this dash column
        for above in range(number - 1, -1, -1):
            line = self.line(above)
            if line.blank:
                continue
            if seq is not None:
                if line.dash == seq or line.indent > seq:
                    continue
                if line.key is None:
                    return tuple(reversed(path))
                path.append(line.key)
                target, seq = self._climb(line, path)
                continue
            if line.dash is not None and line.content == target and line.dash < target:
                path.append(self.item_index(above, line.dash))
                seq = line.dash
                continue
            if line.content < target and line.key is not None:
                path.append(line.key)
                target, seq = self._climb(line, path)
                continue
            if line.indent < target and (line.dash is None or line.dash < target):
                return tuple(reversed(path))
        return tuple(reversed(path))

    def _climb(self, line: Line, path: list[object]) -> tuple[int, int | None]:
        """After taking *line*'s key: where the search goes on from."""
        if line.dash is not None:
            path.append(self.item_index(line.number, line.dash))
            return line.dash, line.dash
        return line.indent, None

    def block(self, number: int, column: int, *, above: bool = True) -> dict[str, tuple[int, str]]:
        """The keys of the block mapping around line *number* whose keys sit at *column*:
        key -> (line, value text). With *above* false, only the lines below count (a new
        sequence item starts on line *number*)."""
        keys: dict[str, tuple[int, str]] = {}
        for above_line in range(number - 1 if above else -1, -1, -1):
            line = self.line(above_line)
            if line.blank or line.indent > column:
                continue
            if line.content == column and line.key is not None:
                keys.setdefault(line.key, (above_line, line.value))
                if line.dash is not None:
                    break
                continue
            break
        for below in range(number + 1, len(self)):
            line = self.line(below)
            if line.blank or (line.indent > column and line.dash is None):
                continue
            if line.dash is not None and line.dash < column + 1 and line.content <= column:
                break
            if line.indent == column and line.key is not None and line.dash is None:
                keys.setdefault(line.key, (below, line.value))
                continue
            if line.indent < column:
                break
        return keys

    def top_block(self, key: str) -> list[Line]:
        """The key lines directly inside the top-level *key* (e.g. the declared fields)."""
        start = None
        for number in range(len(self)):
            line = self.line(number)
            if line.indent == 0 and line.dash is None and line.key == key:
                start = number
                break
        if start is None:
            return []
        found: list[Line] = []
        column = None
        for number in range(start + 1, len(self)):
            line = self.line(number)
            if line.blank:
                continue
            if line.indent == 0:
                break
            if column is None:
                column = line.indent
            if line.indent == column and line.key is not None and line.dash is None:
                found.append(line)
        return found


SCRIPT_ENTRIES = [
    ["- type: text", "  content: answer {i}"],
    ["- type: tool_call", "  name: tool_{i}", "  arguments: {{q: {i}}}", "  when:", "    prompt_contains: ask"],
    ["- type: structured", "  data:", "    id: {i}", "    items:", "      - {{sku: a{i}, qty: 2}}", "      - sku: b"],
    ["- type: stream", "  chunks:", "    - {{type: text, content: hi}}", "    - type: tool_use", "      tool_name: s"],
    ["- type: error", "  kind: timeout", "  when: {{call_index: {i}}}"],
    ["- type: text  # a comment", "", "  content: |", "    line one", "", "    - not an item"],
    ["- {{type: text, content: flow {i}}}"],
    ["-", "  type: text", "  content: on the next line"],
    ["- type: ", "  cont"],
    ["- type: text", "  when:", "    "],
]
HEADS = [["version: 1", "mode: auto", "responses:"], ["# fixtures", "responses:  # calls"], ["responses:"]]
FIELD_BODIES = [
    ["type: str", "description: field {i}"],
    ["type: int", "required: false"],
    ["description: no type"],
    ["type: bool", "choices: [a, b]"],
    ["{{type: float}}"],
    ["ty"],
]
VALUES = ["value {i}", "{i}", "true", "", "{i}.5", "'quoted'"]
#: What the edits type: indicators, quotes, breaks, indentation, half-typed keys.
SNIPPETS = [":", ": ", " ", "  ", "-", "- ", "#", "'", '"', "{", "}", "[", ",", "|", "\n", "\n  ", "\n  - ", "\t",
            "type", "type: ", "content: x", "when: ", "fields:", "values:", "ty", "a", "x: {", "\n    "]  # fmt: skip


def script(rand: random.Random) -> str:
    pad = " " * rand.choice((0, 2, 4))
    lines = list(rand.choice(HEADS))
    for i in range(rand.randint(0, 12)):
        lines += [pad + line.format(i=i) if line else "" for line in rand.choice(SCRIPT_ENTRIES)]
    return "\n".join(lines) + rand.choice(("\n", "", "\n\n"))


def form(rand: random.Random) -> str:
    step = rand.choice((2, 4))
    pad = " " * step
    lines = [rand.choice(("title: Intake", "# a form", "instruction: fill it"))]
    names = [f"f{i}" for i in range(rand.randint(0, 10))]
    sections = [["fields:"], ["values:"]]
    for name in names:
        body = [line.format(i=name) for line in rand.choice(FIELD_BODIES)]
        if body[0].startswith("{"):
            sections[0].append(f"{pad}{name}: {body[0]}")
        else:
            sections[0] += [f"{pad}{name}:", *(pad * 2 + line for line in body)]
        if rand.random() < 0.6:
            sections[1].append(f"{pad}{name}: " + rand.choice(VALUES).format(i=name))
    rand.shuffle(sections)
    for section in sections:
        lines += section
        if rand.random() < 0.3:
            lines.append("")
    if rand.random() < 0.3:  # a look-alike of a section key: in a list, indented, half typed
        stray = rand.choice(("- fields:", "- values: {}", "fields", " values:", "# fields:", "fields: {}"))
        lines.insert(rand.randint(1, len(lines)), stray)
    return "\n".join(lines) + "\n"


def edit(rand: random.Random, text: str) -> str:
    """One random edit: type or delete a few characters, or drop, copy or indent a line."""
    lines = text.split("\n")
    kind = rand.random()
    if kind < 0.15 and len(lines) > 1:
        del lines[rand.randrange(len(lines))]
        return "\n".join(lines)
    if kind < 0.25:
        line = rand.randrange(len(lines))
        lines[line] = rand.choice(("  ", " ", "- ")) + lines[line]
        return "\n".join(lines)
    if kind < 0.35:
        line = rand.randrange(len(lines))
        lines.insert(rand.randrange(len(lines) + 1), lines[line])
        return "\n".join(lines)
    start = rand.randint(0, len(text))
    end = min(len(text), start + (rand.randint(1, 6) if rand.random() < 0.4 else 0))
    return text[:start] + "".join(rand.choice(SNIPPETS) for _ in range(rand.randint(0, 2))) + text[end:]


def documents() -> list[tuple[str, str]]:
    """(path, text): scripts and forms as written, and after 1-4 random edits (half typed)."""
    rand = random.Random(SEED)
    found = []
    for number in range(DOCUMENTS):
        is_form = number % 2 == 1
        text = form(rand) if is_form else script(rand)
        for _ in range(rand.choice((0, 0, 1, 2, 4))):
            text = edit(rand, text)
        found.append(("/w/gen.form.yaml" if is_form else "/w/gen.script.yaml", text))
    return found


def positions(rand: random.Random, lines: list[str]) -> list[Pos]:
    """Cursor positions: line starts and ends, indents, after a dash, inside and after words."""
    found = []
    numbers = sorted(rand.sample(range(len(lines)), min(len(lines), 14)))
    for number in numbers:
        text = lines[number]
        indent = len(text) - len(text.lstrip(" "))
        columns = {0, indent, len(text), rand.randint(0, len(text)), min(len(text), indent + 2)}
        colon = text.find(":")
        if colon >= 0:
            columns |= {colon, min(len(text), colon + 2)}
        found += [Pos(number, column) for column in sorted(columns)]
    found.append(Pos(len(lines), 0))  # beyond the last line
    return found


def _fresh(analysis: Analysis) -> Analysis:
    """The same analysis without its kept outline."""
    return dataclasses.replace(analysis)


def _lines(outline: Outline | ReferenceOutline) -> list[Line]:
    return [outline.line(n) for n in range(len(outline))]


def test_every_outline_query_answers_as_the_reference() -> None:
    for path, text in documents():
        lines = text.split("\n")
        fast, slow = Outline(lines), ReferenceOutline(lines)
        columns = sorted({0, 1, 2, 3, 4, 6, *(read_line(n, t).content for n, t in enumerate(lines))})
        for number in range(len(lines)):
            for column in columns:
                for above in (True, False):
                    where = f"{path} line {number} column {column}:\n{text}"
                    assert fast.block(number, column, above=above) == slow.block(number, column, above=above), where
                assert fast.parent(number, column) == slow.parent(number, column), where
                assert fast.item_index(number, column) == slow.item_index(number, column), where
                COUNTS["queries"] += 4
        for key in ("fields", "values", "responses", "title"):
            assert fast.top_block(key) == slow.top_block(key), f"{path} top_block({key}):\n{text}"
        assert _lines(fast) == _lines(slow)


def test_completion_and_hover_answer_as_with_the_reference_outline(monkeypatch: pytest.MonkeyPatch) -> None:
    rand = random.Random(SEED + 1)
    settings = Settings()

    for path, text in documents():
        analysis = analyse("file://" + path, text, 1, settings, "utf-16", 0)
        kept = _fresh(analysis)  # one outline kept across every request, as the server does
        for pos in positions(rand, analysis.positions.lines):
            for snippets, as_is in ((True, True), (True, False), (False, True)):
                got = complete(kept, pos, snippets=snippets, as_is=as_is)
                with monkeypatch.context() as patch:  # the earlier reading, rebuilt per request
                    patch.setattr(context, "Outline", ReferenceOutline)
                    want = complete(_fresh(analysis), pos, snippets=snippets, as_is=as_is)
                assert got == want, f"{path} at {pos} snippets={snippets} as_is={as_is}:\n{text}"
                COUNTS["completions"] += 1
                COUNTS["items"] += len(got)
                for item in got:
                    kind = "outline field" if item.kind == "field" and analysis.report.gate is None else item.kind
                    KINDS[kind] = KINDS.get(kind, 0) + 1
            got_hover = hover(kept, pos)
            with monkeypatch.context() as patch:
                patch.setattr(context, "Outline", ReferenceOutline)
                want_hover = hover(_fresh(analysis), pos)
            assert got_hover == want_hover, f"hover {path} at {pos}:\n{text}"
            COUNTS["hovers"] += 1
            COUNTS["unparsed hovers"] += analysis.document is None and got_hover is not None
        COUNTS["documents"] += 1
        COUNTS["unparsed"] += analysis.document is None
    # the documents reach what reads the outline: keys, values, snippets and declared fields
    # read without a parse, on texts that parse and texts that do not; hover from indentation
    assert all(KINDS.get(kind, 0) > 100 for kind in ("key", "value", "snippet", "field", "outline field")), KINDS
    assert COUNTS["unparsed"] > DOCUMENTS // 10 and COUNTS["unparsed hovers"] > 50, COUNTS
    print(f"\noutline equivalence: {COUNTS} items by kind {KINDS}")


def test_an_outline_made_from_an_earlier_versions_answers_as_a_fresh_one() -> None:
    """Each version's outline made from the one before (``Outline(lines, previous)``, as
    ``Analysis.outline`` does), measured or not yet before the next edit: its shapes and
    queries are a fresh outline's, after edits that add, remove and change lines anywhere."""
    rand = random.Random(SEED + 2)
    spliced = 0
    for number in range(max(DOCUMENTS // 3, 10)):
        text = form(rand) if number % 2 else script(rand)
        outline = Outline(text.split("\n"))
        for _ in range(12):
            text = edit(rand, text)
            lines = text.split("\n")
            made, fresh = Outline(lines, outline), Outline(lines)
            spliced += made._basis is not None
            if rand.random() < 0.7:  # measured now (else the next version starts from an earlier one)
                assert made._shape() == fresh._shape(), text
                for line in rand.sample(range(len(lines)), min(len(lines), 5)):
                    for column in (0, 2, 4):
                        assert made.parent(line, column) == fresh.parent(line, column), text
                        assert made.item_index(line, column) == fresh.item_index(line, column), text
                        assert made.block(line, column) == fresh.block(line, column), text
            outline = made
    assert spliced > DOCUMENTS, spliced
