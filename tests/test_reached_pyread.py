"""Python the readers of test files (``formscript.document.py*``) meet in users' files and that
no other test writes: how a string's characters are located through raw strings, escapes and
``\\r\\n`` line breaks; literals folded from expressions; odd calls that are not documents."""

from __future__ import annotations

import textwrap

import pytest

from formscript.document.model import Pos
from formscript.document.pyextract import extract
from formscript.document.pystrings import TextPositions
from formscript.document.pytolerant import Blanked, parse_tolerantly
from formscript.lint.python_lint import lint_python


def _written(text: str) -> TextPositions:
    """The located text the one ``write_text`` of *text* (a test module) writes."""
    found = [e.text for e in extract(text) if e.semantic == "text"]
    assert len(found) == 1 and found[0] is not None
    return found[0]


def _where(located: TextPositions) -> list[tuple[str, int, int]]:
    return [(char, pos.line, pos.column) for char, pos in zip(located.text, located.positions, strict=True)]


def _module(literal: str, newline: str = "\n") -> str:
    lines = ["def test_x(tmp_path):", '    p = tmp_path / "s.yaml"', f"    p.write_text({literal})", ""]
    return newline.join(lines)


# ----------------------------------------------------------------- characters, through escapes


def test_a_raw_string_keeps_each_backslash_and_the_character_after_it_in_place() -> None:
    located = _written(_module(r'r"a: \n\\"'))
    assert located.text == "a: \\n\\\\"
    assert _where(located) == [
        ("a", 2, 19),
        (":", 2, 20),
        (" ", 2, 21),
        ("\\", 2, 22),
        ("n", 2, 23),
        ("\\", 2, 24),
        ("\\", 2, 25),
    ]
    assert located.end == Pos(2, 26)


def test_octal_named_and_unknown_escapes_stand_at_their_backslash() -> None:
    located = _written(_module(r'"a: \101\N{BULLET}\q"'))
    assert located.text == "a: A•\\q"
    assert _where(located) == [
        ("a", 2, 18),
        (":", 2, 19),
        (" ", 2, 20),
        ("A", 2, 21),
        ("•", 2, 25),
        ("\\", 2, 35),
        ("q", 2, 35),
    ]


def test_line_breaks_written_as_crlf_inside_a_string_are_one_character() -> None:
    # a triple-quoted string across a \r\n break, and a backslash continuation before one
    source = _module('"""a: 1\r\nb: 2""" "\\\r\nc"', newline="\r\n")
    located = _written(source)
    assert located.text == "a: 1\nb: 2c"
    assert _where(located)[3:7] == [("1", 2, 23), ("\n", 2, 24), ("b", 3, 0), (":", 3, 1)]
    assert _where(located)[-1] == ("c", 4, 0)


def test_strip_lstrip_and_rstrip_keep_the_positions_of_what_they_keep() -> None:
    for method, text, first, end in [
        ("strip", "a: 1", ("a", 2, 20), Pos(2, 24)),
        ("lstrip", "a: 1\\n ", ("a", 2, 20), Pos(2, 27)),
        ("rstrip", "  a: 1", (" ", 2, 18), Pos(2, 24)),
    ]:
        located = _written(_module(f'"  a: 1\\n ".{method}()'))
        assert located.text == text.replace("\\n", "\n")
        assert _where(located)[0] == first
        assert located.end == end


# ----------------------------------------------------------------- calls of the work-form API


def _reported(source: str) -> list[tuple[int, str | None, str, list[str]]]:
    """(line of the call, kind, verdict, "CODE line:column message" of each finding) per part."""
    bundle = lint_python(textwrap.dedent(source), "test_example.py")
    found = []
    for part in bundle.parts or []:
        assert part.embedded is not None and part.verdict is not None
        findings = [f"{d.code} {d.span.start.line}:{d.span.start.column} {d.message}" for d in part.diagnostics]
        found.append((part.embedded.call_span.start.line, part.kind, part.verdict.value, findings))
    return found


