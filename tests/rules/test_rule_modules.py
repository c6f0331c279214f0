"""The rule modules: every rule is registered once, documents itself and loads only when used;
no module outside ``formscript/rules`` names a code. (Cases and documented examples:
test_registry.py.)"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from formscript import rules
from formscript.lint.engine import PairedForm, lint_text
from formscript.rules import reference
from formscript.rules.base import EXAMPLE_FORM, EXAMPLE_FORM_NAME, Rule

PACKAGE = Path(rules.__file__).resolve().parents[1]
RULES = rules.all_rules()
WITH_EXAMPLES = [r for r in RULES if r.has_examples]
CODE = re.compile(r"(?<![A-Za-z0-9])(?:FSX|FS|SC|RS|YM|CL|PY)\d{3}(?![0-9])")


def _diagnostics(rule: Rule, text: str) -> list[tuple[str, str]]:
    paired = PairedForm(EXAMPLE_FORM, EXAMPLE_FORM_NAME) if rule.kind == "rules" else None
    report = lint_text(text, rule.example_path(), paired_form=paired)
    return [(d.code, d.message) for d in report.diagnostics]


def test_rules_without_examples_say_so() -> None:
    bare = [r for r in RULES if not r.has_examples]
    assert [r.code for r in bare] == ["FSX000"]
    for rule in bare:
        assert rule.fails is None and rule.passes is None
        assert "## Fails" not in rule.page()


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_rule_documents_itself(rule: Rule) -> None:
    assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", rule.name)
    assert rule.kind in ("form", "script", "rules", "calls", "any")
    assert rule.severity in ("error", "warning", "info", "hint")
    assert rule.summary and rule.why
    page = rule.page()
    assert page.startswith(f"# {rule.code} {rule.name}\n\n")
    assert f"Default severity: {rule.severity}." in page
    assert page.count("## Why") == 1
    if rule.rejects:
        assert rule.severity == "error", "a finding the runtime refuses the file for is an error"


def test_registry_lists_every_rule_once() -> None:
    codes = [r.code for r in RULES]
    assert codes == list(rules.MODULES)
    assert len(set(codes)) == len(codes)
    assert len({r.name for r in RULES}) == len(codes)
    for rule in RULES:
        assert rules.get(rule.code) is rule
        assert rules.get(f" {rule.code.lower()} ") is rule
        assert getattr(rules, rule.code) is rule
        assert type(rule).__module__ == f"formscript.rules.{rules.MODULES[rule.code]}"
    assert rules.get("FS999") is None
    with pytest.raises(AttributeError):
        _ = rules.NOPE  # type: ignore[attr-defined]


def test_rule_modules_are_named_by_code_and_name() -> None:
    files = {p.stem for p in (PACKAGE / "rules").glob("*.py")} - {"__init__", "base"}
    assert files == set(rules.MODULES.values()), "every rule module is registered, and only those"
    for rule in RULES:
        module = rules.MODULES[rule.code]
        single = f"{rule.code.lower()}_{rule.name.replace('-', '_')}"
        family = [c for c, m in rules.MODULES.items() if m == module]
        assert module == single or len(family) > 1, f"{rule.code} lives in {module}, expected {single}"


def test_type_checking_imports_match_the_registry() -> None:
    """mypy sees the rules through the TYPE_CHECKING imports; they must list the registry."""
    tree = ast.parse((PACKAGE / "rules" / "__init__.py").read_text(encoding="utf-8"))
    seen: dict[str, str] = {}
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.ImportFrom)
            and (node.module or "").startswith("formscript.rules.")
            and node.module != "formscript.rules.base"
        ):
            for alias in node.names:
                assert alias.asname == alias.name
                seen[alias.name] = node.module.rsplit(".", 1)[-1]
    assert seen == rules.MODULES


def _string_constants(tree: ast.AST) -> list[tuple[int, str]]:
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    ]


def test_no_code_literal_outside_the_rules_package() -> None:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if (PACKAGE / "rules") in path.parents:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for line, text in _string_constants(tree):
            if CODE.search(text):
                found.append(f"{path.relative_to(PACKAGE)}:{line}: {text[:60]!r}")
    assert found == [], "emit rule objects (rules.FS005.problem(...)), never a code string"


def test_the_literal_check_sees_codes_in_strings_and_f_strings() -> None:
    sample = ast.parse('x = "FS005"\ny = f"see SC011 {z}"\nw = rules.FS005\nv = "FS0050"\n')
    assert [line for line, text in _string_constants(sample) if CODE.search(text)] == [1, 2]


def test_clean_lint_loads_no_rule_module() -> None:
    """A clean file never imports a rule module (the registry stays off the fast path)."""
    import subprocess
    import sys

    script = (
        "import sys\n"
        "from formscript.lint.engine import lint_text\n"
        "for name, text in [('a.form.yaml', 'fields:\\n  age: {type: int}\\nvalues:\\n  age: 3\\n'),\n"
        "                   ('a.script.yaml', 'responses:\\n  - {type: text, content: hi}\\n')]:\n"
        "    assert lint_text(text, name).diagnostics == []\n"
        "print(sorted(m for m in sys.modules if m.startswith('formscript.rules.')))\n"
        "print('pydantic' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert out == "[]\nFalse\n"


def test_the_reference_lists_every_rule_and_its_page() -> None:
    """``formscript rule --all --format markdown``: an index, then every page in full."""
    text = reference()
    for rule in RULES:
        assert f"| [{rule.code}](#{rule.code.lower()}-{rule.name}) |" in text
        assert rule.page() in text
