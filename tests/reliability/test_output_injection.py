"""Output a file controls never reaches a terminal or a report raw: an injection corpus —
file names and file contents carrying escape sequences (OSC 52 clipboard writes, clear
screen, OSC 8 links), C0 and C1 controls, bidirectional overrides and isolates, line and
paragraph separators, newlines that try to forge a diagnostic line or a workflow command,
``%``, ``,``, ``:``, markup characters and bytes that are not UTF-8 — linted in all six
formats, each output checked by what its reader relies on:

- text and concise: not one character a terminal acts on; exactly one header line per
  diagnostic and one verdict line per file, so no name or message forges or splits a line;
- github: one ``::`` workflow command per diagnostic, nothing else;
- junit: well-formed XML, one test case per file;
- sarif: valid JSON whose artifact URIs are percent-encoded and decode to the file's bytes;
- json: valid JSON whose paths give the file's bytes back (``os.fsencode``).

And a one-line flow file of 60 KB prints a few hundred bytes per diagnostic, not the line.

CI lints ``scale(40, 2000)`` generated names; ``FORMSCRIPT_RELIABILITY=long`` 2,000.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import unquote_to_bytes

import pytest

from formscript.cli import main

from .server_harness import scale

NAMES = scale(40, 2000)
SEED = int(os.environ.get("FORMSCRIPT_RELIABILITY_SEED", "20261201"))
FORMATS = ("text", "concise", "json", "sarif", "github", "junit")

#: Pieces of hostile names.
PIECES = [
    "\x1b]52;c;aGVsbG8=\x07",
    "\x1b[2J\x1b[H",
    "\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\",
    "\n",
    "\r",
    "\nforged.form.yaml:1:1: error[FS001] forged\n",
    "\n::error file=forged::forged",
    "\u202e",
    "\u2066",
    "\u200f",
    "\x85",
    "\u2028",
    "\x9b31m",
    "\x7f",
    "\x01\x02\x08",
    "\t",
    "%0A",
    "%",
    ",",
    ":",
    "\"<&'>",
    "\udce9",  # the byte 0xE9, not UTF-8 (surrogateescape)
    "\udcff\udcfe",
    "é",
    " ",
]
#: Contents whose diagnostics quote or show what the file controls.
CONTENTS = [
    "title: \x1b]52;c;aGk=\x07x\nfields: [\n",
    "fields:\n  n: {type: int}\nvalues:\n  n: x  # \x1b[2J \u202e \x85\n",
    'fields:\n  "\u202eevil\x1b[31m": {type: str}\n  n: {type: int}\nvalues:\n  n: bad\n',
    "title: \x9b31m\u2028\u2029\x85\n",
    'values: {"\x1b]8;;x\x1b\\\\": 1, "\\u202e": 2, "\\x1b[2J": 3}\n',
    'fields:\n  n: {type: int}\nvalues:\n  n: "\\e]52;c;aGk=\\a"\n',
]
#: What a terminal acts on (tab and the line feeds between lines aside).
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2028\u2029\u2066-\u2069]")
HEADER = re.compile(r"^\S.*:\d+:\d+: (error|warning|info|hint)\[[A-Z]+\d+\] ")
URI_CHARS = re.compile(r"^[A-Za-z0-9\-._~!$&'()*+,;=:@/%]*$")


def run(argv: list[str]) -> tuple[int, str]:
    """The exit code and stdout (strict UTF-8) of ``formscript`` in this process."""
    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="utf-8", errors="strict", write_through=True)
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(argv)
        out.flush()
    return code, raw.getvalue().decode("utf-8")


def corpus(root: Path, count: int, seed: int) -> list[str]:
    """*count* files with hostile names and contents under *root*; their names."""
    rand = random.Random(seed)
    names = []
    for number in range(count):
        pieces = [rand.choice(PIECES) for _ in range(rand.randrange(1, 4))]
        name = f"n{number}-" + "".join(pieces).replace("/", "") + ".form.yaml"
        try:
            (root / name).write_text(rand.choice(CONTENTS), encoding="utf-8")
        except OSError:  # a name the file system refuses (too long)
            continue
        names.append(name)
    return names


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str], dict[str, str]]:
    """The corpus, and each format's output for it."""
    root = tmp_path_factory.mktemp("injection")
    names = corpus(root, NAMES, SEED)
    outputs = {}
    old = Path.cwd()
    os.chdir(root)
    try:
        for fmt in FORMATS:
            code, text = run(["lint", "--no-cache", "--color", "always", "--format", fmt, *names])
            assert code == 1, (fmt, text[:2000])
            outputs[fmt] = text
    finally:
        os.chdir(old)
    return root, names, outputs


def _diagnostics(outputs: dict[str, str]) -> int:
    return sum(len(f["diagnostics"]) for f in json.loads(outputs["json"])["files"])


def test_json_paths_give_the_names_back(hostile: tuple[Path, list[str], dict[str, str]]) -> None:
    _, names, outputs = hostile
    files = json.loads(outputs["json"])["files"]
    assert sorted(os.fsencode(f["path"]) for f in files) == sorted(os.fsencode(n) for n in names)
    assert _diagnostics(outputs) >= len(names)