_POSITIONAL = "takes keyword arguments only; this positional argument raises TypeError"


def test_work_form_models_given_positional_or_repeated_arguments_raise() -> None:
    assert _reported(
        """\
        from lionagi.work import FieldSpec, Rule, RuleSet, WorkForm

        def test_x():
            FieldSpec(name=["a", 1])
            Rule("x")
            FieldSpec("a")
            Rule(name="r", **{"name": "s"})
            RuleSet().add(Rule(name="q", when="a")).add(rule={"x": 1}).add()
        """
    ) == [
        (
            3,
            "form",
            "rejected",
            [
                'FS006 3:19 field name ["a", 1] is not an identifier'
                " (letters, digits and underscores, not starting with a digit)"
            ],
        ),
        (
            4,
            "rules",
            "rejected",
            ["PY002 4:9 Rule(...) takes keyword arguments only; this positional argument raises TypeError"],
        ),
        (
            5,
            "form",
            "rejected",
            ["PY002 5:14 FieldSpec(...) takes keyword arguments only; this positional argument raises TypeError"],
        ),
        (6, "rules", "rejected", ["PY002 6:4 Rule(...) is given 'name' twice; the call raises TypeError"]),
        (7, "rules", "rejected", []),
        (
            7,
            "rules",
            "rejected",
            [
                "RS001 7:18 rule #0 has unknown check None; expected one of required, type, range, pattern, custom",
                "RS011 7:18 rule #0 is missing 'field'",
                "RS011 7:18 rule #0 is missing 'rule_id'",
            ],
        ),
    ]


def test_calls_whose_arguments_are_splatted_are_not_documents() -> None:
    # the arguments are known only at run time: nothing is read, and nothing is refused
    assert _reported(
        """\
        from lionagi.work import WorkForm, fill_form
        from lionagi.testing import ScriptModel, TestBranch

        def test_x(args, kw, spec):
            fill_form(*args)
            fill_form(**kw)
            fill_form(WorkForm(fields={}), *args)
            fill_form(WorkForm(**spec), values={})
            ScriptModel.from_responses(*args)
            TestBranch.from_text(*args)
            ScriptModel.model_validate(*args)
            ScriptModel.model_validate({"responses": []}, strict=True)
        """
    ) == [(6, "form", "accepted", [])]


# ----------------------------------------------------------------- literals, folded or not

_RAISES = "so Python raises TypeError building it; lionagi is never called"
_TYPES = "expected one of text, tool_call, structured, stream, error"
_RUN_TIME = "is only known at run time; formscript cannot check it"


