"""Every output format of every command stays valid whatever a file holds or is named.

Hostile strings: lone surrogates and the two halves of a JSON pair read by YAML (in titles,
values, keys, response content), a file name that is not UTF-8 (Latin-1 ``é``, which Python
names ``\\udce9``), control characters and XML markup in names. stdout is a UTF-8 stream that
is strict (a UTF-8 locale) or ``surrogateescape`` (the C locale, where a lone low surrogate
would come out as a raw byte); what is printed must decode as strict UTF-8 and parse as the
format says (JSON, SARIF, JUnit XML).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from formscript.cli import main

#: A Latin-1 "é" in a file name, as Python names the byte 0xE9 (surrogateescape).
LATIN1 = "\udce9"

FORM = """title: "Report \\udc80 \\ud83d"
fields:
  name: {type: str}
  tags: {type: list}
values:
  name: "\\ud83d\\ude00"
  tags: ["x\\udfffy", "\\ud800"]
"""
#: Rejected, with surrogates in the names its diagnostics quote.
BAD_FORM = """fields:
  "\\udcff": {type: str, required: false}
  n: {type: int}
values:
  n: "\\ud83d"
  "undeclared\\udc80": "\\udbff\\udc00"
"""
JSON_FORM = '{"title": "\\ud83d\\ude00", "fields": {"name": {"type": "str"}}, "values": {"name": "\\ud83d"}}'
SCRIPT = """responses:
  - {type: text, content: "\\ud83d"}
  - {type: tool_call, name: "t\\udc80", arguments: {q: "\\udbff\\udc00"}}
  - type: stream
    chunks: [{type: text, content: "\\udcff tail"}]
  - {type: error, message: "bad \\ud800"}
"""
CALLS = json.dumps([{"payload": {"messages": [{"role": "user", "content": f"call {n}"}]}} for n in range(5)])
LINT_FORMATS = ("text", "concise", "json", "sarif", "github", "junit")


@pytest.fixture
def hostile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Files with hostile contents and names, the working directory."""
    monkeypatch.chdir(tmp_path)
    Path("surrogates.form.yaml").write_text(FORM, encoding="utf-8")
    Path("bad.form.yaml").write_text(BAD_FORM, encoding="utf-8")
    Path("pair.form.json").write_text(JSON_FORM, encoding="utf-8")
    Path(f"caf{LATIN1}.form.yaml").write_text("fields:\n  n: {type: int}\nvalues:\n  n: x\n", encoding="utf-8")
    Path(f"ctl\x01\x1b<&\"'{LATIN1}.form.yaml").write_text("fields: [\n", encoding="utf-8")
    Path(f"r{LATIN1}ponse.script.yaml").write_text(SCRIPT, encoding="utf-8")
    Path("calls.json").write_text(CALLS, encoding="utf-8")
    Path("caf\xe9.form.yaml").write_bytes("title: caf\xe9\n".encode("latin-1"))  # a UTF-8 name, Latin-1 text
    return tmp_path


def run(argv: list[str], errors: str) -> tuple[int, str]:
    """The command's exit code and its stdout, which must be strict UTF-8."""
    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="utf-8", errors=errors, write_through=True)
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(argv)
        out.flush()
    return code, raw.getvalue().decode("utf-8")  # strict: raises on anything that is not UTF-8


def parsed(fmt: str, text: str) -> Any:
    if fmt in ("json", "sarif"):
        return json.loads(text)
    if fmt == "junit":
        return ET.fromstring(text)
    return text


def hostile_names() -> list[str]:
    return sorted(str(p) for p in Path(".").iterdir() if p.name.endswith((".form.yaml", ".form.json", ".script.yaml")))


@pytest.mark.parametrize("errors", ["strict", "surrogateescape"])
@pytest.mark.parametrize("fmt", LINT_FORMATS)
def test_lint_output_is_valid_in_every_format(hostile: Path, fmt: str, errors: str) -> None:
    code, text = run(["lint", "--no-cache", "--format", fmt, *hostile_names()], errors)
    assert code == 1
    data = parsed(fmt, text)
    if fmt == "json":
        # JSON's own escapes: a reader gets the exact path back, and with it the file's bytes
        paths = {f["path"] for f in data["files"]}
        assert paths == set(hostile_names())
        assert os.fsencode(f"caf{LATIN1}.form.yaml") in {os.fsencode(p) for p in paths}
    elif fmt == "sarif":
        from sarif_pydantic import Sarif

        Sarif.model_validate(data)
        uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in data["runs"][0]["results"]}
        assert "caf%E9.form.yaml" in uris  # the name's bytes, percent-encoded
        assert all(uri.isascii() for uri in uris)
    elif fmt == "junit":
        names = {case.get("name") for case in data}
        assert "caf\\udce9.form.yaml" in names
        assert "ctl\\x01\\x1b<&\"'\\udce9.form.yaml" in names  # what XML cannot hold, escaped
    else:
        assert "caf\\udce9.form.yaml" in text  # shown as Python writes the name


