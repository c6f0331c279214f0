from formscript.core.gate import check_form_spec, load_spec_text
from formscript.core.verdict import Verdict


def test_accepted_form_renders_context_block() -> None:
    spec = load_spec_text("title: T\nfields:\n  age: {type: int}\nvalues:\n  age: '7'\n")
    result = check_form_spec(spec, "x.form.yaml")
    assert result.verdict is Verdict.ACCEPTED
    assert result.context_block == "[Work Form: T]\n  age: 7"