def test_literals_are_folded_where_python_would_and_opaque_where_it_runs_code() -> None:
    assert _reported(
        """\
        from lionagi.testing import ScriptModel

        S = f"abc"
        D = {"type": "text", "content": "x"}
        SELF = [SELF]

        def test_x(x, y):
            ScriptModel.from_responses([{"type": f"nope", "content": "hi"}])
            ScriptModel.from_responses([{"type": "text", "content": "a" if x else 1}])
            ScriptModel.from_responses([{"type": "text", "content": ...}])
            ScriptModel.from_responses([{"type": "text", "content": SELF}])
            ScriptModel.from_responses([{**D}, {**x}, {**{[1]: 2}}])
            ScriptModel.from_responses([{f"{x}": 1}, {"type": "text", "content": "a"}])
            ScriptModel.from_responses([{"type": "text", "content": "a", "meta": {[1], 2}}])
            ScriptModel.from_responses([*[{"type": "nope"}], D])
            ScriptModel.from_responses([*x])
            ScriptModel.from_responses([{"type": "text", "content": {x}}])
            ScriptModel.from_responses([{"type": "text", "content": not 0}])
            ScriptModel.from_responses([{"type": "text", "content": -x}])
            ScriptModel.from_responses([D] + [D])
            ScriptModel.from_responses([{"type": "text", "content": "%s" % x}])
            ScriptModel.from_responses([{"type": "text", "content": f"{x}" + "a"}])
            ScriptModel.from_responses([dict(type="text", content=" a ".strip())])
            ScriptModel.from_responses([{"type": "text", "content": "{}".format(x)}])
            ScriptModel.from_responses(list((D,)))
            ScriptModel.from_responses(list(x))
            ScriptModel.from_responses([{"type": "text", "content": set()}])
            ScriptModel.from_responses([{"type": "text", "content": frozenset([[1]])}])
            ScriptModel.from_responses([dict(**{[1]: 2})])
        """
    ) == [
        (7, "script", "rejected", [f"SC002 7:41 response #0 has unknown type 'nope'; {_TYPES}"]),
        (8, "script", "insufficient_evidence", [f'PY001 8:60 the expression "a" if x else 1 {_RUN_TIME}']),
        (9, "script", "insufficient_evidence", [f"PY001 9:60 ... {_RUN_TIME}"]),
        (10, "script", "insufficient_evidence", [f"PY001 4:8 the name 'SELF' (which refers to itself) {_RUN_TIME}"]),
        (11, "script", "rejected", [f"PY002 11:49 the dict's key [1] is unhashable, {_RAISES}"]),
        (
            12,
            "script",
            "insufficient_evidence",
            [f'PY001 12:32 a dict whose key f"{{x}}" is not a literal {_RUN_TIME}'],
        ),
        (13, "script", "rejected", [f"PY002 13:73 a member of the set {{[1], 2}} is unhashable, {_RAISES}"]),
        (14, "script", "rejected", [f"SC002 14:43 response #0 has unknown type 'nope'; {_TYPES}"]),
        (16, "script", "insufficient_evidence", [f"PY001 16:60 the set {{x}} {_RUN_TIME}"]),
        (
            17,
            "script",
            "rejected",
            ["SC005 17:60 response #0 (text): content True is invalid (input should be a valid string)"],
        ),
        (18, "script", "insufficient_evidence", [f"PY001 18:60 the expression -x {_RUN_TIME}"]),
        (19, "script", "accepted", []),
        (20, "script", "accepted", []),
        (21, "script", "accepted", []),
        (22, "script", "accepted", []),
        (23, "script", "accepted", []),
        (24, "script", "accepted", []),
        (
            26,
            "script",
            "rejected",
            ["SC005 26:60 response #0 (text): content set() is invalid (input should be a valid string)"],
        ),
        (27, "script", "insufficient_evidence", [f"PY001 27:60 the call frozenset([[1]]) {_RUN_TIME}"]),
        (28, "script", "rejected", [f"PY002 28:39 the dict's key [1] is unhashable, {_RAISES}"]),
    ]


# ----------------------------------------------------------------- what names mean


def test_names_bound_by_star_imports_annotations_and_imports_under_try_or_if_are_followed() -> None:
    # a with-target tuple and a relative import hide the module's names; a lambda's default
    # and a comprehension's condition are calls like any other
    assert _reported(
        """\
        from lionagi.testing import *

        try:
            from lionagi.testing import ScriptModel as SM
        except ImportError:
            from lionagi.testing import ScriptModel as Fallback
        if True:
            from lionagi.testing import ScriptModel as Made

        R: list = [{"type": "annotated"}]
        a = [{"type": "module"}]
        FN = lambda s=ScriptModel.from_responses([{"type": "default"}]): s


        class Holder:
            def method(self):
                return SM.from_responses([{"type": "in_try"}])


        class Other:
            def method(self):
                return Made.from_responses([{"type": "in_if"}])


        def test_x(items, tmp_path):
            ScriptModel.from_responses(R)
            [t for t in items if ScriptModel.from_responses([{"type": "condition"}])]
            with open(tmp_path) as (a, b):
                ScriptModel.from_responses(a)


        def test_y():
            from .helpers import SM

            SM.from_responses([{"type": "relative"}])


        class Spare:
            def method(self):
                return Fallback.from_responses([{"type": "in_except"}])
        """
    ) == [
        (25, "script", "rejected", [f"SC002 9:20 response #0 has unknown type 'annotated'; {_TYPES}"]),
        (11, "script", "rejected", [f"SC002 11:51 response #0 has unknown type 'default'; {_TYPES}"]),
        (16, "script", "rejected", [f"SC002 16:43 response #0 has unknown type 'in_try'; {_TYPES}"]),
        (21, "script", "rejected", [f"SC002 21:45 response #0 has unknown type 'in_if'; {_TYPES}"]),
        (26, "script", "rejected", [f"SC002 26:62 response #0 has unknown type 'condition'; {_TYPES}"]),
        (39, "script", "rejected", [f"SC002 39:49 response #0 has unknown type 'in_except'; {_TYPES}"]),
    ]


