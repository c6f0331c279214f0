"""Reach (issue 31): a text a test writes to a file is found through where its path goes, not
only through the file's name; a name only read keeps its literal; library code in which
nothing is a literal reports nothing.

The snippets are shaped like lionagi 0.36.0's own tests (``tests/testing/test_env_activation.py``,
``tests/testing/test_script_model.py``, ``tests/cli/test_agent_preset_form.py``): files named
``s.json`` or ``spec.yaml``, whose names say nothing of what they hold.
"""

from __future__ import annotations

import ast
import textwrap

import pytest

from formscript.document.pyextract import Embedded, extract
from formscript.lint.python_lint import lint_python
from formscript.lint.report import FileReport


def parts(source: str) -> list[FileReport]:
    bundle = lint_python(textwrap.dedent(source), "test_example.py")
    assert bundle.parts is not None
    return bundle.parts


def checked(source: str) -> list[tuple[int, str | None, str, list[str]]]:
    """(line of the call, kind, verdict, codes) per document reported."""
    found = []
    for part in parts(source):
        assert part.embedded is not None and part.verdict is not None
        codes = [d.code for d in part.diagnostics]
        found.append((part.embedded.call_span.start.line + 1, part.kind, part.verdict.value, codes))
    return found


def texts(source: str) -> list[Embedded]:
    return [e for e in extract(textwrap.dedent(source)) if e.semantic in ("text", "dumped")]


def consumers(embedded: Embedded) -> list[str]:
    return [f"{ast.unparse(c.func)}@{c.lineno}" for c in embedded.consumers]


# --------------------------------------------------------------------- scripts, by consumer


ENV_TESTS = """
    import os

    from lionagi.testing import ENV_SCRIPT_PATH, scripted_env, subprocess_env


    def test_setenv(monkeypatch, tmp_path):
        path = tmp_path / "s.json"
        path.write_text('{"responses": [{"type": "txt", "content": "a"}]}')
        monkeypatch.setenv(ENV_SCRIPT_PATH, str(path))


    def test_setenv_by_value(monkeypatch, tmp_path):
        path = tmp_path / "s.json"
        path.write_text('{"responses": [{"type": "txt", "content": "b"}]}')
        monkeypatch.setenv("LIONAGI_TEST_SCRIPT", str(path))


    def test_scripted_env(tmp_path):
        path = tmp_path / "s.json"
        path.write_text('{"responses": [{"type": "txt", "content": "c"}]}')
        with scripted_env(path):
            pass


    def test_subprocess_env(tmp_path):
        path = tmp_path / "s.json"
        path.write_text('{"responses": [{"type": "txt", "content": "d"}]}')
        env = subprocess_env(path, base={})


    def test_environment_of_a_subprocess(tmp_path):
        path = tmp_path / "s.json"
        path.write_text('{"responses": [{"type": "txt", "content": "e"}]}')
        env = dict(os.environ)
        env["LIONAGI_TEST_SCRIPT"] = str(path)
"""


def test_a_path_put_in_the_script_variable_is_a_script() -> None:
    # "{"responses": [...]}" sniffs as a script anyway: the JSON here is a near miss that
    # sniffing also takes, so the point checked is the kind each route gives
    found = checked(ENV_TESTS)
    assert [(line, kind) for line, kind, _, _ in found] == [
        (9, "script"),
        (15, "script"),
        (21, "script"),
        (28, "script"),
        (34, "script"),
    ]
    assert all(verdict == "rejected" and codes == ["SC002"] for _, _, verdict, codes in found)
    # the environment is read later, by a call not known here
    assert all(e.kind == "script" and e.consumers == [] for e in texts(ENV_TESTS))


def test_an_empty_script_is_found_only_through_its_consumer() -> None:
    source = """
        from lionagi.testing import ENV_SCRIPT_PATH, scripted_env


        def test_resolve(monkeypatch, tmp_path):
            path = tmp_path / "s.json"
            path.write_text("{}")
            monkeypatch.setenv(ENV_SCRIPT_PATH, str(path))


        def test_other(tmp_path):
            path = tmp_path / "s.json"
            path.write_text("{}")
            assert path.exists()
    """
    # "{}" is no kind by its content nor by its name: only the first reaches lionagi (an
    # empty placeholder: no empty-script warning)
    assert checked(source) == [(7, "script", "accepted", [])]


