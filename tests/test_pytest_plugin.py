"""formscript's pytest plugin, run by pytester on test projects that drive lionagi 0.36.0's real
TestBranch and ScriptModel (no mocks): located failures, warnings, coverage checked against
what lionagi served, xdist merging, recorded transcripts replayed by ``formscript simulate``,
``--formscript-fail-under``, the JSON and SARIF reports, and a session left untouched without
``--formscript``.

The shared venv installs formscript in editable mode from another checkout, so the plugin is
loaded with ``-p formscript.pytest_plugin`` (with ``PYTHONPATH`` on this checkout's source)
unless the installed metadata already declares the entry point, in which case pytest loads it
by itself (loading it both ways would register it twice).
"""

from __future__ import annotations

import json
import os
import sys
import tomllib
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

from formscript.cli import main

pytest_plugins = ["pytester"]

#: Each session here runs lionagi's Branch for real (seconds apiece on a busy machine): the inner
#: loop (-m "not slow") keeps the located failure, the coverage counts and the transcripts.

ROOT = Path(__file__).resolve().parents[1]
SERVER = ROOT / "server"

pytest.importorskip("lionagi", reason="the plugin observes lionagi 0.36.0 (the conformance extra)")
import lionagi.testing  # noqa: E402, F401  (imported once here: pytester's in-process runs keep it)


def _import_what_the_plugin_loads() -> None:
    """pytester's in-process runs drop the modules imported after its fixture was set up;
    formscript loads its modules lazily, and libyaml's extension module does not survive
    PyYAML being imported a second time in one process, so everything the plugin uses is
    imported here, when this module is."""
    import formscript.pytest_plugin.session  # noqa: F401
    from formscript.lint.engine import lint_text
    from formscript.lint.python_lint import lint_python
    from formscript.runs import simulate_text

    lint_text(SUPPORT + BROKEN.replace("responses:", ""), "warm.script.yaml", kind="script")
    lint_text('{"responses": [{"type": "txt"}]}', "warm.script.json", kind="script")
    lint_python(TESTS, "test_warm.py")
    simulate_text(SUPPORT, "warm.script.yaml", "- hello\n", "warm.calls.yaml")


def _installed_entry_point() -> metadata.EntryPoint | None:
    """formscript's pytest11 entry point as the installed metadata declares it, if it does."""
    for ep in metadata.entry_points(group="pytest11"):
        if ep.name == "formscript" and ep.dist is not None and ep.dist.name == "formscript":
            return ep
    return None


PLUGIN = [] if _installed_entry_point() is not None else ["-p", "formscript.pytest_plugin"]
#: What the subprocesses keep of this process's PYTHONPATH (where the metadata may come from).
PYTHONPATH = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]

SUPPORT = """\
responses:
  - type: text
    content: hello-reply
    when: {prompt_contains: hello}
  - type: text
    content: order-reply
    when: {prompt_contains: order}
  - type: text
    content: refund-reply
    when: {prompt_contains: refund}
  - type: text
    content: first-positional
  - type: text
    content: second-positional
  - type: text
    content: unreachable-reply
    when: {call_index: -1}
"""

BROKEN = """\
responses:
  - type: text
    content: hi
    when: {prompt_contians: hello}
"""

CONFTEST = '''\
import asyncio
import atexit
import json
import os

from lionagi.protocols.generic.log import DataLogger

_init = DataLogger.__init__


def _no_log_at_exit(self, *args, **kwargs):
    """lionagi saves every Branch's log under ./data/logs when the process exits; these runs
    share the outer test process, so their throwaway branches save nothing."""
    _init(self, *args, **kwargs)
    atexit.unregister(self.save_at_exit)


def pytest_configure(config):
    DataLogger.__init__ = _no_log_at_exit


def pytest_unconfigure(config):
    DataLogger.__init__ = _init


def chat(branch, *prompts):
    """Send the prompts in turn; the replies (each recorded for the outer test)."""

    async def run():
        return [await branch.chat(p) for p in prompts]

    replies = asyncio.run(run())
    with open(os.environ["SERVED_LOG"], "a", encoding="utf-8") as log:
        for reply in replies:
            log.write(json.dumps({"test": os.environ["PYTEST_CURRENT_TEST"].split(" ")[0], "reply": reply}) + "\\n")
    return replies
'''

TESTS = """\
from pathlib import Path

import pytest
from lionagi.testing import ScriptExhaustedError, ScriptModel, TestBranch

from conftest import chat

HERE = Path(__file__).parent


def test_greets_and_orders():
    branch = TestBranch.from_yaml(HERE / "fixtures" / "support.script.yaml")
    assert chat(branch, "hello", "my order", "thanks") == ["hello-reply", "order-reply", "first-positional"]


def test_hello_only():
    branch = TestBranch.from_script(str(HERE / "fixtures" / "support.script.yaml"))
    assert chat(branch, "hello there") == ["hello-reply"]


def test_literal():
    branch = TestBranch.from_responses([
        {"type": "text", "content": "lit-0"},
        {"type": "text", "content": "lit-rain", "when": {"prompt_contains": "rain"}},
        {"type": "text", "content": "lit-1"},
    ])
    assert chat(branch, "weather?", "rain tomorrow?") == ["lit-0", "lit-rain"]


def test_exhausted_positional():
    branch = TestBranch.from_yaml(HERE / "fixtures" / "two.script.yaml")
    assert chat(branch, "a", "b") == ["two-0", "two-1"]
    with pytest.raises(Exception) as info:
        chat(branch, "c")
    assert "exhausted" in str(info.value) or isinstance(info.value, ScriptExhaustedError)
"""

#: pytester's in-process runs import the plugin module again: pytest cannot rewrite it (harmless).
INI = """\
[pytest]
addopts = -p no:cacheprovider
asyncio_default_fixture_loop_scope = function
filterwarnings = ignore::pytest.PytestAssertRewriteWarning
"""

TWO = """\
mode: positional
responses:
  - {type: text, content: two-0}
  - {type: text, content: two-1}
"""


_import_what_the_plugin_loads()


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    """A test project: a YAML fixture with a never-served and an unreachable entry, a
    positional one the tests exhaust, a literal, and the log of what lionagi served."""
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(SERVER), str(pytester.path), *PYTHONPATH]))
    monkeypatch.setenv("SERVED_LOG", str(pytester.path / "served.jsonl"))
    monkeypatch.syspath_prepend(str(pytester.path))
    fixtures = pytester.mkdir("fixtures")
    (fixtures / "support.script.yaml").write_text(SUPPORT, encoding="utf-8")
    (fixtures / "two.script.yaml").write_text(TWO, encoding="utf-8")
    (fixtures / "broken.script.yaml").write_text(BROKEN, encoding="utf-8")
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_bot=TESTS)
    pytester.makeini(INI)
    return pytester


def run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    """The session in this process (lionagi stays imported between runs)."""
    return pytester.runpytest_inprocess(*PLUGIN, *args)


def expect(result: pytest.RunResult, lines: list[str]) -> None:
    """*lines* appear in this order in the output (``*`` a wildcard, ``[`` a plain character)."""
    result.stdout.fnmatch_lines([line.replace("[", "[[]") for line in lines])


def table_of(result: pytest.RunResult) -> list[str]:
    """The lines of the coverage table (its header excluded, up to its TOTAL line)."""
    lines = result.stdout.lines
    start = next(i for i, line in enumerate(lines) if "formscript: scripted entries served" in line)
    end = next(i for i, line in enumerate(lines) if line.startswith("TOTAL: ") and i > start)
    return lines[start + 1 : end + 1]


def served_log(pytester: pytest.Pytester) -> list[dict[str, str]]:
    path = pytester.path / "served.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def expected_counts(pytester: pytest.Pytester, script: str) -> dict[int, int]:
    """How often lionagi served each entry of *script*, from the replies it gave (each
    entry's content is unique)."""
    import yaml

    data = yaml.safe_load((pytester.path / "fixtures" / script).read_text(encoding="utf-8"))
    index = {e["content"]: i for i, e in enumerate(data["responses"])}
    counts = dict.fromkeys(range(len(data["responses"])), 0)
    for record in served_log(pytester):
        if record["reply"] in index:
            counts[index[record["reply"]]] += 1
    return counts