def test_a_name_a_function_rebinds_as_global_is_not_a_literal() -> None:
    assert (
        _reported(
            """\
        from lionagi.testing import ScriptModel

        R = [{"type": "module"}]


        def reset():
            global R
            R = []


        def test_x():
            ScriptModel.from_responses(R)
        """
        )
        == []
    )


# ----------------------------------------------------------------- texts written to files


def test_writes_and_paths_lionagi_is_not_handed_are_not_documents() -> None:
    # only the texts whose path goes to the script variable as f"{p}" or p.as_posix() are
    # scripts; the other writes have no literal text, no file opened for writing, or a path
    # passed in a way that is not the path itself
    assert _reported(
        """\
        import json
        import os
        from pathlib import Path

        import yaml
        from lionagi.testing import ENV_SCRIPT_PATH, scripted_env

        BAD = "{}"


        def test_writes(tmp_path, content, handle, monkeypatch):
            tmp_path.joinpath("a.json").write_text()
            handle.write(BAD)
            Path(tmp_path, "b.json").write_text(content)
            (tmp_path / "c.json").write_text(json.dumps())
            (tmp_path / "d.json").write_text(json.dumps({"responses": []}, indent=content))
            (tmp_path / "e.json").write_text(json.dumps(content))
            (tmp_path / "f.yaml").write_text(yaml.safe_dump())
            (tmp_path / "g.yaml").write_text(yaml.safe_dump({"responses": [{"type": "nope"}]}))
            json.dump({"responses": []})
            json.dump({"responses": []}, handle)
            with (tmp_path / "h.json").open("w") as out:
                out.write(BAD)
            with open(tmp_path / "i.json", content) as out2:
                out2.write(BAD)
            with open(tmp_path / "j.json", "rb") as out3:
                out3.write(BAD)
            os.path.join(tmp_path, "k.json").write_text(BAD)
            p = tmp_path / "s.json"
            p.write_text(BAD)
            monkeypatch.setenv(ENV_SCRIPT_PATH, f"{p}")


        def test_paths(tmp_path, monkeypatch):
            p = tmp_path / "t.json"
            p.write_text(BAD)
            monkeypatch.setenv(ENV_SCRIPT_PATH, p.as_posix())
            q = tmp_path / "u.json"
            q.write_text(BAD)
            monkeypatch.setenv(ENV_SCRIPT_PATH, str(q, "x"))
            r = tmp_path / "v.json"
            r.write_text(BAD)
            monkeypatch.setenv(ENV_SCRIPT_PATH, os.fspath(r=1))
            s = tmp_path / "w.json"
            s.write_text(BAD)
            monkeypatch.setenv(ENV_SCRIPT_PATH, hash(s))
        """
    ) == [(29, "script", "accepted", []), (35, "script", "accepted", [])]


# ----------------------------------------------------------------- helpers read inline


