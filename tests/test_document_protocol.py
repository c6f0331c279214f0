"""The located-document protocol is all lint and the language server need: a document that is
not YAML (here, Python literals rendered from a dict, with the spans recorded while
rendering) goes through the whole lint pipeline and the editor features, and gets the same
findings, at its own positions, as the same value written in YAML."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import yaml

from formscript.core.verdict import KeyPath, Problem
from formscript.document import (
    Collection,
    Comment,
    Document,
    Edit,
    Location,
    Pos,
    Scalar,
    Span,
    parse_document,
)
from formscript.lint.engine import lint_document, lint_text
from formscript.lint.report import FileReport
from formscript.lsp.analysis import Analysis
from formscript.lsp.context import node_at
from formscript.lsp.navigation import folding, symbols
from formscript.lsp.positions import Positions

_TAGS = {bool: "bool", int: "int", float: "float", str: "str", type(None): "null"}


@dataclass
class LiteralDocument(Document):
    """A Python dict written as Python literals, one member per line. Strings are quoted
    literals; other scalars carry their type in the syntax, so none is "plain"."""

    value: Any
    #: Comments to put at the end of a member's line: path -> comment text (with its '#').
    notes: dict[KeyPath, str] = field(default_factory=dict)
    text: str = ""
    ok: bool = True
    problems: list[Problem] = field(default_factory=list)
    _where: dict[KeyPath, Location] = field(default_factory=dict)
    _comments: list[Comment] = field(default_factory=list)
    _lines: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._lines = [""]
        self._where[()] = Location(self._write(self.value, (), 0), None, self._scalar(self.value))
        self.text = "\n".join(self._lines) + "\n"

    def _put(self, piece: str) -> Span:
        start = Pos(len(self._lines) - 1, len(self._lines[-1]))
        self._lines[-1] += piece
        return Span(start, Pos(start.line, start.column + len(piece)))

    def _newline(self, path: KeyPath) -> None:
        note = self.notes.get(path)
        if note is not None:
            self._put("  ")
            self._comments.append(Comment(self._put(note), note))
        self._lines.append("")

    def _write(self, value: Any, path: KeyPath, depth: int) -> Span:
        if not isinstance(value, dict | list):
            return self._put(repr(value))
        opening, closing = ("{", "}") if isinstance(value, dict) else ("[", "]")
        if not value:
            return self._put(opening + closing)
        start = self._put(opening).start
        self._newline(path)
        members = value.items() if isinstance(value, dict) else enumerate(value)
        for key, child in members:
            self._put("    " * (depth + 1))
            key_span = self._put(repr(key)) if isinstance(value, dict) else None
            if key_span is not None:
                self._put(": ")
            child_span = self._write(child, (*path, key), depth + 1)
            self._put(",")
            self._where[(*path, key)] = Location(child_span, key_span, self._scalar(child))
            self._newline((*path, key))
        self._put("    " * depth)
        end = self._put(closing).end
        return Span(start, end)

    @staticmethod
    def _scalar(value: Any) -> Scalar | None:
        if isinstance(value, dict | list):
            return None
        style = "'" if isinstance(value, str) else "literal"
        return Scalar(style, repr(value), "tag:yaml.org,2002:" + _TAGS.get(type(value), "str"))

    @property
    def lines(self) -> list[str]:
        return self.text.splitlines()

    def entry(self, path: KeyPath) -> Location | None:
        return self._where.get(tuple(path))

    def comments(self) -> list[Comment]:
        return list(self._comments)

    def collections(self) -> Iterable[Collection]:
        for path, where in self._where.items():
            if path and where.scalar is None:
                yield Collection(where.key.start if where.key is not None else where.value.start, where.value)

    def removal(self, path: KeyPath) -> tuple[Edit, ...] | None:
        return None


def _at(doc: Document, span: Span) -> str:
    assert span.start.line == span.end.line
    return doc.lines[span.start.line][span.start.column : span.end.column]


def _findings(report: FileReport) -> list[tuple[str, str, str]]:
    return sorted((d.code, d.severity, d.message) for d in report.diagnostics)


FORM = {
    "title": "T",
    "fields": {"age": {"type": "int"}, "country": {"type": "str"}},
    "values": {"age": "7", "aeg": 1, "country": "no"},
}


def test_a_literal_document_gets_the_findings_of_the_same_yaml_at_its_own_positions() -> None:
    doc = LiteralDocument(FORM)
    report = lint_document(doc, "agent.form.py", kind="form")
    as_yaml = lint_text(yaml.safe_dump(FORM, sort_keys=False), "agent.form.yaml")
    assert report.verdict == as_yaml.verdict
    assert _findings(report) == _findings(as_yaml)
    assert {d.code for d in report.diagnostics} == {"FS005", "FS016"}
    where = {d.code: _at(doc, d.span) for d in report.diagnostics}
    assert where == {"FS005": "'aeg'", "FS016": "'7'"}
    assert report.gate is not None and report.gate.values["age"] == 7


def test_plain_yaml_surprises_do_not_apply_to_typed_literals() -> None:
    yaml_doc = parse_document("fields:\n  country: {type: str}\nvalues:\n  country: no\n")
    surprise = lint_document(yaml_doc, "a.form.yaml")
    assert [d.code for d in surprise.diagnostics] == ["FS015"]
    literal = lint_document(
        LiteralDocument({"fields": {"country": {"type": "str"}}, "values": {"country": False}}), "a"
    )
    assert [(d.code, d.message) for d in literal.diagnostics if d.code.startswith("FS01")] == [
        ("FS014", "field 'country' expects str, found bool False")
    ]


def test_comments_of_the_document_suppress_and_strings_do_not() -> None:
    doc = LiteralDocument(
        {**FORM, "values": {"age": "# formscript: ignore[FS014] not a comment", "aeg": 1, "country": "no"}},
        notes={("values", "aeg"): "# formscript: ignore[FS005] kept for the old client"},
    )
    report = lint_document(doc, "agent.form.py", kind="form")
    assert [d.code for d in report.diagnostics] == ["FS014"]
    assert _at(doc, report.diagnostics[0].span) == "'# formscript: ignore[FS014] not a comment'"


def test_a_literal_script_gets_located_script_findings_without_a_text_fix() -> None:
    script = {"mode": "when_only", "responses": [{"type": "text", "content": "hi", "when": {}}]}
    doc = LiteralDocument(script)
    report = lint_document(doc, "flow.script.py", kind="script")
    as_yaml = lint_text(yaml.safe_dump(script, sort_keys=False), "flow.script.yaml")
    assert _findings(report) == _findings(as_yaml)
    by_code = {d.code: d for d in report.diagnostics}
    assert set(by_code) == {"SC011", "SC012"}
    assert _at(doc, by_code["SC012"].span) == "{}"  # the empty matcher
    assert by_code["SC012"].fix is None  # the literal document offers no structural edit
    fixed = next(d for d in as_yaml.diagnostics if d.code == "SC012").fix
    assert fixed is not None and fixed.safe


def test_editor_features_work_on_a_literal_document() -> None:
    doc = LiteralDocument(FORM)
    report = lint_document(doc, "agent.form.py", kind="form")
    analysis = Analysis("file:///w/agent.form.py", "/w/agent.form.py", 1, doc.text, report, Positions(doc.text), 0)
    outline = {s.name: [c.name for c in s.children] for s in symbols(analysis)}
    assert outline == {"title": [], "fields": ["age", "country"], "values": ["age", "aeg", "country"]}
    key = doc.entry(("values", "aeg"))
    assert key is not None and key.key is not None
    assert node_at(doc, key.key.start) == (("values", "aeg"), True)
    top = doc.entry(("fields",))
    assert top is not None and top.key is not None
    assert (top.key.start.line, top.value.end.line) in folding(analysis)