def report_of(pytester: pytest.Pytester, name: str = "report.json") -> dict[str, Any]:
    data: dict[str, Any] = json.loads((pytester.path / name).read_text(encoding="utf-8"))
    return data


# --------------------------------------------------------------------------- activation


def test_the_entry_point_is_declared_and_resolves_to_the_plugin() -> None:
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert declared["project"]["entry-points"]["pytest11"] == {"formscript": "formscript.pytest_plugin"}
    assert any(extra.startswith("pytest-xdist") for extra in declared["project"]["optional-dependencies"]["test"])
    installed = _installed_entry_point()
    if installed is not None:  # the metadata of an install made from this pyproject
        assert installed.value == "formscript.pytest_plugin"
        import formscript.pytest_plugin

        assert installed.load() is formscript.pytest_plugin


def test_without_the_flag_the_session_is_untouched(project: pytest.Pytester) -> None:
    project.makepyfile(
        test_untouched="""
        from lionagi.testing import ScriptModel

        def test_lionagi_is_not_wrapped():
            assert not hasattr(ScriptModel.__dict__["coerce"].__func__, "__wrapped__")
            assert "next" not in ScriptModel.__dict__ or not hasattr(ScriptModel.next, "__wrapped__")

        def test_broken():
            ScriptModel.coerce("fixtures/broken.script.yaml")
        """
    )
    result = run(project, "test_untouched.py", "--formscript-traceback")
    result.assert_outcomes(passed=1, failed=1)
    out = result.stdout.str()
    assert "scripted entries served" not in out and "Formscript" not in out and "formscript:" not in out
    assert "pydantic_core._pydantic_core.ValidationError" in out  # pydantic's own report, as always
    assert "ScriptModel.__dict__" in out or "def test_broken" in out  # pytest's traceback, as always


def test_plugin_options_need_the_flag(project: pytest.Pytester) -> None:
    result = run(project, "--formscript-report=report.json")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "--formscript-report needs --formscript" in result.stderr.str()
    assert not (project.path / "report.json").exists()


@pytest.mark.parametrize(
    ("option", "why"),
    [
        ("--formscript-report=taken/report.json", "taken is a file, not a folder"),
        ("--formscript-report=folder", "it is a folder"),
        ("--formscript-sarif=taken/deeper/out.sarif", "taken is a file, not a folder"),
        ("--formscript-record-calls=taken", "it is a file, not a folder"),
        ("--formscript-record-calls=taken/calls", "taken is a file, not a folder"),
    ],
)
def test_an_output_path_that_cannot_be_written_is_refused_before_the_tests(
    project: pytest.Pytester, option: str, why: str
) -> None:
    (project.path / "taken").write_text("a file\n", encoding="utf-8")
    (project.path / "folder").mkdir()
    result = run(project, "--formscript", option)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    err = result.stderr.str()
    name, _, given = option.partition("=")
    assert [line for line in err.splitlines() if line.strip()] == [f"ERROR: {name} {given}: cannot write ({why})"]
    assert "Traceback" not in err and "collected" not in result.stdout.str()


def test_a_refused_configuration_is_a_usage_error_before_the_tests(project: pytest.Pytester) -> None:
    (project.path / "pyproject.toml").write_text("[tool.formscript]\nignore = 3\n", encoding="utf-8")
    result = run(project, "--formscript")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    err = [line for line in result.stderr.str().splitlines() if line.strip()]
    where = project.path / "pyproject.toml"
    assert err == [f"ERROR: formscript: {where}:2: ignore: expected a list of rule codes, found 3"]
    assert "collected" not in result.stdout.str()


@pytest.mark.slow
def test_the_ini_switch_activates_it(project: pytest.Pytester) -> None:
    project.makeini(INI + "formscript = true\n")
    result = run(project, "test_bot.py", "-k", "hello_only")
    result.assert_outcomes(passed=1)
    expect(result, ["*formscript: scripted entries served*", "fixtures/support.script.yaml: 1 of 6*"])


# --------------------------------------------------------------------------- load-time checks


def test_a_rejected_fixture_fails_with_located_diagnostics(project: pytest.Pytester) -> None:
    project.makepyfile(
        test_reject="""
        import pytest
        from pydantic import ValidationError
        from lionagi.testing import TestBranch

        def test_broken_file():
            TestBranch.from_yaml("fixtures/broken.script.yaml")

        def test_the_exception_is_lionagis_own():
            with pytest.raises(ValidationError):
                TestBranch.from_yaml("fixtures/broken.script.yaml")
        """
    )
    result = run(project, "--formscript", "test_reject.py")
    result.assert_outcomes(passed=1, failed=1)
    expect(
        result,
        [
            "*_ test_broken_file _*",
            "formscript: lionagi rejects the script fixtures/broken.script.yaml (1 error(s)):",
            "fixtures/broken.script.yaml:4:12: error[SC003] response #0 (text): unknown key 'prompt_contians' in when;"
            " * did you mean 'prompt_contains'?",
            "   4 |     when: {prompt_contians: hello}",
            "*^^^^^^^^^^^^^^^",
            "lionagi raised pydantic_core._pydantic_core.ValidationError: 1 validation error for ScriptModel",
        ],
    )
    out = result.stdout.str()
    assert "site-packages" not in out and "Traceback" not in out  # the pydantic traceback is replaced


@pytest.mark.slow
def test_the_traceback_option_keeps_lionagis_traceback(project: pytest.Pytester) -> None:
    project.makepyfile(
        test_reject="""
        from lionagi.testing import ScriptModel

        def test_broken_file():
            ScriptModel.coerce("fixtures/broken.script.yaml")
        """
    )
    result = run(project, "--formscript", "--formscript-traceback", "test_reject.py")
    result.assert_outcomes(failed=1)
    expect(result, ["*ValidationError*", "*- formscript -*", "formscript: lionagi rejects*"])


@pytest.mark.slow
def test_a_rejected_literal_is_located_in_the_test_file(project: pytest.Pytester) -> None:
    project.makepyfile(
        test_literal_reject="""
        from lionagi.testing import ScriptModel

        def test_typo():
            ScriptModel.from_responses(
                [
                    {"type": "text", "content": "a"},
                    {"type": "txt", "content": "b"},
                ]
            )
        """
    )
    result = run(project, "--formscript", "test_literal_reject.py")
    result.assert_outcomes(failed=1)
    expect(
        result,
        [
            "formscript: lionagi rejects the script ScriptModel.from_responses(...) at test_literal_reject.py:5 *",
            "test_literal_reject.py:7:22: error[SC002] response #1 has unknown type 'txt'; * did you mean 'text'?",
            '   7 |             {"type": "txt", "content": "b"},',
        ],
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    "call",
    [
        'ScriptModel(responses=[{"type": "txt", "content": "b"}])',
        'ScriptModel.model_validate({"responses": [{"type": "txt", "content": "b"}]})',
        'ScriptModel.coerce([{"type": "txt", "content": "b"}])',
    ],
)
def test_a_rejected_literal_is_located_whichever_loader_is_handed_it(project: pytest.Pytester, call: str) -> None:
    """The constructor, ``model_validate`` and ``coerce`` of a list check what they were handed."""
    project.makepyfile(test_loader=f"from lionagi.testing import ScriptModel\n\n\ndef test_typo():\n    {call}\n")
    result = run(project, "--formscript", "test_loader.py")
    result.assert_outcomes(failed=1)
    column, shown = call.index('"txt"') + 5, call.partition("(")[0] + "(...)"
    expect(
        result,
        [
            f"formscript: lionagi rejects the script {shown} at test_loader.py:5 (1 error(s)):",
            f"test_loader.py:5:{column}: error[SC002] response #0 has unknown type 'txt'; * did you mean 'text'?",
            f"   5 |     {call}",
        ],
    )