def test_lint_output_file_is_valid(hostile: Path) -> None:
    code, _ = run(["lint", "--no-cache", "--format", "json", "--output", "report.json", *hostile_names()], "strict")
    assert code == 1
    data = json.loads(Path("report.json").read_bytes().decode("utf-8"))
    assert {f["path"] for f in data["files"]} == set(hostile_names())


@pytest.mark.parametrize("errors", ["strict", "surrogateescape"])
def test_dry_run_keeps_surrogates_in_json_and_escapes_them_in_text(hostile: Path, errors: str) -> None:
    forms = ["surrogates.form.yaml", "pair.form.json", f"caf{LATIN1}.form.yaml", "bad.form.yaml"]
    code, text = run(["dry-run", "--format", "json", *forms], errors)
    assert code == 1
    results = json.loads(text)["results"]
    assert [r["path"] for r in results] == forms
    assert results[0]["title"] == "Report \udc80 \ud83d"  # lone surrogates come back exactly
    assert "[Work Form: Report \udc80 \ud83d]" in results[0]["context_block"]
    # the halves of a pair read back as the character JSON writes them as
    assert results[1]["title"] == "\U0001f600" and results[1]["verdict"] == "accepted"
    assert results[2]["path"] == f"caf{LATIN1}.form.yaml" and results[2]["verdict"] == "rejected"
    assert results[3]["verdict"] == "rejected" and results[3]["errors"]
    code, text = run(["dry-run", *forms], errors)
    assert code == 1
    assert "surrogates.form.yaml: " in text and "[Work Form: Report \\udc80 \\ud83d]" in text
    assert "[Work Form: \\ud83d\\ude00]" in text
    assert "caf\\udce9.form.yaml: rejected" in text


@pytest.mark.parametrize("errors", ["strict", "surrogateescape"])
@pytest.mark.parametrize("stream", [False, True])
def test_simulate_output_is_valid(hostile: Path, errors: str, stream: bool) -> None:
    script = f"r{LATIN1}ponse.script.yaml"
    extra = ["--stream"] if stream else []
    code, text = run(["simulate", script, "--calls", "calls.json", "--format", "json", *extra], errors)
    data = json.loads(text)
    assert data["path"] == script and data["verdict"] == "accepted"
    assert [c["outcome"] for c in data["calls"]][:4] == ["served"] * 4
    assert code == 1  # the fifth call finds the script exhausted
    if not stream:
        assert data["calls"][0]["response"]["choices"][0]["message"]["content"] == "\ud83d"
    code, text = run(["simulate", script, "--calls", "calls.json", *extra], errors)
    assert code == 1
    assert "r\\udce9ponse.script.yaml: accepted" in text
    assert "\\ud83d" in text


@pytest.mark.parametrize("argv", [["rule", "--all"], ["rule", "--all", "--format", "json"], ["rule", "FS005"]])
def test_rule_output_is_valid(argv: list[str]) -> None:
    code, text = run(argv, "strict")
    assert code == 0
    if "json" in argv:
        assert isinstance(json.loads(text), list)


def test_schema_output_is_valid() -> None:
    for kind in ("form", "script", "rules", "calls"):
        code, text = run(["schema", kind], "strict")
        assert code == 0 and json.loads(text)["$schema"]


def test_a_real_process_under_the_c_locale(hostile: Path) -> None:
    """The same through a process whose locale is C (stdout: surrogateescape, ASCII coerced
    to UTF-8), so nothing depends on the test's own stream."""
    env = {**os.environ, "LC_ALL": "C", "LANG": "C", "PYTHONIOENCODING": ""}
    argv = [sys.executable, "-m", "formscript", "dry-run", "--format", "json", "surrogates.form.yaml"]
    result = subprocess.run(argv, capture_output=True, env=env, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.decode("utf-8"))["results"][0]["title"] == "Report \udc80 \ud83d"
