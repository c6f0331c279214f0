"""The README's editor setups, run: each starts the server its way on a Python test file that
hands lionagi a script with a typo (diagnostics come back) and on one that does not use lionagi
(nothing does).

- Neovim: the README's ``FileType`` autocommand and its ``vim.lsp.config`` block run in the
  Neovim that is installed (Debian's 0.7: what 0.8 and 0.11 add — ``vim.lsp.start``,
  ``vim.fs``, ``vim.lsp.config``/``enable`` — is supplied by a few lines doing what those
  functions do, on top of ``vim.lsp.start_client``).
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
import shutil
import stat
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
SERVER = Path(__file__).resolve().parents[1] / "server"
sys.path.insert(0, str(Path(__file__).resolve().parent / "lsp"))

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

#: What Neovim 0.8 and 0.11 add, on 0.7's API (only where it is missing).
SHIM = r"""
if not vim.fs then
  vim.fs = {
    dirname = function(path) return vim.fn.fnamemodify(path, ":h") end,
    find = function(names, opts)
      for _, name in ipairs(names) do
        local hit = vim.fn.findfile(name, opts.path .. ";")
        if hit ~= "" then return { vim.fn.fnamemodify(hit, ":p") } end
      end
      return {}
    end,
  }
end
if not vim.lsp.start then
  local started = {}  -- as 0.8's: one client per name and root, reused
  vim.lsp.start = function(config)
    config.root_dir = config.root_dir or vim.fn.getcwd()
    local key = config.name .. "\0" .. config.root_dir
    started[key] = started[key] or vim.lsp.start_client(config)
    vim.lsp.buf_attach_client(0, started[key])
    return started[key]
  end
end
if not vim.lsp.config then
  local configs = {}
  vim.lsp.config = function(name, config) configs[name] = config end
  vim.lsp.enable = function(name)
    local config = configs[name]
    vim.api.nvim_create_autocmd("FileType", {
      pattern = config.filetypes,
      callback = function(args)
        vim.lsp.start({
          name = name, cmd = config.cmd, settings = config.settings,
          root_dir = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(args.buf), ":h"),
        })
      end,
    })
  end
end
"""

DRIVE = r"""
local out = os.getenv("FORMSCRIPT_OUT")
local seen = {}
for _, file in ipairs({ os.getenv("FORMSCRIPT_USES"), os.getenv("FORMSCRIPT_PLAIN") }) do
  vim.cmd("edit " .. vim.fn.fnameescape(file))
  if vim.bo.filetype ~= "python" then vim.bo.filetype = "python" end
  local bufnr = vim.api.nvim_get_current_buf()
  vim.wait(20000, function() return #vim.diagnostic.get(bufnr) > 0 end, 50)
  if file == os.getenv("FORMSCRIPT_PLAIN") then vim.wait(1500) end
  local codes = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(codes, d.code or ((d.user_data or {}).lsp or {}).code)
  end
  table.insert(seen, { clients = #vim.tbl_keys(vim.lsp.buf_get_clients(bufnr)), codes = codes })
end
local handle = io.open(out, "w")
handle:write(vim.fn.json_encode(seen))
handle:close()
vim.cmd("qa!")
"""


def _nvim() -> str:
    found = shutil.which("nvim")
    if found is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("nvim is not installed on CI; .ci/extras-nvim.sh installs it")
        pytest.skip("nvim is not installed (apt-get install neovim)")
    return found


@pytest.mark.nvim
@pytest.mark.parametrize("which", [0, 1], ids=["autocmd", "vim.lsp.config"])
def test_the_readme_neovim_setups_attach_to_python_files_that_use_lionagi(tmp_path: Path, which: int) -> None:
    nvim = _nvim()
    block = _blocks("Neovim", "lua")[which]
    assert '"python"' in block
    uses, plain = tmp_path / "test_uses.py", tmp_path / "test_plain.py"
    uses.write_text(USES, encoding="utf-8")
    plain.write_text(PLAIN, encoding="utf-8")
    init = tmp_path / "init.lua"
    init.write_text(SHIM + block + DRIVE, encoding="utf-8")
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
