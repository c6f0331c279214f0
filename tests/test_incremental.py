"""Incremental analysis gives what a fresh whole lint gives, after any edit sequence.

``lint.incremental.Incremental`` re-parses only the script entries an edit touches
(``document.segments``). After every edit of a random sequence (keys, values, entries added,
removed, moved, broken on the way: unterminated quotes, bad indentation, stray anchors) its
report must equal ``lint_text`` of the same text: verdict, kind, every diagnostic with its
range, message and fix plan; and where the text was spliced, the document must answer like
``parse_document`` of the whole text: the value, the location of every key path, the
collections, comments, removals and replacements, and the server's outline, hovers, fixes and
line table (each version's made from the previous one's, as the server does).

Seeded: ``FORMSCRIPT_INCR_SEQUENCES`` (120 here; the long mode in the README runs thousands),
``FORMSCRIPT_INCR_EDITS`` (25 per sequence) and ``FORMSCRIPT_INCR_SEED``; a failure names the
seed and the edit that reproduce it.
"""

from __future__ import annotations

import operator
import os
import random
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest

from formscript.core.ends import common_ends, identical
from formscript.document import Document, Pos, parse_document
from formscript.document.entrycache import EntryCache
from formscript.document.form_segments import SENTINEL, FormCache, SplicedForm
from formscript.document.segments import SplicedDocument, split_entries
from formscript.lint.config import Settings
from formscript.lint.engine import fix_for, lint_text
from formscript.lint.incremental import Incremental
from formscript.lint.report import FileReport
from formscript.lsp.analysis import Analysis, analyse
from formscript.lsp.completion import complete
from formscript.lsp.context import walk
from formscript.lsp.hover import hover
from formscript.lsp.navigation import folding, symbols

SEQUENCES = int(os.environ.get("FORMSCRIPT_INCR_SEQUENCES", "120"))
EDITS = int(os.environ.get("FORMSCRIPT_INCR_EDITS", "25"))
SEED = int(os.environ.get("FORMSCRIPT_INCR_SEED", "20261201"))
PATH = "/w/fuzz.script.yaml"
#: Per sequence: how many of its texts were spliced (the rest linted whole), of how many.
SPLICED: dict[int, tuple[int, int]] = {}

#: Entries of every shape: block and flow mappings, streams, matchers, block scalars (with
#: keep chomping and blank lines), comments, quotes, YAML 1.1 surprises, invalid entries.
ENTRIES = [
    "  - type: text\n    content: answer {i}\n",
    "  - type: text\n    content: 'quoted {i}'\n    when:\n      prompt_contains: ask {i}\n",
    "  - type: tool_call\n    name: tool_{i}\n    arguments: {{q: {i}}}\n    id: call_{j}\n",
    "  - type: structured\n    data: {{a: {i}, b: [1, 2]}}\n",
    "  - type: stream\n    chunks:\n      - {{type: text, content: hi}}\n      - {{type: result}}\n",
    "  - type: stream\n    chunks:\n      - type: tool_use\n      - type: text\n",
    "  - type: error\n    kind: timeout\n    when: {{call_index: {j}}}\n",
    "  - type: error\n    kind: rate_limit\n    delay_ms: -5\n",
    "  - type: text\n    content: |\n      line one {i}\n\n      line two\n",
    "  - type: text\n    content: |+\n      kept\n\n",
    "  - type: text  # a comment\n    content: yes\n",
    "  - type: text\n    content: >\n      folded\n      text\n    when: {{prompt_regex: 'a(b'}}\n",
    "  - type: txt\n    content: typo\n",
    "  - type: text\n    contnet: misspelt\n",
    "  - {{type: text, content: flow {i}}}\n",
    "  - type: text\n    content: a multi\n      line plain\n",
    "  - type: text\n    content: x\n    when: {{}}\n",
    '  - type: text\n    content: "double {i}"\n    when:\n      has_tool: t{j}\n      call_index: {j}\n',
    "  -\n    type: text\n    content: on the next line\n",
]
HEADS = [
    "version: 1\nmode: auto\nresponses:\n",
    "mode: when_only\nresponses:\n",
    "# fixtures\nmode: positional\nresponses:  # the calls\n\n",
    "responses:\n",
]
#: What the edits type: indicators, quotes, breaks, indentation, anchors, whole entries.
SNIPPETS = [
    ":", ": ", " ", "  ", "-", "- ", "#", "# c", "'", '"', "{", "}", "[", "]", ",", "|", ">",
    "&a ", "*a", "!!str ", "%", "?", "~", "\t", "\n", "\n  ", "\n  - ", "\n    ", "\r\n",
    "yes", "no", "null", "0x1F", "1e3", "---\n", "type: text", "content: x", "when: ",
    "prompt_contains: a", "call_index: 1", "formscript: ignore[SC012] -- why",
    "\n  - type: text\n    content: added\n", "\n  - type: tool_call\n    name: n\n    id: call_1\n",
    "\n  - type: structured\n    data: {a: 1, a: 2}\n",
]  # fmt: skip


