"""A real editor: Debian's Neovim 0.7 drives the language server headless.

On CI (``CI=true``) a missing ``nvim`` is a failure, not a skip: ``.ci/extras-nvim.sh``
installs it."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import editor  # noqa: E402

from formscript.lint.engine import lint_text  # noqa: E402

FIXTURE = HERE / "fixtures" / "review.form.yaml"

pytestmark = pytest.mark.nvim


def _nvim() -> str:
    found = shutil.which("nvim")
    if found is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("nvim is not installed on CI; .ci/extras-nvim.sh installs it")
        pytest.skip("nvim is not installed (apt-get install neovim)")
    return found


def test_neovim_shows_diagnostics_and_hover(tmp_path: Path) -> None:
    nvim = _nvim()
    fixture = tmp_path / FIXTURE.name
    shutil.copy(FIXTURE, fixture)
    out = tmp_path / "seen.json"
    lines = fixture.read_text(encoding="utf-8").split("\n")
    values = lines[5]
    raw = values.encode("utf-8")

    def byte(word: str) -> int:
        return raw.index(word.encode("utf-8"))

    env = {
        **os.environ,
        "FORMSCRIPT_PYTHON": sys.executable,
        "FORMSCRIPT_FIXTURE": str(fixture),
        "FORMSCRIPT_OUT": str(out),
        "FORMSCRIPT_HOVER_LINE": "5",
        "FORMSCRIPT_HOVER_BYTE": str(byte(" no}") + 1),
    }
    subprocess.run(
        [nvim, "--headless", "--clean", "-n", "-i", "NONE", "-u", "NONE", "-c", f"luafile {HERE / 'drive.lua'}"],
        env=env,
        cwd=tmp_path,
        timeout=90,
        check=False,
        capture_output=True,
    )
    seen = json.loads(out.read_text(encoding="utf-8"))
    assert seen["errors"] == []
    assert seen["offset_encoding"] == "utf-16"
    found = sorted(
        (d["lnum"], d["col"], d["end_col"], d["severity"], d["code"], d["source"]) for d in seen["diagnostics"]
    )
    # vim.diagnostic columns are bytes: the server's UTF-16 ranges after the emoji convert
    assert found == [
        (5, byte("aeg"), byte("aeg") + 3, 1, "FS005", "formscript"),
        (5, byte('"7"'), byte('"7"') + 3, 3, "FS016", "formscript"),
        (5, byte(" no}") + 1, byte(" no}") + 3, 1, "FS015", "formscript"),
    ]
    messages = {d["code"]: d["message"] for d in seen["diagnostics"]}
    assert messages["FS005"] == "value 'aeg' has no field declaration; did you mean 'age'?"
    utf16 = len(values[: values.index(" no}") + 1].encode("utf-16-le")) // 2
    assert seen["hover_position"] == {"line": 5, "character": utf16}
    assert seen["hover"] == (
        "The runtime sees `False` (bool), which is not a `str`: the form is refused\n\n"
        "YAML 1.1 reads the unquoted `no` as a boolean; quote it to keep the text."
    )
    assert seen["hover_range"] == {"start": {"line": 5, "character": utf16}, "end": {"line": 5, "character": utf16 + 2}}


def test_neovim_shows_diagnostics_and_hover_inside_a_python_test_file(tmp_path: Path) -> None:
    nvim = _nvim()
    fixture = tmp_path / "review_tests.py"  # (not named test_*: pytest would collect it)
    shutil.copy(HERE / "fixtures" / "review_tests.py", fixture)
    out = tmp_path / "seen.json"
    line = fixture.read_text(encoding="utf-8").split("\n")[4]
    raw = line.encode("utf-8")

    def byte(word: str) -> int:
        return raw.index(word.encode("utf-8"))

    env = {
        **os.environ,
        "FORMSCRIPT_PYTHON": sys.executable,
        "FORMSCRIPT_FIXTURE": str(fixture),
        "FORMSCRIPT_OUT": str(out),
        "FORMSCRIPT_FILETYPE": "python",
        "FORMSCRIPT_HOVER_LINE": "4",
        "FORMSCRIPT_HOVER_BYTE": str(byte('"txt"') + 1),
    }
    subprocess.run(
        [nvim, "--headless", "--clean", "-n", "-i", "NONE", "-u", "NONE", "-c", f"luafile {HERE / 'drive.lua'}"],
        env=env,
        cwd=tmp_path,
        timeout=90,
        check=False,
        capture_output=True,
    )
    seen = json.loads(out.read_text(encoding="utf-8"))
    assert seen["errors"] == []
    found = sorted((d["lnum"], d["col"], d["end_col"], d["code"]) for d in seen["diagnostics"])
    # the second entry's content comes after the check mark: byte columns count it as three
    assert found == [
        (4, byte('"txt"'), byte('"txt"') + 5, "SC002"),
        (4, byte("7}"), byte("7}") + 1, "SC005"),
    ]
    assert "txt" in seen["hover"] and seen["hover_range"]["start"]["line"] == 4


# ------------------------------------------------------------- the README's setup, for real

#: The README's FileType autocommand: what every Neovim from 0.7 on runs.
SETUP = "vim.api.nvim_create_autocmd"
REVIEW = FIXTURE.read_text(encoding="utf-8")
VERSIONS = ["0.7", "newer"]


def _project(tmp_path: Path) -> tuple[Path, Path, Path]:
    """Two forms under one root (``proj``, with pyproject.toml), one under another (``other``)."""
    proj, other = tmp_path / "proj", tmp_path / "other"
    (proj / "sub").mkdir(parents=True)
    other.mkdir()
    (proj / "pyproject.toml").write_text("[project]\nname = 'p'\n", encoding="utf-8")
    (other / "formscript.toml").write_text("", encoding="utf-8")
    first, second, third = proj / "review.form.yaml", proj / "sub" / "second.form.yaml", other / "third.form.yaml"
    for path in (first, second, third):
        path.write_text(REVIEW, encoding="utf-8")
    return first, second, third


@pytest.mark.parametrize("version", VERSIONS)
def test_the_readme_setup_runs_one_server_per_project_root(tmp_path: Path, version: str) -> None:
    binary = editor.nvim(version)
    first, second, third = _project(tmp_path)
    values = REVIEW.split("\n")[5]
    column = values.encode("utf-8").index(b" no}") + 1
    seen = editor.run(
        binary,
        tmp_path,
        editor.readme_lua(SETUP),
        "roots",
        [first, second, third],
        FORMSCRIPT_HOVER_LINE="5",
        FORMSCRIPT_HOVER_BYTE=str(column),
    )
    a, b, c = seen["buffers"]
    # the two buffers of proj share one client; other/ has its own
    assert len(a["clients"]) == 1 and a["clients"] == b["clients"] and c["clients"] != a["clients"]
    proj, other = str(tmp_path / "proj"), str(tmp_path / "other")
    assert (a["root"], b["root"], c["root"]) == (proj, proj, other)
    assert (seen["clients"], seen["processes"]) == (2, 2)
    # diagnostics in each buffer; FS016 is ignored by the snippet's init_options
    for buffer in (a, b, c):
        assert [(d["lnum"], d["code"]) for d in buffer["diagnostics"]] == [(5, "FS005"), (5, "FS015")]
    assert "The runtime sees `False` (bool), which is not a `str`: the form is refused" in seen["hover"]


# ------------------------------------------------------------------------------ completion

SCRIPT = "responses:\n  - type: text\n    content: hi\n"
#: (file name, text, line typed at (0-based, a new line), what is typed, the label accepted)
COMPLETIONS = {
    "entry-after-dash": ("s.script.yaml", SCRIPT, 3, "  - ", "text response"),
    "entry-new-item": ("s.script.yaml", SCRIPT, 3, "  ", "tool_call response"),
    "list-key": ("f.script.yaml", "version: 1\n", 1, "resp", "responses"),
    "mapping-key": ("f.form.yaml", "title: T\n", 1, "val", "values"),
    "field": ("g.form.yaml", "title: T\nfields:\n  a: {type: str}\n", 3, "  ", "field declaration"),
}
#: What each case writes. Neovim 0.7 (no snippets) gets one line meaning what the snippet's
#: text means; the newer one (snippets, expanded relative to the line's indentation) the block.
WRITTEN = {
    "entry-after-dash": (
        SCRIPT + "  - {type: text, content: Hello}\n",
        SCRIPT + "  - type: text\n    content: Hello\n",
    ),
    "entry-new-item": (
        SCRIPT + "  - {type: tool_call, name: tool_name, arguments: {arg: null}}\n",
        SCRIPT + "  - type: tool_call\n    name: tool_name\n    arguments:\n      arg: \n",
    ),
    "list-key": ("version: 1\nresponses: \n", "version: 1\nresponses:\n  - \n"),
    "mapping-key": ("title: T\nvalues: \n", "title: T\nvalues:\n  \n"),
    "field": (
        "title: T\nfields:\n  a: {type: str}\n  name: {type: str, required: true, description: null}\n",
        # (Neovim leaves a choice's placeholder empty until one is chosen)
        "title: T\nfields:\n  a: {type: str}\n  name:\n    type: \n    required: \n    description: \n",
    ),
}
PYTHON = (
    "from lionagi.testing import ScriptModel\n\n\ndef test_it():\n"
    '    ScriptModel.from_responses([{"type": "text", "co"}])\n'
)


@pytest.mark.slow
@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("case", sorted(COMPLETIONS))
def test_accepting_a_completion_in_neovim_inserts_text_that_lints_clean(
    tmp_path: Path, version: str, case: str
) -> None:
    binary = editor.nvim(version)
    name, text, line, typed, label = COMPLETIONS[case]
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    setup = editor.readme_lua(SETUP)
    seen = editor.run(
        binary,
        tmp_path,
        setup,
        "complete",
        [path],
        FORMSCRIPT_LINE=str(line),
        FORMSCRIPT_TYPE=typed,
        FORMSCRIPT_LABEL=label,
        FORMSCRIPT_NEW_LINE="1",
    )
    assert seen["accepted"], seen
    written = path.read_bytes()
    assert b"\0" not in written
    report = lint_text(written.decode("utf-8"), str(path))
    assert report.verdict is not None and report.document is not None, written
    assert [d.code for d in report.diagnostics if d.code.startswith("YM")] == [], (written, json.dumps(seen)[:3000])
    assert written.decode("utf-8") == WRITTEN[case][VERSIONS.index(version)]


@pytest.mark.slow
@pytest.mark.parametrize("version", VERSIONS)
def test_accepting_a_key_inside_a_closed_python_string_in_neovim(tmp_path: Path, version: str) -> None:
    binary = editor.nvim(version)
    path = tmp_path / "uses_tests.py"
    path.write_text(PYTHON, encoding="utf-8")
    seen = editor.run(
        binary,
        tmp_path,
        editor.readme_lua(SETUP),
        "complete",
        [path],
        FORMSCRIPT_LINE="4",
        FORMSCRIPT_TYPE="",
        FORMSCRIPT_BACK="4",  # before the closing quote of "co"
        FORMSCRIPT_LABEL="content",
    )
    assert seen["accepted"], json.dumps(seen)
    line = path.read_text(encoding="utf-8").split("\n")[4]
    assert line == '    ScriptModel.from_responses([{"type": "text", "content"}])'


# ------------------------------------------------------------------- configuration files


# Neovim 0.12 pulls diagnostics and offers no workspace/diagnostic/refresh: a saved buffer is
# not pulled again, so there the change shows at the next edit.
@pytest.mark.slow
@pytest.mark.parametrize(("version", "touch"), [("0.7", "edit"), ("0.7", "write"), ("newer", "edit")])
def test_a_changed_pyproject_reaches_the_diagnostics_in_neovim(tmp_path: Path, version: str, touch: str) -> None:
    binary = editor.nvim(version)
    first, _, _ = _project(tmp_path)
    pyproject = tmp_path / "proj" / "pyproject.toml"
    pyproject.write_text("[project]\nname = 'p'\n\n[tool.formscript]\n", encoding="utf-8")
    seen = editor.run(
        binary,
        tmp_path,
        editor.readme_lua(SETUP),
        "config_change",
        [first],
        FORMSCRIPT_CONFIG_PATH=str(pyproject),
        FORMSCRIPT_CONFIG_TEXT="[project]\nname = 'p'\n\n[tool.formscript.severity]\nFS005 = 'hint'\n",
        FORMSCRIPT_TOUCH=touch,
    )
    # (the README's init_options ignore FS016, as a command line's --ignore would)
    assert [(d["code"], d["severity"]) for d in seen["before"]] == [("FS005", 1), ("FS015", 1)]
    assert seen["changed"], json.dumps(seen)
    assert [(d["code"], d["severity"]) for d in seen["after"]] == [("FS005", 4), ("FS015", 1)]


# ------------------------------------------------------------------------------- settings

SETTINGS_SETUP = """
vim.api.nvim_create_autocmd("BufRead", {
  pattern = "*.form.yaml",
  callback = function(args)
    local id = vim.lsp.start_client({
      name = "formscript",
      cmd = { "formscript", "serve" },
      root_dir = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(args.buf), ":p:h"),
      settings = { formscript = { severity = { FS005 = "hint" }, ignore = { "FS016" } } },
      ON_INIT
    })
    vim.lsp.buf_attach_client(args.buf, id)
  end,
})
"""


@pytest.mark.slow
@pytest.mark.parametrize("on_init", [True, False], ids=["with-the-readme-on_init", "settings-alone"])
def test_settings_reach_the_server_from_neovim_0_7_with_the_readme_on_init(tmp_path: Path, on_init: bool) -> None:
    binary = editor.nvim("0.7")
    prose = editor.readme_neovim_prose()
    match = re.search(r"`(on_init = function\(client\) .*? end)`", prose)
    assert match, "the README's Neovim section names the on_init line"
    setup = SETTINGS_SETUP.replace("ON_INIT", match.group(1) + "," if on_init else "")
    path = tmp_path / "review.form.yaml"
    path.write_text(REVIEW, encoding="utf-8")
    seen = editor.run(binary, tmp_path, setup, "roots", [path])
    found = [(d["code"], d["severity"]) for d in seen["buffers"][0]["diagnostics"]]
    if on_init:  # FS005 as a hint, FS016 ignored
        assert found == [("FS005", 4), ("FS015", 1)]
    else:  # what the README warns of: 0.7 sends nothing, the settings have no effect
        assert found == [("FS005", 1), ("FS016", 3), ("FS015", 1)]


# ----------------------------------------------------------------- the dry run, shown


@pytest.mark.parametrize("version", VERSIONS)
def test_the_dry_run_code_action_shows_its_result_in_neovim(tmp_path: Path, version: str) -> None:
    """A lens's command answers text, which Neovim drops (``vim.lsp.codelens.run`` shows
    nothing); the code action "formscript: Dry run" has the server show it: 0.7 cannot open a
    document for the server, so it gets a message naming the result file; the newer one opens
    the file."""
    binary = editor.nvim(version)
    first, _, _ = _project(tmp_path)
    cache = tmp_path / "cache"
    seen = editor.run(
        binary,
        tmp_path,
        editor.readme_lua(SETUP),
        "action",
        [first],
        FORMSCRIPT_ACTION="formscript: Dry run",
        XDG_CACHE_HOME=str(cache),
    )
    assert "formscript: Dry run" in seen["titles"] and seen["shown"], seen
    (written,) = (cache / "formscript" / "results").iterdir()
    text = written.read_text(encoding="utf-8")
    expected = subprocess.run(
        [sys.executable, "-m", "formscript", "dry-run", str(first)],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PYTHONPATH": str(editor.SERVER)},
    ).stdout
    assert text.strip() and text.strip() == expected.strip()
    if version == "0.7":
        (message,) = seen["messages"]
        assert message.startswith("formscript dry run: ") and str(written) in message
    else:
        assert [b["name"] for b in seen["buffers"]] == [str(written)]
        assert "\n".join(seen["buffers"][0]["lines"]).strip() == text.strip()
