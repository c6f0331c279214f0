"""Did-you-mean suggestions never rename a key onto one the mapping already has: the fix could
not apply (``--unsafe-fixes`` would decline it) and the hint would mislead."""

from __future__ import annotations

import pytest

from formscript.lint.engine import lint_text


@pytest.mark.parametrize(
    ("name", "text", "hint"),
    [
        ("a.script.yaml", "responses:\n  - {type: text, content: x, typo: oops}\n", None),
        ("a.script.yaml", "responses:\n  - {type: text, contnt: x}\n", "content"),
        (
            "a.script.yaml",
            "responses:\n  - {type: text, content: x, when: {prompt_contains: a, prompt_contain: b}}\n",
            None,
        ),
        ("a.script.yaml", "responses: []\nmode: auto\nmdoe: auto\n", None),
        ("a.form.yaml", "fields:\n  a: {type: str, description: x, descripton: y}\n", None),
        ("a.form.yaml", "fields: {}\nvalues: {}\nvalus: {}\n", None),
    ],
)
def test_a_suggestion_is_never_a_key_already_there(name: str, text: str, hint: str | None) -> None:
    (diagnostic,) = [d for d in lint_text(text, name).diagnostics if "unknown" in d.message]
    suggested = diagnostic.message.partition("did you mean ")[2].strip("'?")
    assert (suggested or None) == hint
    assert (diagnostic.fix is not None) == (hint is not None)