def test_the_variable_is_looked_up_where_lionagi_testing_defines_it() -> None:
    source = """
        from lionagi.testing._endpoint import ENV_SCRIPT_PATH
        import lionagi.testing as lt


        def test_private_module(monkeypatch, tmp_path):
            path = tmp_path / "s.json"
            path.write_text("{}")
            monkeypatch.setenv(ENV_SCRIPT_PATH, str(path))


        def test_module_attribute(monkeypatch, tmp_path):
            path = tmp_path / "s.json"
            path.write_text("{}")
            monkeypatch.setenv(lt.ENV_SCRIPT_PATH, str(path))


        def test_another_variable(monkeypatch, tmp_path):
            path = tmp_path / "s.json"
            path.write_text("{}")
            monkeypatch.setenv("LIONAGI_CHAT_MODEL", str(path))
    """
    assert [(line, kind) for line, kind, _, _ in checked(source)] == [(8, "script"), (14, "script")]


def test_from_yaml_and_from_json_decide_the_syntax_whatever_the_name() -> None:
    source = """
        from lionagi.testing import ScriptModel, TestBranch


        def test_yaml(tmp_path):
            path = tmp_path / "s.json"
            path.write_text("responses:\\n  - type: text\\n    content: from-yaml\\n")
            script = ScriptModel.from_yaml(path)


        def test_json(tmp_path):
            path = tmp_path / "s.yaml"
            path.write_text("responses:\\n  - type: text\\n    content: from-yaml\\n")
            branch = TestBranch.from_json(str(path))


        def test_json_text(tmp_path):
            path = tmp_path / "script"
            path.write_text('{"responses": [{"type": "text", "content": "x"}]}')
            script = ScriptModel.from_json(path)
    """
    found = checked(source)
    # read as YAML, the first is a script; read as JSON, the second does not parse
    assert [(line, kind, verdict) for line, kind, verdict, _ in found] == [
        (7, "script", "accepted"),
        (13, "script", "rejected"),
        (19, "script", "accepted"),
    ]
    assert [consumers(e) for e in texts(source)] == [
        ["ScriptModel.from_yaml@8"],
        ["TestBranch.from_json@14"],
        ["ScriptModel.from_json@20"],
    ]
    assert [e.reads_as for e in texts(source)] == ["yaml", "json", "json"]


def test_coerce_and_the_scripted_model_read_by_the_suffix() -> None:
    source = """
        from lionagi import iModel
        from lionagi.testing import ScriptModel, scripted_imodel


        def test_coerce(tmp_path):
            path = tmp_path / "s.yaml"
            path.write_text("responses:\\n  - type: text\\n    content: 5\\n")
            ScriptModel.coerce(path)


        def test_imodel(tmp_path):
            path = tmp_path / "s.json"
            path.write_text("responses: []\\n")
            model = scripted_imodel(str(path))


        def test_provider(tmp_path):
            path = tmp_path / "s.json"
            path.write_text("{}")
            model = iModel(provider="scripted", script=str(path))


        def test_other_provider(tmp_path):
            path = tmp_path / "s.json"
            path.write_text("{}")
            model = iModel(provider="openai", script=str(path))
    """
    found = checked(source)
    assert [(line, kind, verdict) for line, kind, verdict, _ in found] == [
        (8, "script", "rejected"),  # content: 5 is not a string
        (14, "script", "rejected"),  # YAML text read as JSON does not parse
        (20, "script", "accepted"),
    ]
    assert [e.reads_as for e in texts(source)][:3] == [None, None, None]


def test_only_the_reads_after_the_write_and_before_the_next_write_count() -> None:
    source = """
        from lionagi.testing import ScriptModel


        def test_rewritten(tmp_path):
            path = tmp_path / "s.json"
            path.write_text("{}")
            ScriptModel.from_json(path)
            path.write_text("responses: []\\n")
            ScriptModel.from_yaml(path)
    """
    assert [(consumers(e), e.reads_as) for e in texts(source)] == [
        (["ScriptModel.from_json@8"], "json"),
        (["ScriptModel.from_yaml@10"], "yaml"),
    ]