@pytest.mark.slow
def test_a_file_is_linted_as_the_loader_lionagi_picks_reads_it(project: pytest.Pytester) -> None:
    """``from_yaml`` reads YAML whatever the file is named: a ``.json`` file holding YAML is
    reported as YAML."""
    (project.path / "fixtures" / "yaml.script.json").write_text("responses:\n  - {type: txt}\n", encoding="utf-8")
    project.makepyfile(
        test_loader="""
        from lionagi.testing import ScriptModel

        def test_typo():
            ScriptModel.from_yaml("fixtures/yaml.script.json")
        """
    )
    result = run(project, "--formscript", "test_loader.py")
    result.assert_outcomes(failed=1)
    expect(
        result,
        [
            "formscript: lionagi rejects the script fixtures/yaml.script.json (1 error(s)):",
            "fixtures/yaml.script.json:2:12: error[SC002] response #0 has unknown type 'txt'; *",
            "   2 |   - {type: txt}",
        ],
    )


@pytest.mark.slow
def test_a_literal_in_a_test_file_that_is_not_utf8_is_checked_at_its_call(project: pytest.Pytester) -> None:
    """A Latin-1 test module formscript cannot read: the script is checked as the value handed over."""
    (project.path / "test_latin.py").write_bytes(
        b"# -*- coding: latin-1 -*-\n"
        b"from lionagi.testing import ScriptModel\n\n\n"
        b"def test_typo():\n"
        b'    ScriptModel.from_responses([{"type": "txt", "content": "caf\xe9"}])\n'
    )
    result = run(project, "--formscript", "test_latin.py")
    result.assert_outcomes(failed=1)
    expect(  # the call is not read from the file: no loader name, no source line
        result,
        [
            "formscript: lionagi rejects the script at test_latin.py:6 (1 error(s)):",
            "test_latin.py:6:5: error[SC002] response #0 has unknown type 'txt'; * did you mean 'text'?",
            "",
            "lionagi raised pydantic_core._pydantic_core.ValidationError: 1 validation error for ScriptModel",
        ],
    )


@pytest.mark.slow
def test_a_value_built_at_run_time_is_checked_at_its_call(project: pytest.Pytester) -> None:
    project.makepyfile(
        test_built="""
        from lionagi.testing import TestBranch

        def make(kind):
            return TestBranch.from_responses([{"type": kind, "content": "x"}])

        def test_built():
            make("txt")
        """
    )
    result = run(project, "--formscript", "test_built.py")
    result.assert_outcomes(failed=1)
    expect(
        result,
        [
            "formscript: lionagi rejects the script TestBranch.from_responses(...) at test_built.py:4 (1 error(s)):",
            "test_built.py:4:12: error[SC002] response #0 has unknown type 'txt'; *",
            '   4 |     return TestBranch.from_responses([{"type": kind, "content": "x"}])',
        ],
    )


def test_an_unreachable_entry_is_a_located_warning(project: pytest.Pytester) -> None:
    result = run(project, "--formscript", "test_bot.py", "-k", "hello_only or greets")
    result.assert_outcomes(passed=2)
    expect(
        result,
        [
            "*warnings summary*",
            "test_bot.py::test_greets_and_orders",
            "  fixtures/support.script.yaml:17: FormscriptWarning: warning[SC011] response #5 waits for"
            " call_index -1, and call indexes start at 0 (column 24)",
            "    when: {call_index: -1}",
        ],
    )
    assert result.stdout.str().count("warning[SC011]") == 1  # once per session, at its place


