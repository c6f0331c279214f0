"""End to end: the real yaml-language-server reads our schemas, flags mistakes and completes keys.

tests/yamlls/package.json pins the server; ``npm ci`` installs it once and a stamp of the
lock file's hash lets later runs reuse node_modules. Skipped only when ``node`` is absent.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from yamlls.lsp_client import SERVER_JS, YamlLanguageServer, yaml_settings

ROOT = Path(__file__).resolve().parents[1]
HARNESS = ROOT / "tests" / "yamlls"
SCHEMAS = ROOT / "schemas"
STAMP = HARNESS / "node_modules" / ".formscript-install-stamp"
CURSOR = "‸"

pytestmark = [
    pytest.mark.slow,  # drives yaml-language-server under node
    pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed"),
]


def _pinned_version() -> str:
    version: str = json.loads((HARNESS / "package.json").read_text())["dependencies"]["yaml-language-server"]
    return version


def _install_digest() -> str:
    digest = hashlib.sha256()
    for name in ("package.json", "package-lock.json"):
        digest.update((HARNESS / name).read_bytes())
    return digest.hexdigest()


@pytest.fixture(scope="session")
def yamlls_install() -> Path:
    """node_modules from ``npm ci``, reused while package.json and the lock are unchanged."""
    digest = _install_digest()
    if not (SERVER_JS.is_file() and STAMP.is_file() and STAMP.read_text() == digest):
        npm = shutil.which("npm")
        if npm is None:
            pytest.fail("node is installed but npm is not: cannot install yaml-language-server")
        done = subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts"],
            cwd=HARNESS,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        if done.returncode != 0:
            pytest.fail(f"npm ci failed in {HARNESS}:\n{done.stdout}\n{done.stderr}")
        STAMP.write_text(digest)
    installed = json.loads((HARNESS / "node_modules" / "yaml-language-server" / "package.json").read_text())["version"]
    assert installed == _pinned_version()
    return SERVER_JS


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("yamlls-workspace")


@pytest.fixture(scope="module")
def server(yamlls_install: Path, workspace: Path) -> Iterator[YamlLanguageServer]:
    # Plain absolute paths as keys, globs as values: what a user writes in yaml.schemas.
    settings = yaml_settings(
        {
            str(SCHEMAS / "script.schema.json"): ["*.script.yaml"],
            str(SCHEMAS / "ruleset.schema.json"): ["*.rules.yaml"],
            str(SCHEMAS / "calls.schema.json"): ["*.calls.yaml"],
            str(SCHEMAS / "form-spec.schema.json"): ["*.form.yaml"],
        },
        # Parse as the runtime does (PyYAML speaks YAML 1.1): schemas/README.md recommends it.
        yamlVersion="1.1",
    )
    with YamlLanguageServer(settings, root=workspace) as running:
        running.initialize()
        # Wait until the settings are in effect: a known mistake must be reported.
        warmup = workspace / "warmup.script.yaml"
        warmup.write_text("responses:\n  - type: txt\n", encoding="utf-8")
        uri = running.open(warmup)
        deadline = time.monotonic() + 20
        while not running.diagnostics(uri, timeout=20):
            if time.monotonic() > deadline:
                pytest.fail(f"yaml-language-server never applied the schemas: {running.log}")
            uri = running.open(warmup)
        yield running


def _open(server: YamlLanguageServer, workspace: Path, name: str, text: str) -> tuple[str, tuple[int, int] | None]:
    """Write and open a fixture; a ``‸`` in *text* marks a position and is removed."""
    position = None
    if CURSOR in text:
        before = text[: text.index(CURSOR)]
        position = (before.count("\n"), len(before) - (before.rfind("\n") + 1))
        text = text.replace(CURSOR, "")
    path = workspace / name
    path.write_text(text, encoding="utf-8")
    return server.open(path), position


def _problems(server: YamlLanguageServer, uri: str) -> set[tuple[int, str]]:
    """(1-based line, message) of every diagnostic published for *uri*."""
    return {(d["range"]["start"]["line"] + 1, d["message"]) for d in server.diagnostics(uri)}


def _labels(server: YamlLanguageServer, uri: str, position: tuple[int, int] | None) -> set[str]:
    assert position is not None
    return {str(item["label"]) for item in server.completion(uri, *position)}


def _modeline(workspace: Path, kind: str) -> str:
    relative = os.path.relpath(SCHEMAS / f"{kind}.schema.json", workspace)
    return f"# yaml-language-server: $schema={relative}\n"


TYPES = '"text", "tool_call", "structured", "stream", "error"'


# --------------------------------------------------------------------------- diagnostics


def test_valid_files_get_no_diagnostics(server: YamlLanguageServer, workspace: Path) -> None:
    files = {
        "ok.script.yaml": (
            "version: 1\nmode: auto\nresponses:\n"
            "  - type: text\n    content: hello\n    when:\n      prompt_contains: hi\n"
            "  - type: tool_call\n    name: search\n    arguments: {q: cats}\n"
            "  - type: structured\n    data: {answer: 42}\n"
            "  - type: stream\n    chunks:\n      - {type: text, content: a, is_delta: true}\n"
            "      - type: result\n"
            "  - type: error\n    kind: timeout\n    delay_ms: 10\n"
        ),
        "ok.form.yaml": (
            "title: Signup\nfields:\n  name: {type: str, description: Full name}\n"
            "  age:\n    type: int\n    required: false\n    default: 18\n"
            "values:\n  name: Ada\n  age: '36'\n"
        ),
        "ok.rules.yaml": (
            "rules:\n  - {rule_id: r1, field: name, check: required}\n"
            "  - rule_id: r2\n    field: age\n    check: range\n    params: {min: 0, max: 130}\n"
        ),
        "ok.calls.yaml": "- hello\n- prompt: search cats\n  tools: [search]\n"
        "- payload:\n    messages:\n      - {role: user, content: hi}\n",
    }
    for name, text in files.items():
        uri, _ = _open(server, workspace, name, text)
        assert _problems(server, uri) == set(), name
        # ... and the schema really was applied: hovering the first key shows its description.
        hover = server.hover(uri, 0, 1 if not text.startswith("- ") else 3)
        assert hover is not None, name
        source = name.split(".")[1].replace("rules", "ruleset").replace("form", "form-spec")
        assert f"{source}.schema.json" in hover["contents"]["value"], name


def test_script_mistakes_are_reported(server: YamlLanguageServer, workspace: Path) -> None:
    uri, _ = _open(
        server,
        workspace,
        "bad.script.yaml",
        (
            "mode: auto\n"  # 1
            "responses:\n"  # 2
            "  - type: text\n"  # 3
            "    content: hi\n"  # 4
            "    contnet: typo\n"  # 5  misspelt key
            "  - type: txt\n"  # 6  unknown type
            "    content: x\n"  # 7
            "  - type: tool_call\n"  # 8
            "    name: t\n"  # 9
            "    when:\n"  # 10
            "      prompt_contians: x\n"  # 11 misspelt matcher key
            "  - type: stream\n"  # 12
            "    chunks:\n"  # 13
            "      - type: text\n"  # 14
            "        contet: a\n"  # 15 misspelt chunk key
            "  - type: text\n"  # 16
            "    name: t\n"  # 17 a key of another type (and no content)
            "responses_: []\n"  # 18 unknown top-level key
        ),
    )
    assert _problems(server, uri) == {
        (5, "Property contnet is not allowed."),
        (6, f"Value is not accepted. Valid values: {TYPES}."),
        (11, "Property prompt_contians is not allowed."),
        (15, "Property contet is not allowed."),
        (16, 'Missing property "content".'),
        (17, "Property name is not allowed."),
        (18, "Property responses_ is not allowed."),
    }


def test_form_mistakes_are_reported_through_the_modeline(server: YamlLanguageServer, workspace: Path) -> None:
    uri, _ = _open(
        server,
        workspace,
        "signup.yaml",
        _modeline(workspace, "form-spec")
        + (
            "title: yes\n"  # 2  YAML 1.1 boolean
            "fields:\n"  # 3
            "  age:\n"  # 4
            "    type: int\n"  # 5
            "    requird: true\n"  # 6  misspelt key
            "    default: old\n"  # 7  wrong default type
            "  1st:\n"  # 8  not an identifier
            "    type: string\n"  # 9  unknown field type
            "values:\n"  # 10
            "  age: 3\n"  # 11
            "extra: 1\n"  # 12 unknown top-level key
        ),
    )
    problems = _problems(server, uri)
    assert (2, 'Incorrect type. Expected "string".') in problems
    assert (6, "Property requird is not allowed.") in problems
    assert (
        7,
        "The field's type is int, so its default must already be an integer (or"
        " true/false) or null: defaults are never coerced.",
    ) in problems
    assert (
        8,
        "A field name must start with a letter or underscore and contain only letters, digits and underscores.",
    ) in problems
    assert any(
        line == 9 and message.startswith("Value is not accepted. Valid values:") for line, message in problems
    ), problems
    assert (12, "Property extra is not allowed.") in problems
    assert len(problems) == 6, problems


def test_values_without_fields_are_reported(server: YamlLanguageServer, workspace: Path) -> None:
    uri, _ = _open(server, workspace, "nofields.form.yaml", "title: T\nvalues:\n  a: 1\n")
    assert _problems(server, uri) == {(1, 'Missing property "fields".')}


def test_ruleset_and_calls_mistakes_are_reported(server: YamlLanguageServer, workspace: Path) -> None:
    rules, _ = _open(
        server,
        workspace,
        "bad.rules.yaml",
        (
            "rules:\n"
            "  - rule_id: r1\n"
            "    field: code\n"
            "    check: patern\n"  # 4 unknown check
            "  - rule_id: r2\n"
            "    field: age\n"
            "    check: range\n"
            "    mesage: too old\n"  # 8 misspelt key
        ),
    )
    problems = _problems(server, rules)
    assert (8, "Property mesage is not allowed.") in problems
    assert any(line == 4 and "Valid values" in message for line, message in problems), problems
    calls, _ = _open(server, workspace, "bad.calls.yaml", "- hello\n- promt: hi\n")
    assert (2, "Property promt is not allowed.") in _problems(server, calls)


# --------------------------------------------------------------------------- completion


def test_completion_in_a_response_entry_offers_when(server: YamlLanguageServer, workspace: Path) -> None:
    uri, position = _open(server, workspace, "complete1.script.yaml", "responses:\n  - type: text\n    ‸\n")
    labels = _labels(server, uri, position)
    assert {"when", "content"} <= labels
    assert "name" not in labels  # a tool_call key is not offered for a text entry


def test_completion_in_an_error_entry_offers_its_own_keys(server: YamlLanguageServer, workspace: Path) -> None:
    uri, position = _open(server, workspace, "complete2.script.yaml", "responses:\n  - type: error\n    ‸\n")
    assert {"kind", "message", "delay_ms", "when"} <= _labels(server, uri, position)


def test_completion_of_a_new_entry_offers_a_snippet_per_type(server: YamlLanguageServer, workspace: Path) -> None:
    uri, position = _open(server, workspace, "complete3.script.yaml", "responses:\n  - ‸\n")
    labels = _labels(server, uri, position)
    assert {f"{t} response" for t in ("text", "tool_call", "structured", "stream", "error")} <= labels


def test_completion_of_the_type_value_lists_response_types(server: YamlLanguageServer, workspace: Path) -> None:
    uri, position = _open(server, workspace, "complete4.script.yaml", "responses:\n  - type: ‸\n")
    assert {"text", "tool_call", "structured", "stream", "error"} <= _labels(server, uri, position)


def test_completion_in_a_matcher_offers_its_predicates(server: YamlLanguageServer, workspace: Path) -> None:
    uri, position = _open(
        server, workspace, "complete5.script.yaml", "responses:\n  - type: text\n    content: x\n    when:\n      ‸\n"
    )
    assert {"prompt_contains", "prompt_regex", "has_tool", "call_index", "after_calls"} <= _labels(
        server, uri, position
    )


def test_completion_in_a_field_declaration_offers_type_and_required(
    server: YamlLanguageServer, workspace: Path
) -> None:
    uri, position = _open(server, workspace, "complete.form.yaml", "fields:\n  age:\n    description: years\n    ‸\n")
    labels = _labels(server, uri, position)
    assert {"type", "required", "default"} <= labels
    assert "name" not in labels


def test_hover_explains_the_matcher_priority(server: YamlLanguageServer, workspace: Path) -> None:
    uri, _ = _open(
        server,
        workspace,
        "hover.script.yaml",
        "responses:\n  - type: text\n    content: x\n    when:\n      prompt_contains: hi\n",
    )
    server.diagnostics(uri)
    hover: Any = server.hover(uri, 4, 8)
    text = hover["contents"]["value"]
    assert "case-insensitively" in text and "not evaluated" in text
