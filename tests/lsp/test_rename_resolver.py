"""Renaming a field writes a key that loads back as that name, for every spelling YAML 1.1's
resolver (PyYAML's, which lionagi uses) reads as something other than a string."""

from __future__ import annotations

import itertools

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from formscript.document import Pos
from formscript.lint.config import Settings
from formscript.lsp.analysis import analyse
from formscript.lsp.facade import FIELD_NAME_RE
from formscript.lsp.navigation import rename

FORMS = {
    "block": "title: T\nfields:\n  age: {type: int}\nvalues:\n  age: 3\n",
    "flow": "title: T\nfields: {age: {type: int}}\nvalues: {age: 3}\n",
    "quoted": "title: T\nfields:\n  'age': {type: int}\nvalues:\n  \"age\": 3\n",
    "json": '{"title": "T", "fields": {"age": {"type": "int"}}, "values": {"age": 3}}\n',
}


def _resolves_to_other_than_str(word: str) -> bool:
    tag = yaml.resolver.Resolver().resolve(yaml.ScalarNode, word, (True, False))
    return tag != "tag:yaml.org,2002:str"


def _every_case(word: str) -> set[str]:
    return {"".join(c) for c in itertools.product(*((ch.lower(), ch.upper()) for ch in word))}


#: Every field name (a valid identifier) the resolver reads as a bool or null, in every case
#: the letters allow: the resolver, not a list, says which.
KEYWORDS = sorted(
    w
    for base in ("yes", "no", "true", "false", "on", "off", "null", "y", "n", "inf", "nan")
    for w in _every_case(base)
    if FIELD_NAME_RE.match(w) and _resolves_to_other_than_str(w)
)


def _renamed(layout: str, new_name: str) -> object:
    text = FORMS[layout]
    name = "form.form.json" if layout == "json" else "form.form.yaml"
    analysis = analyse(f"file:///w/{name}", text, 1, Settings(), "utf-16", 0)
    offset = text.index("age")  # on the declaration's key
    line = text.count("\n", 0, offset)
    edits = rename(analysis, Pos(line, offset - (text.rfind("\n", 0, offset) + 1) + 1), new_name)
    assert len(edits) == 2
    out = text
    for edit in sorted(edits, key=lambda e: (e.span.start.line, e.span.start.column), reverse=True):
        lines = out.splitlines(keepends=True)
        start = sum(len(line) for line in lines[: edit.span.start.line]) + edit.span.start.column
        end = sum(len(line) for line in lines[: edit.span.end.line]) + edit.span.end.column
        out = out[:start] + edit.new_text + out[end:]
    return yaml.safe_load(out)


def test_the_resolver_knows_many_spellings() -> None:
    assert {"Null", "NULL", "No", "TRUE", "Off", "ON", "yes", "null"} <= set(KEYWORDS)
    assert len(KEYWORDS) == 21  # seven words, each in three casings (`nULL` is a string)


@pytest.mark.parametrize("layout", sorted(FORMS))
@pytest.mark.parametrize("word", KEYWORDS)
def test_a_keyword_name_is_written_so_it_loads_back_as_the_name(layout: str, word: str) -> None:
    loaded = _renamed(layout, word)
    assert loaded == {"title": "T", "fields": {word: {"type": "int"}}, "values": {word: 3}}


@settings(max_examples=150, deadline=None)
@given(st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,6}", fullmatch=True), st.sampled_from(sorted(FORMS)))
def test_any_field_name_loads_back_as_itself(word: str, layout: str) -> None:
    if word == "age":
        return
    loaded = _renamed(layout, word)
    assert loaded == {"title": "T", "fields": {word: {"type": "int"}}, "values": {word: 3}}
