"""Branches of core/, rules/ and the YAML side of document/ that only an unusual input
reaches, each driven by that input and checked by what a user sees."""

from __future__ import annotations

from tests.rules.cases import lint_bytes

from formscript.core import suggest


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