@pytest.mark.parametrize("fmt", ["text", "concise"])
def test_text_formats_hold_nothing_a_terminal_acts_on(
    hostile: tuple[Path, list[str], dict[str, str]], fmt: str
) -> None:
    _, names, outputs = hostile
    text = outputs[fmt]
    if fmt == "text":  # --color always: formscript's own colours are the only escapes
        text = re.sub(r"\x1b\[(?:0|1|2|31|33|36)m", "", text)
    found = UNSAFE.search(text)
    assert found is None, (fmt, text[max(0, found.start() - 80) : found.end() + 80])
    lines = text.splitlines()
    # every line is of a known shape, starting where formscript starts it: a name (n<N>-...)
    # that no newline in it could split
    verdicts = [line for line in lines if re.match(r"^n\d+-.*: (rejected|accepted|insufficient_evidence)$", line)]
    other = re.compile(r"^( *\d+ \| .*| *\^+|     = (unsafe )?fix: .*|\d+ file\(s\) checked, .*)$")
    headers = [line for line in lines if line not in verdicts and not other.match(line)]
    assert all(HEADER.match(line) and re.match(r"^n\d+-", line) for line in headers), [
        line for line in headers if not HEADER.match(line)
    ][:3]
    assert len(headers) == _diagnostics(outputs), fmt
    assert len(verdicts) == (len(names) if fmt == "text" else 0)


def test_github_commands_are_one_line_each(hostile: tuple[Path, list[str], dict[str, str]]) -> None:
    _, _, outputs = hostile
    lines = outputs["github"].splitlines()
    assert len(lines) == _diagnostics(outputs)
    assert all(re.match(r"^::(error|warning|notice) file=[^,]*,line=\d+,col=\d+,endLine=\d+,", line) for line in lines)
    assert UNSAFE.search(outputs["github"].replace("\n", "")) is None


def test_junit_is_well_formed(hostile: tuple[Path, list[str], dict[str, str]]) -> None:
    _, names, outputs = hostile
    suite = ET.fromstring(outputs["junit"])
    cases = suite.findall("testcase")
    assert len(cases) == len(names)
    numbers = sorted(int(re.match(r"n(\d+)-", case.get("name", ""))[1]) for case in cases)  # type: ignore[index]
    assert numbers == sorted(int(n.split("-")[0][1:]) for n in names)
    for case in cases:
        failure = case.find("failure")
        body = failure.text if failure is not None else ""
        assert UNSAFE.search(body or "") is None


def test_sarif_uris_are_percent_encoded(hostile: tuple[Path, list[str], dict[str, str]]) -> None:
    _, names, outputs = hostile
    sarif = json.loads(outputs["sarif"])
    uris = {
        location["physicalLocation"]["artifactLocation"]["uri"]
        for result in sarif["runs"][0]["results"]
        for location in result["locations"]
    }
    assert all(URI_CHARS.match(uri) for uri in uris), [u for u in uris if not URI_CHARS.match(u)][:5]
    assert {unquote_to_bytes(uri) for uri in uris} == {os.fsencode(n) for n in names}


def test_output_files_with_hostile_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("bad.form.yaml").write_text(CONTENTS[0], encoding="utf-8")
    for fmt in FORMATS:
        target = f"report\udce9\x1b[2J\n{fmt}.out"
        code, _ = run(["lint", "--no-cache", "--format", fmt, "-o", target, "bad.form.yaml"])
        assert code == 1
        data = Path(target).read_bytes()
        data.decode("utf-8")  # strict
        if fmt in ("json", "sarif"):
            json.loads(data)


def test_a_one_line_flow_file_prints_in_proportion_to_its_diagnostics(tmp_path: Path) -> None:
    keys = [f"undeclared_value_{n:05d}" for n in range(2200)]
    text = (
        '{"title": "t", "fields": {"a": {"type": "int"}}, "values": {'
        + ", ".join(f'"{k}": {n}' for n, k in enumerate(keys))
        + "}}"
    )
    assert len(text) > 60_000 and "\n" not in text
    path = tmp_path / "flow.form.json"
    path.write_text(text, encoding="utf-8")
    code, out = run(["lint", "--no-cache", "--format", "text", str(path)])
    assert code == 1
    lines = out.splitlines()
    headers = [n for n, line in enumerate(lines) if HEADER.match(line)]
    assert len(headers) >= len(keys)
    assert len(out.encode()) <= 600 * len(headers) + 10_000, len(out.encode())
    # each excerpt shows its own place: the carets sit under the key the diagnostic is about
    for at in headers[:: max(1, len(headers) // 50)]:
        header, source, carets = lines[at], lines[at + 1], lines[at + 2]
        if "FS005" not in header:
            continue
        start = carets.index("^")
        marked = source[start : start + carets.count("^")]
        assert re.fullmatch(r'"?undeclared_value_\d{5}"?', marked), (header, marked)
        assert marked.strip('"') in header
