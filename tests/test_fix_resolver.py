"""What a fix writes loads back as what the fix means, for every spelling YAML 1.1's resolver
(PyYAML's, which lionagi uses) reads as something other than text: a text slot holding such a
plain scalar (``content: yes``, ``name: 0o17``, ``title: 2024-01-01``) is quoted by its fix, and
the fixed file reads that slot as the very text written. The spellings come from the resolver's
own patterns, not from a list."""

from __future__ import annotations

import re

import pytest
import yaml
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from formscript.lint.engine import lint_text
from formscript.lint.fixes import apply_edits, fix_edits

#: The resolver's pattern for each implicit type (bool, int, float, null, timestamp, ...).
PATTERNS: dict[str, re.Pattern[str]] = {
    tag.rsplit(":", 1)[-1]: pattern
    for resolvers in yaml.resolver.Resolver.yaml_implicit_resolvers.values()
    for tag, pattern in resolvers
}

#: (document, how to read the text slot back): a form's str value, its title, a script's content.
SLOTS = {
    "form value": ("title: T\nfields:\n  name: {{type: str}}\nvalues:\n  name: {w}\n", lambda d: d["values"]["name"]),
    "form title": ("title: {w}\nfields:\n  name: {{type: str}}\nvalues:\n  name: x\n", lambda d: d["title"]),
    "script content": ("responses:\n  - type: text\n    content: {w}\n", lambda d: d["responses"][0]["content"]),
}


def _resolved(word: str) -> str:
    return str(yaml.resolver.Resolver().resolve(yaml.ScalarNode, word, (True, False))).rsplit(":", 1)[-1]


def _check(word: str, slot: str) -> bool:
    """Apply every fix (unsafe ones too) to the document with *word* in *slot*; where the fixes
    touch the slot, it must read back as *word*. Says whether a fix touched it."""
    template, read = SLOTS[slot]
    text = template.format(w=word)
    try:
        before = read(yaml.safe_load(text))
    except (yaml.YAMLError, ValueError, OverflowError):
        return False  # the runtime's loader refuses the file itself ("0b_", a date that is none)
    kind = "script" if slot.startswith("script") else "form"
    report = lint_text(text, f"case.{kind}.yaml")
    fixed = apply_edits(text, fix_edits(report.diagnostics, unsafe=True))
    after = read(yaml.safe_load(fixed))
    if type(after) is type(before) and (after == before or after != after):  # the same (NaN too)
        return False
    assert after == word and isinstance(after, str), (slot, word, fixed)
    return True


#: Every casing the bool and null patterns accept (they list their casings), and the rest drawn
#: from the int, float and timestamp patterns below.
KEYWORDS = sorted(
    w
    for w in re.findall(r"[A-Za-z~]+", PATTERNS["bool"].pattern + " " + PATTERNS["null"].pattern)
    if _resolved(w) in ("bool", "null")
)


def test_the_keywords_come_from_the_resolver() -> None:
    assert {"yes", "Yes", "YES", "off", "OFF", "null", "Null", "NULL", "~"} <= set(KEYWORDS)
    assert len(KEYWORDS) == 22  # 18 bool spellings, 4 null


@pytest.mark.parametrize("slot", sorted(SLOTS))
@pytest.mark.parametrize("word", KEYWORDS)
def test_a_keyword_in_a_text_slot_is_quoted_as_written(word: str, slot: str) -> None:
    touched = _check(word, slot)
    if _resolved(word) == "bool" and slot != "form title":  # a bool where text belongs is quoted
        assert touched, (word, slot)


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(*(st.from_regex(PATTERNS[kind], fullmatch=True) for kind in ("int", "float", "timestamp"))),
    st.sampled_from(sorted(SLOTS)),
)
def test_any_number_or_date_spelling_in_a_text_slot_reads_back_as_written(word: str, slot: str) -> None:
    assume("\n" not in word and word == word.strip() and _resolved(word) != "str")
    _check(word, slot)