@pytest.mark.slow
def test_a_script_from_the_environment_is_observed(project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    """``LIONAGI_TEST_SCRIPT``: the scripted endpoint reads the path itself."""
    monkeypatch.setenv("LIONAGI_TEST_SCRIPT", str(project.path / "fixtures" / "support.script.yaml"))
    project.makepyfile(
        test_env="""
        import asyncio
        from lionagi import Branch, iModel

        def test_env_script():
            branch = Branch(chat_model=iModel(provider="scripted", endpoint="chat", model="scripted-test"))
            assert asyncio.run(branch.chat("a refund please")) == "refund-reply"
        """
    )
    result = run(project, "--formscript", "test_env.py", "--formscript-report=report.json")
    result.assert_outcomes(passed=1)
    (row,) = report_of(project)["sources"]
    assert row["source"] == "fixtures/support.script.yaml"
    assert [e["served"] for e in row["entries"]] == [0, 0, 1, 0, 0, 0]


# --------------------------------------------------------------------------- coverage


def test_coverage_counts_what_lionagi_served(project: pytest.Pytester) -> None:
    result = run(project, "--formscript", "test_bot.py", "--formscript-report=report.json")
    result.assert_outcomes(passed=4)
    report = report_of(project)
    rows = {r["source"]: r for r in report["sources"]}
    assert sorted(rows) == ["fixtures/support.script.yaml", "fixtures/two.script.yaml", "test_bot.py:22"]
    for script in ("support.script.yaml", "two.script.yaml"):
        row = rows[f"fixtures/{script}"]
        counts = expected_counts(project, script)
        assert {e["index"]: e["served"] for e in row["entries"]} == counts
        assert row["never_served"] == [i for i, n in counts.items() if n == 0]
    support = rows["fixtures/support.script.yaml"]
    assert [e["line"] for e in support["entries"]] == [2, 5, 8, 11, 13, 15]
    assert support["never_served"] == [2, 4, 5] and support["percent"] == 50.0
    literal = rows["test_bot.py:22"]
    assert literal["call"] == "TestBranch.from_responses"
    assert [(e["line"], e["served"]) for e in literal["entries"]] == [(23, 1), (24, 1), (25, 0)]
    assert report["summary"] == {"sources": 3, "entries": 11, "served": 7, "never_served": 4, "percent": 63.64}
    expect(
        result,
        [
            "*formscript: scripted entries served*",
            "fixtures/support.script.yaml: 3 of 6 entries served, 50.0%",
            "  #0   text       fixtures/support.script.yaml:2 * served 2x",
            "  #1   text       fixtures/support.script.yaml:5 * served 1x",
            "  #2   text       fixtures/support.script.yaml:8 * never served",
            "*",
            "fixtures/two.script.yaml: 2 of 2 entries served, 100.0%",
            "*",
            "test_bot.py:22 (TestBranch.from_responses): 2 of 3 entries served, 66.7%",
            "*",
            "  #2   text       test_bot.py:25 * never served",
            "TOTAL: 7 of 11 entries served in 3 script(s), 63.6%",
        ],
    )


@pytest.mark.slow
def test_the_json_report_is_versioned_and_deterministic(project: pytest.Pytester) -> None:
    run(project, "--formscript", "test_bot.py", "--formscript-report=one.json")
    run(project, "--formscript", "test_bot.py", "--formscript-report=two.json", "-p", "no:randomly")
    first = (project.path / "one.json").read_text(encoding="utf-8")
    assert first == (project.path / "two.json").read_text(encoding="utf-8")
    report = json.loads(first)
    assert report["version"] == 1 and report["tool"]["name"] == "formscript"
    assert set(report) == {"version", "tool", "summary", "sources", "lionagi", "drift", "forms"}
    assert set(report["sources"][0]) == {
        "source", "kind", "path", "line", "call", "entries", "total", "served", "never_served", "percent"
    }  # fmt: skip
    assert set(report["sources"][0]["entries"][0]) == {"index", "type", "line", "served"}


@pytest.mark.slow
def test_sarif_annotates_the_never_served_entries(project: pytest.Pytester) -> None:
    from sarif_pydantic import Sarif

    run(project, "--formscript", "test_bot.py", "--formscript-sarif=out/formscript.sarif")
    data = json.loads((project.path / "out" / "formscript.sarif").read_text(encoding="utf-8"))
    assert Sarif.model_validate(data).version == "2.1.0"
    places = [r["locations"][0]["physicalLocation"] for r in data["runs"][0]["results"]]
    found = [(p["artifactLocation"]["uri"], p["region"]["startLine"]) for p in places]
    assert found == [
        ("fixtures/support.script.yaml", 8),
        ("fixtures/support.script.yaml", 13),
        ("fixtures/support.script.yaml", 15),
        ("test_bot.py", 25),
    ]


@pytest.mark.slow
@pytest.mark.parametrize(("threshold", "code"), [("60", 0), ("63.64", 0), ("63.65", 1), ("90", 1)])
def test_fail_under_sets_the_exit_code(project: pytest.Pytester, threshold: str, code: int) -> None:
    result = run(project, "--formscript", "test_bot.py", f"--formscript-fail-under={threshold}")
    result.assert_outcomes(passed=4)
    assert result.ret == code
    failing = f"FAIL: formscript coverage of {float(threshold):g}% not reached: 63.6% of the entries served"
    assert (failing in result.stdout.str()) == bool(code)


def test_fail_under_takes_a_percentage(project: pytest.Pytester) -> None:
    result = run(project, "--formscript", "--formscript-fail-under=120")
    assert result.ret == pytest.ExitCode.USAGE_ERROR


# --------------------------------------------------------------------------- transcripts


def _simulated(capsys: pytest.CaptureFixture[str], cwd: Path, *args: str) -> dict[str, Any]:
    before = Path.cwd()
    os.chdir(cwd)
    try:
        capsys.readouterr()
        main(["simulate", *args, "--format", "json"])
    finally:
        os.chdir(before)
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def test_recorded_calls_replay_to_the_served_sequence(
    project: pytest.Pytester, capsys: pytest.CaptureFixture[str]
) -> None:
    run(project, "--formscript", "test_bot.py", "--formscript-record-calls=calls").assert_outcomes(passed=4)
    written = sorted(p.relative_to(project.path).as_posix() for p in (project.path / "calls").rglob("*"))
    assert written == [
        "calls/fixtures",
        "calls/fixtures/support.2.calls.yaml",
        "calls/fixtures/support.calls.yaml",
        "calls/fixtures/two.calls.yaml",
        "calls/test_bot.L22.calls.yaml",
    ]
    served = served_log(project)
    by_test: dict[str, list[str]] = {}
    for record in served:
        by_test.setdefault(record["test"], []).append(record["reply"])
    cases = [
        ("fixtures/support.script.yaml", "calls/fixtures/support.calls.yaml", "test_bot.py::test_greets_and_orders"),
        ("fixtures/support.script.yaml", "calls/fixtures/support.2.calls.yaml", "test_bot.py::test_hello_only"),
        ("fixtures/two.script.yaml", "calls/fixtures/two.calls.yaml", "test_bot.py::test_exhausted_positional"),
        ("test_bot.py:22", "calls/test_bot.L22.calls.yaml", "test_bot.py::test_literal"),
    ]
    for script, calls, test in cases:
        header = (project.path / calls).read_text(encoding="utf-8").splitlines()[:3]
        assert header[0] == f"# Calls made to {script} by {test}"
        assert header[2] == f"#   formscript simulate {script} --calls {calls})"
        simulated = _simulated(capsys, project.path, script, "--calls", calls)
        served_calls = [c for c in simulated["calls"] if c["outcome"] == "served"]
        replies = [c["response"]["choices"][0]["message"]["content"] for c in served_calls]
        assert replies == by_test[test], (script, calls)
    exhausted = _simulated(capsys, project.path, "fixtures/two.script.yaml", "--calls", "calls/fixtures/two.calls.yaml")
    assert [c["outcome"] for c in exhausted["calls"]] == ["served", "served", "exhausted"]


@pytest.mark.slow
def test_a_reset_script_starts_a_new_recorded_session(project: pytest.Pytester) -> None:
    """``ScriptModel.reset()`` rewinds the script: the calls after it are a transcript of their own."""
    project.makepyfile(
        test_reset="""
        from pathlib import Path

        from lionagi.testing import ScriptModel

        def test_reset():
            model = ScriptModel.from_yaml(Path(__file__).parent / "fixtures" / "two.script.yaml")
            payload = {"messages": [{"role": "user", "content": "a"}]}
            assert model.next(payload, 0)[0].content == "two-0"
            model.reset()
            assert model.next(payload, 1)[0].content == "two-0"
            assert model.next(payload, 2)[0].content == "two-1"
        """
    )
    run(project, "--formscript", "test_reset.py", "--formscript-record-calls=calls").assert_outcomes(passed=1)
    renumbered = (  # the calls after the reset were made with call indexes 1 and 2
        "# Some calls were made with a call index other than the number of calls served before;\n"
        "# a replay counts the calls itself, so call_index / after_calls matchers may differ.\n"
    )
    for name, calls in (("two.calls.yaml", "- a\n"), ("two.2.calls.yaml", renumbered + "- a\n- a\n")):
        assert (project.path / "calls" / "fixtures" / name).read_text(encoding="utf-8") == (
            "# Calls made to fixtures/two.script.yaml by test_reset.py::test_reset\n"
            "# (recorded by formscript's pytest plugin; replay them with:\n"
            f"#   formscript simulate fixtures/two.script.yaml --calls calls/fixtures/{name})\n" + calls
        )


@pytest.mark.slow
def test_a_transcript_says_what_a_replay_cannot_repeat(project: pytest.Pytester) -> None:
    """A copy of a used script, calls after the one that raised, and a payload YAML cannot
    write (a ``str`` subclass): each transcript says so, or is written as JSON."""
    project.makepyfile(
        test_odd_sessions="""
        import copy
        from pathlib import Path

        import pytest
        from lionagi.testing import ScriptExhaustedError, ScriptModel

        TWO = Path(__file__).parent / "fixtures" / "two.script.yaml"
        PAYLOAD = {"messages": [{"role": "user", "content": "a"}]}

        def test_a_copy_of_a_used_script():
            model = ScriptModel.from_yaml(TWO)
            model.next(PAYLOAD, 0)
            assert copy.copy(model).next(PAYLOAD, 1)[0].content == "two-1"

        def test_calls_after_exhaustion():
            model = ScriptModel.from_yaml(TWO)
            model.next(PAYLOAD, 0)
            model.next(PAYLOAD, 1)
            for call in (2, 3, 4):
                with pytest.raises(ScriptExhaustedError):
                    model.next(PAYLOAD, call)

        class Text(str):
            pass

        def test_a_text_yaml_cannot_write():
            model = ScriptModel.from_yaml(TWO)
            model.next({"messages": [{"role": "user", "content": Text("a")}]}, 0)
        """
    )
    result = run(project, "--formscript", "test_odd_sessions.py", "--formscript-record-calls=calls")
    result.assert_outcomes(passed=3)
    written = {p.name: p.read_text(encoding="utf-8") for p in (project.path / "calls" / "fixtures").iterdir()}

    def head(name: str, test: str) -> str:
        return (
            f"# Calls made to fixtures/two.script.yaml by test_odd_sessions.py::{test}\n"
            "# (recorded by formscript's pytest plugin; replay them with:\n"
            f"#   formscript simulate fixtures/two.script.yaml --calls calls/fixtures/{name})\n"
        )

    assert written == {
        "two.calls.yaml": head("two.calls.yaml", "test_a_copy_of_a_used_script") + "- a\n",
        "two.2.calls.yaml": head("two.2.calls.yaml", "test_a_copy_of_a_used_script")
        + "# The script had served calls before this session's first one (a copy of a used script);\n"
        "# a replay starts from a fresh script.\n"
        "# Some calls were made with a call index other than the number of calls served before;\n"
        "# a replay counts the calls itself, so call_index / after_calls matchers may differ.\n"
        "- a\n",
        "two.3.calls.yaml": head("two.3.calls.yaml", "test_a_text_yaml_cannot_write") + '[\n  "a"\n]\n',
        "two.4.calls.yaml": head("two.4.calls.yaml", "test_calls_after_exhaustion")
        + "# The test made 2 more call(s) after the one that raised; a replay stops there.\n"
        "- a\n- a\n- a\n",
    }


@pytest.mark.slow
def test_a_payload_that_is_no_mapping_is_transcribed_as_an_empty_payload(project: pytest.Pytester) -> None:
    project.makepyfile(
        test_odd_payload="""
        from pathlib import Path

        from lionagi.testing import ScriptModel

        def test_text_payload():
            model = ScriptModel.from_yaml(Path(__file__).parent / "fixtures" / "two.script.yaml")
            assert model.next("a", 0)[0].content == "two-0"
        """
    )
    run(project, "--formscript", "test_odd_payload.py", "--formscript-record-calls=calls").assert_outcomes(passed=1)
    assert (project.path / "calls" / "fixtures" / "two.calls.yaml").read_text(encoding="utf-8") == (
        "# Calls made to fixtures/two.script.yaml by test_odd_payload.py::test_text_payload\n"
        "# (recorded by formscript's pytest plugin; replay them with:\n"
        "#   formscript simulate fixtures/two.script.yaml --calls calls/fixtures/two.calls.yaml)\n"
        "- payload: {}\n"
    )


@pytest.mark.slow
def test_a_script_built_at_run_time_is_counted_but_not_transcribed(project: pytest.Pytester) -> None:
    """A script a helper builds (of plain data, or of lionagi's own entry objects, on which
    formscript makes no claim) is counted at its call; no transcript is written for it (no
    file or literal to replay)."""
    project.makepyfile(
        test_built_served="""
        from lionagi.testing import ScriptModel, TextResponse

        PAYLOAD = {"messages": [{"role": "user", "content": "a"}]}

        def make(entry):
            return ScriptModel.from_responses([entry])

        def test_plain():
            assert make({"type": "text", "content": "x"}).next(PAYLOAD, 0)[0].content == "x"

        def test_entry_object():
            assert make(TextResponse(type="text", content="y")).next(PAYLOAD, 0)[0].content == "y"
        """
    )
    result = run(project, "--formscript", "test_built_served.py", "--formscript-record-calls=calls")
    result.assert_outcomes(passed=2)
    assert "FormscriptWarning" not in result.stdout.str()
    assert table_of(result) == [
        "",
        "test_built_served.py:6#c71461a9 (ScriptModel.from_responses): 1 of 1 entries served, 100.0%",
        "  #0   text       test_built_served.py:6                           served 1x",
        "test_built_served.py:6#d8795f4c (ScriptModel.from_responses): 1 of 1 entries served, 100.0%",
        "  #0   text       test_built_served.py:6                           served 1x",
        "TOTAL: 2 of 2 entries served in 2 script(s), 100.0%",
    ]
    expect(result, ["0 calls transcript(s) under calls"])
    assert not (project.path / "calls").exists()


# --------------------------------------------------------------------------- xdist


@pytest.mark.slow
def test_xdist_workers_are_merged(project: pytest.Pytester) -> None:
    """-n 2 gives the report, the table and the transcripts of a run in one process."""
    project.makepyfile(
        test_more="""
        from pathlib import Path
        from lionagi.testing import TestBranch
        from conftest import chat

        def test_refund():
            branch = TestBranch.from_yaml(Path(__file__).parent / "fixtures" / "support.script.yaml")
            assert chat(branch, "refund?", "x", "y") == ["refund-reply", "first-positional", "second-positional"]
        """
    )
    args = ["--formscript", "test_bot.py", "test_more.py", "-p", "xdist"]
    one = project.runpytest_subprocess(*PLUGIN, *args, "--formscript-report=one.json", "--formscript-record-calls=c1")
    one.assert_outcomes(passed=5)
    (project.path / "served.jsonl").unlink()
    two = project.runpytest_subprocess(
        *PLUGIN, *args, "-n", "2", "--formscript-report=two.json", "--formscript-record-calls=c2"
    )
    two.assert_outcomes(passed=5)
    assert "2 workers" in two.stdout.str()
    assert report_of(project, "one.json") == report_of(project, "two.json")
    support = next(r for r in report_of(project, "two.json")["sources"] if r["source"].endswith("support.script.yaml"))
    assert {e["index"]: e["served"] for e in support["entries"]} == expected_counts(project, "support.script.yaml")
    assert support["never_served"] == [5]
    assert table_of(two) == table_of(one) and table_of(one)[-1].startswith("TOTAL: 9 of 11 entries")
    for first in sorted((project.path / "c1").rglob("*.calls.yaml")):
        second = project.path / "c2" / first.relative_to(project.path / "c1")
        assert first.read_text(encoding="utf-8").replace("c1/", "c2/") == second.read_text(encoding="utf-8")


# --------------------------------------------------------------------------- the sample project and README


def _readme_section() -> str:
    text = (ROOT / "docs" / "pytest-plugin.md").read_text(encoding="utf-8")
    return text.split("## pytest plugin", 1)[1].split("\n## ", 1)[0]


def _blocks(section: str) -> list[tuple[str, str]]:
    import re

    return re.findall(r"```(\w+)\n(.*?)```", section, re.DOTALL)


@pytest.mark.slow
def test_the_readme_commands_do_what_it_shows(tmp_path: Path) -> None:
    """Each command of the README section runs in a copy of examples/pytest-plugin; each
    ``text`` block after a command is part of what it prints."""
    import shlex
    import shutil
    import subprocess

    sample = tmp_path / "pytest-plugin"
    shutil.copytree(ROOT / "examples" / "pytest-plugin", sample)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SERVER), *PYTHONPATH]), "PYTEST_ADDOPTS": " ".join(PLUGIN)}
    env.pop("PYTEST_XDIST_WORKER", None)
    bin_dir = Path(sys.executable).parent
    env["PATH"] = os.pathsep.join([str(bin_dir), env.get("PATH", "")])
    blocks = _blocks(_readme_section())
    commands = [body for kind, body in blocks if kind == "sh"]
    assert commands, "the README section shows commands"
    ran = 0
    pending: subprocess.CompletedProcess[str] | None = None
    for kind, body in blocks:
        if kind == "sh":
            for line in body.strip().splitlines():
                if line.startswith("cd "):
                    continue
                words = shlex.split(line)
                pending = subprocess.run(words, cwd=sample, env=env, capture_output=True, text=True, timeout=600)
                ran += 1
        elif kind == "text" and pending is not None:
            out = pending.stdout
            for expected in body.strip("\n").splitlines():
                assert expected in out, f"{expected!r} not in the output of {pending.args}:\n{out}"
    assert ran >= 3
    assert (sample / "formscript.json").is_file()


