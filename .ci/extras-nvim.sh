#!/usr/bin/env bash
# Installs Debian's Neovim for the editor test (tests/nvim), when nvim is missing.
# CI machines are fresh Debian hosts where this runs as root; elsewhere sudo is used if present.
set -euo pipefail

if command -v nvim >/dev/null 2>&1; then
  echo "nvim already installed: $(nvim --version | head -n 1)"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
  else
    echo "extras-nvim: nvim is missing and this is not root (no sudo either)" >&2
    exit 1
  fi
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends neovim
echo "installed: $(nvim --version | head -n 1)"
