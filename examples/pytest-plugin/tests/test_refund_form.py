"""The refund request, as a work form: fields declared in Python, a rule set, filled by the tests."""

import pytest
from pydantic import ValidationError
from lionagi.work import FieldSpec, Rule, RuleSet, WorkForm, fill_form

REFUND = WorkForm(
    title="Refund",
    fields={
        "order": FieldSpec(name="order", type="int"),
        "amount": FieldSpec(name="amount", type="float"),
        "reason": FieldSpec(name="reason", type="str", required=False),
    },
)
LIMITS = RuleSet().add(Rule(rule_id="max_refund", field="amount", check="range", params={"max": 500}))


def test_a_refund_within_the_limit():
    filled = fill_form(REFUND, {"order": 7, "amount": 120}, ruleset=LIMITS)
    assert filled.status == "validated" and filled.values["order"] == 7


def test_a_refund_over_the_limit():
    assert fill_form(REFUND, {"order": 7, "amount": 900}, ruleset=LIMITS).status == "error"


def test_a_field_name_must_be_an_identifier():
    with pytest.raises(ValidationError, match="must start with a letter"):
        FieldSpec(name="2nd reason")
