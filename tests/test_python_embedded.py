"""Scripts and forms written inside Python files: found with ``ast``, checked as the runtime
receives them, located in the ``.py`` file (issue 16).

Each test writes a small Python file the way a test suite would and checks which documents
formscript reports, with which verdict and diagnostics where. lionagi's own verdicts on such
literals are proven in ``tests/conformance/test_python_literals.py``.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from formscript.cli import main
from formscript.lint.fixes import apply_edits, fix_edits
from formscript.lint.python_lint import lint_python
from formscript.lint.report import FileReport


def parts(source: str, path: str = "test_example.py") -> list[FileReport]:
    bundle = lint_python(textwrap.dedent(source), path)
    assert bundle.parts is not None
    return bundle.parts


def summary(source: str) -> list[tuple[str, int, str, list[str]]]:
    """(call, line of the literal, verdict, codes) per document."""
    found = []
    for part in parts(source):
        assert part.embedded is not None and part.verdict is not None
        codes = [d.code for d in part.diagnostics]
        found.append((part.embedded.call, part.embedded.span.start.line + 1, part.verdict.value, codes))
    return found


def where(report: FileReport, code: str) -> tuple[int, int, int, int]:
    """1-based (line, column, end line, end column) of the first diagnostic with *code*."""
    found = next(d for d in report.diagnostics if d.code == code)
    return (found.span.start.line + 1, found.span.start.column + 1, found.span.end.line + 1, found.span.end.column + 1)


# ------------------------------------------------------------------------- finding the calls


def test_imports_aliases_and_module_paths_are_followed() -> None:
    found = summary(
        """
        import lionagi.testing as lt
        from lionagi.testing import TestBranch as TB
        from lionagi.testing._script import ScriptModel as Script
        from lionagi import testing

        a = TB.from_text("hi")
        b = lt.ScriptModel.from_responses([{"type": "text", "content": "x"}])
        c = Script.model_validate({"responses": []})
        d = testing.TestBranch.from_responses([{"type": "nope"}])
        """
    )
    assert found == [
        ("TB.from_text", 7, "accepted", []),
        ("lt.ScriptModel.from_responses", 8, "accepted", []),
        ("Script.model_validate", 9, "accepted", ["SC016"]),
        ("testing.TestBranch.from_responses", 10, "rejected", ["SC002"]),
    ]


def test_names_that_are_not_lionagi_are_left_alone() -> None:
    found = summary(
        """
        from lionagi.testing import TestBranch
        from myproject.testing import ScriptModel, FieldSpec

        class TestBranchLike:
            pass

        ScriptModel.from_responses([{"type": "nope"}])
        FieldSpec(name="1x")
        TestBranchLike.from_text("x")
        """
    )
    assert found == []


def test_a_file_that_hands_nothing_to_lionagi_reports_nothing() -> None:
    assert parts("import lionagi\n\nprint(lionagi.__version__)\n") == []
    assert parts("from lionagi.testing import TestBranch\n\nbranch = TestBranch.from_text(make_text())\n") == []
    assert parts("x = 1\n") == []


def test_a_statement_that_does_not_parse_is_skipped_with_a_note() -> None:
    (part,) = parts("from lionagi.testing import TestBranch\n\ndef broken(:\n")
    assert part.skipped and part.note == "line 3 skipped: not Python that parses (invalid syntax at line 3)"


def test_names_bound_once_stand_for_their_literal_and_others_do_not() -> None:
    found = summary(
        """
        from lionagi.testing import ScriptModel

        ENTRIES = [{"type": "text", "content": "module constant"}]

        class TestScripts:
            CLASS_LEVEL = [{"type": "bogus"}]

            def test_module_constant(self):
                ScriptModel.from_responses(ENTRIES)

            def test_local(self):
                entries = [{"type": "text", "content": 5}]
                ScriptModel.from_responses(entries)

            def test_rebound(self):
                entries = [{"type": "text", "content": "a"}]
                entries = [{"type": "bogus"}]
                ScriptModel.from_responses([entries[0]])

            def test_mutated(self):
                entries = []
                entries.append({"type": "text", "content": "a"})
                ScriptModel.from_responses(entries)

            def test_class_names_are_not_visible(self):
                ScriptModel.from_responses(CLASS_LEVEL)

            def test_parameter(self, entries):
                ScriptModel.from_responses(entries)
        """
    )
    assert found == [
        ("ScriptModel.from_responses", 4, "accepted", []),
        ("ScriptModel.from_responses", 13, "rejected", ["SC005"]),
        ("ScriptModel.from_responses", 19, "insufficient_evidence", ["PY001"]),
    ]


def test_each_api_reads_its_argument_as_lionagi_does() -> None:
    found = summary(
        """
        from lionagi import iModel
        from lionagi.service.connections import match_endpoint
        from lionagi.testing import ScriptedEndpoint, ScriptModel, TestBranch, scripted_imodel

        TestBranch.from_text(["one", "two"])
        TestBranch.from_text(5)
        TestBranch.from_script({"responses": [{"type": "text", "content": "a"}]})
        TestBranch.from_script("fixtures/script.yaml")
        scripted_imodel([{"type": "tool_call", "name": "search"}])
        ScriptModel.coerce(({"type": "text", "content": "a"},))
        ScriptModel.model_validate([])
        ScriptModel(responses=[{"type": "text", "content": "a"}], mode="sometimes")
        iModel(provider="openai", script=[{"type": "bogus"}])
        iModel(provider="scripted", script=[{"type": "text", "content": "a"}])
        ScriptedEndpoint(script=[])
        match_endpoint("scripted", "chat", script={"responses": [{"type": "text"}]})
        TestBranch.attach_script(branch, [{"type": "error", "kind": "rate_limit"}])
        TestBranch.scripted(branch).attach_script({"mode": "when_only"})
        """
    )
    assert found == [
        ("TestBranch.from_text", 6, "accepted", []),
        ("TestBranch.from_text", 7, "rejected", ["PY002"]),
        ("TestBranch.from_script", 8, "accepted", []),
        ("scripted_imodel", 10, "accepted", []),
        ("ScriptModel.coerce", 11, "rejected", ["PY002"]),
        ("ScriptModel.model_validate", 12, "rejected", ["SC001"]),
        ("ScriptModel", 13, "rejected", ["SC006"]),
        ("iModel", 15, "accepted", []),
        ("ScriptedEndpoint", 16, "accepted", []),  # an explicit empty script: a placeholder
        ("match_endpoint", 17, "rejected", ["SC004"]),
        ("TestBranch.attach_script", 18, "accepted", []),
        ("TestBranch.scripted(branch).attach_script", 19, "accepted", ["SC016"]),
    ]


def test_a_script_built_by_one_call_and_passed_to_another_is_one_document() -> None:
    found = summary(
        """
        from lionagi.testing import ScriptModel, TestBranch

        script = ScriptModel.from_responses([{"type": "text", "content": "a"}])
        branch = TestBranch.from_script(script)
        other = TestBranch.from_script(ScriptModel.from_responses([{"type": "txt"}]))
        """
    )
    assert found == [
        ("ScriptModel.from_responses", 4, "accepted", []),
        ("ScriptModel.from_responses", 6, "rejected", ["SC002"]),
    ]


def test_response_models_alone_and_inside_a_script() -> None:
    found = summary(
        """
        from lionagi.testing import ScriptModel, TextResponse, ToolCallResponse, WhenMatcher

        alone = TextResponse(content="hi", when=WhenMatcher(prompt_contains="a", has_tool="b"))
        wrong = ToolCallResponse(type="text", name="search")
        matcher = WhenMatcher(call_index="first")
        inside = ScriptModel.from_responses([TextResponse(content=1), {"type": "text", "content": "x"}])
        """
    )
    assert found == [
        ("TextResponse", 4, "accepted", ["SC008"]),
        ("ToolCallResponse", 5, "rejected", ["SC005"]),
        ("WhenMatcher", 6, "rejected", ["SC005"]),
        ("ScriptModel.from_responses", 7, "rejected", ["SC005"]),
    ]


def test_a_model_imported_inside_a_function_and_read_by_a_script_is_not_its_own_document() -> None:
    # The model's name is looked up in its own function's scope, not in the scope of the call
    # listed before it (here `len` in another function), so it is read once, through the branch.
    found = summary(
        """
        def helper():
            return len("x")


        def test_one():
            from lionagi.testing import TestBranch, TextResponse

            response = TextResponse(text=1)
            TestBranch.from_responses([response])
        """
    )
    assert found == [("TestBranch.from_responses", 10, "rejected", ["SC004", "SC003"])]


def test_forms_fields_rules_and_their_calls() -> None:
    found = summary(
        """
        from lionagi.work import FieldSpec, Rule, RuleSet, WorkForm, fill_form, validate_form

        form = WorkForm(
            title="intake",
            fields={"age": FieldSpec(name="age", type="int"), "name": {"name": "name", "type": "text"}},
            values={"age": "7"},
        )
        filled = fill_form(form, {"name": "Ada"})
        checked = validate_form(form)
        rules = RuleSet().add(Rule(rule_id="a", field="age", check="range")).add(
            Rule(rule_id="a", field="age", check="required")
        )
        """
    )
    # the dict member declares an unknown type: WorkForm raises, so neither call that is
    # given the form gets a form (rejected); their own findings still show
    assert found == [
        ("WorkForm", 4, "rejected", ["FS010"]),
        ("validate_form", 4, "rejected", ["FS016"]),
        ("FieldSpec", 6, "accepted", []),
        ("fill_form", 9, "rejected", ["FS012"]),
        ("RuleSet().add", 11, "rejected", ["RS009"]),
        ("Rule", 11, "accepted", []),
        ("Rule", 12, "accepted", []),
    ]


def test_fill_form_checks_values_against_the_declared_fields() -> None:
    found = summary(
        """
        from lionagi.work import FieldSpec, WorkForm, fill_form, validate_form

        form = WorkForm(fields={
            "age": FieldSpec(name="age", type="int"),
            "level": FieldSpec(name="level", type="int", required=False, default=1),
        })
        ok = fill_form(form, {"age": "7", "extra": object()})
        missing = fill_form(form, {})
        wrong = fill_form(form, {"age": "seven"})
        no_defaults = validate_form(WorkForm(fields={"n": FieldSpec(name="n", default=0, type="int")}))
        """
    )
    # fill_form passes undeclared values through and applies defaults; validate_form applies none
    assert [(call, verdict, codes) for call, _, verdict, codes in found] == [
        ("WorkForm", "accepted", []),
        ("FieldSpec", "accepted", []),
        ("FieldSpec", "accepted", []),
        ("fill_form", "accepted", ["FS016"]),
        ("fill_form", "rejected", ["FS012"]),
        ("fill_form", "rejected", ["FS014"]),
        ("validate_form", "rejected", ["FS012"]),
        ("WorkForm", "accepted", []),
        ("FieldSpec", "accepted", []),
    ]


# ------------------------------------------------------------------------------ positions


def test_positions_are_code_points_on_the_key_and_value() -> None:
    (part,) = parts(
        """
        from lionagi.testing import ScriptModel
        s = ScriptModel.from_responses([{"content": "héllo wörld", "type": "txt", "nmae": 1}])
        """
    )
    # "é" and "ö" are two UTF-8 bytes each: the columns count them once
    assert where(part, "SC002") == (3, 68, 3, 73)


def test_keyword_arguments_are_located_on_their_names() -> None:
    (part,) = parts(
        """
        from lionagi.testing import TextResponse
        r = TextResponse(contnet="hi")
        """
    )
    assert where(part, "SC003") == (3, 18, 3, 25)
    fix = next(d for d in part.diagnostics if d.code == "SC003").fix
    assert fix is not None and [e.new_text for e in fix.edits] == ["content"]


def test_yaml_written_to_a_file_is_located_through_dedent_and_escapes() -> None:
    found = parts(
        '''
        import textwrap
        from lionagi.testing import ScriptModel

        def test_from_yaml(tmp_path):
            spec = tmp_path / "intake.form.yaml"
            spec.write_text(textwrap.dedent("""
                fields:
                  country: {type: str}
                values:
                  country: no
            """))
            (tmp_path / "s.yaml").write_text("responses:\\n  - type: txt\\n")
            with open(tmp_path / "other.json", "w") as handle:
                handle.write('{"responses": [{"type": "text", "content": "a"}]}')
            (tmp_path / "notes.yaml").write_text("just: notes\\n")
        '''
    )
    assert [(p.embedded.call if p.embedded else "", p.kind, p.verdict and p.verdict.value) for p in found] == [
        ("spec.write_text", "form", "rejected"),
        ('(tmp_path / "s.yaml").write_text', "script", "rejected"),
        ("handle.write", "script", "accepted"),
    ]
    assert where(found[0], "FS015") == (11, 20, 11, 22)
    assert where(found[1], "SC002") == (13, 61, 13, 64)
    fix = next(d for d in found[0].diagnostics if d.code == "FS015").fix
    assert fix is not None and fix.edits[0].new_text == "'no'"


# ------------------------------------------------------------------------ what is not literal


def test_a_helper_returning_one_expression_is_read_with_the_arguments_given() -> None:
    """``_when("marker", payload)`` returning a dict is read as that dict, the arguments in place
    of the parameters (defaults for the others), helpers calling helpers included; what is
    found in an argument is located where the call writes it. Not followed: a body that does
    more than return, a coroutine, ``*args``, a name of the helper's that the caller shadows."""
    source = textwrap.dedent(
        """
        import json
        from lionagi.testing import ScriptModel

        def _emit(payload):
            return f"Done: {json.dumps(payload)}"

        def _when(marker, payload=None, text=""):
            return {"type": "text", "content": _emit(payload) if payload is not None else text,
                    "when": {"prompt_contains": marker}}

        def _twice(text):
            text = text * 2
            return {"type": "text", "content": text}

        def _many(*texts):
            return {"type": "text", "content": texts[0]}

        KIND = "text"

        def _kind(content):
            return {"type": KIND, "content": content}

        def test_all():
            ScriptModel.from_responses([_when("plan", {"a": 1}), _when("review", text="ok")])
            ScriptModel.from_responses([_when("plan", text=5)])
            ScriptModel.from_responses([_twice("a")])
            ScriptModel.from_responses([_many("a")])
            ScriptModel.from_responses([_kind(1)])

        def test_shadowed():
            KIND = "bogus"
            ScriptModel.from_responses([_kind("x")])
        """
    )
    found = summary(source)
    assert [(verdict, codes) for _, _, verdict, codes in found] == [
        ("accepted", []),
        ("rejected", ["SC005"]),
        ("insufficient_evidence", ["PY001"]),
        ("insufficient_evidence", ["PY001"]),
        ("rejected", ["SC005"]),
        ("insufficient_evidence", ["PY001"]),
    ]
    report = lint_python(source, "test_helpers.py")
    content = next(d for d in report.diagnostics if d.code == "SC005")
    line = source.splitlines()[content.span.start.line]
    assert line.strip().startswith('ScriptModel.from_responses([_when("plan", text=5)])')
    assert line[content.span.start.column : content.span.end.column] == "5"