def test_a_helper_is_read_inline_only_when_python_would_bind_the_call() -> None:
    # the docstring is skipped; * arguments, one too many, an unknown keyword, a missing
    # argument and an async helper (its call makes a coroutine) leave the call opaque
    assert _reported(
        """\
        from lionagi.testing import ScriptModel


        def entry(kind):
            "One response of the given type."
            return {"type": kind, "content": "a"}


        async def later(kind):
            return {"type": kind, "content": "a"}


        def test_x(args):
            ScriptModel.from_responses([entry("nope")])
            ScriptModel.from_responses([entry(*args)])
            ScriptModel.from_responses([entry("nope", "more")])
            ScriptModel.from_responses([entry(other="nope")])
            ScriptModel.from_responses([entry()])
            ScriptModel.from_responses([later("nope")])
        """
    ) == [
        (13, "script", "rejected", [f"SC002 13:38 response #0 has unknown type 'nope'; {_TYPES}"]),
        (14, "script", "insufficient_evidence", [f"PY001 14:32 the call entry(*args) {_RUN_TIME}"]),
        (15, "script", "insufficient_evidence", [f'PY001 15:32 the call entry("nope", "more") {_RUN_TIME}']),
        (16, "script", "insufficient_evidence", [f'PY001 16:32 the call entry(other="nope") {_RUN_TIME}']),
        (17, "script", "insufficient_evidence", [f"PY001 17:32 the call entry() {_RUN_TIME}"]),
        (18, "script", "insufficient_evidence", [f'PY001 18:32 the call later("nope") {_RUN_TIME}']),
    ]


# ----------------------------------------------------------------- files Python does not parse


@pytest.mark.parametrize(
    ("source", "blanked", "parsed"),
    [
        # a decorated statement is left out with its decorators
        (
            "@deco\ndef f(:\n    pass\n\n\nx = 1\n",
            [Blanked(1, 3, "invalid syntax", 2)],
            "\n\n\n\n\nx = 1\n",
        ),
        # a closing bracket at the left margin does not start a statement
        ("x = [\n    1 +,\n]\ny = 1\n", [Blanked(1, 3, "invalid syntax", 1)], "\n\n\ny = 1\n"),
        # the decorator ending a class body belongs to no statement of it
        (
            "class T:\n    def a(self):\n        return (\n    @deco\n",
            [Blanked(2, 3, "'(' was never closed", 3), Blanked(4, 4, "unexpected unindent", 4)],
            "class T:\n    pass\n\n    pass\n",
        ),
        # ... and the one before a method belongs to the method
        (
            "class T:\n    x = 1\n    y = (\n    @deco\n    def g(self): pass\nz = 1\n",
            [Blanked(3, 3, "'(' was never closed", 3)],
            "class T:\n    x = 1\n    pass\n    @deco\n    def g(self): pass\nz = 1\n",
        ),
        # a class without a body: the whole class goes
        (
            "class T:\nx = (\n",
            [
                Blanked(1, 1, "expected an indented block after class definition on line 1", 1),
                Blanked(2, 2, "'(' was never closed", 2),
            ],
            "\n\n",
        ),
    ],
)
def test_what_is_left_out_of_a_file_python_does_not_parse(source: str, blanked: list[Blanked], parsed: str) -> None:
    _tree, text, regions = parse_tolerantly(source)
    assert (regions, text) == (blanked, parsed)


def test_a_file_is_refused_when_blanking_leaves_the_same_error() -> None:
    # the decorator is no part of the broken def: blanking the def leaves it unindented,
    # and the statement that holds it is the def again
    with pytest.raises(SyntaxError, match="invalid syntax"):
        parse_tolerantly("def f(:\n    @deco\nx = 1\n")


# ----------------------------------------------------------------- expected outcomes


