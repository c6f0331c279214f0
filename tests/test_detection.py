"""Content detection claims a file only when its shape is unmistakably a lionagi script, form,
ruleset or calls transcript: other ecosystems' YAML (tests/fixtures/other_yaml/, written in
the shapes of Kubernetes, Helm, ESLint, OpenAPI, Rasa, ... files) is skipped silently, and
our own files keep their kind when their name does not say it."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
import yaml

from formscript.cli import run
from formscript.core import keys
from formscript.core.script_models import ENTRY_MODELS
from formscript.lint import kinds

ROOT = Path(__file__).resolve().parent.parent
OTHER = ROOT / "tests" / "fixtures" / "other_yaml"
NAMED = re.compile(r"\.(form|script|rules|calls)\.(ya?ml|json)$")


def test_detection_knows_the_keys_core_keys_knows() -> None:
    entry_keys = set()
    for response_type in ENTRY_MODELS:
        entry_keys |= set(keys.keys_of("entry", {"type": response_type}))
    assert set(keys.table("script")) == kinds._SCRIPT_KEYS
    assert entry_keys == kinds._ENTRY_KEYS
    assert set(ENTRY_MODELS) == kinds._ENTRY_TYPES
    assert set(keys.VALUES["mode"]) == kinds._MODES
    assert set(keys.table("form")) == kinds._FORM_KEYS
    assert set(keys.table("field")) == kinds._FIELD_KEYS
    assert set(keys.VALUES["field-type"]) == kinds._FIELD_TYPES
    assert set(keys.table("rule")) == kinds._RULE_KEYS
    assert set(keys.VALUES["check"]) == kinds._CHECKS
    assert set(keys.table("call")) == kinds._CALL_KEYS


def test_other_ecosystems_yaml_is_skipped_by_lint(capsys: pytest.CaptureFixture[str]) -> None:
    names = sorted(p.name for p in OTHER.iterdir())
    assert len(names) >= 60
    code = run(["lint", "--no-cache", "--format", "json", str(OTHER)])
    files = json.loads(capsys.readouterr().out)["files"]
    claimed = [(Path(f["path"]).name, f["kind"], [d["code"] for d in f["diagnostics"]]) for f in files if f["kind"]]
    assert claimed == []
    assert all(not f["diagnostics"] for f in files)
    assert code == 0


def _loadable_named_files() -> list[str]:
    """Our files whose name gives their kind and whose text loads (a syntax-error case has
    no content to detect: only its name can give its kind)."""
    found = []
    for base in ("examples", "tests"):
        for path in (ROOT / base).rglob("*"):
            if not NAMED.search(path.name) or "other_yaml" in path.parts:
                continue
            try:
                yaml.safe_load(path.read_text(encoding="utf-8"))
            except (yaml.YAMLError, UnicodeDecodeError, ValueError):
                continue
            found.append(path.relative_to(ROOT).as_posix())
    return sorted(found)


@pytest.mark.parametrize("name", _loadable_named_files())
def test_our_files_keep_their_kind_under_a_plain_name(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Renamed to a plain ``.yaml``/``.json``, a file is still linted as its kind, mistakes and
    all; a transcript that is only a list of strings is the one exception (any list of
    strings looks like that: such a file needs its ``.calls.yaml`` name)."""
    source = ROOT / name
    kind = NAMED.search(source.name).group(1)  # type: ignore[union-attr]
    value = yaml.safe_load(source.read_text(encoding="utf-8"))
    plain = tmp_path / ("plain" + source.suffix)
    shutil.copyfile(source, plain)
    run(["lint", "--no-cache", "--format", "json", str(plain)])
    (report,) = json.loads(capsys.readouterr().out)["files"]
    if kind == "calls" and isinstance(value, list) and all(isinstance(item, str) for item in value):
        assert report["kind"] is None
    else:
        assert report["kind"] == kind