def test_parts_built_at_run_time_are_insufficient_evidence_never_guessed() -> None:
    found = summary(
        """
        from lionagi.testing import ScriptModel, TestBranch
        from lionagi.work import FieldSpec, WorkForm, fill_form

        def reply(text):
            text = text.strip()
            return {"type": "text", "content": text}

        def test_all(answer, extra):
            ScriptModel.from_responses([reply("a")])
            ScriptModel.from_responses([{"type": "tool_call", "name": "f", "arguments": {"q": answer}}])
            ScriptModel.from_responses([{"type": "bogus"}, reply("b")])
            TestBranch.from_text(f"answer: {answer}")
            form = WorkForm(fields={"a": FieldSpec(name="a", type="int")})
            fill_form(form, {"b": 1, **extra})
            fill_form(form, {"a": answer})
        """
    )
    assert [(verdict, codes) for _, _, verdict, codes in found] == [
        ("insufficient_evidence", ["PY001"]),
        ("accepted", []),
        ("rejected", ["SC002"]),
        ("accepted", []),
        ("accepted", []),
        ("accepted", []),
        ("insufficient_evidence", ["PY001"]),
        ("insufficient_evidence", ["PY001"]),
    ]


# ---------------------------------------------------------------------- suppressions, fixes


def test_suppression_comments_are_read_from_python_comments_only() -> None:
    found = parts(
        """
        from lionagi.testing import ScriptModel

        # formscript: ignore[SC002] the test checks the error
        a = ScriptModel.from_responses([{"type": "bogus"}])
        b = ScriptModel.from_responses([{"type": "bogus", "note": "# formscript: ignore[SC002] no"}])
        c = ScriptModel.from_responses([{"type": "text", "content": "x"}])  # formscript: ignore[SC005] stale
        """
    )
    assert [[d.code for d in p.diagnostics] for p in found] == [[], ["SC002"], ["FSX001"]]
    assert [p.verdict.value for p in found if p.verdict] == ["rejected", "rejected", "accepted"]


