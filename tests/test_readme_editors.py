"""The README's editor setups, run: each starts the server its way on a Python test file that
hands lionagi a script with a typo (diagnostics come back) and on one that does not use lionagi
(nothing does).

- Neovim: the README's ``FileType`` autocommand runs as printed in Debian's Neovim 0.7 and in
  a newer one (0.12, from ``.ci/extras-nvim.sh``); its ``vim.lsp.config`` block (0.11 and
  later) in the newer one.
- Helix is not installed: its configuration is read (TOML with ``tomllib``), and the server is
  started with the command, arguments, initialization options and languages it names, as the
  editor would.
- Emacs: the README's eglot setup runs in Debian's Emacs 28 with eglot 1.9, on these two
  Python files among others, in tests/emacs/test_emacs.py (``test_python_test_files_join_the_server``).
"""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

README = Path(__file__).resolve().parents[1] / "docs" / "editors.md"  # the site's page
SERVER = Path(__file__).resolve().parents[1] / "server"
sys.path.insert(0, str(Path(__file__).resolve().parent / "lsp"))
sys.path.insert(0, str(Path(__file__).resolve().parent / "nvim"))

import editor  # noqa: E402
from raw_lsp import RawServer  # noqa: E402

USES = """from lionagi.testing import TestBranch


async def test_greets():
    branch = TestBranch.from_responses([{"type": "text", "contnet": "hi"}])
"""
#: What the typo gets: the unknown key, and the text response's missing content.
TYPO = ["SC003", "SC004"]
PLAIN = "import os\n\n\ndef test_cwd():\n    assert os.getcwd()\n"


def _section(title: str) -> str:
    text = README.read_text(encoding="utf-8")
    return text.split(f"### {title}\n", 1)[1].split("\n### ", 1)[0]


def _blocks(title: str, language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", _section(title), re.DOTALL)


def _formscript_on_path(tmp_path: Path) -> dict[str, str]:
    """An environment whose ``formscript`` is this checkout's, as an installed one would be."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "formscript"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m formscript "$@"\n', encoding="utf-8")
    shim.chmod(shim.stat().st_mode | stat.S_IXUSR)
    python_path = os.pathsep.join(p for p in (str(SERVER), os.environ.get("PYTHONPATH", "")) if p)
    return {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "PYTHONPATH": python_path}


# ------------------------------------------------------------------------------- Neovim

DRIVE = r"""
local out = os.getenv("FORMSCRIPT_OUT")
local seen = {}
for _, file in ipairs({ os.getenv("FORMSCRIPT_USES"), os.getenv("FORMSCRIPT_PLAIN") }) do
  vim.cmd("edit " .. vim.fn.fnameescape(file))
  if vim.bo.filetype ~= "python" then vim.bo.filetype = "python" end
  local bufnr = vim.api.nvim_get_current_buf()
  if file == os.getenv("FORMSCRIPT_PLAIN") then  -- nothing comes: give it time to be wrong
    vim.wait(2000)
  else
    vim.wait(20000, function() return #vim.diagnostic.get(bufnr) > 0 end, 50)
  end
  local codes = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(codes, d.code or ((d.user_data or {}).lsp or {}).code)
  end
  local clients = 0
  for _, client in ipairs((vim.lsp.get_clients or vim.lsp.get_active_clients)()) do
    if vim.lsp.buf_is_attached(bufnr, client.id) then clients = clients + 1 end
  end
  table.insert(seen, { clients = clients, codes = codes })
end
local handle = io.open(out, "w")
handle:write(vim.fn.json_encode(seen))
handle:close()
vim.cmd("qa!")
"""


@pytest.mark.nvim
@pytest.mark.parametrize(
    ("which", "version"),
    [(0, "0.7"), (0, "newer"), (1, "newer")],
    ids=["autocmd-0.7", "autocmd-newer", "vim.lsp.config-newer"],
)
def test_the_readme_neovim_setups_attach_to_python_files_that_use_lionagi(
    tmp_path: Path, which: int, version: str
) -> None:
    nvim = editor.nvim(version)
    block = _blocks("Neovim", "lua")[which]
    assert '"python"' in block
    uses, plain = tmp_path / "test_uses.py", tmp_path / "test_plain.py"
    uses.write_text(USES, encoding="utf-8")
    plain.write_text(PLAIN, encoding="utf-8")
    init = tmp_path / "init.lua"
    init.write_text(block + DRIVE, encoding="utf-8")
    out = tmp_path / "seen.json"
    env = {
        **_formscript_on_path(tmp_path),
        "FORMSCRIPT_OUT": str(out),
        "FORMSCRIPT_USES": str(uses),
        "FORMSCRIPT_PLAIN": str(plain),
    }
    done = subprocess.run(
        [nvim, "--headless", "--clean", "-n", "-i", "NONE", "-u", "NONE", "-c", f"luafile {init}"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert out.exists(), done.stderr.decode("utf-8", "replace")[-2000:]
    seen = json.loads(out.read_text(encoding="utf-8"))
    assert seen[0]["clients"] == 1 and sorted(seen[0]["codes"]) == TYPO
    if which == 0:  # the autocommand does not start the server for a file without lionagi
        assert seen[1] == {"clients": 0, "codes": []}
    else:  # vim.lsp.enable attaches to every Python buffer; the server says nothing there
        assert seen[1] == {"clients": 1, "codes": []}


# ------------------------------------------------------------------------------- Helix


def _run_server(command: list[str], options: Any, language: str, tmp_path: Path) -> tuple[list[str], list[str]]:
    """Start *command* as an editor would, open the two Python files, return their codes."""
    server = RawServer(tmp_path, command=command, env=_formscript_on_path(tmp_path))
    try:
        server.request(
            "initialize",
            {
                "processId": None,
                "rootUri": tmp_path.as_uri(),
                "initializationOptions": options,
                "capabilities": {"textDocument": {"publishDiagnostics": {"versionSupport": True}}},
            },
            timeout=60,
        )
        server.notify("initialized", {})
        codes = []
        for name, text in (("test_uses.py", USES), ("test_plain.py", PLAIN)):
            uri = (tmp_path / name).as_uri()
            (tmp_path / name).write_text(text, encoding="utf-8")
            server.notify(
                "textDocument/didOpen",
                {"textDocument": {"uri": uri, "languageId": language, "version": 1, "text": text}},
            )
            codes.append([d["code"] for d in server.published(uri, 1)])
        return codes[0], codes[1]
    finally:
        server.close()


def test_the_readme_helix_setup_gives_python_files_to_formscript(tmp_path: Path) -> None:
    (block,) = _blocks("Helix", "toml")
    config = tomllib.loads(block)
    server = config["language-server"]["formscript"]
    languages = {entry["name"]: entry["language-servers"] for entry in config["language"]}
    assert "formscript" in languages["python"] and "formscript" in languages["yaml"]
    assert languages["python"][0] != "formscript", "the user's own Python server stays first"
    uses, plain = _run_server([server["command"], *server["args"]], server.get("config"), "python", tmp_path)
    assert (sorted(uses), plain) == (TYPO, [])