def test_a_refusal_expected_of_an_accepted_script_is_certain_only_where_nothing_else_raises() -> None:
    # certain (PY003): after an annotation without a value and pass, an annotated result, in
    # a nested with of warnings.catch_warnings() and caplog.at_level(); not: a conditional, a
    # short circuit, an if or except body, another with, a with of a name or of a call that
    # may raise. xfail(condition) is an expectation whose exception is not known.
    report = lint_python(
        textwrap.dedent(
            """\
        import warnings

        import pytest
        from lionagi.testing import ScriptModel

        OK = [{"type": "text", "content": "ok"}]


        def test_annotated_name_first():
            with pytest.raises(ValueError):
                x: int
                pass
                ScriptModel.from_responses(OK)


        def test_annotated_result():
            with pytest.raises(ValueError):
                script: ScriptModel = ScriptModel.from_responses(OK)


        def test_conditional():
            with pytest.raises(ValueError):
                y = ScriptModel.from_responses(OK) if OK else None


        def test_short_circuit():
            with pytest.raises(ValueError):
                OK and ScriptModel.from_responses(OK)


        def test_in_if(flag):
            with pytest.raises(ValueError):
                if flag:
                    ScriptModel.from_responses(OK)


        def test_in_try():
            with pytest.raises(ValueError):
                try:
                    pass
                except KeyError:
                    ScriptModel.from_responses(OK)


        def test_inner_with(caplog):
            with pytest.raises(ValueError):
                with warnings.catch_warnings(), caplog.at_level(10):
                    ScriptModel.from_responses(OK)


        def test_inner_with_unknown(tmp_path):
            with pytest.raises(ValueError):
                with open(tmp_path):
                    ScriptModel.from_responses(OK)


        def test_inner_with_not_a_call(lock):
            with pytest.raises(ValueError):
                with lock:
                    ScriptModel.from_responses(OK)


        def test_inner_with_loud_argument(caplog):
            with pytest.raises(ValueError):
                with caplog.at_level(int("x")):
                    ScriptModel.from_responses(OK)


        @pytest.mark.xfail(True, reason="x")
        def test_xfail_condition():
            ScriptModel.from_responses([{"type": "made_up"}])


        def test_checked_none():
            script = ScriptModel.from_responses(OK)
            if script is None:
                raise AssertionError
            if script is not OK:
                raise AssertionError
        """
        ),
        "test_x.py",
    )
    assert [(d.code, d.span.start.line + 1) for d in report.diagnostics] == [
        ("PY003", 13),
        ("PY003", 18),
        ("PY003", 48),
    ]
    expected = [p.expected.by if p.expected is not None else None for p in report.parts or []]
    assert expected == [*[None] * 11, 'pytest.mark.xfail(True, reason="x")']


# ----------------------------------------------------------------- outcomes asserted on results


def test_outcomes_asserted_on_results_in_their_other_spellings() -> None:
    # "error" == r.status, r.status != "validated", len(r.validation_errors) != 0, err != [],
    # 1 == code, await run_agent(...) == 1 state a failure; a status compared with a name, a
    # count compared with False, "not err", 1 == out.code do not
    report = lint_python(
        textwrap.dedent(
            """\
            from lionagi.cli.agent import run_agent
            from lionagi.work import FieldSpec, Rule, WorkForm, fill_form

            FORM = WorkForm(fields={"n": FieldSpec(name="n", type="int")})


            def test_swapped():
                result = fill_form(FORM, {"n": "seven"})
                assert "error" == result.status


            def test_not_validated():
                result: object = fill_form(FORM, {"n": "seven"})
                assert result.status != "validated"


            def test_other_status(other):
                result = fill_form(FORM, {"n": "seven"})
                assert result.status == other


            def test_errors_counted():
                result = fill_form(FORM, {"n": "seven"})
                assert len(result.validation_errors) != 0


            def test_errors_counted_with_a_bool():
                result = fill_form(FORM, {"n": "seven"})
                assert len(result.validation_errors) > False


            def test_rule_not_empty():
                rule = Rule(rule_id="r", field="x", check="pattern", params={"pattern": r"[invalid"})
                err = rule.apply(WorkForm(values={"x": "hello"}))
                assert err != []


            def test_rule_passes():
                rule = Rule(rule_id="r", field="x", check="pattern", params={"pattern": r"[invalid"})
                err = rule.apply(WorkForm(values={"x": "hello"}))
                assert not err


            def test_rule_given_more(extra):
                rule = Rule(rule_id="r", field="x", check="pattern", params={"pattern": r"[invalid"})
                err = rule.apply(WorkForm(values={"x": "hello"}), extra)
                assert err is not None


            def test_gate_named(tmp_path):
                spec = tmp_path / "intake.form.yaml"
                spec.write_text("fields:\\n  repo:\\n    type: str\\n    required: true\\nvalues: {}\\n")
                code = run_agent(_args(form=str(spec)))
                assert 1 == code


            async def test_gate_awaited(tmp_path):
                spec = tmp_path / "intake.form.yaml"
                spec.write_text("fields:\\n  repo:\\n    type: str\\n    required: true\\nvalues: {}\\n")
                assert await run_agent(_args(form=str(spec))) == 1


            def test_gate_other(tmp_path, out):
                spec = tmp_path / "intake.form.yaml"
                spec.write_text("fields:\\n  repo:\\n    type: str\\n    required: true\\nvalues: {}\\n")
                run_agent(_args(form=str(spec)))
                assert 1 == out.code
            """
        ),
        "test_x.py",
    )
    assert [(d.code, d.span.start.line + 1) for d in report.diagnostics] == [
        ("FS014", 18),
        ("FS014", 28),
        ("PY003", 39),
        ("RS006", 39),
        ("FS012", 65),
    ]
    expected = [p.expected.by if p.expected is not None else None for p in report.parts or []]
    assert expected == [
        None,
        None,
        'assert "error" == result.status',
        'assert result.status != "validated"',
        None,
        "assert len(result.validation_errors) != 0",
        None,
        "assert err != []",
        None,
        None,
        None,
        "assert err is not None",
        None,
        "assert 1 == code",
        "assert await run_agent(_args(form=str(spec))) == 1",
        None,
    ]