def test_did_you_mean_fixes_are_exact_edits_of_the_python_source() -> None:
    source = textwrap.dedent(
        """
        from lionagi.testing import ScriptModel, TextResponse
        a = ScriptModel.from_responses([{'type': 'text', 'contnet': "x"}, {"type": "txt", "content": "y"}])
        b = TextResponse(contnet='it''s')
        """
    )
    bundle = lint_python(source, "t.py")
    fixed = apply_edits(source, fix_edits(bundle.diagnostics, unsafe=True))
    assert fixed == source.replace("'contnet'", "'content'").replace('"txt"', '"text"').replace("contnet=", "content=")
    after = lint_python(fixed, "t.py")
    assert [p.verdict.value for p in after.parts or [] if p.verdict] == ["accepted", "accepted"]


# -------------------------------------------------------------------------------------- CLI


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(["lint", "--no-cache", *args])
    return code, capsys.readouterr().out


def test_lint_walks_python_files_that_mention_lionagi(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "test_chat.py").write_text(
        "from lionagi.testing import TestBranch\n\n"
        "def test_chat():\n"
        '    branch = TestBranch.from_responses([{"type": "txt", "content": "hi"}])\n',
        encoding="utf-8",
    )
    (tests / "test_plain.py").write_text("def test_nothing():\n    assert True\n", encoding="utf-8")
    (tests / "test_latin1.py").write_bytes(b"# caf\xe9\n")
    code, out = _run(capsys, "--format", "json", str(tmp_path))
    assert code == 1
    report = json.loads(out)
    assert [(f["path"], f["kind"], f["verdict"]) for f in report["files"]] == [
        (str(tests / "test_chat.py"), "script", "rejected")
    ]
    (entry,) = report["files"]
    assert entry["embedded"] == {
        "call": "TestBranch.from_responses",
        "range": {"start": {"line": 4, "column": 40}, "end": {"line": 4, "column": 74}},
        "call_range": {"start": {"line": 4, "column": 14}, "end": {"line": 4, "column": 75}},
    }
    assert entry["diagnostics"][0]["code"] == "SC002"
    assert entry["diagnostics"][0]["range"]["start"] == {"line": 4, "column": 50}
    assert report["summary"]["files"] == 1
    code, out = _run(capsys, "--format", "concise", str(tmp_path))
    assert out == (
        f"{tests / 'test_chat.py'}:4:50: error[SC002] response #0 has unknown type 'txt'; expected one of text, "
        "tool_call, structured, stream, error; did you mean 'text'?\n"
    )
    code, out = _run(capsys, str(tests / "test_plain.py"))
    assert code == 0 and out == "0 file(s) checked, 0 skipped: 0 error(s), 0 warning(s), 0 info, 0 fixable\n"


