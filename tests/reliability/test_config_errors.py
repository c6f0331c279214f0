"""Configuration is validated with clear, located errors: a configuration that cannot be used
stops the run with exit code 2 and one line naming the file and the line of the setting —
never a traceback, and never a selection that silently checks nothing (a rejected file
that exits 0).

A table of the red team's cases, then generated ones: ``scale(150, 3000)`` configurations
with random values for every setting, each either accepted (every code it names a rule code,
a prefix of one, or ALL) or refused with one line naming the file.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from formscript.lint.config import SETTINGS, ConfigError, known_codes, load_file, toml_name

from .server_harness import scale

REJECTED = "fields:\n  n: {type: int}\nvalues:\n  n: not a number\n"
CASES = scale(150, 3000)


def lint(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``formscript lint`` in a process, from a folder below *root* (the configuration is
    found upward)."""
    folder = root / "sub" / "dir"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "x.form.yaml").write_text(REJECTED, encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "formscript", "lint", "--no-cache", *args, "x.form.yaml"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


TABLE = [
    ('tool = "x"\n', 1, "tool must be a table"),
    ("tool = [1, 2]\n", 1, "tool must be a table"),
    ('[tool]\nformscript = "x"\n', 2, "[tool.formscript] must be a table"),
    ('[tool.formscript]\nselect = [""]\n', 2, "'' is not a rule code"),
    ('[tool.formscript]\nselect = ["fs14"]\n', 2, "did you mean FS014?"),
    ('[tool.formscript]\n\n\nselect = ["ALL "]\n', 4, "did you mean ALL?"),
    ('[tool.formscript]\nignore = ["NOPE1"]\n', 2, "'NOPE1' is not a rule code"),
    ('[tool.formscript]\nextend-select = [" SC"]\n', 2, "' SC' is not a rule code"),
    ('[tool.formscript]\nper-file-ignores = {"*.yaml" = [""]}\n', 2, "'' is not a rule code"),
    ('[tool.formscript]\nseverity = {FS99 = "off"}\n', 2, "'FS99' is not a rule code"),
    ("[tool.formscript]\nseverity = {FS014 = 3}\n", 2, "severity for FS014 must be one of"),
    ("[tool.formscript]\nselect = 5\n", 2, "expected a list of rule codes"),
    ("[tool.formscript]\nkinds = {form = 5}\n", 2, "kinds take lists of globs"),
    ('[tool.formscript]\ncalls = ["x"]\n', 2, "calls must be a table"),
    ("[tool.formscript]\nbogus = 1\n", 2, "unknown setting 'bogus'"),
    # a name a known setting starts: located at its own line, not the known one's
    ('[tool.formscript]\nselectx = ["SC"]\n\nselect = ["SC"]\n', 2, "unknown setting 'selectx'"),
    ('[tool.formscript]\nselect = ["SC"]\n\nselectx = ["SC"]\n', 4, "unknown setting 'selectx'"),
    ("[tool.formscript]\nselect = [\n", None, "invalid TOML"),
    ("[tool.formscript]\nx = " + "[" * 5000 + "]" * 5000 + "\n", None, "nested too deeply"),
    ("[tool.formscript]\nselect = " + "[" * 5000 + "]" * 5000 + "\n", None, "nested too deeply"),
]


@pytest.mark.parametrize(("toml", "line", "says"), TABLE, ids=[f"case{n}" for n in range(len(TABLE))])
def test_an_unusable_configuration_is_one_located_line(tmp_path: Path, toml: str, line: int | None, says: str) -> None:
    (tmp_path / "pyproject.toml").write_text(toml, encoding="utf-8")
    done = lint(tmp_path)
    assert done.returncode == 2, done
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr[:2000]
    where = f"{tmp_path / 'pyproject.toml'}" + (f":{line}:" if line is not None else ":")
    assert lines[0].startswith(f"formscript: configuration error: {where}"), lines[0]
    assert says in lines[0], lines[0]


@pytest.mark.parametrize("codes", ["", "fs14", "ZZ", "FS014,nope"])
def test_command_line_codes_are_validated_too(tmp_path: Path, codes: str) -> None:
    """Options are comma-separated lists whose items are stripped (``--select "ALL "`` is ALL)."""
    done = lint(tmp_path, "--select", codes) if codes else lint(tmp_path, "--ignore", " ")
    if not codes:  # an empty option is no code at all: nothing selected away, the file fails
        assert done.returncode == 1, done
        return
    assert done.returncode == 2, done
    assert done.stderr.startswith("formscript: configuration error: command line: select:"), done.stderr


@pytest.mark.parametrize("selection", ['["ALL"]', '["FS"]', '["fs014"]', '["F"]', '"FS014"'])
def test_valid_selections_still_check(tmp_path: Path, selection: str) -> None:
    (tmp_path / "formscript.toml").write_text(f"select = {selection}\n", encoding="utf-8")
    done = lint(tmp_path)
    assert done.returncode == 1 and "FS014" in done.stdout, done


def _value(rand: random.Random, depth: int = 0) -> str:
    """A random TOML value."""
    choice = rand.randrange(9 if depth < 2 else 6)
    if choice == 0:
        return rand.choice(['""', '"ALL"', '"FS014"', '"fs"', '" "', '"SC0"', '"*.yaml"', '"x"', '"off"', '"error"'])
    if choice == 1:
        return rand.choice(["0", "-1", "3.5", "true", "1979-05-27"])
    if choice in (2, 3):
        return "[" + ", ".join(_value(rand, depth + 1) for _ in range(rand.randrange(3))) + "]"
    if choice == 4:
        return "[" * 40 + "]" * 40
    if choice == 5:
        return '"' + rand.choice(["FS0", "RS1", "YM", "CL00", "PY", "FSX", "ALL", "al"]) + '"'
    keys = rand.choice(['"*.yaml"', "form", "FS014", "script", '"x/**"', "calls", "FS016"])
    return "{" + ", ".join(f"{keys}{n or ''} = {_value(rand, depth + 1)}" for n in range(rand.randrange(3))) + "}"


def test_generated_configurations_are_used_or_refused_with_one_line(tmp_path: Path) -> None:
    """Every configuration is either used (naming only codes that exist: a selection may
    narrow the check, never silently empty it) or refused with one line naming the file."""
    rand = random.Random(20261201)
    names = [toml_name(n) for n in SETTINGS] + ["bogus"]
    refused = used = 0
    for number in range(CASES):
        lines = [f"{rand.choice(names)} = {_value(rand)}" for _ in range(rand.randrange(1, 4))]
        path = tmp_path / f"c{number}" / "formscript.toml"
        path.parent.mkdir()
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        try:
            settings = load_file(path)
        except ConfigError as exc:
            message = str(exc)
            assert "\n" not in message and message.startswith(str(path)), message
            refused += 1
            continue
        except Exception as exc:  # what the CLI would have shown as a traceback
            raise AssertionError(f"{path.read_text()!r}: {type(exc).__name__}: {exc}") from exc
        assert settings is not None
        used += 1
        for code in settings.select + settings.extend_select + settings.ignore:
            assert code == "ALL" or any(known.startswith(code) for known in known_codes()), code
    assert refused and used, (refused, used)