def test_a_name_bound_twice_or_in_another_function_is_not_followed() -> None:
    source = """
        from lionagi.testing import ScriptModel


        def test_two_paths(tmp_path, flag):
            path = tmp_path / "a.json"
            if flag:
                path = tmp_path / "b.json"
            path.write_text("{}")
            ScriptModel.from_json(path)


        def test_writer(tmp_path):
            path = tmp_path / "s.json"
            path.write_text("{}")


        def test_reader(tmp_path):
            path = tmp_path / "s.json"
            ScriptModel.from_json(path)
    """
    assert [(e.kind, e.consumers) for e in texts(source)] == [(None, []), (None, [])]


# ------------------------------------------------------------------------ forms, by consumer


FORM_TESTS = """
    import json
    from types import SimpleNamespace

    from lionagi.cli.agent import _load_form_spec, run_agent
    from lionagi.cli.main import main


    def _agent_args(**overrides):
        defaults = dict(query=["claude", "do stuff"], form=None, preset=None)
        defaults.update(overrides)
        return SimpleNamespace(**defaults)


    def test_loads_yaml(tmp_path):
        p = tmp_path / "spec.yaml"
        p.write_text("title: my form\\nvalues:\\n  x: 1\\n")
        data = _load_form_spec(str(p))


    def test_loads_json(tmp_path):
        p = tmp_path / "spec.json"
        p.write_text(json.dumps({"title": "j", "values": {"y": "hello"}}))
        data = _load_form_spec(str(p))


    def test_not_a_mapping(tmp_path):
        p = tmp_path / "bad.yaml"
        p.write_text("- one\\n- two\\n")
        _load_form_spec(str(p))


    def test_gate(tmp_path):
        spec = tmp_path / "spec.yaml"
        spec.write_text("fields:\\n  repo:\\n    type: str\\n    required: true\\nvalues: {}\\n")
        args = _agent_args(form=str(spec))
        assert run_agent(args) == 1


    def test_gate_inline(tmp_path):
        bad = tmp_path / "bad.yaml"
        bad.write_text("fieldz:\\n  x:\\n    type: str\\n")
        rc = run_agent(_agent_args(form=str(bad)))


    def test_main(tmp_path):
        spec = tmp_path / "spec.yaml"
        spec.write_text("title: t\\nfields:\\n  n:\\n    type: int\\nvalues:\\n  n: seven\\n")
        rc = main(["agent", "claude", "hello", "--form", str(spec)])


    def test_parsed_only(tmp_path):
        spec = tmp_path / "spec.yaml"
        spec.write_text("values:\\n  n: 1\\n")
        ns = _agent_args(form=str(spec))
        assert ns.form == str(spec)
"""


def test_a_form_spec_is_found_through_the_form_gate() -> None:
    found = checked(FORM_TESTS)
    assert [(line, kind, verdict, codes) for line, kind, verdict, codes in found] == [
        # only loaded: a mapping is all _load_form_spec asks (values without fields pass)
        (17, "form", "accepted", []),
        (23, "form", "accepted", []),
        (29, "form", "rejected", ["FS002"]),
        # handed to run_agent (a namespace of the module's helper) or to main's argv
        (35, "form", "rejected", []),  # the test asserts run_agent(...) == 1: an expected rejection
        (42, "form", "rejected", ["FS001"]),
        (48, "form", "rejected", ["FS014"]),
    ]
    # the last spec reaches no lionagi call: its name and content say nothing
    assert [consumers(e) for e in texts(FORM_TESTS)] == [
        ["_load_form_spec@18"],
        ["_load_form_spec@24"],
        ["_load_form_spec@30"],
        ["run_agent@37"],
        ["run_agent@43"],
        ["main@49"],
        [],
    ]


def test_a_form_that_is_loaded_and_also_gated_is_checked_whole() -> None:
    source = """
        from lionagi.cli.agent import _load_form_spec, run_agent
        from types import SimpleNamespace


        def test_both(tmp_path):
            p = tmp_path / "spec.yaml"
            p.write_text("values:\\n  x: 1\\n")
            _load_form_spec(str(p))
            run_agent(SimpleNamespace(query=["claude", "x"], form=str(p)))
    """
    assert checked(source) == [(8, "form", "rejected", ["FS004"])]