def test_every_format_names_the_python_file_and_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "test_forms.py"
    path.write_text(
        "from lionagi.work import FieldSpec\n\nAGE = FieldSpec(name='age', type='integer')\n", encoding="utf-8"
    )
    _, text = _run(capsys, str(path))
    assert f"{path}:3:34: error[FS010]" in text and f"{path}:3 FieldSpec: rejected" in text
    _, github = _run(capsys, "--format", "github", str(path))
    assert github.startswith("::error file=") and ",line=3,col=34," in github
    _, sarif = _run(capsys, "--format", "sarif", str(path))
    region = json.loads(sarif)["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]
    assert (region["startLine"], region["startColumn"]) == (3, 34)
    _, junit = _run(capsys, "--format", "junit", str(path))
    assert f'name="{path}:3 FieldSpec"' in junit and f"{path}:3:34: [FS010]" in junit


def test_fix_rewrites_the_python_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "test_fix.py"
    path.write_text(
        "from lionagi.testing import ScriptModel\n\n"
        'S = ScriptModel.from_responses([{"type": "txt", "content": "a"}])\n',
        encoding="utf-8",
    )
    code, _ = _run(capsys, "--unsafe-fixes", str(path))
    assert code == 0
    assert '"type": "text"' in path.read_text(encoding="utf-8")


def test_output_is_deterministic(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for index in range(3):
        (tmp_path / f"test_{index}.py").write_text(
            "from lionagi.testing import TestBranch\n"
            f'TestBranch.from_responses([{{"type": "text", "content": {index}}}])\n'
            'TestBranch.from_text("x")\n',
            encoding="utf-8",
        )
    first = _run(capsys, "--format", "json", str(tmp_path))
    second = _run(capsys, "--format", "json", "--jobs", "2", str(tmp_path))
    assert first == second
    assert [f["embedded"]["range"]["start"]["line"] for f in json.loads(first[1])["files"]] == [2, 3] * 3


# ------------------------------------------------------------------- dry runs, simulations

RUNS_SOURCE = '''\
import textwrap
from lionagi.testing import ScriptModel
from lionagi.work import FieldSpec, WorkForm, fill_form

SCRIPT = ScriptModel.from_responses([
    {"type": "text", "content": "hello", "when": {"prompt_contains": "hi"}},
    {"type": "tool_call", "name": "search", "arguments": {"q": "x"}},
])

def test_form(tmp_path):
    form = WorkForm(title="intake", fields={"age": FieldSpec(name="age", type="int")})
    filled = fill_form(form, {"age": "7"})
    (tmp_path / "intake.form.yaml").write_text(textwrap.dedent("""
        fields:
          age: {type: int}
        values:
          age: seven
    """))
'''


def test_simulate_picks_the_script_on_a_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "test_runs.py"
    path.write_text(RUNS_SOURCE, encoding="utf-8")
    calls = tmp_path / "chat.calls.yaml"
    calls.write_text("- hi there\n- next\n", encoding="utf-8")
    code = main(["simulate", f"{path}:5", "--calls", str(calls), "--format", "json"])
    result = json.loads(capsys.readouterr().out)
    assert code == 0
    assert [(c["entry"], c["line"], c["matched_by"]["kind"]) for c in result["calls"]] == [
        (0, 6, "prompt_contains"),
        (1, 7, "positional"),
    ]
    # the call's line picks it too
    assert main(["simulate", f"{path}:5"]) == 0
    assert capsys.readouterr().out.startswith(f"{path}:5: accepted, mode auto\n#0 text (line 6)")


def test_dry_run_picks_the_form_on_a_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "test_runs.py"
    path.write_text(RUNS_SOURCE, encoding="utf-8")
    assert main(["dry-run", f"{path}:12", "--format", "json"]) == 0
    (filled,) = json.loads(capsys.readouterr().out)["results"]
    assert (filled["verdict"], filled["status"], filled["values"]["age"]["value"]) == ("accepted", "validated", 7)
    assert filled["embedded"] == {"call": "fill_form", "line": 12} and filled["sends_prompt"] is False
    assert main(["dry-run", f"{path}:13"]) == 1
    out = capsys.readouterr().out
    assert "[FS014] field 'age' expects int, found str 'seven'" in out and f"{path}:17:" in out
    assert main(["dry-run", f"{path}:3"]) == 2
    assert "no form is handed to lionagi on this line (lines with one: 12, 13)" in capsys.readouterr().err


def test_repeated_keyword_arguments_raise() -> None:
    found = summary(
        """
        from lionagi.testing import TextResponse
        from lionagi.work import FieldSpec

        TextResponse(content="a", **{"content": "b"})
        FieldSpec(name="a", **{"name": "b"})
        """
    )
    assert found == [("TextResponse", 5, "rejected", ["PY002"]), ("FieldSpec", 6, "rejected", ["PY002"])]


def test_values_written_as_json_text_are_located_on_the_literal() -> None:
    found = parts(
        """
        import json
        from lionagi.testing import ScriptModel

        def test_json(tmp_path):
            (tmp_path / "s.json").write_text(json.dumps({"responses": [{"type": "txt"}], 1: "one"}))
            with open(tmp_path / "t.json", "w") as handle:
                json.dump({"responses": [{"type": "text", "content": 1}]}, handle, indent=2)
            (tmp_path / "notes.json").write_text(json.dumps({"a": 1}))
        """
    )
    assert [(p.embedded.call if p.embedded else "", p.verdict and p.verdict.value) for p in found] == [
        ('(tmp_path / "s.json").write_text', "rejected"),
        ("json.dump", "rejected"),
    ]
    # the key 1 is "1" in the file: an unknown top-level key, on the literal's key
    assert [(d.code, where(found[0], d.code)[:2]) for d in found[0].diagnostics] == [
        ("SC002", (6, 73)),
        ("SC001", (6, 82)),
    ]
    assert where(found[1], "SC005") == (8, 62, 8, 63)


def test_the_cache_keeps_a_python_files_documents(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "test_cached.py").write_text(
        "from lionagi.testing import TestBranch\n"
        'TestBranch.from_responses([{"type": "txt", "content": "a"}])\n'
        'TestBranch.from_text("fine")\n',
        encoding="utf-8",
    )
    cache = str(tmp_path / ".cache")
    first = main(["lint", "--cache-dir", cache, "--format", "json", str(tmp_path)]), capsys.readouterr().out
    second = main(["lint", "--cache-dir", cache, "--format", "json", str(tmp_path)]), capsys.readouterr().out
    assert first == second
    assert [f["embedded"]["call"] for f in json.loads(second[1])["files"]] == [
        "TestBranch.from_responses",
        "TestBranch.from_text",
    ]