def test_the_sample_project_is_linted_like_any_test_suite(capsys: pytest.CaptureFixture[str]) -> None:
    """formscript lint finds the same broken fixture the plugin fails on, and the literal."""
    sample = ROOT / "examples" / "pytest-plugin"
    before = Path.cwd()
    os.chdir(sample)
    try:
        code = main(["lint", "--no-cache", "--format", "json", "tests"])
    finally:
        os.chdir(before)
    reported = json.loads(capsys.readouterr().out)["files"]
    files = {(f["path"], (f.get("embedded") or {}).get("call")): f["verdict"] for f in reported}
    assert code == 1
    assert files[("tests/fixtures/broken.script.yaml", None)] == "rejected"
    assert files[("tests/fixtures/support.script.yaml", None)] == "accepted"
    assert files[("tests/test_support.py", "TestBranch.from_responses")] == "accepted"


@pytest.mark.slow
def test_warnings_can_be_made_errors_and_configured(project: pytest.Pytester) -> None:
    """``-W error::...FormscriptWarning`` fails the loading test; ``[tool.formscript]`` ignores apply."""
    strict = run(
        project,
        "--formscript",
        "test_bot.py",
        "-k",
        "hello_only",
        "-W",
        "error::formscript.pytest_plugin.FormscriptWarning",
    )
    strict.assert_outcomes(failed=1)
    expect(strict, ["*FormscriptWarning: warning[SC011] response #5 waits for call_index -1*"])
    (project.path / "pyproject.toml").write_text('[tool.formscript]\nignore = ["SC011"]\n', encoding="utf-8")
    quiet = run(project, "--formscript", "test_bot.py", "-k", "hello_only")
    quiet.assert_outcomes(passed=1)
    assert "SC011" not in quiet.stdout.str()


#: Form specs ``li agent --form`` refuses: a value it rejects (it returns 1) and a spec
#: ``_build_work_form`` refuses with an exception (an unknown top-level key), with the lines the
#: failing test carries after its assertion: formscript's report of the spec, then lionagi's words.
REFUSED_SPECS = {
    "a rejected value": (
        "fields:\n  country: {type: str}\nvalues:\n  country: no\n",
        [
            "bad.form.yaml:4:12: error[FS015] YAML 1.1 reads unquoted 'no' as the boolean False, not a string; *",
            "   4 |   country: no",
            "lionagi said: Field 'country' expects type 'str', got 'bool' with value False.",
        ],
    ),
    "a spec it cannot load": (
        "titel: X\nfields:\n  a: {type: str}\n",
        [
            "bad.form.yaml:1:1: error[FS001] unknown top-level key 'titel'; *",
            "   1 | titel: X",
            "lionagi said: builtins.ValueError: form spec 'bad.form.yaml': unknown top-level key(s) 'titel'; *",
        ],
    ),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(REFUSED_SPECS))
