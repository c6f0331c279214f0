"""Expected outcomes: what a Python test states about a call, set against the prediction.

The shapes are those of lionagi's own suite (negative tests in ``with pytest.raises(...)``, a
rule asserted to fail, a form spec written to ``tmp_path`` and lionagi's command line asserted
to return 1). Each test module here is also run with lionagi 0.36.0 when it is installed: the
test fails exactly where formscript reports an error (tests/conformance holds the generated
variants)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from formscript.cli import main
from formscript.lint.config import Settings
from formscript.lint.python_lint import lint_python


def _lint(source: str, settings: Settings | None = None) -> tuple[list[tuple[str, int]], list[str | None]]:
    """The (code, 1-based line) of each diagnostic, and each part's expected statement."""
    report = lint_python(textwrap.dedent(source), "test_x.py", settings=settings)
    parts = report.parts or []
    diagnostics = [(d.code, d.span.start.line + 1) for d in report.diagnostics]
    return diagnostics, [p.expected.by if p.expected is not None else None for p in parts]


NEGATIVE = """
    import pytest
    from lionagi.testing import ScriptModel
    from lionagi.work import FieldSpec


    def test_unknown_type():
        with pytest.raises(ValueError, match="unknown response type"):
            ScriptModel.from_responses([{"type": "made_up"}])


    def test_bad_name():
        with pytest.raises(Exception):
            FieldSpec(name="1bad")
"""


def test_a_negative_test_reports_nothing_and_says_why() -> None:
    diagnostics, expected = _lint(NEGATIVE)
    assert diagnostics == []
    assert expected == ['pytest.raises(ValueError, match="unknown response type")', "pytest.raises(Exception)"]


def test_the_setting_turns_it_off() -> None:
    diagnostics, expected = _lint(NEGATIVE, Settings(expected_outcomes=False))
    assert [code for code, _ in diagnostics] == ["SC002", "FS006"]
    assert expected == [None, None]


@pytest.mark.parametrize(
    ("block", "codes"),
    [
        # tuples, nested blocks and several items
        ("with pytest.raises((TypeError, ValueError)):", []),
        ("with pytest.raises(KeyError), pytest.raises(ValueError):", []),
        ("with pytest.raises(pydantic.ValidationError):", []),
        ("with pytest.raises(ValidationError):", []),
        # a class that does not catch it
        ("with pytest.raises(TypeError):", ["PY003"]),
        ("with pytest.raises((TypeError, KeyError)):", ["PY003"]),
        # a class formscript does not know: nothing is claimed either way
        ("with pytest.raises(MyError):", []),
    ],
)
def test_the_exception_class_decides(block: str, codes: list[str]) -> None:
    source = f"""
        import pydantic
        import pytest
        from pydantic import ValidationError
        from lionagi.testing import ScriptModel
        from mypackage import MyError


        def test_refused():
            {block}
                ScriptModel.from_responses([{{"type": "made_up"}}])
    """
    diagnostics, _ = _lint(source)
    assert [code for code, _ in diagnostics] == codes


def test_nested_blocks_an_outer_one_catches() -> None:
    source = """
        import pytest
        from lionagi.testing import ScriptModel


        def test_refused():
            with pytest.raises(ValueError):
                with pytest.raises(KeyError):
                    ScriptModel.from_responses([{"type": "made_up"}])
    """
    assert _lint(source)[0] == []


def test_an_accepted_script_in_a_block_that_expects_a_refusal() -> None:
    source = """
        import pytest
        from lionagi.testing import ScriptModel


        def test_refused():
            with pytest.raises(ValueError):
                ScriptModel.from_responses([{"type": "text", "content": "ok"}])


        def test_refused_later():
            with pytest.raises(RuntimeError):
                script = ScriptModel.from_responses([{"type": "text", "content": "ok"}])
                script.next({}, 0)
                script.next({}, 1)
    """
    # only where nothing else in the block can raise is the failure certain
    assert _lint(source)[0] == [("PY003", 8)]