def test_one_level_of_the_modules_own_helpers_is_followed() -> None:
    source = """
        from lionagi.testing import ENV_SCRIPT_PATH, ScriptModel
        from lionagi.cli.agent import _load_form_spec


        def _load(path):
            return ScriptModel.from_yaml(path)


        def _activate(monkeypatch, path):
            monkeypatch.setenv(ENV_SCRIPT_PATH, str(path))


        def _spec(path):
            return _load_form_spec(str(path))


        def _twice(path):
            return _load(path)


        def test_script(tmp_path):
            p = tmp_path / "s.json"
            p.write_text("responses:\\n  - type: txt\\n")
            _load(p)


        def test_env(tmp_path, monkeypatch):
            p = tmp_path / "s.txt"
            p.write_text("{}")
            _activate(monkeypatch, path=p)


        def test_form(tmp_path):
            p = tmp_path / "spec"
            p.write_text("- a\\n")
            _spec(p)


        def test_two_levels(tmp_path):
            p = tmp_path / "s.json"
            p.write_text("{}")
            _twice(p)
    """
    found = texts(source)
    assert [(e.kind, e.reads_as, consumers(e)) for e in found] == [
        ("script", "yaml", ["_load@25"]),
        ("script", None, []),  # the helper only sets the environment
        ("form", "mapping", ["_spec@37"]),
        (None, None, []),
    ]
    assert [(line, kind, verdict) for line, kind, verdict, _ in checked(source)] == [
        (24, "script", "rejected"),
        (30, "script", "accepted"),
        (36, "form", "rejected"),
    ]


def test_a_file_written_with_open_is_followed_too() -> None:
    source = """
        import json

        from lionagi.testing import ScriptModel


        def test_open(tmp_path):
            path = tmp_path / "s.data"
            with open(path, "w") as handle:
                handle.write("responses: [{type: text, content: 1}]\\n")
            ScriptModel.from_yaml(path)


        def test_dump(tmp_path):
            path = tmp_path / "s.data"
            with open(path, "w") as handle:
                json.dump({"responses": [{"type": "text", "content": 1}]}, handle)
            ScriptModel.from_json(path)
    """
    assert [(e.kind, consumers(e)) for e in texts(source)] == [
        ("script", ["ScriptModel.from_yaml@11"]),
        ("script", ["ScriptModel.from_json@18"]),
    ]
    assert [(line, verdict) for line, _, verdict, _ in checked(source)] == [(10, "rejected"), (17, "rejected")]


# ------------------------------------------------------------------- names that are only read


def test_a_name_only_read_keeps_its_literal() -> None:
    source = """
        import copy
        import json

        from lionagi.testing import ScriptModel, TestBranch


        def test_reads():
            responses = [{"type": "txt", "content": "a"}]
            caller = {"version": 1, "responses": responses}
            snapshot = copy.deepcopy(caller)
            shallow, items, frozen = dict(caller), list(responses), tuple(responses)
            text = json.dumps(caller)
            ScriptModel.model_validate(caller)
            TestBranch.from_responses(responses)
            assert caller == snapshot and len(responses) == 1
    """
    found = checked(source)
    # in the order of their literals: the responses (line 9), then the caller's mapping
    assert [(line, verdict, codes) for line, _, verdict, codes in found] == [
        (15, "rejected", ["SC002"]),
        (14, "rejected", ["SC002"]),
    ]


@pytest.mark.parametrize(
    "change",
    ["responses.append({'type': 'text'})", "responses[0] = {}", "responses += []", "del responses[0]"],
)
def test_a_name_changed_in_place_does_not(change: str) -> None:
    source = f"""
        from lionagi.testing import TestBranch


        def test_changed():
            responses = [{{"type": "txt", "content": "a"}}]
            {change}
            TestBranch.from_responses(responses)
    """
    # not a literal any more, and nothing else of the call is one
    assert checked(source) == []