#: What ordinary typing adds.
WORDS = ["a", "e", "t", "x", "0", "7", " ", "_", "ok", "text", "yes", "'", ":"]


def script(rand: random.Random) -> str:
    parts = [rand.choice(HEADS)]
    for i in range(rand.randint(1, 14)):
        parts.append(rand.choice(ENTRIES).format(i=i, j=rand.randint(0, 3)))
    return "".join(parts)


def edit(rand: random.Random, text: str) -> str:
    """One random edit: type, delete, replace, or add, remove, duplicate or move a line."""
    lines = text.splitlines(keepends=True)
    kind = rand.random()
    if kind < 0.15 and len(lines) > 1:
        del lines[rand.randrange(len(lines))]
        return "".join(lines)
    if kind < 0.25 and lines:
        line = rand.randrange(len(lines))
        lines.insert(rand.randrange(len(lines) + 1), lines[line])
        return "".join(lines)
    if kind < 0.35:
        entry = rand.choice(ENTRIES).format(i=rand.randint(0, 99), j=rand.randint(0, 3))
        starts = [i for i, line in enumerate(lines) if line.startswith("  - ")] or [len(lines)]
        lines.insert(rand.choice([*starts, len(lines)]), entry)
        return "".join(lines)
    start = rand.randint(0, len(text))
    if kind < 0.75:  # typing in a line: letters, digits, blanks, or deleting a few of them
        end = start
        while end < len(text) and end - start < rand.randint(0, 4) and text[end] != "\n":
            end += 1
        return text[:start] + "".join(rand.choice(WORDS) for _ in range(rand.randint(0, 2))) + text[end:]
    end = min(len(text), start + (rand.randint(1, 12) if rand.random() < 0.5 else 0))
    new = "".join(rand.choice(SNIPPETS) for _ in range(rand.randint(0, 2)))
    return text[:start] + new + text[end:]


def diagnostics(report: FileReport) -> list[tuple[Any, ...]]:
    return [
        (d.code, d.severity, d.message, d.span, d.pending.fix if d.pending is not None else None)
        for d in report.diagnostics
    ]


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from paths(item, (*prefix, index))


def answers_alike(got: Document, want: Document, every: list[tuple[Any, ...]], where: str) -> None:
    """*got* answers every path of *every* (its location, removal and replacements), and its
    collections and comments, as *want* does."""
    for path in every:
        assert got.entry(path) == want.entry(path), f"{where}: entry {path}"
        assert got.locate(path) == want.locate(path), f"{where}: locate {path}"
        if path:
            assert got.removal(path) == want.removal(path), f"{where}: removal {path}"
            for on_key in (False, True):
                mine = got.replacement(path, "a: b", on_key=on_key, quoted=True)
                assert mine == want.replacement(path, "a: b", on_key=on_key, quoted=True), f"{where}: {path}"
    assert list(got.collections()) == list(want.collections()), where
    assert got.comments() == want.comments(), where


def same_document(spliced: SplicedDocument, where: str) -> None:
    whole = parse_document(spliced.text)
    assert whole.ok and not whole.problems, where
    assert spliced.value == whole.value, where
    every = list(paths(whole.value))
    answers_alike(
        spliced,
        whole,
        [
            *every,
            ("responses", len(whole.value["responses"])),
            ("responses", -1),
            ("responses", True),
            ("responses", 0.0),
            ("nope",),
        ],
        where,
    )
    assert spliced.lines == whole.lines, where


def same_features(incremental: Analysis, fresh: Analysis, rand: random.Random, where: str) -> None:
    assert symbols(incremental) == symbols(fresh), where
    assert folding(incremental) == folding(fresh), where
    lines = fresh.text.split("\n")
    for _ in range(6):
        line = rand.randrange(len(lines))
        pos = Pos(line, rand.randint(0, len(lines[line])))
        assert hover(incremental, pos) == hover(fresh, pos), f"{where}: hover at {pos}"
    for mine, theirs in zip(incremental.report.diagnostics, fresh.report.diagnostics, strict=True):
        assert incremental.document is not None and fresh.document is not None
        assert fix_for(mine, incremental.document) == fix_for(theirs, fresh.document), where