def test_the_call_forms() -> None:
    source = """
        import unittest

        import pytest
        from lionagi.testing import ScriptModel


        def test_refused():
            pytest.raises(ValueError, ScriptModel.from_responses, [{"type": "made_up"}])


        def test_accepted():
            pytest.raises(ValueError, ScriptModel.from_responses, [{"type": "text", "content": "x"}])


        class TestScripts(unittest.TestCase):
            def test_refused(self):
                self.assertRaises(ValueError, ScriptModel.from_responses, [{"type": "made_up"}])
                with self.assertRaises(TypeError):
                    ScriptModel.from_responses([{"type": "made_up"}])
    """
    diagnostics, expected = _lint(source)
    assert diagnostics == [("PY003", 13), ("PY003", 20)]
    assert expected[0] is not None and expected[0].startswith("pytest.raises(ValueError")


def test_xfail() -> None:
    source = """
        import pytest
        from pydantic import ValidationError
        from lionagi.testing import ScriptModel


        @pytest.mark.xfail(raises=ValidationError, strict=True)
        def test_strict_refused():
            ScriptModel.from_responses([{"type": "made_up"}])


        @pytest.mark.xfail(raises=ValidationError, strict=True)
        def test_strict_accepted():
            ScriptModel.from_responses([{"type": "text", "content": "x"}])


        @pytest.mark.xfail(raises=ValidationError)
        def test_lenient_accepted():
            ScriptModel.from_responses([{"type": "text", "content": "x"}])


        @pytest.mark.xfail(raises=TypeError)
        def test_wrong_class():
            ScriptModel.from_responses([{"type": "made_up"}])
    """
    assert _lint(source)[0] == [("PY003", 14), ("PY003", 24)]


def test_outcomes_asserted_on_what_a_call_returns() -> None:
    source = """
        from lionagi.work import FieldSpec, Rule, RuleSet, WorkForm, fill_form, validate_form


        def test_status():
            form = WorkForm(fields={"n": FieldSpec(name="n", type="int")})
            result = fill_form(form, {"n": "seven"})
            assert result.status == "error"
            assert validate_form(WorkForm(fields={"m": FieldSpec(name="m")}, values={})).validation_errors


        def test_status_wrong():
            form = WorkForm(fields={"n": FieldSpec(name="n", type="int")})
            assert fill_form(form, {"n": "7"}).status == "error"


        def test_rule():
            rule = Rule(rule_id="r", field="x", check="pattern", params={"pattern": r"[invalid"})
            err = rule.apply(WorkForm(values={"x": "hello"}))
            assert err is not None
            assert "invalid regex" in err
    """
    diagnostics, expected = _lint(source)
    assert diagnostics == [("PY003", 14)]
    assert 'assert result.status == "error"' in expected
    assert "assert err is not None" in expected


def test_a_form_written_for_the_command_line_asserted_to_fail() -> None:
    source = """
        from lionagi.cli.agent import run_agent


        def test_gate(tmp_path):
            spec = tmp_path / "intake.form.yaml"
            spec.write_text("fields:\\n  repo:\\n    type: str\\n    required: true\\nvalues: {}\\n")
            assert run_agent(_args(form=str(spec))) == 1


        def test_gate_passes(tmp_path):
            spec = tmp_path / "other.form.yaml"
            spec.write_text("fields:\\n  repo:\\n    type: str\\n    required: true\\nvalues: {}\\n")
            assert run_agent(_args(form=str(spec))) == 0
    """
    diagnostics, expected = _lint(source)
    assert [code for code, _ in diagnostics] == ["FS012"]
    assert expected[0] == "assert run_agent(_args(form=str(spec))) == 1"


def test_the_reports_say_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "test_neg.py").write_text(textwrap.dedent(NEGATIVE), encoding="utf-8")
    assert main(["lint", "--no-cache", str(tmp_path / "test_neg.py")]) == 0
    text = capsys.readouterr().out
    assert text.rstrip().endswith("2 expected rejection(s), as their tests state")
    assert main(["lint", "--no-cache", "--format", "json", str(tmp_path / "test_neg.py")]) == 0
    files = json.loads(capsys.readouterr().out)["files"]
    assert [f["verdict"] for f in files] == ["rejected", "rejected"]
    assert files[0]["expected"]["raises"] == "ValidationError"
    assert files[0]["expected"]["range"]["start"] == {"line": 8, "column": 10}
    # the cache keeps it
    cache = ["--cache-dir", str(tmp_path / "cache")]
    assert main(["lint", *cache, "--format", "json", str(tmp_path / "test_neg.py")]) == 0
    first = capsys.readouterr().out
    assert main(["lint", *cache, "--format", "json", str(tmp_path / "test_neg.py")]) == 0
    assert capsys.readouterr().out == first