# ----------------------------------------------------------------- script models


def test_script_models_built_from_splats_positional_arguments_and_stream_chunks() -> None:
    assert _reported(
        """\
        from lionagi.testing import ScriptModel, StreamChunkSpec, TextResponse


        def test_x(kw, data):
            ScriptModel.from_responses([{"type": "text", "content": "a"}], **kw)
            ScriptModel.from_responses([{"type": "text", "content": "a"}], **{[1]: 2})
            ScriptModel.model_validate({"responses": [], **{[1]: 2}})
            StreamChunkSpec(content=1)
            ScriptModel.from_responses([TextResponse(**data)])
            ScriptModel(responses=[], x=1)
            ScriptModel(1)
            ScriptModel(responses=[], **{"responses": []})
        """
    ) == [
        (5, "script", "rejected", [f"PY002 5:69 the dict's key [1] is unhashable, {_RAISES}"]),
        (6, "script", "rejected", [f"PY002 6:51 the dict's key [1] is unhashable, {_RAISES}"]),
        (
            7,
            "script",
            "rejected",
            [
                "SC004 7:4 response #0 (stream): chunks.0 is missing required key 'type'",
                "SC005 7:28 response #0 (stream): chunks.0.content 1 is invalid (input should be a valid string)",
            ],
        ),
        (8, "script", "insufficient_evidence", [f"PY001 8:32 the arguments **data {_RUN_TIME}"]),
        (9, "script", "rejected", ["SC001 9:30 unknown top-level key 'x'; a script has version, mode and responses"]),
        (10, "script", "rejected", [f"PY002 10:16 ScriptModel(...) {_POSITIONAL}"]),
        (
            11,
            "script",
            "rejected",
            [
                "PY002 11:4 ScriptModel(...) is given 'responses' twice; the call raises TypeError",
                "SC016 11:46 the script has no responses; the first call raises ScriptExhaustedError",
            ],
        ),
    ]


def test_a_literal_nested_too_deeply_through_names_is_not_read() -> None:
    chain = [f"N{i} = [N{i - 1}]" for i in range(1, 120)]
    source = "\n".join(
        [
            "from lionagi.testing import ScriptModel",
            "",
            'N0 = "deep"',
            *chain,
            "",
            "",
            "def test_x():",
            '    ScriptModel.from_responses([{"type": "text", "content": N119}])',
            "",
        ]
    )
    assert _reported(source) == [
        (125, "script", "insufficient_evidence", [f"PY001 22:6 nested too deeply to read {_RUN_TIME}"])
    ]