def _ids() -> Iterator[Any]:
    for number in range(SEQUENCES):
        yield pytest.param(SEED + number, id=f"seed{SEED + number}")


@pytest.mark.parametrize("seed", list(_ids()))
def test_every_edit_lints_as_the_whole_text_does(seed: int) -> None:
    rand = random.Random(seed)
    text = script(rand)
    incremental = Incremental()
    settings = Settings()
    spliced = 0
    history = [text]
    for step in range(EDITS + 1):
        if step:
            # an undo now and then (back to an earlier text), else an edit
            text = rand.choice(history) if rand.random() < 0.25 else edit(rand, text)
            history.append(text)
        where = f"FORMSCRIPT_INCR_SEED={seed} FORMSCRIPT_INCR_SEQUENCES=1, edit {step}, text {text!r}"
        got = incremental.lint(text, PATH, settings)
        incremental.warm()
        want = lint_text(text, PATH, settings=settings, fixes=None)
        assert (got.kind, got.verdict, got.note) == (want.kind, want.verdict, want.note), where
        assert diagnostics(got) == diagnostics(want), where
        if incremental.last == "spliced":
            spliced += 1
            assert isinstance(got.document, SplicedDocument)
            if step % 3 == 0:
                same_document(got.document, where)
    SPLICED[seed] = (spliced, EDITS + 1)