RULES_APPLIED = """
from lionagi.work import Rule, RuleSet, WorkForm


def test_a():
    rule = Rule(rule_id="r", field="age", check="range", params={"min": 0, "max": 120})
    form = WorkForm(values={"age": 300})
    assert rule.apply(form) is None


def test_b():
    rule = Rule(rule_id="r", field="age", check="range", params={"min": 0, "max": 120})
    err = rule.apply(WorkForm(values={"age": 30}))
    assert err is not None


def test_c():
    rule = Rule(rule_id="r", field="email", check="pattern", params={"pattern": ".+@.+"})
    form = WorkForm(values={"email": "a@b"})
    assert rule.apply(form) is None


def test_d():
    rs = RuleSet().add(Rule(rule_id="r3", field="x", check="required"))
    form = WorkForm(values={})
    assert rs.apply_all(form) == []


def test_e():
    rs = RuleSet().add(Rule(rule_id="r3", field="x", check="required"))
    form = WorkForm(values={})
    errors = rs.apply_all(form)
    assert len(errors) == 1
"""


def test_a_rule_applied_to_a_literal_form_is_evaluated() -> None:
    diagnostics, expected = _lint(RULES_APPLIED)
    assert diagnostics == [("PY003", 6), ("PY003", 12), ("PY003", 24)]
    assert "assert len(errors) == 1" in expected


def _lionagi() -> bool:
    try:
        import lionagi  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.mark.skipif(not _lionagi(), reason="lionagi 0.36.0 (the conformance extra) is not installed")
def test_lionagi_fails_exactly_the_tests_formscript_says_will_fail(tmp_path: Path) -> None:
    """Every module above that lionagi can run, through pytest: a test fails exactly when
    formscript reports an error in it."""
    sources = {
        "test_negative.py": NEGATIVE,
        "test_forms.py": """
            import pytest
            from pydantic import ValidationError
            from lionagi.testing import ScriptModel
            from lionagi.work import FieldSpec, WorkForm, fill_form


            def test_a():
                with pytest.raises(ValueError):
                    ScriptModel.from_responses([{"type": "text", "content": "ok"}])


            def test_b():
                with pytest.raises(TypeError):
                    FieldSpec(name="1bad")


            def test_c():
                form = WorkForm(fields={"n": FieldSpec(name="n", type="int")})
                assert fill_form(form, {"n": "7"}).status == "error"


            def test_d():
                form = WorkForm(fields={"n": FieldSpec(name="n", type="int")})
                assert fill_form(form, {"n": "seven"}).status == "error"


            @pytest.mark.xfail(raises=ValidationError, strict=True)
            def test_e():
                ScriptModel.from_responses([{"type": "text", "content": "x"}])


            def test_f():
                with pytest.raises(ValueError):
                    fill_form(WorkForm(fields={"n": FieldSpec(name="n", type="int")}), {})
        """,
    }
    sources["test_rules.py"] = RULES_APPLIED
    predicted: dict[str, bool] = {}
    for name, source in sources.items():
        text = textwrap.dedent(source)
        (tmp_path / name).write_text(text, encoding="utf-8")
        import ast

        report = lint_python(text, name)
        errors = [d.span.start.line + 1 for d in report.diagnostics if d.severity == "error"]
        for node in ast.parse(text).body:
            if isinstance(node, ast.FunctionDef):
                end = node.end_lineno or node.lineno
                predicted[f"{name}::{node.name}"] = any(node.lineno <= line <= end for line in errors)
    junit = tmp_path / "junit.xml"
    subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:formscript", f"--junitxml={junit}"],
        cwd=tmp_path,
        capture_output=True,
        check=False,
    )
    import xml.etree.ElementTree as ET

    failed: dict[str, bool] = {}
    for case in ET.parse(junit).iter("testcase"):
        key = f"{case.get('classname', '').replace('.', '/')}.py::{case.get('name')}"
        failed[key] = case.find("failure") is not None or case.find("error") is not None
    assert failed == predicted


