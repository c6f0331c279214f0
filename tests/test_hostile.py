"""Hostile and broken inputs get a real verdict and a located message, never a traceback."""

from __future__ import annotations

import pytest

from formscript.lint.engine import lint_text

LAUGHS = "".join(
    f"{name}: &{name} [{', '.join([f'*{prev}'] * 9)}]\n" for prev, name in zip("abcdefgh", "bcdefghi", strict=True)
)
BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + LAUGHS

CASES = {
    "bomb.form.yaml": (BOMB, "rejected", "FS001"),
    "deep.form.yaml": ("[" * 20000 + "]" * 20000, "rejected", "YM001"),
    "deep.script.json": ("[" * 20000 + "]" * 20000, "rejected", "YM001"),
    "nul.form.yaml": ("title: a\x00b\n", "rejected", "YM001"),
    "binary.form.yaml": ("\x89PNG\r\n\x1a\n\x00\x00", "rejected", "YM001"),
    "tabs.form.yaml": ("fields:\n\ta: {type: int}\n", "rejected", "YM001"),
    "empty.form.yaml": ("", "rejected", "FS002"),
    "empty.script.yaml": ("", "accepted", "SC016"),
    "python.form.yaml": ("title: !!python/object/apply:os.system ['touch pwned']\n", "rejected", "YM003"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_hostile_input_gets_a_verdict(name: str) -> None:
    text, verdict, code = CASES[name]
    report = lint_text(text, name)
    assert report.verdict is not None and report.verdict.value == verdict
    assert code in [d.code for d in report.diagnostics]


def test_python_tag_is_never_executed(tmp_path: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # type: ignore[arg-type]
    lint_text("title: !!python/object/apply:os.system ['touch pwned']\n", "x.form.yaml")
    assert not (tmp_path / "pwned").exists()  # type: ignore[operator]


def test_crlf_positions_stay_right() -> None:
    report = lint_text("fields:\r\n  a: {type: int}\r\nvalues:\r\n  a: x\r\n", "crlf.form.yaml")
    (diagnostic,) = report.diagnostics
    assert diagnostic.code == "FS014"
    assert (diagnostic.span.start.line, diagnostic.span.start.column) == (3, 5)
