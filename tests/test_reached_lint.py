"""The CLI, lint and run paths no other test reached: each asserts what a user sees there."""

from __future__ import annotations

from pathlib import Path

import pytest

from formscript import __version__
from formscript.cli import run

SPLIT_CALL = """\
from lionagi.testing import ScriptModel

SCRIPT = ScriptModel.from_responses(
    [
        {"type": "text", "content": "hello"},
    ]
)
"""


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = run(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_version_and_no_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(capsys, "--version") == (0, f"formscript {__version__}\n", "")
    code, out, err = cli(capsys)
    assert (code, err) == (2, "")
    assert out.startswith("usage: formscript [-h] [--version] COMMAND ...\n")


def test_rule_needs_a_code_and_prints_markdown(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(capsys, "rule") == (2, "", "formscript: give a rule code or --all\n")
    from formscript import rules

    assert cli(capsys, "rule", "--format", "markdown", "FS015") == (0, rules.get("FS015").page(), "")  # type: ignore[union-attr]
    assert cli(capsys, "rule", "--format", "markdown", "--all") == (0, rules.reference(), "")


def test_unknown_schema(capsys: pytest.CaptureFixture[str]) -> None:
    message = "formscript: unknown schema 'nope'; choose from form, script, rules, calls\n"
    assert cli(capsys, "schema", "nope") == (2, "", message)


def test_lint_configuration_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.form.yaml").write_text("fields: {}\n", encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "pyproject.toml").write_text("[tool.other]\nx = 1\n", encoding="utf-8")
    said = "formscript: configuration error: "
    assert cli(capsys, "lint", "--config", "nope.toml", "a.form.yaml") == (
        2,
        "",
        said + "nope.toml: no such configuration file\n",
    )
    assert cli(capsys, "lint", "--config", "sub/pyproject.toml", "a.form.yaml") == (
        2,
        "",
        said + "sub/pyproject.toml: has no [tool.formscript] table\n",
    )
    assert cli(capsys, "lint", "--severity", "FS015", "a.form.yaml") == (
        2,
        "",
        said + "--severity 'FS015': expected CODE=LEVEL\n",
    )


def test_simulate_by_the_call_line_and_a_line_without_a_script(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "test_split.py"
    path.write_text(SPLIT_CALL, encoding="utf-8")
    code, out, _ = cli(capsys, "simulate", f"{path}:3")  # the call's line; the literal starts on 4
    assert code == 0 and out.startswith(f"{path}:3: accepted, mode auto\n#0 text (line 5)")
    message = f"formscript: {path}:1: no script is handed to lionagi on this line (lines with one: 4)\n"
    assert cli(capsys, "simulate", f"{path}:1") == (2, "", message)


def test_progress_bar_and_one_worker_per_core(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from formscript.cli import pool
    from formscript.lint.config import Settings

    texts = ["fields:\n  seats: {type: int}\nvalues:\n  seats: 3\n", "fields: {}\nvalues:\n  country: no\n"]
    jobs: list[pool.Job] = [(f"f{i}.form.yaml", text, Settings(), None, None) for i, text in enumerate(texts)]
    plain = [(r.path, r.verdict, [d.code for d in r.diagnostics]) for r in pool.run_jobs(jobs, 1)]
    shown = [(r.path, r.verdict, [d.code for d in r.diagnostics]) for r in pool.run_jobs(jobs, 1, progress=True)]
    assert shown == plain and plain[1][2]
    # --jobs 0 asks for one worker per core (here below the pool's threshold: the same reports)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.form.yaml").write_text(texts[1], encoding="utf-8")
    one, zero = run(["lint", "--no-cache", "--jobs", "1", "."]), run(["lint", "--no-cache", "--jobs", "0", "."])
    out = capsys.readouterr().out
    assert (one, zero) == (1, 1) and out[: len(out) // 2] == out[len(out) // 2 :]
    counted = []
    monkeypatch.setattr(pool.os, "cpu_count", lambda: counted.append(1) or 4)
    assert run(["lint", "--no-cache", "--jobs", "0", "."]) == 1 and counted == [1]


def test_stdin_among_the_paths_adds_no_folder_fixes_may_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io
    import sys

    monkeypatch.chdir(tmp_path)
    bad = "fields:\n  country: {type: str}\nvalues:\n  country: no\n"
    (tmp_path / "b.form.yaml").write_text(bad, encoding="utf-8")
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "a.form.yaml").symlink_to("../b.form.yaml")
    monkeypatch.setattr(sys, "stdin", io.StringIO("fields: {}\n"))
    code, _, err = cli(capsys, "lint", "--no-cache", "--fix", "-", "x/a.form.yaml")
    target = tmp_path.resolve() / "b.form.yaml"
    assert code == 1 and (tmp_path / "b.form.yaml").read_text(encoding="utf-8") == bad
    assert err == (
        f"formscript: x/a.form.yaml: fixes not written: it is a link to {target}, outside the folders being linted\n"
        "formscript: fixed 0 finding(s) in 0 file(s); 1 remaining\n"
    )


YAML_DUMPED_FORM = """\
import yaml
from lionagi.cli.agent import _load_form_spec


def test_form(tmp_path):
    p = tmp_path / "x.form.yaml"
    p.write_text(yaml.safe_dump({"fields": {"a": {"type": "str"}}, "values": {"a": "no"}}))
    _load_form_spec(p)
"""


def test_a_yaml_dumped_form_is_not_checked() -> None:
    from formscript.lint.python_lint import lint_python

    bundle = lint_python(YAML_DUMPED_FORM, "test_dump.py")
    assert (bundle.parts, bundle.diagnostics) == ([], [])


def test_select_reports_only_the_codes_chosen(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "c.form.yaml").write_text("fields:\n  country: {type: str}\nvalues:\n  country: no\n", encoding="utf-8")
    code, out, _ = cli(capsys, "lint", "--no-cache", "--format", "concise", "--select", "FS001", "c.form.yaml")
    assert (code, out) == (0, "")
    code, out, _ = cli(capsys, "lint", "--no-cache", "--format", "concise", "--select", "FS015", "c.form.yaml")
    assert code == 1 and out.startswith("c.form.yaml:4:12: error[FS015]")


def test_junit_leaves_out_files_of_no_kind(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "c.form.yaml").write_text("fields: {}\n", encoding="utf-8")
    (tmp_path / "other.yaml").write_text("name: ci\non: push\n", encoding="utf-8")
    code, out, _ = cli(capsys, "lint", "--no-cache", "--format", "junit", "c.form.yaml", "other.yaml")
    assert code == 0
    assert out == (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<testsuite name="formscript" tests="1" failures="0" errors="0">\n'
        '  <testcase classname="formscript" name="c.form.yaml"/>\n'
        "</testsuite>\n"
    )


def test_dry_run_of_a_form_without_values(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "e.form.yaml").write_text("fields: {}\n", encoding="utf-8")
    expected = "e.form.yaml: accepted (status draft)\nnothing is added to the prompt (no values)\n"
    assert cli(capsys, "dry-run", "e.form.yaml") == (0, expected, "")


def test_prompt_file_from_a_stdin_too_big(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io
    import sys
    import types

    import formscript.lint.files

    monkeypatch.chdir(tmp_path)
    (tmp_path / "e.form.yaml").write_text("fields: {}\n", encoding="utf-8")
    monkeypatch.setattr(formscript.lint.files, "MAX_BYTES", 8)
    monkeypatch.setattr(sys, "stdin", types.SimpleNamespace(buffer=io.BytesIO(b"a prompt of more than 8 bytes")))
    message = "formscript: --prompt-file -: stdin is too big\n"
    assert cli(capsys, "dry-run", "--prompt-file", "-", "e.form.yaml") == (2, "", message)


def test_schemas_module_usage_and_default_folder(capsys: pytest.CaptureFixture[str]) -> None:
    from formscript.schemas import default_directory, main, stale_schemas

    assert main(["one", "two"]) == 2
    assert capsys.readouterr().err == "usage: python -m formscript.schemas [--check] [DIRECTORY]\n"
    assert main(["--flag"]) == 2
    import formscript

    # the folder next to server/ in a checkout (an installed package has none there)
    assert default_directory() == Path(formscript.__file__).resolve().parents[2] / "schemas"
    folder = Path(__file__).resolve().parents[1] / "schemas"
    assert (folder / "form-spec.schema.json").is_file()
    assert main(["--check", str(folder)]) == 0 and stale_schemas(folder) == []


def test_default_cache_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from formscript.lint.cache import default_cache_dir

    monkeypatch.delenv("FORMSCRIPT_CACHE_DIR", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_cache_dir() == tmp_path / "xdg" / "formscript"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")  # not absolute: ignored, as the spec says
    assert default_cache_dir() == tmp_path / ".cache" / "formscript"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert default_cache_dir() == tmp_path / ".cache" / "formscript"


def test_a_kind_given_one_glob_as_a_string(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[tool.formscript]\nkinds = {form = "*.spec.yaml"}\n', encoding="utf-8")
    (tmp_path / "a.spec.yaml").write_text("name: ci\n", encoding="utf-8")  # of no kind by its content
    code, out, _ = cli(capsys, "lint", "--no-cache", "--format", "concise", "a.spec.yaml")
    assert code == 1 and out.startswith("a.spec.yaml:1:1: error[FS001] unknown top-level key 'name'")


DECLARED_LATIN_1 = """\
# -*- coding: latin-1 -*-
from lionagi.testing import ScriptModel

SCRIPT = ScriptModel.from_responses([
    {"type": "text", "content": "caf\xe9", "bogus": 1},
])
"""


def test_a_python_file_in_its_declared_encoding(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "test_latin.py").write_bytes(DECLARED_LATIN_1.encode("latin-1"))
    code, out, _ = cli(capsys, "lint", "--no-cache", "--format", "concise", "test_latin.py")
    assert (code, out) == (
        1,
        "test_latin.py:5:41: error[SC003] response #0 (text): unknown key 'bogus' in the entry; "
        "expected one of when, type, content\n",
    )
    # one Python cannot decode (its declaration is wrong, or names no codec) is not looked at
    for name, declared in (("test_wrong.py", "utf-8"), ("test_unknown.py", "no-such-codec")):
        (tmp_path / name).write_bytes(DECLARED_LATIN_1.replace("latin-1", declared).encode("latin-1"))
        assert cli(capsys, "lint", "--no-cache", "--format", "concise", name)[:2] == (0, "")


def test_suppressions_not_written_through_a_link_out_of_the_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    bad = "fields:\n  country: {type: str}\nvalues:\n  country: no\n"
    (tmp_path / "b.form.yaml").write_text(bad, encoding="utf-8")
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "a.form.yaml").symlink_to("../b.form.yaml")
    code, out, err = cli(capsys, "lint", "--no-cache", "--add-suppressions", "legacy", "x/a.form.yaml")
    target = tmp_path.resolve() / "b.form.yaml"
    assert (code, out) == (1, "formscript: added 0 suppression comment(s) in 0 file(s)\n")
    assert err == (
        f"formscript: x/a.form.yaml: suppressions not written: it is a link to {target}, "
        "outside the folders being linted\n"
        "formscript: 1 finding(s) could not be suppressed (see above)\n"
    )
    assert (tmp_path / "b.form.yaml").read_text(encoding="utf-8") == bad


def test_help_width_from_columns_or_the_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    import io
    import os
    import sys

    from formscript.cli.parser import _terminal_columns

    monkeypatch.setenv("COLUMNS", "100")
    assert _terminal_columns() == 100
    monkeypatch.setenv("COLUMNS", "wide")  # not a number: the terminal decides
    monkeypatch.setattr(os, "get_terminal_size", lambda fd: os.terminal_size((120, 40)))
    assert _terminal_columns() == 120
    monkeypatch.delenv("COLUMNS")
    monkeypatch.setattr(sys, "__stdout__", io.StringIO())  # no terminal (no file descriptor): 80
    assert _terminal_columns() == 80
    monkeypatch.setattr(sys, "__stdout__", None)
    assert _terminal_columns() == 80


UNDECIDED_DUMPS = """\
import json
from lionagi.testing import ScriptModel


def test_skipped_keys(tmp_path):
    p = tmp_path / "chat.script.json"
    p.write_text(json.dumps({"responses": [{"type": "text", "content": "hi"}], (1, 2): 3}, skipkeys=True))
    ScriptModel.from_path(p)


def test_a_set(tmp_path):
    p = tmp_path / "other.script.json"
    p.write_text(json.dumps({"responses": [{"type": "text", "content": "hi"}], "x": {1, 2}}))
    ScriptModel.from_path(p)


def test_read_by_nothing_known(tmp_path):
    (tmp_path / "data.json").write_text(json.dumps({"responses": [], "x": {1, 2}}))
"""


def test_json_text_whose_value_json_cannot_write_as_read() -> None:
    from formscript.core.verdict import Verdict
    from formscript.lint.python_lint import lint_python

    bundle = lint_python(UNDECIDED_DUMPS, "test_dumps.py")
    assert bundle.parts is not None
    shown = [(p.kind, p.verdict, p.note, p.diagnostics, p.embedded.span.start.line) for p in bundle.parts if p.embedded]
    note = "the JSON text holds parts only known at run time"
    assert shown == [
        ("script", Verdict.INSUFFICIENT_EVIDENCE, note, [], 6),  # skipkeys: a key JSON leaves out
        ("script", Verdict.INSUFFICIENT_EVIDENCE, note, [], 12),  # a set: json.dumps raises TypeError
    ]  # and the file no known reader reads, of no kind by its name: not checked


UNNAMED_FILES = """\
import json
from lionagi.testing import ScriptModel


def test_yaml_text(tmp_path, name):
    p = tmp_path / name
    p.write_text("responses:\\n  - {type: text, content: hi}\\n")
    ScriptModel.from_path(p)


def test_json_text(tmp_path, name):
    p = tmp_path / name
    p.write_text('{"responses": [{"type": "text", "content": "hi"}]}')
    ScriptModel.from_path(p)


def test_dumped(tmp_path, name):
    p = tmp_path / name
    p.write_text(json.dumps({"responses": [{"type": "text", "content": "hi"}]}))
    ScriptModel.from_path(p)
"""


def test_a_script_written_to_a_file_whose_name_is_not_known() -> None:
    from formscript.core.verdict import Verdict
    from formscript.lint.python_lint import lint_python

    bundle = lint_python(UNNAMED_FILES, "test_unnamed.py")
    assert bundle.parts is not None
    shown = [(p.verdict, p.note) for p in bundle.parts]
    note = "the written file's name decides whether lionagi reads it as YAML or JSON"
    # YAML text: JSON could not read it; JSON text and json.dumps read the same either way
    assert shown == [(Verdict.INSUFFICIENT_EVIDENCE, note), (Verdict.ACCEPTED, ""), (Verdict.ACCEPTED, "")]


SUPPRESSIONS_AROUND = """\
from lionagi.testing import ScriptModel

A = ScriptModel.from_responses([{"type": "text", "content": "hi"}])

# formscript: ignore[SC003]

B = ScriptModel.from_responses([{"type": "text", "content": "hi"}])

# formscript: ignore[SC004]
"""


def test_a_suppression_outside_every_document_belongs_to_the_next_else_the_last() -> None:
    from formscript.lint.python_lint import lint_python

    bundle = lint_python(SUPPRESSIONS_AROUND, "test_sup.py")
    assert bundle.parts is not None
    shown = [[(d.code, d.span.start.line) for d in p.diagnostics] for p in bundle.parts]
    assert shown == [[], [("FSX001", 4), ("FSX002", 4), ("FSX001", 8), ("FSX002", 8)]]


def _alias_bomb(levels: int) -> str:
    """A structured response whose data expands to 10**levels strings through YAML aliases."""
    lines = ["responses:", "  - type: structured", "    data:", f"      l0: &l0 [{', '.join(['x'] * 10)}]"]
    lines += [f"      l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 10)}]" for i in range(1, levels)]
    return "\n".join(lines) + "\n"


def test_simulate_a_response_too_big_to_show_or_to_serve(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "c.calls.yaml").write_text("- hi\n", encoding="utf-8")
    (tmp_path / "elided.script.yaml").write_text(_alias_bomb(7), encoding="utf-8")
    (tmp_path / "huge.script.yaml").write_text(_alias_bomb(9), encoding="utf-8")
    head = "call 0: entry #0 (line 2, structured) by positional\n    "
    assert cli(capsys, "simulate", "elided.script.yaml", "--calls", "c.calls.yaml") == (
        0,
        "elided.script.yaml: accepted, mode auto\n" + head + "the response's data expand to more than 1,000,000 "
        "values through YAML aliases: 58,024,726 characters of JSON, not shown\nnever served: none\n",
        "",
    )
    (tmp_path / "c2.calls.yaml").write_text("- hi\n- again\n", encoding="utf-8")  # the run stops at the first
    assert cli(capsys, "simulate", "huge.script.yaml", "--calls", "c2.calls.yaml") == (
        1,
        "huge.script.yaml: accepted, mode auto\n" + head + "not known whether it is served: the response expands "
        "to more than 1,000,000 values through YAML aliases and to more than 100,000,000 characters of JSON; "
        "encoding it may exhaust the runtime's memory\nnever served: none\n",
        "",
    )


def test_suppressions_added_where_a_value_has_no_repr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    huge = "0x" + "f" * 5000  # an int repr() refuses: more than 4,300 decimal digits
    entry = f'    {{"type": "structured", "data": {{"n": {huge}}}, "bogus": 1}},\n'
    head = "from lionagi.testing import ScriptModel\n\nSCRIPT = ScriptModel.from_responses([\n"
    (tmp_path / "test_big.py").write_text(head + entry + "])\n", encoding="utf-8")
    code, out, _ = cli(capsys, "lint", "--no-cache", "--add-suppressions", "legacy", "test_big.py")
    assert (code, out) == (0, "formscript: added 1 suppression comment(s) in 1 file(s)\n")
    expected = head + "    # formscript: ignore[SC003] legacy\n" + entry + "])\n"
    assert (tmp_path / "test_big.py").read_text(encoding="utf-8") == expected


def test_a_configuration_file_that_is_not_utf8(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.form.yaml").write_text("fields: {}\n", encoding="utf-8")
    (tmp_path / "bad.toml").write_bytes(b'[tool.formscript]\nselect = ["FS\xff"]\n')
    message = "formscript: configuration error: bad.toml: cannot read the file (not valid UTF-8 at byte 31)\n"
    assert cli(capsys, "lint", "--config", "bad.toml", "a.form.yaml") == (2, "", message)


def test_exclude_applies_only_under_the_configuration_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    bad = "fields:\n  country: {type: str}\nvalues:\n  country: no\n"
    for folder in ("sub", "other"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "b.form.yaml").write_text(bad, encoding="utf-8")
    (tmp_path / "sub" / "formscript.toml").write_text('exclude = ["*.form.yaml"]\n', encoding="utf-8")
    code, out, _ = cli(
        capsys, "lint", "--no-cache", "--format", "concise", "--config", "sub/formscript.toml", "other", "sub"
    )
    assert code == 1 and out.startswith("other/b.form.yaml:4:12: error[FS015]") and "sub/" not in out


def test_an_expected_rejection_whose_match_is_no_regex(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    body = (
        "import pytest\nfrom lionagi.testing import ScriptModel\n\n\ndef test_bad_regex():\n"
        '    with pytest.raises(ValueError, match="{}"):\n'
        '        ScriptModel.from_responses([{{"type": "nope"}}])\n'
    )
    # pytest.raises itself fails on "(" (re.error): formscript claims no mismatch of the message
    (tmp_path / "test_match.py").write_text(body.format("("), encoding="utf-8")
    assert cli(capsys, "lint", "--no-cache", "--format", "concise", "test_match.py")[:2] == (0, "")
    (tmp_path / "test_match.py").write_text(body.format("nothing like it"), encoding="utf-8")
    code, out, _ = cli(capsys, "lint", "--no-cache", "--format", "concise", "test_match.py")
    assert code == 1 and "[PY003]" in out