def test_a_written_text_follows_the_call_that_reads_it() -> None:
    source = """
        import pytest
        from pydantic import ValidationError
        from lionagi.testing import ScriptModel


        def test_refused(tmp_path):
            p = tmp_path / "s.yaml"
            p.write_text("responses:\\n  - {type: bogus}\\n")
            with pytest.raises(ValidationError):
                ScriptModel.from_yaml(p)


        def test_wrong_class(tmp_path):
            p = tmp_path / "s.yaml"
            p.write_text("responses: [\\n")
            with pytest.raises(ValueError):
                ScriptModel.from_yaml(p)


        def test_accepted(tmp_path):
            p = tmp_path / "s.json"
            p.write_text('{"responses": [{"type": "text", "content": "hi"}]}')
            with pytest.raises(ValueError):
                ScriptModel.from_json(p)
    """
    report = lint_python(textwrap.dedent(source), "test_x.py")
    shown = [(d.code, d.span.start.line + 1, d.message.split(" in lionagi")[0]) for d in report.diagnostics]
    # located at the call that reads the file, and named by it
    assert shown == [
        ("PY003", 18, "ScriptModel.from_yaml(...) raises yaml.YAMLError"),
        ("PY003", 25, shown[1][2]),
    ]
    assert shown[1][2].startswith(
        "the test expects `pytest.raises(ValueError)`, but lionagi accepts ScriptModel.from_json"
    )
    assert [p.expected is not None for p in report.parts or []] == [True, False, False]


def test_a_rule_never_raises_when_applied() -> None:
    source = """
        import pytest
        from lionagi.work import Rule, WorkForm


        def test_apply_raises():
            rule = Rule(rule_id="r", field="x", check="required")
            form = WorkForm(values={})
            with pytest.raises(ValueError):
                rule.apply(form)


        def test_custom_may_raise():
            rule = Rule(rule_id="r", field="x", check="custom", params={"fn": lambda v: 1 / 0})
            with pytest.raises(ZeroDivisionError):
                rule.apply(WorkForm(values={"x": 1}))
    """
    assert _lint(source)[0] == [("PY003", 10)]


def test_a_block_that_may_not_run_claims_nothing() -> None:
    source = """
        import pytest
        from lionagi.testing import ScriptModel


        def test_deferred():
            check = lambda: pytest.raises(ValueError, ScriptModel.from_responses, [{"type": "text", "content": "x"}])
            m = [pytest.raises(ValueError, ScriptModel.from_responses, [{"type": "text", "content": ""}]) for _ in ()]


        def test_unknown_arguments(args):
            with pytest.raises(*args):
                ScriptModel.from_responses([{"type": "made_up"}])
            with pytest.raises():
                ScriptModel.from_responses([{"type": "made_up"}])
    """
    diagnostics, expected = _lint(source)
    assert diagnostics == []
    assert expected[2:] == ["pytest.raises(*args)", "pytest.raises()"]


def test_documents_lionagi_accepts_do_not_raise_before_the_call() -> None:
    source = """
        import pytest
        from lionagi.work import FieldSpec, Rule, WorkForm, fill_form


        @pytest.mark.xfail(raises=Exception, strict=True)
        def test_rule_fails():
            rule = Rule(rule_id="r", field="email", check="pattern", params={"pattern": ".+@.+"})
            form = WorkForm(values={"email": "a@b"})
            rule.apply(form)


        def test_fill_raises():
            form = WorkForm(fields={"n": FieldSpec(name="n", type="int")})
            with pytest.raises(TypeError):
                fill_form(form, {"n": "seven"})
    """
    assert [code for code, _ in _lint(source)[0]] == ["PY003", "PY003"]
