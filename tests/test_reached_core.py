"""Branches of core/, rules/ and the YAML side of document/ that only an unusual input
reaches, each driven by that input and checked by what a user sees."""

from __future__ import annotations

import yaml

from formscript.cli.pool import lint_one
from formscript.core import suggest
from formscript.core.printable import printable, printable_repr, unprintable_int
from formscript.document import parse_document
from formscript.document.comments import comments_of
from formscript.lint.config import Settings
from formscript.lint.report import FileReport


def lint_bytes(data: bytes, name: str) -> FileReport:
    """The report ``formscript lint`` gives of the file *name* holding *data* (UTF-8)."""
    return lint_one((name, data.decode("utf-8"), Settings(), None, None))


def test_a_repeated_alternation_whose_branches_share_a_first_letter_risks_backtracking() -> None:
    # "ab|ac|d": re's parser cannot factor a prefix out of all three branches, so the
    # alternation stays and two of its branches start with the same literal.
    report = lint_bytes(
        b"responses:\n  - type: text\n    content: hi\n    when: {prompt_regex: '(ab|ac|d)*x'}\n",
        "example.script.yaml",
    )
    assert [(d.code, d.message) for d in report.diagnostics] == [
        (
            "SC010",
            "prompt_regex '(ab|ac|d)*x' risks catastrophic backtracking: "
            "a repeated alternation has branches that can match the same text",
        )
    ]


def test_a_word_longer_than_the_remembered_ones_is_matched_but_not_remembered() -> None:
    before = suggest._remembered.cache_info().currsize
    long = "x" * 201
    assert suggest.closest(long, ["x" * 200 + "y", "other"]) == "x" * 200 + "y"
    assert suggest.closest("X" * 201, [long]) == long
    assert suggest._remembered.cache_info().currsize == before


#: A YAML hex literal of 3,601 digits: an int of 14,401 bits, too long for decimal.
HUGE = "0x1" + "0" * 3600


def test_an_int_just_over_the_safe_bit_count_is_still_written_in_decimal() -> None:
    near = 2**14_100  # past the 14,000 bits below which no check is needed, 4,245 digits
    assert not unprintable_int(near)
    assert printable(near) is near
    assert printable_repr([near]) == f"[{near}]"


def test_a_value_nested_past_the_recursion_limit_through_aliases_gets_a_placeholder() -> None:
    chain = "\n".join(["a0: &a0 [1]", *(f"a{i}: &a{i} [*a{i - 1}]" for i in range(1, 1500))])
    deep = yaml.safe_load(chain)["a1499"]
    assert printable_repr(deep) == "<list nested too deeply to print>"


def test_the_hand_written_repr_writes_an_empty_set_and_a_list_inside_itself() -> None:
    value = yaml.safe_load(f"&a [{HUGE}, !!set {{}}, *a]")
    assert printable_repr(value) == f"[{hex(int(HUGE, 16))}, set(), [...]]"
    shown = printable(value)
    assert shown is not value and shown[2] is value  # the list inside itself is kept as it is
    assert repr(shown[0]) == hex(int(HUGE, 16))


def test_a_container_used_twice_is_rebuilt_once() -> None:
    # each level holds the one below twice: rebuilt once per use, 2**40 lists would be built
    chain = "\n".join([f"a0: &a0 [{HUGE}]", *(f"a{i}: &a{i} [*a{i - 1}, *a{i - 1}]" for i in range(1, 41))])
    value = yaml.safe_load(chain)["a40"]
    shown = printable(value)
    assert shown[0] is shown[1] and shown[0] is not value[0]
    bottom = shown
    for _ in range(40):
        bottom = bottom[0]
    assert repr(bottom) == f"[{hex(int(HUGE, 16))}]"


def test_a_workform_field_mapping_whose_name_is_unhashable_is_refused_at_the_name() -> None:
    source = "from lionagi.work import WorkForm\n\n"
    source += 'form = WorkForm(title="t", fields={"a": {"name": ["x"], "type": "str"}})\n'
    report = lint_bytes(source.encode(), "test_form.py")
    assert [(d.code, d.message, d.span.start.line, d.span.start.column) for d in report.diagnostics] == [
        ("PY002", "WorkForm(...): fields['a'].name is invalid (not a string)", 2, 49)
    ]


def test_an_unknown_directive_s_parameters_run_to_the_end_of_its_line() -> None:
    # PyYAML skips an unknown directive's line whole: its '#' starts no comment
    doc = parse_document("%FOO bar # not a comment\n--- # c\na: 1 # d\n")
    assert doc.ok
    assert [c.text for c in doc.comments()] == ["# c", "# d"]


def test_a_text_the_pure_reader_refuses_at_once_has_no_known_comments() -> None:
    # libyaml scans up to the NUL; the pure-Python reader, which decides, refuses the text
    # as it is handed over, so no comment is known
    assert comments_of("a: 1 # c\n\x00") == []


def test_a_stream_chunk_without_its_type_is_named_as_the_runtime_locates_it() -> None:
    # pydantic's location is chunks.0.type: the entry has its type, the chunk lacks one
    report = lint_bytes(
        b"responses:\n  - type: stream\n    chunks:\n      - content: hi\n  - {type: tool_call}\n",
        "example.script.yaml",
    )
    assert [(d.code, d.span.start.line + 1, d.message) for d in report.diagnostics] == [
        ("SC004", 4, "response #0 (stream): chunks.0 is missing required key 'type'"),
        ("SC004", 5, "response #1 (tool_call) is missing required key 'name'"),
    ]
