"""Every rule's documented examples behave as documented: the failing one reports the code,
the passing one does not."""

from __future__ import annotations

import pytest

from formscript.lint import catalogue
from formscript.lint.engine import PairedForm, lint_text

RULES = [r for r in catalogue.RULES if r.code != "FSX000"]


def _codes(rule: catalogue.RuleDoc, text: str) -> list[str]:
    paired = PairedForm(catalogue.PAIRED_FORM, "paired.form.yaml") if rule.kind == "rules" else None
    report = lint_text(text, rule.example_path(), paired_form=paired)
    return [d.code for d in report.diagnostics]


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_failing_example_reports_the_code(rule: catalogue.RuleDoc) -> None:
    assert rule.code in _codes(rule, rule.bad)


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_passing_example_is_free_of_the_code(rule: catalogue.RuleDoc) -> None:
    assert rule.code not in _codes(rule, rule.good)


def test_codes_are_unique_and_documented() -> None:
    codes = [r.code for r in catalogue.RULES]
    assert len(codes) == len(set(codes))
    for rule in catalogue.RULES:
        assert rule.summary and rule.why
        assert rule.markdown().startswith(f"# {rule.code} {rule.name}")