@pytest.mark.parametrize("seed", [SEED + n for n in range(max(SEQUENCES // 6, 4))])
def test_the_server_features_answer_as_on_a_fresh_analysis(seed: int) -> None:
    rand = random.Random(seed)
    text = script(rand)
    uri = "file:///w/fuzz.script.yaml"
    incremental = Incremental()
    previous = basis = None  # the lines and outline of the version before, as the server hands them on
    for step in range(EDITS // 2 + 1):
        if step:
            text = edit(rand, text)
        where = f"seed {seed}, edit {step}, text {text!r}"
        mine = analyse(uri, text, step, Settings(), "utf-16", 0, incremental, previous, basis)
        incremental.warm()
        fresh = analyse(uri, text, step, Settings(), "utf-16", 0)
        assert mine.positions.lines == fresh.positions.lines, where
        if mine.document is not None and fresh.document is not None:
            same_features(mine, fresh, rand, where)
        previous, basis = mine.positions, mine.handed_on()


def test_a_typical_edit_is_spliced_and_reuses_every_other_entry() -> None:
    head = "version: 1\nresponses:\n"
    entries = [f"  - type: text\n    content: answer {i}\n" for i in range(50)]
    text = head + "".join(entries)
    cache = EntryCache()
    first = cache.document(text)
    assert first is not None
    edited = text.replace("answer 25", "answer 25!")
    second = cache.document(edited)
    assert second is not None
    changed = [i for i, (a, b) in enumerate(zip(first.parts, second.parts, strict=True)) if a is not b]
    assert changed == [25]
    added = edited.replace("  - type: text\n    content: answer 30\n", "  - type: text\n    content: new\n" * 2)
    third = cache.document(added)
    assert third is not None and len(third.parts) == 51
    assert third.starts[-1] == second.starts[-1] + 2
    assert third.parts[-1] is second.parts[-1]


def test_the_first_edit_after_the_open_parses_only_the_entry_it_touches() -> None:
    """The open's whole parse is handed to the split (``EntryCache.adopt``): the first edit
    re-parses the one entry it touches, as every later edit does, not every entry again."""
    head = "version: 1\nresponses:\n"
    entries = [f"  - type: text\n    content: answer {i}\n    when: {{call_index: {i}}}\n" for i in range(200)]
    text = head + "".join(entries)
    incremental = Incremental()
    opened = incremental.lint(text, PATH, Settings())
    assert incremental.last == "whole"
    assert diagnostics(opened) == diagnostics(lint_text(text, PATH, fixes=None))
    incremental.warm()
    cache = incremental._entries
    assert cache.how == "adopted" and cache.parsed == 0
    built = incremental._memo.entries.built
    assert len(built) == 200  # the open built its entries into the memo the edits reuse
    edited = text.replace("answer 120\n", "answer 120!\n")
    got = incremental.lint(edited, PATH, Settings())
    assert len(incremental._memo.entries.built) == 201  # only the edited entry built again
    assert incremental.last == "spliced"
    assert (cache.how, cache.parsed) == ("window", 1)  # not "whole": no re-split of 200 entries
    assert diagnostics(got) == diagnostics(lint_text(edited, PATH, fixes=None))
    assert isinstance(got.document, SplicedDocument)
    same_document(got.document, "first edit")


@pytest.mark.parametrize("seed", [SEED + n for n in range(max(SEQUENCES // 3, 8))])
def test_a_whole_parse_adopted_answers_as_the_whole_parse(seed: int) -> None:
    """Where the split is made, the document adopted from the whole parse (its entries views
    of the whole's nodes) answers every path as the whole parse does, and as the entries
    parsed alone do."""
    rand = random.Random(seed)
    text = script(rand)
    for _ in range(rand.randint(0, 3)):
        text = edit(rand, text)
    whole = parse_document(text)
    cache = EntryCache()
    adopted = cache.adopt(whole)
    alone = EntryCache().document(text)
    if alone is None:
        assert not adopted, text  # the split is refused as the entries parsed alone refuse it
        return
    assert adopted, text
    document = cache.document(text)  # the same text: the adopted document itself
    assert document is not None and cache.how == "same"
    same_document(document, text)
    assert document.value == alone.value and document.starts == alone.starts


@pytest.mark.parametrize(
    "text",
    [
        "responses:\n  - a: &x 1\n  - b: *x\n",  # an alias to another entry's anchor
        "responses:\n  - a: 'one\n  - two'\n",  # a quote running into the next entry
        "responses:\n  - a: [1,\n  - 2]\n",  # a flow collection running on
        "responses:\n  - a: 1\nmode: auto\n",  # a key after the entries
        "responses:\n  - a: 1\n - b: 2\n",  # a dedent
        "responses:\n\t- a: 1\n",  # a tab
        "%YAML 1.1\n---\nresponses:\n  - a: 1\n",  # a directive
        "responses:\n  - a: 1\n---\nresponses:\n  - b: 2\n",  # two documents
        "responses:\r\n  - a: 1\r\n",  # another line break
        "responses: []\n",  # a flow sequence
        "responses:\n  - !!str a\n",  # a tag
        "mode: {a: 1}\nresponses:\n  - a: ?b\n",  # where libyaml reads otherwise
        "responses:\nresponses:\n  - a: 1\n",  # a duplicated key
    ],
)
def test_a_split_that_could_differ_from_the_whole_parse_is_not_made(text: str) -> None:
    cache = EntryCache()
    assert cache.document(text) is None, split_entries(text)
    assert not cache.adopt(parse_document(text))
    assert lint_text(text, PATH, fixes=None).diagnostics == Incremental().lint(text, PATH, Settings()).diagnostics


def test_the_common_ends_of_two_texts_are_the_longest() -> None:
    """``common_ends`` (halving) against a character-by-character reading, on texts that share
    prefixes, suffixes, both, or neither, and repeat themselves (where a wrong halving would
    stop early); the same for lists of their characters, and for lists of objects compared
    by identity (``identical``: the twins below are equal to the objects, never the same)."""
    rand = random.Random(SEED)

    def reference(old: Sequence[Any], new: Sequence[Any], same: Callable[[Any, Any], bool]) -> tuple[int, int]:
        most = min(len(old), len(new))
        prefix = next((i for i in range(most) if not same(old[i], new[i])), most)
        rest = most - prefix
        suffix = next((i for i in range(rest) if not same(old[len(old) - 1 - i], new[len(new) - 1 - i])), rest)
        return prefix, suffix

    objects: dict[str, Any] = {"a": 1, "b": 0, "\n": []}
    twins: dict[str, Any] = {"a": True, "b": False, "\n": []}
    for _ in range(5000):
        old = "".join(rand.choice("ab\n") for _ in range(rand.randint(0, 16)))
        begin = rand.randint(0, len(old))
        end = rand.randint(begin, len(old))
        typed = "".join(rand.choice("ab\n") for _ in range(rand.randint(0, 3)))
        new = old[:begin] + typed + old[end:] if rand.random() < 0.8 else old[::-1]
        assert common_ends(old, new) == reference(old, new, operator.eq), (old, new)
        assert common_ends(list(old), list(new)) == reference(old, new, operator.eq), (old, new)
        old_objects = [objects[c] for c in old]
        new_objects = [(twins if rand.random() < 0.1 else objects)[c] for c in new]
        found = common_ends(old_objects, new_objects, identical)
        assert found == reference(old_objects, new_objects, operator.is_), (old_objects, new_objects)


# ------------------------------------------------------------------------------ forms

FORM_PATH = "/w/fuzz.form.yaml"
#: Per form sequence: how many of its texts were spliced, of how many.
FORM_SPLICED: dict[int, tuple[int, int]] = {}

#: Field declarations of every shape: block and flow mappings, defaults of each type (and
#: wrong ones), unknown keys and types, bad names, quoted keys, block scalars, comments.
FIELDS = [
    "  f{i}:\n    type: str\n    description: field {i}\n",
    "  f{i}:\n    type: int\n    required: false\n",
    "  f{i}: {{type: bool, default: true}}\n",
    "  f{i}:\n    type: float\n    default: 1\n",
    "  f{i}:\n    type: list\n    default: [a, b]\n",
    "  f{i}:\n    type: dict\n    required: no\n",
    "  f{i}:\n    type: integer\n",
    "  f{i}:\n    tpye: str\n",
    "  f{i}:\n    type: int\n    default: 'x'\n",
    "  '{i}bad':\n    type: str\n",
    '  "q{i}":\n    type: str  # quoted\n',
    "  f{i}:\n    name: f{i}\n",
    "  f{i}:\n    description: |\n      long\n\n      text {i}\n",
    "  f{i}: not a mapping\n",
    "  f{i}:\n",
    "  # a comment\n  f{i}:\n    type: str\n    required: false\n",
    "  f{i}:\n    type: str\n    default: &d x\n    description: *d\n",
]
#: Values of every shape: YAML 1.1 surprises, strings given to numbers, bools, nulls, lists.
VALUES = [
    "  f{i}: value {i}\n",
    "  f{i}: {i}\n",
    "  f{i}: yes\n",
    "  f{i}: '7'\n",
    "  f{i}: 0o17\n",
    "  f{i}: 010\n",
    "  f{i}: 1:30\n",
    "  f{i}: 2024-01-01\n",
    "  f{i}: ~\n",
    "  f{i}: [1, 2]\n",
    "  f{i}:\n    - a\n    - b\n",
    "  f{i}: |\n    block {i}\n",
    "  f{i}: true  # set\n",
    "  f{i}: 3.5\n",
    "  g{i}: undeclared\n",
    "  f{i}: a multi\n    line plain\n",
]
FORM_HEADS = ["title: Intake {i}\n", "", "# a form\ntitle: 'Quoted'\n", "title: 5\n", "titel: typo\n"]
#: What edits type into a form: indicators, quotes, breaks, indentation, whole entries.
FORM_SNIPPETS = [
    ":", ": ", " ", "  ", "-", "#", "'", '"', "{", "}", "[", "]", ",", "|", "&a ", "*a", "!!str ",
    "~", "\t", "\n", "\n  ", "\n    ", "\n  f9: 1\n", "\n  f9:\n    type: int\n", "yes", "no", "null",
    "0x1F", "type: int", "default: 3", "required: true", "values:\n", "fields:\n", "<<: ",
    "formscript: ignore[FS016] -- why", "---\n", "?",
]  # fmt: skip


def form_text(rand: random.Random) -> str:
    parts = [rand.choice(FORM_HEADS).format(i=rand.randint(0, 9))]
    sections = [("fields:\n", FIELDS), ("values:\n", VALUES)]
    if rand.random() < 0.15:
        sections.reverse()
    for head, shapes in sections:
        if rand.random() < 0.08:
            continue
        parts.append(head)
        # distinct names, mostly (a repeated one is a duplicate key: linted whole)
        names = rand.sample(range(40), 20) if rand.random() < 0.9 else [rand.randint(0, 15) for _ in range(12)]
        for i in names[: rand.randint(1, 20)]:
            parts.append(rand.choice(shapes).format(i=i))
    if rand.random() < 0.2:
        parts.append(rand.choice([*FORM_HEADS[:1], "extra: 1\n", "title: later\n"]).format(i=1))
    return "".join(parts)


def form_edit(rand: random.Random, text: str) -> str:
    """One random edit of a form: type, delete, replace, or add, remove, duplicate a line."""
    lines = text.splitlines(keepends=True)
    kind = rand.random()
    if kind < 0.12 and len(lines) > 1:
        del lines[rand.randrange(len(lines))]
        return "".join(lines)
    if kind < 0.2 and lines:
        line = rand.randrange(len(lines))
        lines.insert(rand.randrange(len(lines) + 1), lines[line])
        return "".join(lines)
    if kind < 0.35:
        shapes = FIELDS if rand.random() < 0.5 else VALUES
        entry = rand.choice(shapes).format(i=rand.randint(0, 60))
        starts = [i for i, line in enumerate(lines) if line.startswith("  ") and not line.startswith("   ")]
        lines.insert(rand.choice([*starts, len(lines)]), entry)
        return "".join(lines)
    start = rand.randint(0, len(text))
    if kind < 0.75:
        end = start
        while end < len(text) and end - start < rand.randint(0, 4) and text[end] != "\n":
            end += 1
        return text[:start] + "".join(rand.choice(WORDS) for _ in range(rand.randint(0, 2))) + text[end:]
    end = min(len(text), start + (rand.randint(1, 12) if rand.random() < 0.5 else 0))
    new = "".join(rand.choice(FORM_SNIPPETS) for _ in range(rand.randint(0, 2)))
    return text[:start] + new + text[end:]


def same_form_document(spliced: SplicedForm, where: str) -> None:
    whole = parse_document(spliced.text)
    assert whole.ok and spliced.ok, where
    assert sorted(map(repr, spliced.problems)) == sorted(map(repr, whole.problems)), where
    assert spliced.value == whole.value, where
    assert [type(k) for k in spliced.value] == [type(k) for k in whole.value], where
    every = list(paths(whole.value))
    extra = [("fields", "nope"), ("values", "nope", 0), ("nope",), (SENTINEL,), ("fields", SENTINEL)]
    answers_alike(spliced, whole, [*every, *extra], where)
    assert spliced.lines == whole.lines, where


def _walks_alike(doc: Document, rand: random.Random, where: str) -> None:
    """``walk`` through ``children_near`` finds what trying every key finds."""
    lines = doc.lines
    for _ in range(8):
        line = rand.randrange(len(lines))
        pos = Pos(line, rand.randint(0, len(lines[line])))
        assert walk(doc, pos) == walk(_Plain(doc), pos), f"{where}: walk at {pos}"  # type: ignore[arg-type]


class _Plain:
    """A document without ``children_near``: ``walk`` tries every key."""

    def __init__(self, doc: Document) -> None:
        self.value = doc.value
        self.entry = doc.entry


def declared(declarations: dict[Any, Any]) -> list[tuple[Any, ...]]:
    """What each declaration says (a model-built one also has a fresh random id)."""
    return [(k, d.name, d.type, d.required, d.default, d.description) for k, d in declarations.items()]


def _form_ids() -> Iterator[Any]:
    for number in range(SEQUENCES):
        yield pytest.param(SEED + number, id=f"seed{SEED + number}")


@pytest.mark.parametrize("seed", list(_form_ids()))
def test_every_form_edit_lints_as_the_whole_text_does(seed: int) -> None:
    rand = random.Random(seed)
    text = form_text(rand)
    incremental = Incremental()
    settings = Settings()
    spliced = 0
    history = [text]
    loads = [text]  # the texts that load: a broken one is often left for one of them (an undo)
    broken = False
    for step in range(EDITS + 1):
        if step:
            if rand.random() < 0.25 or (broken and rand.random() < 0.5):
                text = rand.choice(loads if broken else history)
            else:
                text = form_edit(rand, text)
            history.append(text)
        where = f"FORMSCRIPT_INCR_SEED={seed} FORMSCRIPT_INCR_SEQUENCES=1, form edit {step}, text {text!r}"
        got = incremental.lint(text, FORM_PATH, settings)
        incremental.warm()
        want = lint_text(text, FORM_PATH, settings=settings, fixes=None)
        broken = want.document is None or not want.document.ok
        if not broken:
            loads.append(text)
            assert want.document is not None
            _walks_alike(want.document, rand, where)
        assert (got.kind, got.verdict, got.note) == (want.kind, want.verdict, want.note), where
        assert diagnostics(got) == diagnostics(want), where
        mine, theirs = got.gate, want.gate
        assert (mine is None) == (theirs is None), where
        if mine is not None and theirs is not None:
            assert mine.context_block == theirs.context_block, where
            assert mine.values == theirs.values and mine.status == theirs.status, where
            assert declared(mine.declarations) == declared(theirs.declarations), where
        if incremental.last == "spliced":
            spliced += 1
            assert isinstance(got.document, SplicedForm)
            if step % 3 == 0:
                same_form_document(got.document, where)
            _walks_alike(got.document, rand, where)
    FORM_SPLICED[seed] = (spliced, EDITS + 1)


@pytest.mark.parametrize("seed", [SEED + n for n in range(max(SEQUENCES // 6, 4))])
def test_the_server_features_answer_on_a_form_as_on_a_fresh_analysis(seed: int) -> None:
    rand = random.Random(seed)
    text = form_text(rand)
    uri = "file:///w/fuzz.form.yaml"
    incremental = Incremental()
    for step in range(EDITS // 2 + 1):
        if step:
            text = form_edit(rand, text)
        where = f"seed {seed}, form edit {step}, text {text!r}"
        mine = analyse(uri, text, step, Settings(), "utf-16", 0, incremental)
        incremental.warm()
        fresh = analyse(uri, text, step, Settings(), "utf-16", 0)
        if mine.document is not None and fresh.document is not None:
            same_features(mine, fresh, rand, where)
            lines = fresh.text.split("\n")
            for _ in range(4):
                line = rand.randrange(len(lines))
                pos = Pos(line, rand.randint(0, len(lines[line])))
                assert complete(mine, pos) == complete(fresh, pos), f"{where}: completion at {pos}"


def test_a_typical_form_edit_is_spliced_and_reuses_every_other_entry() -> None:
    fields = "".join(f"  f{i}:\n    type: int\n" for i in range(40))
    values = "".join(f"  f{i}: {i}\n" for i in range(40))
    text = "title: T\nfields:\n" + fields + "values:\n" + values
    cache = FormCache()
    first = cache.document(text)
    assert first is not None and [m.key for m in first.members] == ["title", "fields", "values"]
    second = cache.document(text.replace("  f20: 20\n", "  f20: 200\n"))
    assert second is not None
    old, new = first.members[2].entries, second.members[2].entries
    assert [i for i, (a, b) in enumerate(zip(old, new, strict=True)) if a is not b] == [20]
    assert all(a is b for a, b in zip(first.members[1].entries, second.members[1].entries, strict=True))
    added = cache.document(second.text.replace("  f5:\n", "  f5b:\n    type: str\n  f5:\n"))
    assert added is not None and len(added.members[1].entries) == 41
    assert added.entry(("values", "f39")) == parse_document(added.text).entry(("values", "f39"))
    incremental = Incremental()
    incremental.lint(text, FORM_PATH, Settings())
    incremental.warm()
    incremental.lint(second.text, FORM_PATH, Settings())
    assert incremental.last == "spliced"


@pytest.mark.parametrize(
    "text",
    [
        "fields:\n  a: &x {type: int}\n  b: *x\n",  # an alias to another entry's anchor
        "fields:\n  a: {type: int,\n  b: str}\n",  # a flow collection running on
        "fields:\n  a: {type: int}\nfields:\n  b: {type: int}\n",  # a duplicated member
        "fields:\n  a: {type: int}\n b: 1\n",  # a dedent
        "fields:\n\ta: {type: int}\n",  # a tab
        "%YAML 1.1\n---\nfields:\n  a: {type: int}\n",  # a directive
        "fields:\r\n  a: {type: int}\r\n",  # another line break
        "fields:\n  a: !!str x\n",  # a tag
        "fields:\n  <<: {a: {type: int}}\n",  # a merge key
        "  fields:\n    a: {type: int}\n",  # no member at column 0
        "- fields\n",  # a sequence
        "{fields: {a: {type: int}}}\n",  # a flow mapping
        "title: 'a\nfields: b'\n",  # a quote across members
        f"fields:\n  {SENTINEL}: 1\n  b: 2\n",  # the sentinel itself
    ],
)
def test_a_form_split_that_could_differ_from_the_whole_parse_is_not_made(text: str) -> None:
    doc = FormCache().document(text)
    # not split, or only into members each parsed whole (which the whole parse equals)
    assert doc is None or all(member.piece is not None for member in doc.members), doc
    if doc is not None:
        same_form_document(doc, text)
    assert (
        lint_text(text, FORM_PATH, fixes=None).diagnostics
        == Incremental().lint(text, FORM_PATH, Settings()).diagnostics
    )


@pytest.mark.parametrize(
    ("path", "text"),
    [
        (PATH, "responses:\n  - type: text\n    content: &x a\n  - type: text\n    content: &x b\n"),
        (FORM_PATH, "fields:\n  a: {type: str, default: &x a}\n  b: {type: str, default: &x b}\n"),
    ],
)
def test_an_anchor_named_in_two_entries_is_refused_as_the_whole_parse_refuses_it(path: str, text: str) -> None:
    incremental = Incremental()
    before = text.replace("&x b", "b")
    incremental.lint(before, path, Settings())
    incremental.warm()
    assert (
        incremental.lint(before.replace("a}", "c}"), path, Settings()).diagnostics
        == lint_text(before.replace("a}", "c}"), path, fixes=None).diagnostics
    )
    got = incremental.lint(text, path, Settings())
    want = lint_text(text, path, fixes=None)
    assert [d.code for d in want.diagnostics] == ["YM001"] and "duplicate anchor" in want.diagnostics[0].message
    assert diagnostics(got) == diagnostics(want)


def test_warming_builds_the_keys_table_hover_reads() -> None:
    """After the open's lint the server warms the document (off the event loop): the keys'
    table hover and completion read (built from the models, pydantic's import) is ready,
    so the first hover on a large form costs what every later one does."""
    code = (
        "from formscript.lint.config import Settings\n"
        "from formscript.lint.incremental import Incremental\n"
        "from formscript.core import keys\n"
        "incremental = Incremental()\n"
        "incremental.lint('fields:\\n  age: {type: int}\\nvalues:\\n  age: 3\\n', 'a.form.yaml', Settings())\n"
        "incremental.warm()\n"
        "before = keys.table.cache_info().currsize\n"
        "assert all(keys.table(owner) for owner in keys.PROSE)\n"
        "print(before == len(keys.PROSE), keys.table.cache_info().misses == len(keys.PROSE))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out == "True True\n"


#: Broken texts per test below (``FORMSCRIPT_TOLERATE_TEXTS``), in batches of 40.
TOLERATE_TEXTS = int(os.environ.get("FORMSCRIPT_TOLERATE_TEXTS", "800"))


def broken_scripts(rand: random.Random, count: int) -> Iterator[str]:
    """Texts libyaml refuses that split into entries (made by editing random scripts)."""
    made = 0
    while made < count:
        text = script(rand)
        for _ in range(rand.randint(1, 6)):
            text = edit(rand, text)
            if parse_document(text, confirm=False).unconfirmed and split_entries(text) is not None:
                made += 1
                yield text
                break


@pytest.mark.parametrize("batch", range(max(TOLERATE_TEXTS // 40, 1)))
def test_tolerating_from_where_libyaml_refused_finds_what_every_entry_alone_finds(
    batch: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``tolerate`` given the lines where libyaml refused the text (it writes over the entries
    there that do not parse alone and parses the rest once) answers as parsing every entry
    alone: the same document (value, problems, entries, locations, edits, collections) and
    the same lint report, fixes included. Most broken texts take that way."""
    from formscript.document import segments, tolerate

    rand = random.Random(SEED * 7 + batch)
    around = 0
    texts = list(broken_scripts(rand, 40))
    for text in texts:
        where = f"batch {batch}, text {text!r}"
        refused = parse_document(text, confirm=False).refused_lines
        assert refused, where
        split = split_entries(text)
        assert split is not None
        head = segments.head_doc(split.head)
        found = tolerate._tolerate_around(text, split, head, refused) if head is not None else None
        want = tolerate.tolerate(text)  # every entry parsed alone
        if found is None:
            continue
        around += 1
        assert want is not None, where
        assert (found.value, found.problems, found.starts, found.offsets) == (
            want.value,
            want.problems,
            want.starts,
            want.offsets,
        ), where
        assert [p is None for p in found.parts] == [p is None for p in want.parts], where
        answers_alike(found, want, [*paths(want.value), ("responses", len(want.parts)), ("nope",)], where)
        fast = lint_text(text, PATH, fixes=True)
        with monkeypatch.context() as patch:
            patch.setattr(tolerate, "_AROUND_ROUNDS", 0)  # tolerate then parses every entry alone
            slow = lint_text(text, PATH, fixes=True)
        assert (fast.verdict, fast.diagnostics) == (slow.verdict, slow.diagnostics), where
    assert around >= len(texts) // 2, f"only {around} of {len(texts)} broken texts were tolerated from the refusal"