def test_a_form_spec_li_agent_refuses_is_located(project: pytest.Pytester, case: str) -> None:
    """``li agent --form`` run in-process refuses the spec; the failing test carries
    formscript's report of the spec and what lionagi said."""
    spec, lines = REFUSED_SPECS[case]
    (project.path / "bad.form.yaml").write_text(spec, encoding="utf-8")
    project.makepyfile(
        test_form="""
        from lionagi.cli.main import main

        def test_bad(monkeypatch):
            monkeypatch.setenv("LIONAGI_CHAT_PROVIDER", "scripted")
            assert main(["agent", "--form", "bad.form.yaml", "hello"]) == 0
        """
    )
    result = run(project, "--formscript", "test_form.py", "--formscript-report=report.json")
    result.assert_outcomes(failed=1)
    data = json.loads((project.path / "report.json").read_text(encoding="utf-8"))
    assert data["drift"] == [] and data["lionagi"]["form_specs_checked"] == 1  # refused, as predicted
    expect(
        result,
        [
            "*assert 1 == 0*",
            "*- formscript -*",
            "formscript: li agent --form refuses the form spec bad.form.yaml:",
            *lines,
        ],
    )


@pytest.mark.slow
def test_a_module_that_loads_a_rejected_script_fails_to_collect_with_the_report(project: pytest.Pytester) -> None:
    project.makepyfile(
        test_module_level="""
        from lionagi.testing import ScriptModel

        SCRIPT = ScriptModel.coerce("fixtures/broken.script.yaml")

        def test_never_runs():
            pass
        """
    )
    result = run(project, "--formscript", "test_module_level.py")
    result.assert_outcomes(errors=1)
    expect(
        result,
        [
            "*ERROR collecting test_module_level.py*",
            "formscript: lionagi rejects the script fixtures/broken.script.yaml (1 error(s)):",
            "fixtures/broken.script.yaml:4:12: error[SC003] *",
        ],
    )


def test_without_lionagi_an_active_session_says_so(project: pytest.Pytester) -> None:
    project.makeconftest(
        "import sys\nsys.modules['lionagi.testing._script'] = None  # as if lionagi were not installed\n"
    )
    project.makepyfile(test_plain="def test_plain():\n    assert True\n")
    result = run(project, "--formscript", "test_plain.py")
    result.assert_outcomes(passed=1)
    expect(result, ["*formscript: scripted entries served*", "lionagi is not importable here: no script was observed"])


PAYLOADS: list[dict[str, Any]] = [
    {"messages": [{"role": "system", "content": "hello"}, {"role": "user", "content": "my order please"}]},
    {"messages": [{"role": "user", "content": [{"type": "text", "text": "hel"}, {"type": "text", "text": "lo"}]}]},
    {"messages": [{"role": "user", "content": "a refund"}, {"role": "user", "content": None}]},
    {"messages": [{"role": "user", "content": [1, 2]}], "input": "hello"},
    {"messages": [{"role": "assistant", "content": "order"}], "input": "hello there"},
    {"input": "refund now"},
    {"messages": [{"role": "user", "content": "x"}], "tools": [{"type": "function", "function": {"name": "lookup"}}]},
    {"messages": [{"role": "user", "content": "x"}], "tools": [{"name": "lookup"}, "junk"]},
    {"messages": [{"role": "user", "content": "x"}], "tools": [{"function": {}, "name": 7}]},
    {"messages": [], "tools": []},
    {},
]


@pytest.mark.parametrize("payload", PAYLOADS, ids=range(len(PAYLOADS)))
def test_a_recorded_call_is_matched_as_the_call_itself(payload: dict[str, Any]) -> None:
    """lionagi's own matching picks the same entry for a recorded item's payload as for the
    request it was recorded from."""
    from lionagi.testing import ScriptModel

    from formscript.core.calls import read_calls
    from formscript.pytest_plugin.coverage import call_item

    responses = [
        {"type": "text", "content": "hello", "when": {"prompt_contains": "hello"}},
        {"type": "text", "content": "order", "when": {"prompt_contains": "order"}},
        {"type": "text", "content": "tool", "when": {"has_tool": "lookup"}},
        {"type": "text", "content": "refund", "when": {"prompt_contains": "refund"}},
        {"type": "text", "content": "fallback"},
    ]
    import yaml

    item = yaml.safe_load(yaml.safe_dump([call_item(payload)]))[0]  # as written and read back
    (replayed,) = read_calls([item]).calls
    original = ScriptModel.from_responses(responses).next(payload, 0)[0].content
    assert ScriptModel.from_responses(responses).next(replayed.payload, 0)[0].content == original


@pytest.mark.slow
def test_a_script_written_to_tmp_path_is_the_literal_that_wrote_it(
    project: pytest.Pytester, capsys: pytest.CaptureFixture[str]
) -> None:
    project.makepyfile(
        test_written='''
        import asyncio
        import textwrap
        from lionagi.testing import ScriptModel, TestBranch

        def test_broken(tmp_path):
            path = tmp_path / "bot.script.yaml"
            path.write_text(textwrap.dedent("""
                responses:
                  - type: text
                    content: hi
                    when: {prompt_contians: hello}
            """))
            ScriptModel.coerce(path)

        def test_served(tmp_path):
            path = tmp_path / "ok.script.yaml"
            path.write_text("responses:\\n  - {type: text, content: one}\\n  - {type: text, content: two}\\n")
            branch = TestBranch.from_yaml(path)

            async def go():
                return await branch.chat("x")

            assert asyncio.run(go()) == "one"
        '''
    )
    result = run(
        project, "--formscript", "test_written.py", "--formscript-report=report.json", "--formscript-record-calls=c"
    )
    result.assert_outcomes(passed=1, failed=1)
    expect(
        result,
        [
            "formscript: lionagi rejects the script path.write_text(...) at test_written.py:7 (1 error(s)):",
            "test_written.py:11:20: error[SC003] response #0 (text): unknown key 'prompt_contians' in when; *",
        ],
    )
    (row,) = report_of(project)["sources"]
    assert (row["source"], row["call"], [e["served"] for e in row["entries"]]) == (
        "test_written.py:17",
        "path.write_text",
        [1, 0],
    )
    simulated = _simulated(capsys, project.path, "test_written.py:17", "--calls", "c/test_written.L17.calls.yaml")
    assert [c["entry"] for c in simulated["calls"]] == [0]


# -- drift: each call lionagi serves against formscript's prediction (issue 34)


def test_every_call_served_matches_the_prediction_and_the_report_says_which_lionagi(
    project: pytest.Pytester,
) -> None:
    plain = run(project, "--formscript")
    result = run(project, "--formscript", "--formscript-report=report.json", "--formscript-strict")
    assert result.ret == plain.ret  # strict changes nothing where there is no drift
    data = json.loads((project.path / "report.json").read_text(encoding="utf-8"))
    assert data["drift"] == []
    checked = data["lionagi"].pop("calls_checked")
    responses = data["lionagi"].pop("responses_checked")
    assert data["lionagi"].pop("form_specs_checked") == 0
    assert data["lionagi"] == {
        "installed": metadata.version("lionagi"),
        "modelled": "0.36.0",
        "form_calls_checked": 0,
        "constructs_checked": 0,
        "context_blocks_checked": 0,
    }
    assert 0 < responses <= checked  # each response the endpoint built (an error entry builds none)
    assert "served otherwise than formscript predicts" not in result.stdout.str()
    served = sum(source["served"] for source in data["sources"])
    assert checked > 0 and served <= checked  # every call served was checked (and exhausted ones)
    assert f"drift check: {checked} call(s) served, {responses} response(s) built, 0 fill_form" in result.stdout.str()


