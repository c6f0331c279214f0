"""One settings model: the fields of lint.config.Settings marked as settings are what the TOML
table, the language server's editor layer and the VS Code extension all take. The manifest's
``contributes.configuration`` is checked against the model here (names, types, enums,
defaults), and the extension's ``ServerConfig`` interface against the model's names."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Literal, get_args, get_origin, get_type_hints

import pytest

from formscript.lint import config
from formscript.lint.config import (
    KINDS,
    LEVEL_ALIASES,
    SETTINGS,
    SEVERITIES,
    ConfigError,
    Settings,
    editor_name,
    setting_names,
    settings_from_mapping,
    toml_name,
)
from formscript.lsp.settings import CLIENT_ONLY, SettingsStore, editor_table

ROOT = Path(__file__).resolve().parents[1]
MANIFEST: dict[str, Any] = json.loads((ROOT / "vscode-extension/package.json").read_text(encoding="utf-8"))[
    "contributes"
]["configuration"]["properties"]
#: The fields' types (``lint.config`` imports the typing names for the type checker only).
HINTS = get_type_hints(Settings, {**vars(config), "Any": Any, "Literal": Literal})


def _value_schema(annotation: Any) -> dict[str, Any]:
    """The JSON Schema VS Code must declare for a value of *annotation*."""
    if get_origin(annotation) is tuple:
        return {"type": "array", "items": {"type": "string"}}
    if get_origin(annotation) is Literal:
        values = list(get_args(annotation))
        if tuple(values) == SEVERITIES:  # the levels and the spellings the server also takes
            values += list(LEVEL_ALIASES)
        return {"type": "string", "enum": values}
    if get_origin(annotation) is dict:
        return {"type": "object", "additionalProperties": _value_schema(get_args(annotation)[1])}
    if annotation is bool:
        return {"type": "boolean"}
    assert annotation is str, annotation
    return {"type": "string"}


def _expected() -> dict[str, dict[str, Any]]:
    """Every VS Code setting the model implies, with its schema. A table whose keys are a
    fixed set (``kinds``) is one setting per key, as ``formscript.kinds.form``."""
    out: dict[str, dict[str, Any]] = {}
    for name in SETTINGS:
        annotation = HINTS[name]
        if get_origin(annotation) is dict and get_origin(get_args(annotation)[0]) is Literal:
            for key in get_args(get_args(annotation)[0]):
                out[f"formscript.{name}.{key}"] = _value_schema(get_args(annotation)[1])
        else:
            out[f"formscript.{editor_name(name)}"] = _value_schema(annotation)
    return out


def _name(setting: str) -> str:
    """The model's field a VS Code setting (``formscript.expectedOutcomes``) stands for."""
    return setting_names()[setting.removeprefix("formscript.")]


def test_the_settings_are_the_marked_fields_of_the_model() -> None:
    assert SETTINGS == (
        "select",
        "extend_select",
        "ignore",
        "severity",
        "per_file_ignores",
        "kinds",
        "calls",
        "expected_outcomes",
        "exclude",
        "respect_gitignore",
    )
    assert get_args(get_args(HINTS["severity"])[1]) == SEVERITIES
    assert get_args(get_args(HINTS["kinds"])[0]) == KINDS


def test_every_vscode_setting_is_a_model_key_or_client_only() -> None:
    client_only = {f"formscript.{name}" for name in CLIENT_ONLY}
    assert set(MANIFEST) == set(_expected()) | client_only


@pytest.mark.parametrize("setting", sorted(_expected()))
def test_the_vscode_setting_has_the_models_type_and_an_empty_default(setting: str) -> None:
    declared = MANIFEST[setting]
    expected = _expected()[setting]
    assert {k: declared.get(k) for k in expected} == expected
    if expected["type"] == "boolean":
        assert declared["default"] is getattr(Settings(), _name(setting))
    else:
        assert declared["default"] == ([] if expected["type"] == "array" else {})
    assert declared["scope"] == "resource"


def test_the_extension_sends_the_models_names() -> None:
    source = (ROOT / "vscode-extension/src/settings.ts").read_text(encoding="utf-8")
    interface = re.search(r"export interface ServerConfig \{(.*?)\}", source, re.S)
    assert interface is not None
    assert tuple(re.findall(r"^\s*(\w+)\?:", interface.group(1), re.M)) == SETTINGS


@pytest.mark.parametrize("name", SETTINGS)
def test_the_editor_layer_and_the_toml_table_take_every_setting(name: str) -> None:
    sample: Any = {
        "select": ["FS0"],
        "extend_select": ["FS02"],
        "ignore": ["SC01"],
        "severity": {"FS001": "warning"},
        "per_file_ignores": {"a/*.yaml": ["RS1"]},
        "kinds": {"form": ["specs/*.yaml"]},
        "calls": {"*.script.yaml": "common.calls.yaml"},
        "expected_outcomes": False,
        "exclude": ["legacy/"],
        "respect_gitignore": False,
    }[name]
    for spelling in {name, toml_name(name), editor_name(name)}:
        assert setting_names()[spelling] == name
        assert editor_table({"formscript": {spelling: sample}}) == {name: sample}
    parsed = settings_from_mapping({toml_name(name): sample})
    assert getattr(parsed, name) != getattr(Settings(), name)
    store = SettingsStore()
    assert store.set_editor({editor_name(name): sample}) is None
    assert getattr(store.for_path(""), name) == getattr(parsed, name)


def test_the_toml_table_refuses_editor_spellings_and_unknown_keys() -> None:
    with pytest.raises(ConfigError, match="unknown setting 'extendSelect'"):
        settings_from_mapping({"extendSelect": ["FS"]})
    assert editor_table({"formscript": {"unknown": 1, "path": "/x/formscript"}}) == {}


def test_severity_aliases_mean_the_same_everywhere(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The level aliases the VS Code extension accepts (warn, information, none; any case) are
    the server's too: in [tool.formscript], the editor's settings and --severity."""
    from formscript.cli import run

    parsed = settings_from_mapping({"severity": {"fs001": "Warn", "SC023": "information", "SC012": "NONE"}})
    assert parsed.severity == {"FS001": "warning", "SC023": "info", "SC012": "off"}
    store = SettingsStore()
    assert store.set_editor({"severity": {"FS001": "warn"}}) is None
    assert store.for_path("").severity == {"FS001": "warning"}
    with pytest.raises(ConfigError, match="must be one of error, warning, info, hint, off or warn"):
        settings_from_mapping({"severity": {"FS001": "loud"}})
    script = tmp_path / "a.script.yaml"
    script.write_text("responses:\n  - {type: text, content: hi, when: {after_calls: -1}}\n", encoding="utf-8")
    assert run(["lint", "--no-cache", "--severity", "SC023=Warn", "--format", "json", str(script)]) == 0
    (report,) = json.loads(capsys.readouterr().out)["files"]
    assert [(d["code"], d["severity"]) for d in report["diagnostics"]] == [("SC023", "warning")]


def test_the_kinds_and_levels_listed_are_the_values_of_their_types() -> None:
    """``lint.config`` writes its ``Kind`` and ``Level`` types for the type checker only (no
    ``typing`` at run time) beside the tuples of their values: the two agree."""
    assert get_args(eval(config.Kind, {"Literal": Literal})) == config.KINDS
    assert get_args(eval(config.Level, {"Literal": Literal})) == config.SEVERITIES