# ---------------------------------------------------------------------------- library code


def test_a_call_in_which_nothing_is_a_literal_is_not_a_document() -> None:
    source = """
        from lionagi.work import FieldSpec, WorkForm, fill_form


        def build(spec: dict, spec_path: str):
            title = spec.get("title", spec_path)
            fields = {}
            for name, fspec in spec.get("fields", {}).items():
                fields[name] = FieldSpec(name=name, **fspec)
            form = WorkForm(title=title, fields=fields)
            return fill_form(form, spec.get("values") or {})


        def model(entries):
            from lionagi.testing import ScriptModel

            return ScriptModel(responses=entries, mode=entries.mode)
    """
    assert parts(source) == []


def test_a_literal_document_with_a_hole_still_says_so() -> None:
    source = """
        from lionagi.testing import ScriptModel, TestBranch
        from lionagi.work import WorkForm


        def _chunk(**fields):
            return {"type": "stream", "chunks": [{"type": "text", "content": str(fields)}]}


        def test_holes(title):
            TestBranch.from_responses([_chunk(instruction="do it")], name="spawner")
            WorkForm(title=title, fields={"n": {"type": "integer"}})
            ScriptModel()
    """
    found = checked(source)
    assert [(line, verdict, codes) for line, _, verdict, codes in found] == [
        (11, "insufficient_evidence", ["PY001"]),
        (12, "rejected", ["PY002"]),  # a field declared by a dict, not a FieldSpec
        (13, "accepted", []),  # ScriptModel() on purpose: a placeholder, no empty-script warning
    ]


# --------------------------------------------------------------------- written by a helper


HELPER_WRITES = """
    import json

    import yaml
    from lionagi.testing._endpoint import ENV_SCRIPT_PATH


    def _emit(payload):
        return f"Done.\\n```json\\n{json.dumps(payload)}\\n```\\n"


    def _write_script(tmp_path, monkeypatch, entries):
        path = tmp_path / "script.yaml"
        path.write_text(yaml.safe_dump({"version": 1, "responses": entries}), encoding="utf-8")
        monkeypatch.setenv(ENV_SCRIPT_PATH, str(path))


    def _when(marker, payload=None, text=""):
        return {"type": "text", "content": _emit(payload) if payload is not None else text,
                "when": {"prompt_contains": marker}}


    def test_engine(tmp_path, monkeypatch):
        _write_script(tmp_path, monkeypatch, [_when("plan", {"a": 1}), _when("review", text="ok")])


    def test_local(tmp_path, monkeypatch):
        entries = [_when("plan"), {"type": "txt", "content": "x"}]
        _write_script(tmp_path, monkeypatch, entries)


    def test_tuple(tmp_path, monkeypatch):
        _write_script(tmp_path, monkeypatch, ({"type": "txt"},))


    def _write_json(tmp_path, monkeypatch, entries):
        path = tmp_path / "script.json"
        path.write_text(yaml.safe_dump({"responses": entries}))
        monkeypatch.setenv(ENV_SCRIPT_PATH, str(path))


    def test_json_named(tmp_path, monkeypatch):
        _write_json(tmp_path, monkeypatch, [{"type": "txt"}])
"""


def test_a_helper_writing_its_parameter_as_yaml_gives_one_script_per_call() -> None:
    """``_write_script(tmp_path, monkeypatch, entries)`` (lionagi's engine tests): a helper of
    the module that writes ``yaml.safe_dump`` of its parameter to a ``.yaml`` file the scripted
    endpoint reads; each call of it is a script of its own, with the call's arguments (a name
    bound at the call followed there), found where the call writes them. Not taken: a tuple
    (``safe_dump`` cannot write one back as it was) and YAML text written to a ``.json`` name
    (read with ``json.load``: not the value)."""
    found = checked(HELPER_WRITES)
    assert found == [
        (24, "script", "accepted", []),
        (29, "script", "rejected", ["SC002"]),
    ]
    rejected = parts(HELPER_WRITES)[1]
    (diagnostic,) = rejected.diagnostics
    line = textwrap.dedent(HELPER_WRITES).splitlines()[diagnostic.span.start.line]
    assert line.strip().startswith("entries = [")