def test_a_drift_is_a_located_warning_a_summary_line_and_fails_a_strict_session(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A model that has drifted from lionagi (here: formscript's replay made to pick the next
    entry) is caught at the first call where they part, in the test that made it."""
    from formscript.core import script as core

    original = core.Replayer.next

    def off_by_one(self: core.Replayer, payload: dict[str, Any], call_index: int) -> core.Match:
        match = original(self, payload, call_index)
        return core.Match((match.entry + 1) % len(self.entries), match.kind, match.value)

    plain = run(project, "--formscript")
    monkeypatch.setattr(core.Replayer, "next", off_by_one)
    lenient = run(project, "--formscript", "--formscript-report=report.json")
    assert lenient.ret == plain.ret  # without --formscript-strict the outcome is the suite's own
    data = json.loads((project.path / "report.json").read_text(encoding="utf-8"))
    drift = data["drift"]
    assert drift and all(d["lionagi"] != d["formscript"] for d in drift)
    assert all(d["lionagi"].startswith("serves entry #") for d in drift)
    assert len({(d["test"], d["source"]) for d in drift}) == len(drift)  # one per session: where they part
    out = lenient.stdout.str()
    assert f"drift: {len(drift)} call(s) lionagi served otherwise than formscript predicts" in out
    assert "FormscriptDriftWarning" in out
    first = drift[0]
    assert f"{first['path']}:{first['line']}: call {first['call']} in {first['test']}" in out
    strict = run(project, "--formscript", "--formscript-strict", "--formscript-drift-dir=drift")
    assert strict.ret == pytest.ExitCode.TESTS_FAILED
    assert f"FAIL: drift: {len(drift)} call(s)" in strict.stdout.str()
    # each drift has a repro bundle that formscript replays to the same prediction
    bundles = sorted((project.path / "drift").iterdir())
    assert len(bundles) == len(drift)
    for bundle in bundles:
        facts = json.loads((bundle / "drift.json").read_text(encoding="utf-8"))
        assert facts["lionagi_version"] == metadata.version("lionagi") and facts["formscript_version"]
        assert facts["replay"] == "formscript simulate script.yaml --calls calls.yaml"
        replayed = run_cli(
            "simulate", str(bundle / "script.yaml"), "--calls", str(bundle / "calls.yaml"), "--format", "json"
        )
        last = replayed["calls"][facts["call"]]
        assert facts["formscript"] == f"serves entry #{last['entry']} ({last['matched_by']['kind']})"


def run_cli(*args: str) -> dict[str, Any]:
    """``formscript ARGS`` in this process (formscript's model as this test has it), its JSON."""
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(list(args))
    data: dict[str, Any] = json.loads(out.getvalue())
    return data


FORMS_TESTS = """\
from lionagi.work import FieldSpec, Rule, RuleSet, WorkForm, fill_form, validate_form

FORM = WorkForm(title="T", fields={"age": FieldSpec(name="age", type="int"), "name": FieldSpec(name="name")})


def test_filled():
    assert fill_form(FORM, {"age": "7", "name": "ada"}).status == "validated"


def test_refused():
    rules = RuleSet().add(Rule(rule_id="adult", field="age", check="range", params={"min": 18}))
    assert fill_form(FORM, {"age": "x"}, ruleset=rules).status == "error"


def test_validated_as_given():
    assert validate_form(FORM.model_copy(update={"values": {"age": 3}})).status == "error"
"""


def test_form_calls_are_checked_against_the_prediction(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    project.makepyfile(test_forms=FORMS_TESTS)
    result = run(project, "test_forms.py", "--formscript", "--formscript-report=report.json", "--formscript-strict")
    result.assert_outcomes(passed=3)
    data = json.loads((project.path / "report.json").read_text(encoding="utf-8"))
    assert data["drift"] == [] and data["lionagi"]["form_calls_checked"] == 3
    assert (
        ", 3 fill_form / validate_form call(s), 5 FieldSpec / WorkForm / Rule / RuleSet call(s)" in result.stdout.str()
    )
    # a model that no longer sees the required field: lionagi's error is drift, at the call
    from formscript.core import fields as core_fields

    original = core_fields.check_values

    def lenient(fields: Any, values: Any, ruleset: Any = None) -> Any:
        coerced, failures = original(fields, values, ruleset)
        return coerced, [f for f in failures if f.kind != "required"]

    monkeypatch.setattr(core_fields, "check_values", lenient)
    drifted = run(project, "test_forms.py", "--formscript", "--formscript-report=report.json")
    drifted.assert_outcomes(passed=3)  # what the tests see is unchanged
    drift = json.loads((project.path / "report.json").read_text(encoding="utf-8"))["drift"]
    # the two calls whose form lacks `name`, each at its line in the test
    assert [(d["path"], d["line"]) for d in drift] == [("test_forms.py", 12), ("test_forms.py", 16)]
    assert all("name" in d["lionagi"].split(" and values")[0] for d in drift)
    assert not any("name" in d["formscript"].split(" and values")[0] for d in drift)


def test_forms_coverage_says_which_fields_were_filled_and_which_rules_passed_and_failed(
    project: pytest.Pytester,
) -> None:
    project.makepyfile(test_forms=FORMS_TESTS)
    result = run(
        project, "test_forms.py", "--formscript", "--formscript-report=report.json", "--formscript-sarif=out.sarif"
    )
    result.assert_outcomes(passed=3)
    (form,) = json.loads((project.path / "report.json").read_text(encoding="utf-8"))["forms"]
    assert form["key"] == "T [age, name]" and form["site"] == "test_forms.py:7" and form["calls"] == 3
    assert form["fields"] == {"age": 3, "name": 1}
    assert form["rules"] == {"adult": {"passed": 0, "failed": 1}}
    out = result.stdout.str()
    assert "form T [age, name] (test_forms.py:7): filled or validated 3x, 2 of 2 fields given a value" in out
    assert "  rule adult: passed 0x, failed 1x" in out
    sarif = json.loads((project.path / "out.sarif").read_text(encoding="utf-8"))
    gaps = [r["message"]["text"] for r in sarif["runs"][0]["results"] if r["ruleId"] == "form-gap"]
    assert gaps == ["form T [age, name]: rule 'adult' never passed in the test session"]


def test_values_that_are_no_mapping_are_lionagis_own_error(project: pytest.Pytester) -> None:
    """``fill_form(form, None)`` raises lionagi's TypeError: formscript models no call there
    (no drift, no warning, none counted)."""
    project.makepyfile(
        test_no_values="""
        import pytest
        from lionagi.work import FieldSpec, WorkForm, fill_form

        def test_none():
            form = WorkForm(title="A", fields={"age": FieldSpec(name="age", type="int")})
            with pytest.raises(TypeError):
                fill_form(form, None)
        """
    )
    result = run(project, "test_no_values.py", "--formscript", "--formscript-strict", "--formscript-report=report.json")
    assert result.ret == pytest.ExitCode.OK
    result.assert_outcomes(passed=1, warnings=0)
    data = report_of(project)
    assert data["drift"] == [] and data["lionagi"]["form_calls_checked"] == 0


def test_a_rule_that_never_failed_is_a_sarif_gap(project: pytest.Pytester) -> None:
    project.makepyfile(
        test_rule_passes="""
        from lionagi.work import FieldSpec, Rule, RuleSet, WorkForm, fill_form

        def test_adult():
            form = WorkForm(title="A", fields={"age": FieldSpec(name="age", type="int")})
            rules = RuleSet().add(Rule(rule_id="adult", field="age", check="range", params={"min": 18}))
            assert fill_form(form, {"age": "30"}, ruleset=rules).status == "validated"
        """
    )
    run(project, "test_rule_passes.py", "--formscript", "--formscript-sarif=out.sarif").assert_outcomes(passed=1)
    sarif = json.loads((project.path / "out.sarif").read_text(encoding="utf-8"))
    gaps = [r["message"]["text"] for r in sarif["runs"][0]["results"] if r["ruleId"] == "form-gap"]
    assert gaps == ["form A [age]: rule 'adult' never failed in the test session"]


def test_a_response_formscript_builds_otherwise_is_drift(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The entry served agrees, the completion built from it does not (here formscript's is
    made to shout): drift at the entry's line, the tests unchanged."""
    from formscript.core import endpoint as core_endpoint

    original = core_endpoint.completion_for

    def shouting(entry: Any, payload: dict[str, Any], call: int) -> dict[str, Any]:
        built = original(entry, payload, call)
        message = built["choices"][0]["message"]
        if isinstance(message.get("content"), str):
            message["content"] = message["content"].upper()
        return built

    plain = run(project, "--formscript")
    monkeypatch.setattr(core_endpoint, "completion_for", shouting)
    result = run(project, "--formscript", "--formscript-report=report.json")
    assert result.ret == plain.ret
    drift = json.loads((project.path / "report.json").read_text(encoding="utf-8"))["drift"]
    assert drift and all(d["lionagi"].startswith("builds ") and d["formscript"].startswith("predicts ") for d in drift)
    assert all(d["line"] is not None for d in drift)
    assert "drift in the response to call" in result.stdout.str()


BUILDING_BLOCKS = """\
import pytest
from pydantic import ValidationError
from lionagi.work import FieldSpec, Rule, RuleSet, WorkForm


def test_fields():
    assert FieldSpec(name="age", type="int", required=True).type == "int"
    with pytest.raises(ValidationError, match="must start with a letter"):
        FieldSpec(name="1age", type="int")
    with pytest.raises(ValidationError):
        FieldSpec(name="age", type="int", default="x")


def test_rules():
    form = WorkForm(title="T", fields={"age": FieldSpec(name="age", type="int"), "n": {"name": "n"}})
    rules = RuleSet().add(Rule(rule_id="r1", field="age", check="range", params={"max": 10}))
    rules.add(Rule(rule_id="r2", field="n", check="pattern", params={"pattern": "^a"}, message="n starts with a"))
    with pytest.raises(ValueError):
        rules.add(Rule(rule_id="r1", field="age", check="required"))
    with pytest.raises(AttributeError):
        rules.add("r3")
    filled = form.model_copy(update={"values": {"age": 30, "n": "b"}})
    assert len(rules.apply_all(filled)) == 2
"""


def test_the_form_building_blocks_are_checked_against_the_prediction(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """FieldSpec, WorkForm and Rule built, RuleSet.add and apply_all called by a test: each
    predicted from the same arguments (what it returns, or the exception and its message)."""
    project.makepyfile(test_blocks=BUILDING_BLOCKS)
    result = run(project, "test_blocks.py", "--formscript", "--formscript-report=report.json", "--formscript-strict")
    result.assert_outcomes(passed=2)
    data = json.loads((project.path / "report.json").read_text(encoding="utf-8"))
    # 3 + 1 FieldSpec, 1 WorkForm, 3 Rule, 4 add (the first into an empty set), 1 apply_all
    assert data["drift"] == [] and data["lionagi"]["constructs_checked"] == 13
    # formscript's range check made to pass everything: apply_all is drift, at its call
    from formscript.core import rules as core_rules

    monkeypatch.setitem(core_rules._CHECKS, "range", lambda rule, value: None)
    drifted = run(
        project, "test_blocks.py", "--formscript", "--formscript-report=report.json", "--formscript-drift-dir=d"
    )
    drifted.assert_outcomes(passed=2)  # what the tests see is unchanged
    (drift,) = json.loads((project.path / "report.json").read_text(encoding="utf-8"))["drift"]
    assert (drift["path"], drift["line"], drift["payload"]) == ("test_blocks.py", 23, {"api": "RuleSet.apply_all"})
    assert drift["lionagi"] == "returns failures on field 'age', 'n starts with a'"
    assert drift["formscript"] == "returns failures on 'n starts with a'"
    assert "drift at RuleSet.apply_all" in drifted.stdout.str()
    # the bundle: the form and the rule set as files, which formscript's dry run replays
    bundle = project.path / "d" / drift["bundle"]
    facts = json.loads((bundle / "drift.json").read_text(encoding="utf-8"))
    assert facts["replay"] == "formscript dry-run form.yaml --rules rules.yaml"
    (result,) = run_cli(
        "dry-run", "--format", "json", str(bundle / "form.yaml"), "--rules", str(bundle / "rules.yaml")
    )["results"]
    assert [error["rule_id"] for error in result["errors"]] == ["r2"]  # the drifted model's answer


def test_a_refusal_worded_otherwise_is_drift(project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    """The exception's message is part of the prediction: a pattern a test matches against it
    (``pytest.raises(match=)``) depends on it."""
    from formscript.lint import raised

    monkeypatch.setattr(raised, "_bad_field_name", lambda name: f"bad name {name!r}")
    project.makepyfile(test_blocks=BUILDING_BLOCKS)
    result = run(
        project, "test_blocks.py", "--formscript", "--formscript-report=report.json", "--formscript-drift-dir=d"
    )
    result.assert_outcomes(passed=2)
    (drift,) = json.loads((project.path / "report.json").read_text(encoding="utf-8"))["drift"]
    repro = (project.path / "d" / drift["bundle"] / "repro.py").read_text(encoding="utf-8")
    assert repro == "from lionagi.work.form import FieldSpec\n\nFieldSpec(name='1age', type='int')\n"
    assert (drift["line"], drift["payload"]) == (9, {"api": "FieldSpec"})
    # shown at the first line where the messages differ
    assert drift["lionagi"].startswith("raises ValidationError (Value error, Field name '1age' must start with a")
    assert drift["formscript"].startswith("raises ValidationError (Value error, bad name '1age'")


AGENT_FORMS = """\
from lionagi.cli.agent import _build_work_form, _form_to_context_block


def test_block():
    fields = {"age": {"type": "int"}, "tags": {"type": "list"}}
    form = _build_work_form({"title": "T", "fields": fields, "values": {"age": "7", "tags": ["a"]}}, "not-a-file.yaml")
    assert form.status == "validated"
    assert _form_to_context_block(form) == "[Work Form: T]\\n  age: 7\\n  tags: ['a']"
"""


def test_li_agents_builder_and_context_block_are_checked_against_the_prediction(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """li agent --form's builder handed a spec dict (here directly, under a name that is no
    file) is predicted from that dict, and the context block it renders for the form is set
    against formscript's, character for character."""
    project.makepyfile(test_agent=AGENT_FORMS)
    result = run(project, "test_agent.py", "--formscript", "--formscript-report=report.json", "--formscript-strict")
    result.assert_outcomes(passed=1)
    data = json.loads((project.path / "report.json").read_text(encoding="utf-8"))
    assert data["drift"] == []
    assert (data["lionagi"]["form_specs_checked"], data["lionagi"]["context_blocks_checked"]) == (1, 1)
    from formscript.core import gate

    monkeypatch.setattr(gate, "render_context_block", lambda title, values: f"[Form: {title}]")
    drifted = run(
        project, "test_agent.py", "--formscript", "--formscript-report=report.json", "--formscript-drift-dir=d"
    )
    drifted.assert_outcomes(passed=1)
    (drift,) = json.loads((project.path / "report.json").read_text(encoding="utf-8"))["drift"]
    assert (drift["path"], drift["line"], drift["payload"]) == (
        "test_agent.py",
        6,
        {"api": "li agent --form context block"},
    )
    assert drift["lionagi"].startswith('writes "[Work Form: T]\\n  age: 7') and "'[Form: T]'" in drift["formscript"]
    bundle = project.path / "d" / drift["bundle"]
    (result,) = run_cli("dry-run", "--format", "json", str(bundle / "form.yaml"))["results"]
    assert result["context_block"] == "[Form: T]\n\n"  # the drifted model's block (and its blank line), replayed


def test_a_recorded_payload_neither_yaml_nor_json_can_write_is_written_as_its_repr() -> None:
    """A payload a test handed the script with values YAML cannot represent (a complex, an
    object) still gives its transcript, the values as their repr, instead of failing the
    session at its end."""
    from formscript.pytest_plugin.coverage import call_item, transcript_text

    item = call_item({"messages": [{"role": "user", "content": [{"type": "text", "n": 1j}]}], "tools": [object]})
    source = {"kind": "file", "path": "a.script.yaml", "key": "a.script.yaml"}
    session = {"test": "test_x.py::test_x", "calls": [{"item": item, "call_index": 0, "replay_index": 0}]}
    text = transcript_text(source, session, "a.calls.yaml")
    body = json.loads(text[text.index("\n[") + 1 :])
    assert body == [
        {
            "payload": {
                "messages": [{"role": "user", "content": [{"type": "text", "n": "1j"}]}],
                "tools": ["<class 'object'>"],
            }
        }
    ]
